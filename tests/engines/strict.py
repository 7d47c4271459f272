"""The strict-actions kit: a legal action sent with one value's type or shape changed (3 as 3.0,
true or "3"; a list as an object, one longer or shorter, nested deeper; an extra or missing key;
50 levels of nested lists) is not that action. `apply` must refuse it with IllegalAction, never
another exception, and leave its input state as it was. Each engine's test_strict_actions.py
drives this with Hypothesis over random points of random games.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import Engine, IllegalAction

#: "A value replaced with deeply nested lists": far beyond any action's depth.
DEEP_LEVELS = 50

#: Kinds of change every engine's run must have tried at least once, so a run that never met
#: (say) a number in an action cannot pass unnoticed.
CORE_KINDS = ("int as float", "int as bool", "int as string", "extra key", "key removed",
              "deep nesting", "string as int")

Path = tuple[Any, ...]


def _text(value: Any) -> str:
    """Canonical JSON without the depth limit (the kit must be able to name a 50-deep value)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _nested(value: Any, levels: int = DEEP_LEVELS) -> Any:
    for _ in range(levels):
        value = [value]
    return value


def value_variants(value: Any) -> Iterator[tuple[str, Any]]:
    """(kind, replacement) for one JSON value: every type or shape change the kit tries."""
    if isinstance(value, bool):
        yield "bool as int", int(value)
        yield "bool as float", float(value)
        yield "bool as string", "true" if value else "false"
    elif isinstance(value, int):
        yield "int as float", float(value)
        yield "int as bool", value != 0
        yield "int as string", str(value)
    elif isinstance(value, float):
        yield "float as int", int(value)
    elif isinstance(value, str):
        yield "string as int", int(value) if value.isdigit() else 1
        yield "string in a list", [value]
    elif value is None:
        yield "null as false", False
        yield "null as zero", 0
    elif isinstance(value, list):
        yield "list as object", {str(index): item for index, item in enumerate(value)}
        yield "list nested deeper", [value]
        yield "tuple one longer", (*value, value[-1] if value else 0)
        if value:
            yield "list one shorter", value[:-1]
    elif isinstance(value, dict):
        yield "extra key", {**value, "extra": 1}
        for key in value:
            yield "key removed", {k: v for k, v in value.items() if k != key}
        yield "object as list", list(value.values())
    yield "deep nesting", _nested(value)


def _paths(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _replaced(action: dict[str, Any], path: Path, replacement: Any) -> Any:
    if not path:
        return replacement
    changed = copy.deepcopy(action)
    parent = changed
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = replacement
    return changed


def mutations(action: dict[str, Any]) -> Iterator[tuple[str, Path, Any]]:
    """(kind, path, mutated action) for every variant of every value in `action`, the action
    itself included (as a list, with an extra or a missing key, deeply nested)."""
    for path, value in list(_paths(action)):
        for kind, replacement in value_variants(value):
            yield kind, path, _replaced(action, path, replacement)


@dataclass
class Tally:
    """What a run tried: mutations sent to `apply`, refused as they must be, and skipped because
    the change gave another listed action (legitimately legal)."""

    tried: int = 0
    refused: int = 0
    skipped_as_legal: int = 0
    points: int = 0
    kinds: Counter = field(default_factory=Counter)

    def summary(self, slug: str) -> str:
        return (f"{slug}: {self.points} decision points, {self.tried} mutated actions tried, "
                f"{self.refused} refused, {self.skipped_as_legal} skipped as another legal "
                f"action; by kind {dict(sorted(self.kinds.items()))}")

    def assert_thorough(self, minimum: int) -> None:
        assert self.refused == self.tried, "a mutated action was tried but not refused"
        assert self.tried >= minimum, f"only {self.tried} mutated actions were tried"
        missing = [kind for kind in CORE_KINDS if not self.kinds[kind]]
        assert not missing, f"these kinds of change were never tried: {missing}"


def decision_states(
    engine: Engine,
    num_players: int,
    seed: str,
    chooser_seed: int,
    options: dict[str, Any] | None = None,
) -> list[tuple[dict[str, Any], int]]:
    """(state, number of players) at every point of one seeded random game where some seat must
    decide (system steps such as dice rolls and reveals are resolved on the way)."""
    chooser = random.Random(chooser_seed)
    state = engine.new_game(num_players, seed, options)
    states = []
    while not engine.is_over(state):
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        states.append((state, num_players))
        seat = chooser.choice(engine.active_seats(state))
        state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))
    return states


def awaited_seats(engine: Engine, state: dict[str, Any], num_players: int) -> list[int]:
    """Seats with something to decide: the active ones, and in a simultaneous engine also a seat
    whose secret pick is in but may still be replaced."""
    if not engine.simultaneous:
        return engine.active_seats(state)
    return [seat for seat in range(num_players) if engine.legal_actions(state, seat)]


