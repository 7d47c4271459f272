"""Webhooks: a player's notifications of the kinds they chose, or one game's public events (for
its host), POSTed as signed JSON to their address (a program, a Discord or Slack channel)."""

# A delivery row is written with the notification (or the game's change), in the same
# transaction, with the exact body: a player's webhook says what the notification already says to
# that player (never more than the player's own notification list); a game's webhook says what a
# spectator of the game may see (who is awaited and until when, the result, public chat), never
# anything of the hidden state. Celery sends it after commit and retries with exponential backoff;
# a webhook whose deliveries keep failing is turned off and whoever registered it is told.
#
# Every body is signed: `Turnpost-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
# "<t>.<body>" with the webhook's secret>` (docs/webhooks.md shows how to check it).

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.dispatch import Signal
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_lazy

from config import outbound
from config.celery import app, publish_after_commit
from games.presentation.summaries.common import comma
from games.services.moderation import MODERATE_GAMES
from notifications.models import (
    Notification,
    NotificationKind,
    Webhook,
    WebhookDelivery,
    WebhookFormat,
    WebhookStatus,
)
from notifications.rendering import (
    absolute,
    deadline_suffix,
    notice,
    recipient_language,
    sentence,
)

#: Kinds a webhook may choose (the notice about webhooks themselves is not sent to them).
WEBHOOK_KINDS = [kind for kind in NotificationKind if kind != NotificationKind.WEBHOOK_DISABLED]
SIGNATURE_HEADER = "Turnpost-Signature"
#: A game's public events its webhooks may choose (game webhooks, see `queue_for_game`).
GAME_WEBHOOK_KINDS = {
    "turn": gettext_lazy("Whose turn it is, with the deadline"),
    "game_started": gettext_lazy("The game started"),
    "game_finished": gettext_lazy("The game finished, with the result"),
    "chat": gettext_lazy("Chat messages (only in games open to spectators)"),
}
#: At most this many webhooks per player, and per game.
MAX_WEBHOOKS = 10
MAX_GAME_WEBHOOKS = 5
CLAIM_LEASE = timedelta(minutes=2)

#: Sent (in the transaction) when a webhook is turned off for failing: receivers.py tells its
#: owner.
webhook_disabled = Signal()


class WebhookRefused(ValueError):
    """An address or choice that cannot be a webhook; the message says why."""


class WebhookFailed(Exception):
    """One attempt failed; the task retries later."""


# ---- addresses ----------------------------------------------------------------------------------


def check_target(url: str) -> None:
    """HTTPS to a public address only: never our own machine or network, whatever the name
    resolves to (config/outbound.py's rules, which each delivery applies again).
    ALLOW_LOCAL_DELIVERY_TARGETS lifts this for development and tests."""
    try:
        outbound.target(url)
    except outbound.OutboundRefused as refused:
        raise WebhookRefused(refusal_message(refused)) from None


def refusal_message(refused: outbound.OutboundRefused) -> str:
    if refused.reason == "unresolvable":
        return gettext("%(parts_hostname)s cannot be resolved.") % {
            "parts_hostname": refused.host}
    if refused.reason == "internal":
        return gettext("%(parts_hostname)s points at an internal address (%(address)s); "
                       "webhooks only go to public addresses.") % {
            "parts_hostname": refused.host, "address": refused.address}
    return gettext("A webhook address must be an https:// URL.")


# ---- registering --------------------------------------------------------------------------------


def can_host(user, game) -> bool:
    """Who may add webhooks to a game and manage them: its creator and moderators (who may
    act on any game)."""
    return user.is_authenticated and user.is_active and (
        game.created_by_id == user.pk or user.has_perm(MODERATE_GAMES))


