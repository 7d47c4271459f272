"""`match_legal`: an action is a listed one exactly when their canonical JSON is equal (1, 1.0 and
true differ; key order does not), and the listed object is what comes back."""

import json

import pytest

from games.engines.base import MAX_ACTION_DEPTH, IllegalAction, canonical_action, match_legal

LEGAL = [
    {"type": "place", "location": "forest", "count": 1},
    {"type": "tile", "at": [[4, 0], [3, 0]]},
    {"type": "build", "card": "baths", "pay": {"left": 2}, "free": False},
]


@pytest.mark.parametrize("listed", LEGAL)
def test_a_listed_action_as_sent_returns_the_listed_object(listed):
    sent = json.loads(json.dumps(dict(reversed(list(listed.items())))))
    assert match_legal(sent, LEGAL) is listed


@pytest.mark.parametrize("sent", [
    {"type": "place", "location": "forest", "count": 1.0},
    {"type": "place", "location": "forest", "count": True},
    {"type": "place", "location": "forest", "count": "1"},
    {"type": "place", "location": "forest", "count": 1, "extra": None},
    {"type": "place", "location": "forest"},
    {"type": "tile", "at": [[4.0, 0], [3, 0]]},
    {"type": "tile", "at": [[4, 0], [3, False]]},
    {"type": "tile", "at": [[4, 0]]},
    {"type": "tile", "at": {"0": [4, 0], "1": [3, 0]}},
    {"type": "build", "card": "baths", "pay": {"left": 2.0}, "free": False},
    {"type": "build", "card": "baths", "pay": {"left": 2}, "free": 0},
])
def test_a_changed_type_or_shape_is_refused(sent):
    with pytest.raises(IllegalAction, match="not one of the legal actions"):
        match_legal(sent, LEGAL)


def test_the_engine_reason_is_given_when_there_is_one():
    with pytest.raises(IllegalAction, match=r"^You may place 1 person\.$"):
        match_legal({"type": "place", "location": "forest", "count": 1.0}, LEGAL,
                    lambda: "You may place 1 person.")


def test_negative_zero_is_not_zero():
    with pytest.raises(IllegalAction):
        match_legal({"x": -0.0}, [{"x": 0.0}])
    assert match_legal({"x": 0.0}, [{"x": -0.0}, {"x": 0.0}]) == {"x": 0.0}


def test_a_listed_tuple_matches_the_list_a_client_sends():
    listed = {"type": "tile", "at": (4, 0)}
    assert match_legal({"type": "tile", "at": [4, 0]}, [listed]) is listed


@pytest.mark.parametrize("sent, reason", [
    ([{"type": "pass"}], "JSON object"),
    ("pass", "JSON object"),
    ({"type": "pass", "when": float("nan")}, "JSON values"),
    ({"type": "pass", "who": {1, 2}}, "JSON values"),
    ({"type": "pass", "deep": json.loads("[" * 50 + "]" * 50)}, "nested too deeply"),
])
def test_what_is_no_json_object_is_refused_with_the_reason(sent, reason):
    with pytest.raises(IllegalAction, match=reason):
        match_legal(sent, [{"type": "pass"}])


def test_canonical_text_keeps_types_and_ignores_key_order():
    assert canonical_action({"b": 1, "a": [True, 1.0, None]}) == '{"a":[true,1.0,null],"b":1}'
    nested: list = []
    for _ in range(MAX_ACTION_DEPTH - 2):  # the object and MAX - 1 levels of lists
        nested = [nested]
    assert canonical_action({"x": nested})
    with pytest.raises(IllegalAction, match="nested too deeply"):
        canonical_action({"x": [nested]})
