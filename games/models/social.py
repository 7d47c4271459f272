"""What people do around a game: chat, reports and the moderators' audit, invitations."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models.game import Game
from games.presentation.chat_lines import system_line_text

CHAT_MESSAGE_MAX_LENGTH = 500


class ChatLineKind(models.TextChoices):
    MESSAGE = "message", _("Message")
    #: The table's answer to a command typed in the chat: a message key and its parameters,
    #: rendered in each reader's language (games.presentation.chat_lines).
    SYSTEM = "system", _("System line")


class ChatMessage(models.Model):
    game = models.ForeignKey(Game, verbose_name=_("game"),
                             on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("author"),
                               on_delete=models.PROTECT,
                               related_name="chat_messages")
    body = models.TextField(verbose_name=_("body"), max_length=CHAT_MESSAGE_MAX_LENGTH)
    created_at = models.DateTimeField(verbose_name=_("created at"),
                                      auto_now_add=True, db_index=True)
    hidden_at = models.DateTimeField(verbose_name=_("hidden at"), null=True, blank=True)
    hidden_reason = models.TextField(verbose_name=_("hidden reason"), blank=True)
    kind = models.CharField(verbose_name=_("kind"), max_length=10, choices=ChatLineKind.choices,
                            default=ChatLineKind.MESSAGE)
    key = models.CharField(verbose_name=_("message key"), max_length=40, blank=True)
    params = models.JSONField(verbose_name=_("parameters"), default=dict, blank=True)
    #: A line only this player reads (a refusal, a help line); None: everyone who sees the chat.
    audience = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("audience"),
                                 on_delete=models.CASCADE, null=True, blank=True,
                                 related_name="+")

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["created_at", "id"]
        permissions = [("moderate_game", "Can moderate games, seats and chat")]

    def __str__(self) -> str:
        return f"{self.author}: {self.body[:40]}"

    @property
    def is_system(self) -> bool:
        return self.kind == ChatLineKind.SYSTEM

    def text(self) -> str:
        """What the line says in the active language: a system line rendered from its key, a
        message as written (a system line's body keeps the command as typed, for moderators)."""
        if not self.is_system:
            return self.body
        return system_line_text(self.key, self.params, self.author.public_name)


class ReportTarget(models.TextChoices):
    MESSAGE = "message", _("Chat message")
    PLAYER = "player", _("Player")
    GAME = "game", _("Game")


class ReportReason(models.TextChoices):
    ABUSE = "abuse", _("Abuse or harassment")
    STALLING = "stalling", _("Stalling")
    CHEATING = "cheating", _("Cheating")
    SPAM = "spam", _("Spam")
    OTHER = "other", _("Something else")


class ReportStatus(models.TextChoices):
    OPEN = "open", _("Open")
    RESOLVED = "resolved", _("Resolved")
    DISMISSED = "dismissed", _("Dismissed")


class Report(models.Model):
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("reporter"),
                                 on_delete=models.CASCADE,
                                 related_name="reports_made")
    target = models.CharField(verbose_name=_("target"), max_length=10, choices=ReportTarget.choices)
    game = models.ForeignKey(Game, verbose_name=_("game"),
                             on_delete=models.CASCADE, null=True, blank=True,
                             related_name="reports")
    message = models.ForeignKey(ChatMessage, verbose_name=_("message"),
                                on_delete=models.CASCADE, null=True, blank=True,
                                related_name="reports")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"),
                               on_delete=models.CASCADE, null=True,
                               blank=True, related_name="reports_against")
    reason = models.CharField(verbose_name=_("reason"), max_length=10, choices=ReportReason.choices)
    details = models.TextField(verbose_name=_("details"), blank=True, max_length=2000)
    status = models.CharField(verbose_name=_("status"), max_length=10, choices=ReportStatus.choices,
                              default=ReportStatus.OPEN, db_index=True)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("handled by"),
                                   on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    handled_at = models.DateTimeField(verbose_name=_("handled at"), null=True, blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return gettext("Report #%(number)s: %(target)s (%(reason)s)") % {
            "number": self.pk, "target": self.get_target_display(),
            "reason": self.get_reason_display()}


class AuditEntry(models.Model):
    """One moderator action: who did what to what, why, when, and the state before and after.
    Written by the moderation services only; read-only everywhere."""

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("actor"),
                              on_delete=models.PROTECT,
                              related_name="+")
    action = models.CharField(verbose_name=_("action"), max_length=40, db_index=True)
    target_type = models.CharField(verbose_name=_("target type"), max_length=20)
    target_id = models.PositiveBigIntegerField(verbose_name=_("target id"))
    reason = models.TextField(verbose_name=_("reason"))
    before = models.JSONField(verbose_name=_("before"), default=dict)
    after = models.JSONField(verbose_name=_("after"), default=dict)
    created_at = models.DateTimeField(verbose_name=_("created at"),
                                      auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.actor} {self.action} {self.target_type} #{self.target_id}"


class InvitationStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for an answer")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")


class GameInvitation(models.Model):
    """A player asked another to join an open game: at most one per game and invitee, so an
    invitation is notified once however often it is repeated. While the game is open the invitee
    may see it and join, even when it is private (no spectators)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="game_invitations")
    inviter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=InvitationStatus.choices,
                              default=InvitationStatus.PENDING)
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "invitee"], name="one_invitation_per_invitee"),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s invited to game %(number)s") % {"player": self.invitee,
                                                                   "number": self.game_id}


class InvitationAttempt(models.Model):
    """One invitation request, whatever became of it (sent, repeated, unknown address): the
    hourly limit counts these, so hitting it says nothing about who has an account."""

    inviter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["inviter", "created_at"])]
