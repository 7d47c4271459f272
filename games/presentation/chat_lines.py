"""The table's system lines in the chat (answers to typed commands), rendered from their message
key and parameters in the active language, so each reader reads them in their own."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, pgettext


def _help(phase: str) -> str:
    if phase == "open":
        return gettext("Commands before the game starts: /join, /leave, /start (its creator), "
                       "/bot [easy|search|hard], /invite <name>, /help.")
    if phase == "active":
        return gettext("Commands in a running game: /undo (your last move), /resign, /help.")
    return gettext("This game is over: the table takes no more commands.")


def system_line_text(key: str, params: dict[str, Any], author: str) -> str:
    """One system line as the active language reads it; `author` names who typed the command."""
    player = {"player": author}
    if key == "joined":
        return gettext("%(player)s joined the table.") % player
    if key == "left":
        return gettext("%(player)s left the table.") % player
    if key == "started":
        return gettext("%(player)s started the game.") % player
    if key == "bot_added":
        level = {"easy": pgettext("bot level", "easy"),
                 "search": pgettext("bot level", "search"),
                 "hard": pgettext("bot level", "hard")}.get(params.get("level"), "")
        return gettext("%(player)s added a bot (%(level)s).") % {**player, "level": level}
    if key == "invited":
        # Whether the name is a player here is never told (games.services.invitations).
        return gettext("Your invitation to %(name)s is sent, if that player exists here.") % {
            "name": params.get("name", "")}
    if key == "undone":
        return gettext("%(player)s took back their last move.") % player
    if key == "resign_confirm":
        return gettext("Resigning gives up your seat for good. To resign, type %(command)s.") % {
            "command": params.get("command", "/resign confirm")}
    if key == "resigned":
        return gettext("%(player)s resigned.") % player
    if key == "help":
        return _help(params.get("phase", ""))
    if key == "unknown":
        return gettext("%(command)s is not a command.") % {
            "command": params.get("command", "/")} + " " + _help(params.get("phase", ""))
    if key == "refused":
        # The service's reason, in the words and language its player was refused in.
        return gettext("%(command)s refused: %(reason)s") % {
            "command": params.get("command", ""), "reason": params.get("reason", "")}
    return ""
