"""API shapes. Thin: validation and serialisation only; all changes go through games.services."""

from __future__ import annotations

import copy
from datetime import timedelta

from django.utils import timezone, translation
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import selectors
from games.api.fields import (
    StrictBooleanField,
    StrictCharField,
    StrictFloatField,
    StrictIntegerField,
)
from games.engines import bots
from games.engines.registry import all_engines
from games.models import (
    CHAT_MESSAGE_MAX_LENGTH,
    DEFAULT_MAX_CONSECUTIVE_TIMEOUTS,
    MAX_RESERVE,
    MAX_TIME_PER_MOVE,
    MIN_TIME_PER_MOVE,
    Action,
    ChatMessage,
    Game,
    GameStatus,
    Report,
    ReportReason,
    ReportTarget,
    Seat,
)
from games.presentation.names import seat_names
from games.presentation.texts import entry_text, reader_language
from games.presentation.titles import engine_name
from games.selectors import profiles


class ModelSerializer(serializers.ModelSerializer):
    """DRF's ModelSerializer builds its fields from the model's metadata for each instance, and
    an answer makes several (a game and its seats): here each class builds them once, and each
    instance gets copies of those. A plain field is copied shallowly: binding sets only its own
    attributes (name, parent, source), while DRF's deep copy made each field anew from its
    arguments, copied deeply too. A nested serializer binds its own fields, so it is still
    copied deeply."""

    def get_fields(self):
        built = type(self).__dict__.get("_built_fields")
        if built is None:
            built = super().get_fields()
            type(self)._built_fields = built
        return {name: copy.deepcopy(field) if isinstance(field, serializers.BaseSerializer)
                else copy.copy(field) for name, field in built.items()}


class EngineSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField(
        help_text="The game's name in the reader's language (the signed-in player's, else "
                  "Accept-Language), as its published editions print it.")
    min_players = StrictIntegerField()
    max_players = StrictIntegerField()
    rules_version = StrictIntegerField()
    simultaneous = serializers.BooleanField()
    options = serializers.ListField(
        child=serializers.DictField(),
        help_text="Each option: `name` (the key to send), `kind` (choice, bool or int), "
                  "`default`, `choices` (values to send) with `choice_labels` (value: label) "
                  "for a choice, `min`/`max` for an int; `label`, `help` and the choice labels "
                  "in the reader's language.")


class EngineDetailSerializer(EngineSerializer):
    action_schema = serializers.DictField(
        help_text="JSON Schema (2020-12) of this game's actions.")
    view_schema = serializers.DictField(
        help_text="JSON Schema (2020-12) of this game's views.")


@extend_schema_field({"type": "object", "additionalProperties": True,
                      "description": "A game action: an object with a `type`; its engine's "
                                     "`action_schema` (GET /api/v1/engines/{slug}/) tells "
                                     "the rest."})
class EngineActionField(serializers.JSONField):
    pass


@extend_schema_field({"type": "object", "additionalProperties": True, "nullable": True,
                      "description": "What the caller may see of the game (null before it "
                                     "starts); its engine's `view_schema` describes it."})
class EngineViewField(serializers.JSONField):
    pass


@extend_schema_field({"type": "object", "additionalProperties": True, "nullable": True,
                      "description": "Once finished: `scores`, `winners` (seats) and the "
                                     "engine's breakdown, or `by_resignation` with `winners` "
                                     "and `resigned`."})
class GameResultField(serializers.JSONField):
    pass


class ExportPlayerSerializer(serializers.Serializer):
    seat = StrictIntegerField(allow_null=True)
    player = serializers.CharField()
    username = serializers.CharField(allow_null=True)
    is_bot = serializers.BooleanField()
    resigned = serializers.BooleanField()


class ExportEntrySerializer(serializers.Serializer):
    sequence = StrictIntegerField()
    kind = serializers.CharField(help_text="`move` by a seat, `resolve` (a system step) or "
                                           "`undo` (a seat took back its move `undoes`).")
    seat = StrictIntegerField(allow_null=True)
    payload = EngineActionField(allow_null=True,
                                help_text="The action; null when hidden from the caller. An "
                                          "undo's is {undoes, with_automatic}.")
    hidden = serializers.BooleanField()
    undone_by = StrictIntegerField(
        allow_null=True, help_text="The undo entry that took this move back, if one did.")
    description = serializers.CharField(
        help_text="The entry as the caller may read it, in English whatever the request's "
                  "language (a record reads the same wherever it is taken); seats read "
                  "\"Seat N\".")
    at = serializers.DateTimeField()


