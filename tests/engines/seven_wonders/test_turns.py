"""Turn mechanics: secret picks that may be replaced, simultaneous resolution, coins earned
this turn, immediate coin effects, passing, the sixth turn, military, and the wonder powers
that need a decision (Babylon B, Halicarnassus) or a rule (Olympia A, Rhodes)."""

import copy

import pytest

from games.engines.base import IllegalAction
from games.engines.seven_wonders.engine import engine
from tests.engines.english import english_view
from tests.engines.seven_wonders.helpers import card, city, game, hand, options_for, pick_all


def discard(cid):
    return {"type": "discard", "card": cid}


def build(cid, **extra):
    return {"type": "build", "card": cid, **extra}


def three_hands(state, age=1, turn=1):
    state["age"], state["turn"] = age, turn
    cards = {1: ["Lumber Yard", "Stone Pit", "Clay Pool", "Ore Vein", "Loom", "Press"],
             2: ["Sawmill", "Quarry", "Brickyard", "Foundry", "Vineyard", "Bazar"],
             3: ["Pantheon", "Gardens", "Town Hall", "Palace", "Senate", "Haven"]}[age]
    for seat in range(state["num_players"]):
        hand(state, seat, [card(name, age) for name in cards[2 * seat: 2 * seat + 2]])
    return state


def test_every_seat_picks_and_may_replace_until_all_are_in():
    state = three_hands(game(3))
    assert engine.active_seats(state) == [0, 1, 2]
    first = engine.apply(state, 0, discard(state["hands"][0][0]))
    assert engine.active_seats(first) == [1, 2]
    assert not engine.ready_to_resolve(first)
    assert engine.legal_actions(first, 0)  # seat 0 still sees its options
    replaced = engine.apply(first, 0, build(state["hands"][0][1]))
    assert replaced["picks"][0] == build(state["hands"][0][1])
    assert first["picks"][0] == discard(state["hands"][0][0])  # input untouched
    done = engine.apply(engine.apply(replaced, 1, discard(state["hands"][1][0])), 2,
                        discard(state["hands"][2][0]))
    assert engine.active_seats(done) == []
    assert engine.ready_to_resolve(done)
    with pytest.raises(IllegalAction):
        engine.resolve(first)
    after = engine.resolve(done)
    assert card("Stone Pit") in after["players"][0]["built"]
    assert after["players"][1]["coins"] == 6 and after["players"][2]["coins"] == 6
    assert after["turn"] == 2


def test_hands_pass_left_in_age_one_and_three_right_in_age_two():
    for age, direction in ((1, +1), (2, -1), (3, +1)):
        state = three_hands(game(3), age=age)
        hands = copy.deepcopy(state["hands"])
        after = pick_all(state, {})
        for seat in range(3):
            assert after["hands"][(seat + direction) % 3] == hands[seat][1:]


def test_coins_received_this_turn_cannot_be_spent_this_turn_example_16():
    """A player with 1 coin and 1 clay cannot buy the second clay for Forum, even though both
    neighbours buy from them in the same turn; a player may build with production they sell."""
    state = game(3, ["babylon", "giza", "halicarnassus"], sides="A")  # clay; stone; loom
    state["age"] = 2
    city(state, 0, coins=1)
    city(state, 1, built=[card("Clay Pool"), card("Stone Pit")])
    hand(state, 0, [card("Forum"), card("Library")])
    assert options_for(state, 0, card("Forum")) == []
    # Giza (seat 1) has 2 stone + loom? Give it Loom: it builds Library while both neighbours
    # buy its stone.
    city(state, 1, built=[card("Clay Pool"), card("Stone Pit"), card("Loom", 1)], coins=3)
    city(state, 0, coins=4)
    city(state, 2, coins=4)
    hand(state, 1, [card("Library"), card("Baths")])
    hand(state, 2, [card("Baths"), card("Walls")])
    hand(state, 0, [card("Baths"), card("Forum")])
    library = options_for(state, 1, card("Library"))
    assert library == [build(card("Library"))]
    baths_0 = [a for a in options_for(state, 0, card("Baths")) if a["pay"] == {"left": 2}]
    baths_2 = [a for a in options_for(state, 2, card("Baths")) if a["pay"] == {"right": 2}]
    after = pick_all(state, {0: baths_0[0], 1: library[0], 2: baths_2[0]})
    assert after["players"][1]["coins"] == 3 + 4
    assert card("Library") in after["players"][1]["built"]
    assert after["players"][0]["coins"] == 2 and after["players"][2]["coins"] == 2


