"""REST API v1 endpoints (paths in ARCHITECTURE.md). Validate, call a service, serialise."""

from __future__ import annotations

from django.db.models import F, Min, Q
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, mixins, permissions, status, viewsets
from rest_framework.decorators import action as route
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.api.serializers import (
    ActionResultSerializer,
    ActionSubmitSerializer,
    AddBotSerializer,
    ChatMessageSerializer,
    ChatPostSerializer,
    EngineSerializer,
    GameCreateSerializer,
    GameDetailSerializer,
    GameSummarySerializer,
    InviteSerializer,
    LegalActionSerializer,
    LogEntrySerializer,
    MyGameSerializer,
    ReportCreateSerializer,
    ReportSerializer,
)
from games.api.throttling import FailOpenUserRateThrottle
from games.engines.registry import all_engines
from games.models import ActionSource, GameStatus

TRUE_WORDS = {"1", "true", "yes", "on"}


#: Every GET answer carries an ETag (config.settings: ConditionalGetMiddleware).
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER,
    description="The ETag of an earlier answer: 304 with no body while nothing changed.")
NOT_MODIFIED = OpenApiResponse(description="Not modified since the ETag sent.")


class ChatThrottle(FailOpenUserRateThrottle):
    """Writing is limited per player on top of the service's per-game limit; reading is not."""

    scope = "chat"

    def allow_request(self, request, view):
        return request.method != "POST" or super().allow_request(request, view)


class EngineListView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: EngineSerializer(many=True)})
    def get(self, request):
        return Response([engine.describe_engine() for engine in all_engines()])


class GameViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = GameSummarySerializer
    # Game ids are numbers: /games/abc/ is simply not found (404), never a lookup that fails.
    lookup_value_regex = r"[0-9]+"

    def get_queryset(self):
        params = self.request.query_params
        status_filter = params.get("status")
        if status_filter and status_filter not in GameStatus.values:
            raise ValidationError({"status": f"Must be one of {', '.join(GameStatus.values)}."})
        games = selectors.game_list(
            user=self.request.user,
            status=status_filter,
            mine=params.get("mine", "").lower() in TRUE_WORDS,
            awaiting_me=params.get("awaiting", "").lower() in TRUE_WORDS,
        )
        return games

    def get_object(self):
        game = get_object_or_404(selectors.game_list(), pk=self.kwargs["pk"])
        if not selectors.can_view(game, self.request.user):
            raise NotFound("There is no such game.")
        return game

    def _detail(self, game, code=status.HTTP_200_OK):
        game = selectors.game_list().get(pk=game.pk)
        return Response(GameDetailSerializer(game, context={"request": self.request}).data, code)

    @extend_schema(
        parameters=[
            OpenApiParameter("status", OpenApiTypes.STR, enum=GameStatus.values),
            OpenApiParameter("mine", OpenApiTypes.BOOL, description="Only games I sit in."),
            OpenApiParameter("awaiting", OpenApiTypes.BOOL, description="Games awaiting my move."),
        ]
    )
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @extend_schema(responses={200: GameDetailSerializer, 304: NOT_MODIFIED},
                   parameters=[IF_NONE_MATCH])
    def retrieve(self, request, *args, **kwargs):
        game = self.get_object()
        if request.user.is_authenticated:
            services.seat_mark_seen(game=game, user=request.user)
        return self._detail(game)

    @extend_schema(
        request=InviteSerializer, responses={204: None},
        description="Invite someone, by username or email, to this open game. The answer is "
                    "the same whoever is named (an account or not, already invited or seated): "
                    "only a first invitation of an existing player notifies them. Limited to "
                    "GAME_INVITATIONS_PER_HOUR requests an hour (429).",
    )
    @route(detail=True, methods=["post"])
    def invite(self, request, pk=None):
        serializer = InviteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.game_invite(game_id=self.get_object().pk, inviter=request.user,
                             login=serializer.validated_data["username"])
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={200: GameDetailSerializer},
                   description="Take your seat back from the bot that plays it.")
    @route(detail=True, methods=["post"], url_path="take-back")
    def take_back(self, request, pk=None):
        return self._detail(services.seat_take_back(game_id=self.get_object().pk,
                                                    user=request.user))

    @extend_schema(request=GameCreateSerializer, responses={201: GameDetailSerializer})
    def create(self, request):
        serializer = GameCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        game = services.game_create(
            creator=request.user,
            engine_slug=data["engine"],
            num_players=data["num_players"],
            options=data["options"],
            time_per_move=serializer.validated_time_per_move(),
            reserve=serializer.validated_reserve(),
            max_consecutive_timeouts=data["max_consecutive_timeouts"],
            allow_spectators=data["allow_spectators"],
        )
        return self._detail(game, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: GameDetailSerializer})
    @route(detail=True, methods=["post"])
    def join(self, request, pk=None):
        return self._detail(services.game_join(game_id=self.get_object().pk, user=request.user))

    @extend_schema(request=None, responses={200: GameDetailSerializer})
    @route(detail=True, methods=["post"])
    def leave(self, request, pk=None):
        return self._detail(services.game_leave(game_id=self.get_object().pk, user=request.user))

    @extend_schema(request=None, responses={200: GameDetailSerializer})
    @route(detail=True, methods=["post"])
    def start(self, request, pk=None):
        return self._detail(services.game_start(game_id=self.get_object().pk, user=request.user))

    @extend_schema(request=AddBotSerializer, responses={200: GameDetailSerializer})
    @route(detail=True, methods=["post"], url_path="add-bot")
    def add_bot(self, request, pk=None):
        serializer = AddBotSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return self._detail(services.game_add_bot(game_id=self.get_object().pk, user=request.user,
                                                  level=serializer.validated_data["level"]))

    @extend_schema(
        methods=["GET"], request=None, responses={200: LegalActionSerializer(many=True)},
        description="The caller's legal actions now, each with its describe text.",
    )
    @extend_schema(
        methods=["POST"],
        request=ActionSubmitSerializer,
        responses={200: ActionResultSerializer},
        parameters=[
            OpenApiParameter(
                "Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER,
                description="Retrying with the same key repeats the first result.",
            )
        ],
    )
    @route(detail=True, methods=["get", "post"])
    def actions(self, request, pk=None):
        game = self.get_object()
        if request.method == "GET":
            return Response(selectors.legal_actions_for(game, request.user))
        serializer = ActionSubmitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        key = request.headers.get("Idempotency-Key") or None
        if key is not None and not 1 <= len(key) <= 128:
            raise ValidationError({"Idempotency-Key": "Must be 1 to 128 characters."})
        result = services.game_action_submit(
            game_id=game.pk,
            user=request.user,
            action=serializer.validated_data["action"],
            expected_version=serializer.validated_data["version"],
            idempotency_key=key,
            source=ActionSource.API,
            seat_number=serializer.validated_data.get("seat"),
        )
        game = selectors.game_list().get(pk=game.pk)
        body = {
            **result.outcome,
            "replayed": result.replayed,
            "game": GameDetailSerializer(game, context={"request": request}).data,
        }
        return Response(body)

    @extend_schema(methods=["GET"], request=None,
                   responses={200: ChatMessageSerializer(many=True)})
    @extend_schema(methods=["POST"], request=ChatPostSerializer,
                   responses={201: ChatMessageSerializer})
    @route(detail=True, methods=["get", "post"], throttle_classes=[ChatThrottle])
    def chat(self, request, pk=None):
        """The game's chat: players write, spectators read (if the game allows spectators)."""
        game = self.get_object()
        if request.method == "GET":
            page = self.paginate_queryset(game.chat_messages.select_related("author")
                                          .order_by("-created_at", "-id"))
            return self.get_paginated_response(ChatMessageSerializer(page, many=True).data)
        serializer = ChatPostSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        message = services.chat_post(game_id=game.pk, user=request.user,
                                     body=serializer.validated_data["body"])
        return Response(ChatMessageSerializer(message).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: LogEntrySerializer(many=True), 304: NOT_MODIFIED}, parameters=[
        IF_NONE_MATCH,
        OpenApiParameter("since", OpenApiTypes.INT,
                         description="Only entries after this sequence number."),
    ])
    @route(detail=True, methods=["get"])
    def log(self, request, pk=None):
        game = self.get_object()
        entries = game.actions.order_by("sequence")
        since = request.query_params.get("since")
        if since is not None:
            if not since.isascii() or not since.isdigit() or len(since) > 12:
                raise ValidationError({"since": "Must be a sequence number (0 or more)."})
            entries = entries.filter(sequence__gt=int(since))
        page = self.paginate_queryset(entries)
        context = {"viewer_seat": selectors.viewer_seat_number(game, request.user)}
        return self.get_paginated_response(
            LogEntrySerializer(page, many=True, context=context).data
        )


class MyGamesView(generics.ListAPIView):
    """The caller's games, their turn first, then by the nearest deadline."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = MyGameSerializer

    @extend_schema(parameters=[
        OpenApiParameter("awaiting", OpenApiTypes.BOOL,
                         description="Only games waiting for my move."),
        OpenApiParameter("status", OpenApiTypes.STR, enum=GameStatus.values,
                         description="Default: open and active games."),
    ])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        params = self.request.query_params
        status_filter = params.get("status")
        if status_filter and status_filter not in GameStatus.values:
            raise ValidationError({"status": f"Must be one of {', '.join(GameStatus.values)}."})
        user = self.request.user
        games = selectors.game_list(user=user, mine=True, status=status_filter,
                                    awaiting_me=params.get("awaiting", "").lower() in TRUE_WORDS)
        if not status_filter:
            games = games.filter(status__in=[GameStatus.OPEN, GameStatus.ACTIVE])
        my_deadline = Min("seats__deadline_at", filter=Q(seats__user=user))
        return games.annotate(my_deadline=my_deadline).order_by(
            F("my_deadline").asc(nulls_last=True), "-id")


class ReportCreateView(APIView):
    """Report a chat message, a player or a game to the moderators."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ReportCreateSerializer, responses={201: ReportSerializer})
    def post(self, request):
        serializer = ReportCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        report = services.report_create(reporter=request.user, target=data["target"],
                                        object_id=data["id"], reason=data["reason"],
                                        details=data["details"])
        return Response(ReportSerializer(report).data, status=status.HTTP_201_CREATED)
