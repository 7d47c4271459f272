"""The search bot level of every engine: legal, deterministic, and blind to what its seat cannot
see (its choice is the same when other hands, deck orders, face-down tiles and markers and the
secret seed are scrambled), with determinizers that keep everything the seat sees."""

from __future__ import annotations

import copy
import random

import pytest

from games.engines import bots, search
from games.engines.base import SeededRandom
from games.engines.registry import get_engine

ROLLOUTS = 8


def searched_position(slug: str, players: int, seed: str, skip: int):
    """A position reached by easy bots where the acting seat has a real choice to search."""
    engine = get_engine(slug)
    adapter = bots.adapter_for(engine)
    state = engine.new_game(players, seed)
    seen = 0
    for _ in range(5000):
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        active = engine.active_seats(state)
        seat = active[0]
        if len(active) > 1:  # secret picks: the others choose first, the last seat is searched
            state = engine.apply(state, seat, engine.bot_action(state, seat))
            continue
        legal = engine.legal_actions(state, seat)
        if len(legal) > 1 and len(adapter.candidates(state, seat, legal)) > 1:
            seen += 1
            if seen > skip:
                return engine, state, seat
        state = engine.apply(state, seat, engine.bot_action(state, seat))
    raise AssertionError("no searched decision found")


# ----- scramblers: change only what `seat` cannot see ---------------------------------------


def scramble_caverna(state, seat, rng):
    from games.engines.caverna.search_bot import ROUND_STAGE

    out = copy.deepcopy(state)
    current = state["round"]
    for stage in (1, 2, 3, 4):
        rounds = [str(r) for r in state["rounds"] if r > current and ROUND_STAGE.get(r) == stage]
        cards = [out["deck"][r] for r in rounds]
        rng.shuffle(cards)
        out["deck"].update(zip(rounds, cards, strict=True))
    hidden = [r for r in out["markers"] if r not in out["revealed"]]
    markers = [out["markers"][r] for r in hidden]
    rng.shuffle(markers)
    out["markers"].update(zip(hidden, markers, strict=True))
    out["rng"] = {"seed": "scrambled", "counter": 7}
    return out


def scramble_stone_age(state, seat, rng):
    out = copy.deepcopy(state)
    hidden = list(out["deck"])
    slots = []
    for other, player in enumerate(out["players"]):
        if other == seat:
            continue
        face_up = set(player["one_use"]) | set(player["two_resources"])
        for i, card in enumerate(player["cards"]):
            if card not in face_up:
                slots.append((other, i))
                hidden.append(card)
    rng.shuffle(hidden)
    for other, i in slots:
        out["players"][other]["cards"][i] = hidden.pop()
    out["deck"] = hidden
    for stack in out["stacks"]:
        below = stack[1:]
        rng.shuffle(below)
        stack[1:] = below
    out["rng"] = {"seed": "scrambled", "counter": 3}
    return out


def scramble_seven_wonders(state, seat, rng):
    from games.engines.seven_wonders import bot as easy

    out = copy.deepcopy(state)
    others = [s for s in range(out["num_players"]) if s != seat]
    cards = [c for s in others for c in out["hands"][s]] + out["discard"]
    rng.shuffle(cards)
    for s in others:
        size = len(out["hands"][s])
        out["hands"][s], cards = cards[:size], cards[size:]
    out["discard"] = cards
    for key in out["decks"]:
        rng.shuffle(out["decks"][key])
    engine = get_engine("seven_wonders")
    if out["phase"] == "pick":
        for s in others:  # who has chosen is public; what they chose (from the new hand) is not
            if out["picks"][s] is not None:
                out["picks"][s] = easy.choose(out, s, engine.legal_actions(out, s))
    out["rng"] = {"seed": "scrambled", "counter": 1}
    return out


CASES = [
    ("caverna", 2, scramble_caverna),
    ("caverna", 3, scramble_caverna),
    ("stone_age", 3, scramble_stone_age),
    ("seven_wonders", 3, scramble_seven_wonders),
]