class GameExportSerializer(serializers.Serializer):
    format = serializers.CharField()
    format_version = StrictIntegerField()
    game = StrictIntegerField()
    engine = serializers.CharField()
    rules_version = StrictIntegerField()
    status = serializers.CharField()
    num_players = StrictIntegerField()
    options = serializers.DictField()
    players = ExportPlayerSerializer(many=True)
    version = StrictIntegerField()
    seed = serializers.CharField(allow_null=True, help_text="Only once the game is finished.")
    actions = ExportEntrySerializer(many=True)
    result = GameResultField(allow_null=True)


def engine_slugs() -> list[str]:
    """The slugs of the games on offer, for the schema's enums."""
    return sorted(engine.slug for engine in all_engines())


@extend_schema_field({"type": "string", "enum": engine_slugs(),
                      "description": "A game's slug (GET /api/v1/engines/)."})
class EngineSlugField(StrictCharField):
    pass


class GameCreateSerializer(serializers.Serializer):
    engine = EngineSlugField(max_length=40)
    num_players = StrictIntegerField(
        min_value=min(engine.min_players for engine in all_engines()),
        max_value=max(engine.max_players for engine in all_engines()),
        help_text="Within the game's own `min_players` and `max_players` (GET "
                  "/api/v1/engines/{slug}/); another count is refused with 422.")
    options = serializers.DictField(required=False, default=dict)
    time_per_move = StrictIntegerField(
        required=False,
        min_value=int(MIN_TIME_PER_MOVE.total_seconds()),
        max_value=int(MAX_TIME_PER_MOVE.total_seconds()),
        help_text="Seconds each player has for a move: 3600 (1 hour) to 1209600 (14 days).",
    )
    reserve = StrictIntegerField(
        required=False, min_value=0, max_value=int(MAX_RESERVE.total_seconds()),
        help_text="Seconds of extra time per player, used up before a move times out.",
    )
    max_consecutive_timeouts = StrictIntegerField(
        required=False, min_value=1, max_value=10, default=DEFAULT_MAX_CONSECUTIVE_TIMEOUTS,
        help_text="Timeouts in a row after which a bot takes the seat.",
    )
    allow_spectators = StrictBooleanField(
        required=False, default=True,
        help_text="False: a private game, seen and joined only by invited players and "
                  "holders of its invite link.")
    name = StrictCharField(required=False, default="", allow_blank=True, max_length=80)
    rated = StrictBooleanField(required=False, default=True)
    start_when_full = StrictBooleanField(required=False, default=False)
    min_reliability = StrictIntegerField(
        required=False, default=None, allow_null=True, min_value=1, max_value=100,
        help_text="Percent of their last 100 deadlines a joining player must have met.")
    min_rating = StrictFloatField(
        required=False, default=None, allow_null=True, min_value=-100, max_value=100,
        help_text="Rating at this game a joining player must have (invited players exempt).")

    def validated_terms(self) -> dict:
        return {name: self.validated_data[name] for name in
                ("name", "rated", "start_when_full", "min_reliability", "min_rating")}

    def validate_engine(self, value):
        slugs = {engine.slug for engine in all_engines()}
        if value not in slugs:
            raise serializers.ValidationError(
                gettext("Unknown game %(value)s; available: %(value_2)s.")
                    % {"value": f"{value!r}", "value_2": ', '.join(sorted(slugs)) or 'none'}
            )
        return value

    def validated_reserve(self) -> timedelta | None:
        seconds = self.validated_data.get("reserve")
        return timedelta(seconds=seconds) if seconds is not None else None

    def validated_time_per_move(self) -> timedelta | None:
        seconds = self.validated_data.get("time_per_move")
        return timedelta(seconds=seconds) if seconds is not None else None


