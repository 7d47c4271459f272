"""Turning one received email into at most one move and one answer (or a silent drop)."""

# Both entrances (django-anymail's inbound webhooks and `manage.py receive_email`) call
# `inbound_email_receive`. Everything it writes (the InboundMessage, the move through
# `games.services.game_action_submit`, the answer) commits together; the answer is sent after
# commit by a retried task, so a crash loses nothing and a provider's retry is recognised by its
# Message-ID. Only a passing fault of our own (the database or the broker unreachable) is left to
# the caller's retry; anything the message itself causes is recorded as a refusal, so malformed
# mail never loops through retries.

from __future__ import annotations

import hashlib
import logging
import uuid
from contextlib import nullcontext, suppress
from datetime import datetime, timedelta
from email.parser import BytesParser
from email.policy import default as default_policy
from email.utils import make_msgid, parseaddr

from anymail.inbound import AnymailInboundMessage
from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy

from accounts.templatetags.language_tags import localized_digits
from config.celery import app, publish_after_commit
from games.presentation.summaries import seat_names
from notifications.inbound import context as play
from notifications.inbound import tokens, trust
from notifications.inbound.commands import (
    Choice,
    Command,
    interpret,
    matching,
    pass_choices,
    read_numbered,
    verb_on_choice,
)
from notifications.inbound.parsing import automatic_reason, from_address, reply_text
from notifications.models import (
    EmailReply,
    InboundMessage,
    InboundStatus,
    Notification,
    NotificationKind,
)
from notifications.rendering import email_context

logger = logging.getLogger(__name__)

#: Commands that answer without moving.
ANSWER_ONLY = {"help", "status", "more", "list", "find"}
_REPLY_TEMPLATE = "notifications/email/play_reply"
#: Every refusal goes out under this subject: the incoming subject is never echoed, so a
#: refusal cannot carry a stranger's words to a player's inbox.
# Lazy: read in the recipient's language when the answer is written (`_send`).
REFUSAL_SUBJECT = gettext_lazy("Turnpost: your email was not played")
DUPLICATE_SUBJECT = gettext_lazy("Turnpost: we already had this email")
#: What is kept of a message refused for its size (enough to see its headers).
_KEPT_OF_TOO_LARGE = 64 * 1024


def _transient_errors() -> tuple[type[BaseException], ...]:
    """Faults of our own services that pass: the caller should retry (webhook 500, exit 75)."""
    from kombu.exceptions import OperationalError as BrokerError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (OperationalError, InterfaceError, BrokerError, RedisConnectionError,
            RedisTimeoutError, ConnectionError, TimeoutError)


class _Done(Exception):
    """Processing reached its outcome (already recorded on the inbound row)."""


# ---- entrance -----------------------------------------------------------------------------------


def inbound_email_receive(*, message: AnymailInboundMessage | None = None, raw: bytes | None = None,
                          channel: str, envelope_recipient: str | None = None,
                          provider_verdicts: list[trust.Verdict] | None = None,
                          now: datetime | None = None) -> InboundMessage:
    """Processes one received email; returns its InboundMessage (the first one's for a repeat).
    Raises only for passing faults of our own services (see `_transient_errors`)."""
    now = now or timezone.now()
    try:
        if message is None:
            raw = raw or b""
            if trust.too_large(len(raw)):
                return inbound_too_large_receive(head=raw[:_KEPT_OF_TOO_LARGE], size=len(raw),
                                                 channel=channel, now=now)
            message = AnymailInboundMessage.parse_raw_mime_bytes(raw)
        if raw is None:
            raw = _as_bytes(message)
        if trust.too_large(len(raw)):
            return inbound_too_large_receive(head=raw[:_KEPT_OF_TOO_LARGE], size=len(raw),
                                             channel=channel, now=now)
        return _receive(message, raw, channel=channel, envelope_recipient=envelope_recipient,
                        provider_verdicts=provider_verdicts or [], now=now)
    except (*_transient_errors(), IntegrityError):
        # IntegrityError: the same message processed twice at once; the retry finds the first.
        raise
    except Exception as error:  # caused by the message: record it, never retry it
        return _unprocessable(raw or b"", channel=channel, error=error, now=now)


