"""Rules version 4: worked examples of each correction, and the same situations under version 3.

Version 4 follows the printed components where the seed's translation contradicts them (ruby
trades without gold, Weaving parlor 1 point per 2 sheep, two-player Ruby mining from round 3,
Small-scale drift mining "and/or"), gives every seat the last conversions after the final
breeding, and lets the Guest room turn Extension into "and/or" once per game. Games created under
version 3 keep its rules (their logs are in golden/v3_*.json, replayed by test_golden.py)."""

import pytest

from games.engines.base import InvalidOptions
from games.engines.caverna import rules as R
from games.engines.caverna import scoring
from games.engines.caverna.board import idx
from games.engines.caverna.engine import engine
from games.engines.caverna.texts import english

from .helpers import (
    act,
    add_space,
    fresh,
    legal,
    parts,
    place,
    run_until_turn,
    supply,
    top,
    turn_state,
)
from .test_furnishings import own
from .test_scoring import blank_player

# ----- the version is part of the state -------------------------------------------------------


def test_new_games_record_version_4_and_older_games_keep_theirs():
    assert engine.rules_version == 4
    assert fresh(3)["rules_version"] == 4
    assert engine.new_game_at_version(3, "s", {}, 4) == fresh(3, "s")
    legacy = engine.new_game_at_version(3, "s", {}, 3)
    assert "rules_version" not in legacy  # exactly the state version 3 stored
    assert engine.new_game_at_version(3, "s", {}, 2) == legacy
    with pytest.raises(InvalidOptions):
        engine.new_game_at_version(3, "s", {}, 5)


# ----- Weaving parlor: 1 point per 2 sheep ------------------------------------------------------


@pytest.mark.parametrize(
    ("sheep", "points"), [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 3), (10, 5)]
)
def test_weaving_parlor_one_point_per_two_sheep(sheep, points):
    p = blank_player()
    p["animals"]["sheep"] = sheep
    p["cells"][idx(3, 2)].update(k="room", tile="weaving_parlor")
    assert scoring.score_player(p)["bonus_weaving_parlor"] == points
    assert scoring.score_player(p, legacy=True)["bonus_weaving_parlor"] == sheep


def test_weaving_parlor_in_a_final_result_follows_the_games_version():
    for version, bonus in ((4, 3), (3, 7)):
        state = fresh(2, "weave", version)
        own(state, 0, "weaving_parlor")
        state["players"][0]["animals"]["sheep"] = 7
        state["phase"], state["stack"] = "over", []
        breakdown = engine.result(state)["breakdown"][0]
        assert breakdown["bonus_weaving_parlor"] == bonus
        assert breakdown["farm_animals_and_dogs"] == 7  # the animals themselves, as before


# ----- rubies trade for no gold -----------------------------------------------------------------


def test_a_ruby_trades_for_goods_and_animals_but_not_gold():
    state, seat = turn_state(3)
    supply(state, seat, ruby=1, food=1)
    trades = {a["to"] for a in legal(state) if a["type"] == "ruby_trade"}
    assert trades == {
        "dog",
        "sheep",
        "donkey",
        "wild_boar",
        "cattle",
        "grain",
        "vegetable",
        "wood",
        "stone",
        "ore",
    }
    legacy, seat = turn_state(3, version=3)
    supply(legacy, seat, ruby=1)
    legacy = act(legacy, {"type": "ruby_trade", "to": "gold"})
    assert legacy["players"][seat]["supply"]["gold"] == 1


# ----- two-player Ruby mining from round 3 --------------------------------------------------------


def test_two_player_ruby_mining_accumulates_from_round_3():
    state, _ = turn_state(2)
    assert state["round"] == 1 and state["spaces"]["ruby_mining"]["goods"] == {}
    state["round"] = 2
    R.replenish(state, {})
    assert state["spaces"]["ruby_mining"]["goods"] == {}
    state["round"] = 3
    R.replenish(state, {})
    assert state["spaces"]["ruby_mining"]["goods"] == {"ruby": 1}
    state["round"] = 4
    R.replenish(state, {})
    assert state["spaces"]["ruby_mining"]["goods"] == {"ruby": 2}


def test_two_player_ruby_mining_reaches_round_3_in_play():
    state = fresh(2, "rubies-in-play")
    while state["round"] < 3:
        seat = engine.active_seats(state)[0]
        state = engine.apply(state, seat, engine.timeout_action(state, seat))
    assert state["spaces"]["ruby_mining"]["goods"] == {"ruby": 1}
    legacy = fresh(2, "rubies-in-play", 3)
    while legacy["round"] < 3:
        seat = engine.active_seats(legacy)[0]
        legacy = engine.apply(legacy, seat, engine.timeout_action(legacy, seat))
    assert legacy["spaces"]["ruby_mining"]["goods"] == {}


# ----- Small-scale drift mining: 1 stone and/or a twin ------------------------------------------


def test_small_scale_drift_mining_stone_alone():
    state, seat = turn_state(5, "ssdm")
    stone = state["players"][seat]["supply"]["stone"]
    state = place(state, "small_scale_drift_mining")
    assert parts(state) == [0, 1]
    state = act(state, {"type": "part", "index": 0})
    assert state["players"][seat]["supply"]["stone"] == stone + 1
    assert parts(state) == [1] and {"type": "done"} in legal(state)
    state = act(state, {"type": "done"})
    assert state["players"][seat]["cells"][idx(4, 3)]["k"] == "rock"


def test_small_scale_drift_mining_twin_then_stone():
    state, seat = turn_state(5, "ssdm2")
    state = place(state, "small_scale_drift_mining")
    state = act(state, {"type": "part", "index": 1})
    state = act(state, {"type": "tile", "tile": "cavern_tunnel_twin", "at": [[4, 3], [5, 3]]})
    state = act(state, {"type": "part", "index": 0})
    p = state["players"][seat]
    assert p["supply"]["stone"] == 1 and p["cells"][idx(4, 3)]["k"] == "cavern"