class SeatSerializer(ModelSerializer):
    player = serializers.CharField(source="player_name")
    username = serializers.SerializerMethodField()
    is_you = serializers.SerializerMethodField()
    replaced_by_bot = serializers.BooleanField(read_only=True)
    deadline_local = serializers.SerializerMethodField(
        help_text="The deadline in the caller's own timezone (ISO 8601 with offset)."
    )
    time_left_seconds = serializers.SerializerMethodField(
        help_text="Seconds to the deadline as of the answer's `Date` header (the ETag stays the "
                  "same while they run): count down from `deadline_at`.")
    reserve_left_seconds = serializers.SerializerMethodField()
    on_vacation_until = serializers.SerializerMethodField()

    class Meta:
        model = Seat
        fields = ("number", "player", "username", "is_bot", "bot_level", "replaced_by_bot",
                  "deadline_at",
                  "deadline_local", "time_left_seconds", "reserve_left_seconds",
                  "on_vacation_until", "timeout_count", "is_you")

    def _viewer_zone(self):
        user = self.context["request"].user
        return user.zone if user.is_authenticated else None

    def get_deadline_local(self, seat) -> str | None:
        if seat.deadline_at is None:
            return None
        zone = self._viewer_zone()
        return (seat.deadline_at.astimezone(zone) if zone else seat.deadline_at).isoformat()

    def get_time_left_seconds(self, seat) -> int | None:
        from django.utils import timezone

        if seat.deadline_at is None:
            return None
        return max(int((seat.deadline_at - timezone.now()).total_seconds()), 0)

    def get_reserve_left_seconds(self, seat) -> int:
        return int(seat.reserve_left.total_seconds())

    def get_on_vacation_until(self, seat) -> str | None:
        away = self.context.get("vacations", {}).get(seat.user_id)
        return away.isoformat() if away else None

    def get_username(self, seat) -> str | None:
        return seat.user.username if seat.user_id else None

    def get_is_you(self, seat) -> bool:
        user = self.context["request"].user
        return bool(user.is_authenticated and seat.user_id == user.pk)


class RatingChangeSerializer(serializers.Serializer):
    before = StrictFloatField()
    after = StrictFloatField()


class StandingSerializer(serializers.Serializer):
    """One seat of a finished game's result."""

    rank = StrictIntegerField()
    seat = StrictIntegerField()
    player = serializers.CharField()
    username = serializers.CharField(allow_null=True)
    points = StrictIntegerField()
    winner = serializers.BooleanField()
    breakdown = serializers.DictField(child=StrictIntegerField())
    rating = RatingChangeSerializer(allow_null=True)


class GameSummarySerializer(ModelSerializer):
    engine_name = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="created_by.username")
    time_per_move = serializers.SerializerMethodField()
    seats = serializers.SerializerMethodField()
    awaiting_seats = serializers.SerializerMethodField()
    reserve = serializers.SerializerMethodField()
    standings = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = (
            "id", "engine", "engine_name", "status", "num_players", "options", "time_per_move",
            "reserve", "max_consecutive_timeouts", "allow_spectators", "version", "created_by",
            "created_at", "started_at",
            "finished_at", "seats", "awaiting_seats",
            "name", "rated", "start_when_full", "min_reliability", "min_rating", "rematch_of",
            "standings",
        )

    @extend_schema_field(StandingSerializer(many=True, allow_null=True))
    def get_standings(self, game) -> list[dict] | None:
        """Once finished: rank, player, points, breakdown and rating change per seat (null
        before the end)."""
        if game.status != "finished" or not game.result:
            return None
        return [{"rank": row.rank, "seat": row.seat.number, "player": row.seat.player_name,
                 "username": row.seat.user.username if row.seat.user_id else None,
                 "points": row.score, "winner": row.winner, "breakdown": row.breakdown,
                 "rating": {"before": row.rating_change["before"],
                            "after": row.rating_change["after"]} if row.rating_change else None}
                for row in profiles.result_rows(game)]

    def get_engine_name(self, game) -> str:
        return engine_name(game.engine)

    def get_time_per_move(self, game) -> int:
        return int(game.time_per_move.total_seconds())

    def get_reserve(self, game) -> int:
        return int(game.reserve.total_seconds())

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, game):
        vacations = self.context.get("vacations")  # read with the game's stamp, if it was
        if vacations is None:
            vacations = selectors.vacations_now(game)
        context = {**self.context, "vacations": vacations}
        return SeatSerializer(game.seats.all(), many=True, context=context).data

    def get_awaiting_seats(self, game) -> list[int]:
        return selectors.awaiting_seats(game)