def _receive(message: AnymailInboundMessage, raw: bytes, *, channel: str,
             envelope_recipient: str | None, provider_verdicts: list[trust.Verdict],
             now: datetime) -> InboundMessage:
    message_id = _message_id(message, raw)
    with transaction.atomic():
        try:
            with transaction.atomic():
                inbound = InboundMessage.objects.create(
                    message_id=message_id, channel=channel[:40], received_at=now,
                    sender=_sender(message)[:254], subject=_header_text(message, "Subject")[:255],
                    raw=raw,
                )
        except IntegrityError:
            return _repeated(message_id, now)
        with suppress(_Done), translation.override(settings.LANGUAGE_CODE):
            _process(inbound, message, envelope_recipient, provider_verdicts, raw, now)
        inbound.detail = _clean(inbound.detail)
        inbound.text = _clean(inbound.text)
        inbound.save()
    logger.info("inbound email %s: %s (%s)", message_id, inbound.status, inbound.reason)
    return inbound


def inbound_too_large_receive(*, head: bytes, size: int, channel: str,
                              now: datetime | None = None,
                              message_id: str = "") -> InboundMessage:
    """A message over EMAIL_PLAY_MAX_MESSAGE_BYTES, known by its first bytes only (the rest is
    never read into memory): recorded with its headers, and answered when its strictly parsed
    From is a confirmed account's address."""
    now = now or timezone.now()
    headers = BytesParser(AnymailInboundMessage, policy=default_policy).parsebytes(
        head, headersonly=True)
    message_id = message_id or _message_id(headers, head)
    with transaction.atomic():
        try:
            with transaction.atomic():
                inbound = InboundMessage.objects.create(
                    message_id=message_id, channel=channel[:40], received_at=now,
                    sender=_sender(headers)[:254], subject=_header_text(headers, "Subject")[:255],
                    raw=_headers_only(head),
                )
        except IntegrityError:
            return _repeated(message_id, now)
        limit_mb = settings.EMAIL_PLAY_MAX_MESSAGE_BYTES / (1024 * 1024)
        with suppress(_Done):
            _refuse_stranger(inbound, "too_large",
                             gettext(
                                 "Your email was larger than %(limit_mb)s MB, so it was not read. "
                             "Answer with the number of your choice and leave out attachments, "
                             "or play on the website.") % {"limit_mb": f"{limit_mb:.3g}"}, now)
        inbound.detail = _clean(f"{inbound.detail} ({size} bytes)")
        inbound.save()
    logger.warning("inbound email %s refused: %s bytes", message_id, size)
    return inbound


def _unprocessable(raw: bytes, *, channel: str, error: Exception,
                   now: datetime) -> InboundMessage:
    """A message that made processing fail in a way a retry would repeat: kept as a refusal with
    the error, unanswered (whatever failed may be what an answer needs)."""
    logger.exception("inbound email could not be processed; recorded as unprocessable")
    # The same bytes again are the same message; without bytes, every failure is its own.
    digest = hashlib.sha256(raw).hexdigest() if raw else uuid.uuid4().hex
    message_id = f"<unprocessable-{digest}@turnpost.invalid>"
    inbound, _ = InboundMessage.objects.get_or_create(
        message_id=message_id,
        defaults={"channel": channel[:40], "received_at": now, "raw": raw,
                  "status": InboundStatus.REFUSED, "reason": "unprocessable",
                  "detail": _clean(f"{type(error).__name__}: {error}")[:2000]})
    return inbound


def _clean(text: str) -> str:
    """Text as PostgreSQL can store it (no NUL characters, which no player writes)."""
    return (text or "").replace("\x00", "")


def _header_text(message: AnymailInboundMessage, name: str) -> str:
    try:
        value = message.get(name)
    except (ValueError, TypeError, IndexError, LookupError):
        return ""
    return _clean(" ".join(str(value or "").split()))