def webhook_create(*, user, url: str, kinds: list[str], format: str = WebhookFormat.JSON,
                   game=None) -> Webhook:
    """A player's webhook, or with `game` one of that game's webhooks (the caller checked
    `can_host`)."""
    url = url.strip()
    if format not in WebhookFormat.values:
        raise WebhookRefused(gettext("Unknown format %(format)s: json, discord or slack.")
                             % {"format": f"{format!r}"})
    allowed = set(GAME_WEBHOOK_KINDS) if game is not None else {kind.value
                                                               for kind in WEBHOOK_KINDS}
    unknown = sorted(set(kinds) - allowed)
    if unknown or not kinds:
        message = (gettext("Choose at least one kind of event.") if game is not None
                   else gettext("Choose at least one kind of notification."))
        if unknown:
            message += " " + gettext("Unknown: %(kinds)s.") % {"kinds": ", ".join(unknown)}
        raise WebhookRefused(message)
    if len(url) > 500:
        raise WebhookRefused(gettext("The address is too long (500 characters at most)."))
    check_target(url)
    if game is None and Webhook.objects.filter(user=user, game=None).count() >= MAX_WEBHOOKS:
        raise WebhookRefused(gettext(
            "You have %(max_webhooks)s webhooks already; delete one first.")
            % {"max_webhooks": MAX_WEBHOOKS})
    if game is not None and Webhook.objects.filter(game=game).count() >= MAX_GAME_WEBHOOKS:
        raise WebhookRefused(gettext(
            "This game has %(max_webhooks)s webhooks already; delete one first.")
            % {"max_webhooks": MAX_GAME_WEBHOOKS})
    return Webhook.objects.create(user=user, game=game, url=url, format=format,
                                  kinds=sorted(set(kinds)), secret=secrets.token_hex(32))


def webhook_rotate_secret(*, webhook: Webhook) -> str:
    """A new signing secret, in force at once: deliveries (retries too) are signed when sent, so
    the old secret signs nothing more. Whoever holds the old one learns nothing from the new."""
    webhook.secret = secrets.token_hex(32)
    webhook.save(update_fields=["secret"])
    return webhook.secret


def webhook_enable(*, webhook: Webhook) -> None:
    webhook.active, webhook.consecutive_failures, webhook.disabled_reason = True, 0, ""
    webhook.save(update_fields=["active", "consecutive_failures", "disabled_reason"])


# ---- what is sent -------------------------------------------------------------------------------


def _formatted(webhook: Webhook, text: str, json_body: dict) -> dict:
    """The body in the webhook's format: the JSON body for programs, or the one line as a
    Discord or Slack channel wants it."""
    if webhook.format == WebhookFormat.DISCORD:
        return {"content": text, "allowed_mentions": {"parse": []}}
    if webhook.format == WebhookFormat.SLACK:
        return {"text": text}
    return json_body


def payload_for(notification: Notification, webhook: Webhook) -> dict:
    body = notice(notification)
    game_name = body.get("game", {}).get("name", "")
    if "game" in body:
        body["game"]["url"] = absolute(reverse("games:detail", args=[notification.game_id]))
    with translation.override(recipient_language(webhook.user)):
        text = sentence(notification, game_name)
    return _formatted(webhook, text, {"event": notification.kind, "text": text,
                                      "notification": body,
                                      "player": notification.user.public_name})


def signature(secret: str, timestamp: int, body: bytes) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def _queue(webhook: Webhook, kind: str, payload: dict) -> WebhookDelivery:
    """One delivery row (in the caller's transaction), sent by a worker after commit (the task
    named, as the tasks call this module)."""
    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    delivery = WebhookDelivery.objects.create(webhook=webhook, kind=kind, body=body,
                                              next_attempt_at=timezone.now())
    publish_after_commit(app.tasks["notifications.tasks.deliver_webhook"], delivery.pk)
    return delivery


#: The kind of a delivery made by asking for it (a test of the address), not by an event.
PING = "ping"


def webhook_ping(*, webhook: Webhook) -> WebhookDelivery:
    """A `ping` delivery to `webhook`, sent by a worker like any other (GitHub's ping): its
    owner sees that the address answers and that the signature checks out."""
    with translation.override(recipient_language(webhook.user)):
        text = gettext("Ping from Turnpost: this webhook receives what you chose.")
    return _queue(webhook, PING, _formatted(webhook, text, {
        "event": PING, "text": text,
        "webhook": {"id": webhook.pk, "kinds": webhook.kinds, "format": webhook.format,
                    "game": webhook.game_id}}))


def delivery_redeliver(*, delivery: WebhookDelivery) -> WebhookDelivery:
    """The same body once more, as a new delivery (its own id and attempts), e.g. after the
    receiver was down longer than the retries lasted."""
    return _queue(delivery.webhook, delivery.kind, json.loads(delivery.body))


