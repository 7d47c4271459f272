"""Costs and trading: chains, coin costs, own production first, 2-coin trading and discounts,
only tradable sources, coins held at the start of the turn, deduplicated cheapest plans."""

import pytest

from games.engines.base import IllegalAction
from games.engines.seven_wonders.data import CARDS
from games.engines.seven_wonders.engine import engine
from games.engines.seven_wonders.rules import ZERO, payment_plans, vector
from tests.engines.conformance import play_random_game
from tests.engines.seven_wonders.helpers import card, city, game, hand, options_for


def university_table(left_built=(), mine=()):
    """Reference example 15: seat 0 produces 1 wood (Olympia) and 1 glass; the left neighbour
    (seat 1, Halicarnassus: loom) has a Lumber Yard, the right (seat 2, Ephesus) papyrus."""
    state = game(3, ["olympia", "halicarnassus", "ephesus"])
    city(state, 0, built=[card("Glassworks", 1), *mine], coins=4)
    city(state, 1, built=[card("Lumber Yard"), *left_built])
    hand(state, 0, [card("University")])
    return state


def test_example_15_university_costs_four_coins():
    state = university_table()
    builds = options_for(state, 0, card("University"))
    assert builds == [{
        "type": "build", "card": card("University"),
        "buy": {"left": {"wood": 1}, "right": {"papyrus": 1}}, "pay": {"left": 2, "right": 2},
    }]
    text = engine.describe(state, 0, builds[0], viewer=0)
    assert text == ("Build University: pay 2 coins to the left for wood and "
                    "2 coins to the right for papyrus")


def test_example_15_needs_the_coins_at_the_start_of_the_turn():
    state = city(university_table(), 0, coins=3)
    assert options_for(state, 0, card("University")) == []


def test_example_15_west_trading_post_and_marketplace():
    state = university_table(mine=[card("West Trading Post")])
    [build] = options_for(state, 0, card("University"))
    assert build["pay"] == {"left": 1, "right": 2}
    state = university_table(mine=[card("West Trading Post"), card("Marketplace")])
    [build] = options_for(state, 0, card("University"))
    assert build["pay"] == {"left": 1, "right": 1}


def test_example_15_chain_from_library_is_free():
    state = university_table(mine=[card("Library")])
    city(state, 0, coins=0)
    assert options_for(state, 0, card("University")) == [
        {"type": "build", "card": card("University"), "free": "chain"}
    ]
    assert engine.describe(state, 0, options_for(state, 0, card("University"))[0], viewer=0) == (
        "Build University: free by chain from Library"
    )


def test_east_trading_post_is_the_right_neighbour():
    state = game(3, ["olympia", "giza", "rhodes"])  # left gives stone, right gives ore
    city(state, 0, built=[card("East Trading Post")], coins=5)
    hand(state, 0, [card("Barracks"), card("Stone Pit")])
    [build] = options_for(state, 0, card("Barracks"))  # 1 ore
    assert build["pay"] == {"right": 1}
    state["players"][0]["built"] = [card("West Trading Post")]
    [build] = options_for(state, 0, card("Barracks"))
    assert build["pay"] == {"right": 2}


def test_olympia_b_first_stage_discounts_raw_materials_both_ways():
    state = game(3, ["olympia", "giza", "rhodes"], sides="B")
    city(state, 0, stages=1, coins=5)
    hand(state, 0, [card("Barracks"), card("Glassworks", 1), card("Aqueduct")])
    assert options_for(state, 0, card("Barracks"))[0]["pay"] == {"right": 1}


def test_giza_rulebook_production_example():
    """Giza producing 2 stone, clay, ore, papyrus and loom: Barracks and Scriptorium from its
    own production, Aqueduct (3 stone) only by buying one stone."""
    state = game(3, ["giza", "olympia", "halicarnassus"])
    city(state, 0, built=[card("Stone Pit"), card("Clay Pool"), card("Ore Vein"),
                          card("Press", 1), card("Loom", 1)], coins=0)
    hand(state, 0, [card("Barracks"), card("Scriptorium"), card("Aqueduct")])
    assert options_for(state, 0, card("Barracks")) == [{"type": "build", "card": card("Barracks")}]
    assert len(options_for(state, 0, card("Scriptorium"))) == 1
    assert options_for(state, 0, card("Aqueduct")) == []  # no coins to buy the third stone
    city(state, 1, built=[card("Stone Pit")])
    city(state, 0, coins=2)
    assert options_for(state, 0, card("Aqueduct")) == [{
        "type": "build", "card": card("Aqueduct"), "buy": {"left": {"stone": 1}},
        "pay": {"left": 2},
    }]


