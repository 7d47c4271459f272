"""REST API v1 endpoints (paths in ARCHITECTURE.md). Validate, call a service, serialise."""

from __future__ import annotations

from django.db.models import F, Min, Q, prefetch_related_objects
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, mixins, permissions, status, viewsets
from rest_framework.decorators import action as route
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.permissions import TokenScopeRequired
from config.throttling import UserRateThrottle
from games import selectors, services
from games.api import etags
from games.api.idempotency import IDEMPOTENCY_KEY, idempotency_key, idempotent
from games.api.players import PLAYER_FILTER_PARAMETERS, GamePlayersMixin, player_filters
from games.api.serializers import (
    ActionResultSerializer,
    ActionSubmitSerializer,
    AddBotSerializer,
    ChatMessageSerializer,
    ChatPostSerializer,
    EngineDetailSerializer,
    EngineSerializer,
    GameCreateSerializer,
    GameDetailSerializer,
    GameExportSerializer,
    GameSummarySerializer,
    InviteSerializer,
    LegalActionSerializer,
    LogEntrySerializer,
    MyGameSerializer,
    ReportCreateSerializer,
    ReportSerializer,
    UndoResultSerializer,
    UndoSerializer,
)
from games.engines.registry import UnknownEngine, all_engines, get_engine
from games.exceptions import GameError
from games.log.export import game_export
from games.models import ActionSource, GameStatus, Report
from games.presentation.names import seat_names
from games.presentation.texts import engine_described, message_text, reader_language

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}

#: The largest `since` of a log read as a sequence number (twelve digits).
MAX_SEQUENCE = 10**12 - 1

#: A game's GET answers carry a weak ETag of their own (games.api.conditional); every other
#: GET answer one hashed from its body (config.settings: ConditionalGetMiddleware).
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER,
    description="The `ETag` of an earlier answer (a weak one, `W/\"…\"`): 304 with no body "
                "while nothing that answer shows has changed. Each caller, language and "
                "query has its own ETag. Answers are `Cache-Control: private, no-cache`.")
NOT_MODIFIED = OpenApiResponse(
    description="Not modified: the answer whose ETag was sent still stands (its "
                "`time_left_seconds` were as of its own `Date`; count from `deadline_at`).")


def query_flag(request, name: str) -> bool:
    """A boolean query parameter: absent is false; `true`/`false` (or 1/0, yes/no, on/off);
    anything else is refused (400), not read as false."""
    raw = request.query_params.get(name)
    if raw is None:
        return False
    if raw.lower() in TRUE_WORDS:
        return True
    if raw.lower() in FALSE_WORDS:
        return False
    raise ValidationError({name: gettext("Must be true or false.")})


def wants_representation(request) -> bool:
    """RFC 7240 `Prefer: return=representation`, or `?view=1` for clients that cannot set it."""
    preferences = {token.strip().lower() for header in request.headers.get("Prefer", "").split(",")
                   for token in header.split(";")}
    return "return=representation" in preferences or query_flag(request, "view")


def _move_text(result: services.SubmitResult, request) -> str:
    """The move's log entry as its player reads it, in the request's language, players named
    (as the log and the game's page read)."""
    if result.text is None:
        return ""
    prefetch_related_objects([result.game], "seats__user")
    return message_text(result.game.engine, result.text, language=reader_language(request),
                        names=seat_names(result.game))


class ChatThrottle(UserRateThrottle):
    """Writing is limited per player on top of the service's per-game limit; reading is not."""

    scope = "chat"

    def allow_request(self, request, view):
        return request.method != "POST" or super().allow_request(request, view)

class EngineListView(APIView):
    permission_classes = [permissions.AllowAny, TokenScopeRequired]

    @extend_schema(operation_id="list_engines", tags=["engines"], summary="List the games on offer",
                   responses={200: EngineSerializer(many=True)})
    def get(self, request):
        language = reader_language(request)
        return Response([engine_described(engine, language=language)
                         for engine in all_engines()])


