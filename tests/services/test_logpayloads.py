"""The log's short storage of payloads (games.logpayloads): every legal action of random games
of each engine reads back exactly, shorter; any other payload is kept as it is; the engines'
action kinds are pinned."""

from __future__ import annotations

import json
import random

import pytest

from games.engines.registry import get_engine
from games.log import payloads as logpayloads

ENGINES = [("stone_age", 3), ("seven_wonders", 4), ("caverna", 2)]


def round_trip(payload):
    stored = logpayloads.pack(payload)
    assert logpayloads.unpack(json.loads(json.dumps(stored))) == payload, stored
    return stored


def test_every_action_kind_of_the_engines_is_pinned():
    table = json.loads(logpayloads.PINNED_PATH.read_text())
    assert logpayloads.with_new_shapes(table, logpayloads.shipped_shapes()) == table, (
        "run `python -m games.logpayloads` to pin the new action kinds")


def test_a_kind_whose_keys_change_gets_a_new_shape_and_the_old_one_stays():
    table = json.loads(logpayloads.PINNED_PATH.read_text())
    grown = logpayloads.with_new_shapes(table, [("place", ["count", "location", "person"])])
    assert {shape: grown[shape] for shape in table} == table
    added, = set(grown) - set(table)
    assert grown[added] == ["place", ["count", "location", "person"]]


@pytest.mark.parametrize(("slug", "players"), ENGINES)
def test_the_actions_of_a_random_game_read_back_exactly_and_shorter(slug, players):
    engine = get_engine(slug)
    state = engine.new_game(players, f"logpayloads-{slug}")
    chooser = random.Random(slug)
    stored_bytes = payload_bytes = 0
    for _ in range(300):
        if engine.is_over(state):
            break
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        legal = engine.legal_actions(state, seat)
        for action in legal:
            stored = round_trip(action)
            assert isinstance(stored, list), f"{action} is not pinned"
        action = chooser.choice(legal)
        stored_bytes += len(json.dumps(logpayloads.pack(action), separators=(",", ":")))
        payload_bytes += len(json.dumps(action, separators=(",", ":")))
        state = engine.apply(state, seat, action)
    assert stored_bytes < payload_bytes * 0.7


def test_a_pinned_kind_is_stored_as_its_values_in_the_order_of_their_names():
    assert round_trip({"type": "place", "location": "forest", "count": 3}) == ["0", 3, "forest"]
    assert round_trip({"type": "decline"}) == ["7"]
    assert round_trip({"type": "place", "space": "forest"}) == ["D", "forest"]  # Caverna's


@pytest.mark.parametrize("payload", [
    {"type": "place", "location": "forest"},                # keys of no pinned kind
    {"type": "place", "location": "forest", "count": 3, "extra": None},
    {"type": "bid", "amount": 2},                           # a kind no engine ships
    {"type": 3}, {"undoes": 4, "with_automatic": [5, 6]}, {},
    ["place", 3, "forest"], [None, 1], [], "pass", 7, True,
])
def test_any_other_payload_is_kept_as_it_is(payload):
    stored = round_trip(payload)
    assert stored == ([None, payload] if isinstance(payload, list) else payload)


def test_a_value_pack_never_wrote_is_refused():
    for stored in (["no_such_code", 1], ["0", 3], [3, "forest"], [None]):
        with pytest.raises((ValueError, KeyError)):
            logpayloads.unpack(stored)