def test_only_brown_grey_and_the_starting_resource_are_sold():
    state = game(3, ["giza", "alexandria", "babylon"])
    # Left (Alexandria) has Forum, Caravansery and its raw-material stage: none sellable.
    city(state, 1, built=[card("Forum"), card("Caravansery")], stages=2)
    city(state, 0, coins=10)
    hand(state, 0, [card("Scriptorium"), card("Barracks"), card("Glassworks", 1)])
    assert options_for(state, 0, card("Scriptorium")) == []  # papyrus: nobody sells it
    assert options_for(state, 0, card("Barracks")) == []  # ore: nobody sells it
    # Alexandria's starting glass is sellable; Babylon's clay too.
    state["players"][0]["built"] = []
    hand(state, 0, [card("Baths")])  # 1 stone: Giza's own
    assert options_for(state, 0, card("Baths")) == [{"type": "build", "card": card("Baths")}]
    hand(state, 0, [card("Glassworks", 2)])


def test_starting_resource_of_a_neighbour_can_be_bought():
    state = game(3, ["giza", "alexandria", "babylon"])
    city(state, 0, coins=4)
    hand(state, 0, [card("Walls")])  # 3 stone: Giza has 1
    assert options_for(state, 0, card("Walls")) == []
    hand(state, 0, [card("Stables")])  # wood, clay, ore
    assert options_for(state, 0, card("Stables")) == []
    hand(state, 0, [card("Dispensary")])  # 2 ore + glass
    assert options_for(state, 0, card("Dispensary")) == []
    state["players"][0]["built"] = [card("Ore Vein")]
    hand(state, 0, [card("Laboratory")])  # 2 clay + papyrus
    assert options_for(state, 0, card("Laboratory")) == []
    city(state, 0, built=[card("Clay Pool"), card("Press", 1)])
    [build] = options_for(state, 0, card("Laboratory"))
    assert build["buy"] == {"right": {"clay": 1}}  # Babylon's printed clay


def test_coin_cost_goes_to_the_bank_and_needs_the_coin():
    state = game(3)
    hand(state, 0, [card("Timber Yard")])
    [build] = options_for(state, 0, card("Timber Yard"))
    assert build == {"type": "build", "card": card("Timber Yard")}
    assert engine.describe(state, 0, build, viewer=0) == "Build Timber Yard: pay 1 coin to the bank"
    city(state, 0, coins=0)
    assert options_for(state, 0, card("Timber Yard")) == []


def test_choice_cards_supply_one_unit_and_only_missing_units_are_bought():
    state = game(3, ["olympia", "giza", "rhodes"])  # wood; left stone; right ore
    city(state, 0, built=[card("Timber Yard")], coins=6)  # stone or wood
    city(state, 1, built=[card("Lumber Yard")])
    hand(state, 0, [card("Walls")])  # 3 stone: Timber Yard 1, buy 2? left has only 1 stone
    assert options_for(state, 0, card("Walls")) == []
    hand(state, 0, [card("Stables")])  # wood (own), clay, ore (right's board)
    assert options_for(state, 0, card("Stables")) == []  # nobody sells clay
    hand(state, 0, [card("Archery Range")])  # 2 wood + ore: own wood + Timber Yard wood
    [build] = options_for(state, 0, card("Archery Range"))
    assert build["buy"] == {"right": {"ore": 1}}


def test_both_neighbours_selling_gives_a_choice_of_seller():
    state = game(3, ["olympia", "giza", "halicarnassus"])
    city(state, 2, built=[card("Stone Pit")])
    hand(state, 0, [card("Baths")])
    builds = options_for(state, 0, card("Baths"))
    assert sorted(str(b["pay"]) for b in builds) == [str({"left": 2}), str({"right": 2})]
    assert len({str(b) for b in builds}) == len(builds)
    # With a discount on the right only, both remain (each pays a different neighbour).
    state["players"][0]["built"] = [card("East Trading Post")]
    builds = options_for(state, 0, card("Baths"))
    assert [b["pay"] for b in builds] == [{"right": 1}, {"left": 2}]


