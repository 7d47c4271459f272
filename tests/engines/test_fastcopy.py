"""The engines' speed helpers: the marshal deep copy and the legal-actions memo that `apply`
reuses. The memo must never let `apply` validate against a list for another state: a state or
a list changed in place between the calls is a miss, not a stale answer."""

from __future__ import annotations

from games.engines.fastcopy import LegalActionsMemo, deep_copy, freeze, thaw


class CountingRules:
    """legal actions = one "take" per coin of the seat, counting the calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, state, seat):
        self.calls += 1
        return [{"type": "take", "n": n} for n in range(state["coins"][seat])]


def test_deep_copy_is_equal_independent_and_keeps_types():
    state = {"a": [1, 1.0, True, None, "x", {"b": [2, (3, 4)]}], "c": {"d": False}}
    copy = deep_copy(state)
    assert copy == state
    assert [type(item) for item in copy["a"]] == [type(item) for item in state["a"]]
    copy["a"][5]["b"].append(9)
    copy["c"]["d"] = True
    assert state == {"a": [1, 1.0, True, None, "x", {"b": [2, (3, 4)]}], "c": {"d": False}}


def test_freeze_refuses_what_is_not_json_shaped_and_thaw_rebuilds():
    assert freeze({"f": object()}) is None
    frozen = freeze({"k": [1, 2]})
    assert thaw(frozen) == {"k": [1, 2]}
    assert thaw(frozen) is not thaw(frozen)


def test_apply_reuses_the_list_just_listed_for_the_same_state_and_seat():
    rules = CountingRules()
    memo = LegalActionsMemo(rules)
    state = {"coins": [2, 3]}
    listed = memo.legal_actions(state, 1)
    legal, frozen = memo.for_apply(state, 1)
    assert rules.calls == 1
    assert legal == listed and legal is not listed
    assert thaw(frozen) == state


def test_an_equal_state_rebuilt_elsewhere_hits_too():
    rules = CountingRules()
    memo = LegalActionsMemo(rules)
    memo.legal_actions({"coins": [2, 3]}, 0)
    memo.for_apply({"coins": [2, 3]}, 0)
    assert rules.calls == 1


def test_a_state_changed_in_place_after_listing_is_recomputed():
    rules = CountingRules()
    memo = LegalActionsMemo(rules)
    state = {"coins": [2, 3]}
    memo.legal_actions(state, 0)
    state["coins"][0] = 1
    legal, _ = memo.for_apply(state, 0)
    assert rules.calls == 2
    assert legal == [{"type": "take", "n": 0}]


def test_another_seat_or_a_bool_seat_is_recomputed():
    rules = CountingRules()
    memo = LegalActionsMemo(rules)
    state = {"coins": [2, 3]}
    memo.legal_actions(state, 1)
    memo.for_apply(state, 0)
    memo.for_apply(state, True)  # True == 1, yet an engine may refuse it as a seat
    assert rules.calls == 3


def test_a_listed_action_changed_by_the_caller_does_not_reach_apply():
    rules = CountingRules()
    memo = LegalActionsMemo(rules)
    state = {"coins": [2, 3]}
    listed = memo.legal_actions(state, 0)
    listed[1]["n"] = 99
    listed.append({"type": "take", "n": 50})
    legal, _ = memo.for_apply(state, 0)
    assert legal == [{"type": "take", "n": 0}, {"type": "take", "n": 1}]


def test_a_state_marshal_cannot_carry_is_never_remembered():
    rules = CountingRules()
    memo = LegalActionsMemo(rules)
    state = {"coins": [2, 3], "odd": object()}
    memo.legal_actions(state, 0)
    legal, frozen = memo.for_apply(state, 0)
    assert rules.calls == 2
    assert frozen is None


def test_caverna_apply_is_the_same_whether_the_memo_hits_or_not():
    """Along a random 3-player game, every move applied right after listing it (the memo hits)
    equals the same move applied with the list computed afresh (the state not listed first)."""
    import random

    from games.engines.caverna import engine, rules

    chooser = random.Random(7)
    state = engine.new_game(3, "memo-equivalence")
    moves = 0
    while not engine.is_over(state):
        seat = engine.active_seats(state)[0]
        action = chooser.choice(rules.legal_actions(state, seat))  # bypasses the memo
        after_miss = engine.apply(state, seat, action)
        assert action in engine.legal_actions(state, seat)
        after_hit = engine.apply(state, seat, action)
        assert freeze(after_hit) == freeze(after_miss)
        state = after_hit
        moves += 1
    assert moves > 100
