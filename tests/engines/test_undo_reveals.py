"""Which applied steps reveal information (Engine.reveals): undo never crosses one. Each engine
is played through whole games; every step's answer is checked against what the step visibly did
(the RNG moved, a card came off a deck, a round turned, the turn passed on), and each engine must
show the multi-step turns that can be taken back."""

from __future__ import annotations

import collections

import pytest

from games.engines.base import SeededRandom
from games.engines.registry import get_engine
from tests.engines.toy import toy_engine


def play_steps(slug: str, players: int, seed: str, limit: int = 4000):
    """(before, seat, action, after) for every player step of a game, half random half bot."""
    engine = get_engine(slug)
    state = engine.new_game(players, seed)
    choose = SeededRandom(f"choose:{seed}")
    for step in range(limit):
        if engine.is_over(state):
            return
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        legal = engine.legal_actions(state, seat)
        action = engine.bot_action(state, seat) if step % 2 else choose.choice(legal)
        after = engine.apply(state, seat, action)
        yield state, seat, action, after
        state = after


def must_reveal(engine, before, seat, after) -> str | None:
    """Why this step obviously reveals something, or None."""
    if after["rng"] != before["rng"]:
        return "the RNG moved"
    if engine.ready_to_resolve(after):
        return "a system step (a roll, the reveal of picks) is due"
    if engine.is_over(after):
        return "the game ended"
    if engine.slug != "seven_wonders" and engine.active_seats(after) != [seat]:
        return "the turn passed on"
    return None


@pytest.mark.parametrize(("slug", "players", "private_types"), [
    # Paying for a building or for food resource by resource; resolving a hut or card location
    # before its purchase decision.
    ("stone_age", 2, {"pay", "resolve"}),
    # A dwarf placed, then the space's parts, tiles and furnishing chosen step by step.
    ("caverna", 2, {"place", "part"}),
    # A secret pick that is not the last one of the turn.
    ("seven_wonders", 3, {"build", "discard"}),
])
def test_reveals_matches_what_each_step_did(slug, players, private_types):
    engine = get_engine(slug)
    undoable = collections.Counter()
    for game in range(3):
        for before, seat, action, after in play_steps(slug, players, f"reveals-{slug}-{game}"):
            reason = must_reveal(engine, before, seat, after)
            answer = engine.reveals(before, seat, action, after)
            assert answer is True or reason is None, (
                f"{slug}: {action} by seat {seat} is said to reveal nothing, yet {reason}")
            if not answer:
                undoable[action["type"]] += 1
    assert private_types <= set(undoable), (
        f"{slug}: expected undoable {private_types}, saw {dict(undoable)}")


def test_stone_age_card_draws_and_new_rounds_reveal():
    engine = get_engine("stone_age")
    seen = collections.Counter()
    for before, seat, action, after in play_steps("stone_age", 3, "reveals-sa-deck"):
        if len(after["deck"]) != len(before["deck"]):
            seen["deck"] += 1
            assert engine.reveals(before, seat, action, after)
        if after["round"] != before["round"]:
            seen["round"] += 1
            assert engine.reveals(before, seat, action, after)
    assert seen["deck"] and seen["round"]


def test_caverna_new_round_and_harvest_markers_reveal():
    engine = get_engine("caverna")
    seen = 0
    for before, seat, action, after in play_steps("caverna", 3, "reveals-cv-round"):
        if after["round"] != before["round"] or after["revealed"] != before["revealed"]:
            seen += 1
            assert engine.reveals(before, seat, action, after)
    assert seen >= 10


def test_seven_wonders_only_a_pick_that_leaves_others_to_pick_is_private():
    engine = get_engine("seven_wonders")
    state = engine.new_game(3, "reveals-7w")
    first, second, third = (engine.legal_actions(state, seat)[0] for seat in range(3))
    one = engine.apply(state, 0, first)
    assert not engine.reveals(state, 0, first, one)
    two = engine.apply(one, 1, second)
    assert not engine.reveals(one, 1, second, two)
    changed = engine.apply(two, 0, engine.legal_actions(two, 0)[-1])  # seat 0 changes its pick
    assert not engine.reveals(two, 0, engine.legal_actions(two, 0)[-1], changed)
    last = engine.apply(two, 2, third)
    assert engine.ready_to_resolve(last)
    assert engine.reveals(two, 2, third, last), "the last pick starts the reveal"


def test_an_engine_that_does_not_say_lets_nothing_be_undone():
    state = toy_engine.new_game(2, "toy-reveals")
    action = toy_engine.legal_actions(state, 0)[0]
    assert toy_engine.reveals(state, 0, action, toy_engine.apply(state, 0, action)) is True
