"""Strict actions in Stone Age: at random points of random 2–4 player games, legal actions with
one value's type or shape changed (a count of 1 sent as 1.0, true or "1"; a payment with an
extra resource; tool tiles nested deeper) are refused with IllegalAction and change nothing."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.stone_age.engine import engine
from tests.engines.conformance import examples
from tests.engines.strict import Tally, check_random_points, refused_without_change


def test_type_and_shape_changed_actions_are_refused_and_change_nothing():
    tally = Tally()

    @settings(max_examples=examples(50), deadline=None)
    @given(
        num_players=st.sampled_from([2, 3, 4]),
        seed=st.text("abcdefgh", min_size=1, max_size=8),
        chooser_seed=st.integers(0, 2**16),
        fractions=st.lists(st.floats(0, 1, exclude_max=True), min_size=1, max_size=3),
    )
    def random_points(num_players, seed, chooser_seed, fractions):
        check_random_points(engine, tally, num_players, seed, chooser_seed, fractions)

    random_points()
    print(tally.summary(engine.slug))
    tally.assert_thorough(minimum=800)


def test_a_count_sent_as_a_float_or_a_boolean_is_refused_with_the_reason():
    state = engine.new_game(2, "strict-count")
    for count in (1.0, True, "1", [1]):
        reason = refused_without_change(
            engine, state, 0, {"type": "place", "location": "hunting_grounds", "count": count})
        assert "You may place" in reason
    new = engine.apply(state, 0, {"type": "place", "location": "hunting_grounds", "count": 1})
    assert type(new["players"][0]["placed"]["hunting_grounds"]) is int


def test_odd_shapes_get_a_reason_not_a_crash():
    state = engine.new_game(3, "strict-shapes")
    assert refused_without_change(engine, state, 0, {"type": "place", "location": ["forest"],
                                                     "count": 1}) == "There is no such location."
    refused_without_change(engine, state, 0, {"type": ["place"], "location": {}, "count": None})
    refused_without_change(engine, state, 0, {"type": "place", "location": "forest",
                                              "count": [[[[[[[[[[1]]]]]]]]]]})