def test_payments_go_to_the_neighbour_who_supplies():
    state = three_hands(game(3, ["olympia", "giza", "rhodes"]))  # left Giza stone, right ore
    hand(state, 0, [card("Barracks"), card("Baths")])
    [barracks] = options_for(state, 0, card("Barracks"))
    assert barracks["pay"] == {"right": 2}
    after = pick_all(state, {0: barracks})
    # Seat 0 paid 2 to Rhodes (right, seat 2); seats 1 and 2 discarded for 3 coins.
    assert [p["coins"] for p in after["players"]] == [1, 3 + 3, 3 + 3 + 2]


def test_example_12_vineyard_counts_cards_built_the_same_turn():
    state = game(3, ["giza", "rhodes", "ephesus"])
    state["age"] = 2
    city(state, 0, built=[card("Lumber Yard"), card("Stone Pit")], coins=0)
    city(state, 1, built=[card("Clay Pool"), card("Ore Vein"), card("Tree Farm")])
    city(state, 2, built=[card("Excavation")])
    hand(state, 0, [card("Vineyard"), card("Bazar")])
    hand(state, 1, [card("Caravansery"), card("Forum")])
    hand(state, 2, [card("Sawmill"), card("Forum")])
    after = pick_all(state, {0: build(card("Vineyard")),
                             2: options_for(state, 2, card("Sawmill"))[0]})
    assert card("Sawmill") in after["players"][2]["built"]
    assert after["players"][0]["coins"] == 2 + 3 + 2


def test_example_12_bazar_two_coins_per_grey_card():
    state = game(3, ["giza", "rhodes", "ephesus"])
    state["age"] = 2
    city(state, 0, built=[card("Loom", 1)], coins=0)
    city(state, 1, built=[card("Glassworks", 1), card("Press", 1)])
    hand(state, 0, [card("Bazar"), card("Vineyard")])
    hand(state, 1, [card("Caravansery"), card("Forum")])
    hand(state, 2, [card("Sawmill"), card("Forum")])
    after = pick_all(state, {0: build(card("Bazar"))})
    assert after["players"][0]["coins"] == 6


def test_example_10_age_three_commercial_coins_in_order():
    state = game(3, ["giza", "rhodes", "ephesus"])
    state["age"] = 3
    built = [card("Lumber Yard"), card("Clay Pool"), card("Sawmill"), card("Quarry"),
             card("Loom", 1), card("Glassworks", 2), card("East Trading Post"), card("Forum")]
    city(state, 0, built=built, coins=0)
    city(state, 1, built=[card("Ore Vein"), card("Press", 1)])
    city(state, 2, built=[card("Clay Pool")])
    gains = []
    for name in ("Haven", "Chamber of Commerce", "Lighthouse"):
        hand(state, 0, [card(name), card("Palace")])
        hand(state, 1, [card("Palace"), card("Senate")])
        hand(state, 2, [card("Palace"), card("Senate")])
        options = options_for(state, 0, card(name))
        assert options, name
        before = state["players"][0]["coins"]
        state = pick_all(state, {0: options[0]})
        state["turn"] = 1
        paid = sum(options[0].get("pay", {}).values())
        gains.append(state["players"][0]["coins"] - before + paid)
    assert gains == [4, 4, 5]


