"""API v1 about players: public profiles, leaderboards, invite links, answers to invitations and
rematches, and the engine/player filters of the game list. Thin, like the rest of the API."""

from __future__ import annotations

import json
from datetime import UTC

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.core.handlers.asgi import ASGIRequest
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.dateparse import parse_datetime
from django.utils.timezone import make_aware
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import generics, permissions, serializers, status
from rest_framework.decorators import action as route
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.permissions import TokenScopeRequired
from games import selectors, services
from games.api.serializers import GameDetailSerializer, GameExportSerializer, engine_slugs
from games.engines.registry import UnknownEngine, all_engines, get_engine
from games.exceptions import NotAllowed
from games.log.export import game_export
from games.models import Game, GameStatus, Rating
from games.selectors import profiles
from games.services import invitations as invites
from games.services import ratings

#: The largest `max` read as a count (nine digits).
MAX_COUNT = 10**9 - 1


PLAYER_FILTER_PARAMETERS = [
    OpenApiParameter("engine", OpenApiTypes.STR, enum=engine_slugs(),
                     description="Only games of this engine."),
    OpenApiParameter("player", OpenApiTypes.STR,
                     description="Only games this player (a username) sits in."),
]


def player_filters(games, params):
    """`?engine=` and `?player=` on a game list; finished games come newest first."""
    engine = params.get("engine")
    if engine is not None:
        if engine not in {item.slug for item in all_engines()}:
            raise ValidationError({"engine": gettext("Unknown game %(slug)s.") % {
                "slug": repr(engine)}})
        games = games.filter(engine=engine)
    username = params.get("player")
    if username:
        player = get_user_model().objects.filter(username=username, is_active=True).first()
        if player is None:
            # As GET /api/v1/users/{username}/ answers it: well-formed, naming nobody.
            raise NotFound(gettext("There is no player %(username)s.") % {
                "username": repr(username)})
        games = games.filter(seats__user=player)
    if params.get("status") == GameStatus.FINISHED:
        games = games.order_by("-finished_at", "-id")
    return games


InviteLinkSerializer = inline_serializer("InviteLink", {
    "url": serializers.URLField(), "token": serializers.CharField(),
    "expires_in_days": serializers.IntegerField()})


# Actions on one game, mixed into the game view set: invite link, decline, rematch. (No
# docstring: drf-spectacular would take it as the description of every game operation.)
class GamePlayersMixin:

    @extend_schema(operation_id="get_invite_link", tags=["games"],
                   summary="A game's invite link", request=None,
                   responses={200: InviteLinkSerializer},
                   description="The game's invite link, for its players while it is open: "
                               "anyone holding it may join (even a private game) until it "
                               "expires or the game starts.")
    @route(detail=True, methods=["get"], url_path="invite-link")
    def invite_link(self, request, pk=None):
        game = self.get_object()
        if not request.user.is_authenticated or not game.seats.filter(user=request.user).exists():
            raise NotAllowed(gettext("Only the players of this game can share its invite link."))
        if game.status != GameStatus.OPEN:
            raise NotAllowed(gettext("Only an open game has an invite link."))
        return Response({"url": invites.invite_url(game), "token": invites.invite_token(game),
                         "expires_in_days": invites.invite_link_max_age().days})

    @extend_schema(operation_id="decline_invitation", tags=["games"],
                   summary="Decline an invitation", request=None, responses={204: None},
                   description="Decline your invitation to this game (the inviter is told). "
                               "To accept, join the game.")
    @route(detail=True, methods=["post"])
    def decline(self, request, pk=None):
        services.invitation_decline(game_id=self.get_object().pk, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(operation_id="offer_rematch", tags=["games"],
                   summary="Offer the same players a new game", request=None,
                   responses={201: GameDetailSerializer},
                   description="Offer the players of this finished game a new game with the "
                               "same options; it starts when all of them accept (join). "
                               "Asking again returns the rematch already offered.")
    @route(detail=True, methods=["post"])
    def rematch(self, request, pk=None):
        game = services.game_rematch(game_id=self.get_object().pk, user=request.user)
        return self._created(game)


class InviteLinkJoinView(APIView):
    """POST /api/v1/invite-links/{token}/join/: join the game an invite link names."""

    permission_classes = [permissions.IsAuthenticated, TokenScopeRequired]
    #: 409: already seated, or the game is full or started; 422: a link that is not valid
    #: (mistyped, expired).
    schema_more_errors = (409, 422)

    @extend_schema(operation_id="join_by_invite_link", tags=["games"],
                   summary="Join the game an invite link names", request=None,
                   responses={200: GameDetailSerializer})
    def post(self, request, token):
        game = invites.invite_link_join(token=token, user=request.user)
        game = selectors.game_list().get(pk=game.pk)
        return Response(GameDetailSerializer(game, context={"request": request}).data)


class PlayerRatingSerializer(serializers.Serializer):
    engine = serializers.CharField()
    rating = serializers.FloatField(help_text="The conservative OpenSkill rating (ordinal).")
    rated_games = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="Too few rated games to be sure yet.")