class EngineDetailView(APIView):
    permission_classes = [permissions.AllowAny, TokenScopeRequired]

    @extend_schema(
        operation_id="get_engine", tags=["engines"],
        summary="One game: its options and the JSON Schemas of its actions and views",
        description="`action_schema` validates every action this game's legal-action listing "
                    "can hold (what POST .../actions/ takes back); `view_schema` validates the "
                    "`view` of a game of it, for any player or a spectator (JSON Schema "
                    "2020-12).",
        responses={200: EngineDetailSerializer})
    def get(self, request, slug: str):
        try:
            engine = get_engine(slug)
        except UnknownEngine:
            raise NotFound(gettext("There is no game %(slug)s.") % {"slug": f"{slug!r}"}) from None
        return Response({**engine_described(engine, language=reader_language(request)),
                         "action_schema": engine.action_schema(),
                         "view_schema": engine.view_schema()})

class GameViewSet(GamePlayersMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                  viewsets.GenericViewSet):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, TokenScopeRequired]
    serializer_class = GameSummarySerializer
    #: For the schema: writes that depend on the game's state (409) or refuse a body (422).
    schema_conflicts = ("create", "join", "leave", "start", "add_bot", "take_back", "actions",
                        "resign", "invite", "undo", "decline", "rematch")
    #: 422: a request the schema allows and the rules refuse (games.exceptions).
    schema_unprocessable = ("actions", "create", "invite", "chat")
    #: The token scope writes need (the chat route asks for `chat` instead).
    write_scope = "play"
    # Game ids are numbers: /games/abc/ is simply not found (404), never a lookup that fails.
    lookup_value_regex = r"[0-9]+"

    def get_queryset(self):
        params = self.request.query_params
        status_filter = params.get("status")
        if status_filter and status_filter not in GameStatus.values:
            raise ValidationError({"status": gettext("Must be one of %(values)s.") % {
                "values": ", ".join(GameStatus.values)}})
        games = selectors.game_list(
            user=self.request.user,
            status=status_filter,
            mine=query_flag(self.request, "mine"),
            awaiting_me=query_flag(self.request, "awaiting"),
        )
        return player_filters(games, params)

    def get_object(self):
        game = selectors.game_with_seats(int(self.kwargs["pk"]))
        if game is None or not selectors.game_access(self.request.user, game).may_view:
            raise NotFound(gettext("There is no such game."))
        return game

    def _validator(self, request, answer: str):
        """The ETag of this game's `answer` for the caller, and the 304 when they hold it
        already, from the game's stamp alone (one query; neither the state nor the engine).
        The stamp is one statement, so one version; a body read after it in a snapshot gets its
        tag through `_body_etag`."""
        stamp = selectors.game_stamp(game_id=int(self.kwargs["pk"]))
        if stamp is None:
            return None, None, None  # no such game: the full path answers 404
        etag = etags.game_etag(request, stamp, answer=answer)
        if not stamp.shown_without_invitation(request.user):
            return stamp, etag, None  # perhaps an invitee: the full path checks, no 304 here
        return stamp, etag, etags.not_modified(request, etag)

    def _body_etag(self, request, answer: str, stamp, etag, game):
        """The ETag for a body read inside a snapshot: when a move committed between the stamp
        and the snapshot, the stamp is read again inside the snapshot, so that a tag never
        names another version than its body (a query more, on that race alone)."""
        if stamp is None or stamp.version == game.version:
            return etag
        return etags.game_etag(request, selectors.game_stamp(game_id=game.pk), answer=answer)

    def _detail(self, game, code=status.HTTP_200_OK):
        return Response(self._shown(game.pk), code)

    def _created(self, game):
        """A new game's 201, with its address in Location."""
        return Response(self._shown(game.pk), status.HTTP_201_CREATED, headers={
            "Location": self.request.build_absolute_uri(reverse("game-detail",
                                                                kwargs={"pk": game.pk}))})

    def _shown(self, game_id: int) -> dict:
        """The game as GET answers it, read in one snapshot (after a change: as it is now)."""
        with selectors.snapshot():
            game = selectors.game_with_seats(game_id)
            return GameDetailSerializer(game, context={"request": self.request}).data

    @extend_schema(
        operation_id="list_games", tags=["games"], summary="List games (the lobby)",
        parameters=[
            OpenApiParameter("status", OpenApiTypes.STR, enum=GameStatus.values),
            OpenApiParameter("mine", OpenApiTypes.BOOL, description="Only games I sit in."),
            OpenApiParameter("awaiting", OpenApiTypes.BOOL, description="Games awaiting my move."),
            *PLAYER_FILTER_PARAMETERS,
        ]
    )
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @extend_schema(operation_id="get_game", tags=["games"],
                   summary="A game: seats, clocks and the view the caller may see",
                   description="Each seat's `time_left_seconds` is as of the answer's `Date` "
                               "header: a client showing a clock counts down from "
                               "`deadline_at`. The answer's weak `ETag` stays the same while "
                               "only those seconds run, so `If-None-Match` answers 304 until "
                               "something the caller sees changes (a move, a join, a clock, a "
                               "name); the 304 costs one small query.",
                   responses={200: GameDetailSerializer, 304: NOT_MODIFIED},
                   parameters=[IF_NONE_MATCH])
    def retrieve(self, request, *args, **kwargs):
        stamp, etag, unchanged = self._validator(request, "game")
        user = request.user
        if unchanged is not None:
            if user.pk in stamp.notified:
                services.seat_mark_seen(game_id=stamp.game_id, user=user)
            return unchanged
        # The body from one snapshot (the seats' `away_until` are the vacations it shows);
        # marking the turn seen writes, after it.
        with selectors.snapshot():
            game = self.get_object()
            seat = selectors.game_access(user, game).seat
            body = GameDetailSerializer(game, context={"request": request}).data
            etag = self._body_etag(request, "game", stamp, etag, game)
        if seat is not None and seat.turn_notified_at is not None:
            services.seat_mark_seen(game_id=game.pk, user=user)
        return etags.private(Response(body), etag)

    @extend_schema(
        operation_id="invite_player", tags=["games"], summary="Invite a player to an open game",
        request=InviteSerializer, responses={204: None},
        description="Invite someone, by username or email, to this open game. The answer is "
                    "the same whoever is named (an account or not, already invited or seated): "
                    "only a first invitation of an existing player notifies them. Limited to "
                    "GAME_INVITATIONS_PER_HOUR requests an hour (429).",
        parameters=[IDEMPOTENCY_KEY],
    )
    @route(detail=True, methods=["post"])
    @idempotent()
    def invite(self, request, pk=None):
        serializer = InviteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.game_invite(game_id=self.get_object().pk, inviter=request.user,
                             login=serializer.validated_data["username"])
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(operation_id="take_back_seat", tags=["games"],
                   summary="Take your seat back from the bot",
                   request=None, responses={200: GameDetailSerializer},
                   description="Take your seat back from the bot that plays it (after timeouts "
                               "or a moderator's decision; never after resigning).")
    @route(detail=True, methods=["post"], url_path="take-back")
    def take_back(self, request, pk=None):
        return self._detail(services.seat_take_back(game_id=self.get_object().pk,
                                                    user=request.user))

    @extend_schema(operation_id="create_game", tags=["games"], summary="Open a new game",
                   request=GameCreateSerializer, responses={201: GameDetailSerializer},
                   parameters=[IDEMPOTENCY_KEY])
    @idempotent()
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
            **serializer.validated_terms(),
        )
        return self._created(game)

    @extend_schema(operation_id="join_game", tags=["games"], summary="Take a seat in an open game",
                   request=None, responses={200: GameDetailSerializer})
    @route(detail=True, methods=["post"])
    def join(self, request, pk=None):
        return self._detail(services.game_join(game_id=self.get_object().pk, user=request.user))

    @extend_schema(operation_id="leave_game", tags=["games"],
                   summary="Leave an open game before it starts",
                   request=None, responses={200: GameDetailSerializer})
    @route(detail=True, methods=["post"])
    def leave(self, request, pk=None):
        return self._detail(services.game_leave(game_id=self.get_object().pk, user=request.user))

    @extend_schema(operation_id="start_game", tags=["games"],
                   summary="Start your game once its seats are filled",
                   request=None, responses={200: GameDetailSerializer})
    @route(detail=True, methods=["post"])
    def start(self, request, pk=None):
        return self._detail(services.game_start(game_id=self.get_object().pk, user=request.user))

    @extend_schema(operation_id="add_bot", tags=["games"], summary="Seat a bot in your open game",
                   request=AddBotSerializer, responses={200: GameDetailSerializer})
    @route(detail=True, methods=["post"], url_path="add-bot")
    def add_bot(self, request, pk=None):
        serializer = AddBotSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return self._detail(services.game_add_bot(game_id=self.get_object().pk, user=request.user,
                                                  level=serializer.validated_data["level"]))

    @extend_schema(
        methods=["GET"], operation_id="list_legal_actions", tags=["moves"],
        summary="My legal actions now",
        request=None, parameters=[IF_NONE_MATCH],
        responses={200: LegalActionSerializer(many=True), 304: NOT_MODIFIED},
        description="The caller's legal actions now, in the engine's order, each with its "
                    "text: a plain list (never paginated), empty when the caller has nothing "
                    "to do. Each `action` validates against the engine's `action_schema` "
                    "(GET /api/v1/engines/{slug}/); send one back unchanged to play it.",
    )
    @extend_schema(
        methods=["POST"], operation_id="submit_action", tags=["moves"],
        summary="Play one of my legal actions",
        description="Send one listed action exactly as listed, with the game version you saw. "
                    "A version is stale (409) only when something changed your own choices "
                    "since: other players' simultaneous picks do not. The answer says the new "
                    "`version`, the `status` and the `awaiting_seats`, enough to go on; the "
                    "whole game with your view comes only when asked for "
                    "(`Prefer: return=representation` or `?view=1`).",
        request=ActionSubmitSerializer,
        responses={200: ActionResultSerializer},
        parameters=[
            IDEMPOTENCY_KEY,
            OpenApiParameter(
                "Prefer", OpenApiTypes.STR, OpenApiParameter.HEADER,
                description="`return=representation`: the answer carries the whole `game` "
                            "(with your view), as GET /api/v1/games/{id}/ would.",
            ),
            OpenApiParameter(
                "view", OpenApiTypes.BOOL, description="The same as `Prefer: "
                "return=representation`, for clients that cannot set headers."),
        ],
    )
    @route(detail=True, methods=["get", "post"], pagination_class=None)
    def actions(self, request, pk=None):
        if request.method == "GET":
            stamp, etag, unchanged = self._validator(request, "actions")
            if unchanged is not None:
                return unchanged
            with selectors.snapshot():
                game = self.get_object()
                listed = selectors.legal_actions_for(game, request.user,
                                                     language=reader_language(request))
                etag = self._body_etag(request, "actions", stamp, etag, game)
            return etags.private(Response(listed), etag)
        return self._submit(request, int(pk))

    def _submit(self, request, game_id: int) -> Response:
        """A move reads and locks the game once, in the service; the game is read again (with
        the caller's view) only when the client asks for it. Whoever may not see the game gets
        the 404 of every other route, whatever was wrong with the request."""
        serializer = ActionSubmitSerializer(data=request.data)
        try:
            representation = wants_representation(request)  # a bad ?view= refused before
            serializer.is_valid(raise_exception=True)
            key = idempotency_key(request)
            # In the caller's language (a token's user, whom the middleware does not see, too):
            # a refusal's reason reads in it.
            with translation.override(reader_language(request)):
                result = services.game_action_submit(
                    game_id=game_id,
                    user=request.user,
                    action=serializer.validated_data["action"],
                    expected_version=serializer.validated_data["version"],
                    idempotency_key=key,
                    source=ActionSource.API,
                    seat_number=serializer.validated_data.get("seat"),
                )
        except (ValidationError, GameError):
            self.get_object()  # 404 for a game the caller may not see
            raise
        body = {**result.outcome, "description": _move_text(result, request),
                "replayed": result.replayed}
        if "awaiting_seats" not in body:  # a replayed result stored before these were kept
            body.update(status=result.game.status,
                        awaiting_seats=selectors.awaiting_seats(result.game))
        headers = {}
        if representation:
            body["game"] = self._shown(game_id)
            headers["Preference-Applied"] = "return=representation"
        return Response(body, headers=headers)

    @extend_schema(
        operation_id="undo_move", tags=["moves"], summary="Take back your last move",
        request=UndoSerializer, responses={200: UndoResultSerializer},
        description="Takes back the caller's last move, back to the start of their turn, while "
        "nothing was revealed since (no die, no card, no other player's move): 409 "
        "`undo_refused` with the reason otherwise, 409 `stale_version` for an old version.",
    )
    @route(detail=True, methods=["post"])
    def undo(self, request, pk=None):
        game = self.get_object()
        serializer = UndoSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = services.game_move_undo(
            game_id=game.pk, user=request.user,
            expected_version=serializer.validated_data["version"], source=ActionSource.API)
        return Response({**result.outcome, "description": _move_text(result, request)})

    @extend_schema(methods=["GET"], operation_id="list_chat_messages", tags=["chat"],
                   summary="Read a game's chat, newest first",
                   request=None, responses={200: ChatMessageSerializer(many=True)})
    @extend_schema(methods=["POST"], operation_id="post_chat_message", tags=["chat"],
                   summary="Write in a game's chat", request=ChatPostSerializer,
                   responses={201: ChatMessageSerializer}, parameters=[IDEMPOTENCY_KEY])
    @route(detail=True, methods=["get", "post"], throttle_classes=[ChatThrottle],
           write_scope="chat")
    @idempotent()
    def chat(self, request, pk=None):
        """The game's chat: players write, spectators read (if the game allows spectators);
        before the game starts, those who may join write too. A line typing a command (/join,
        /leave, /start, /bot [easy|search], /invite <name>, /help; in a running game /undo,
        /resign confirm) runs it through the same services as its endpoint, and the answer is
        a system line (201): a refusal is a line only the caller reads, with its error `code`."""
        game = self.get_object()
        if request.method == "GET":
            page = self.paginate_queryset(selectors.chat_lines_for(game, request.user)
                                          .order_by("-created_at", "-id"))
            return self.get_paginated_response(
                ChatMessageSerializer(page, many=True, context={"request": request}).data)
        serializer = ChatPostSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        message = services.chat_post(game_id=game.pk, user=request.user,
                                     body=serializer.validated_data["body"],
                                     source=ActionSource.API)
        location = request.build_absolute_uri(reverse(
            "game-chat-message", kwargs={"pk": game.pk, "message_id": message.pk}))
        return Response(ChatMessageSerializer(message, context={"request": request}).data,
                        status=status.HTTP_201_CREATED, headers={"Location": location})

    @extend_schema(operation_id="get_chat_message", tags=["chat"],
                   summary="One message of a game's chat (the Location of a new one)",
                   request=None, responses={200: ChatMessageSerializer})
    @route(detail=True, methods=["get"], url_path=r"chat/(?P<message_id>[0-9]+)",
           url_name="chat-message", pagination_class=None)
    def chat_message(self, request, pk=None, message_id=None):
        game = self.get_object()
        # The lines the caller may read: another player's private lines (refusals, help) are not.
        message = get_object_or_404(selectors.chat_lines_for(game, request.user), pk=message_id)
        return Response(ChatMessageSerializer(message, context={"request": request}).data)

    @extend_schema(operation_id="list_log_entries", tags=["moves"],
                   summary="A game's log, oldest first",
                   responses={200: LogEntrySerializer(many=True), 304: NOT_MODIFIED}, parameters=[
        IF_NONE_MATCH,
        OpenApiParameter("since", {"type": "integer", "minimum": 0, "maximum": MAX_SEQUENCE},
                         description="Only entries after this sequence number."),
    ])
    @route(detail=True, methods=["get"])
    def log(self, request, pk=None):
        since = request.query_params.get("since")
        if since is not None and (not since.isascii() or not since.isdigit()
                                  or len(since) > len(str(MAX_SEQUENCE))):
            self.get_object()  # 404 for a game the caller may not see, whatever else is wrong
            raise ValidationError({"since": gettext("Must be a sequence number (0 or more).")})
        stamp, etag, unchanged = self._validator(request, "log")
        if unchanged is not None:
            return unchanged
        with selectors.snapshot():  # the page and its count from one version
            game = self.get_object()
            etag = self._body_etag(request, "log", stamp, etag, game)
            entries = game.actions.order_by("sequence")
            if since is not None:
                entries = entries.filter(sequence__gt=int(since))
            page = self.paginate_queryset(entries)
            context = {"viewer_seat": selectors.game_access(request.user, game).seat_number,
                       "engine": game.engine, "language": reader_language(request),
                       "names": seat_names(game)}
            return etags.private(self.get_paginated_response(
                LogEntrySerializer(page, many=True, context=context).data
            ), etag)

    @extend_schema(
        operation_id="resign_game", tags=["moves"], summary="Resign a running game",
        request=None, responses={200: GameDetailSerializer},
        description="Give up your seat for good. While at least two people still play, a bot "
                    "plays your seat on and the game continues; when only one would be left, "
                    "the game ends and the players still in it win (`result.by_resignation`).",
    )
    @route(detail=True, methods=["post"])
    def resign(self, request, pk=None):
        return self._detail(services.game_resign(game_id=self.get_object().pk, user=request.user))

    @extend_schema(
        operation_id="export_game", tags=["moves"], summary="Export a game's record",
        responses={200: GameExportSerializer},
        description="Options, players and every log entry's payload in order. A finished "
                    "game's export also has the seed and the result: "
                    "`python manage.py verify_export FILE` replays it. While a game runs, the "
                    "seed is left out and so is the payload of any move the caller may not see "
                    "(`hidden: true`).",
    )
    @route(detail=True, methods=["get"], pagination_class=None)
    def export(self, request, pk=None):
        with selectors.snapshot():
            game = self.get_object()
            return Response(game_export(game, selectors.game_access(request.user, game)
                                        .seat_number))

