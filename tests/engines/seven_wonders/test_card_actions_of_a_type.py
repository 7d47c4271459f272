"""A pick is checked against its card's actions of its own type only (card_actions(only=...)):
those are exactly the card's full list filtered by that type, in the same order, so a pick is
accepted or refused as against the whole list."""

from __future__ import annotations

import pytest

from games.engines.seven_wonders.engine import PICK_TYPES, engine
from games.engines.seven_wonders.rules import card_actions
from tests.perf.engine_play import decisions


@pytest.mark.parametrize("num_players", [3, 7])
def test_the_actions_of_one_type_are_the_full_list_filtered(num_players):
    checked = 0
    for state, seat in decisions(engine, num_players, f"of-a-type-{num_players}", 1):
        if state["phase"] != "pick":
            continue
        for cid in set(state["hands"][seat]):
            full = card_actions(state, seat, cid)
            for kind in PICK_TYPES:
                assert card_actions(state, seat, cid, only=kind) == [
                    action for action in full if action["type"] == kind]
                checked += 1
    assert checked > 100


def test_the_free_city_lists_its_actions_whole():
    state = engine.new_game(2, "of-a-type-free-city")
    with pytest.raises(ValueError):
        card_actions(state, 2, state["hands"][0][0], free_city=True, only="discard")
