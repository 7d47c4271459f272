"""Animal holding: the capacity tables of the reference (WE2-WE4) and the solver against a
brute-force oracle on random small boards."""

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.caverna import animals as A
from games.engines.caverna.board import idx, new_board
from tests.engines.conformance import examples

FARM = ("sheep", "donkey", "wild_boar", "cattle")


def board(*specs):
    """specs: (x, y, kind, extra dict). The entry dwelling is removed unless asked for, so the
    tables test one holding at a time."""
    cells = new_board()
    cells[idx(3, 3)]["k"] = "cavern"
    for x, y, kind, extra in specs:
        cells[idx(x, y)]["k"] = kind
        cells[idx(x, y)].update(extra)
    return cells


def large(a, b, stables=(False, False)):
    return [
        (a[0], a[1], "large_pasture", {"pair": idx(*b), "st": stables[0]}),
        (b[0], b[1], "large_pasture", {"pair": idx(*a), "st": stables[1]}),
    ]


def most(cells, animal, dogs=0, dwarfs=2, others=None):
    """The largest number of `animal` that fits (with `others` also present)."""
    count = 0
    while count < 40:
        animals = {"dog": dogs, **(others or {}), animal: count + 1}
        if not A.fits(cells, dwarfs, animals):
            return count
        count += 1
    return count


# ----- WE2: pastures ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("specs", "capacity"),
    [
        ([(0, 0, "pasture", {})], 2),
        ([(0, 0, "pasture", {"st": True})], 4),
        (large((0, 0), (1, 0)), 4),
        (large((0, 0), (1, 0), (True, False)), 8),
        (large((0, 0), (1, 0), (True, True)), 16),
    ],
)
def test_we2_pasture_capacities(specs, capacity):
    cells = board(*specs)
    for animal in FARM:
        assert most(cells, animal) == capacity


def test_we2_a_pasture_holds_one_type():
    cells = board(*large((0, 0), (1, 0), (True, False)))
    assert A.fits(cells, 2, {"sheep": 8})
    assert not A.fits(cells, 2, {"sheep": 9})
    assert not A.fits(board((0, 0, "pasture", {"st": True})), 2, {"sheep": 3, "donkey": 1})


# ----- WE3: other holdings ----------------------------------------------------------------------


def test_we3_forest_stable_holds_one_wild_boar_only():
    cells = board((0, 0, "forest", {"st": True}))
    assert most(cells, "wild_boar") == 1
    assert most(cells, "sheep") == 0


def test_we3_meadow_stable_holds_one_of_any_type():
    cells = board((0, 0, "meadow", {"st": True}))
    for animal in FARM:
        assert most(cells, animal) == 1
    assert not A.fits(cells, 2, {"cattle": 1, "sheep": 1})


def test_we3_unfenced_meadow_without_stable_holds_nothing():
    cells = board((0, 0, "meadow", {}))
    for animal in FARM:
        assert most(cells, animal) == 0


def test_we3_mines_hold_one_donkey_each():
    cells = board((4, 0, "ore_mine", {}), (4, 1, "ruby_mine", {}), (5, 1, "ruby_mine", {}))
    assert most(cells, "donkey") == 3
    assert most(cells, "sheep") == 0


def test_we3_entry_dwelling_two_of_one_type():
    cells = new_board()
    assert most(cells, "cattle") == 2
    assert not A.fits(cells, 2, {"cattle": 1, "sheep": 1})


def test_we3_rooms():
    cells = board((4, 2, "room", {"tile": "breakfast_room"}))
    assert most(cells, "cattle") == 3 and most(cells, "sheep") == 0
    cells = board((4, 2, "room", {"tile": "cuddle_room"}))
    assert most(cells, "sheep", dwarfs=4) == 4
    cells = board((4, 2, "room", {"tile": "mixed_dwelling"}))
    assert most(cells, "donkey") == 2
    cells = board(
        (4, 2, "room", {"tile": "stubble_room"}),
        (0, 0, "field", {"n": 0}),
        (1, 0, "field", {"n": 3, "crop": "grain"}),
    )
    assert most(cells, "cattle") == 1


# ----- WE4: dogs --------------------------------------------------------------------------------


def test_we4_dogs_on_a_meadow():
    assert most(board((0, 0, "meadow", {})), "sheep", dogs=3) == 4


def test_we4_dogs_beat_a_large_pasture_without_stable():
    assert most(board(*large((0, 0), (1, 0))), "sheep", dogs=5) == 6


def test_we4_stable_rule_beats_few_dogs():
    assert most(board((0, 0, "pasture", {"st": True})), "sheep", dogs=2) == 4


def test_we4_dogs_guard_only_sheep_only_spaces():
    cells = board((0, 0, "pasture", {}))
    assert A.fits(cells, 2, {"dog": 1, "donkey": 2})
    assert not A.fits(cells, 2, {"dog": 1, "donkey": 2, "sheep": 1})
    assert most(cells, "donkey", dogs=5) == 2


