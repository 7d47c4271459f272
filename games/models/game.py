"""A game, its seats, the append-only action log and the idempotency records of moves."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.log import codec
from games.models.fields import ActionPayloadField
from games.presentation.titles import game_title

MIN_TIME_PER_MOVE = timedelta(hours=1)
MAX_TIME_PER_MOVE = timedelta(days=14)
DEFAULT_TIME_PER_MOVE = timedelta(days=1)
MAX_RESERVE = timedelta(days=30)
DEFAULT_MAX_CONSECUTIVE_TIMEOUTS = 3


class GameStatus(models.TextChoices):
    OPEN = "open", _("Open for players")
    ACTIVE = "active", _("In progress")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")


#: Allowed status changes; anything else raises InvalidTransition.
STATUS_TRANSITIONS: dict[str, set[str]] = {
    GameStatus.OPEN: {GameStatus.ACTIVE, GameStatus.ABORTED},
    GameStatus.ACTIVE: {GameStatus.FINISHED, GameStatus.ABORTED},
    GameStatus.FINISHED: set(),
    GameStatus.ABORTED: set(),
}


class Game(models.Model):
    engine = models.CharField(verbose_name=_("engine"), max_length=40, db_index=True)
    rules_version = models.PositiveIntegerField(verbose_name=_("rules version"), default=1)
    options = models.JSONField(verbose_name=_("options"), default=dict, blank=True)
    num_players = models.PositiveSmallIntegerField(verbose_name=_("num players"))
    # The secret seed: every shuffle and die roll derives from it. Never shown to anyone.
    seed = models.CharField(max_length=128, editable=False)
    state = models.JSONField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(verbose_name=_("version"), default=0, editable=False)
    status = models.CharField(
        verbose_name=_("status"),
        max_length=10, choices=GameStatus.choices, default=GameStatus.OPEN, db_index=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"),
        on_delete=models.PROTECT, related_name="created_games"
    )
    time_per_move = models.DurationField(
        verbose_name=_("time per move"),
        default=DEFAULT_TIME_PER_MOVE,
        validators=[MinValueValidator(MIN_TIME_PER_MOVE), MaxValueValidator(MAX_TIME_PER_MOVE)],
    )
    # A bank of extra time per seat, used up before a move times out.
    reserve = models.DurationField(
        verbose_name=_("reserve"),
        default=timedelta(0),
        validators=[MinValueValidator(timedelta(0)), MaxValueValidator(MAX_RESERVE)],
    )
    # After this many timeouts in a row a bot takes the seat (the player can take it back).
    max_consecutive_timeouts = models.PositiveSmallIntegerField(
        verbose_name=_("max consecutive timeouts"),
        default=DEFAULT_MAX_CONSECUTIVE_TIMEOUTS,
        validators=[MinValueValidator(1), MaxValueValidator(10)],
    )
    allow_spectators = models.BooleanField(default=True)
    # What players call the game (optional); a rated game changes its players' ratings.
    name = models.CharField(max_length=80, blank=True)
    rated = models.BooleanField(default=True)
    # Starts by itself when the last seat is taken; otherwise the creator is told it is full.
    start_when_full = models.BooleanField(default=False)
    # Optional requirements a joining player must meet (invited players are exempt).
    min_reliability = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(100)])
    min_rating = models.FloatField(null=True, blank=True)
    # The finished game this one is a rematch of (at most one rematch per game).
    rematch_of = models.OneToOneField("self", on_delete=models.SET_NULL, null=True, blank=True,
                                      related_name="rematch")
    # True while the engine has a system step due (all secret picks are in); the resolution task
    # clears it. Indexed so the periodic safety net finds forgotten ones cheaply.
    needs_resolution = models.BooleanField(default=False, db_index=True)
    result = models.JSONField(verbose_name=_("result"), null=True, blank=True, editable=False)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(verbose_name=_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(verbose_name=_("finished at"), null=True, blank=True)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["status", "engine"])]

    def __str__(self) -> str:
        return gettext("Game %(number)s (%(title)s, %(status)s)") % {
            "number": self.pk, "title": self.title, "status": self.get_status_display()}

    @property
    def title(self) -> str:
        """What people call this game, in the active language: the engine's name and the
        number ("7 Wonders #1", "عجایب هفتگانه #۱"), after the name its creator gave it."""
        return game_title(self)

    @property
    def is_running(self) -> bool:
        return self.status == GameStatus.ACTIVE


#: A bot seat's levels (games.engines.bots.LEVELS) as a player reads them.
BOT_LEVEL_CHOICES = [("search", pgettext_lazy("bot level", "Search")),
                     ("easy", pgettext_lazy("bot level", "Easy")),
                     ("hard", pgettext_lazy("bot level", "Hard"))]
BOT_NAMES = ("Ada", "Basil", "Cleo", "Dario", "Edda", "Fritz", "Greta")


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"),
        on_delete=models.PROTECT,
        related_name="seats",
        null=True,
        blank=True,
    )
    # Assigned when the game starts (shuffled from the seed); null while the game is open.
    number = models.PositiveSmallIntegerField(verbose_name=_("number"), null=True, blank=True)
    join_order = models.PositiveSmallIntegerField()
    # A bot plays the seat: a bot seat (no user), or a player's seat handed to a bot after
    # repeated timeouts or by a moderator (user kept, so the player can take it back).
    is_bot = models.BooleanField(verbose_name=_("is bot"), default=False)
    # How a bot plays this seat: "search" (determinized Monte Carlo search), "hard" (the same
    # search with a larger budget) or "easy" (the engine's heuristic); see games.engines.bots.
    bot_level = models.CharField(max_length=10, choices=BOT_LEVEL_CHOICES, default="search")
    # When the seat last became due to act, and by when it must: time per move plus what is left
    # of its reserve, not counting the player's vacations. Null while the seat is not awaited.
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline_at = models.DateTimeField(verbose_name=_("deadline at"),
                                       null=True, blank=True, db_index=True)
    reserve_left = models.DurationField(verbose_name=_("reserve left"), default=timedelta(0))
    remind_at = models.DateTimeField(null=True, blank=True, db_index=True)
    reminded_at = models.DateTimeField(null=True, blank=True)
    # Set when a "your turn" notice went out; cleared when the player acts or opens the game,
    # so that at most one such email is sent per game in between.
    turn_notified_at = models.DateTimeField(null=True, blank=True)
    timeout_count = models.PositiveSmallIntegerField(verbose_name=_("timeout count"), default=0)
    # The player resigned: a bot plays the seat for good (it cannot be taken back).
    resigned_at = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    # Steps that need nobody (games/autoplay.py). Null: follow the player's profile.
    auto_forced = models.BooleanField(null=True, blank=True)
    standing_orders = models.JSONField(null=True, blank=True)
    # The player's private conditional moves: decisions, each a list of candidate actions.
    move_queue = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["game", "number", "join_order"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user"], name="one_seat_per_user_per_game",
                condition=models.Q(user__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["game", "number"], name="unique_seat_number",
                condition=models.Q(number__isnull=False),
            ),
            models.UniqueConstraint(fields=["game", "join_order"], name="unique_join_order"),
        ]

    def __str__(self) -> str:
        return gettext("Seat %(seat)s of game %(number)s: %(player)s") % {
            "seat": self.number, "number": self.game_id, "player": self.player_name}

    @property
    def replaced_by_bot(self) -> bool:
        return self.is_bot and self.user_id is not None

    @property
    def bot_level_label(self) -> str:
        """The level of a bot's own seat ("Hard"), shown beside its name; "" for a person's seat,
        also one a bot plays for now."""
        return self.get_bot_level_display() if self.is_bot and self.user_id is None else ""

    @property
    def player_name(self) -> str:
        if self.user is None:
            # Bots get names, not numbers: players are never shown as seat numbers.
            if self.number is None:
                return "Bot"
            return f"Bot {BOT_NAMES[self.number % len(BOT_NAMES)]}"
        return self.user.public_name


class ActionSource(models.TextChoices):
    WEB = "web", _("Web")
    API = "api", _("API")
    EMAIL = "email", _("Email")
    TIMEOUT = "timeout", _("Timeout")
    BOT = "bot", _("Bot")
    SYSTEM = "system", _("System")
    MODERATOR = "moderator", _("Moderator")
    AUTO = "auto", _("Automatic")
    QUEUED = "queued", _("Queued")


class ActionKind(models.TextChoices):
    MOVE = "move", _("Player move")
    RESOLVE = "resolve", _("System resolution")
    UNDO = "undo", _("Move taken back")


class Action(models.Model):
    """One entry of a game's append-only log: replaying them from `new_game` rebuilds the state."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    sequence = models.PositiveIntegerField(verbose_name=_("sequence"))
    kind = models.CharField(verbose_name=_("kind"),
                            max_length=10, choices=ActionKind.choices, default=ActionKind.MOVE)
    seat_number = models.PositiveSmallIntegerField(verbose_name=_("seat number"),
                                                   null=True, blank=True)
    # The action as applied, stored short (games.logpayloads).
    payload = ActionPayloadField(null=True, blank=True)
    source = models.CharField(verbose_name=_("source"), max_length=10, choices=ActionSource.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("actor"),
        on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    # How the move reads to everyone, and to the seat that made it (who may see its secret;
    # null when it reads the same): message keys with parameters (games.engines.texts) which
    # each reader sees in their own language, stored short by games.logtexts, which leaves out
    # what this row already holds (its seat, its payload's values). Read them with `text_for`.
    public_text = models.TextField()
    actor_text = models.TextField(null=True, blank=True)
    # The sequence of the undo entry that took this move back; the entry itself stays in the log
    # and is skipped when the log is replayed at that version or later.
    undone_by = models.PositiveIntegerField(verbose_name=_("undone by"), null=True, blank=True)
    # The game as every viewer could see it right after this entry: its status and the seats
    # it awaited. Event streams render a move from these, live and when resumed alike, so a
    # replayed event is the one sent live (null on entries logged before they were kept).
    status_after = models.CharField(max_length=10, blank=True, default="")
    awaiting_after = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["game", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["game", "sequence"], name="gapless_action_log"),
        ]

    def __str__(self) -> str:
        return gettext("#%(sequence)s of game %(number)s") % {"sequence": self.sequence,
                                                               "number": self.game_id}

    @classmethod
    def stored_texts(cls, public: dict, actor: dict | None, *, seat_number: int | None,
                     payload) -> dict[str, str | None]:
        """The `public_text` and `actor_text` columns of an entry with this seat and payload
        (the actor's only when it differs)."""
        return {"public_text": codec.pack(public, seat=seat_number, payload=payload),
                "actor_text": codec.pack(actor, seat=seat_number, payload=payload)
                if actor is not None and actor != public else None}

    def text_for(self, seat_number: int | None) -> dict:
        """The entry as `seat_number` (None: anyone) may read it, as the engine's text."""
        own = seat_number is not None and seat_number == self.seat_number and self.actor_text
        stored = self.actor_text if own else self.public_text
        try:
            return codec.unpack(stored, seat=self.seat_number, payload=self.payload)
        except (ValueError, KeyError, TypeError):
            # Not written by this version's logtexts (a database restored into an older
            # version): shown as stored rather than breaking the whole log.
            return codec.literal(stored)

    @property
    def hides_something(self) -> bool:
        """Its actor reads more than everyone else (a secret pick, a card drawn face down)."""
        return self.actor_text is not None


class IdempotencyRecord(models.Model):
    """The first answer to a request sent with an Idempotency-Key, repeated on retries: a move
    (its `game`; the service keeps it under the game's lock) or any API POST that creates
    (games.api.idempotency: its status and Location). A key is the caller's, across the API."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=128)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", null=True,
                             blank=True)
    request_fingerprint = models.CharField(max_length=64)
    response = models.JSONField(null=True)
    status_code = models.PositiveSmallIntegerField(default=200)
    location = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="unique_idempotency_key"),
        ]

    @classmethod
    def first_answer(cls, *, user, key: str, fingerprint: str,
                     game_id: int | None = None) -> IdempotencyRecord | None:
        """The record of `key` when this request repeats it; None for a new key. The same key
        with another request (another body, address or game) is refused."""
        from games.exceptions import IdempotencyKeyReused

        record = cls.objects.filter(user=user, key=key).first()
        if record is not None and (record.game_id != game_id
                                   or record.request_fingerprint != fingerprint):
            raise IdempotencyKeyReused(
                gettext("This Idempotency-Key was already used for a different request."))
        return record