def test_small_scale_drift_mining_usable_for_the_stone_with_a_full_mountain():
    state, seat = turn_state(5, "ssdm3")
    for x in (3, 4, 5):
        for y in range(4):
            if state["players"][seat]["cells"][idx(x, y)]["k"] == "rock":
                state["players"][seat]["cells"][idx(x, y)]["k"] = "tunnel"
    assert {"type": "place", "space": "small_scale_drift_mining"} in legal(state)
    state = place(state, "small_scale_drift_mining")  # only the stone is possible: taken at once
    assert state["players"][seat]["supply"]["stone"] == 1
    legacy, seat = turn_state(5, "ssdm3", version=3)
    for x in (3, 4, 5):
        for y in range(4):
            if legacy["players"][seat]["cells"][idx(x, y)]["k"] == "rock":
                legacy["players"][seat]["cells"][idx(x, y)]["k"] = "tunnel"
    assert {"type": "place", "space": "small_scale_drift_mining"} not in legal(legacy)


# ----- the last conversions are every seat's ---------------------------------------------------


def at_last_round_end(version=None):
    state = fresh(3, "final-all", version)
    state["round"] = state["rounds"][-1]
    state["phase"] = "harvest"
    state["stack"] = [{"t": "round_end"}]
    for p in state["players"]:
        p["supply"]["ruby"] = 0
    state["players"][1]["supply"]["ruby"] = 1  # no trade tile at all
    R.run(state)
    return state


def test_every_seat_gets_the_last_conversions_after_the_final_breeding():
    state = at_last_round_end()
    order = R.seat_order(state)
    seen = []
    while not engine.is_over(state):
        seat = engine.active_seats(state)[0]
        assert top(state)["t"] == "final_trades"
        seen.append(seat)
        if seat == 1:
            # A ruby for a sheep: the missing type's -2 goes and the sheep scores 1.
            before = engine.result(state)["scores"][1]
            assert {"type": "ruby_trade", "to": "sheep"} in legal(state)
            assert engine.timeout_action(state, 1) == {"type": "finish"}
            state = act(state, {"type": "ruby_trade", "to": "sheep"})
            assert engine.result(state)["scores"][1] == before - 1 + 1 + 2
        state = act(state, {"type": "finish"})
    assert seen == order


def test_under_version_3_seats_without_trade_tiles_had_no_last_conversions():
    state = at_last_round_end(version=3)
    assert engine.is_over(state)


# ----- the Guest room on Extension: once per game -------------------------------------------------


def extension_with_guest_room(version=None):
    state, seat = turn_state(7, "guest-ext", version)
    own(state, seat, "guest_room")
    return state, seat


def use_extension_fully(state, seat):
    state = place(state, "extension")
    state = act(state, {"type": "part", "index": 1})
    state = act(state, legal(state)[0])  # the cavern/tunnel twin
    assert parts(state) == [0]  # and/or thanks to the Guest room
    state = act(state, {"type": "part", "index": 0})
    return act(state, next(a for a in legal(state) if a["type"] == "tile"))


def test_guest_room_makes_extension_and_or_once_per_game():
    state, seat = extension_with_guest_room()
    wood, stone = (state["players"][seat]["supply"][g] for g in ("wood", "stone"))
    state = use_extension_fully(state, seat)
    p = state["players"][seat]
    assert (p["supply"]["wood"], p["supply"]["stone"]) == (wood + 1, stone + 1)
    assert p["guest_room_extension"] is True
    # The seat's next dwarf on Extension (the space freed for the example): either ... or again.
    state = run_until_turn(state, seat)
    state["spaces"]["extension"]["occ"] = None
    state = place(state, "extension")
    state = act(state, {"type": "part", "index": 1})
    state = act(state, legal(state)[0])
    assert top(state).get("seat") != seat or top(state)["t"] != "frame"
    # Other "either ... or" spaces stay "and/or" for this seat.
    assert R.guest_room_applies(state, {"seat": seat, "src": "wish_for_children", "taken": [0]})


def test_guest_room_on_extension_had_no_limit_under_version_3():
    state, seat = extension_with_guest_room(version=3)
    state = use_extension_fully(state, seat)
    assert "guest_room_extension" not in state["players"][seat]
    state = run_until_turn(state, seat)
    state["spaces"]["extension"]["occ"] = None
    state = place(state, "extension")
    state = act(state, {"type": "part", "index": 1})
    state = act(state, legal(state)[0])
    assert parts(state) == [0]


def test_guest_room_wish_for_children_still_and_or_every_time():
    state, seat = turn_state(3, "guest-wish")
    add_space(state, "wish_for_children")
    own(state, seat, "guest_room")
    state["players"][seat]["guest_room_extension"] = True
    assert R.guest_room_applies(state, {"seat": seat, "src": "wish_for_children", "taken": [0]})
    assert not R.guest_room_applies(state, {"seat": seat, "src": "extension", "taken": [0]})


# ----- what players read --------------------------------------------------------------------------


def test_tile_texts_follow_the_games_version():
    board = {t["id"]: english(t["effect"])
             for t in engine.view(fresh(3), 0)["furnishing_tiles"]}
    assert board["weaving_parlor"].endswith("1 point per 2 sheep.")
    assert "once per game" in board["guest_room"]
    old = {t["id"]: english(t["effect"])
           for t in engine.view(fresh(3, version=3), 0)["furnishing_tiles"]}
    assert old["weaving_parlor"].endswith("1 point per sheep (seed).")