def test_example_11_arena_three_coins_per_stage_and_tavern():
    state = game(3, ["giza", "rhodes", "ephesus"])
    state["age"] = 3
    city(state, 0, built=[card("Quarry"), card("Ore Vein")], stages=2, coins=0)
    hand(state, 0, [card("Arena"), card("Palace")])
    hand(state, 1, [card("Palace"), card("Senate")])
    hand(state, 2, [card("Palace"), card("Senate")])
    after = pick_all(state, {0: build(card("Arena"))})
    assert after["players"][0]["coins"] == 6
    state = game(3)
    hand(state, 0, [card("Tavern"), card("Altar")])
    hand(state, 1, [card("Altar"), card("Baths")])
    hand(state, 2, [card("Altar"), card("Baths")])
    assert pick_all(state, {0: build(card("Tavern"))})["players"][0]["coins"] == 8


def test_ephesus_and_rhodes_b_stage_coins_and_shields():
    state = game(3, ["ephesus", "rhodes", "giza"], sides="B")
    city(state, 0, built=[card("Quarry", 2)])  # Ephesus B stage 1: 2 stone
    city(state, 1, built=[card("Stone Pit"), card("Quarry", 2)])  # Rhodes B stage 1: 3 stone
    hand(state, 0, [card("Altar"), card("Baths")])
    hand(state, 1, [card("Altar"), card("Baths")])
    hand(state, 2, [card("Altar"), card("Baths")])
    after = pick_all(state, {
        0: options_for(state, 0, card("Altar"), "wonder")[0],
        1: options_for(state, 1, card("Altar"), "wonder")[0],
    })
    assert after["players"][0]["coins"] == 3 + 4
    assert after["players"][1]["coins"] == 3 + 3
    assert engine.view(after, None)["players"][1]["shields"] == 1
    assert engine.view(after, None)["players"][1]["score_so_far"]["wonder"] == 3


def test_sixth_turn_last_card_discarded_without_coins_then_military():
    state = three_hands(game(3, ["giza", "rhodes", "ephesus"]), turn=6)
    city(state, 0, built=[card("Stockade")])  # 1 shield vs 0 and 0
    before_discard = len(state["discard"])
    after = pick_all(state, {0: build(state["hands"][0][0])})
    assert len(after["discard"]) == before_discard + 2 + 3  # two discards + three last cards
    assert after["players"][0]["coins"] == 3  # built, no coins for the last card
    assert after["players"][1]["coins"] == 6
    assert after["players"][0]["tokens"] == [1, 1]
    assert after["players"][1]["tokens"] == [-1] and after["players"][2]["tokens"] == [-1]
    assert (after["age"], after["turn"]) == (2, 1)
    assert [len(h) for h in after["hands"]] == [7, 7, 7]


def test_examples_2_and_3_military_over_two_ages():
    state = game(3, ["giza", "rhodes", "ephesus"])
    strengths = {1: (1, 0, 1), 2: (1, 2, 3)}
    reds = {0: card("Stockade"), 1: card("Barracks"), 2: card("Guard Tower")}
    for age in (1, 2):
        state = three_hands(state, age=age, turn=6)
        for seat in range(3):
            # Cumulative shields: one-shield red cards, as many as the example's strength.
            state["players"][seat]["built"] = [reds[s] for s in range(strengths[age][seat])]
        state = pick_all(state, {})
    totals = [sum(p["tokens"]) for p in state["players"]]
    assert totals == [-1, 0, 7]


def test_example_2_one_conflict():
    state = game(5, ["giza", "rhodes", "ephesus", "babylon", "olympia"])
    state = three_hands(state, age=2, turn=6)
    for seat in range(3, 5):
        hand(state, seat, [card("Sawmill"), card("Quarry")])
    # Seat 0: 3 shields; left (seat 1) 5; right (seat 4) 2.
    city(state, 0, built=[card("Walls"), card("Stockade")])
    city(state, 1, built=[card("Walls"), card("Archery Range"), card("Barracks")])
    city(state, 4, built=[card("Stables")])
    after = pick_all(state, {})
    assert after["players"][0]["tokens"] == [-1, 3]
    assert 3 in after["players"][1]["tokens"] and -1 in after["players"][4]["tokens"]


