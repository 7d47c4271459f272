"""Turns game events (and a webhook turned off) into notifications, inside the transaction of
the change."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.db.models import Exists, OuterRef
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone

from games.live.events import game_event, player_event, seats_timed_out
from games.models import ChatMessage, Game, Seat
from notifications.channels import webhooks
from notifications.models import NotificationKind, Webhook
from notifications.rendering import absolute
from notifications.services import Notice, notify, notify_many

#: Game events that a game's own webhooks are told about (GAME_WEBHOOK_KINDS).
GAME_WEBHOOK_EVENTS = {"turn": "turn", "started": "game_started", "finished": "game_finished"}


def _human_seats(game: Game, numbers: list[int]) -> list[Seat]:
    return [
        seat for seat in game.seats.select_related("user").filter(number__in=numbers)
        if seat.user_id is not None and not seat.is_bot
    ]


def _your_turn(game: Game, seat: Seat, now) -> None:
    # At most one "your turn" per game until the player acts or opens the game.
    if seat.turn_notified_at is not None:
        return
    seat.turn_notified_at = now
    seat.save(update_fields=["turn_notified_at"])
    notify(user=seat.user, kind=NotificationKind.YOUR_TURN, game=game, seat_number=seat.number,
           context={"deadline_at": seat.deadline_at.isoformat() if seat.deadline_at else None},
           now=now)


@receiver(game_event, dispatch_uid="notifications.game_event")
def on_game_event(sender, *, game_id: int, kind: str, seats: list[int], **extra) -> None:
    now = timezone.now()
    # Whether the game has webhooks comes with the game row: no query of its own on each move.
    game = Game.objects.annotate(has_webhooks=Exists(
        Webhook.objects.filter(game_id=OuterRef("pk"), active=True))).get(pk=game_id)
    if kind in GAME_WEBHOOK_EVENTS and game.has_webhooks:
        webhooks.queue_for_game(game=game, kind=GAME_WEBHOOK_EVENTS[kind], seats=seats)
    if kind == "started":
        awaiting = set(extra.get("awaiting", []))
        for seat in _human_seats(game, seats):
            if seat.number in awaiting:
                seat.turn_notified_at = now
                seat.save(update_fields=["turn_notified_at"])
            notify(user=seat.user, kind=NotificationKind.GAME_STARTED, game=game,
                   seat_number=seat.number, context={"your_move": seat.number in awaiting},
                   now=now)
    elif kind == "turn":
        for seat in _human_seats(game, seats):
            _your_turn(game, seat, now)
    elif kind == "reminder":
        for seat in _human_seats(game, seats):
            notify(user=seat.user, kind=NotificationKind.REMINDER, game=game,
                   seat_number=seat.number, context={"deadline_at": extra["deadline_at"]},
                   now=now)
    elif kind == "replaced_by_bot":
        notify_many([_timed_out_notice(game, seat, replaced=True,
                                       timeouts=extra.get("timeouts", 0))
                     for seat in game.seats.select_related("user").filter(
                         number__in=seats, user__isnull=False)], now=now)
    elif kind == "finished":
        for seat in _human_seats(game, seats):
            notify(user=seat.user, kind=NotificationKind.GAME_FINISHED, game=game,
                   seat_number=seat.number, context={}, now=now)
    elif kind == "mention":
        from accounts.models import User
        from games.models import ChatMessage

        message = ChatMessage.objects.select_related("author").get(pk=extra["message_id"])
        for user in User.objects.filter(pk__in=extra["user_ids"]):
            notify(user=user, kind=NotificationKind.MENTION, game=game,
                   context={"author": message.author.public_name, "text": message.body[:300]},
                   now=now)
    elif kind == "invitation":
        from accounts.models import User

        invitee = User.objects.get(pk=extra["invitee_id"])
        inviter = User.objects.get(pk=extra["inviter_id"])
        context = {"inviter": inviter.public_name}
        if extra.get("rematch_of"):
            context["rematch_of"] = extra["rematch_of"]
        notify(user=invitee, kind=NotificationKind.INVITATION, game=game, context=context,
               now=now)
    elif kind == "invitation_answered":
        from accounts.models import User

        invitee = User.objects.get(pk=extra["invitee_id"])
        notify(user=User.objects.get(pk=extra["inviter_id"]), kind=NotificationKind.GAME_LOBBY,
               game=game, now=now,
               context={"event": "accepted" if extra["accepted"] else "declined",
                        "player": invitee.public_name})
    elif kind == "game_full":
        from accounts.models import User

        notify(user=User.objects.get(pk=extra["creator_id"]), kind=NotificationKind.GAME_LOBBY,
               game=game, context={"event": "full"}, now=now)


def _timed_out_notice(game: Game, seat: Seat, *, replaced: bool, timeouts: int) -> Notice:
    return Notice(user=seat.user, kind=NotificationKind.TIMED_OUT, game=game,
                  seat_number=seat.number,
                  context={"replaced": replaced, "timeouts": timeouts,
                           "limit": game.max_consecutive_timeouts})


@receiver(seats_timed_out, dispatch_uid="notifications.seats_timed_out")
def on_seats_timed_out(sender, *, timeouts: list[dict], **extra) -> None:
    """The sweep's batch of timeouts: one notice per player, written together."""
    notify_many([_timed_out_notice(item["game"], item["seat"], replaced=item["replaced"],
                                   timeouts=item["timeouts"])
                 for item in timeouts if item["seat"].user_id is not None])


@receiver(post_save, sender=ChatMessage, dispatch_uid="notifications.chat_message")
def on_chat_message(sender, *, instance: ChatMessage, created: bool, **extra) -> None:
    """A new chat line goes to the game's webhooks (where spectators may read the chat); the
    table's answers to commands are no messages, and some are one player's alone."""
    if created and not instance.is_system:
        webhooks.queue_for_game(game=instance.game, kind="chat", chat_message=instance)


@receiver(webhooks.webhook_disabled, dispatch_uid="notifications.webhook_disabled")
def on_webhook_disabled(sender, *, webhook: Webhook, error: str, **extra) -> None:
    """A webhook turned off after failing again and again: whoever registered it is told."""
    notify(user=webhook.user, kind=NotificationKind.WEBHOOK_DISABLED,
           context={"url": urlsplit(webhook.url).hostname or webhook.url,
                    "failures": webhook.consecutive_failures, "error": error[:300],
                    "settings_url": absolute(reverse("notifications:live"))})


@receiver(player_event, dispatch_uid="notifications.player_event")
def on_player_event(sender, *, user_id: int, kind: str, text: str, **extra) -> None:
    from accounts.models import User

    if kind == "moderation":
        notify(user=User.objects.get(pk=user_id), kind=NotificationKind.MODERATION,
               context={"text": text})


# ---- play by email: every django-anymail inbound webhook lands here -----------------------------

from anymail.signals import inbound as anymail_inbound  # noqa: E402 - grouped with its receiver


@receiver(anymail_inbound, dispatch_uid="notifications.email_play_inbound")
def on_inbound_email(sender, *, event, esp_name: str, **extra) -> None:
    from notifications.inbound.webhooks import webhook_email_receive

    webhook_email_receive(event=event, esp_name=esp_name)
