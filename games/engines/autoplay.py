"""Steps that need nobody (Move contract v2), decided from the rules alone.

For an awaited seat this says which move, if any, the service may make for the player without
asking: a forced decision (one legal action, or legal actions that all lead to the same state),
the answer of the player's standing orders, or the first still-legal candidate of the player's
queued conditional move. Pure and stdlib only, so the service (games/autoplay.py) and the
engine-level benchmark share one definition of "needed a person".
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from games.engines.base import Action, Engine, IllegalAction, State, canonical_action, match_legal

#: Log sources of the moves made here.
AUTO = "auto"
QUEUED = "queued"

#: "All legal actions lead to the same state" is checked only for this many actions or fewer
#: (each costs an `apply`); a longer list is taken to be a real choice.
MAX_SAME_STATE_ACTIONS = 8
#: A queue holds at most this many decisions, each at most this many candidates.
MAX_QUEUE_STEPS = 3
MAX_QUEUE_CANDIDATES = 5

logger = logging.getLogger(__name__)

_STATE_TEXT = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class InvalidQueue(ValueError):
    """A queue that is not a short list of short lists of JSON objects; the text says why."""


@dataclass(frozen=True)
class Step:
    """What to do for one awaited seat. `action` None with `dropped` True: the queue's next
    decision has no candidate that is legal now, so the queue is dropped and the seat waits."""

    action: Action | None
    source: str
    #: "forced" (one legal action), "same_state", "order" or "queue".
    reason: str
    #: The seat's queue after this step.
    queue: list[list[Action]]
    dropped: bool = False


def canonical_state(state: State) -> str:
    return _STATE_TEXT.encode(state)


def forced_action(engine: Engine, state: State, seat: int, legal: list[Action]
                  ) -> tuple[Action, str] | None:
    """The move that is no choice at all: the only legal action, or the first listed when every
    legal action leads to the same state (compared as canonical JSON)."""
    if len(legal) == 1:
        return legal[0], "forced"
    if not legal or len(legal) > MAX_SAME_STATE_ACTIONS:
        return None
    first = None
    for action in legal:
        try:
            after = canonical_state(engine.apply(state, seat, action))
        except IllegalAction:
            return None
        except Exception:
            # A trial of a move nobody chose must never fail the move being made: the seat
            # decides, and the fault shows when (if) that move is really played.
            logger.warning("Trying every action of a %s decision failed; the seat decides",
                           engine.slug, exc_info=True)
            return None
        if first is None:
            first = after
        elif after != first:
            return None
    return legal[0], "same_state"


def wants_orders(engine: Engine, orders: dict[str, Any] | None) -> bool:
    return bool(engine.standing_orders and orders
                and any(value != "ask" for value in orders.values()))


def order_action(engine: Engine, state: State, seat: int, legal: list[Action],
                 orders: dict[str, Any] | None) -> Action | None:
    """What the seat's standing orders play, decided on the seat's own view only; always one
    of `legal` (anything else the engine's function returned is ignored)."""
    if not wants_orders(engine, orders):
        return None
    try:
        chosen = engine.standing_order_action(engine.orders_view(state, seat), legal,
                                              dict(orders or {}))
    except Exception:
        # A faulty order leaves the decision to the player rather than stopping the game.
        logger.warning("The %s standing orders failed; the seat decides", engine.slug,
                       exc_info=True)
        return None
    if chosen is None:
        return None
    try:
        return match_legal(chosen, legal)
    except IllegalAction:
        return None


def validate_queue(queue: Any) -> list[list[Action]]:
    """A queue as stored: a list of 1 to MAX_QUEUE_STEPS decisions, each a list of 1 to
    MAX_QUEUE_CANDIDATES candidate actions (JSON objects), tried in order."""
    if not isinstance(queue, list) or not queue:
        raise InvalidQueue("A queue is a list of decisions, each a list of candidate actions.")
    if len(queue) > MAX_QUEUE_STEPS:
        raise InvalidQueue(f"A queue holds at most {MAX_QUEUE_STEPS} decisions.")
    steps = []
    for number, step in enumerate(queue, start=1):
        if not isinstance(step, list) or not step:
            raise InvalidQueue(f"Decision {number} must be a non-empty list of actions.")
        if len(step) > MAX_QUEUE_CANDIDATES:
            raise InvalidQueue(
                f"Decision {number} has more than {MAX_QUEUE_CANDIDATES} candidate actions.")
        for candidate in step:
            try:
                canonical_action(candidate)
            except IllegalAction as error:
                raise InvalidQueue(f"Decision {number}: {error}") from None
        steps.append(list(step))
    return steps


def queued_action(legal: list[Action], queue: list[list[Action]]) -> Action | None:
    """The first candidate of the queue's next decision that is legal now (as listed)."""
    for candidate in queue[0]:
        try:
            return match_legal(candidate, legal)
        except IllegalAction:
            continue
    return None


def next_step(engine: Engine, state: State, seat: int, *, forced: bool = True,
              orders: dict[str, Any] | None = None,
              queue: list[list[Action]] | None = None) -> Step | None:
    """The move made for an awaited `seat` without asking, or None when the seat must decide.
    Forced moves first (when `forced`), then standing orders, then the queue: routine steps the
    orders answer are not "my next decision", so they never use up or drop a queue."""
    queue = list(queue or [])
    legal = engine.legal_actions(state, seat)
    if not legal:
        return None
    if forced:
        found = forced_action(engine, state, seat, legal)
        if found is not None:
            return Step(found[0], AUTO, found[1], queue)
    ordered = order_action(engine, state, seat, legal, orders)
    if ordered is not None:
        return Step(ordered, AUTO, "order", queue)
    if queue:
        candidate = queued_action(legal, queue)
        if candidate is None:
            return Step(None, QUEUED, "queue", [], dropped=True)
        return Step(candidate, QUEUED, "queue", queue[1:])
    return None