class GameDetailSerializer(GameSummarySerializer):
    your_seat = serializers.SerializerMethodField()
    view = serializers.SerializerMethodField()
    result = GameResultField(read_only=True)

    class Meta(GameSummarySerializer.Meta):
        fields = (*GameSummarySerializer.Meta.fields, "your_seat", "view", "result")

    def get_your_seat(self, game) -> int | None:
        return selectors.viewer_seat_number(game, self.context["request"].user)

    @extend_schema_field(EngineViewField(allow_null=True))
    def get_view(self, game):
        request = self.context["request"]
        return selectors.game_view_for(game, request.user, language=reader_language(request))


class ChatMessageSerializer(ModelSerializer):
    author = serializers.CharField(source="author.public_name", read_only=True)
    username = serializers.CharField(source="author.username", read_only=True)
    body = serializers.SerializerMethodField()
    hidden = serializers.SerializerMethodField()
    kind = serializers.CharField(read_only=True, help_text=(
        "message: written by a player; system: the table's answer to a command typed in the "
        "chat (/join, /start, /help…), its body in the reader's language"))
    key = serializers.CharField(read_only=True, help_text="A system line's message key "
                                "(joined, left, started, bot_added, invited, undone, "
                                "resign_confirm, resigned, help, unknown, refused); empty for "
                                "a message.")
    params = serializers.JSONField(read_only=True, help_text=(
        "A system line's parameters; a refusal's `code` is the error code the command's own "
        "endpoint answers."))
    private = serializers.SerializerMethodField(help_text="Only the caller reads this line.")

    class Meta:
        model = ChatMessage
        fields = ("id", "author", "username", "body", "hidden", "created_at", "kind", "key",
                  "params", "private")

    def get_hidden(self, message) -> bool:
        return message.hidden_at is not None

    def get_body(self, message) -> str:
        if message.hidden_at:
            return ""
        if message.is_system:
            with translation.override(reader_language(self.context.get("request"))):
                return message.text()
        return message.body

    def get_private(self, message) -> bool:
        return message.audience_id is not None


class AddBotSerializer(serializers.Serializer):
    level = serializers.ChoiceField(
        choices=bots.LEVELS, default=bots.DEFAULT_LEVEL,
        help_text="search: plays by searching; hard: searches longer (up to 2 s a move); "
                  "easy: a heuristic")


class ChatPostSerializer(serializers.Serializer):
    body = StrictCharField(max_length=CHAT_MESSAGE_MAX_LENGTH, trim_whitespace=True)


class ReportCreateSerializer(serializers.Serializer):
    target = serializers.ChoiceField(choices=ReportTarget.choices)
    id = StrictIntegerField(min_value=1, help_text="The message, player or game id.")
    reason = serializers.ChoiceField(choices=ReportReason.choices)
    details = StrictCharField(required=False, allow_blank=True, max_length=2000, default="")


class ReportSerializer(ModelSerializer):
    class Meta:
        model = Report
        fields = ("id", "target", "reason", "details", "status", "created_at")


class InviteSerializer(serializers.Serializer):
    username = StrictCharField(help_text="The username or email of the player to invite.")


class LegalActionSerializer(serializers.Serializer):
    index = StrictIntegerField()
    action = EngineActionField()
    description = serializers.CharField(
        help_text="What the action does, in the request's language; seats read \"Seat N\".")
    text = serializers.JSONField(
        help_text="The same as a message key with parameters (`k`, `p`).")


class ActionSubmitSerializer(serializers.Serializer):
    action = EngineActionField(help_text="One of the legal actions, exactly as listed.")
    version = StrictIntegerField(
        min_value=0, help_text="The game version you saw; a stale one is refused with 409."
    )
    seat = StrictIntegerField(
        required=False, min_value=0,
        help_text="Optional: the seat you act for. It must be your own seat.",
    )


class UndoSerializer(serializers.Serializer):
    version = StrictIntegerField(
        min_value=0, help_text="The game version you saw; a stale one is refused with 409."
    )