def queue_for_many(notifications: list[Notification]) -> int:
    """Writes one delivery per webhook of each notification's player that chose its kind (in
    the caller's transaction; one read of the players' webhooks) and queues each after commit.
    Returns how many."""
    hooks_of: dict[int, list[Webhook]] = {}
    for hook in Webhook.objects.filter(user_id__in={n.user_id for n in notifications},
                                       game=None, active=True):
        hooks_of.setdefault(hook.user_id, []).append(hook)
    queued = 0
    for notification in notifications:
        for webhook in hooks_of.get(notification.user_id, []):
            if notification.kind in webhook.kinds:
                _queue(webhook, notification.kind, payload_for(notification, webhook))
                queued += 1
    return queued


# ---- a game's webhooks: its public events -------------------------------------------------------


def _names(names: list[str]) -> str:
    """"Ann, Bo and Cy" in the active language."""
    if len(names) == 1:
        return names[0]
    return gettext("%(names)s and %(last)s") % {"names": comma().join(names[:-1]),
                                                "last": names[-1]}


def _game_sentence(kind: str, facts: dict, zone) -> str:
    """"Alice's turn in 7 Wonders #12 — deadline Tue 18:00", in the active language and the
    registering player's time zone."""
    title = facts["game"]["name"]
    awaiting = facts.get("awaiting", [])
    names = [seat["player"] for seat in awaiting]
    deadlines = [seat["deadline_at"] for seat in awaiting if seat["deadline_at"]]
    deadline = deadline_suffix(min(deadlines), zone) if deadlines else ""
    values = {"game": title, "deadline": deadline, "names": _names(names) if names else ""}
    if kind == "turn":
        if len(names) == 1:
            return gettext("%(name)s's turn in %(game)s%(deadline)s") % {**values,
                                                                          "name": names[0]}
        return gettext("%(names)s to move in %(game)s%(deadline)s") % values
    if kind == "game_started":
        if names:
            return gettext("%(game)s has started: %(names)s to move%(deadline)s") % values
        return gettext("%(game_name)s has started") % {"game_name": title}
    if kind == "game_finished":
        winners = [row["player"] for row in facts.get("standings", []) if row["winner"]]
        if winners:
            return gettext("%(game)s is over: %(names)s won") % {**values,
                                                                 "names": _names(winners)}
        return gettext("%(game_name)s is over") % {"game_name": title}
    chat = facts["chat"]
    return gettext("%(author)s in %(game)s: %(text)s") % {
        "author": chat["author"], "game": title, "text": chat["text"][:200]}


def _game_facts(game, kind: str, chat_message=None) -> dict:
    """What a spectator may know about the game now: never its state or view (hands, pending
    picks, the seed), only seats, names, deadlines, the result once over, public chat."""
    seats = [seat for seat in game.seats.select_related("user").order_by("number")
             if seat.number is not None]
    facts = {"game": {"id": game.pk, "name": game.title, "engine": game.engine,
                      "status": game.status, "version": game.version,
                      "url": absolute(reverse("games:detail", args=[game.pk]))},
             "awaiting": [{"seat": seat.number, "player": seat.player_name,
                           "deadline_at": seat.deadline_at.isoformat()}
                          for seat in seats if seat.deadline_at is not None]}
    if kind == "game_finished" and game.result:
        winners = set(game.result.get("winners", []))
        scores = game.result.get("scores", [])
        facts["standings"] = [{"seat": seat.number, "player": seat.player_name,
                               "score": scores[seat.number] if seat.number < len(scores) else None,
                               "winner": seat.number in winners} for seat in seats]
    if chat_message is not None:
        facts["chat"] = {"id": chat_message.pk, "author": chat_message.author.public_name,
                         "text": chat_message.body,
                         "created_at": chat_message.created_at.isoformat()}
    return facts


def queue_for_game(*, game, kind: str, seats: list[int] | None = None,
                   chat_message=None) -> int:
    """One delivery per active webhook of `game` that chose `kind` (a GAME_WEBHOOK_KINDS key),
    in the caller's transaction. A turn is told when a person is newly awaited (bots answer at
    once, so their turns would only be noise); chat only where spectators may read it.
    Returns how many."""
    if kind == "chat" and not game.allow_spectators:
        return 0
    webhooks = [hook for hook in Webhook.objects.filter(game_id=game.pk, active=True)
                .select_related("user") if kind in hook.kinds]
    if not webhooks:
        return 0
    if kind == "turn" and not game.seats.filter(number__in=seats or [], is_bot=False,
                                                user__isnull=False).exists():
        return 0
    facts = _game_facts(game, kind, chat_message)
    for webhook in webhooks:
        with translation.override(recipient_language(webhook.user)):
            # The game named in the registering player's language, in the line and the facts.
            read = {**facts, "game": {**facts["game"], "name": game.title}}
            text = _game_sentence(kind, read, webhook.user.zone)
        _queue(webhook, kind, _formatted(webhook, text, {"event": kind, "text": text, **read}))
    return len(webhooks)