def _headers_only(head: bytes) -> bytes:
    for separator in (b"\r\n\r\n", b"\n\n"):
        if separator in head:
            return head[:head.index(separator) + len(separator)]
    return head


def _as_bytes(message: AnymailInboundMessage) -> bytes:
    try:
        return message.as_bytes()
    except (UnicodeError, ValueError, LookupError):  # odd headers from a parsed-fields provider
        return message.as_string().encode("utf-8", errors="replace")
    except RecursionError:  # parts nested too deep to write out: keep the headers (refused below)
        return b"".join(f"{name}: {value}\r\n".encode("utf-8", errors="replace")
                        for name, value in message.raw_items()) + b"\r\n"


def _message_id(message: AnymailInboundMessage, raw: bytes) -> str:
    value = _header_text(message, "Message-ID")
    if value:
        return value[:255]
    # No Message-ID (rare, broken clients): the content itself identifies a repeat.
    return f"<sha256-{hashlib.sha256(raw).hexdigest()}@turnpost.invalid>"


def _sender(message: AnymailInboundMessage) -> str:
    return _clean(from_address(message))


def _own_addresses() -> list[str]:
    return [address.lower() for address in (
        parseaddr(settings.DEFAULT_FROM_EMAIL)[1], parseaddr(settings.SERVER_EMAIL)[1],
        tokens.play_address()) if address]


def _recipients(message: AnymailInboundMessage, envelope_recipient: str | None) -> list[str]:
    found = [envelope_recipient or "", getattr(message, "envelope_recipient", None) or ""]
    for header in ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To"):
        found.extend(str(value) for value in (message.get_all(header) or []))
    return found


# ---- outcomes -----------------------------------------------------------------------------------


def _finish(inbound: InboundMessage, status: str, reason: str, detail: str = "") -> None:
    inbound.status, inbound.reason, inbound.detail = status, reason, detail[:2000]
    raise _Done


def _drop(inbound: InboundMessage, reason: str) -> None:
    _finish(inbound, InboundStatus.DROPPED, reason)


def _refusal_blocked(to: str, now: datetime) -> str:
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


def _refuse_unanswered(inbound: InboundMessage, reason: str, explanation: str,
                       blocked: str) -> None:
    """A refusal recorded without a mail: throttled ones become drops (as before); others keep
    their reason, noting why nobody was told."""
    if blocked == "throttled":
        _finish(inbound, InboundStatus.DROPPED, "throttled", f"{reason}: {explanation}")
    _finish(inbound, InboundStatus.REFUSED, reason,
            f"{explanation} (not answered: the sender is not a confirmed account's address)")


def _send(inbound: InboundMessage, *, to: str, context: dict, reply_to: str = "") -> EmailReply:
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


def _refuse_stranger(inbound: InboundMessage, reason: str, explanation: str,
                     now: datetime) -> None:
    """A refusal to whoever sent it, saying nothing about any game or player; mailed only when
    the sender is a confirmed account's address (see `_refusal_blocked`)."""
    blocked = _refusal_blocked(inbound.sender, now)
    if blocked:
        _refuse_unanswered(inbound, reason, explanation, blocked)
    _send(inbound, to=inbound.sender, context={
        "status": InboundStatus.REFUSED, "reason": reason,
        "headline": gettext("Nothing was played"),
        "explanation": [explanation], "stranger": True,
        "site_url": settings.SITE_URL,
    })
    _finish(inbound, InboundStatus.REFUSED, reason, explanation)


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
    if changed_since is not None:
        context["what_changed"] = play.changes_since(game, user, changed_since)
    context["their_turn"] = bool(choices)
    context["restricted"] = restriction
    context["zone"] = user.zone
    context["game_status"] = game.status
    return context, reply_to


