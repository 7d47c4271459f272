"""The Stone Age engine's fast paths say what the general code says: all placements listed at
once equal placement_counts asked location by location; and a placement, which copies only the
acting player, leaves every earlier state exactly as it was, through whole random games."""

from __future__ import annotations

import json
import random

import pytest

from games.engines.stone_age import rules
from games.engines.stone_age.engine import engine


def _random_states(num_players: int, games: int):
    for index in range(games):
        chooser = random.Random(index)
        state = engine.new_game(num_players, f"fast-paths-{num_players}-{index}")
        while not engine.is_over(state):
            yield state
            if engine.ready_to_resolve(state):
                state = engine.resolve(state)
                continue
            seat = engine.active_seats(state)[0]
            state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_placements_listed_at_once_equal_those_asked_location_by_location(num_players):
    for state in _random_states(num_players, 4):
        for seat in range(num_players):
            one_by_one = [{"type": "place", "location": location, "count": count}
                          for location in rules.active_locations(state)
                          for count in rules.placement_counts(state, seat, location)]
            assert rules.placement_actions(state, seat) == one_by_one


@pytest.mark.parametrize("num_players", [2, 4])
def test_no_step_changes_an_earlier_state(num_players):
    seen = []
    for state in _random_states(num_players, 2):
        seen.append((state, json.dumps(state, sort_keys=True)))
    assert all(json.dumps(state, sort_keys=True) == text for state, text in seen)
