"""The work phase: turn order, weapon order with the ruby exception, newborns, passing."""

from games.engines.caverna import rules as R
from games.engines.caverna.engine import engine

from .helpers import act, actor, legal, place, top, turn_state


def test_clockwise_one_dwarf_per_turn_from_the_starting_player():
    state, first = turn_state(4, "order")
    assert first == state["start"]
    seen = []
    for _ in range(8):
        assert top(state)["t"] == "turn"
        seat = actor(state)
        seen.append(seat)
        choices = [a for a in legal(state) if a["type"] == "place"]
        state = engine.apply(state, seat, choices[-1])
        while top(state)["t"] != "turn" and top(state).get("seat") == seat:
            state = engine.apply(state, seat, engine.timeout_action(state, seat))
    assert seen == [(first + k) % 4 for k in range(4)] * 2


def test_players_out_of_dwarfs_are_skipped():
    state, first = turn_state(3, "skip")
    state["players"][(first + 1) % 3]["dwarfs"] = [{"w": 0, "at": None, "new": False}]
    order = []
    for _ in range(5):
        seat = actor(state)
        order.append(seat)
        choices = [a for a in legal(state) if a["type"] == "place"]
        state = engine.apply(state, seat, choices[-1])
        while top(state)["t"] != "turn" and top(state).get("seat") == seat:
            state = engine.apply(state, seat, engine.timeout_action(state, seat))
    second, third = (first + 1) % 3, (first + 2) % 3
    assert order == [first, second, third, first, third]


def test_unarmed_dwarfs_first_then_by_strength():
    state, seat = turn_state(3, "weapons")
    p = state["players"][seat]
    p["dwarfs"] = [
        {"w": 5, "at": None, "new": False},
        {"w": 0, "at": None, "new": False},
        {"w": 2, "at": None, "new": False},
    ]
    state = place(state, "wood_gathering")
    assert state["players"][seat]["dwarfs"][1]["at"] == "wood_gathering"
    assert not [a for a in legal(state) if a["type"] == "reorder"]


def test_a_ruby_plays_a_dwarf_out_of_order():
    state, seat = turn_state(3, "ruby-order")
    p = state["players"][seat]
    p["dwarfs"] = [
        {"w": 0, "at": None, "new": False},
        {"w": 4, "at": None, "new": False},
        {"w": 4, "at": None, "new": False},
    ]
    p["supply"]["ruby"] = 1
    reorders = [a for a in legal(state) if a["type"] == "reorder"]
    assert reorders == [{"type": "reorder", "dwarf": 1}]  # equal strengths offered once
    state = act(state, {"type": "reorder", "dwarf": 1})
    assert state["players"][seat]["supply"]["ruby"] == 0
    assert not [a for a in legal(state) if a["type"] == "reorder"]
    state = place(state, "wood_gathering")
    assert state["players"][seat]["dwarfs"][1]["at"] == "wood_gathering"


def test_a_newborn_cannot_act_this_round():
    state, seat = turn_state(4, "newborn")
    state["players"][seat]["cells"][R.B.idx(3, 2)].update(k="room", tile="dwelling")
    state = place(state, "growth")
    state = act(state, {"type": "part", "index": 1})
    p = state["players"][seat]
    assert len(p["dwarfs"]) == 3
    assert R.available_dwarfs(p) == [1]


def test_each_space_takes_one_dwarf_per_round():
    state, seat = turn_state(3, "occupied")
    state = place(state, "wood_gathering")
    assert {"type": "place", "space": "wood_gathering"} not in legal(state)


def test_pass_only_when_no_space_can_be_used():
    state, seat = turn_state(3, "pass")
    for sid in state["order"]:
        state["spaces"][sid]["occ"] = (seat + 1) % 3
    assert [a for a in legal(state) if a["type"] in ("place", "pass")] == [{"type": "pass"}]
    state = act(state, {"type": "pass"})
    assert state["players"][seat]["dwarfs"][0]["at"] == "-"


def test_out_of_turn_and_nonsense_are_refused_without_change():
    import copy

    import pytest

    from games.engines.base import IllegalAction

    state, seat = turn_state(3, "refuse")
    before = copy.deepcopy(state)
    other = (seat + 1) % 3
    with pytest.raises(IllegalAction):
        engine.apply(state, other, {"type": "place", "space": "wood_gathering"})
    with pytest.raises(IllegalAction):
        engine.apply(state, seat, {"type": "place", "space": "no-such-space"})
    with pytest.raises(IllegalAction):
        engine.apply(state, seat, {"type": "convert", "from": "cattle"})
    assert state == before