def _answer_player(inbound: InboundMessage, game, user, now: datetime, *, status: str,
                   reason: str, headline: str, explanation: list[str] | None = None,
                   **page) -> None:
    if status == InboundStatus.REFUSED:
        blocked = _refusal_blocked(user.email, now)
        if blocked:
            _refuse_unanswered(inbound, reason, headline, blocked)
    context, reply_to = _player_context(game, user, now, **page)
    explanation = list(explanation or [])
    if context["restricted"] and context["restricted"] not in explanation:
        explanation.append(context["restricted"])
    context.update(status=status, reason=reason, headline=headline,
                   explanation=explanation, help=reason == "help",
                   site_url=settings.SITE_URL)
    _send(inbound, to=user.email, context=context, reply_to=reply_to)
    _finish(inbound, status, reason, " ".join([headline, *explanation]))


# ---- the decision -------------------------------------------------------------------------------


def _process(inbound: InboundMessage, message: AnymailInboundMessage,
             envelope_recipient: str | None, provider_verdicts: list[trust.Verdict], raw: bytes,
             now: datetime) -> None:
    from accounts.models import User
    from games.models import Game

    malformed = trust.malformation(message, raw)
    if malformed:
        _refuse_stranger(inbound, "malformed",
                         gettext(
                             "Your email could not be read safely (%(malformed)s), so nothing was "
                         "played. Answer from your usual mail program with the number of your "
                         "choice, or play on the website.") % {"malformed": malformed}, now)
    automatic = automatic_reason(message, own_addresses=_own_addresses())
    if automatic:
        _drop(inbound, automatic)
    sender = trust.sender_of(message)
    if not sender.address:
        # Nobody to answer: the one address we could trust is missing.
        _finish(inbound, InboundStatus.REFUSED, "bad_sender",
                f"The From header is not one plain address ({sender.problem}); not answered.")
    failure = trust.authentication_failure(
        trust.header_verdicts(message) + list(provider_verdicts))
    if failure:
        _refuse_stranger(inbound, "auth_failed",
                         gettext("Your email failed the sender checks of the mail system "
                                 "(%(failure)s), so we cannot tell it came from you and nothing "
                                 "was played. If you sent it, send it again directly (not "
                                 "forwarded), or play on the website.") % {"failure": failure},
                         now)
    text = reply_text(message, play_address=tokens.play_address())
    inbound.text = "\n".join(text.lines)[:5000]
    if not tokens.play_address():
        _refuse_stranger(inbound, "disabled",
                         gettext(
                             "Play by email is switched off on this site, so nothing was played. "
                         "Please play on the website."), now)

    token = tokens.token_from_addresses(_recipients(message, envelope_recipient))
    expired = False
    try:
        if token is None:
            raise tokens.BadToken("no token")
        claims = tokens.read_token(token, now=now)
    except tokens.BadToken:
        _refuse_stranger(inbound, "unknown_token",
                         gettext("This address only takes answers to Turnpost game emails, and the "
                         "address you wrote to is not one we gave out (or it was changed). "
                         "Answer the latest email about your game, or play on the website."), now)
    except tokens.ExpiredToken as error:
        claims, expired = error.claims, True
    user = User.objects.filter(pk=claims.user_id, is_active=True).first()
    game = Game.objects.filter(pk=claims.game_id).first()
    seat = play.seat_for(game, user) if user and game else None
    if seat is None:
        _refuse_stranger(inbound, "unknown_token",
                         gettext("The game this email was about no longer exists, or you no longer "
                         "have a seat in it."), now)
    inbound.user, inbound.game, inbound.token_version = user, game, claims.version
    if inbound.sender not in play.confirmed_addresses(user):
        _refuse_stranger(inbound, "wrong_sender",
                         gettext("This answer came from %(sender)s, which is not the confirmed "
                                 "address of the player the email was sent to. Nothing was "
                                 "played. Answer from the address of your Turnpost account (and "
                                 "confirm it in your account settings), or play on the website.")
                         % {"sender": inbound.sender}, now)
    # From here on the sender is the player: answers go to their confirmed address, in their
    # language (`_receive` restores the worker's own afterwards).
    translation.activate(user.language or settings.LANGUAGE_CODE)
    command = interpret(text.first_line)
    if expired:
        _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                       reason="expired_token",
                       headline=gettext("That email is too old to play from"),
                       explanation=[gettext("Emails can be answered for %(days)s days. Nothing "
                                            "was played; here is the game now.")
                                    % {"days": settings.EMAIL_PLAY_TOKEN_MAX_AGE_DAYS}],
                       changed_since=claims.version)
    if game.status != "active":
        if command.kind in ("status", "help"):
            _answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED,
                           reason=command.kind, headline=gettext("This game is over"))
        _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                       reason="game_over", headline=gettext("This game is over"),
                       explanation=[gettext("Nothing was played. The final result is below.")],
                       changed_since=claims.version)
    restriction = play.restriction_for(user)
    if restriction and command.kind not in ("status", "help"):
        # games.services refuses their moves (_require_unrestricted) on every channel; saying
        # so here, before anything else, spares them choices they cannot play.
        _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                       reason="not_allowed", headline=gettext("You cannot move in this game now"),
                       explanation=[restriction, gettext("Nothing was played.")])
    if command.kind == "auto":
        _switch_forced_moves(inbound, game, user, now, on=command.words[0] == "on")
    stale = claims.version != game.version
    stale_note = ([gettext("The game has moved on since that email (then version %(then)s, now "
                           "%(now)s).") % {"then": claims.version, "now": game.version}]
                  if stale else [])
    if command.kind == "help":
        _answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="help",
                       headline=gettext("How to play by email"), explanation=stale_note)
    if command.kind == "status":
        _answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="status",
                       headline=(gettext("Your move") if play.is_their_turn(game, user)
                                 else gettext("Status")),
                       explanation=stale_note, changed_since=claims.version if stale else None)
    choices = play.current_choices(game, user)
    if command.kind in ("more", "list", "find"):
        _answer_choices(inbound, game, user, now, command, claims, choices, stale, stale_note)
    if seat.is_bot:
        _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                       reason="not_allowed", headline=gettext("A bot is playing your seat"),
                       explanation=[gettext(
                           "Nothing was played. Take your seat back on the website "
                                    "to play again.")])
    if not choices:
        _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                       reason="not_your_turn", headline=gettext("It is not your turn"),
                       explanation=[*stale_note, gettext(
                           "Nothing was played. We will email you when "
                                    "it is your move.")], changed_since=claims.version)
    if command.kind == "unreadable":
        _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                       reason="unreadable", headline=gettext("We could not read your answer"),
                       explanation=[*stale_note, _quote(text.first_line, gettext(
                           "The first line of "
                                    "your answer should be the number of your choice."))])
    if stale and not _same_choices_then(game, user, claims.version, choices):
        _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                       reason="stale_version", headline=gettext(
                           "The game moved on; nothing was played"),
                       explanation=[*stale_note, gettext("Your choices are not the ones that email "
                                    "listed, so your answer was not played. What changed and "
                                    "your choices now are below; answer this email to play.")],
                       changed_since=claims.version)
    choice = _chosen(inbound, game, user, now, command, choices)
    _play(inbound, game, user, now, choice, stale)


