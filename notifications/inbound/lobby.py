"""An answer to a lobby email (an invitation, "your game is full") about a game not started yet:
its first line is typed in the game's chat, so "/join" or "/start" runs as on the page."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext

from notifications.inbound.answers import answer_player
from notifications.models import InboundMessage, InboundStatus


def answer_table_command(inbound: InboundMessage, game, user, now: datetime,
                         first_line: str) -> None:
    """Runs the first line as a chat command (anything else asks for the table's help) and
    answers with the table's system line, in the player's language."""
    from games import services as game_services
    from games.exceptions import GameError
    from games.models import ActionSource
    from games.services.commands import Command, command_parse

    # Only a command: the rest of an email (a greeting, a signature) never lands in the chat.
    body = first_line if isinstance(command_parse(first_line), Command) else "/help"
    try:
        line = game_services.chat_post(game_id=game.pk, user=user, body=body,
                                       source=ActionSource.EMAIL, now=now)
    except GameError as error:
        answer_player(inbound, game, user, now, status=InboundStatus.REFUSED,
                      reason=error.code[:30], headline=gettext("Nothing was done"),
                      explanation=[error.message])
    refused = line.key in ("refused", "unknown")
    answer_player(inbound, game, user, now,
                  status=InboundStatus.REFUSED if refused else InboundStatus.ANSWERED,
                  reason=f"chat_{line.key}"[:30], headline=line.text())
