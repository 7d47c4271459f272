"""A behaviour fingerprint of an engine: a SHA-256 over everything it shows along seeded random
games — every state (as stored, key order included), every legal-action list (in order), every
view, every describe text, the refusal of an out-of-turn and of a nonsense action, the bot's and
the time-out's choice, and the result. A speed change must leave it identical.

    python -m tests.perf.fingerprint                # every engine and player count, 3 games each
    python -m tests.perf.fingerprint stone_age 4 10 # one engine, one player count, 10 games

Run it on the code before a change (e.g. `git archive main | tar -x -C DIR`, then run it in
DIR with this file copied in) and after, and compare; tests/engines/test_behaviour_fingerprint.py
pins two games per 7 Wonders and Stone Age player count.

A change of texts alone (words turned into message keys with parameters) shows as the same
fingerprint with `--english`, which renders every text in states and views in English first:

    python -m tests.perf.fingerprint stone_age 4 2 --english
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from games.engines.base import IllegalAction
from games.engines.registry import get_engine
from tests.engines.english import in_english

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


def fingerprint(slug: str, num_players: int, games: int, *, views_every: int = 1,
                english: bool = False) -> str:
    """The hex SHA-256 of `games` seeded random games of `slug` at `num_players`; with
    `english`, of states and views with their texts rendered in English."""
    engine = get_engine(slug)
    digest = hashlib.sha256()

    def shown(value) -> bytes:
        return _text(in_english(engine, value) if english else value)

    viewers = [None, *range(num_players)]
    for index in range(games):
        chooser = random.Random(index)
        state = engine.new_game(num_players, f"fingerprint-{index}")
        step = 0
        while not engine.is_over(state):
            before = _text(state)
            digest.update(shown(state) if english else before)
            if step % views_every == 0:
                for viewer in viewers:
                    digest.update(shown(engine.view(state, viewer)))
            active = engine.active_seats(state)
            digest.update(shown(active))
            if not active:
                for viewer in viewers:
                    digest.update(engine.describe_resolution(state, viewer).encode())
                new_state = engine.resolve(state)
            else:
                for seat in active:
                    digest.update(shown(engine.legal_actions(state, seat)))
                seat = chooser.choice(active)
                legal = engine.legal_actions(state, seat)
                digest.update(shown(engine.timeout_action(state, seat)))
                if step % views_every == 0:
                    digest.update(shown(engine.bot_action(state, seat)))
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
        digest.update(shown(state))
        digest.update(shown(engine.result(state)))
        for viewer in viewers:
            digest.update(shown(engine.view(state, viewer)))
    return digest.hexdigest()


def main(argv: list[str]) -> None:
    english = "--english" in argv
    argv = [arg for arg in argv if arg != "--english"]
    if argv:
        slug, players, games = argv[0], int(argv[1]), int(argv[2]) if len(argv) > 2 else 3
        cases = [(slug, (players,))]
    else:
        cases, games = DEFAULT_CASES, 3
    for slug, counts in cases:
        for num_players in counts:
            found = fingerprint(slug, num_players, games, english=english)
            print(f"{slug} {num_players}p x{games}: {found}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
