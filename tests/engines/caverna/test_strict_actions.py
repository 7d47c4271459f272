"""Strict actions in Caverna: at random points of random 1–7 player games, legal actions with
one value's type or shape changed (coordinates [[4.0, 0], [3, 0]], an index sent as true, a tile
with an extra key, 50 levels of nested lists) are refused with IllegalAction and change nothing."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.caverna.engine import engine
from tests.engines.conformance import examples
from tests.engines.strict import (
    Tally,
    check_random_points,
    find_legal_action,
    refused_without_change,
)


def test_type_and_shape_changed_actions_are_refused_and_change_nothing():
    tally = Tally()

    @settings(max_examples=examples(40), deadline=None)
    @given(
        num_players=st.sampled_from(range(1, 8)),
        seed=st.text("abcdefgh", min_size=1, max_size=8),
        chooser_seed=st.integers(0, 2**16),
        fractions=st.lists(st.floats(0, 1, exclude_max=True), min_size=1, max_size=3),
    )
    def random_points(num_players, seed, chooser_seed, fractions):
        check_random_points(engine, tally, num_players, seed, chooser_seed, fractions)

    random_points()
    print(tally.summary(engine.slug))
    tally.assert_thorough(minimum=800)


def test_coordinates_sent_as_floats_are_refused():
    state, seat, action = find_legal_action(
        engine, 2, lambda a: a["type"] == "tile" and len(a.get("at", [])) == 2
    )
    (x, y), second = action["at"]
    for at in (
        [[float(x), y], second],
        [[x, float(y)], second],
        [[x, y]],
        [[x, y], second, second],
        [[x, y, 0], second],
        {"0": [x, y], "1": second},
        [[[x, y]], second],
    ):
        refused_without_change(engine, state, seat, {**action, "at": at})
    new = engine.apply(state, seat, json.loads(json.dumps(action)))
    assert json.dumps(new) != json.dumps(state)


def test_an_index_sent_as_true_or_a_float_is_refused():
    state, seat, action = find_legal_action(
        engine, 2, lambda a: a["type"] == "part" and a["index"] == 1
    )
    for index in (True, 1.0, "1", [1]):
        refused_without_change(engine, state, seat, {"type": "part", "index": index})
    new = engine.apply(state, seat, {"type": "part", "index": 1})
    taken = [item for task in new["stack"] for item in task.get("taken") or []]
    assert taken == [1] and type(taken[0]) is int
