"""Steps that need nobody (Move contract v2): after every change the service keeps the game
going while it can, inside the same transaction and bounded in count. For each awaited player's
seat (never a bot's) it plays, in this order,

- a forced decision: exactly one legal action, or legal actions that all lead to the same state
  (unless the player switched forced moves off, on the profile or for this game), source `auto`;
- the answer of the player's standing orders (the engine's pure function, on the seat's own
  view), source `auto`;
- the first still-legal candidate of the player's queued conditional move, source `queued`; when
  none is legal, the queue is dropped and the seat waits (and is told so) as usual.

What to play is decided by the pure `games.engines.autoplay`, shared with the benchmark. This
module also holds `after_change`, which every service calls after a change (these steps, then
the turns' clocks, the notices and the follow-up tasks), and the services that set those
preferences and queues; the game row is locked in each, as for a move.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import active_restriction
from games.engines import autoplay as rules
from games.engines.base import Engine, InvalidOptions
from games.engines.registry import UnknownEngine, get_engine
from games.exceptions import GameError, GameNotRunning, NotAllowed
from games.models import Action, ActionKind, ActionSource, Game, GameStatus, Seat
from games.presentation.texts import reason_text
from games.presentation.titles import engine_name
from games.services.access import (
    engine_guard,
    locked_game,
    require_playable,
    require_unrestricted,
    seats_of,
)
from games.services.clocks import refresh_turns
from games.services.steps import append_action, resolve_chance_steps
from games.services.writes import announce_after_commit, game_write, schedule_follow_ups

#: Moves made for players after one change, at most (every step is also bounded by the engine).
MAX_AUTO_STEPS = 60

#: The sources of moves made here; a queued move counts as the player's own activity.
AUTOMATIC_SOURCES = (ActionSource.AUTO, ActionSource.QUEUED)


class InvalidQueue(GameError):
    code = "invalid_queue"
    status = 422


class InvalidOrders(GameError):
    code = "invalid_orders"
    status = 422


class YourMove(GameError):
    """A queue is for a decision still to come; the one at hand is simply made."""

    code = "your_move"
    status = 409


# ---------------------------------------------------------------------------------------------
# what a seat's player asked for


def _engine(slug: str) -> Engine | None:
    try:
        return get_engine(slug)
    except UnknownEngine:
        return None


def forced_moves_on(seat: Seat) -> bool:
    """The game's own setting, else the player's profile (on unless switched off)."""
    if seat.auto_forced is not None:
        return seat.auto_forced
    return bool(seat.user_id and seat.user.auto_play_forced)


def profile_orders(user, engine: Engine) -> dict[str, str]:
    """The player's default orders for `engine`, every order filled in (stored values the engine
    no longer knows are left out rather than failing a move)."""
    stored = (getattr(user, "standing_orders", None) or {}).get(engine.slug) or {}
    return _valid_part(engine, stored, engine.validate_orders({}))


def _valid_part(engine: Engine, stored: Any, base: dict[str, str]) -> dict[str, str]:
    merged = dict(base)
    if isinstance(stored, dict):
        for name, value in stored.items():
            try:
                merged.update(engine.validate_orders({name: value}, partial=True))
            except InvalidOptions:
                continue
    return merged


def seat_orders(seat: Seat, engine: Engine) -> dict[str, str]:
    """The orders in force for the seat: engine defaults, then the profile, then this game."""
    base = profile_orders(seat.user, engine) if seat.user_id else engine.validate_orders({})
    return _valid_part(engine, seat.standing_orders, base)


# ---------------------------------------------------------------------------------------------
# after every change


def after_change(
    game: Game,
    engine: Engine,
    now: datetime,
    acted_seat: int | None,
    announce_turns: bool = True,
    player_acted: bool = False,
    seats: list[Seat] | None = None,
) -> list[int]:
    """The end of every change to a locked game: the steps that need nobody, then the clocks
    of the seats now to act (or the end), the game row, the notices and the follow-up tasks.
    Returns the seats that newly have to act."""
    # Steps that need nobody (forced moves, standing orders, queued moves) come before the
    # turns are counted, so a seat whose decision played itself is never awaited or told.
    seats = seats_of(game, now) if seats is None else seats
    play_steps_that_need_nobody(game, engine, now,
                                cancel_queue_of=acted_seat if player_acted else None,
                                seats=seats)
    newly_active = refresh_turns(game, engine, now, acted_seat, player_acted, seats)
    game_write(game)
    if game.status == GameStatus.FINISHED:
        announce_after_commit(game.pk, "finished", list(range(game.num_players)))
    elif newly_active and announce_turns:
        announce_after_commit(game.pk, "turn", newly_active)
    schedule_follow_ups(game, seats)
    return newly_active


def play_steps_that_need_nobody(game: Game, engine: Engine, now: datetime,
                                cancel_queue_of: int | None = None,
                                seats: list[Seat] | None = None) -> int:
    """Plays, in `game` (locked, in the caller's transaction), every move that needs nobody;
    returns how many. `cancel_queue_of`: a seat whose player just moved themselves, which is a
    change of mind about anything they had queued. `seats`: the game's seats with their users,
    when the caller read them in this transaction already."""
    if seats is None:
        seats = list(game.seats.select_related("user"))
    for seat in seats:
        if seat.number == cancel_queue_of and seat.move_queue:
            seat.move_queue = []
            seat.save(update_fields=["move_queue"])
    if game.status != GameStatus.ACTIVE:
        return 0
    seats = {seat.number: seat for seat in seats}
    played = 0
    for _ in range(MAX_AUTO_STEPS):
        resolve_chance_steps(game, engine)
        state = game.state
        if engine.is_over(state) or engine.ready_to_resolve(state):
            break
        if not _play_one(game, engine, seats):
            break
        played += 1
    return played


def _play_one(game: Game, engine: Engine, seats: dict[int, Seat]) -> bool:
    state = game.state
    for number in engine.active_seats(state):
        seat = seats.get(number)
        if seat is None or seat.is_bot or seat.user_id is None:
            continue  # bots play through their own worker
        with engine_guard(game, "autoplay", number):
            step = rules.next_step(engine, state, number, forced=forced_moves_on(seat),
                                   orders=seat_orders(seat, engine), queue=seat.move_queue)
        if step is None:
            continue
        if step.dropped:
            seat.move_queue = []
            seat.save(update_fields=["move_queue"])
            continue
        if active_restriction(seat.user) is not None:
            continue  # a suspended player's seat waits (and times out) like any other
        _apply(game, engine, seat, step)
        return True
    return False


def _apply(game: Game, engine: Engine, seat: Seat, step: rules.Step) -> None:
    state_before = game.state
    with engine_guard(game, "autoplay", seat.number, step.action):
        game.state = engine.apply(state_before, seat.number, step.action)
        append_action(
            game, engine, kind=ActionKind.MOVE, seat_number=seat.number, payload=step.action,
            source=step.source, actor=seat.user, state_before=state_before,
        )
    require_playable(game, engine, "autoplay", seat.number, step.action)
    fields = []
    if step.queue != seat.move_queue:
        seat.move_queue = step.queue
        fields.append("move_queue")
    if step.source == rules.QUEUED and seat.timeout_count:
        seat.timeout_count = 0  # the player chose this move
        fields.append("timeout_count")
    if fields:
        seat.save(update_fields=fields)


# ---------------------------------------------------------------------------------------------
# reading: what the player made automatically since their own last move


def automatic_moves_since_own_move(game: Game, seat_number: int) -> list[Action]:
    """The seat's moves made for it (forced, by its orders, from its queue) since the last move
    its player made themselves (or the game began), oldest first."""
    own = (game.actions.filter(seat_number=seat_number, kind=ActionKind.MOVE)
           .exclude(source__in=AUTOMATIC_SOURCES).order_by("-sequence")
           .values_list("sequence", flat=True).first()) or 0
    return list(game.actions.filter(seat_number=seat_number, sequence__gt=own,
                                    source__in=AUTOMATIC_SOURCES).order_by("sequence"))


# ---------------------------------------------------------------------------------------------
# services: the queue, per-game settings, profile defaults


def _seat_for(game: Game, user) -> Seat:
    seat = game.seats.select_related("user").filter(user=user).first()
    if seat is None:
        raise NotAllowed(gettext("You do not have a seat in this game."))
    return seat


def _running(game: Game) -> None:
    if game.status != GameStatus.ACTIVE:
        raise GameNotRunning(gettext("This game is not running."))


def queue_read(*, game: Game, user) -> dict[str, Any]:
    """The caller's own queue (nobody else's is ever read)."""
    seat = _seat_for(game, user)
    return {"version": game.version, "decisions": list(seat.move_queue)}


def queue_set(*, game_id: int, user, decisions: Any) -> dict[str, Any]:
    """Replaces the caller's queue: up to a few decisions to come, each an ordered list of
    candidate actions. Refused while the decision is at hand (make the move instead)."""
    try:
        queue = rules.validate_queue(decisions)
    except rules.InvalidQueue as error:
        raise InvalidQueue(str(error)) from None
    with transaction.atomic():
        game = locked_game(game_id)
        _running(game)
        seat = _seat_for(game, user)
        if seat.is_bot:
            raise NotAllowed(gettext("A bot is playing your seat; take it back first."))
        require_unrestricted(user)
        engine = get_engine(game.engine)
        if seat.number in engine.active_seats(game.state):
            raise YourMove(gettext(
                "It is your move now: make it rather than queue it. A queue is for "
                           "the decisions to come."))
        seat.move_queue = queue
        seat.save(update_fields=["move_queue"])
    return {"version": game.version, "decisions": queue}


def queue_clear(*, game_id: int, user) -> None:
    with transaction.atomic():
        game = locked_game(game_id)
        seat = _seat_for(game, user)
        if seat.move_queue:
            seat.move_queue = []
            seat.save(update_fields=["move_queue"])


def settings_read(*, game: Game, user) -> dict[str, Any]:
    seat = _seat_for(game, user)
    engine = get_engine(game.engine)
    return {
        "auto_forced": seat.auto_forced,
        "auto_forced_in_force": forced_moves_on(seat),
        "standing_orders": seat.standing_orders,
        "orders_in_force": seat_orders(seat, engine),
        "declared": engine.standing_orders,
    }


def _checked_orders(engine: Engine, orders: Any) -> dict[str, str]:
    try:
        return engine.validate_orders(orders, partial=True)
    except InvalidOptions as error:
        raise InvalidOrders(reason_text(engine.slug, error)) from None


_UNCHANGED = object()


def settings_set(*, game_id: int, user, auto_forced: Any = _UNCHANGED,
                 standing_orders: Any = _UNCHANGED, now: datetime | None = None
                 ) -> dict[str, Any]:
    """This game's settings for the caller's seat: `auto_forced` True, False or None (follow
    the profile); `standing_orders` {name: value} (only those given override the profile) or
    None (the profile's). A decision at hand that the new settings answer is played at once."""
    with transaction.atomic():
        game = locked_game(game_id)
        seat = _seat_for(game, user)
        engine = get_engine(game.engine)
        fields = []
        if auto_forced is not _UNCHANGED:
            if auto_forced not in (True, False, None):
                raise InvalidOrders(gettext("auto_forced must be true, false or null."))
            seat.auto_forced = auto_forced
            fields.append("auto_forced")
        if standing_orders is not _UNCHANGED:
            seat.standing_orders = (None if standing_orders is None
                                    else _checked_orders(engine, standing_orders))
            fields.append("standing_orders")
        if fields:
            seat.save(update_fields=fields)
        if (game.status == GameStatus.ACTIVE and not seat.is_bot
                and seat.number in engine.active_seats(game.state)):
            version = game.version
            after_change(game, engine, now or timezone.now(), acted_seat=None)
            if game.version == version:
                game.save(update_fields=["updated_at"])
        return settings_read(game=game, user=user)


def profile_read(*, user) -> dict[str, Any]:
    from games.engines.registry import all_engines

    return {
        "auto_play_forced": user.auto_play_forced,
        "standing_orders": {engine.slug: profile_orders(user, engine)
                            for engine in all_engines() if engine.standing_orders},
        "declared": {engine.slug: engine.standing_orders
                     for engine in all_engines() if engine.standing_orders},
    }


def profile_set(*, user, auto_play_forced: Any = _UNCHANGED,
                standing_orders: Any = _UNCHANGED) -> dict[str, Any]:
    """The player's defaults: forced moves on or off, standing orders per game
    ({engine slug: {name: value}}; engines not named keep theirs)."""
    fields = []
    if auto_play_forced is not _UNCHANGED:
        if not isinstance(auto_play_forced, bool):
            raise InvalidOrders(gettext("auto_play_forced must be true or false."))
        user.auto_play_forced = auto_play_forced
        fields.append("auto_play_forced")
    if standing_orders is not _UNCHANGED:
        if not isinstance(standing_orders, dict):
            raise InvalidOrders(gettext(
                "standing_orders must be an object: {game: {order: value}}."))
        stored = dict(user.standing_orders or {})
        for slug, orders in standing_orders.items():
            engine = _engine(slug) if isinstance(slug, str) else None
            if engine is None:
                raise InvalidOrders(gettext("There is no game called %(slug)s.")
                                        % {"slug": f"{slug!r}"})
            if not engine.standing_orders:
                raise InvalidOrders(gettext("%(engine_name)s has no standing orders.")
                                        % {"engine_name": engine_name(engine.slug)})
            try:
                stored[slug] = engine.validate_orders(_as_orders(orders))
            except InvalidOptions as error:
                raise InvalidOrders(reason_text(engine.slug, error)) from None
        user.standing_orders = stored
        fields.append("standing_orders")
    if fields:
        user.save(update_fields=fields)
    return profile_read(user=user)


def _as_orders(orders: Any) -> Any:
    if orders is not None and not isinstance(orders, dict):
        raise InvalidOrders(gettext(
            "Each game's standing orders must be an object: {order: value}."))
    return orders


def auto_switch(*, game_id: int, user, on: bool) -> dict[str, Any]:
    """`auto on` / `auto off` from an email reply: forced moves for this game only."""
    return settings_set(game_id=game_id, user=user, auto_forced=bool(on))

