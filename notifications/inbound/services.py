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
from contextlib import suppress
from datetime import datetime
from email.parser import BytesParser
from email.policy import default as default_policy
from email.utils import parseaddr

from anymail.inbound import AnymailInboundMessage
from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext

from accounts.templatetags.language_tags import localized_digits
from notifications.inbound import context as play
from notifications.inbound import tokens, trust
from notifications.inbound.answers import (
    Done,
    answer_player,
    drop,
    finish,
    refusal_blocked,
    refuse_stranger,
    send,
)
from notifications.inbound.choosing import (
    answer_choices,
    chosen,
    play_choice,
    quote,
    same_choices_then,
    switch_forced_moves,
)
from notifications.inbound.commands import interpret
from notifications.inbound.lobby import answer_table_command
from notifications.inbound.parsing import automatic_reason, from_address, reply_text
from notifications.models import InboundMessage, InboundStatus

logger = logging.getLogger(__name__)

#: What is kept of a message refused for its size (enough to see its headers).
_KEPT_OF_TOO_LARGE = 64 * 1024


def _transient_errors() -> tuple[type[BaseException], ...]:
    """Faults of our own services that pass: the caller should retry (webhook 500, exit 75)."""
    from kombu.exceptions import OperationalError as BrokerError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (OperationalError, InterfaceError, BrokerError, RedisConnectionError,
            RedisTimeoutError, ConnectionError, TimeoutError)


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
        with suppress(Done), translation.override(settings.LANGUAGE_CODE):
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
        with suppress(Done):
            refuse_stranger(inbound, "too_large",
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


# ---- the decision -------------------------------------------------------------------------------


def _process(inbound: InboundMessage, message: AnymailInboundMessage,
             envelope_recipient: str | None, provider_verdicts: list[trust.Verdict], raw: bytes,
             now: datetime) -> None:
    from accounts.models import User
    from games.models import Game

    malformed = trust.malformation(message, raw)
    if malformed:
        refuse_stranger(inbound, "malformed",
                        gettext(
                            "Your email could not be read safely (%(malformed)s), so nothing was "
                        "played. Answer from your usual mail program with the number of your "
                        "choice, or play on the website.") % {"malformed": malformed}, now)
    automatic = automatic_reason(message, own_addresses=_own_addresses())
    if automatic:
        drop(inbound, automatic)
    sender = trust.sender_of(message)
    if not sender.address:
        # Nobody to answer: the one address we could trust is missing.
        finish(inbound, InboundStatus.REFUSED, "bad_sender",
               f"The From header is not one plain address ({sender.problem}); not answered.")
    verdicts = trust.header_verdicts(message) + list(provider_verdicts)
    failure = trust.authentication_failure(verdicts)
    if failure:
        refuse_stranger(inbound, "auth_failed",
                        gettext("Your email failed the sender checks of the mail system "
                                "(%(failure)s), so we cannot tell it came from you and nothing "
                                "was played. If you sent it, send it again directly (not "
                                "forwarded), or play on the website.") % {"failure": failure},
                        now)
    if (settings.EMAIL_PLAY_REQUIRE_AUTHENTICATION
            and trust.authentication_pass(verdicts, sender.address) is None):
        # Nobody vouched for the From: a leaked reply address alone must not move for a player.
        refuse_stranger(inbound, "unauthenticated",
                        gettext("Your email did not pass the sender checks of the mail system "
                                "(SPF, DKIM or DMARC), so we cannot tell it came from you and "
                                "nothing was played. Answer from the mail program of your "
                                "Turnpost address, or play on the website."), now)
    text = reply_text(message, play_address=tokens.play_address())
    inbound.text = "\n".join(text.lines)[:5000]
    if not tokens.play_address():
        refuse_stranger(inbound, "disabled",
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
        refuse_stranger(inbound, "unknown_token",
                        gettext("This address only takes answers to Turnpost game emails, and the "
                        "address you wrote to is not one we gave out (or it was changed). "
                        "Answer the latest email about your game, or play on the website."), now)
    except tokens.ExpiredToken as error:
        claims, expired = error.claims, True
    user = User.objects.filter(pk=claims.user_id, is_active=True).first()
    game = Game.objects.filter(pk=claims.game_id).first()
    seat = play.seat_for(game, user) if user and game else None
    # Lobby emails go to players not seated yet (an invitation): they answer with a command.
    lobby = user is not None and game is not None and game.status == "open"
    if seat is None and not lobby:
        refuse_stranger(inbound, "unknown_token",
                        gettext("The game this email was about no longer exists, or you no longer "
                        "have a seat in it."), now)
    inbound.user, inbound.game, inbound.token_version = user, game, claims.version
    if inbound.sender not in play.confirmed_addresses(user):
        refuse_stranger(inbound, "wrong_sender",
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
        answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                      reason="expired_token",
                      headline=gettext("That email is too old to play from"),
                      explanation=[gettext("Emails can be answered for %(days)s days. Nothing "
                                           "was played; here is the game now.")
                                   % {"days": settings.EMAIL_PLAY_TOKEN_MAX_AGE_DAYS}],
                      changed_since=claims.version)
    if lobby:
        answer_table_command(inbound, game, user, now, text.first_line)
    if game.status != "active":
        if command.kind in ("status", "help"):
            answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED,
                          reason=command.kind, headline=gettext("This game is over"))
        answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                      reason="game_over", headline=gettext("This game is over"),
                      explanation=[gettext("Nothing was played. The final result is below.")],
                      changed_since=claims.version)
    restriction = play.restriction_for(user)
    if restriction and command.kind not in ("status", "help"):
        # games.services refuses their moves (_require_unrestricted) on every channel; saying
        # so here, before anything else, spares them choices they cannot play.
        answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                      reason="not_allowed", headline=gettext("You cannot move in this game now"),
                      explanation=[restriction, gettext("Nothing was played.")])
    if command.kind == "auto":
        switch_forced_moves(inbound, game, user, now, on=command.words[0] == "on")
    stale = claims.version != game.version
    stale_note = ([gettext("The game has moved on since that email (then version %(then)s, now "
                           "%(now)s).") % {"then": claims.version, "now": game.version}]
                  if stale else [])
    if command.kind == "help":
        answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="help",
                      headline=gettext("How to play by email"), explanation=stale_note)
    if command.kind == "status":
        answer_player(inbound, game, user, now, status=InboundStatus.ANSWERED, reason="status",
                      headline=(gettext("Your move") if play.is_their_turn(game, user)
                                else gettext("Status")),
                      explanation=stale_note, changed_since=claims.version if stale else None)
    choices = play.current_choices(game, user)
    if command.kind in ("more", "list", "find"):
        answer_choices(inbound, game, user, now, command, claims, choices, stale, stale_note)
    if seat.is_bot:
        answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                      reason="not_allowed", headline=gettext("A bot is playing your seat"),
                      explanation=[gettext(
                          "Nothing was played. Take your seat back on the website "
                                   "to play again.")])
    if not choices:
        answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                      reason="not_your_turn", headline=gettext("It is not your turn"),
                      explanation=[*stale_note, gettext(
                          "Nothing was played. We will email you when "
                                   "it is your move.")], changed_since=claims.version)
    if command.kind == "unreadable":
        answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                      reason="unreadable", headline=gettext("We could not read your answer"),
                      explanation=[*stale_note, quote(text.first_line, gettext(
                         "The first line of "
                                  "your answer should be the number of your choice."))])
    if stale and not same_choices_then(game, user, claims.version, choices):
        answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                      reason="stale_version", headline=gettext(
                          "The game moved on; nothing was played"),
                      explanation=[*stale_note, gettext("Your choices are not the ones that email "
                                   "listed, so your answer was not played. What changed and "
                                   "your choices now are below; answer this email to play.")],
                      changed_since=claims.version)
    choice = chosen(inbound, game, user, now, command, choices)
    play_choice(inbound, game, user, now, choice, stale)


# ---- repeats ------------------------------------------------------------------------------------


def _repeated(message_id: str, now: datetime) -> InboundMessage:
    """The same Message-ID again: nothing is played twice. The first repeat of a message that
    got an answer is told so (once), so a player who resent it knows where it stands."""
    original = InboundMessage.objects.select_for_update().get(message_id=message_id)
    original.duplicates += 1
    original.save(update_fields=["duplicates"])
    first_reply = original.replies.order_by("created_at").first()
    if (original.duplicates == 1 and first_reply is not None
            and refusal_blocked(first_reply.to, now) != "unconfirmed"):
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
        send(original, to=first_reply.to, context=context)
    return original
