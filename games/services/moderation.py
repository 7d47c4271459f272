"""Moderator actions: each checks the moderator's permission, changes things only through the
game services, and records an AuditEntry with who, what, why, when and before/after."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from accounts.models import Sanction, SanctionKind
from accounts.templatetags.language_tags import localized_digits
from games.exceptions import GameError, LobbyError, NotAllowed
from games.live.events import player_event
from games.models import (
    AuditEntry,
    ChatMessage,
    Game,
    Report,
    ReportStatus,
    Seat,
)
from games.presentation.texts import entry_text
from games.services.access import engine_for
from games.services.deadlines import seat_hand_to_bot, seat_take_back, time_out_seat
from games.services.endings import game_abort as game_end

MODERATE_GAMES = "games.moderate_game"
SANCTION_USERS = "accounts.sanction_user"
HANDLE_REPORTS = "games.change_report"


class ModerationError(GameError):
    code = "moderation_error"
    status = 400


def _require(moderator, permission: str) -> None:
    if not moderator.is_active or not moderator.has_perm(permission):
        raise NotAllowed(gettext("You are not allowed to do that."))


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ModerationError(gettext("Every moderator action needs a reason."))
    return reason


def _seat_facts(seat: Seat) -> dict[str, Any]:
    return {
        "seat": seat.number,
        "user": seat.user.username if seat.user_id else None,
        "is_bot": seat.is_bot,
        "deadline_at": seat.deadline_at.isoformat() if seat.deadline_at else None,
        "timeout_count": seat.timeout_count,
    }


def _audit(moderator, action: str, target, reason: str, before: dict, after: dict) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=moderator, action=action, target_type=type(target).__name__.lower(),
        target_id=target.pk, reason=reason, before=before, after=after,
    )


def _seat(game: Game, seat_number: int) -> Seat:
    seat = game.seats.select_related("user").filter(number=seat_number).first()
    if seat is None:
        raise LobbyError(gettext("Game %(game_pk)s has no seat %(seat_number)s.")
                             % {"game_pk": game.pk, "seat_number": seat_number})
    return seat


# ---- games and seats -----------------------------------------------------------------------------


def deadline_extend(*, moderator, game: Game, seat_number: int, hours: int, reason: str,
                    now: datetime | None = None) -> AuditEntry:
    _require(moderator, MODERATE_GAMES)
    reason = _require_reason(reason)
    if not 1 <= hours <= 24 * 30:
        raise ModerationError(gettext("Extend by 1 hour to 30 days."))
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        seat = _seat(game, seat_number)
        if seat.deadline_at is None:
            raise ModerationError(gettext("This seat has no running deadline."))
        before = _seat_facts(seat)
        seat.deadline_at += timedelta(hours=hours)
        seat.remind_at = seat.remind_at + timedelta(hours=hours) if seat.remind_at else None
        seat.save(update_fields=["deadline_at", "remind_at"])
        return _audit(moderator, "extend_deadline", game, reason, before, _seat_facts(seat))


def timeout_force(*, moderator, game: Game, seat_number: int, reason: str,
                  now: datetime | None = None) -> AuditEntry:
    """Times the seat out now, exactly as the sweep would."""
    _require(moderator, MODERATE_GAMES)
    reason = _require_reason(reason)
    now = now or timezone.now()
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        seat = _seat(locked, seat_number)
        if seat.deadline_at is None:
            raise ModerationError(gettext(
                "This seat is not awaited; there is nothing to time out."))
        before = {**_seat_facts(seat), "version": locked.version}
        time_out_seat(locked, engine_for(locked.engine), seat, now)
        seat.refresh_from_db()
        locked.refresh_from_db()
        return _audit(moderator, "force_timeout", locked, reason, before,
                      {**_seat_facts(seat), "version": locked.version})


def seat_to_bot(*, moderator, game: Game, seat_number: int, reason: str) -> AuditEntry:
    _require(moderator, MODERATE_GAMES)
    reason = _require_reason(reason)
    with transaction.atomic():
        before = _seat_facts(_seat(game, seat_number))
        seat_hand_to_bot(game_id=game.pk, seat_number=seat_number)
        return _audit(moderator, "seat_to_bot", game, reason, before,
                      _seat_facts(_seat(game, seat_number)))


def seat_to_player(*, moderator, game: Game, seat_number: int, reason: str) -> AuditEntry:
    _require(moderator, MODERATE_GAMES)
    reason = _require_reason(reason)
    with transaction.atomic():
        before = _seat_facts(_seat(game, seat_number))
        seat_take_back(game_id=game.pk, user=moderator, seat_number=seat_number)
        return _audit(moderator, "seat_to_player", game, reason, before,
                      _seat_facts(_seat(game, seat_number)))


def game_abort(*, moderator, game: Game, reason: str) -> AuditEntry:
    _require(moderator, MODERATE_GAMES)
    reason = _require_reason(reason)
    with transaction.atomic():
        before = {"status": Game.objects.get(pk=game.pk).status}
        aborted = game_end(game_id=game.pk, reason=reason)
        return _audit(moderator, "abort_game", aborted, reason, before,
                      {"status": aborted.status})


def game_hidden_state_reveal(*, moderator, game: Game, reason: str) -> dict[str, Any]:
    """What no view shows: the seed, the raw state (hands, deck order, pending picks) and every
    logged action as submitted. Superusers only; the audit row is written before anything is
    returned, and it holds no secret itself (moderators read the audit trail)."""
    if not (moderator.is_active and moderator.is_superuser):
        raise NotAllowed(gettext("Only an administrator can reveal a game's hidden state."))
    reason = _require_reason(reason)
    with transaction.atomic():
        game = Game.objects.get(pk=game.pk)
        _audit(moderator, "reveal_hidden_state", game, reason, {},
               {"version": game.version, "status": game.status})
    # The log as it stood at the state shown (sequence n made version n).
    # Each with its text as its actor read it, in English like the rest of this page's data.
    actions = [{"sequence": entry.sequence, "kind": entry.kind, "seat_number": entry.seat_number,
                "source": entry.source, "payload": entry.payload,
                "description": entry_text(entry, entry.seat_number, language="en",
                                          engine_slug=game.engine)}
               for entry in game.actions.filter(sequence__lte=game.version).order_by("sequence")]
    return {"seed": game.seed, "version": game.version, "state": game.state,
            "actions": actions}


# ---- chat ---------------------------------------------------------------------------------------


def chat_message_hide(*, moderator, message: ChatMessage, reason: str) -> AuditEntry:
    _require(moderator, MODERATE_GAMES)
    reason = _require_reason(reason)
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().get(pk=message.pk)
        if message.hidden_at is not None:
            raise ModerationError(gettext("This message is already hidden."))
        before = {"hidden": False, "body": message.body}
        message.hidden_at = timezone.now()
        message.hidden_reason = reason
        message.save(update_fields=["hidden_at", "hidden_reason"])
        return _audit(moderator, "hide_message", message, reason, before,
                      {"hidden": True, "body": message.body})


# ---- players ------------------------------------------------------------------------------------


def _sanction_facts(user) -> dict[str, Any]:
    return {
        "sanctions_in_force": [
            {"kind": s.kind, "ends_at": s.ends_at.isoformat() if s.ends_at else None}
            for s in user.sanctions.filter(lifted_at__isnull=True)
            if s.in_force(timezone.now())
        ]
    }


def _sanction(moderator, user, kind: str, reason: str, ends_at,
              notice: Callable[[], str]) -> AuditEntry:
    """`notice()` words the sanction; it is called in the sanctioned player's language."""
    _require(moderator, SANCTION_USERS)
    reason = _require_reason(reason)
    if user.pk == moderator.pk:
        raise ModerationError(gettext("You cannot sanction yourself."))
    if user.is_superuser or user.has_perm(SANCTION_USERS):
        raise ModerationError(gettext(
            "Moderators and administrators are sanctioned by an administrator."))
    with transaction.atomic():
        before = _sanction_facts(user)
        Sanction.objects.create(user=user, kind=kind, reason=reason, ends_at=ends_at,
                                created_by=moderator)
        with translation.override(user.language or settings.LANGUAGE_CODE):
            told = gettext("%(notice)s Reason: %(reason)s") % {"notice": notice(),
                                                               "reason": reason}
        player_event.send(sender=Sanction, user_id=user.pk, kind="moderation", text=told)
        return _audit(moderator, kind, user, reason, before, _sanction_facts(user))


