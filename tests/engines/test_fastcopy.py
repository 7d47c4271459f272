"""The engines' speed helper: the marshal deep copy is equal, independent and keeps types."""

from __future__ import annotations

from games.engines.fastcopy import deep_copy


def test_deep_copy_is_equal_independent_and_keeps_types():
    state = {"a": [1, 1.0, True, None, "x", {"b": [2, (3, 4)]}], "c": {"d": False}}
    copy = deep_copy(state)
    assert copy == state
    assert [type(item) for item in copy["a"]] == [type(item) for item in state["a"]]
    copy["a"][5]["b"].append(9)
    copy["c"]["d"] = True
    assert state == {"a": [1, 1.0, True, None, "x", {"b": [2, (3, 4)]}], "c": {"d": False}}
