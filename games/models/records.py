"""Records about players kept beside the games: ratings per engine, the one application of a
finished game to those ratings, and every deadline a player met or missed (reliability).

Imported by games.models, so that Django and the migrations see these models as the games app's.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.presentation.titles import engine_name


class Rating(models.Model):
    """A player's skill at one engine (OpenSkill, Plackett-Luce): `mu` the estimate, `sigma` its
    uncertainty. What people see is the conservative `mu - 3 sigma`."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")
    engine = models.CharField(max_length=40)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    rated_games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["engine", "-ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["user", "engine"], name="one_rating_per_engine"),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s at %(game)s: %(rating)s") % {
            "user": self.user, "game": engine_name(self.engine), "rating": f"{self.ordinal:.1f}"}


class RatingApplication(models.Model):
    """A finished game's effect on its players' ratings, written once: the unique game makes a
    second application (a duplicated task, a retry) impossible. `changes` lists, per rated
    player, the rank and the rating before and after; `skipped` says why a game changed none."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE,
                                related_name="rating_application")
    changes = models.JSONField(default=list)
    skipped = models.CharField(max_length=120, blank=True)
    applied_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return gettext("Ratings of game %(number)s") % {"number": self.game_id}


class DeadlineOutcome(models.TextChoices):
    MET = "met", _("Moved before the deadline")
    LATE = "late", _("Moved after the deadline, before the timeout was played")
    TIMED_OUT = "timeout", _("Timed out: the timeout move was played")


class DeadlineRecord(models.Model):
    """One deadline a player had, and how it ended."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="deadline_records")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    deadline_at = models.DateTimeField()
    outcome = models.CharField(max_length=10, choices=DeadlineOutcome.choices)
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["-recorded_at", "-id"]
        indexes = [models.Index(fields=["user", "-recorded_at", "-id"])]

    def __str__(self) -> str:
        return gettext("%(user)s at a deadline in game %(number)s: %(outcome)s") % {
            "user": self.user, "number": self.game_id, "outcome": self.get_outcome_display()}
