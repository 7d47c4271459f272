"""Worked scoring examples of the reference (section 22) and the tie-break."""

import pytest

from games.engines.seven_wonders.engine import engine
from games.engines.seven_wonders.scoring import CATEGORIES, science_points, score_seat
from tests.engines.seven_wonders.helpers import card, city, game


def over(state):
    state["phase"] = "over"
    return state


def test_breakdown_categories_in_rulebook_order():
    assert CATEGORIES == (
        "military", "treasury", "wonder", "civilian", "science", "commercial", "guilds"
    )
    state = over(game(3))
    for row in engine.result(state)["breakdown"]:
        assert list(row) == list(CATEGORIES)


def test_example_1_military_total():
    state = city(game(3), 0, tokens=[1, 3, 5, -1, -1, -1])
    assert score_seat(state["players"], 0)[0]["military"] == 6


@pytest.mark.parametrize(("coins", "points"), [(14, 4), (2, 0), (0, 0), (3, 1)])
def test_example_4_treasury(coins, points):
    state = city(game(3), 0, coins=coins)
    assert score_seat(state["players"], 0)[0]["treasury"] == points


def test_example_5_wonder_and_civilian():
    state = game(3, ["alexandria", "giza", "rhodes"])
    city(state, 0, stages=3, built=[card("Aqueduct"), card("Altar"), card("Town Hall")])
    scores = score_seat(state["players"], 0)[0]
    assert scores["wonder"] == 10
    assert scores["civilian"] == 13


@pytest.mark.parametrize(
    ("symbols", "wild", "points"),
    [
        ((2, 1, 3), 0, 21),  # example 6: 3 tablets, 2 compasses, 1 gear
        ((2, 2, 3), 0, 31),
        ((3, 1, 1), 1, 25),  # example 7
        ((0, 0, 0), 1, 1),
        ((1, 1, 0), 1, 10),
        ((2, 2, 1), 2, 31),  # example 8
        ((0, 0, 0), 0, 0),
        ((4, 0, 0), 0, 16),
    ],
)
def test_examples_6_to_8_science(symbols, wild, points):
    assert science_points(*symbols, wildcards=wild) == points


def test_example_8_two_wildcards_from_scientists_guild_and_babylon():
    state = game(3, ["babylon", "giza", "rhodes"])
    built = [
        card("Apothecary"), card("Dispensary"),  # compasses
        card("Workshop"), card("Laboratory"),  # gears
        card("Scriptorium"),  # tablet
        card("Scientists Guild"),
    ]
    city(state, 0, built=built, stages=2)  # Babylon A stage 2: a wildcard
    assert score_seat(state["players"], 0)[0]["science"] == 31


def test_example_9_chamber_of_commerce_points():
    state = city(game(3), 0, built=[card("Loom", 1), card("Press", 2),
                                     card("Chamber of Commerce")])
    assert score_seat(state["players"], 0)[0]["commercial"] == 4


def test_example_10_age_three_commercial_points():
    built = [card("Lumber Yard"), card("Clay Pool"), card("Sawmill"), card("Quarry"),
             card("Loom", 1), card("Glassworks", 2), card("East Trading Post"), card("Forum"),
             card("Haven"), card("Chamber of Commerce"), card("Lighthouse")]
    state = city(game(3), 0, built=built)
    assert score_seat(state["players"], 0)[0]["commercial"] == 13


def test_example_11_arena_points_count_stages_built_later():
    state = city(game(3), 0, built=[card("Arena")], stages=3)
    assert score_seat(state["players"], 0)[0]["commercial"] == 3


def _example_13():
    state = game(3)
    left = [card("Lumber Yard"), card("Stone Pit"), card("Clay Pool"),
            card("Loom", 1), card("Press", 1), card("Baths"),
            card("Tavern"), card("Marketplace"), card("Stockade"), card("Barracks"),
            card("Apothecary"), card("Workshop"), card("Scriptorium")]
    right = [card("Lumber Yard"), card("Stone Pit"), card("Clay Pool"), card("Ore Vein"),
             card("Glassworks", 1), card("Altar"), card("Theater"), card("Pawnshop"),
             card("West Trading Post"), card("Guard Tower")]
    mine = [card("Sawmill"), card("Quarry"), card("Brickyard"), card("Foundry"),
            card("Timber Yard"), card("Loom", 2), card("Press", 2)]
    city(state, 1, built=left, stages=2, tokens=[-1, -1])
    city(state, 2, built=right, stages=3, tokens=[-1])
    city(state, 0, built=mine, stages=1)
    return state


