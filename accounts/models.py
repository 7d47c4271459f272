"""The custom user model: a player with a timezone, reminder and email habits, and vacations.

A display name may not pass for another player (accounts.names), and a saved password change
revokes the player's API tokens, whatever changed it (web form, reset link, admin, shell)."""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import names


def validate_timezone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(gettext("%(value)s is not a known time zone (e.g. Europe/Rome).")
                                  % {"value": f"{value!r}"})


def validate_display_name_characters(value: str) -> None:
    try:
        names.check_characters(value)
    except names.NameProblem as problem:
        raise ValidationError(str(problem), code="display_name_characters") from problem


def validate_display_name(value: str, *, user=None) -> None:
    """Refuses a display name with hidden or direction-changing characters, or one that looks
    like another player's username or display name (`user` is the player choosing it)."""
    validate_display_name_characters(value)
    validate_display_name_is_nobody_elses(value, user=user)


def validate_display_name_is_nobody_elses(value: str, *, user=None) -> None:
    if not value:
        return
    others = User.objects.all() if user is None or user.pk is None else (
        User.objects.exclude(pk=user.pk))
    taken = names.imitated_name(value, (
        name for pair in others.values_list("username", "display_name").iterator(2000)
        for name in pair))
    if taken is not None:
        raise ValidationError(
            gettext("This display name looks like another player's name; please choose another."),
            code="display_name_taken")


class User(AbstractUser):
    display_name = models.CharField(verbose_name=_("display name"), max_length=40, blank=True,
                                    validators=[validate_display_name_characters])
    timezone = models.CharField(verbose_name=_("timezone"),
                                max_length=64, default="UTC", validators=[validate_timezone])
    # Pages, emails and game texts in this language; empty: the browser's (Accept-Language).
    language = models.CharField(max_length=10, blank=True, default="",
                                choices=settings.LANGUAGES)
    # A reminder goes out when this share of the move's time, or these hours, remain: whichever
    # comes later (so a long move is reminded 2 hours before, a 1-hour move at 15 minutes).
    reminder_percent = models.PositiveSmallIntegerField(
        verbose_name=_("reminder percent"),
        default=25, validators=[MinValueValidator(1), MaxValueValidator(90)]
    )
    reminder_hours = models.PositiveSmallIntegerField(
        verbose_name=_("reminder hours"),
        default=2, validators=[MinValueValidator(0), MaxValueValidator(72)]
    )
    digest_hour = models.PositiveSmallIntegerField(
        verbose_name=_("digest hour"),
        default=8, validators=[MaxValueValidator(23)],
        help_text=_("Local hour at which the daily digest is sent."),
    )
    quiet_hours_start = models.PositiveSmallIntegerField(
        verbose_name=_("quiet hours start"),
        null=True, blank=True, validators=[MaxValueValidator(23)],
        help_text=_("Local hour from which no email is sent (empty: no quiet hours)."),
    )
    quiet_hours_end = models.PositiveSmallIntegerField(
        verbose_name=_("quiet hours end"),
        null=True, blank=True, validators=[MaxValueValidator(23)],
        help_text=_("Local hour at which emails resume."),
    )
    # While a player is at it (acting, or with the game open), "your move" and "game started"
    # wait this long after their last act or look (notifications/policy.py); 0 sends at once.
    turn_email_grace_minutes = models.PositiveSmallIntegerField(
        verbose_name=_("grace minutes before a turn email"),
        default=10, validators=[MaxValueValidator(120)],
        help_text=_("No turn email while I am playing: wait this many minutes after my last "
                    "move or look."),
    )
    # Decisions with no real choice are played for the player at once (each game may override).
    auto_play_forced = models.BooleanField(
        default=True,
        help_text=_("Play my forced moves (only one possible choice) at once."),
    )
    # Default standing orders per game: {engine slug: {order name: value}}.
    standing_orders = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        db_table = "accounts_user"

    def clean(self):
        super().clean()
        self.display_name = (self.display_name or "").strip()
        try:
            validate_display_name_is_nobody_elses(self.display_name, user=self)
        except ValidationError as error:
            raise ValidationError({"display_name": error.messages}) from error

    def save(self, *args, **kwargs):
        update_fields = kwargs.get("update_fields")
        revoke_tokens = self._password_change_pending(update_fields)
        with transaction.atomic():
            super().save(*args, **kwargs)
            if revoke_tokens:
                self._revoke_api_tokens()

    def _revoke_api_tokens(self) -> None:
        """A token outliving a password change would keep a thief in after the reset: the
        password-login token is deleted, every live personal token revoked and audited."""
        from django.utils import timezone
        from rest_framework.authtoken.models import Token

        Token.objects.filter(user_id=self.pk).delete()
        now = timezone.now()
        for token in PersonalAccessToken.objects.select_for_update().filter(
                user_id=self.pk, revoked_at__isnull=True):
            token.revoked_at = now
            token.save(update_fields=["revoked_at"])
            TokenEvent.objects.create(token=token, kind=TokenEvent.Kind.REVOKED,
                                      via="password changed")

    def _password_change_pending(self, update_fields) -> bool:
        """Whether this save stores a new password: set_password() was called (Django's own
        marker, which its hash upgrade on login clears, since that is not a change), or the
        password was made unusable."""
        if self.pk is None or self._state.adding:
            return False
        if update_fields is not None and "password" not in update_fields:
            return False
        if self._password is not None:
            return True
        if self.has_usable_password():
            return False
        stored = type(self).objects.filter(pk=self.pk).values_list("password", flat=True).first()
        return stored is not None and stored != self.password

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.timezone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")

    def reminder_lead(self, time_per_move: timedelta) -> timedelta:
        """How long before the deadline the reminder goes out."""
        return min(time_per_move * self.reminder_percent / 100,
                   timedelta(hours=self.reminder_hours))

    def __str__(self) -> str:
        return self.public_name