def test_babylon_b_plays_the_seventh_card_then_halicarnassus_then_military():
    state = game(3, ["babylon", "halicarnassus", "giza"], sides="B")
    state = three_hands(state, turn=6)
    city(state, 0, stages=2, coins=5)  # Babylon B: play_seventh_card
    # Halicarnassus B stage 1 costs 2 ore: give it two Ore Veins' worth.
    city(state, 1, built=[card("Mine")], coins=3)
    city(state, 2, built=[card("Ore Vein")])
    state["discard"] = [card("Altar")]
    stage = options_for(state, 1, state["hands"][1][0], "wonder")
    assert stage, "Halicarnassus can build its first B stage"
    mid = pick_all(state, {0: build(state["hands"][0][0]), 1: stage[0]})
    assert mid["phase"] == "seventh"
    assert engine.active_seats(mid) == [0]
    assert not engine.ready_to_resolve(mid)
    last = mid["hands"][0][0]
    seventh = engine.legal_actions(mid, 0)
    assert {a["card"] for a in seventh} == {last}
    assert engine.legal_actions(mid, 1) == []
    with pytest.raises(IllegalAction):
        engine.apply(mid, 1, discard(mid["hands"][1][0] if mid["hands"][1] else last))
    after_seventh = engine.apply(mid, 0, build(last))
    assert last in after_seventh["players"][0]["built"]
    assert after_seventh["phase"] == "discard_build"
    assert engine.active_seats(after_seventh) == [1]
    choices = {a["card"] for a in engine.legal_actions(after_seventh, 1)}
    # The last cards discarded this sixth turn are available (seat 2's), Babylon's is not.
    assert card("Altar") in choices and state["hands"][2][1] in choices
    assert last not in choices
    done = engine.apply(after_seventh, 1, {"type": "discard_build", "card": card("Altar")})
    assert card("Altar") in done["players"][1]["built"]
    assert card("Altar") not in done["discard"]
    assert (done["age"], done["turn"], done["phase"]) == (2, 1, "pick")
    assert [record["age"] for record in done["conflicts"]] == [1]  # military after both


def test_babylon_b_stage_two_built_in_the_sixth_turn_plays_the_seventh_card():
    state = game(3, ["babylon", "giza", "rhodes"], sides="B")
    state = three_hands(state, turn=6)
    city(state, 0, stages=1, built=[card("Lumber Yard"), card("Tree Farm"), card("Glassworks", 1)])
    stage = options_for(state, 0, state["hands"][0][0], "wonder")
    assert stage
    mid = pick_all(state, {0: stage[0]})
    assert mid["phase"] == "seventh" and engine.active_seats(mid) == [0]
    done = engine.apply(mid, 0, discard(mid["hands"][0][0]))
    assert done["players"][0]["coins"] == 3 + 3
    assert done["age"] == 2


def test_halicarnassus_power_is_wasted_when_nothing_can_be_built():
    state = three_hands(game(3, ["halicarnassus", "giza", "rhodes"]))
    # Stage 1 built; stage 2 (the power) costs 3 ore.
    city(state, 0, built=[card("Ore Vein"), card("Mine")], coins=5, stages=1)
    state["discard"] = []
    stage = options_for(state, 0, state["hands"][0][0], "wonder")
    assert stage
    # Seats 1 and 2 build rather than discard, so the pile stays empty.
    after = pick_all(state, {0: stage[0],
                             1: build(state["hands"][1][0]), 2: build(state["hands"][2][0])})
    assert after["phase"] == "pick" and after["turn"] == 2
    assert "found nothing" in " ".join(english_view(engine, after, None)["events"])


def test_halicarnassus_never_builds_a_name_it_already_has():
    state = game(3, ["halicarnassus", "giza", "rhodes"])
    state = three_hands(state)
    city(state, 0, built=[card("Ore Vein"), card("Mine"), card("Altar")], coins=5, stages=1)
    state["discard"] = [card("Altar"), card("Baths")]
    stage = options_for(state, 0, state["hands"][0][0], "wonder")
    after = pick_all(state, {0: stage[0],
                             1: build(state["hands"][1][0]), 2: build(state["hands"][2][0])})
    assert engine.legal_actions(after, 0) == [{"type": "discard_build", "card": card("Baths")}]
    with pytest.raises(IllegalAction):
        engine.apply(after, 0, {"type": "discard_build", "card": card("Altar")})


