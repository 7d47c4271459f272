"""A behaviour fingerprint of an engine: a SHA-256 over everything it shows along seeded random
games — every state (as stored, key order included), every legal-action list (in order), every
view, every describe text, the refusal of an out-of-turn and of a nonsense action, the bot's and
the time-out's choice, and the result. A speed change must leave it identical.

    python -m tests.perf.fingerprint                # every engine and player count, 3 games each
    python -m tests.perf.fingerprint stone_age 4 10 # one engine, one player count, 10 games

Run it on the code before a change (e.g. `git archive main | tar -x -C DIR`, then run it in
DIR with this file copied in) and after, and compare; tests/engines/test_behaviour_fingerprint.py
pins two games per 7 Wonders and Stone Age player count.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from games.engines.base import IllegalAction
from games.engines.registry import get_engine

#: (engine slug, player counts) fingerprinted by default.
DEFAULT_CASES = (
    ("seven_wonders", (2, 3, 7)),
    ("stone_age", (2, 4)),
    ("caverna", (1, 4, 7)),
)


def _text(value) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()


def _refusal(engine, state, seat, action) -> str:
    try:
        engine.apply(state, seat, action)
    except IllegalAction as error:
        return f"refused: {error}"
    return "accepted"


def fingerprint(slug: str, num_players: int, games: int, *, views_every: int = 1) -> str:
    """The hex SHA-256 of `games` seeded random games of `slug` at `num_players`."""
    engine = get_engine(slug)
    digest = hashlib.sha256()
    viewers = [None, *range(num_players)]
    for index in range(games):
        chooser = random.Random(index)
        state = engine.new_game(num_players, f"fingerprint-{index}")
        step = 0
        while not engine.is_over(state):
            before = _text(state)
            digest.update(before)
            if step % views_every == 0:
                for viewer in viewers:
                    digest.update(_text(engine.view(state, viewer)))
            active = engine.active_seats(state)
            digest.update(_text(active))
            if not active:
                for viewer in viewers:
                    digest.update(engine.describe_resolution(state, viewer).encode())
                new_state = engine.resolve(state)
            else:
                for seat in active:
                    digest.update(_text(engine.legal_actions(state, seat)))
                seat = chooser.choice(active)
                legal = engine.legal_actions(state, seat)
                digest.update(_text(engine.timeout_action(state, seat)))
                if step % views_every == 0:
                    digest.update(_text(engine.bot_action(state, seat)))
                idle = [other for other in range(num_players) if other not in active]
                if idle:
                    digest.update(_refusal(engine, state, idle[0], legal[0]).encode())
                digest.update(_refusal(engine, state, seat, {"type": "no-such-action"}).encode())
                action = chooser.choice(legal)
                for viewer in viewers:
                    digest.update(engine.describe(state, seat, action, viewer).encode())
                new_state = engine.apply(state, seat, action)
            assert _text(state) == before, "the engine mutated its input"
            state = new_state
            step += 1
        digest.update(_text(state))
        digest.update(_text(engine.result(state)))
        for viewer in viewers:
            digest.update(_text(engine.view(state, viewer)))
    return digest.hexdigest()


def main(argv: list[str]) -> None:
    if argv:
        slug, players, games = argv[0], int(argv[1]), int(argv[2]) if len(argv) > 2 else 3
        cases = [(slug, (players,))]
    else:
        cases, games = DEFAULT_CASES, 3
    for slug, counts in cases:
        for num_players in counts:
            print(f"{slug} {num_players}p x{games}: {fingerprint(slug, num_players, games)}",
                  flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
