"""The worked examples of the seed rulebook (the Persian translation), one test each. Examples
the reference repeats (80 points, forging 7, strength 1 on level 3, accumulation, solo clearing,
ore trading) are tested under their WE numbers elsewhere; the seed's own are here."""

import pytest

from games.engines.caverna import animals as A
from games.engines.caverna import board as B
from games.engines.caverna import rules as R
from games.engines.caverna import scoring

from .helpers import act, legal, place, turn_state
from .test_scoring import we1_player


def dwarfs(*weapons):
    return [{"w": w, "at": None, "new": False} for w in weapons]


def test_seed_scoring_pad_example_totals_eighty():
    """Scoring-pad example: 21 animals, tiles 12, pastures 6, mines 11, fodder bonus 6 = 80."""
    row = scoring.score_player(we1_player())
    assert row["farm_animals_and_dogs"] == 21
    assert row["bonus_fodder_chamber"] == 6
    assert sum(row.values()) == 80


def test_seed_ruby_lets_the_fourteen_go_before_the_three():
    """Two dwarfs left, strengths 3 and 14: 1 ruby places the 14 first."""
    state, seat = turn_state(3, "seed-ruby")
    p = state["players"][seat]
    p["dwarfs"] = dwarfs(3, 14)
    p["supply"]["ruby"] = 1
    assert R.default_dwarf(p) == 0
    assert {"type": "reorder", "dwarf": 1} in legal(state)
    state = act(state, {"type": "reorder", "dwarf": 1})
    state = place(state, "wood_gathering")
    p = state["players"][seat]
    assert p["dwarfs"][1]["at"] == "wood_gathering" and p["dwarfs"][0]["at"] is None
    assert p["supply"]["ruby"] == 0


def test_seed_four_unarmed_and_one_fourteen():
    """Four unarmed dwarfs and one at 14: a ruby sends the armed dwarf before all others."""
    state, seat = turn_state(3, "seed-ruby-2")
    p = state["players"][seat]
    p["dwarfs"] = dwarfs(0, 0, 0, 0, 14)
    p["supply"]["ruby"] = 1
    reorders = [a for a in legal(state) if a["type"] == "reorder"]
    assert reorders == [{"type": "reorder", "dwarf": 4}]
    state = act(state, {"type": "reorder", "dwarf": 4})
    state = place(state, "logging_1_3")
    assert state["players"][seat]["dwarfs"][4]["at"] == "logging_1_3"


def test_without_a_ruby_the_weakest_dwarf_goes():
    state, seat = turn_state(3, "seed-ruby-3")
    p = state["players"][seat]
    p["dwarfs"] = dwarfs(3, 14)
    assert not [a for a in legal(state) if a["type"] == "reorder"]
    state = place(state, "wood_gathering")
    assert state["players"][seat]["dwarfs"][0]["at"] == "wood_gathering"


def test_seed_forest_stable_outside_the_cave_keeps_three_boars_and_they_breed():
    """A forest stable in front of the cave plus the entry dwelling: 3 wild boars, so 2 boars
    have room for a piglet."""
    cells = B.new_board()
    cells[B.IN_FRONT]["st"] = True
    assert A.fits(cells, 2, {"wild_boar": 3})
    assert not A.fits(cells, 2, {"wild_boar": 4})
    p = {
        "cells": cells,
        "animals": {"sheep": 0, "donkey": 0, "wild_boar": 2, "cattle": 0, "dog": 0},
        "dwarfs": dwarfs(0, 0),
    }
    assert R.breed_sets(p, 4) == [["wild_boar"]]


def test_seed_four_rooms_three_dwarfs_may_grow():
    """The seed: "room for 4 dwarfs but only 3 live there": growth is allowed."""
    cells = B.new_board()
    cells[B.FIRST_CAVERN].update(k="room", tile="dwelling")
    cells[B.idx(4, 3)].update(k="room", tile="simple_dwelling_4w2s")
    p = {"cells": cells, "dwarfs": dwarfs(0, 0, 0)}
    assert R.can_grow(p)
    p["dwarfs"] = dwarfs(0, 0, 0, 0)
    assert not R.can_grow(p)


@pytest.mark.parametrize("dogs,sheep", [(1, 2), (2, 3), (3, 4)])
def test_seed_dogs_guard_one_sheep_more_than_their_number(dogs, sheep):
    cells = B.new_board()
    cells[B.ENTRY]["k"] = "cavern"  # the entry dwelling would hold 2 more
    cells[B.IN_FRONT]["k"] = "meadow"
    assert A.fits(cells, 2, {"dog": dogs, "sheep": sheep})
    assert not A.fits(cells, 2, {"dog": dogs, "sheep": sheep + 1})


def test_seed_large_pasture_with_one_stable_holds_eight_of_one_type():
    cells = B.new_board()
    cells[B.ENTRY]["k"] = "cavern"
    a, b = B.idx(2, 3), B.idx(2, 2)
    cells[a].update(k="large_pasture", pair=b, st=True)
    cells[b].update(k="large_pasture", pair=a)
    assert A.fits(cells, 2, {"cattle": 8})
    assert not A.fits(cells, 2, {"cattle": 9})
    assert not A.fits(cells, 2, {"cattle": 7, "sheep": 1})


@pytest.mark.parametrize("gold,food", [(2, 1), (3, 2), (4, 3)])
def test_seed_food_costs_one_gold_more(gold, food):
    state, seat = turn_state(3, "seed-gold")
    state["players"][seat]["supply"].update(gold=gold, food=0)
    state = act(state, {"type": "convert", "from": "gold", "amount": gold})
    assert state["players"][seat]["supply"]["food"] == food
    assert state["players"][seat]["supply"]["gold"] == 0


def test_seed_stable_on_a_boar_preserve_gives_nothing_until_a_meadow_goes_under_it():
    cells = B.new_board()
    preserve = B.idx(2, 0)
    cells[preserve]["st"] = True
    gains: dict[str, int] = {}
    B.cover(cells, preserve, "meadow", gains)
    assert gains == {"wild_boar": 1}


def test_seed_single_tunnel_one_ruby_single_cavern_two_rubies():
    state, seat = turn_state(3, "seed-tiles")
    state["players"][seat]["supply"]["ruby"] = 1
    kinds = {(a["type"], a.get("tile")) for a in legal(state)}
    assert ("ruby_tile", "tunnel") in kinds and ("ruby_tile", "cavern") not in kinds
    state["players"][seat]["supply"]["ruby"] = 2
    kinds = {(a["type"], a.get("tile")) for a in legal(state)}
    assert ("ruby_tile", "cavern") in kinds
    spot = next(a for a in legal(state) if a.get("tile") == "cavern")
    state = act(state, spot)
    p = state["players"][seat]
    assert p["supply"]["ruby"] == 0 and p["cells"][B.idx(*spot["at"])]["k"] == "cavern"
