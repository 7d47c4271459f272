"""Animal holding: which farm animals a home board can keep, and one arrangement that keeps them.

Players own counts of animals; the engine never asks where an animal stands. `fits` answers
whether some arrangement houses all of them, `arrange` returns one (for the board view).

Holdings (RULES.md section 10): pastures hold 2 of one type per space, doubled per stable;
an unfenced meadow with a stable holds 1 of any type; a forest stable 1 wild boar; each mine
1 donkey; the entry-level and Mixed dwellings 2 of one type; Breakfast room 3 cattle; Cuddle
room as many sheep as dwarfs; Stubble room 1 of any type per empty field. Dogs stand anywhere;
on a sheep-only meadow or pasture with d dogs the sheep capacity is max(normal, d + 1).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from . import board_memo

FARM = ("sheep", "donkey", "wild_boar", "cattle")


def holdings(cells: list[dict[str, Any]], dwarfs: int) -> dict[str, Any]:
    """The board's holdings in solver form (hashable parts only)."""
    containers: list[tuple[int, bool, tuple[int, ...]]] = []  # (capacity, dog-capable, cells)
    fixed = {"sheep": 0, "donkey": 0, "wild_boar": 0, "cattle": 0}
    wild: list[int] = []  # cells holding 1 animal of any type
    empty_meadows: list[int] = []
    meadow_stables: list[int] = []
    seen_large: set[int] = set()
    for i, c in enumerate(cells):
        k = c["k"]
        if k == "pasture":
            containers.append((2 * (2 if c["st"] else 1), True, (i,)))
        elif k == "large_pasture":
            if i in seen_large:
                continue
            j = c["pair"]
            seen_large.update((i, j))
            stables = int(c["st"]) + int(cells[j]["st"])
            containers.append((4 * (2**stables), True, (min(i, j), max(i, j))))
        elif k == "meadow":
            if c["st"]:
                wild.append(i)
                meadow_stables.append(i)
            else:
                empty_meadows.append(i)
        elif k == "forest" and c["st"]:
            fixed["wild_boar"] += 1
        elif k in ("ore_mine", "ruby_mine"):
            fixed["donkey"] += 1
        elif k == "entry":
            containers.append((2, False, (i,)))
        elif k == "room":
            tile = c["tile"]
            if tile == "mixed_dwelling":
                containers.append((2, False, (i,)))
            elif tile == "breakfast_room":
                fixed["cattle"] += 3
            elif tile == "cuddle_room":
                fixed["sheep"] += dwarfs
            elif tile == "stubble_room":
                wild.extend(j for j, f in enumerate(cells) if f["k"] == "field" and not f.get("n"))
    containers.sort(key=lambda item: (-item[0], item[2]))
    return {
        "containers": containers,
        "fixed": fixed,
        "wild": wild,
        "empty_meadows": empty_meadows,
        "meadow_stables": meadow_stables,
    }


def fits(cells: list[dict[str, Any]], dwarfs: int, animals: dict[str, int]) -> bool:
    get = animals.get
    sheep, donkey, boar, cattle = get("sheep", 0), get("donkey", 0), get("wild_boar", 0), get(
        "cattle", 0)
    if not (sheep or donkey or boar or cattle):  # dogs stand anywhere: nothing to house
        return True
    known = board_memo.facts(cells)  # asked after every step: kept with the board's facts
    key = ("fits", dwarfs, sheep, donkey, boar, cattle, get("dog", 0))
    found = known.get(key)
    if found is None:
        found = known[key] = arrange_plan(cells, dwarfs, animals) is not None
    return found


def _solver_form(cells: list[dict[str, Any]], dwarfs: int) -> tuple:
    """(fixed places per farm type, container capacities, dog-capable containers, wild slots,
    empty meadows, meadow stables): what the solver asks of the board, kept with its facts."""
    known = board_memo.facts(cells)
    key = ("holdings", dwarfs)
    form = known.get(key)
    if form is None:
        h = holdings(cells, dwarfs)
        form = known[key] = (
            tuple(h["fixed"][t] for t in FARM),
            tuple(c[0] for c in h["containers"]),
            tuple(c[1] for c in h["containers"]),
            len(h["wild"]),
            len(h["empty_meadows"]),
            len(h["meadow_stables"]),
        )
    return form


def arrange_plan(cells: list[dict[str, Any]], dwarfs: int, animals: dict[str, int]) -> tuple | None:
    fixed, caps, dog_ok, wild, empty, meadow_stables = _solver_form(cells, dwarfs)
    need = tuple(max(0, animals.get(t, 0) - f) for t, f in zip(FARM, fixed, strict=True))
    if not any(need):
        return ((), "none")
    return _solve(need, caps, dog_ok, wild, empty, meadow_stables, animals.get("dog", 0))


