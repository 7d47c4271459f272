"""Strict actions in 7 Wonders: at random points of random 2–7 player games (wonders dealt or
chosen), legal actions with one value's type or shape changed (a payment {"left": 1} sent as
1.0 or true, a purchase with an extra key, a card id as a list) are refused with IllegalAction
and change nothing, on the simultaneous pick path (a first pick or a replaced one) as on the
single-seat decisions (wonder choice, Babylon's seventh card, Halicarnassus)."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import canonical_action
from games.engines.seven_wonders.engine import engine
from tests.engines.conformance import examples
from tests.engines.strict import (
    Tally,
    check_mutations_refused,
    check_random_points,
    find_legal_action,
    refused_without_change,
)

OPTIONS = [None, {"wonders": "chosen", "sides": "chosen"}, {"sides": "B"}]


def test_type_and_shape_changed_actions_are_refused_and_change_nothing():
    tally = Tally()

    @settings(max_examples=examples(100), deadline=None)
    @given(
        num_players=st.sampled_from(range(2, 8)),
        seed=st.text("abcdefgh", min_size=1, max_size=8),
        chooser_seed=st.integers(0, 2**16),
        fractions=st.lists(st.floats(0, 1, exclude_max=True), min_size=1, max_size=3),
        options=st.sampled_from(OPTIONS),
    )
    def random_points(num_players, seed, chooser_seed, fractions, options):
        check_random_points(engine, tally, num_players, seed, chooser_seed, fractions, options)

    random_points()
    print(tally.summary(engine.slug))
    tally.assert_thorough(minimum=800)


def test_a_purchase_or_payment_sent_with_floats_or_booleans_is_refused():
    state, seat, action = find_legal_action(
        engine, 3, lambda a: "papyrus" in a.get("buy", {}).get("left", {}))
    side = "left"
    for bought in (1.0, True, "1"):
        changed = {**action, "buy": {**action["buy"], side: {**action["buy"][side],
                                                              "papyrus": bought}}}
        refused_without_change(engine, state, seat, changed)
    for paid in (float(action["pay"][side]), str(action["pay"][side])):
        refused_without_change(engine, state, seat,
                               {**action, "pay": {**action["pay"], side: paid}})
    # The pick as sent (same values, decoded JSON) is accepted and stored as listed.
    new = engine.apply(state, seat, json.loads(json.dumps(action)))
    assert new["picks"][seat] == action
    assert type(new["picks"][seat]["pay"][side]) is int


def test_a_pick_of_odd_shapes_gets_a_reason_not_a_crash():
    state = engine.new_game(3, "strict-shapes")
    card = state["hands"][0][0]
    for action in ({"type": "build", "card": [card]}, {"type": "build", "card": {"id": card}},
                   {"type": "discard", "card": card, "pay": "all"},
                   {"type": "build", "card": card, "buy": [[[[[[[[[[1]]]]]]]]]]},
                   {"type": ["build"], "card": card}):
        refused_without_change(engine, state, 0, action)


def test_a_replacement_pick_with_changed_types_is_refused_and_the_first_pick_stays():
    state, seat, action = find_legal_action(engine, 4, lambda a: "pay" in a)
    first = next(a for a in engine.legal_actions(state, seat) if a["type"] == "discard")
    state = engine.apply(state, seat, first)
    assert state["picks"][seat] == first and seat not in engine.active_seats(state)
    legal = engine.legal_actions(state, seat)
    assert action in legal  # the seat may still replace its pick
    tally = Tally()
    check_mutations_refused(engine, state, seat, action, {canonical_action(a) for a in legal},
                            tally)
    assert tally.tried == tally.refused >= 10 and tally.kinds["int as float"]
    assert state["picks"][seat] == first