def test_we4_dogs_on_forest_guard_nothing():
    assert most(board(), "sheep", dogs=2) == 0


def test_dogs_spread_over_meadows():
    cells = board((0, 0, "meadow", {}), (0, 1, "meadow", {}))
    assert most(cells, "sheep", dogs=2) == 4  # one dog on each meadow: 2 + 2
    assert most(cells, "sheep", dogs=3) == 5


def test_arrangement_places_every_animal():
    cells = new_board()
    cells[idx(0, 0)].update(k="pasture", st=True)
    cells[idx(4, 1)]["k"] = "ore_mine"
    counts = {"sheep": 4, "donkey": 1, "cattle": 2, "dog": 1, "wild_boar": 0}
    arrangement = A.arrange(cells, 2, counts)
    assert arrangement["fits"]
    placed = {}
    for spot in arrangement["cells"].values():
        for animal, n in spot.items():
            placed[animal] = placed.get(animal, 0) + n
    assert placed == {"sheep": 4, "donkey": 1, "cattle": 2, "dog": 1}


# ----- the solver against brute force -----------------------------------------------------------


def oracle(cells, dwarfs, animals):
    """Try every type per one-type holding, every use of the 1-animal slots and every spread of
    the dogs over meadows and pastures."""
    fixed = {t: 0 for t in FARM}
    typed = []  # (capacity, dog spaces index or None)
    wild = 0
    dog_spaces = []  # (normal capacity if typed / 1 for meadow stable / 0 for meadow, kind)
    done = set()
    for i, c in enumerate(cells):
        k = c["k"]
        if k == "pasture":
            typed.append((2 * (2 if c.get("st") else 1), len(dog_spaces)))
            dog_spaces.append("typed")
        elif k == "large_pasture" and i not in done:
            j = c["pair"]
            done.update((i, j))
            stables = int(bool(c.get("st"))) + int(bool(cells[j].get("st")))
            typed.append((4 * 2**stables, len(dog_spaces)))
            dog_spaces.append("typed")
        elif k == "meadow":
            dog_spaces.append("mstable" if c.get("st") else "meadow")
            if c.get("st"):
                wild += 1
        elif k == "forest" and c.get("st"):
            fixed["wild_boar"] += 1
        elif k in ("ore_mine", "ruby_mine"):
            fixed["donkey"] += 1
        elif k == "entry":
            typed.append((2, None))
    dogs = animals.get("dog", 0)
    # Dogs not on a meadow or pasture stand on some other space and guard nothing.
    spreads = [s for s in product(range(dogs + 1), repeat=len(dog_spaces)) if sum(s) <= dogs]
    for types in product((None, *FARM), repeat=len(typed)):
        for spread in spreads:
            cap = dict(fixed)
            sheep_only_extra = 0
            wild_left = wild
            for (capacity, ds), t in zip(typed, types, strict=True):
                if t is None:
                    continue
                d = spread[ds] if ds is not None and spread else 0
                cap[t] += max(capacity, d + 1) if (t == "sheep" and d) else capacity
            mstable_used_for_sheep = 0
            for k, kind in enumerate(dog_spaces):
                d = spread[k] if spread else 0
                if kind == "meadow" and d:
                    sheep_only_extra += d + 1
                if kind == "mstable" and d:
                    sheep_only_extra += d + 1
                    mstable_used_for_sheep += 1
            cap["sheep"] += sheep_only_extra
            wild_left -= mstable_used_for_sheep
            short = sum(max(0, animals.get(t, 0) - cap[t]) for t in FARM)
            if short <= wild_left:
                return True
    return False


@st.composite
def small_boards(draw):
    cells = new_board()
    forest = [idx(x, y) for x in range(3) for y in range(4)]
    chosen = draw(st.lists(st.sampled_from(forest), unique=True, max_size=4))
    for i in chosen:
        kind = draw(st.sampled_from(["meadow", "pasture", "forest", "large"]))
        stable = draw(st.booleans())
        if kind == "large":
            partner = i + 1 if i % 6 < 2 else i - 1
            if cells[i]["k"] != "forest" or cells[partner]["k"] != "forest":
                continue
            cells[i].update(k="large_pasture", pair=partner, st=stable)
            cells[partner].update(k="large_pasture", pair=i, st=draw(st.booleans()))
        elif cells[i]["k"] == "forest":
            cells[i].update(k=kind, st=stable)
    if draw(st.booleans()):
        cells[idx(4, 3)]["k"] = "ore_mine"
    return cells


@settings(max_examples=examples(300), deadline=None)
@given(
    small_boards(),
    st.fixed_dictionaries({t: st.integers(0, 6) for t in (*FARM, "dog")}),
)
def test_solver_agrees_with_brute_force(cells, animals):
    if sum(animals.values()) and animals["dog"] > 3:
        animals["dog"] = 3
    assert A.fits(cells, 2, animals) == oracle(cells, 2, animals)