class Vacation(models.Model):
    """Days away: the player's clocks pause in every game in between."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="vacations")
    starts_at = models.DateTimeField(verbose_name=_("starts at"))
    ends_at = models.DateTimeField(verbose_name=_("ends at"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"])]
        constraints = [
            models.CheckConstraint(condition=models.Q(ends_at__gt=models.F("starts_at")),
                                   name="vacation_ends_after_it_starts"),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s away %(start)s – %(end)s") % {
            "user": self.user, "start": f"{self.starts_at:%Y-%m-%d}",
            "end": f"{self.ends_at:%Y-%m-%d}"}

    def days_in_year(self, year: int) -> float:
        start = max(self.starts_at, datetime(year, 1, 1, tzinfo=self.starts_at.tzinfo))
        end = min(self.ends_at, datetime(year + 1, 1, 1, tzinfo=self.ends_at.tzinfo))
        return max((end - start).total_seconds(), 0) / 86400

    def covers(self, moment: datetime) -> bool:
        return self.starts_at <= moment < self.ends_at


def vacation_days_used(user, year: int) -> float:
    return sum(v.days_in_year(year) for v in user.vacations.all())


def today_for(user) -> date:
    from django.utils import timezone

    return timezone.now().astimezone(user.zone).date()


class SanctionKind(models.TextChoices):
    WARNING = "warning", _("Warning")
    SUSPENSION = "suspension", _("Suspension")
    BAN = "ban", _("Ban")


class SanctionQuerySet(models.QuerySet):
    def bans_in_force(self) -> SanctionQuerySet:
        """Bans not lifted (a ban has no end)."""
        return self.filter(kind=SanctionKind.BAN, lifted_at__isnull=True)


class Sanction(models.Model):
    """A moderator's warning, time-limited suspension or ban of a player."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="sanctions")
    kind = models.CharField(verbose_name=_("kind"), max_length=12, choices=SanctionKind.choices)
    reason = models.TextField(verbose_name=_("reason"))
    #: End of a suspension; null for warnings and bans.
    ends_at = models.DateTimeField(verbose_name=_("ends at"), null=True, blank=True)
    lifted_at = models.DateTimeField(verbose_name=_("lifted at"), null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"),
                                   on_delete=models.PROTECT,
                                   related_name="+")
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    objects = SanctionQuerySet.as_manager()

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        ordering = ["-created_at"]
        permissions = [("sanction_user", "Can warn, suspend and ban players")]

    def __str__(self) -> str:
        return gettext("%(kind)s of %(user)s") % {"kind": self.get_kind_display(),
                                                   "user": self.user}

    def in_force(self, now: datetime) -> bool:
        if self.lifted_at is not None or self.kind == SanctionKind.WARNING:
            return False
        return self.ends_at is None or self.ends_at > now