def _switch_forced_moves(inbound, game, user, now, *, on: bool) -> None:
    """`auto on` / `auto off`: forced moves play themselves in this game, or wait for me."""
    from games.services import autoplay

    autoplay.auto_switch(game_id=game.pk, user=user, on=on)
    headline = (gettext("Forced moves now play themselves in this game") if on
                else gettext("Forced moves now wait for you in this game"))
    explanation = ([gettext("A decision with only one possible choice is made for you at once and "
                    "listed in your next email. Reply \"auto off\" to be asked again.")] if on
                   else [gettext("You will be asked even when there is only one choice. Reply "
                         "\"auto on\" to let such moves play themselves again.")])
    _answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="auto",
                   headline=headline, explanation=explanation)


def _quote(line: str, advice: str) -> str:
    if line:
        return gettext('Your answer began with "%(line)s". %(advice)s') % {
            "line": line[:80], "advice": advice}
    return gettext("Your answer had no text of its own (only quoted text or a signature). "
                   "%(advice)s") % {"advice": advice}


def _same_choices_then(game, user, version: int, choices_now: list[Choice]) -> bool:
    """An answer to an older email still means the same move when the player's choices then and
    now are exactly the same (typical of simultaneous picks: others' secret moves change the
    version but not your options)."""
    from games import selectors
    from notifications.inbound.commands import choices_from

    legal_then = selectors.legal_actions_at_version(game, user, version)
    if legal_then is None:
        return False
    then = [(c.action, c.description) for c in choices_from(legal_then, seat_names(game))]
    return then == [(c.action, c.description) for c in choices_now]