# ---- delivering ---------------------------------------------------------------------------------


def retry_delay(attempt: int) -> float:
    """Seconds before the next attempt: WEBHOOK_RETRY_BASE_SECONDS doubled per attempt made,
    at most an hour, with a little jitter so that failing receivers are not hit in step."""
    delay = min(settings.WEBHOOK_RETRY_BASE_SECONDS * 2 ** (attempt - 1), 3600)
    return delay * random.uniform(1.0, 1.1)


def deliver(*, delivery_id: int, now: datetime | None = None) -> str:
    """One attempt. Returns "delivered", "failed" (for good) or "nothing to do"; raises
    WebhookFailed with the delay before the next attempt."""
    now = now or timezone.now()
    with transaction.atomic():
        delivery = (WebhookDelivery.objects.select_for_update(skip_locked=True, of=("self",))
                    .select_related("webhook").filter(pk=delivery_id).first())
        if (delivery is None or delivery.status != WebhookStatus.PENDING
                or (delivery.claimed_until and delivery.claimed_until > now)):
            return "nothing to do"
        if not delivery.webhook.active:
            delivery.status, delivery.last_error = WebhookStatus.FAILED, "The webhook is off."
            delivery.save(update_fields=["status", "last_error"])
            return "failed"
        delivery.attempts += 1
        delivery.claimed_until = now + CLAIM_LEASE
        delivery.save(update_fields=["attempts", "claimed_until"])
    webhook = delivery.webhook
    body = delivery.body.encode()
    error, status = None, None
    try:
        answer = outbound.post(
            webhook.url, body, timeout=settings.WEBHOOK_TIMEOUT,
            headers={"Content-Type": "application/json", "User-Agent": "Turnpost-Webhooks/1",
                     SIGNATURE_HEADER: signature(webhook.secret, int(time.time()), body),
                     "Turnpost-Event": delivery.kind, "Turnpost-Delivery": str(delivery.pk)})
        status = answer.status
        if not answer.ok:
            error = answer.status_line  # never the body: the log is read by whoever registered
    except outbound.OutboundRefused as refused:
        error = refusal_message(refused)
    except outbound.OutboundFailed as failed:
        error = str(failed)
    return _record(delivery, error, status, now)


def _record(delivery: WebhookDelivery, error: str | None, status: int | None,
            now: datetime) -> str:
    delivery.claimed_until = None
    delivery.response_status = status
    webhook = delivery.webhook
    if error is None:
        delivery.status, delivery.delivered_at, delivery.last_error = (
            WebhookStatus.DELIVERED, now, "")
        delivery.save()
        Webhook.objects.filter(pk=webhook.pk).update(consecutive_failures=0)
        return "delivered"
    delivery.last_error = error
    if delivery.attempts < settings.WEBHOOK_MAX_ATTEMPTS:
        delay = retry_delay(delivery.attempts)
        delivery.next_attempt_at = now + timedelta(seconds=delay)
        delivery.save()
        raise WebhookFailed(delay)
    delivery.status = WebhookStatus.FAILED
    delivery.save()
    with transaction.atomic():
        webhook = Webhook.objects.select_for_update().get(pk=webhook.pk)
        webhook.consecutive_failures += 1
        fields = ["consecutive_failures"]
        if webhook.active and webhook.consecutive_failures >= settings.WEBHOOK_DISABLE_AFTER:
            webhook.active = False
            webhook.disabled_reason = error
            fields += ["active", "disabled_reason"]
            webhook_disabled.send(sender=Webhook, webhook=webhook, error=error)
        webhook.save(update_fields=fields)
    return "failed"


def pending_ids(now: datetime, limit: int = 500) -> list[int]:
    """Deliveries due again whose retry task was lost (a worker died, the broker was down)."""
    return list(WebhookDelivery.objects.filter(
        status=WebhookStatus.PENDING, next_attempt_at__lte=now - timedelta(minutes=5))
        .order_by("next_attempt_at").values_list("pk", flat=True)[:limit])