class UndoResultSerializer(serializers.Serializer):
    sequence = StrictIntegerField(help_text="The undo's own log entry.")
    version = StrictIntegerField()
    description = serializers.CharField(
        help_text="The undo's log entry as the caller reads it, in the request's language.")
    undone = StrictIntegerField(help_text="The log entry of the move taken back.")


class ActionResultSerializer(serializers.Serializer):
    sequence = StrictIntegerField()
    version = StrictIntegerField(help_text="The game's version now: send it with the "
                                                 "next move.")
    description = serializers.CharField(
        help_text="The move's log entry as the caller reads it, in the request's language "
                  "(the signed-in player's, else Accept-Language); seats read \"Seat N\".")
    replayed = serializers.BooleanField()
    status = serializers.ChoiceField(choices=GameStatus.choices,
                                     help_text="The game's status after the move.")
    awaiting_seats = serializers.ListField(
        child=StrictIntegerField(),
        help_text="The seats to act now (yours again when the move left you a decision).")
    game = GameDetailSerializer(
        required=False,
        help_text="The whole game with your view: only when asked for, with the header "
                  "`Prefer: return=representation` or `?view=1`.")


class LogEntrySerializer(ModelSerializer):
    description = serializers.SerializerMethodField(
        help_text="The entry as the caller may read it, in the request's language (the "
                  "signed-in player's, else Accept-Language), players named as the game's page "
                  "names them.")
    text = serializers.SerializerMethodField(
        help_text="The same as a message key with parameters (`k`, `p`), for clients that "
                  "translate themselves; entries written before texts were kept hold their "
                  "English sentence as the key `literal` with the parameter `text`.")

    class Meta:
        model = Action
        fields = ("sequence", "kind", "seat_number", "source", "description", "text",
                  "undone_by", "created_at")

    def get_description(self, entry) -> str:
        return entry_text(entry, self.context.get("viewer_seat"),
                          engine_slug=self.context.get("engine"),
                          language=self.context.get("language"),
                          names=self.context.get("names"))

    def get_text(self, entry) -> dict:
        return entry.text_for(self.context.get("viewer_seat"))


class LastMoveSerializer(serializers.Serializer):
    sequence = StrictIntegerField()
    player = serializers.CharField(allow_null=True)
    text = serializers.CharField()
    at = serializers.DateTimeField()


class MyGameSerializer(ModelSerializer):
    """One of the caller's games as a phone app or a bot lists them (Lichess' "playing")."""

    title = serializers.CharField(read_only=True)
    your_seat = serializers.SerializerMethodField()
    is_my_turn = serializers.SerializerMethodField()
    seconds_left = serializers.SerializerMethodField()
    deadline_at = serializers.SerializerMethodField()
    players = serializers.SerializerMethodField()
    last_move = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = ("id", "title", "engine", "status", "version", "your_seat", "is_my_turn",
                  "seconds_left", "deadline_at", "players", "last_move")

    def _seat(self, game):
        return selectors.seat_of(game, self.context["request"].user)

    def get_your_seat(self, game) -> int | None:
        seat = self._seat(game)
        return seat.number if seat else None

    def get_is_my_turn(self, game) -> bool:
        seat = self._seat(game)
        return bool(seat and game.status == "active" and seat.deadline_at is not None)

    def get_seconds_left(self, game) -> int | None:
        seat = self._seat(game)
        if seat is None or seat.deadline_at is None:
            return None
        return max(int((seat.deadline_at - timezone.now()).total_seconds()), 0)

    def get_deadline_at(self, game) -> str | None:
        seat = self._seat(game)
        return seat.deadline_at.isoformat() if seat and seat.deadline_at else None

    def get_players(self, game) -> list[str]:
        return [seat.player_name for seat in sorted(game.seats.all(),
                                                    key=lambda seat: seat.number or 0)]

    @extend_schema_field(LastMoveSerializer(allow_null=True))
    def get_last_move(self, game):
        entry = game.actions.order_by("-sequence").first()
        if entry is None:
            return None
        names = seat_names(game)
        seat = self._seat(game)
        text = entry_text(entry, seat.number if seat else None, names=names,
                          engine_slug=game.engine,
                          language=reader_language(self.context["request"]))
        return {"sequence": entry.sequence, "at": entry.created_at,
                "player": names.get(entry.seat_number) if entry.seat_number is not None else None,
                "text": text}