def _answer_choices(inbound, game, user, now, command: Command, claims, choices, stale,
                    stale_note) -> None:
    if not choices:
        _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                       reason="not_your_turn", headline=gettext("It is not your turn"),
                       explanation=[*stale_note, gettext("You have no choices to make now.")],
                       changed_since=claims.version)
    if command.kind == "find":
        selected = matching(choices, command.words, exact=False)
        phrase = " ".join(command.words)
        if selected:
            _answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED,
                           reason="find", headline=gettext('Choices matching "%(phrase)s"')
                                                       % {"phrase": phrase},
                           explanation=stale_note, selected=selected, filter_text=phrase)
        _answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="find",
                       headline=gettext('No choice matches "%(phrase)s"') % {"phrase": phrase},
                       explanation=[*stale_note, gettext("Here are all your choices.")])
    offset = 0
    if command.kind == "more" and not stale:
        offset = claims.offset + max(settings.EMAIL_PLAY_CHOICES_SHOWN, 1)
        if offset >= len(choices):
            offset = 0
    _answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason=command.kind,
                   headline=gettext("More choices") if offset else gettext("Your choices"),
                   explanation=stale_note, offset=offset)


def _chosen(inbound, game, user, now, command: Command, choices: list[Choice]) -> Choice:
    if command.kind in ("choose", "ambiguous"):
        reading = read_numbered(command, choices)
        if reading.choice is not None:
            return reading.choice
        if reading.illegal:
            _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                           reason="illegal_choice",
                           headline=gettext("There is no choice %(command_number)s")
                                        % {"command_number": command.number},
                           explanation=[gettext(
                               "Nothing was played. Your choices are numbered 1 to "
                                        "%(len)s.") % {"len": len(choices)}])
        if reading.unmatched:
            _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                           reason="unreadable", headline=gettext("We could not read your answer"),
                           explanation=[_quote(command.text, gettext(
                               "No choice matches those words; "
                                               "answer with the number of your choice."))])
        _ask_which(inbound, game, user, now, command, list(reading.candidates), choices)
    if command.kind == "pass":
        found = pass_choices(choices)
        if len(found) == 1:
            return found[0]
        if not found:
            _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                           reason="illegal_choice", headline=gettext("You cannot pass now"),
                           explanation=[gettext(
                               "Nothing was played. Choose one of the choices below.")])
        _answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="find",
                       headline=gettext("Several ways to pass"), selected=found, filter_text="pass",
                       explanation=[gettext("Answer with the number of the one you mean.")])
    # "discard 3": the choice that does that to what choice 3 is about (its card, its space).
    same_object = verb_on_choice(choices, command.words)
    if len(same_object) == 1:
        return same_object[0]
    # A few words ("take wood"): one choice holding them all as whole words is played;
    # several, or only partial matches, are listed for the player to pick by number.
    exact = same_object or matching(choices, command.words, exact=True)
    if len(exact) == 1:
        return exact[0]
    phrase = " ".join(command.words)
    candidates = exact or matching(choices, command.words, exact=False)
    if candidates:
        _answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="find",
                       headline=gettext('Which one? Choices matching "%(phrase)s"')
                                    % {"phrase": phrase},
                       explanation=[gettext("Nothing was played yet: answer with the number of the "
                                    "choice you mean.")],
                       selected=candidates, filter_text=phrase)
    _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED, reason="unreadable",
                   headline=gettext("We could not read your answer"),
                   explanation=[_quote(command.text, gettext(
                       "No choice matches those words; answer with "
                                "the number of your choice."))])
    raise AssertionError("unreachable")


