"""The notification outbox: one row per thing a player should hear about, written in the same
transaction as the game change, delivered by Celery (at once, in a digest, or not at all)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class NotificationKind(models.TextChoices):
    YOUR_TURN = "your_turn", _("It is your turn")
    REMINDER = "reminder", _("Deadline reminder")
    TIMED_OUT = "timed_out", _("You timed out / a bot took your seat")
    GAME_STARTED = "game_started", _("A game started")
    GAME_FINISHED = "game_finished", _("A game finished")
    INVITATION = "invitation", _("Invitation to a game")
    MENTION = "mention", _("Mentioned in a game chat")
    MODERATION = "moderation", _("Message from the moderators")
    GAME_LOBBY = "game_lobby", _("Answers to my invitations, my game is full")
    WEBHOOK_DISABLED = "webhook_disabled", _("A webhook of mine was turned off")


#: What happens to each kind unless the player chose otherwise.
DEFAULT_DELIVERY = {
    NotificationKind.YOUR_TURN: "immediate",
    NotificationKind.REMINDER: "immediate",
    NotificationKind.TIMED_OUT: "immediate",
    NotificationKind.GAME_STARTED: "immediate",
    NotificationKind.GAME_FINISHED: "immediate",
    NotificationKind.INVITATION: "immediate",
    NotificationKind.MENTION: "immediate",
    NotificationKind.MODERATION: "immediate",
    NotificationKind.GAME_LOBBY: "immediate",
    NotificationKind.WEBHOOK_DISABLED: "immediate",
}


class Delivery(models.TextChoices):
    IMMEDIATE = "immediate", _("Right away")
    DIGEST = "digest", _("In my daily digest")
    NEVER = "never", _("Never")


class EmailStatus(models.TextChoices):
    PENDING = "pending", _("Waiting to be sent")
    #: The player was active (acting, or looking at the game) when it was written: it waits for
    #: their grace period (`held_until`), and is dropped if they act in or look at the game.
    HELD = "held", _("Held while the player is active")
    #: Released together with other held turns: sent inside the email of `sent_with`.
    BATCHED = "batched", _("Sent with another notification")
    DIGEST = "digest", _("Waiting for the digest")
    SENT = "sent", _("Sent")
    SKIPPED = "skipped", _("Not sent (turned off or no longer relevant)")
    FAILED = "failed", _("Failed after retries")


class NotificationPreference(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notification_preferences")
    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    delivery = models.CharField(max_length=10, choices=Delivery.choices)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"],
                                               name="one_preference_per_kind")]


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="notifications")
    kind = models.CharField(verbose_name=_("kind"), max_length=20, choices=NotificationKind.choices)
    game = models.ForeignKey("games.Game", verbose_name=_("game"),
                             on_delete=models.CASCADE, null=True, blank=True,
                             related_name="+")
    seat_number = models.PositiveSmallIntegerField(verbose_name=_("seat number"),
                                                   null=True, blank=True)
    #: What the email and the in-app list say: JSON-safe facts captured at the time of the event.
    context = models.JSONField(verbose_name=_("context"), default=dict)
    email_status = models.CharField(verbose_name=_("email status"),
                                    max_length=10, choices=EmailStatus.choices,
                                    default=EmailStatus.PENDING, db_index=True)
    #: Not before this moment (quiet hours defer it).
    send_after = models.DateTimeField(verbose_name=_("send after"), db_index=True)
    #: A held turn notice (EmailStatus.HELD) is looked at again then (policy.hold_until).
    held_until = models.DateTimeField(null=True, blank=True, db_index=True)
    #: Turns released together go out as one email: the others point at the one that carries it.
    sent_with = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="batched")
    sent_at = models.DateTimeField(verbose_name=_("sent at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(verbose_name=_("attempts"), default=0)
    last_error = models.TextField(verbose_name=_("last error"), blank=True)
    #: The email's Message-ID, the same on every attempt, so a resend after a crash is
    #: recognisable as the same message (by the player's mail client and by us).
    message_id = models.CharField(max_length=255, blank=True)
    #: A worker has claimed the send until this moment (see channels.email.deliver); another worker
    #: leaves the row alone until then, and takes it over only if the first one died.
    claimed_until = models.DateTimeField(null=True, blank=True)
    #: The second channel, phone push (notifications/push.py), under the same preferences,
    #: quiet hours (send_after) and digest rules as the email.
    push_status = models.CharField(max_length=10, choices=EmailStatus.choices,
                                   default=EmailStatus.SKIPPED, db_index=True)
    read_at = models.DateTimeField(verbose_name=_("read at"), null=True, blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["email_status", "send_after"]),
                   models.Index(fields=["user", "read_at"])]

    def __str__(self) -> str:
        return gettext("%(kind)s for %(user)s (%(status)s)") % {
            "kind": self.get_kind_display(), "user": self.user,
            "status": self.get_email_status_display()}


class Digest(models.Model):
    """One daily digest for a player (at most one per local date). The row is written before
    the email is sent, as the claim on that send; `sent_at` is set once it went out."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    local_date = models.DateField()
    count = models.PositiveIntegerField()
    message_id = models.CharField(max_length=255, blank=True)
    claimed_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "local_date"],
                                               name="one_digest_per_local_day")]