class MyGamesView(generics.ListAPIView):
    """The caller's games, their turn first, then by the nearest deadline."""

    permission_classes = [permissions.IsAuthenticated, TokenScopeRequired]
    serializer_class = MyGameSerializer

    @extend_schema(operation_id="list_my_games", tags=["account"],
                   summary="My games, those awaiting my move first", parameters=[
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
            raise ValidationError({"status": gettext("Must be one of %(values)s.") % {
                "values": ", ".join(GameStatus.values)}})
        user = self.request.user
        games = selectors.game_list(user=user, mine=True, status=status_filter,
                                    awaiting_me=query_flag(self.request, "awaiting"))
        if not status_filter:
            games = games.filter(status__in=[GameStatus.OPEN, GameStatus.ACTIVE])
        my_deadline = Min("seats__deadline_at", filter=Q(seats__user=user))
        return games.annotate(my_deadline=my_deadline).order_by(
            F("my_deadline").asc(nulls_last=True), "-id")

class ReportCreateView(APIView):
    """Report a chat message, a player or a game to the moderators."""

    permission_classes = [permissions.IsAuthenticated, TokenScopeRequired]
    schema_more_errors = (422,)  # nothing to report there, or one's own message
    write_scope = "chat"

    @extend_schema(operation_id="create_report", tags=["moderation"],
                   summary="Report a message, a player or a game",
                   request=ReportCreateSerializer, responses={201: ReportSerializer},
                   parameters=[IDEMPOTENCY_KEY])
    @idempotent()
    def post(self, request):
        serializer = ReportCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        report = services.report_create(reporter=request.user, target=data["target"],
                                        object_id=data["id"], reason=data["reason"],
                                        details=data["details"])
        location = request.build_absolute_uri(reverse("api-report",
                                                      kwargs={"report_id": report.pk}))
        return Response(ReportSerializer(report).data, status=status.HTTP_201_CREATED,
                        headers={"Location": location})


class ReportDetailView(APIView):
    """One of the caller's own reports, as the moderators have it now (its `status`)."""

    permission_classes = [permissions.IsAuthenticated, TokenScopeRequired]

    @extend_schema(operation_id="get_report", tags=["moderation"],
                   summary="One of my reports and its status", responses={200: ReportSerializer})
    def get(self, request, report_id: int):
        report = get_object_or_404(Report, pk=report_id, reporter=request.user)
        return Response(ReportSerializer(report).data)
