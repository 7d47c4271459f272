"""Final scoring by the scoring pad (WE1, WE17), ties and the result shape."""

from games.engines.caverna import scoring
from games.engines.caverna.board import idx, new_board
from games.engines.caverna.engine import engine

from .helpers import fresh


def blank_player():
    cells = new_board()
    return {
        "supply": {
            g: 0 for g in ("wood", "stone", "ore", "ruby", "gold", "food", "grain", "vegetable")
        },
        "animals": {"sheep": 0, "donkey": 0, "wild_boar": 0, "cattle": 0, "dog": 0},
        "dwarfs": [{"w": 0, "at": None, "new": False}, {"w": 0, "at": None, "new": False}],
        "stables": 3,
        "cells": cells,
        "begging": 0,
        "skip": None,
    }


def we1_player():
    p = blank_player()
    p["animals"].update(dog=2, sheep=10, donkey=3, wild_boar=2, cattle=4)
    p["supply"].update(grain=9, vegetable=5, gold=13)
    p["dwarfs"] = [{"w": 0, "at": None, "new": False} for _ in range(4)]
    c = p["cells"]
    # Forest: large pasture, small pasture, fields and meadows; 3 spaces left empty.
    c[idx(0, 0)].update(k="large_pasture", pair=idx(1, 0))
    c[idx(1, 0)].update(k="large_pasture", pair=idx(0, 0))
    c[idx(2, 0)]["k"] = "pasture"
    for x, y in ((0, 1), (1, 1), (2, 1), (1, 2), (2, 2), (2, 3)):
        c[idx(x, y)].update(k="meadow")
    # Mountain: 2 ruby mines, 1 ore mine, a deep tunnel, furnished caverns.
    c[idx(4, 0)]["k"] = "ruby_mine"
    c[idx(5, 0)]["k"] = "ruby_mine"
    c[idx(4, 1)]["k"] = "ore_mine"
    c[idx(5, 1)]["k"] = "deep_tunnel"
    rooms = ["dwelling", "dwelling", "cuddle_room", "builder", "trader", "fodder_chamber"]
    for (x, y), tile in zip(((3, 2), (4, 2), (5, 2), (4, 3), (5, 3), (3, 1)), rooms, strict=True):
        c[idx(x, y)].update(k="room", tile=tile)
    c[idx(3, 0)]["k"] = "tunnel"
    return p


def test_we1_the_eighty_point_example():
    p = we1_player()
    assert sum(1 for cell in p["cells"] if cell["k"] in ("forest", "rock")) == 3
    rows = scoring.score_player(p)
    assert rows == {
        "farm_animals_and_dogs": 21,
        "missing_farm_animal_types": 0,
        "grain": 5,
        "vegetables": 5,
        "rubies": 0,
        "dwarfs": 4,
        "unused_spaces": -3,
        "furnishing_tiles_pastures_mines": 29,
        "bonus_fodder_chamber": 6,
        "gold_and_begging": 13,
    }
    assert sum(rows.values()) == 80
    fixed = [row for row in rows if not row.startswith(scoring.BONUS_PREFIX)]
    assert fixed == list(scoring.CATEGORIES)


def test_we1_ten_grain_score_the_same():
    p = we1_player()
    p["supply"]["grain"] = 10
    assert scoring.score_player(p)["grain"] == 5


def test_grain_and_vegetables_on_fields_count():
    p = blank_player()
    p["cells"][idx(2, 3)].update(k="field", crop="grain", n=3)
    p["cells"][idx(1, 3)].update(k="field", crop="vegetable", n=2)
    rows = scoring.score_player(p)
    assert (rows["grain"], rows["vegetables"]) == (2, 2)


def test_we17_writing_chamber_cancels_up_to_seven():
    p = blank_player()
    p["animals"].update(sheep=1, donkey=1)
    p["begging"] = 1
    for x in range(3):
        for y in range(4):
            p["cells"][idx(x, y)]["k"] = "meadow"
    for x, y in ((3, 0), (3, 1), (4, 0), (4, 1), (4, 2), (4, 3), (5, 0), (5, 1), (5, 2), (5, 3)):
        p["cells"][idx(x, y)]["k"] = "tunnel"
    for x, y in ((4, 0), (4, 1), (5, 0), (5, 1), (5, 2)):
        p["cells"][idx(x, y)]["k"] = "rock"
    without = scoring.score_player(p)
    negative = (
        without["missing_farm_animal_types"]
        + without["unused_spaces"]
        + without["gold_and_begging"]
    )
    assert negative == -12
    p["cells"][idx(3, 2)].update(k="room", tile="writing_chamber")
    rows = scoring.score_player(p)
    assert (
        rows["missing_farm_animal_types"] + rows["unused_spaces"] + rows["gold_and_begging"] == -5
    )


def test_missing_types_and_dogs_are_not_farm_animals():
    p = blank_player()
    p["animals"]["dog"] = 3
    rows = scoring.score_player(p)
    assert rows["farm_animals_and_dogs"] == 3 and rows["missing_farm_animal_types"] == -8


def test_weaving_parlor_doubled_sheep_points_under_version_3():
    p = blank_player()
    p["animals"]["sheep"] = 5
    p["cells"][idx(3, 2)].update(k="room", tile="weaving_parlor")
    assert scoring.score_player(p, legacy=True)["bonus_weaving_parlor"] == 5
    assert scoring.score_player(p)["bonus_weaving_parlor"] == 2  # the printed tile: 1 per 2


def test_state_parlor_counts_adjacent_dwellings_entry_included():
    p = blank_player()
    p["cells"][idx(3, 2)].update(k="room", tile="state_parlor")
    p["cells"][idx(4, 2)].update(k="room", tile="dwelling")
    assert scoring.score_player(p)["bonus_state_parlor"] == 8


def test_ties_are_shared():
    state = fresh(3, "tie")
    result = engine.result(state)
    assert result["scores"][0] == result["scores"][1] == result["scores"][2]
    assert result["winners"] == [0, 1, 2]
    state["players"][1]["supply"]["gold"] += 1
    assert engine.result(state)["winners"] == [1]


def test_a_fresh_board_scores():
    rows = scoring.score_player(blank_player())
    assert rows["unused_spaces"] == -22 and rows["missing_farm_animal_types"] == -8
    assert sum(rows.values()) == -22 - 8 + 2