def _ask_which(inbound, game, user, now, command: Command, candidates: list[Choice],
               choices: list[Choice]) -> None:
    """An answer that could mean more than one choice: a short question listing the
    candidates (all choices when none of its numbers is one), and nothing played."""
    named = " or ".join(str(choice.number) for choice in candidates) or " or ".join(
        str(number) for number in command.numbers)
    explanation = [_quote(command.text, gettext("Nothing was played: that could mean more than one "
                          "choice. Answer with just the number of the one you mean."))]
    if candidates:
        _answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED,
                       reason="ambiguous", headline=gettext("Which one did you mean: %(named)s?")
                                                        % {"named": named},
                       explanation=explanation, selected=candidates, filter_text=named)
    explanation.append(gettext("Your choices are numbered 1 to %(count)s.")
                       % {"count": localized_digits(len(choices))})
    _answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="ambiguous",
                   headline=gettext("Which one did you mean?"), explanation=explanation)


def _play(inbound, game, user, now, choice: Choice, stale: bool) -> None:
    from games import services as game_services
    from games.exceptions import GameNotRunning, IllegalMove, NotAllowed, StaleVersion
    from games.models import ActionSource
    from games.presentation.texts import message_text

    version = game.version
    try:
        result = game_services.game_action_submit(
            game_id=game.pk, user=user, action=choice.action, expected_version=version,
            idempotency_key=f"email:{hashlib.sha256(inbound.message_id.encode()).hexdigest()}",
            source=ActionSource.EMAIL, now=now,
        )
    except StaleVersion:
        _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                       reason="stale_version", headline=gettext(
                           "The game moved on; nothing was played"),
                       explanation=[gettext(
                           "Another move arrived just before yours. What changed and "
                                    "your choices now are below.")], changed_since=version)
    except IllegalMove as error:
        _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                       reason="illegal_choice", headline=gettext("That move is not allowed"),
                       explanation=[error.message, gettext("Nothing was played.")])
    except GameNotRunning as error:
        _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                       reason="game_over", headline=error.message,
                       explanation=[gettext("Nothing was played.")])
    except NotAllowed as error:
        _answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                       reason="not_allowed", headline=gettext("You cannot move in this game now"),
                       explanation=[error.message, gettext("Nothing was played.")])
    inbound.action_sequence = result.outcome["sequence"]
    note = ([gettext("Other players moved meanwhile, but your choices were exactly the ones "
                     "that email listed, so your move stands.")] if stale else [])
    played = message_text(game.engine, result.text, names=seat_names(game)) \
        if result.text is not None else ""
    _answer_player(inbound, game, user, now, status=InboundStatus.APPLIED, reason="move",
                   headline=gettext("Played: %(played)s") % {"played": played}, explanation=note,
                   changed_since=version)


# ---- repeats ------------------------------------------------------------------------------------


def _repeated(message_id: str, now: datetime) -> InboundMessage:
    """The same Message-ID again: nothing is played twice. The first repeat of a message that
    got an answer is told so (once), so a player who resent it knows where it stands."""
    original = InboundMessage.objects.select_for_update().get(message_id=message_id)
    original.duplicates += 1
    original.save(update_fields=["duplicates"])
    first_reply = original.replies.order_by("created_at").first()
    if (original.duplicates == 1 and first_reply is not None
            and _refusal_blocked(first_reply.to, now) != "unconfirmed"):
        # Told in the player's language, as the first answer was (a stranger: the site's).
        with translation.override(original.user.language if original.user_id
                                  and original.user.language else settings.LANGUAGE_CODE):
            when = localized_digits(date_format(timezone.localtime(original.received_at),
                                                "DATETIME_FORMAT"))
            headline = gettext("We already had this email")
            explanation = gettext("This message arrived before, on %(when)s, and was handled "
                                  "then (%(status)s). Nothing was changed this time.") % {
                "when": when, "status": original.get_status_display().lower()}
        context = {"status": "duplicate", "reason": "duplicate", "headline": headline,
                   "explanation": [explanation],
                   "stranger": True, "site_url": settings.SITE_URL}
        _send(original, to=first_reply.to, context=context)
    return original