@lru_cache(maxsize=65536)
def _solve(
    need: tuple[int, ...],
    caps: tuple[int, ...],
    dog_ok: tuple[bool, ...],
    wild: int,
    empty: int,
    mstables: int,
    dogs: int,
) -> tuple | None:
    """Assign each one-type container a type (or none) so the rest fits the wild slots and dogs.
    Returns (types per container, dog plan) or None."""
    total_caps = sum(caps)
    dog_max = dogs + min(dogs, empty) if dogs and empty else (dogs + 1 if dogs else 0)
    if sum(need) > total_caps + wild + dog_max:
        return None

    def finish(rest: list[int], assigned: tuple[str | None, ...]) -> tuple | None:
        sheep_rest = rest[0]
        options: list[tuple[int, int, str]] = [(0, 0, "none")]  # (extra sheep, wild used, plan)
        if dogs:
            if empty:
                options.append((dogs + min(dogs, empty), 0, "meadows"))
            else:
                if mstables:
                    options.append((dogs + 1, 1, "meadow_stable"))
                sheep_caps = [caps[i] for i, t in enumerate(assigned) if t == "sheep" and dog_ok[i]]
                if sheep_caps:
                    options.append((max(0, dogs + 1 - min(sheep_caps)), 0, "pasture"))
        for extra, used, plan in options:
            left = [max(0, sheep_rest - extra)] + [max(0, r) for r in rest[1:]]
            if sum(left) <= wild - used:
                return (assigned, plan)
        return None

    def rec(i: int, rest: list[int], assigned: tuple[str | None, ...]) -> tuple | None:
        if sum(max(0, r) for r in rest) == 0:
            return (assigned + (None,) * (len(caps) - i), "none")
        if i == len(caps):
            return finish(rest, assigned)
        remaining_caps = sum(caps[i:])
        if sum(max(0, r) for r in rest) > remaining_caps + wild + dog_max:
            return None
        tried_skip = False
        for t_index in sorted(range(4), key=lambda k: -rest[k]):
            if rest[t_index] <= 0:
                if not tried_skip:
                    tried_skip = True
                    result = rec(i + 1, rest, (*assigned, None))
                    if result:
                        return result
                continue
            new = list(rest)
            new[t_index] -= caps[i]
            result = rec(i + 1, new, (*assigned, FARM[t_index]))
            if result:
                return result
        if not tried_skip:
            return rec(i + 1, rest, (*assigned, None))
        return None

    return rec(0, list(need), ())


def arrange(cells: list[dict[str, Any]], dwarfs: int, animals: dict[str, int]) -> dict[str, Any]:
    """One arrangement for the view: {"cells": {index: {animal: n}}, "tiles": {...}} or None."""
    plan = arrange_plan(cells, dwarfs, animals)
    if plan is None:
        return {"fits": False, "cells": {}}
    h = holdings(cells, dwarfs)
    left = {t: animals.get(t, 0) for t in FARM}
    out: dict[int, dict[str, int]] = {}

    def put(cell: int, animal: str, n: int) -> None:
        if n <= 0:
            return
        slot = out.setdefault(cell, {})
        slot[animal] = slot.get(animal, 0) + n
        left[animal] -= n

    for i, c in enumerate(cells):
        k = c["k"]
        if k == "forest" and c["st"]:
            put(i, "wild_boar", min(1, left["wild_boar"]))
        elif k in ("ore_mine", "ruby_mine"):
            put(i, "donkey", min(1, left["donkey"]))
        elif k == "room" and c["tile"] == "breakfast_room":
            put(i, "cattle", min(3, left["cattle"]))
        elif k == "room" and c["tile"] == "cuddle_room":
            put(i, "sheep", min(dwarfs, left["sheep"]))
    assigned, dog_plan = plan
    dogs = animals.get("dog", 0)
    sheep_cells: list[tuple[int, int]] = []
    for (cap, dog_ok, spots), animal in zip(h["containers"], assigned, strict=False):
        if animal:
            put(spots[0], animal, min(cap, left[animal]))
            if animal == "sheep" and dog_ok:
                sheep_cells.append((cap, spots[0]))
    dog_cells: dict[int, int] = {}
    if dogs and dog_plan == "meadows":
        meadows = h["empty_meadows"]
        for n in range(dogs):
            cell = meadows[n] if n < len(meadows) else meadows[0]
            dog_cells[cell] = dog_cells.get(cell, 0) + 1
        for cell, d in dog_cells.items():
            put(cell, "sheep", min(d + 1, left["sheep"]))
    elif dogs and dog_plan == "meadow_stable":
        cell = h["meadow_stables"][0]
        dog_cells[cell] = dogs
        put(cell, "sheep", min(dogs + 1, left["sheep"]))
        h["wild"].remove(cell)
    elif dogs and dog_plan == "pasture" and sheep_cells:
        cap, cell = min(sheep_cells)
        dog_cells[cell] = dogs
        put(cell, "sheep", min(max(0, dogs + 1 - cap), left["sheep"]))
    for cell in h["wild"]:
        for animal in FARM:
            if left[animal] > 0:
                put(cell, animal, 1)
                break
    if dogs and not dog_cells:
        dog_cells[3 * 6 + 3] = dogs
    for cell, d in dog_cells.items():
        out.setdefault(cell, {})["dog"] = d
    return {"fits": True, "cells": {str(k): v for k, v in sorted(out.items())}}