def active_restriction(user, now: datetime | None = None) -> Sanction | None:
    """The suspension or ban that keeps the player from acting now, if any."""
    from django.utils import timezone

    now = now or timezone.now()
    if user is None or not getattr(user, "pk", None):
        return None
    candidates = Sanction.objects.filter(
        user=user, kind__in=[SanctionKind.SUSPENSION, SanctionKind.BAN], lifted_at__isnull=True
    ).filter(models.Q(ends_at__isnull=True) | models.Q(ends_at__gt=now))
    return candidates.order_by("kind").first()  # "ban" sorts before "suspension"


def restriction_message(sanction: Sanction) -> str:
    """Why the player cannot act, in the active language; the end of a suspension in the
    player's time zone, its month and digits as the language writes them."""
    from django.utils import timezone
    from django.utils.formats import date_format

    from accounts.templatetags.language_tags import localized_digits

    if sanction.kind == SanctionKind.BAN:
        return gettext("Your account is banned: you can no longer play, chat or create games.")
    local = timezone.localtime(sanction.ends_at, sanction.user.zone)
    until = localized_digits(f"{date_format(local, 'DATETIME_FORMAT')} {date_format(local, 'T')}")
    return gettext("Your account is suspended until %(until)s: you cannot play, chat or create "
                   "games until then.") % {"until": until}


class TokenScope(models.TextChoices):
    READ = "read", _("Read your games, their logs and your account")
    PLAY = "play", _("Make moves, join, start, resign and invite")
    CHAT = "chat", _("Write in game chats")
    #: What outlasts or widens a token's reach: tokens, webhooks (their signing secrets), push
    #: devices and account settings. A leaked token without it cannot mint a successor.
    MANAGE = "manage", _("Manage your tokens, webhooks and account settings")


class PersonalAccessToken(models.Model):
    """An API token the player made (accounts.tokens): only its SHA-256 digest is kept; the
    token itself is shown once, when it is made."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="access_tokens")
    name = models.CharField(max_length=60)
    digest = models.CharField(max_length=64, unique=True)
    #: The token's first characters, so the player can tell their tokens apart.
    prefix = models.CharField(max_length=16)
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return gettext("%(name)s (%(prefix)s…) of %(user)s") % {
            "name": self.name, "prefix": self.prefix, "user": self.user}


class TokenEvent(models.Model):
    """The audit of a player's tokens: every creation and revocation, and by what."""

    class Kind(models.TextChoices):
        CREATED = "created"
        REVOKED = "revoked"

    token = models.ForeignKey(PersonalAccessToken, verbose_name=_("token"),
                              on_delete=models.CASCADE,
                              related_name="events")
    kind = models.CharField(verbose_name=_("kind"), max_length=10, choices=Kind.choices)
    #: How: "account page", "api", "password login", "password changed".
    via = models.CharField(verbose_name=_("via"), max_length=40)
    ip_address = models.GenericIPAddressField(verbose_name=_("ip address"), null=True, blank=True)
    at = models.DateTimeField(verbose_name=_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("token event")
        verbose_name_plural = _("token events")
        ordering = ["-at", "-id"]
