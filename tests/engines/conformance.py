"""The conformance kit every engine runs: random full games, replay, JSON round trip, purity,
illegal actions, hidden seed. An engine's test module calls these with its engine; see
tests/engines/test_toy_engine.py for the pattern.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import settings

from games.engines.base import Engine, IllegalAction, canonical_action

#: Random full games per player count in each engine's conformance run (TURNPOST_RANDOM_GAMES):
#: a few in `make test`, thousands in `make fuzz`, 50 in CI's fuzz run.
RANDOM_GAMES = int(os.environ.get("TURNPOST_RANDOM_GAMES", "4"))
#: A run of 20 games or more per count (CI's fuzz run, `make fuzz`) also checks as many games at
#: every step as each test asks; `make test` checks one per count, the costliest part of the kit.
THOROUGH = RANDOM_GAMES >= 20


def random_games(tenth: bool = False) -> int:
    """RANDOM_GAMES, or a tenth of it (at least two) for the runs with options or the bot."""
    return max(2, RANDOM_GAMES // 10) if tenth else RANDOM_GAMES


def examples(count: int) -> int:
    """A property's example count, written for Hypothesis' default of 100 examples, scaled with
    the loaded profile (tests/conftest.py): as written in `dev` and `ci`, more in `fuzz`."""
    return max(1, count * settings.default.max_examples // 100)

#: Something no engine would accept as an action.
NONSENSE_ACTIONS: list[Any] = [
    {},
    {"type": "no-such-action"},
    {"type": None, "card": -1},
    "pass",
    [],
    None,
]


@dataclass
class PlayedGame:
    """A finished random game: its set-up and the log a service would store."""

    num_players: int
    seed: str
    options: dict[str, Any]
    #: ("seat", seat, action) or ("resolve",), in order.
    log: list[tuple] = field(default_factory=list)
    final_state: dict[str, Any] | None = None
    steps: int = 0


class StuckGame(AssertionError):
    """No seat can act, nothing is due to resolve, and the game is not over."""


def play_random_game(
    engine: Engine,
    num_players: int,
    seed: str,
    *,
    options: dict[str, Any] | None = None,
    chooser_seed: int = 0,
    max_steps: int = 20_000,
    check_every_step: bool = False,
    use_bot: float = 0.0,
) -> PlayedGame:
    """Plays one game to the end choosing uniformly among legal actions (a share `use_bot` of
    decisions is taken by the engine's bot/timeout move instead). With `check_every_step`, each
    step also verifies purity, JSON round trip and the hidden seed."""
    chooser = random.Random(chooser_seed)
    state = engine.new_game(num_players, seed, options)
    game = PlayedGame(num_players, seed, dict(options or {}))
    json_state = json.dumps(state, sort_keys=True)
    for step in range(max_steps):
        if engine.is_over(state):
            break
        active = engine.active_seats(state)
        if check_every_step:
            check_state_invariants(engine, state, seed, num_players)
        if not active:
            if not engine.ready_to_resolve(state):
                raise StuckGame(f"step {step}: no active seat, nothing to resolve, not over")
            new_state = engine.resolve(state)
            game.log.append(("resolve",))
        else:
            seat = chooser.choice(active)
            legal = engine.legal_actions(state, seat)
            assert legal, f"step {step}: active seat {seat} has no legal action"
            if use_bot and chooser.random() < use_bot:
                action = engine.bot_action(state, seat)
                assert is_listed(action, legal), f"bot chose an unlisted action {action!r}"
            else:
                action = chooser.choice(legal)
            text = engine.describe(state, seat, action)
            assert isinstance(text, str) and text, "describe must return a sentence"
            new_state = engine.apply(state, seat, action)
            game.log.append(("seat", seat, action))
        if check_every_step:
            assert json.dumps(state, sort_keys=True) == json_state, "the engine mutated its input"
        state = new_state
        json_state = json.dumps(state, sort_keys=True)
        game.steps = step + 1
    else:
        raise AssertionError(f"game not over after {max_steps} steps")
    game.final_state = state
    return game


def replay(engine: Engine, game: PlayedGame) -> dict[str, Any]:
    """Rebuilds the state from set-up and log, as the service does to verify a stored game."""
    state = engine.new_game(game.num_players, game.seed, game.options or None)
    for entry in game.log:
        if entry[0] == "resolve":
            state = engine.resolve(state)
        else:
            _, seat, action = entry
            state = engine.apply(state, seat, action)
    return state


def check_state_invariants(
    engine: Engine, state: dict[str, Any], seed: str, num_players: int
) -> None:
    """Checks that hold at every decision point."""
    assert json.loads(json.dumps(state)) == state, "state does not survive a JSON round trip"
    for viewer in [None, *range(num_players)]:
        text = json.dumps(engine.view(state, viewer))
        assert seed not in text, f"the view for {viewer} contains the seed"
    for seat in engine.active_seats(state):
        legal = engine.legal_actions(state, seat)
        timeout = engine.timeout_action(state, seat)
        assert is_listed(timeout, legal), f"timeout_action {timeout!r} is not a listed action"
        bot = engine.bot_action(state, seat)
        assert is_listed(bot, legal), f"bot_action {bot!r} is not a listed action"


def is_listed(action: Any, legal: list[dict[str, Any]]) -> bool:
    """Whether `action` is one of `legal` as canonical JSON (same types: 1 is not 1.0 nor true),
    the test `apply` makes; `in` would take 1.0 or true for 1."""
    return canonical_action(action) in {canonical_action(item) for item in legal}


def check_illegal_actions_change_nothing(
    engine: Engine, state: dict[str, Any], num_players: int
) -> None:
    """Nonsense and out-of-turn actions raise IllegalAction with a reason; the state is intact."""
    before = json.dumps(state, sort_keys=True)
    active = engine.active_seats(state)
    for seat in active:
        for action in NONSENSE_ACTIONS:
            try:
                engine.apply(copy.deepcopy(state), seat, action)
            except IllegalAction as error:
                assert str(error), "IllegalAction needs a reason"
            else:
                raise AssertionError(f"{action!r} was accepted")
            # The original object must be untouched even when the engine is handed it directly.
            with contextlib.suppress(IllegalAction):
                engine.apply(state, seat, action)
            assert json.dumps(state, sort_keys=True) == before
    for seat in range(num_players):
        # A seat that already made a secret pick may still replace it, so only seats with no
        # legal action at all must be refused.
        if seat in active or engine.legal_actions(state, seat):
            continue
        legal_for_others = [a for s in active for a in engine.legal_actions(state, s)]
        for action in legal_for_others[:3]:
            try:
                engine.apply(state, seat, action)
            except IllegalAction as error:
                assert str(error)
            else:
                raise AssertionError(f"inactive seat {seat} was allowed to act")
            assert json.dumps(state, sort_keys=True) == before


def check_engine(
    engine: Engine,
    *,
    games_per_count: int,
    deep_checks_per_count: int = 3,
    options: dict[str, Any] | None = None,
    seed_prefix: str = "conformance",
    use_bot: float = 0.0,
    player_counts: Iterable[int] | None = None,
) -> dict[int, list[PlayedGame]]:
    """The whole kit for every player count (or those of `player_counts`): `games_per_count`
    random full games, each replayed from its log to the identical state, with result checks; the
    first `deep_checks_per_count` games also check purity, JSON round trip, the hidden seed and
    illegal actions at every step."""
    played: dict[int, list[PlayedGame]] = {}
    if player_counts is None:
        player_counts = player_range(engine)
    for num_players in player_counts:
        played[num_players] = []
        for index in range(games_per_count):
            seed = f"{seed_prefix}-{engine.slug}-{num_players}-{index}-secret"
            deep = index < deep_checks_per_count
            game = play_random_game(
                engine,
                num_players,
                seed,
                options=options,
                chooser_seed=index,
                check_every_step=deep,
                use_bot=use_bot,
            )
            final = game.final_state
            assert final is not None
            assert replay(engine, game) == final, "replaying the log gave a different state"
            check_result(engine, final, num_players)
            if deep:
                check_illegal_actions_along(engine, game)
            played[num_players].append(game)
    return played


def player_range(engine: Engine) -> list[int]:
    """Every player count the engine plays; tests parametrized over it run one count each, so
    that xdist's workers share an engine's conformance run."""
    return list(range(engine.min_players, engine.max_players + 1))


def check_illegal_actions_along(engine: Engine, game: PlayedGame, samples: int = 12) -> None:
    """Rebuilds a few states along the game and checks illegal input at each."""
    state = engine.new_game(game.num_players, game.seed, game.options or None)
    stride = max(1, len(game.log) // samples)
    for index, entry in enumerate(game.log):
        if index % stride == 0 and engine.active_seats(state):
            check_illegal_actions_change_nothing(engine, state, game.num_players)
        if entry[0] == "resolve":
            state = engine.resolve(state)
        else:
            state = engine.apply(state, entry[1], entry[2])
    for seat in range(game.num_players):
        try:
            engine.apply(state, seat, {"type": "anything"})
        except IllegalAction as error:
            assert str(error)
        else:
            raise AssertionError("an action was accepted after the game ended")


def check_result(engine: Engine, state: dict[str, Any], num_players: int) -> None:
    assert engine.is_over(state)
    assert engine.active_seats(state) == []
    result = engine.result(state)
    assert set(result) >= {"scores", "breakdown", "winners"}
    assert len(result["scores"]) == num_players
    assert len(result["breakdown"]) == num_players
    assert result["winners"], "somebody must win (or share the win)"
    assert all(0 <= seat < num_players for seat in result["winners"])
    json.dumps(result)
