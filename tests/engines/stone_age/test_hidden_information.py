"""What each seat may see: own cards only, no deck order, no tiles below a stack's top, no seed;
dice public once rolled; the extra card redacted in the log for everyone but its owner."""

import json

from games.engines.stone_age import data
from games.engines.stone_age.engine import engine
from tests.engines.conformance import play_random_game
from tests.engines.english import english_view

from .helpers import action_phase, apply, resources, rig_dice


def played_state(num_players=3, seed="hidden", steps=250):
    game = play_random_game(engine, num_players, seed, max_steps=20_000)
    state = engine.new_game(num_players, seed)
    for entry in game.log[:steps]:
        if entry[0] == "resolve":
            state = engine.resolve(state)
        else:
            state = engine.apply(state, entry[1], entry[2])
    return state


def test_each_seat_sees_only_its_own_cards():
    state = played_state()
    owners = [seat for seat, p in enumerate(state["players"]) if p["cards"]]
    assert owners, "the sample game should have bought cards by now"
    for viewer in [None, 0, 1, 2]:
        view = engine.view(state, viewer)
        for seat, player in enumerate(view["players"]):
            real = state["players"][seat]
            assert player["card_count"] == len(real["cards"])
            if seat == viewer:
                assert [c["id"] for c in player["cards"]] == real["cards"]
            else:
                assert player["cards"] is None
                text = json.dumps(player)
                hidden = set(real["cards"]) - set(real["one_use"]) - set(real["two_resources"])
                assert not any(card in text for card in hidden)


def test_face_up_cards_are_public_until_used():
    state = action_phase(2, 0, {"forest": 1})
    player = state["players"][0]
    player["cards"] = ["civ_33", "civ_36", "civ_11"]
    player["one_use"] = ["civ_33"]
    player["two_resources"] = ["civ_36"]
    other = engine.view(state, 1)["players"][0]
    assert [c["id"] for c in other["face_up_cards"]] == ["civ_33", "civ_36"]
    assert "civ_11" not in json.dumps(other)


def test_deck_order_and_lower_tiles_never_appear():
    state = played_state(4, "deck-check", 120)
    hidden_cards = set(state["deck"])
    hidden_tiles = {tile for stack in state["stacks"] for tile in stack[1:]}
    shown = {tile["id"] for p in state["players"] for tile in p["buildings"]}
    shown |= {stack[0] for stack in state["stacks"] if stack}
    for viewer in [None, 0, 1, 2, 3]:
        text = json.dumps(engine.view(state, viewer))
        assert not any(f'"{card}"' in text for card in hidden_cards)
        assert not any(f'"{tile}"' in text for tile in hidden_tiles - shown)
        assert state["rng"]["seed"] not in text and '"rng"' not in text
        view = engine.view(state, viewer)
        assert view["deck_size"] == len(state["deck"])
        assert [s["height"] for s in view["building_stacks"]] == [len(s) for s in state["stacks"]]


def test_extra_card_is_named_only_to_its_owner():
    state = action_phase(3, 1, {"civ_slot_1": 1})
    state["display"][0] = "civ_32"
    state["players"][1]["resources"] = resources(wood=1)
    state = apply(state, 1, {"type": "resolve", "location": "civ_slot_1"})
    drawn = state["deck"][0]
    action = {"type": "buy_card", "pay": resources(wood=1)}
    name = data.CARDS[drawn]["name"]
    # The sentence is also shown next to the choice before it is made: it must not tell even
    # the buyer which card lies on top of the deck.
    for viewer in (None, 0, 1):
        text = engine.describe(state, 1, action, viewer=viewer)
        assert name not in text and "face-down card" in text
    after = engine.apply(state, 1, action)
    assert drawn in [c["id"] for c in engine.view(after, 1)["players"][1]["cards"]]
    assert name in " ".join(english_view(engine, after, 1)["log"])
    assert name not in " ".join(english_view(engine, after, 0)["log"])
    assert drawn not in json.dumps(engine.view(after, 0))


def test_dice_are_a_public_chance_step_never_known_before_the_choice():
    state = action_phase(4, 2, {"quarry": 3})
    rig_dice(state, [6, 2, 5])
    action = {"type": "resolve", "location": "quarry"}
    # Choosing where to act must not reveal the coming dice (the sentence is shown beside it).
    assert "6, 2, 5" not in engine.describe(state, 2, action, viewer=2)
    chosen = engine.apply(state, 2, action)
    assert engine.active_seats(chosen) == [] and engine.ready_to_resolve(chosen)
    assert engine.legal_actions(chosen, 2) == []
    for viewer in (None, 0, 2):
        assert "6, 2, 5" in engine.describe_resolution(chosen, viewer)
    rolled = engine.resolve(chosen)
    assert any("6, 2, 5" in line for line in english_view(engine, rolled, 0)["log"])
    assert engine.view(rolled, 0)["decision"] is not None


def test_everything_is_revealed_when_the_game_is_over():
    game = play_random_game(engine, 2, "reveal")
    view = engine.view(game.final_state, 0)
    assert view["players"][1]["cards"] is not None
    assert view["result"]["scores"] == engine.result(game.final_state)["scores"]


def test_a_view_is_json_and_has_no_secret_keys():
    state = engine.new_game(2, "s3cr3t-seed")
    for viewer in (None, 0, 1, 7, "x"):
        text = json.dumps(engine.view(state, viewer))
        assert "s3cr3t-seed" not in text and "counter" not in text
