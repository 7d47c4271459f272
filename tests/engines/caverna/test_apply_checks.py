"""What `apply` checks an action against (rules.actions_like) and the copy it changes
(rules.copy_state): the part of the legal list it checks holds the action and nothing that is
not legal, so an action is accepted or refused exactly as against the whole list; and the copy
is equal to the state and shares nothing that apply or run change in place (what they only
replace, the cells and the spaces, it shares)."""

from __future__ import annotations

import random

import pytest

from games.engines.base import IllegalAction
from games.engines.caverna import rules as R
from games.engines.caverna.engine import engine
from tests.perf.engine_play import decisions


def _mutable_parts(value, found):
    """The ids of every dict and list inside `value`."""
    if isinstance(value, dict):
        found.add(id(value))
        for item in value.values():
            _mutable_parts(item, found)
    elif isinstance(value, list):
        found.add(id(value))
        for item in value:
            _mutable_parts(item, found)
    return found


@pytest.mark.parametrize("num_players", [1, 4, 7])
def test_the_part_checked_holds_every_legal_action_and_only_legal_ones(num_players):
    for state, seat in decisions(engine, num_players, f"apply-checks-{num_players}", 3):
        legal = engine.legal_actions(state, seat)
        for action in legal:
            checked = R.actions_like(state, seat, action)
            assert action in checked
            assert all(item in legal for item in checked)


def test_a_placement_is_checked_on_its_own_space():
    state = engine.new_game(4, "apply-checks-place")
    seat = engine.active_seats(state)[0]
    legal = engine.legal_actions(state, seat)
    free = next(a for a in legal if a["type"] == "place")
    assert R.actions_like(state, seat, free) == [free]
    placed = engine.apply(state, seat, free)
    other = engine.active_seats(placed)[0]
    taken = {"type": "place", "space": free["space"]}
    assert R.actions_like(placed, other, taken) == []
    for odd in ({"type": "place", "space": ["logging"]}, {"type": "place", "space": "nowhere"},
                {"type": "place"}, {"type": ["place"]}, {"type": "place", "space": 1}):
        with pytest.raises(IllegalAction):
            engine.apply(placed, other, odd)
    with pytest.raises(IllegalAction):
        engine.apply(placed, other, taken)


def _replaced_parts(state):
    """The ids of what is never changed in place, only replaced: the home boards' cells
    (rules.cells_to_change) and the action spaces (rules.set_space)."""
    found = set()
    for player in state["players"]:
        _mutable_parts(player["cells"], found)
    for space in state["spaces"].values():
        _mutable_parts(space, found)
    return found


def test_the_copy_is_equal_and_shares_nothing_that_changes():
    chooser = random.Random(5)
    state = engine.new_game(4, "apply-checks-copy")
    for _ in range(300):
        if engine.is_over(state):
            break
        copy = R.copy_state(state)
        assert copy == state
        shared = _mutable_parts(state, set()) & _mutable_parts(copy, set())
        assert shared == _replaced_parts(state)
        seat = engine.active_seats(state)[0]
        state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))
