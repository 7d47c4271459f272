"""The game's chat (its players, and before it starts those who may join; @mentions told; commands
run) and players' reports to the moderators."""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from games.exceptions import ChatError, ChatThrottled, NotAllowed, ReportError
from games.models import (
    CHAT_MESSAGE_MAX_LENGTH,
    ActionSource,
    ChatLineKind,
    ChatMessage,
    Game,
    GameStatus,
    Report,
    ReportReason,
    ReportStatus,
    ReportTarget,
)
from games.presentation.visible_text import visible_text
from games.selectors import can_view
from games.services.access import locked_game, now_or, require_unrestricted
from games.services.commands import command_parse, command_run
from games.services.lobby import join_refusal
from games.services.writes import emit

CHAT_RATE = (5, timedelta(minutes=1))  # at most 5 messages a minute per player and game
MENTION = re.compile(r"@([\w.@+-]{1,150})")


def chat_post(*, game_id: int, user, body: str, source: str = ActionSource.WEB,
              now: datetime | None = None) -> ChatMessage:
    """A player writes in the game's chat; @username mentions notify those players. A line
    that types a command (services.commands) runs it instead and the table's answer, a system
    line, is returned: `source` is where it was typed (web, api, email)."""
    now = now_or(now)
    require_unrestricted(user)
    # Zero-width spaces, bidi marks and the like are trimmed like spaces: a message of nothing
    # else would show as an empty line.
    text = visible_text(body)
    if not text:
        raise ChatError(gettext("A message cannot be empty: it has no visible characters."))
    if len(text) > CHAT_MESSAGE_MAX_LENGTH:
        raise ChatError(gettext("A message can be at most %(chat_message_max_length)s characters.")
                            % {"chat_message_max_length": CHAT_MESSAGE_MAX_LENGTH})
    command = command_parse(text)
    if isinstance(command, str):  # "//text" posts "/text"
        text, command = command, None
    with transaction.atomic():
        game = locked_game(game_id)
        seats = list(game.seats.select_related("user"))
        if command is None:
            _require_writer(game, seats, user)
        elif not can_view(game, user):
            raise NotAllowed(gettext("Only the players of this game can write in its chat."))
        _require_pace(game, user, now)
        if command is not None:
            answer = command_run(game=game, user=user, command=command, source=source, now=now)
            return ChatMessage.objects.create(
                game=game, author=user, body=text, kind=ChatLineKind.SYSTEM, key=answer.key,
                params=answer.params, audience=user if answer.private else None)
        message = ChatMessage.objects.create(game=game, author=user, body=text)
        names = {name.lower() for name in MENTION.findall(text)}
        mentioned = [
            seat.user_id for seat in seats
            if seat.user_id and seat.user_id != user.pk and seat.user.username.lower() in names
        ]
        if mentioned:
            emit(game.pk, "mention", [], user_ids=mentioned, author_id=user.pk,
                 message_id=message.pk)
    return message


def _require_writer(game: Game, seats: list, user) -> None:
    """The seated players write in a game's chat; before it starts, so does everyone who may
    join it (in a private game: the invited)."""
    if any(seat.user_id == user.pk for seat in seats):
        return
    if game.status != GameStatus.OPEN:
        raise NotAllowed(gettext("Only the players of this game can write in its chat."))
    refusal = join_refusal(game, user)
    if refusal:
        raise NotAllowed(refusal)


def _require_pace(game: Game, user, now: datetime) -> None:
    """At most CHAT_RATE lines a player writes in a game, commands included."""
    limit, window = CHAT_RATE
    recent = ChatMessage.objects.filter(game=game, author=user, created_at__gt=now - window)
    if recent.count() >= limit:
        oldest = recent.order_by("created_at").values_list("created_at", flat=True).first()
        wait = max(1, math.ceil((oldest + window - now).total_seconds()))
        raise ChatThrottled(gettext("You are writing too fast; wait a minute and try again."),
                            details={"limit": limit, "retry_after_seconds": wait})


def report_create(*, reporter, target: str, object_id: int, reason: str,
                  details: str = "") -> Report:
    """Any player reports a chat message, a player or a game to the moderators."""
    from accounts.models import User

    if reason not in ReportReason.values:
        raise ReportError(gettext("Choose a reason: %(value)s.")
                              % {"value": ', '.join(ReportReason.values)})
    if len(details) > 2000:
        raise ReportError(gettext("Please keep the details under 2000 characters."))
    fields: dict[str, Any] = {}
    if target == ReportTarget.MESSAGE:
        message = ChatMessage.objects.select_related("game").filter(pk=object_id).first()
        if message is None or message.is_system or not can_view(message.game, reporter):
            raise ReportError(gettext("There is no such message."))
        if message.author_id == reporter.pk:
            raise ReportError(gettext("You cannot report your own message."))
        fields = {"message": message, "game": message.game, "player": message.author}
    elif target == ReportTarget.PLAYER:
        player = User.objects.filter(pk=object_id).first()
        if player is None:
            raise ReportError(gettext("There is no such player."))
        if player.pk == reporter.pk:
            raise ReportError(gettext("You cannot report yourself."))
        fields = {"player": player}
    elif target == ReportTarget.GAME:
        game = Game.objects.filter(pk=object_id).first()
        if game is None or not can_view(game, reporter):
            raise ReportError(gettext("There is no such game."))
        fields = {"game": game}
    else:
        raise ReportError(gettext("You can report a message, a player or a game."))
    duplicate = Report.objects.filter(reporter=reporter, target=target,
                                      status=ReportStatus.OPEN, **fields).first()
    if duplicate is not None:
        return duplicate
    return Report.objects.create(reporter=reporter, target=target, reason=reason,
                                 details=details.strip(), **fields)