class EngineRecordSerializer(serializers.Serializer):
    engine = serializers.CharField()
    name = serializers.CharField()
    played = serializers.IntegerField(help_text="Finished games.")
    won = serializers.IntegerField()
    rating = PlayerRatingSerializer(allow_null=True, help_text="Null before a rated game.")


class ReliabilitySerializer(serializers.Serializer):
    percent = serializers.IntegerField(
        allow_null=True, help_text="Whole percent of recent deadlines met; null before any.")
    recent_deadlines = serializers.IntegerField()
    met = serializers.IntegerField()
    missed = serializers.IntegerField()
    timeouts_total = serializers.IntegerField()
    games_abandoned_to_bot = serializers.IntegerField()


class HeadToHeadSerializer(serializers.Serializer):
    games = serializers.IntegerField(help_text="Finished games you both played.")
    player_ahead = serializers.IntegerField(help_text="Games the player finished ahead of you.")
    viewer_ahead = serializers.IntegerField(help_text="Games you finished ahead of the player.")
    level = serializers.IntegerField()


class ProfileGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    engine = serializers.CharField()
    status = serializers.ChoiceField(choices=GameStatus.choices)


class UserProfileSerializer(serializers.Serializer):
    """A player's public profile (GET /api/v1/users/{username}/)."""

    username = serializers.CharField()
    display_name = serializers.CharField()
    member_since = serializers.DateTimeField()
    engines = EngineRecordSerializer(many=True)
    reliability = ReliabilitySerializer()
    head_to_head = HeadToHeadSerializer(
        allow_null=True, help_text="Against you; null for anonymous callers and your own profile.")
    current_games = ProfileGameSerializer(many=True, help_text="At most 50.")
    finished_games_url = serializers.URLField()


class UserProfileView(APIView):
    """A player's public profile: nothing private (no email, timezone or vacations)."""

    permission_classes = [permissions.AllowAny, TokenScopeRequired]

    @extend_schema(operation_id="get_user_profile", tags=["players"],
                   summary="A player's public profile", responses={200: UserProfileSerializer})
    def get(self, request, username):
        player = get_object_or_404(get_user_model(), username=username, is_active=True)
        facts = profiles.profile(player, request.user)
        current = profiles.current_games(player, request.user)[:50]
        head_to_head = facts["head_to_head"]
        return Response(UserProfileSerializer({
            "username": facts["username"],
            "display_name": facts["display_name"],
            "member_since": facts["member_since"],
            "engines": [record.as_dict() for record in facts["engines"]],
            "reliability": facts["reliability"].as_dict(),
            "head_to_head": head_to_head.as_dict() if head_to_head else None,
            "current_games": [{"id": game.pk, "title": game.title, "engine": game.engine,
                               "status": game.status} for game in current],
            "finished_games_url": request.build_absolute_uri(
                f"/api/v1/games/?status=finished&player={player.username}"),
        }).data)


class LeaderboardSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    player = serializers.CharField(source="user.public_name")
    rating = serializers.SerializerMethodField()
    provisional = serializers.SerializerMethodField()

    class Meta:
        model = Rating
        fields = ("username", "player", "rating", "rated_games", "provisional")

    def get_rating(self, row) -> float:
        return round(row.ordinal, 1)

    def get_provisional(self, row) -> bool:
        return row.rated_games < ratings.PROVISIONAL_GAMES


