"""Set-up (deck counts per player count, guilds, boards, coins) and hidden information in views
and log sentences."""

import json
from collections import Counter

import pytest

from games.engines.base import InvalidOptions
from games.engines.seven_wonders.data import CARDS, WONDERS
from games.engines.seven_wonders.engine import build_deck, engine
from tests.engines.english import english_view
from tests.engines.seven_wonders.helpers import card, city, game, hand, options_for, pick_all

# Reference section 17: Age I, Age II, Age III non-guild, guilds.
DECKS = {3: (21, 21, 16, 5), 4: (28, 28, 22, 6), 5: (35, 35, 28, 7), 6: (42, 42, 34, 8),
         7: (49, 49, 40, 9)}


def test_all_148_cards_and_78_records():
    assert len(CARDS) == 78
    physical = Counter()
    for record in CARDS.values():
        physical[record["age"]] += len(record["copies"]) or 1
    assert physical == {1: 49, 2: 49, 3: 50}
    ages = Counter((r["age"], r["color"] == "purple") for r in CARDS.values())
    assert ages == {(1, False): 27, (2, False): 23, (3, False): 18, (3, True): 10}
    chains = sum(len(r["chain_from"]) for r in CARDS.values())
    assert chains == 26  # reference section 8.3 (Forum's two trading posts included)


def test_all_wonders_both_sides():
    assert sorted(WONDERS) == ["alexandria", "babylon", "ephesus", "giza", "halicarnassus",
                               "olympia", "rhodes"]
    stages = {wid: (len(w["sides"]["A"]), len(w["sides"]["B"])) for wid, w in WONDERS.items()}
    assert stages == {"rhodes": (3, 2), "alexandria": (3, 3), "ephesus": (3, 3),
                      "babylon": (3, 3), "olympia": (3, 3), "halicarnassus": (3, 3),
                      "giza": (3, 4)}
    assert WONDERS["giza"]["sides"]["B"][3]["cost"] == {"stone": 4, "papyrus": 1}


@pytest.mark.parametrize("num_players", range(3, 8))
def test_deck_counts_per_player_count(num_players):
    age1, age2, age3, guilds = DECKS[num_players]
    assert len(build_deck(1, num_players)) == age1
    assert len(build_deck(2, num_players)) == age2
    assert len(build_deck(3, num_players)) == age3
    state = engine.new_game(num_players, f"deck-{num_players}")
    age3_deck = state["decks"]["3"]
    assert len(age3_deck) == 7 * num_players
    assert sum(CARDS[c]["color"] == "purple" for c in age3_deck) == guilds
    assert len(state["decks"]["2"]) == age2
    assert [len(h) for h in state["hands"]] == [7] * num_players
    dealt = Counter(c for h in state["hands"] for c in h)
    assert dealt == Counter(build_deck(1, num_players))
    assert [p["coins"] for p in state["players"]] == [3] * num_players
    assert len({p["wonder"] for p in state["players"]}) == num_players
    assert {p["side"] for p in state["players"]} == {"A"}


def test_six_player_deck_leaves_out_seven_player_copies():
    deck = Counter(build_deck(1, 6))
    assert deck[card("Lumber Yard")] == 2  # thresholds 3, 4
    assert deck[card("Tavern")] == 2  # 4, 5 (the 7+ copy stays in the box)


def test_guilds_are_random_and_setup_is_deterministic():
    a = engine.new_game(5, "same")
    assert a == engine.new_game(5, "same")
    draws = {tuple(sorted(c for c in engine.new_game(3, f"g{i}")["decks"]["3"]
                          if CARDS[c]["color"] == "purple")) for i in range(20)}
    assert len(draws) > 5


def test_sides_options():
    assert {p["side"] for p in engine.new_game(7, "b", {"sides": "B"})["players"]} == {"B"}
    sides = [p["side"] for i in range(6)
             for p in engine.new_game(7, f"r{i}", {"sides": "random"})["players"]]
    assert set(sides) == {"A", "B"}


@pytest.mark.parametrize(
    ("num_players", "options"),
    [(1, None), (8, None), (4, {"sides": "C"}), (4, {"wonders": "mine"}), (4, {"x": 1}),
     ("4", None)],
)
def test_invalid_options(num_players, options):
    with pytest.raises(InvalidOptions):
        engine.new_game(num_players, "seed", options)