def user_warn(*, moderator, user, reason: str) -> AuditEntry:
    return _sanction(moderator, user, SanctionKind.WARNING, reason, None,
                     lambda: gettext("The moderators have sent you a warning."))


def user_suspend(*, moderator, user, days: int, reason: str) -> AuditEntry:
    if not 1 <= days <= 365:
        raise ModerationError(gettext("A suspension lasts 1 to 365 days."))
    ends_at = timezone.now() + timedelta(days=days)
    return _sanction(moderator, user, SanctionKind.SUSPENSION, reason, ends_at,
                     lambda: ngettext(
                         "Your account is suspended for %(count)s day: you cannot play, chat or "
                         "create games until then; your running games continue under their "
                         "clocks.",
                         "Your account is suspended for %(count)s days: you cannot play, chat "
                         "or create games until then; your running games continue under their "
                         "clocks.", days) % {"count": localized_digits(days)})


def user_ban(*, moderator, user, reason: str) -> AuditEntry:
    entry = _sanction(moderator, user, SanctionKind.BAN, reason, None,
                      lambda: gettext("Your account is banned: you can no longer play, chat or "
                                      "create games."))
    return entry


def sanction_lift(*, moderator, sanction: Sanction, reason: str) -> AuditEntry:
    _require(moderator, SANCTION_USERS)
    reason = _require_reason(reason)
    with transaction.atomic():
        before = _sanction_facts(sanction.user)
        sanction.lifted_at = timezone.now()
        sanction.save(update_fields=["lifted_at"])
        return _audit(moderator, "lift_sanction", sanction.user, reason, before,
                      _sanction_facts(sanction.user))


# ---- reports ------------------------------------------------------------------------------------


def report_close(*, moderator, report: Report, status: str, reason: str) -> AuditEntry:
    _require(moderator, HANDLE_REPORTS)
    reason = _require_reason(reason)
    if status not in (ReportStatus.RESOLVED, ReportStatus.DISMISSED):
        raise ModerationError(gettext("A report is closed as resolved or dismissed."))
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report.pk)
        if report.status != ReportStatus.OPEN:
            raise ModerationError(gettext("This report is already closed."))
        before = {"status": report.status}
        report.status = status
        report.handled_by = moderator
        report.handled_at = timezone.now()
        report.save(update_fields=["status", "handled_by", "handled_at"])
        return _audit(moderator, f"report_{status}", report, reason, before,
                      {"status": report.status})