@pytest.mark.parametrize(("slug", "players", "scramble"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
@pytest.mark.parametrize("skip", [3, 14])
def test_search_choice_is_legal_deterministic_and_blind_to_hidden_parts(
    slug, players, scramble, skip
):
    engine, state, seat = searched_position(slug, players, f"blind-{slug}-{skip}", skip)
    before = copy.deepcopy(state)
    stats: dict = {}
    choice = bots.bot_move(engine, state, seat, bots.SEARCH, rollouts=ROLLOUTS, stats=stats)
    assert state == before  # the search never changes the state it is given
    assert stats["searched"] and stats["playouts"] >= stats["candidates"]
    assert choice in engine.legal_actions(state, seat)
    assert bots.bot_move(engine, state, seat, bots.SEARCH, rollouts=ROLLOUTS) == choice
    for k in range(2):
        scrambled = scramble(state, seat, random.Random(k))
        assert scrambled != state
        assert engine.view(scrambled, seat) == engine.view(state, seat)
        assert bots.bot_move(engine, scrambled, seat, bots.SEARCH, rollouts=ROLLOUTS) == choice


@pytest.mark.parametrize(("slug", "players", "scramble"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_determinizations_keep_what_the_seat_sees_and_redraw_the_rest(slug, players, scramble):
    engine, state, seat = searched_position(slug, players, f"det-{slug}", 10)
    adapter = bots.adapter_for(engine)
    worlds = [adapter.determinize(state, seat, SeededRandom(f"d{k}")) for k in range(4)]
    for world in worlds:
        assert world["rng"]["seed"] != state["rng"]["seed"]
        assert engine.legal_actions(world, seat) == engine.legal_actions(state, seat)
        if slug != "seven_wonders":  # there others' pending picks are dropped, which shows
            assert engine.view(world, seat) == engine.view(state, seat)
        # A determinized world plays on to the end.
        final = search.playout(engine, adapter, adapter.step(
            engine, adapter.start(world), seat, engine.bot_action(world, seat)))
        assert engine.is_over(final)
    assert len({repr(sorted(w.items(), key=lambda kv: kv[0])) for w in worlds}) > 1


def test_easy_level_is_the_engines_heuristic_bot():
    engine, state, seat = searched_position("stone_age", 3, "easy", 2)
    assert bots.bot_move(engine, state, seat, bots.EASY) == engine.bot_action(state, seat)


def test_the_search_stops_at_its_time_budget():
    engine, state, seat = searched_position("caverna", 2, "budget", 4)
    stats: dict = {}
    choice = bots.bot_move(engine, state, seat, bots.SEARCH, rollouts=10_000, max_seconds=0.05,
                           stats=stats)
    assert choice in engine.legal_actions(state, seat)
    assert stats["draws"] < 10_000 // stats["candidates"]


def _reversed_keys(value):
    if isinstance(value, dict):
        return {key: _reversed_keys(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_keys(item) for item in value]
    return value


@pytest.mark.parametrize(("slug", "players"), [("stone_age", 3), ("caverna", 2)])
def test_the_choice_does_not_depend_on_key_order(slug, players):
    """A state read back from PostgreSQL (jsonb orders keys its own way) and the same state
    replayed from the log get the same move."""
    engine, state, seat = searched_position(slug, players, f"keys-{slug}", 6)
    choice = bots.bot_move(engine, state, seat, bots.SEARCH, rollouts=ROLLOUTS)
    assert bots.bot_move(engine, _reversed_keys(state), seat, bots.SEARCH,
                         rollouts=ROLLOUTS) == choice


def test_seven_wonders_worlds_keep_the_seats_own_choices_in_every_phase():
    """Halicarnassus sees the discard pile while it builds from it, Babylon B its seventh card:
    in every determinization the deciding seat has exactly its real options."""
    engine = get_engine("seven_wonders")
    adapter = bots.adapter_for(engine)
    phases = set()
    for index in range(60):
        state = engine.new_game(3, f"phases-{index}", {"sides": "B"})
        while not engine.is_over(state):
            if engine.ready_to_resolve(state):
                state = engine.resolve(state)
                continue
            seat = engine.active_seats(state)[-1]
            if state["phase"] != "pick" or len(engine.active_seats(state)) == 1:
                world = adapter.determinize(state, seat, SeededRandom(f"p{index}"))
                assert engine.legal_actions(world, seat) == engine.legal_actions(state, seat)
                phases.add(state["phase"])
            state = engine.apply(state, seat, engine.bot_action(state, seat))
        if {"discard_build", "seventh"} <= phases:
            break
    assert {"pick", "discard_build", "seventh"} <= phases


def test_the_two_player_seven_wonders_variant_is_played_at_the_easy_bots_choice():
    """No determinizer models the Free City yet: the search level must not search a world it
    would misdraw, nor read the Free City's hidden pile; it plays the easy bot's move."""
    from games.engines import bots
    from games.engines.registry import get_engine

    engine = get_engine("seven_wonders")
    state = engine.new_game(2, "search-two-players", {})
    for _ in range(40):
        if engine.is_over(state):
            break
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        stats: dict = {}
        chosen = bots.bot_move(engine, state, seat, bots.SEARCH, stats=stats)
        assert chosen == engine.bot_action(state, seat)
        assert not stats.get("searched")
        state = engine.apply(state, seat, chosen)
