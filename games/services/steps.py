"""One step of a game, logged: a move or a system step appended to the action log, and the
chance steps (a die roll, a card draw) resolved inside the move that made them due."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engines.base import Engine
from games.models import Action, ActionKind, ActionSource, Game, GameStatus
from games.services.access import engine_guard, require_playable
from games.services.writes import log_entry_write


@dataclass(frozen=True)
class SubmitResult:
    game: Game
    #: {"sequence", "version", "status", "awaiting_seats"} of the applied move: the first
    #: result, repeated as it was when the same Idempotency-Key comes again.
    outcome: dict[str, Any]
    replayed: bool = False
    #: The move's log text as its player reads it (games.texts.message_text renders it in the
    #: reader's language); None when its log entry is gone.
    text: dict[str, Any] | None = None


def append_action(
    game: Game,
    engine: Engine,
    *,
    kind: str,
    seat_number: int | None,
    payload: Any,
    source: str,
    actor,
    state_before: dict,
) -> Action:
    if kind == ActionKind.RESOLVE:
        public_text = actor_text = engine.resolution_text(state_before, None)
    else:
        public_text = engine.describe_text(state_before, seat_number, payload, viewer=None)
        actor_text = engine.describe_text(state_before, seat_number, payload,
                                          viewer=seat_number)
    game.version += 1
    action = Action(
        game=game,
        sequence=game.version,
        kind=kind,
        seat_number=seat_number,
        payload=payload,
        source=source,
        actor=actor,
        **facts_after(game, engine),
        **Action.stored_texts(public_text, actor_text, seat_number=seat_number, payload=payload),
    )
    log_entry_write(action)
    return action


def facts_after(game: Game, engine: Engine) -> dict[str, Any]:
    """What a log entry keeps of the game as it stands after it (game.state): its status and the
    seats it awaits, as the clocks will have them (clocks.refresh_turns)."""
    over = engine.is_over(game.state)
    return {"status_after": GameStatus.FINISHED if over else game.status,
            "awaiting_after": [] if over else sorted(engine.active_seats(game.state))}


def resolve_once(game: Game, engine: Engine) -> bool:
    """Applies the engine's due system step to the locked game and logs it; False if none."""
    with engine_guard(game, "resolve"):
        if not engine.ready_to_resolve(game.state):
            return False
        state_before = game.state
        game.state = engine.resolve(state_before)
        append_action(game, engine, kind=ActionKind.RESOLVE, seat_number=None, payload=None,
                      source=ActionSource.SYSTEM, actor=None, state_before=state_before)
    require_playable(game, engine, "resolve")
    return True


#: System steps resolved inside one move's transaction, at most (a die roll, a card draw …).
MAX_INLINE_RESOLUTIONS = 20


def resolve_chance_steps(game: Game, engine: Engine) -> None:
    """Steps that need nobody (Move contract v2): in an engine without simultaneous secret
    picks, a due system step (Stone Age's dice) is resolved in the move's own request instead of
    a worker round trip. Simultaneous picks (7 Wonders) stay on a worker, as the product asks."""
    if engine.simultaneous:
        return
    for _ in range(MAX_INLINE_RESOLUTIONS):
        if engine.is_over(game.state) or not resolve_once(game, engine):
            return