def actions_to_mutate(legal: list[dict[str, Any]], chooser: random.Random, count: int) -> list:
    """A few legal actions: the one with the richest shape (most values to change) and some
    chosen at random."""
    richest = max(legal, key=lambda action: len(_text(action)))
    others = chooser.sample(legal, min(count - 1, len(legal)))
    return [richest, *(action for action in others if action is not richest)]


def check_mutations_refused(
    engine: Engine,
    state: dict[str, Any],
    seat: int,
    action: dict[str, Any],
    listed: set[str],
    tally: Tally,
) -> None:
    """Sends every mutation of the legal `action` to `apply` for `seat`; each must raise
    IllegalAction with a reason and leave `state` exactly as it was."""
    before = _text(state)
    for kind, path, mutated in mutations(action):
        if _text(mutated) in listed:
            tally.skipped_as_legal += 1
            continue
        tally.tried += 1
        tally.kinds[kind] += 1
        where = f"{kind} at {list(path)} of {_text(action)} for seat {seat}"
        try:
            engine.apply(state, seat, mutated)
        except IllegalAction as refusal:
            assert str(refusal), f"IllegalAction without a reason: {where}"
            tally.refused += 1
        except Exception as error:  # the point: nothing but IllegalAction may escape
            raise AssertionError(f"{type(error).__name__} ({error}) instead of IllegalAction: "
                                 f"{where}") from error
        else:
            raise AssertionError(f"a mutated action was accepted: {where}")
        assert _text(state) == before, f"a refused action changed the state: {where}"


def check_legal_action_as_sent(
    engine: Engine, state: dict[str, Any], seat: int, action: dict[str, Any]
) -> None:
    """The control: the legal action as a client sends it (decoded JSON, keys in another order)
    is accepted and gives the same state as the listed action, so the refusals above are not an
    engine that refuses everything."""
    sent = json.loads(json.dumps(dict(reversed(list(action.items())))))
    assert _text(engine.apply(state, seat, sent)) == _text(engine.apply(state, seat, action))


def check_point(
    engine: Engine, point: tuple[dict[str, Any], int], chooser: random.Random, tally: Tally,
    seats: int = 2, actions: int = 3,
) -> None:
    """At one decision point: for up to `seats` awaited seats, mutate up to `actions` of their
    legal actions and check every mutation is refused."""
    state, num_players = point
    tally.points += 1
    awaited = awaited_seats(engine, state, num_players)
    assert awaited, "a decision point with no seat to decide"
    for seat in chooser.sample(awaited, min(seats, len(awaited))):
        legal = engine.legal_actions(state, seat)
        listed = {_text(item) for item in legal}
        for action in actions_to_mutate(legal, chooser, actions):
            check_legal_action_as_sent(engine, state, seat, action)
            check_mutations_refused(engine, state, seat, action, listed, tally)


def check_random_points(
    engine: Engine,
    tally: Tally,
    num_players: int,
    seed: str,
    chooser_seed: int,
    fractions: list[float],
    options: dict[str, Any] | None = None,
) -> None:
    """Plays one seeded random game and checks the decision points at the given fractions of
    its length (0 is the first decision, just under 1 the last)."""
    points = decision_states(engine, num_players, seed, chooser_seed, options)
    chooser = random.Random(chooser_seed)
    for fraction in fractions:
        check_point(engine, points[int(fraction * len(points))], chooser, tally)


def find_legal_action(
    engine: Engine, num_players: int, wanted, games: int = 20
) -> tuple[dict[str, Any], int, dict[str, Any]]:
    """(state, seat, action) for the first legal action for which `wanted(action)` holds, met in
    seeded random games of `num_players`."""
    for index in range(games):
        for state, _ in decision_states(engine, num_players, f"find-{index}", index):
            for seat in awaited_seats(engine, state, num_players):
                for action in engine.legal_actions(state, seat):
                    if wanted(action):
                        return state, seat, action
    raise AssertionError(f"no such legal action in {games} random games")


def refused_without_change(engine: Engine, state: dict[str, Any], seat: int, action: Any) -> str:
    """Asserts `apply` refuses `action` with IllegalAction and leaves `state` as it was; returns
    the reason."""
    before = _text(state)
    try:
        engine.apply(state, seat, action)
    except IllegalAction as refusal:
        reason = str(refusal)
    else:
        raise AssertionError(f"{_text(action)} was accepted")
    assert reason, "IllegalAction without a reason"
    assert _text(state) == before, "a refused action changed the state"
    return reason