# ---- play by email ------------------------------------------------------------------------------


class InboundStatus(models.TextChoices):
    RECEIVED = "received", _("Being processed")
    APPLIED = "applied", _("Became a move")
    ANSWERED = "answered", _("Answered without a move (status, help, more choices)")
    REFUSED = "refused", _("Refused, with an explanation")
    DROPPED = "dropped", _("Dropped without a reply (automatic mail)")


class InboundMessage(models.Model):
    """One email received for play by email. The unique Message-ID makes a replayed message
    (a provider retrying its webhook, a resent email) harmless."""

    message_id = models.CharField(verbose_name=_("message id"), max_length=255, unique=True)
    channel = models.CharField(verbose_name=_("channel"),
                               max_length=40)  # "pipe" or the webhook's provider
    received_at = models.DateTimeField(verbose_name=_("received at"))
    sender = models.CharField(verbose_name=_("sender"), max_length=254, blank=True)
    subject = models.CharField(verbose_name=_("subject"), max_length=255, blank=True)
    #: The player's own lines as read (quotes and signatures removed).
    text = models.TextField(verbose_name=_("text"), blank=True)
    #: The raw message as received, so nothing a player sent is ever lost.
    raw = models.BinaryField(editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="+")
    game = models.ForeignKey("games.Game", verbose_name=_("game"),
                             on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    token_version = models.PositiveIntegerField(verbose_name=_("token version"),
                                                null=True, blank=True)
    status = models.CharField(verbose_name=_("status"),
                              max_length=10, choices=InboundStatus.choices,
                              default=InboundStatus.RECEIVED, db_index=True)
    #: Machine-readable why: move, status, help, stale_version, wrong_sender, auto_reply, ...
    reason = models.CharField(verbose_name=_("reason"), max_length=30, blank=True, db_index=True)
    detail = models.TextField(verbose_name=_("detail"), blank=True)
    #: The log entry a move became.
    action_sequence = models.PositiveIntegerField(verbose_name=_("action sequence"),
                                                  null=True, blank=True)
    duplicates = models.PositiveIntegerField(verbose_name=_("duplicates"), default=0)

    class Meta:
        verbose_name = _("inbound message")
        verbose_name_plural = _("inbound messages")
        ordering = ["-received_at", "-id"]
        indexes = [models.Index(fields=["sender", "received_at"])]

    def __str__(self) -> str:
        return f"{self.message_id} from {self.sender}: {self.status} ({self.reason})"


class EmailReply(models.Model):
    """The answer to an inbound message, written in the same transaction and sent after commit
    (retried like notifications)."""

    inbound = models.ForeignKey(InboundMessage, on_delete=models.CASCADE, related_name="replies")
    to = models.CharField(verbose_name=_("to"), max_length=254)
    subject = models.CharField(verbose_name=_("subject"), max_length=255)
    text = models.TextField(verbose_name=_("text"))
    html = models.TextField(blank=True)
    headers = models.JSONField(default=dict)
    email_status = models.CharField(verbose_name=_("email status"),
                                    max_length=10, choices=EmailStatus.choices,
                                    default=EmailStatus.PENDING, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    #: As on Notification: the send is claimed by one worker until then.
    claimed_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(verbose_name=_("sent at"), null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return gettext("Reply to %(to)s: %(subject)s (%(status)s)") % {
            "to": self.to, "subject": self.subject, "status": self.get_email_status_display()}


# ---- live channels: calendar feed ---------------------------------------------------------------


class CalendarFeed(models.Model):
    """A player's private iCalendar feed of deadlines (notifications/calendar.py). The token is
    the only key to it: revoking replaces it, and the old address stops answering."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="calendar_feed")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return gettext("Calendar feed of %(user)s") % {"user": self.user}


# ---- live channels: webhooks --------------------------------------------------------------------


class WebhookFormat(models.TextChoices):
    JSON = "json", _("JSON, signed (for your own programs)")
    DISCORD = "discord", _("Discord incoming webhook")
    SLACK = "slack", _("Slack incoming webhook")


class Webhook(models.Model):
    """An address that hears about the chosen kinds of a player's notifications, or, with a
    `game`, about that game's public events (notifications/webhooks.py)."""

    #: Who registered it: the player whose notices it carries, or the game's host (or a
    #: moderator) who added it to `game`; told when it is turned off.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="webhooks")
    #: Set for a game's webhook: the game's public events (GAME_WEBHOOK_KINDS), as a spectator
    #: sees them; `kinds` then names those events instead of notification kinds.
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, null=True, blank=True,
                             related_name="webhooks")
    url = models.URLField(max_length=500)
    format = models.CharField(max_length=10, choices=WebhookFormat.choices,
                              default=WebhookFormat.JSON)
    #: NotificationKind values this webhook is told about.
    kinds = models.JSONField(default=list)
    #: Signs every payload (HMAC-SHA256, the Turnpost-Signature header).
    secret = models.CharField(max_length=64)
    active = models.BooleanField(default=True)
    #: Deliveries that failed for good in a row; past the limit the webhook is turned off.
    consecutive_failures = models.PositiveSmallIntegerField(default=0)
    disabled_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        if self.game_id:
            return gettext("Webhook of game %(number)s to %(url)s") % {"number": self.game_id,
                                                                      "url": self.url}
        return gettext("Webhook of %(user)s to %(url)s") % {"user": self.user, "url": self.url}


class WebhookStatus(models.TextChoices):
    PENDING = "pending", _("Being delivered")
    DELIVERED = "delivered", _("Delivered")
    FAILED = "failed", _("Failed after retries")


class WebhookDelivery(models.Model):
    """One payload for one webhook, with what became of it: the delivery log its owner reads."""

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    kind = models.CharField(max_length=20)
    #: The exact body sent (JSON text), the same on every attempt.
    body = models.TextField()
    status = models.CharField(max_length=10, choices=WebhookStatus.choices,
                              default=WebhookStatus.PENDING, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True, db_index=True)
    claimed_until = models.DateTimeField(null=True, blank=True)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} to {self.webhook.url} ({self.status})"


# ---- live channels: phone push ------------------------------------------------------------------


class PushSubscription(models.Model):
    """One browser or phone that accepts Web Push for a player (notifications/push.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    #: The browser's keys for encrypting payloads (base64url), from PushSubscription.toJSON().
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    user_agent = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return gettext("Push to %(user)s (%(browser)s)") % {"user": self.user,
                                                            "browser": self.user_agent[:40]}


class PushDigestDay(models.Model):
    """The day's digest push of a player was sent (at most one per local date)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    local_date = models.DateField()
    count = models.PositiveIntegerField()
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "local_date"],
                                               name="one_push_digest_per_local_day")]
