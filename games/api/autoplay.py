"""API for steps that need nobody: my conditional-move queue in a game, my forced-move and
standing-order settings for a game, and my defaults. Each reads or writes the caller's own seat
only; a queue is never shown to anyone else. Validation and changes live in games.autoplay."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.permissions import TokenScopeRequired
from games import selectors
from games.api.fields import StrictBooleanField
from games.engines.autoplay import MAX_QUEUE_CANDIDATES, MAX_QUEUE_STEPS
from games.engines.registry import all_engines
from games.presentation.texts import reader_language, standing_orders_in
from games.services import autoplay

QUEUE_HELP = (f"Up to {MAX_QUEUE_STEPS} decisions to come, each a list of 1 to "
              f"{MAX_QUEUE_CANDIDATES} candidate actions (as listed by GET /games/{{id}}/actions/ "
              "when the decision is at hand). When my next decision comes, its first candidate "
              "that is legal then is played (logged as `queued`); if none is, the queue is "
              "dropped and I am asked as usual.")


class QueueSerializer(serializers.Serializer):
    version = serializers.IntegerField(read_only=True)
    decisions = serializers.ListField(
        child=serializers.ListField(child=serializers.DictField()), help_text=QUEUE_HELP)


class QueueSetSerializer(serializers.Serializer):
    """A new queue: at least one decision, each with at least one candidate (DELETE empties
    a queue)."""

    decisions = serializers.ListField(
        child=serializers.ListField(child=serializers.DictField(), min_length=1,
                                    max_length=MAX_QUEUE_CANDIDATES),
        min_length=1, max_length=MAX_QUEUE_STEPS, help_text=QUEUE_HELP)


def _orders_schema(orders: list[dict]) -> dict:
    """The JSON Schema of {order: value} for these declared orders: each a string of its
    choices, nothing else."""
    values: dict[str, list[str]] = {}
    for order in orders:
        known = values.setdefault(order["name"], [])
        known.extend(choice["value"] for choice in order["choices"]
                     if choice["value"] not in known)
    return {"type": "object", "additionalProperties": False,
            "properties": {name: {"type": "string", "enum": choices}
                           for name, choices in sorted(values.items())}}


@extend_schema_field({
    **_orders_schema([order for engine in all_engines() for order in engine.standing_orders]),
    "nullable": True,
    "description": "{order: value} for this game (others follow my profile), or null. The "
                   "orders are those the game declares (`declared`): an order of another game "
                   "is refused with 422."})
class GameOrdersField(serializers.DictField):
    pass


@extend_schema_field({
    "type": "object", "additionalProperties": False,
    "properties": {engine.slug: {**_orders_schema(engine.standing_orders), "nullable": True}
                   for engine in all_engines() if engine.standing_orders},
    "description": "{game slug: {order: value}}, for the games that declare standing orders; "
                   "games not named keep theirs, a game named with null (or {}) goes back to "
                   "the defaults."})
class ProfileOrdersField(serializers.DictField):
    pass


class GameSettingsSerializer(serializers.Serializer):
    auto_forced = StrictBooleanField(
        allow_null=True, required=False,
        help_text="Play my forced moves in this game: true, false, or null (my profile's).")
    standing_orders = GameOrdersField(child=serializers.CharField(), required=False,
                                      allow_null=True)
    auto_forced_in_force = serializers.BooleanField(read_only=True)
    orders_in_force = serializers.DictField(read_only=True)
    declared = serializers.ListField(child=serializers.DictField(), read_only=True)


class ProfileSettingsSerializer(serializers.Serializer):
    auto_play_forced = StrictBooleanField(required=False)
    standing_orders = ProfileOrdersField(required=False)
    declared = serializers.DictField(read_only=True)


def _game_for(request, pk):
    game = selectors.game_list().filter(pk=pk).first()
    if game is None or not selectors.can_view(game, request.user):
        raise NotFound(gettext("There is no such game."))
    return game


def _game_settings_read(answer: dict, engine_slug: str, request) -> dict:
    """A game's settings answer with its declared orders in the reader's language."""
    return {**answer, "declared": standing_orders_in(engine_slug, answer["declared"],
                                                     language=reader_language(request))}


def _profile_settings_read(answer: dict, request) -> dict:
    """The profile's settings answer with every game's declared orders in the reader's
    language."""
    language = reader_language(request)
    return {**answer, "declared": {slug: standing_orders_in(slug, orders, language=language)
                                   for slug, orders in answer["declared"].items()}}


class GameQueueView(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScopeRequired]
    #: 409: queueing in a game that is not running; 422: a candidate no action could be.
    schema_more_errors = (409, 422)

    @extend_schema(operation_id="get_move_queue", tags=["moves"], summary="My queued moves",
                   responses={200: QueueSerializer}, description="My queued conditional moves.")
    def get(self, request, pk):
        return Response(autoplay.queue_read(game=_game_for(request, pk), user=request.user))

    @extend_schema(operation_id="set_move_queue", tags=["moves"], summary="Queue my next moves",
                   request=QueueSetSerializer, responses={200: QueueSerializer},
                   description="Replace my queue (refused with `your_move` while the decision "
                               "is at hand: make it instead).")
    def put(self, request, pk):
        serializer = QueueSetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = _game_for(request, pk)
        return Response(autoplay.queue_set(game_id=game.pk, user=request.user,
                                           decisions=serializer.validated_data["decisions"]))

    @extend_schema(operation_id="cancel_move_queue", tags=["moves"], summary="Cancel my queue",
                   request=None, responses={204: None}, description="Cancel my queue.")
    def delete(self, request, pk):
        autoplay.queue_clear(game_id=_game_for(request, pk).pk, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameAutoplayView(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScopeRequired]
    schema_more_errors = (422,)  # orders the game does not declare

    @extend_schema(operation_id="get_game_autoplay", tags=["moves"],
                   summary="My automatic-move settings in a game",
                   responses={200: GameSettingsSerializer},
                   description="My forced-move and standing-order settings for this game.")
    def get(self, request, pk):
        game = _game_for(request, pk)
        return Response(_game_settings_read(
            autoplay.settings_read(game=game, user=request.user), game.engine, request))

    @extend_schema(operation_id="set_game_autoplay", tags=["moves"],
                   summary="Change my automatic-move settings in a game",
                   request=GameSettingsSerializer, responses={200: GameSettingsSerializer})
    def put(self, request, pk):
        serializer = GameSettingsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = _game_for(request, pk)
        return Response(_game_settings_read(
            autoplay.settings_set(game_id=game.pk, user=request.user,
                                  **serializer.validated_data), game.engine, request))


class MyAutoplayView(APIView):
    permission_classes = [permissions.IsAuthenticated, TokenScopeRequired]
    schema_more_errors = (422,)  # orders the game does not declare

    @extend_schema(operation_id="get_my_autoplay", tags=["account"],
                   summary="My default automatic-move settings",
                   responses={200: ProfileSettingsSerializer},
                   description="My defaults: forced moves on or off, standing orders per game.")
    def get(self, request):
        return Response(_profile_settings_read(autoplay.profile_read(user=request.user),
                                               request))

    @extend_schema(operation_id="set_my_autoplay", tags=["account"],
                   summary="Change my default automatic-move settings",
                   request=ProfileSettingsSerializer, responses={200: ProfileSettingsSerializer})
    def put(self, request):
        serializer = ProfileSettingsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(_profile_settings_read(
            autoplay.profile_set(user=request.user, **serializer.validated_data), request))