def test_view_shows_only_the_viewers_hand_and_pick():
    state = engine.new_game(4, "hidden-seed")
    mine = state["hands"][0]
    state = engine.apply(state, 0, {"type": "discard", "card": mine[0]})
    own = engine.view(state, 0)
    assert [c["id"] for c in own["you"]["hand"]] == mine
    assert own["you"]["pick"] == {"type": "discard", "card": mine[0]}
    assert own["players"][0]["has_picked"] is True
    assert own["waiting_for"] == 3
    other = engine.view(state, 1)
    assert other["you"]["pick"] is None
    text = json.dumps(other)
    for cid in set(mine) - set(state["hands"][1]):
        assert cid not in text
    spectator = engine.view(state, None)
    assert spectator["you"] is None
    spectator_text = json.dumps(spectator)
    for h in state["hands"]:
        for cid in h:
            assert cid not in spectator_text
    for deck in state["decks"].values():
        assert not any(cid in spectator_text for cid in deck)
    assert "hidden-seed" not in spectator_text


def test_describe_hides_a_pending_pick_from_others():
    state = engine.new_game(3, "describe")
    action = {"type": "discard", "card": state["hands"][2][0]}
    assert engine.describe(state, 2, action, viewer=0) == "Seat 2 chose a card."
    assert engine.describe(state, 2, action, viewer=None) == "Seat 2 chose a card."
    assert engine.describe(state, 2, action, viewer=2).startswith("Discard ")


def test_wonder_stage_cards_are_face_down_for_everyone_but_known_to_the_owner():
    state = game(3, ["giza", "rhodes", "ephesus"])
    city(state, 0, built=[card("Stone Pit")])
    hand(state, 0, [card("Palace"), card("Altar")])
    hand(state, 1, [card("Baths"), card("Altar")])
    hand(state, 2, [card("Baths"), card("Altar")])
    stage = options_for(state, 0, card("Palace"), "wonder")[0]
    sentence = engine.describe_resolution(
        engine.apply(engine.apply(engine.apply(state, 0, stage), 1, {
            "type": "discard", "card": card("Baths")}), 2, {"type": "discard",
                                                              "card": card("Baths")}))
    assert "Palace" not in sentence and "wonder stage 1" in sentence
    after = pick_all(state, {0: stage})
    for viewer in (None, 0, 1, 2):
        view = english_view(engine, after, viewer)
        assert view["players"][0]["wonder"]["stages_built"] == 1
        assert "Palace" not in json.dumps(view["players"]) and "palace" not in json.dumps(
            view["players"])
        assert view["discard_count"] == 2
        assert all("Baths" not in event for event in view["events"])


def test_discard_pile_visible_only_to_halicarnassus_while_choosing():
    state = game(3, ["halicarnassus", "giza", "rhodes"])
    hand(state, 0, [card("Palace"), card("Altar")])
    hand(state, 1, [card("Baths"), card("Altar")])
    hand(state, 2, [card("Baths"), card("Altar")])
    city(state, 0, built=[card("Ore Vein"), card("Mine")], stages=1, coins=5)
    stage = options_for(state, 0, card("Palace"), "wonder")[0]
    after = pick_all(state, {0: stage})
    assert after["phase"] == "discard_build"
    assert [c["id"] for c in engine.view(after, 0)["you"]["discard"]] == [card("Baths")] * 2
    for viewer in (None, 1, 2):
        view = engine.view(after, viewer)
        assert view["you"] is None or view["you"]["discard"] is None
        assert "baths" not in json.dumps(view)
    done = engine.apply(after, 0, {"type": "discard_build", "card": card("Baths")})
    assert engine.view(done, 0)["you"]["discard"] is None
    assert engine.describe(after, 0, {"type": "discard_build", "card": card("Baths")},
                           viewer=1) == "Seat 0: Build Baths from the discard pile for free"


def test_view_has_what_a_player_needs():
    state = engine.new_game(5, "needs")
    view = english_view(engine, state, 2)
    assert view["players"][2]["left"] == 3 and view["players"][2]["right"] == 1
    assert view["direction"] == "left"
    first = view["you"]["hand"][0]
    assert {"name", "color", "cost", "effect", "options"} <= set(first)
    assert first["options"][-1].startswith("Discard ")
    assert set(view["players"][0]["score_so_far"]) == set(view["categories"])
    json.dumps(view)


def test_final_view_has_the_score_table():
    from tests.engines.conformance import play_random_game

    played = play_random_game(engine, 4, "final-view", chooser_seed=1)
    view = engine.view(played.final_state, None)
    result = engine.result(played.final_state)
    assert view["result"]["scores"] == result["scores"]
    assert [row["total"] for row in view["result"]["rows"]] == result["scores"]
    assert view["result"]["categories"][0] == "military"


@pytest.mark.parametrize(
    "action",
    [{}, {"type": "build", "card": "no_such_card"}, {"type": "choose_wonder", "wonder": 3},
     {"type": "build", "card": ["x"]}, "pass"],
)
def test_describe_never_fails_on_nonsense(action):
    state = engine.new_game(3, "nonsense")
    assert engine.describe(state, 0, action, viewer=0)
    if isinstance(action, dict):
        assert engine.describe(state, 0, action, viewer=1) == "Seat 0 chose a card."
