"""The two-player variant (reference RULES.md section 19): every statement of 19.1–19.6 as a
worked example on the engine, the hidden information of a two-player game, and replay."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from games.engines.base import IllegalAction
from games.engines.seven_wonders.engine import build_deck, engine
from games.engines.seven_wonders.free_city import FREE_CITY, controller
from games.engines.seven_wonders.rules import GUILDS, card_actions, left_of, right_of
from tests.engines.conformance import play_random_game, replay
from tests.engines.english import english_view
from tests.engines.seven_wonders.helpers import card, city, game, hand

BOARDS = ["giza", "rhodes", "ephesus"]  # seat 0, seat 1, the Free City: side A, no power


def all_cards(state: dict) -> Counter:
    """Every card of the current Age still in play or dealt: hands, pile, picks aside."""
    cards = Counter(cid for h in state["hands"] for cid in h)
    cards.update(state["free_city"]["pile"])
    return cards


def free_city_options(state: dict, cid: str, kind: str | None = None) -> list[dict]:
    return [a for a in card_actions(state, FREE_CITY, cid, free_city=True)
            if kind is None or a["type"] == kind]


def play_turn(state: dict, own: dict | None = None, city_pick: dict | None = None,
              other: dict | None = None) -> dict:
    """One turn: the controller picks its own card then the Free City's, the other seat picks;
    unnamed picks are the timeout moves. Then the turn resolves."""
    seat = controller(state)
    state = engine.apply(state, seat, own or engine.timeout_action(state, seat))
    state = engine.apply(state, seat, city_pick or engine.timeout_action(state, seat))
    state = engine.apply(state, 1 - seat, other or engine.timeout_action(state, 1 - seat))
    assert engine.active_seats(state) == [] and engine.ready_to_resolve(state)
    return engine.resolve(state)


# ----- 19.1 set-up ----------------------------------------------------------------------------


def test_19_1_three_player_decks_five_guilds_seven_cards_each_and_seven_in_the_pile():
    state = engine.new_game(2, "setup")
    assert len(state["players"]) == 3 and state["num_players"] == 2
    # 21 cards per Age: 7 to each player, 7 in the Free City's pile; seat 0 drew the top one.
    assert [len(h) for h in state["hands"]] == [8, 7]
    assert len(state["free_city"]["pile"]) == 6
    assert all_cards(state) == Counter(build_deck(1, 3))
    assert Counter(state["decks"]["2"]) == Counter(build_deck(2, 3))
    age_three = Counter(state["decks"]["3"])
    guilds = [cid for cid in age_three if cid in GUILDS]
    assert len(guilds) == 5 and sum(age_three.values()) == 21
    assert age_three - Counter(guilds) == Counter(build_deck(3, 3))


def test_19_1_a_third_board_is_the_free_city_and_every_city_starts_with_three_coins():
    state = engine.new_game(2, "boards", {"sides": "random"})
    wonders = [player["wonder"] for player in state["players"]]
    assert len(set(wonders)) == 3 and all(wonders)
    assert all(player["side"] in ("A", "B") for player in state["players"])
    assert [player["coins"] for player in state["players"]] == [3, 3, 3]


def test_19_1_the_three_cities_sit_in_a_circle():
    # Each player's neighbours are the other player and the Free City; the Free City's are
    # the two players. Seat 0's right (and seat 1's left) neighbour is the Free City.
    assert (left_of(0, 3), right_of(0, 3)) == (1, FREE_CITY)
    assert (left_of(1, 3), right_of(1, 3)) == (FREE_CITY, 0)
    assert (left_of(FREE_CITY, 3), right_of(FREE_CITY, 3)) == (0, 1)
    view = engine.view(engine.new_game(2, "circle"), 0)
    assert (view["you"]["left"], view["you"]["right"]) == (1, FREE_CITY)
    assert view["free_city"]["role"] == "right"
    assert engine.view(engine.new_game(2, "circle"), 1)["free_city"]["role"] == "left"


def test_19_1_chosen_boards_leave_the_free_city_board_dealt():
    state = engine.new_game(2, "chosen", {"wonders": "chosen", "sides": "chosen"})
    free_city_board = state["players"][FREE_CITY]["wonder"]
    assert free_city_board and state["players"][FREE_CITY]["side"] in ("A", "B")
    assert engine.active_seats(state) == [0]
    offered = {a["wonder"] for a in engine.legal_actions(state, 0)}
    assert free_city_board not in offered and len(offered) == 6
    state = engine.apply(state, 0, engine.legal_actions(state, 0)[0])
    state = engine.apply(state, 1, engine.legal_actions(state, 1)[-1])
    assert state["phase"] == "pick" and [len(h) for h in state["hands"]] == [8, 7]
    assert len({player["wonder"] for player in state["players"]}) == 3


# ----- 19.2 choosing --------------------------------------------------------------------------


def test_19_2_the_controller_draws_then_chooses_its_card_then_the_free_citys():
    state = engine.new_game(2, "choosing")
    top = engine.new_game(2, "choosing")["hands"][0][-1]  # the card drawn from the pile
    assert top not in state["free_city"]["pile"]
    assert engine.active_seats(state) == [0, 1]
    first = engine.legal_actions(state, 0)
    assert first and not any("free_city" in a for a in first)
    # The Free City's card cannot be chosen first.
    marked = {"type": "discard", "card": state["hands"][0][0], "free_city": True}
    with pytest.raises(IllegalAction):
        engine.apply(state, 0, marked)
    own = {"type": "discard", "card": state["hands"][0][0]}
    state = engine.apply(state, 0, own)
    assert engine.active_seats(state) == [0, 1]  # seat 0 still owes the Free City's card
    second = engine.legal_actions(state, 0)
    assert second and all(a["free_city"] is True for a in second)
    assert {a["card"] for a in second} == set(state["hands"][0][1:])
    with pytest.raises(IllegalAction, match="Free City"):
        engine.apply(state, 0, {"type": "discard", "card": state["hands"][0][1]})
    state = engine.apply(state, 0, second[0])
    assert engine.active_seats(state) == [1]
    state = engine.apply(state, 1, engine.legal_actions(state, 1)[0])
    assert engine.ready_to_resolve(state)


def test_19_2_a_new_own_card_means_choosing_the_free_citys_card_again():
    state = engine.new_game(2, "replace")
    state = engine.apply(state, 0, {"type": "discard", "card": state["hands"][0][0]})
    city_pick = engine.legal_actions(state, 0)[0]
    state = engine.apply(state, 0, city_pick)
    assert state["free_city"]["pick"] == city_pick and 0 not in engine.active_seats(state)
    # Seat 0 may still replace its own pick, even with the card it gave the Free City...
    replacement = next(a for a in engine.legal_actions(state, 0)
                       if a["card"] == city_pick["card"] and a["type"] == "discard")
    state = engine.apply(state, 0, replacement)
    # ...and then chooses the Free City's card again, from the rest of its hand.
    assert state["free_city"]["pick"] is None and 0 in engine.active_seats(state)
    assert city_pick["card"] not in {a["card"] for a in engine.legal_actions(state, 0)}


# ----- 19.3 acting ----------------------------------------------------------------------------


def test_19_3_the_free_city_card_is_revealed_first_and_pays_with_the_free_citys_coins():
    state = game(2, BOARDS)
    city(state, FREE_CITY, coins=3)
    hand(state, 0, [card("Baths"), card("Altar"), card("Theater")])
    hand(state, 1, [card("Loom", 1), card("Press", 1)])
    # The Free City (Ephesus, papyrus) buys Baths' stone from Giza, its left neighbour.
    baths = free_city_options(state, card("Baths"), "build")
    assert baths == [{"type": "build", "card": card("Baths"), "free_city": True,
                      "buy": {"left": {"stone": 1}}, "pay": {"left": 2}}]
    after = play_turn(state, own={"type": "build", "card": card("Altar")}, city_pick=baths[0],
                      other={"type": "build", "card": card("Loom", 1)})
    assert after["events"][0] == {"kind": "build", "seat": FREE_CITY, "card": card("Baths"),
                                  "pay": {"left": 2}}
    players = after["players"]
    assert players[FREE_CITY]["built"] == [card("Baths")] and players[FREE_CITY]["coins"] == 1
    assert players[0]["coins"] == 5 and players[0]["built"] == [card("Altar")]
    assert players[1]["built"] == [card("Loom", 1)]
    assert "The Free City built Baths (paid 2 coins to Seat 0)." in english_view(
        engine, after, 1)["events"]


def test_19_3_the_free_city_buys_from_either_neighbour_regardless_of_price():
    # Baths needs a stone. Giza (seat 0, the Free City's left) and seat 1's Stone Pit both sell
    # one; the Free City's West Trading Post makes the left one cost 1 coin.
    state = game(2, BOARDS)
    city(state, 1, built=[card("Stone Pit")])
    city(state, FREE_CITY, built=[card("West Trading Post")], coins=3)
    plans = [a["pay"] for a in free_city_options(state, card("Baths"), "build")]
    assert sorted(plans, key=json.dumps) == [{"left": 1}, {"right": 2}]
    # Both sellers stay listed when a player's city buys too (18.8: the seller is free).
    own = [a["pay"] for a in card_actions(state, FREE_CITY, card("Baths"))
           if a["type"] == "build"]
    assert sorted(own, key=json.dumps) == [{"left": 1}, {"right": 2}]


def test_19_3_a_card_the_free_city_can_chain_must_be_built_by_chain():
    state = game(2, BOARDS)
    city(state, FREE_CITY, built=[card("Theater")])
    assert free_city_options(state, card("Statue")) == [
        {"type": "build", "card": card("Statue"), "free_city": True, "free": "chain"}]
    # A player may still use the card another way.
    assert {a["type"] for a in card_actions(state, FREE_CITY, card("Statue"))} == {
        "build", "discard"}


def test_19_3_the_free_city_discards_only_a_card_it_can_neither_build_nor_use_for_a_stage():
    state = game(2, BOARDS)
    city(state, FREE_CITY, coins=0)
    # Altar is free: built, never discarded. Baths needs a stone the Free City cannot pay
    # for, and Ephesus' first stage (2 stone) is out of reach: Baths may only be discarded.
    assert [a["type"] for a in free_city_options(state, card("Altar"))] == ["build"]
    assert free_city_options(state, card("Baths")) == [
        {"type": "discard", "card": card("Baths"), "free_city": True}]
    # With Baths already built and 4 coins it can buy the stage's 2 stone (Giza's and seat 1's
    # Stone Pit): the card goes under the stage, it is not discarded.
    city(state, 1, built=[card("Stone Pit")])
    city(state, FREE_CITY, built=[card("Baths")], coins=4)
    assert free_city_options(state, card("Baths")) == [
        {"type": "wonder", "card": card("Baths"), "free_city": True,
         "buy": {"left": {"stone": 1}, "right": {"stone": 1}}, "pay": {"left": 2, "right": 2}}]
    city(state, FREE_CITY, built=[], coins=0)
    state["hands"][0] = [card("Altar"), card("Baths"), card("Theater")]
    state = engine.apply(state, 0, {"type": "discard", "card": card("Altar")})
    with pytest.raises(IllegalAction, match="may discard Theater only if"):
        engine.apply(state, 0, {"type": "discard", "card": card("Theater"), "free_city": True})
    discarded = engine.apply(state, 0, {"type": "discard", "card": card("Baths"),
                                        "free_city": True})
    assert discarded["free_city"]["pick"]["card"] == card("Baths")


def test_19_3_in_the_sixth_turn_the_last_pile_card_is_discarded_with_the_players_last_cards():
    state = game(2, BOARDS)
    state["turn"] = 6  # seat 1 controls the Free City: it drew, so it holds 3 cards
    hand(state, 0, [card("Altar"), card("Baths")])
    hand(state, 1, [card("Theater"), card("Loom", 1), card("Press", 1)])
    state["free_city"]["pile"] = [card("Lumber Yard")]
    state["discard"] = [card("Stockade")]
    after = play_turn(state, own={"type": "build", "card": card("Theater")},
                      city_pick={"type": "build", "card": card("Loom", 1), "free_city": True},
                      other={"type": "build", "card": card("Altar")})
    # Seat 0's Baths, seat 1's Press and the pile's Lumber Yard, all without coins.
    assert Counter(after["discard"]) == Counter(
        [card("Stockade"), card("Baths"), card("Press", 1), card("Lumber Yard")])
    assert [p["coins"] for p in after["players"]] == [3, 3, 3]
    assert {"kind": "last_card_discarded", "seat": FREE_CITY} in after["events"]
    assert "The Free City discarded the last card of the Age." in english_view(
        engine, after, 0)["events"]
    # Age II is dealt: 7 cards each, 7 in the pile, seat 0 draws one.
    assert (after["age"], after["turn"]) == (2, 1)
    assert [len(h) for h in after["hands"]] == [8, 7] and len(after["free_city"]["pile"]) == 6


# ----- 19.4 passing ---------------------------------------------------------------------------


def test_19_4_hands_cross_the_border_and_the_players_alternate_controlling_the_free_city():
    state = engine.new_game(2, "passing")
    for age in (1, 2, 3):
        controllers = []
        for turn in range(1, 7):
            assert (state["age"], state["turn"]) == (age, turn)
            seat = controller(state)
            controllers.append(seat)
            # Card arithmetic: the controller holds one more card than the other player, and
            # the pile loses one card a turn (the card drawn), down to 1 in the sixth turn.
            assert len(state["hands"][seat]) == 9 - turn
            assert len(state["hands"][1 - seat]) == 8 - turn
            assert len(state["free_city"]["pile"]) == 7 - turn
            view = engine.view(state, seat)
            assert view["you"]["controls_free_city"] is True
            assert engine.view(state, 1 - seat)["you"]["controls_free_city"] is False
            assert view["free_city"]["controller"] == seat and view["direction"] == "across"
            state = play_turn(state)
        # 3 turns each; seat 0 starts every Age (reference 19.6).
        assert controllers == [0, 1, 0, 1, 0, 1]
    assert engine.is_over(state)


def test_19_4_the_hand_left_by_each_player_is_what_the_other_picks_up():
    state = engine.new_game(2, "swap")
    own = {"type": "discard", "card": state["hands"][0][0]}
    state = engine.apply(state, 0, own)
    city_pick = engine.legal_actions(state, 0)[0]
    state = engine.apply(state, 0, city_pick)
    other = {"type": "discard", "card": state["hands"][1][0]}
    state = engine.apply(state, 1, other)
    rest_of_0 = Counter(state["hands"][0]) - Counter([own["card"], city_pick["card"]])
    rest_of_1 = Counter(state["hands"][1]) - Counter([other["card"]])
    pile_top = state["free_city"]["pile"][0]
    after = engine.resolve(state)
    assert Counter(after["hands"][0]) == rest_of_1
    assert Counter(after["hands"][1]) == rest_of_0 + Counter([pile_top])  # seat 1 drew


# ----- 19.5 everything else -------------------------------------------------------------------


def test_19_5_military_between_all_neighbours_the_free_city_included():
    # End of Age I. Shields: seat 0 two, seat 1 none, the Free City one.
    state = game(2, BOARDS)
    city(state, 0, built=[card("Stockade"), card("Barracks")])
    city(state, FREE_CITY, built=[card("Guard Tower")])
    state["turn"] = 6
    hand(state, 0, [card("Altar"), card("Baths")])
    hand(state, 1, [card("Theater"), card("Loom", 1), card("Press", 1)])
    state["free_city"]["pile"] = [card("Lumber Yard")]
    after = play_turn(state, own={"type": "discard", "card": card("Theater")},
                      city_pick={"type": "build", "card": card("Loom", 1), "free_city": True},
                      other={"type": "discard", "card": card("Altar")})
    assert after["conflicts"][0] == {"age": 1, "shields": [2, 0, 1],
                                     "tokens": [[1, 1], [-1, -1], [-1, 1]]}
    # Tokens per city, against its left then its right neighbour: seat 0 beats seat 1 and
    # the Free City; the Free City loses to seat 0 (its left) and beats seat 1 (its right).
    assert [p["tokens"] for p in after["players"]] == [[1, 1], [-1, -1], [-1, 1]]


def test_19_5_vineyard_and_guilds_count_the_free_city_as_a_neighbour():
    state = game(2, BOARDS)
    city(state, 0, built=[card("Lumber Yard"), card("Ore Vein")])
    city(state, 1, built=[card("Clay Pool")])
    city(state, FREE_CITY, built=[card("Stone Pit"), card("Timber Yard"), card("Clay Pit")])
    hand(state, 0, [card("Vineyard"), card("Altar"), card("Baths")])
    hand(state, 1, [card("Theater"), card("Loom", 1)])
    after = play_turn(state, own={"type": "build", "card": card("Vineyard")},
                      city_pick={"type": "build", "card": card("Altar"), "free_city": True},
                      other={"type": "build", "card": card("Loom", 1)})
    # 2 own + 1 on the left (seat 1) + 3 on the right (the Free City).
    assert after["players"][0]["coins"] == 3 + 6
    # Workers Guild: 1 point per brown card of both neighbours.
    city(after, 1, built=[card("Clay Pool"), card("Workers Guild")])
    result = engine.result({**after, "phase": "over"})
    assert result["breakdown"][1]["guilds"] == 2 + 3


# ----- 19.6 chosen defaults -------------------------------------------------------------------


def test_19_6_only_the_two_players_are_ranked_and_the_free_city_is_scored_for_the_record():
    state = game(2, BOARDS)
    city(state, 0, coins=9)  # 3 VP
    city(state, 1, coins=10)  # 3 VP, one coin more: wins the tie
    city(state, FREE_CITY, coins=60)  # 20 VP: the highest, yet never a winner
    state["phase"] = "over"
    result = engine.result(state)
    assert result["scores"] == [3, 3] and result["winners"] == [1]
    assert result["free_city"]["score"] == 20
    assert result["free_city"]["breakdown"]["treasury"] == 20
    view = engine.view(state, 0)["result"]
    assert [row["seat"] for row in view["rows"]] == [0, 1]
    assert view["free_city"]["total"] == 20 and view["free_city"]["winner"] is False
    city(state, 1, coins=9)
    assert engine.result(state)["winners"] == [0, 1]  # a shared victory between the players


def test_19_6_halicarnassus_free_city_builds_from_the_discard_pile_by_its_controller():
    state = game(2, ["rhodes", "giza", "halicarnassus"], sides=["A", "A", "B"])
    city(state, FREE_CITY, built=[card("Ore Vein")], coins=2)
    state["discard"] = [card("Altar"), card("Baths")]
    hand(state, 0, [card("Theater"), card("Lumber Yard"), card("Loom", 1)])
    hand(state, 1, [card("Press", 1), card("Glassworks", 1)])
    # Stage 1 of Halicarnassus B costs 2 ore: one own, one bought from Rhodes (seat 0).
    stage = free_city_options(state, card("Lumber Yard"), "wonder")
    assert stage == [{"type": "wonder", "card": card("Lumber Yard"), "free_city": True,
                      "buy": {"left": {"ore": 1}}, "pay": {"left": 2}}]
    after = play_turn(state, own={"type": "discard", "card": card("Theater")},
                      city_pick=stage[0], other={"type": "discard", "card": card("Press", 1)})
    assert after["phase"] == "discard_build" and engine.active_seats(after) == [0]
    choices = engine.legal_actions(after, 0)
    assert {"type": "discard_build", "card": card("Altar"), "free_city": True} in choices
    assert engine.legal_actions(after, 1) == []
    # Only the deciding seat sees the discard pile.
    assert engine.view(after, 0)["you"]["discard"]
    assert engine.view(after, 1)["you"]["discard"] is None
    assert "Free City" in engine.describe(after, 0, choices[0], viewer=1)
    done = engine.apply(after, 0, {"type": "discard_build", "card": card("Altar"),
                                   "free_city": True})
    assert done["players"][FREE_CITY]["built"] == [card("Ore Vein"), card("Altar")]
    assert done["phase"] == "pick" and done["turn"] == 2


def test_19_6_babylon_b_free_city_plays_the_last_card_of_its_pile_by_the_sixth_controller():
    state = game(2, [*BOARDS[:2], "babylon"], sides=["A", "A", "B"])
    city(state, FREE_CITY, stages=2)  # stage 2 of Babylon B: play the last card of the Age
    state["turn"] = 6
    hand(state, 0, [card("Altar"), card("Baths")])
    hand(state, 1, [card("Theater"), card("Loom", 1), card("Press", 1)])
    state["free_city"]["pile"] = [card("Lumber Yard")]
    after = play_turn(state, own={"type": "discard", "card": card("Theater")},
                      city_pick={"type": "build", "card": card("Loom", 1), "free_city": True},
                      other={"type": "discard", "card": card("Altar")})
    assert after["phase"] == "seventh" and engine.active_seats(after) == [1]
    assert engine.legal_actions(after, 1) == [
        {"type": "build", "card": card("Lumber Yard"), "free_city": True}]
    done = engine.apply(after, 1, engine.legal_actions(after, 1)[0])
    assert done["players"][FREE_CITY]["built"] == [card("Loom", 1), card("Lumber Yard")]
    assert card("Lumber Yard") not in done["discard"]
    assert (done["age"], done["turn"]) == (2, 1) and len(done["free_city"]["pile"]) == 6


def test_19_6_olympia_a_free_city_free_build_is_offered_to_the_controller():
    state = game(2, [*BOARDS[:2], "olympia"])
    city(state, FREE_CITY, stages=2, coins=0)
    options = free_city_options(state, card("Baths"), "build")
    assert options == [{"type": "build", "card": card("Baths"), "free_city": True,
                        "free": "olympia"}]


def test_19_6_olympia_b_free_city_copies_the_guild_that_scores_most_for_it():
    state = game(2, [*BOARDS[:2], "olympia"], sides=["A", "A", "B"])
    city(state, 0, built=[card("Lumber Yard"), card("Stone Pit"), card("Workers Guild")])
    city(state, 1, built=[card("Builders Guild")], stages=1)
    city(state, FREE_CITY, stages=3)
    state["phase"] = "over"
    # Workers: 2 + 0 brown = 2; Builders: 0 + 1 + 3 stages = 4.
    result = engine.result(state)
    assert result["free_city"]["copied_guild"] == card("Builders Guild")
    assert result["free_city"]["breakdown"]["guilds"] == 4


# ----- hidden information, time-outs, bots, replay --------------------------------------------


def _scrambled(state: dict, viewer: int | None, rng: random.Random) -> dict:
    """`state` with everything `viewer` (None: a spectator) may not see replaced: the other
    seats' hands and picks, the Free City's pile (and its pick unless the viewer made it), the
    decks, the discard pile (unless the viewer is building from it) and the seed."""
    pool = sorted({cid for deck in engine.new_game(2, "pool")["decks"].values() for cid in deck})
    new = copy.deepcopy(state)
    for other in (0, 1):
        if other == viewer:
            continue
        new["hands"][other] = [rng.choice(pool) for _ in new["hands"][other]]
        if new["picks"][other] is not None:
            new["picks"][other] = {"type": "discard", "card": rng.choice(pool)}
    new["free_city"]["pile"] = [rng.choice(pool) for _ in new["free_city"]["pile"]]
    in_play = new["phase"] not in ("setup", "over")
    if new["free_city"]["pick"] is not None and not (in_play and controller(new) == viewer):
        new["free_city"]["pick"] = {"type": "discard", "card": rng.choice(pool),
                                    "free_city": True}
    new["decks"] = {age: rng.sample(pool, len(deck)) for age, deck in new["decks"].items()}
    if not (new["phase"] == "discard_build" and engine.active_seats(new) == [viewer]):
        new["discard"] = [rng.choice(pool) for _ in new["discard"]]
    new["rng"] = {"seed": "scrambled", "counter": 0}
    return new


@pytest.mark.parametrize("index", range(4))
def test_a_two_player_view_never_shows_the_other_hand_nor_the_free_city_hand(index):
    rng = random.Random(index)
    played = play_random_game(engine, 2, f"hidden-{index}", chooser_seed=index, use_bot=0.5,
                              options={"sides": "random"} if index % 2 else None)
    state = engine.new_game(2, played.seed, played.options or None)
    checked = 0
    for entry in played.log:
        for viewer in (None, 0, 1):
            scrambled = _scrambled(state, viewer, rng)
            assert engine.view(scrambled, viewer) == engine.view(state, viewer)
            checked += 1
        if entry[0] == "resolve":
            state = engine.resolve(state)
        else:
            _, seat, action = entry
            for viewer in (None, 1 - seat):
                text = engine.describe(state, seat, action, viewer=viewer)
                if state["phase"] == "pick":
                    assert text in (f"Seat {seat} chose a card.",
                                    f"Seat {seat} chose a card for the Free City.")
            state = engine.apply(state, seat, action)
    assert checked > 100


def test_only_the_controller_sees_the_free_city_pick_and_the_drawn_card():
    state = engine.new_game(2, "drawn")
    drawn = state["hands"][0][-1]
    assert drawn in [c["id"] for c in engine.view(state, 0)["you"]["hand"]]
    spectator = json.dumps(engine.view(state, None))
    assert engine.view(state, None)["free_city"]["pile_size"] == 6
    assert engine.view(state, 1)["players"][0]["hand_size"] == 8
    for cid in set(state["hands"][0]) | set(state["free_city"]["pile"]):
        assert cid not in spectator
    state = engine.apply(state, 0, {"type": "discard", "card": state["hands"][0][0]})
    city_pick = engine.legal_actions(state, 0)[0]
    state = engine.apply(state, 0, city_pick)
    mine = engine.view(state, 0)
    assert mine["you"]["free_city_pick"] == city_pick
    assert english_view(engine, state, 0)["you"]["free_city_pick_text"].startswith(
        "For the Free City: ")
    theirs = engine.view(state, 1)
    assert theirs["you"]["free_city_pick"] is None and theirs["free_city"]["has_picked"]
    assert engine.describe(state, 0, city_pick, viewer=1) == \
        "Seat 0 chose a card for the Free City."


def test_timeouts_and_bots_make_both_of_the_controllers_picks():
    state = engine.new_game(2, "timeouts")
    for move in (engine.timeout_action, engine.bot_action):
        trial = state
        trial = engine.apply(trial, 0, move(trial, 0))
        city_move = move(trial, 0)
        assert city_move["free_city"] is True and city_move in engine.legal_actions(trial, 0)
        trial = engine.apply(trial, 0, city_move)
        trial = engine.apply(trial, 1, move(trial, 1))
        assert engine.ready_to_resolve(trial)


def test_bots_finish_a_two_player_game_and_its_log_replays_from_json():
    played = play_random_game(engine, 2, "bots-two", use_bot=1.0)
    log = json.loads(json.dumps(played.log))
    played.log = [tuple(entry) for entry in log]
    assert replay(engine, played) == played.final_state
    result = engine.result(played.final_state)
    assert len(result["scores"]) == 2 and set(result["winners"]) <= {0, 1}
    # 18 turns: three picks (two by the controller) and one reveal each.
    assert played.steps == 18 * 4