def test_olympia_a_free_build_once_per_age():
    state = game(3, ["olympia", "giza", "rhodes"])
    state = three_hands(state, age=3)
    city(state, 0, stages=2, coins=0)
    hand(state, 0, [card("Palace"), card("Senate")])
    free = build(card("Palace"), free="olympia")
    assert options_for(state, 0, card("Palace")) == [free]
    assert engine.describe(state, 0, free, viewer=0) == (
        "Build Palace: free with Olympia's once-per-Age power"
    )
    after = pick_all(state, {0: free})
    assert card("Palace") in after["players"][0]["built"]
    assert options_for(after, 0, card("Gardens")) == []
    hand(after, 0, [card("Gardens"), card("Town Hall")])
    assert not any(a.get("free") == "olympia" for a in engine.legal_actions(after, 0))
    after["age"] = 2  # a new Age: the power is back
    assert any(a.get("free") == "olympia" for a in engine.legal_actions(after, 0))
    assert engine.view(after, None)["players"][0]["free_build_available"] is True


def test_olympia_free_build_is_not_offered_when_the_card_is_free_anyway():
    state = game(3, ["olympia", "giza", "rhodes"])
    city(state, 0, stages=2)
    hand(state, 0, [card("Altar"), card("Lumber Yard"), card("Timber Yard")])
    assert options_for(state, 0, card("Altar")) == [build(card("Altar"))]
    timber = options_for(state, 0, card("Timber Yard"))
    assert timber == [build(card("Timber Yard")), build(card("Timber Yard"), free="olympia")]


def test_rhodes_a_shields_count_in_military():
    state = game(3, ["rhodes", "giza", "ephesus"])
    state = three_hands(state, turn=6)
    city(state, 0, stages=2)
    city(state, 1, built=[card("Stockade")])
    after = pick_all(state, {})
    assert after["players"][0]["tokens"] == [1, 1]
    assert after["players"][1]["tokens"] == [1, -1]  # beats Ephesus (left), loses to Rhodes


def test_game_ends_after_age_three_military():
    state = three_hands(game(3), age=3, turn=6)
    after = pick_all(state, {})
    assert engine.is_over(after)
    assert engine.active_seats(after) == []
    assert engine.legal_actions(after, 0) == []
    with pytest.raises(IllegalAction, match="over"):
        engine.apply(after, 0, {"type": "discard", "card": card("Palace")})
    assert len(after["players"][0]["tokens"]) == 0  # all tied at 0 shields
    result = engine.result(after)
    assert result["winners"] == [0, 1, 2]  # 2 coins' treasury... all equal


def test_setup_choice_of_boards_and_sides_in_seat_order():
    state = engine.new_game(3, "choose", {"wonders": "chosen", "sides": "chosen"})
    assert state["phase"] == "setup" and engine.active_seats(state) == [0]
    options = engine.legal_actions(state, 0)
    assert len(options) == 14
    assert engine.view(state, 0)["you"]["hand"] == []
    state = engine.apply(state, 0, {"type": "choose_wonder", "wonder": "giza", "side": "B"})
    assert engine.active_seats(state) == [1]
    assert not any(a["wonder"] == "giza" for a in engine.legal_actions(state, 1))
    with pytest.raises(IllegalAction):
        engine.apply(state, 1, {"type": "choose_wonder", "wonder": "giza", "side": "A"})
    state = engine.apply(state, 1, {"type": "choose_wonder", "wonder": "rhodes", "side": "A"})
    state = engine.apply(state, 2, {"type": "choose_wonder", "wonder": "olympia", "side": "A"})
    assert state["phase"] == "pick" and [len(h) for h in state["hands"]] == [7, 7, 7]
    assert [p["wonder"] for p in state["players"]] == ["giza", "rhodes", "olympia"]
    assert state["players"][0]["side"] == "B"