class LeaderboardView(generics.ListAPIView):
    """Ratings at one engine, established ones first, highest first."""

    permission_classes = [permissions.AllowAny, TokenScopeRequired]
    serializer_class = LeaderboardSerializer

    @extend_schema(operation_id="get_leaderboard", tags=["players"],
                   summary="The ratings at one game, highest first")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        try:
            get_engine(self.kwargs["engine"])
        except UnknownEngine:
            raise NotFound(gettext("There is no such game.")) from None
        return ratings.leaderboard(self.kwargs["engine"])


#: Games read and written per database round in a bulk export.
EXPORT_BATCH = 20


def _export_lines(game_ids: list[int]) -> str:
    """These finished games' exports, one JSON object a line, in the given order."""
    games = Game.objects.filter(pk__in=game_ids).prefetch_related("seats__user")
    by_id = {game.pk: game for game in games}
    return "".join(json.dumps(game_export(by_id[game_id], None), separators=(",", ":")) + "\n"
                   for game_id in game_ids if game_id in by_id)


def _batches(game_ids: list[int]) -> list[list[int]]:
    return [game_ids[start:start + EXPORT_BATCH]
            for start in range(0, len(game_ids), EXPORT_BATCH)]


class UserGamesExportView(APIView):
    """A player's finished games in bulk (Lichess' /api/games/user/{name}): one game export a
    line, newest first, streamed as it is read."""

    permission_classes = [permissions.AllowAny, TokenScopeRequired]
    streamed = True  # for the schema: ConditionalGetMiddleware tags no streamed body

    @extend_schema(
        operation_id="export_user_games", tags=["players"],
        summary="A player's finished games, one export a line (NDJSON)",
        description="Every finished game the player sat in that the caller may see, newest "
                    "first, each line one game's export as `GET /api/v1/games/{id}/export/` "
                    "answers it (with its seed and result): `python manage.py verify_export "
                    "FILE` replays a saved stream line by line. Streamed as it is read: a "
                    "client reads lines as they come.",
        parameters=[
            OpenApiParameter("engine", OpenApiTypes.STR, enum=engine_slugs(),
                             description="Only games of this engine."),
            OpenApiParameter("since", OpenApiTypes.DATETIME,
                             description="Only games finished at or after this instant."),
            OpenApiParameter("until", OpenApiTypes.DATETIME,
                             description="Only games finished before this instant."),
            OpenApiParameter("max", {"type": "integer", "minimum": 0, "maximum": MAX_COUNT},
                             description="At most this many games."),
        ],
        responses={(200, "application/x-ndjson"): GameExportSerializer})
    def get(self, request, username):
        player = get_object_or_404(get_user_model(), username=username, is_active=True)
        games = selectors.game_list(user=request.user, status=GameStatus.FINISHED).filter(
            seats__user=player)
        if "engine" in request.query_params:
            games = player_filters(games, {"engine": request.query_params["engine"]})
        for name, lookup in (("since", "finished_at__gte"), ("until", "finished_at__lt")):
            if name in request.query_params:
                games = games.filter(**{lookup: _instant(request.query_params[name], name)})
        game_ids = list(games.order_by("-finished_at", "-id").values_list("pk", flat=True))
        if "max" in request.query_params:
            game_ids = game_ids[:_count(request.query_params["max"])]
        if isinstance(request._request, ASGIRequest):
            async def lines():
                for batch in _batches(game_ids):
                    yield await sync_to_async(_export_lines)(batch)
        else:
            def lines():
                for batch in _batches(game_ids):
                    yield _export_lines(batch)
        return StreamingHttpResponse(lines(), content_type="application/x-ndjson")


def _instant(raw: str, name: str):
    moment = parse_datetime(raw)
    if moment is None:
        raise ValidationError({name: gettext("Must be a date and time (ISO 8601).")})
    return moment if moment.tzinfo else make_aware(moment, UTC)


def _count(raw: str) -> int:
    if not (raw.isascii() and raw.isdigit() and len(raw) <= len(str(MAX_COUNT))):
        raise ValidationError({"max": gettext("Must be a whole number (0 or more).")})
    return int(raw)
