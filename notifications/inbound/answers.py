"""Answers to a received email: its outcome recorded on the inbound row, and the reply mail
written in the same transaction (sent after commit by a task)."""

from __future__ import annotations

from contextlib import nullcontext
from datetime import datetime, timedelta
from email.utils import make_msgid

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_lazy

from config.celery import app, publish_after_commit
from notifications.inbound import context as play
from notifications.inbound.commands import Choice
from notifications.models import (
    EmailReply,
    InboundMessage,
    InboundStatus,
    Notification,
    NotificationKind,
)
from notifications.rendering import email_context

_REPLY_TEMPLATE = "notifications/email/play_reply"
#: Every refusal goes out under this subject: the incoming subject is never echoed, so a
#: refusal cannot carry a stranger's words to a player's inbox.
# Lazy: read in the recipient's language when the answer is written (`send`).
REFUSAL_SUBJECT = gettext_lazy("Turnpost: your email was not played")
DUPLICATE_SUBJECT = gettext_lazy("Turnpost: we already had this email")


class Done(Exception):
    """Processing reached its outcome (already recorded on the inbound row)."""


def finish(inbound: InboundMessage, status: str, reason: str, detail: str = "") -> None:
    inbound.status, inbound.reason, inbound.detail = status, reason, detail[:2000]
    raise Done


def drop(inbound: InboundMessage, reason: str) -> None:
    finish(inbound, InboundStatus.DROPPED, reason)


def refusal_blocked(to: str, now: datetime) -> str:
    """Why a refusal may not be mailed to `to`, or "": refusals go only to the confirmed
    (allauth-verified) address of an active account, at most EMAIL_PLAY_REFUSALS_PER_HOUR to
    one address and EMAIL_PLAY_REFUSALS_GLOBAL_PER_HOUR in all, so forged senders cannot turn
    the site into a mail cannon."""
    from allauth.account.models import EmailAddress

    if not to or not EmailAddress.objects.filter(email__iexact=to, verified=True,
                                                 user__is_active=True).exists():
        return "unconfirmed"
    recent = EmailReply.objects.filter(inbound__status=InboundStatus.REFUSED,
                                       created_at__gte=now - timedelta(hours=1))
    if recent.filter(to__iexact=to).count() >= settings.EMAIL_PLAY_REFUSALS_PER_HOUR:
        return "throttled"
    if recent.count() >= settings.EMAIL_PLAY_REFUSALS_GLOBAL_PER_HOUR:
        return "throttled"
    return ""


def refuse_unanswered(inbound: InboundMessage, reason: str, explanation: str,
                      blocked: str) -> None:
    """A refusal recorded without a mail: throttled ones become drops (as before); others keep
    their reason, noting why nobody was told."""
    if blocked == "throttled":
        finish(inbound, InboundStatus.DROPPED, "throttled", f"{reason}: {explanation}")
    finish(inbound, InboundStatus.REFUSED, reason,
           f"{explanation} (not answered: the sender is not a confirmed account's address)")


def send(inbound: InboundMessage, *, to: str, context: dict, reply_to: str = "") -> EmailReply:
    """Renders the answer and queues it for after commit."""
    original_subject = " ".join((inbound.subject or "").split())
    if context["status"] == InboundStatus.REFUSED:
        subject = REFUSAL_SUBJECT
    elif context["status"] == "duplicate":
        subject = DUPLICATE_SUBJECT
    elif original_subject:
        subject = original_subject if original_subject.lower().startswith("re:") else (
            f"Re: {original_subject}")
    else:
        subject = " ".join(render_to_string(f"{_REPLY_TEMPLATE}.subject.txt", context).split())
    context = {**context, "reply_address": reply_to}
    headers = {
        "Auto-Submitted": "auto-replied",
        "Message-ID": make_msgid(domain="turnpost"),
        "In-Reply-To": inbound.message_id,
        "References": inbound.message_id,
        "X-Turnpost-Outcome": f"{context['status']}; {context['reason']}",
    }
    if reply_to:
        headers["Reply-To"] = reply_to
    zone = context.get("zone")
    # In the player's language (a stranger gets the site's default).
    language = inbound.user.language if inbound.user_id and inbound.user.language else (
        settings.LANGUAGE_CODE)
    with timezone.override(zone) if zone else nullcontext(), translation.override(language):
        reply = EmailReply.objects.create(
            inbound=inbound, to=to, subject=subject[:255], headers=headers,
            text=render_to_string(f"{_REPLY_TEMPLATE}.txt", context),
            html=render_to_string(f"{_REPLY_TEMPLATE}.html", context),
        )
    publish_after_commit(app.tasks["notifications.tasks.deliver_email_reply"], reply.pk)
    return reply