@pytest.mark.parametrize(
    ("guild", "points"),
    [
        ("Workers Guild", 7), ("Craftsmens Guild", 6), ("Magistrates Guild", 4),
        ("Traders Guild", 3), ("Spies Guild", 3), ("Philosophers Guild", 3),
        ("Strategists Guild", 3), ("Builders Guild", 6),
    ],
)
def test_example_13_each_guild(guild, points):
    state = _example_13()
    state["players"][0]["built"].append(card(guild))
    assert score_seat(state["players"], 0)[0]["guilds"] == points


def test_example_13_shipowners_with_three_guilds_and_scientists_is_science():
    state = _example_13()
    state["players"][0]["built"] += [card("Workers Guild"), card("Builders Guild"),
                                     card("Shipowners Guild")]
    assert score_seat(state["players"], 0)[0]["guilds"] == 7 + 6 + 10
    state["players"][0]["built"].append(card("Scientists Guild"))
    scores = score_seat(state["players"], 0)[0]
    assert scores["guilds"] == 7 + 6 + 11  # Shipowners counts the fourth purple card
    assert scores["science"] == 1  # the wildcard alone


def test_example_14_olympia_b_copies_the_best_neighbour_guild():
    state = game(3, ["olympia", "giza", "rhodes"], sides="B")
    reds = [card("Stockade"), card("Barracks"), card("Guard Tower"), card("Walls")]
    city(state, 1, built=[card("Spies Guild"), *reds], stages=2, tokens=[-1])  # left
    city(state, 2, built=[card("Builders Guild"), card("Strategists Guild"), reds[0], reds[1]],
         stages=3, tokens=[-1, -1, -1])  # right
    city(state, 0, stages=3)
    scores, copied = score_seat(state["players"], 0)
    assert copied == card("Builders Guild")
    assert scores["guilds"] == 8
    right_scores, right_copy = score_seat(state["players"], 2)
    assert right_copy is None
    assert right_scores["guilds"] >= 3 + 2 + 3  # R still scores its own Builders Guild


def test_olympia_b_without_third_stage_copies_nothing():
    state = game(3, ["olympia", "giza", "rhodes"], sides="B")
    city(state, 1, built=[card("Spies Guild")])
    city(state, 0, stages=2)
    assert score_seat(state["players"], 0) == (score_seat(state["players"], 0)[0], None)


def test_olympia_b_copying_scientists_guild_gives_a_wildcard():
    state = game(3, ["olympia", "giza", "rhodes"], sides="B")
    city(state, 1, built=[card("Scientists Guild")])
    city(state, 0, stages=3, built=[card("Apothecary"), card("Workshop")])
    scores, copied = score_seat(state["players"], 0)
    assert copied == card("Scientists Guild")
    assert scores["science"] == 10


def test_example_17_whole_score_sheet():
    state = game(3, ["giza", "rhodes", "ephesus"])
    built = [card("Altar"), card("Temple"), card("Pantheon"),
             card("Apothecary"), card("Dispensary"), card("Library"), card("Study"),
             card("Lumber Yard"), card("Stone Pit"), card("Clay Pool"),
             card("Stockade"), card("Walls"),
             card("Marketplace"), card("Haven"), card("Lighthouse"),
             card("Workers Guild")]
    city(state, 0, built=built, stages=2, tokens=[1, 3, -1, 5], coins=11)
    city(state, 1, built=[card("Lumber Yard"), card("Ore Vein"), card("Tree Farm")])
    city(state, 2, built=[card("Clay Pit"), card("Excavation")])
    scores = score_seat(state["players"], 0)[0]
    assert scores == {"military": 8, "treasury": 3, "wonder": 8, "civilian": 12,
                      "science": 13, "commercial": 6, "guilds": 5}
    assert sum(scores.values()) == 55


def test_example_18_tie_break_by_coins_then_shared():
    state = over(game(3))
    city(state, 0, built=[card("Palace"), card("Pantheon")], coins=11)  # 15 + 3 VP
    city(state, 1, built=[card("Palace"), card("Gardens"), card("Altar")], coins=11)  # 15 + 3
    city(state, 2, coins=0)
    result = engine.result(state)
    assert result["scores"][:2] == [18, 18]
    assert result["winners"] == [0, 1]  # same points, same coins: shared victory
    city(state, 1, coins=9)  # still 3 treasury VP, but fewer coins
    result = engine.result(state)
    assert result["scores"][:2] == [18, 18]
    assert result["winners"] == [0]


def test_result_scores_are_breakdown_sums():
    state = over(_example_13())
    result = engine.result(state)
    assert result["scores"] == [sum(row.values()) for row in result["breakdown"]]


def test_example_12_vineyard_and_bazar_give_no_points():
    state = city(game(3), 0, built=[card("Vineyard"), card("Bazar"), card("Lumber Yard")])
    assert score_seat(state["players"], 0)[0]["commercial"] == 0
