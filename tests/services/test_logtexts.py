"""The log's short storage of texts (games.logtexts): every text the engines write along random
games reads back exactly as written, shorter than the text itself, leaving out what the row
holds; what does not fit is kept as it is; the pinned keys stay what stored entries need."""

from __future__ import annotations

import json
import random

import pytest

from games.engines.registry import get_engine
from games.engines.texts import text
from games.log import codec
from games.models import Action
from games.presentation.texts import entry_text, took_back_texts

ENGINES = [("stone_age", 3), ("seven_wonders", 4), ("caverna", 2)]


def round_trip(message, *, seat, payload):
    stored = codec.pack(message, seat=seat, payload=payload)
    assert codec.unpack(stored, seat=seat, payload=payload) == message, stored
    return stored


def test_every_pinned_key_is_still_in_its_catalog_with_the_same_parameters():
    """Stored entries hold pinned keys and their parameters' values in this order: a key may
    never lose a parameter or gain one (give the changed sentence a new key instead)."""
    keys = codec.catalog_keys()
    for key, (_code, names) in codec.pinned().items():
        assert key in keys, f"{key} is pinned (entries may hold it): keep it in its catalog"
        assert list(names) == keys[key], f"{key}: its parameters changed; give it a new key"


def test_every_key_an_engine_can_write_is_pinned():
    missing = sorted(set(codec.catalog_keys()) - set(codec.pinned()))
    assert not missing, f"run `python -m games.logtexts` to pin {missing}"


def test_pinning_new_keys_keeps_every_code_and_never_reuses_one():
    table = json.loads(codec.PINNED_PATH.read_text())
    keys = {**codec.catalog_keys(), "sa.place2": ["seat"], "zz.chose": ["seat"]}
    grown = codec.with_new_keys(table, keys)
    assert {key: grown[key] for key in table} == table
    assert grown["sa.place2"][1] == grown["zz.chose"][1] == ["seat"]
    codes = [code for code, _names in grown.values()]
    assert len(codes) == len(set(codes)) and "k" not in codes
    assert max(len(code) for code in codes) == 2  # 62 one-letter codes, then two


@pytest.mark.parametrize(("slug", "players"), ENGINES)
def test_the_texts_of_a_random_game_read_back_exactly_and_shorter(slug, players):
    engine = get_engine(slug)
    state = engine.new_game(players, f"logtexts-{slug}")
    chooser = random.Random(slug)
    stored_bytes = text_bytes = entries = 0
    for _ in range(300):
        if engine.is_over(state):
            break
        if engine.ready_to_resolve(state):
            message = engine.resolution_text(state, None)
            messages, seat, payload = [message], None, None
            state = engine.resolve(state)
        else:
            seat = engine.active_seats(state)[0]
            payload = chooser.choice(engine.legal_actions(state, seat))
            messages = [engine.describe_text(state, seat, payload),
                        engine.describe_text(state, seat, payload, viewer=seat)]
            state = engine.apply(state, seat, payload)
        for message in messages:
            stored = round_trip(message, seat=seat, payload=payload)
            assert '"k"' not in stored, f"{message} was kept as it is: pin its key"
            stored_bytes += len(stored.encode())
            text_bytes += len(json.dumps(message, separators=(",", ":")).encode())
            entries += 1
        if seat is not None:
            move = Action(seat_number=seat, payload=payload,
                          **Action.stored_texts(*messages, seat_number=seat, payload=payload))
            for undo_text in filter(None, took_back_texts(seat, move)):
                round_trip(undo_text, seat=seat, payload={"undoes": 7})
    assert entries > 100
    assert stored_bytes < text_bytes / 2


def test_the_rows_seat_and_payload_values_are_not_stored_again():
    message = text("sa.place", seat=2, count=3, location="forest")
    payload = {"type": "place", "location": "forest", "count": 3}
    assert round_trip(message, seat=2, payload=payload) == '{"7":[]}'
    # Another seat, another count: stored.
    assert round_trip(text("sa.place", seat=1, count=2, location="forest"), seat=2,
                      payload=payload) == '{"7":[2,null,1]}'
    # A parameter left out where the row has nothing to supply stays out.
    assert round_trip(text("sa.round", round=3), seat=None, payload=None) == '{"O":[3]}'
    several = text("sentences", sentences=[text("sa.feeding"), text("sa.round", round=4, seat=0)])
    assert round_trip(several, seat=0, payload=None) == '[{"K":[]},{"O":[4]}]'


@pytest.mark.parametrize("message", [
    {"k": "sa.no_such_key", "p": {"seat": 1}},             # not pinned
    {"k": "sa.place", "p": {"seat": 1, "colour": "red"}},  # a parameter the key has not
    {"k": "sa.place", "p": {"seat": 1, "count": None}},    # None would read as left out
    {"k": "sa.place", "p": {"count": 1}},                  # the row would supply the seat
    {"k": "sa.feeding", "p": {}},                          # an empty "p" is kept
    {"k": "sa.feeding", "x": 1},                           # not a text's shape
])
def test_what_does_not_fit_is_kept_as_it_is(message):
    stored = round_trip(message, seat=1, payload={"type": "place", "count": 5})
    assert json.loads(stored) == message


def test_a_text_kept_as_it_is_may_sit_inside_a_coded_one():
    odd = {"k": "sa.no_such_key", "p": {"seat": 0}}
    message = text("sentences", sentences=[text("sa.feeding"), odd, "not a text"])
    round_trip(message, seat=0, payload=None)
    round_trip(text("took_back", seat=0, move=odd), seat=0, payload=None)


def test_a_value_pack_never_wrote_is_refused_and_the_log_still_reads():
    for stored in ('{"no_such_code":[1]}', '{"O":[1,2,3]}', '"words"',
                   '{"a":[],"b":[]}'):
        with pytest.raises((ValueError, KeyError)):
            codec.unpack(stored, seat=0, payload=None)
    entry = Action(seat_number=0, payload=None, public_text='{"no_such_code":[1]}')
    assert entry.text_for(None) == codec.literal('{"no_such_code":[1]}')
    assert entry_text(entry, None, language="en", engine_slug="stone_age") == (
        '{"no_such_code":[1]}')


def test_an_entry_written_before_texts_were_kept_reads_as_its_sentence_with_names():
    old = Action(seat_number=1, payload={"type": "decline"},
                 **Action.stored_texts(codec.literal("Seat 1 acts. Seat 2 waits."), None,
                                       seat_number=1, payload={"type": "decline"}))
    assert entry_text(old, None, language="fa", engine_slug="stone_age",
                      names={1: "Ada", 2: "Bo"}) == "Ada acts. Bo waits."
    assert entry_text(old, 1, language="en", engine_slug="stone_age") == (
        "Seat 1 acts. Seat 2 waits.")