def refuse_stranger(inbound: InboundMessage, reason: str, explanation: str,
                    now: datetime) -> None:
    """A refusal to whoever sent it, saying nothing about any game or player; mailed only when
    the sender is a confirmed account's address (see `refusal_blocked`)."""
    blocked = refusal_blocked(inbound.sender, now)
    if blocked:
        refuse_unanswered(inbound, reason, explanation, blocked)
    send(inbound, to=inbound.sender, context={
       "status": InboundStatus.REFUSED, "reason": reason,
       "headline": gettext("Nothing was played"),
       "explanation": [explanation], "stranger": True,
       "site_url": settings.SITE_URL,
   })
    finish(inbound, InboundStatus.REFUSED, reason, explanation)


def _player_context(game, user, now: datetime, *, offset: int = 0,
                    selected: list[Choice] | None = None, filter_text: str = "",
                    changed_since: int | None = None) -> tuple[dict, str]:
    """The game as this player may see it now, their choices (a page, or the selected ones) and a
    fresh reply address when it is their turn. Reuses the notification email's facts."""
    game.refresh_from_db()
    seat = play.seat_for(game, user)
    notification = Notification(user=user, kind=NotificationKind.YOUR_TURN, game=game,
                                seat_number=seat.number if seat else None, context={})
    context = email_context(notification, now)
    # An answer to the player's own email, not a notification: no unsubscribe link.
    for key in ("reply_address", "unsubscribe_url"):
        context.pop(key, None)
    restriction = play.restriction_for(user)
    # A suspended or banned player cannot move: no choices, no address to answer.
    choices = [] if restriction else play.current_choices(game, user)
    if selected is not None:
        context.update(play.choices_page(choices, selected=selected))
        context["choices_filter"] = filter_text
    else:
        context.update(play.choices_page(choices, offset=offset))
    reply_to = ""
    if choices:
        reply_to = play.reply_address_for(game, user, offset=context["choices_offset"], now=now)
    elif game.status == "open":  # the next table command ("/start") answers this one
        reply_to = play.reply_address_for(game, user, now=now)
    if changed_since is not None:
        context["what_changed"] = play.changes_since(game, user, changed_since)
    context["their_turn"] = bool(choices)
    context["restricted"] = restriction
    context["zone"] = user.zone
    context["game_status"] = game.status
    return context, reply_to


def answer_player(inbound: InboundMessage, game, user, now: datetime, *, status: str,
                  reason: str, headline: str, explanation: list[str] | None = None,
                  **page) -> None:
    if status == InboundStatus.REFUSED:
        blocked = refusal_blocked(user.email, now)
        if blocked:
            refuse_unanswered(inbound, reason, headline, blocked)
    context, reply_to = _player_context(game, user, now, **page)
    explanation = list(explanation or [])
    if context["restricted"] and context["restricted"] not in explanation:
        explanation.append(context["restricted"])
    context.update(status=status, reason=reason, headline=headline,
                   explanation=explanation, help=reason == "help",
                   site_url=settings.SITE_URL)
    send(inbound, to=user.email, context=context, reply_to=reply_to)
    finish(inbound, status, reason, " ".join([headline, *explanation]))