def test_dominated_plans_are_dropped_and_equal_prices_kept_once():
    # Own choice covers stone or glass (synthetic); the left sells both, glass cheaper.
    need = vector({"stone": 1, "glass": 1})
    plans = payment_plans(
        need, ZERO, ((1, 4),),
        vector({"stone": 1, "glass": 1}), (), ZERO, (),
        (2, 2, 2, 2, 1, 1, 1), (2,) * 7,
    )
    assert [(p[0], p[1]) for p in plans] == [(1, 0)]
    # Two wood from neighbours that both make two: three price pairs, none dominated.
    plans = payment_plans(
        vector({"wood": 2}), ZERO, (), vector({"wood": 2}), (), vector({"wood": 2}), (),
        (2,) * 7, (2,) * 7,
    )
    assert sorted((p[0], p[1]) for p in plans) == [(0, 4), (2, 2), (4, 0)]


def test_wonder_stage_costs_come_from_the_board_and_can_be_bought():
    state = game(3, ["rhodes", "giza", "olympia"])  # Rhodes A stage 1: 2 wood
    city(state, 2, built=[card("Lumber Yard")])  # right: Olympia wood + Lumber Yard
    city(state, 0, coins=4)
    hand(state, 0, [card("Palace")])
    [stage] = options_for(state, 0, card("Palace"), kind="wonder")
    assert stage["buy"] == {"right": {"wood": 2}}
    assert engine.describe(state, 0, stage, viewer=0) == (
        "Build wonder stage 1 with Palace: pay 4 coins to the right for 2 wood"
    )
    city(state, 0, stages=3)  # complete
    assert options_for(state, 0, card("Palace"), kind="wonder") == []


def test_example_19_identical_names_never_twice():
    state = game(3, ["olympia", "giza", "rhodes"])
    city(state, 0, built=[card("Loom", 1)], stages=2, coins=9)  # Olympia A: free build ready
    hand(state, 0, [card("Loom", 2), card("Palace")])
    kinds = [a["type"] for a in engine.legal_actions(state, 0) if a["card"] == card("Loom", 2)]
    assert kinds == ["discard"]  # no build, even with Olympia's free build; no ore for stage 3
    palace = options_for(state, 0, card("Palace"))
    assert palace == [{"type": "build", "card": card("Palace"), "free": "olympia"}]
    with pytest.raises(IllegalAction, match="already has Loom"):
        engine.apply(state, 0, {"type": "build", "card": card("Loom", 2)})


def test_a_payment_not_listed_is_refused():
    state = university_table()
    action = {"type": "build", "card": card("University"),
              "buy": {"left": {"wood": 1}, "right": {"papyrus": 1}}, "pay": {"left": 1, "right": 1}}
    with pytest.raises(IllegalAction):
        engine.apply(state, 0, action)
    with pytest.raises(IllegalAction):
        engine.apply(state, 0, {"type": "build", "card": card("University")})
    with pytest.raises(IllegalAction, match="not in your hand"):
        engine.apply(state, 0, {"type": "discard", "card": card("Palace")})


def test_every_listed_option_is_affordable_in_random_positions():
    game_played = play_random_game(engine, 5, "affordable", chooser_seed=3)
    state = engine.new_game(5, "affordable")
    for entry in game_played.log:
        if entry[0] == "seat" and state["phase"] == "pick":
            seat = entry[1]
            coins = state["players"][seat]["coins"]
            for action in engine.legal_actions(state, seat):
                if action["type"] == "discard" or action.get("free"):
                    continue
                bank = 0 if action["type"] == "wonder" else CARDS[action["card"]]["coins"]
                assert bank + sum(action.get("pay", {}).values()) <= coins
            state = engine.apply(state, seat, entry[2])
        elif entry[0] == "seat":
            state = engine.apply(state, entry[1], entry[2])
        else:
            state = engine.resolve(state)