def test_random_boards_with_chosen_sides():
    state = engine.new_game(4, "sides", {"sides": "chosen"})
    dealt = state["players"][0]["wonder"]
    assert engine.legal_actions(state, 0) == [
        {"type": "choose_wonder", "wonder": dealt, "side": "A"},
        {"type": "choose_wonder", "wonder": dealt, "side": "B"},
    ]


@pytest.mark.parametrize(
    ("wonder", "side", "points"),
    [("rhodes", "A", 10), ("rhodes", "B", 7), ("alexandria", "A", 10), ("alexandria", "B", 7),
     ("ephesus", "A", 10), ("ephesus", "B", 10), ("babylon", "A", 10), ("babylon", "B", 3),
     ("olympia", "A", 10), ("olympia", "B", 5), ("halicarnassus", "A", 10),
     ("halicarnassus", "B", 3), ("giza", "A", 15), ("giza", "B", 20)],
)
def test_wonder_points_of_every_side_when_complete(wonder, side, points):
    from games.engines.seven_wonders.data import WONDERS
    from games.engines.seven_wonders.scoring import score_seat

    others = [w for w in ("giza", "rhodes", "ephesus") if w != wonder][:2]
    state = game(3, [wonder, *others], sides=side)
    city(state, 0, stages=len(WONDERS[wonder]["sides"][side]))
    assert score_seat(state["players"], 0)[0]["wonder"] == points


def test_ephesus_a_second_stage_gives_nine_coins():
    state = three_hands(game(3, ["ephesus", "giza", "rhodes"]))
    city(state, 0, stages=1, built=[card("Lumber Yard"), card("Tree Farm")], coins=0)
    stage = options_for(state, 0, state["hands"][0][0], "wonder")
    assert stage == [{"type": "wonder", "card": state["hands"][0][0]}]
    after = pick_all(state, {0: stage[0]})
    assert after["players"][0]["coins"] == 9


def test_alexandria_stage_production_serves_its_owner_only():
    state = three_hands(game(3, ["alexandria", "giza", "babylon"]))
    city(state, 0, stages=2, coins=0)  # A stage 2: one raw material of choice
    hand(state, 0, [card("Baths"), card("Barracks")])
    assert options_for(state, 0, card("Baths")) == [build(card("Baths"))]  # stone, own choice
    assert options_for(state, 0, card("Barracks")) == [build(card("Barracks"))]  # ore
    # Babylon (seat 2) neighbours Alexandria but cannot buy its stage production.
    hand(state, 2, [card("Barracks"), card("Baths")])
    city(state, 2, coins=5)
    assert options_for(state, 2, card("Barracks")) == []


def test_resolve_seventh_card_and_discard_build_leave_their_input_untouched():
    import json

    state = game(3, ["babylon", "halicarnassus", "giza"], sides="B")
    state = three_hands(state, turn=6)
    city(state, 0, stages=2, coins=5)
    city(state, 1, built=[card("Mine")], coins=3)
    city(state, 2, built=[card("Ore Vein")])
    state["discard"] = [card("Altar")]
    stage = options_for(state, 1, state["hands"][1][0], "wonder")[0]
    for seat, action in ((0, build(state["hands"][0][0])), (1, stage),
                         (2, discard(state["hands"][2][0]))):
        state = engine.apply(state, seat, action)
    snapshots = []
    before = json.dumps(state, sort_keys=True)
    mid = engine.resolve(state)
    snapshots.append((before, state))
    before = json.dumps(mid, sort_keys=True)
    after_seventh = engine.apply(mid, 0, engine.legal_actions(mid, 0)[0])
    snapshots.append((before, mid))
    before = json.dumps(after_seventh, sort_keys=True)
    engine.apply(after_seventh, 1, engine.legal_actions(after_seventh, 1)[0])
    snapshots.append((before, after_seventh))
    for text, original in snapshots:
        assert json.dumps(original, sort_keys=True) == text
