"""The table's commands typed in the chat ("/join", "/start", "/resign confirm"…): read from a
line as any of the four languages' keyboards type it, and run through the lobby, invitation,
undo and ending services the buttons call, so a command is refused exactly as its button is."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction

from games.engines import bots
from games.exceptions import GameError
from games.models import Game, GameStatus
from games.services.endings import game_resign
from games.services.invitations import game_invite
from games.services.lobby import game_add_bot, game_join, game_leave, game_start
from games.services.undo import game_move_undo

#: Each command's words, as the English one it stands for: the Italian, Persian and Chinese
#: players' own words work as well as the English ones (the help lines name both).
COMMAND_WORDS = {
    "join": ("join", "entra", "partecipa", "unisciti", "پیوستن", "بپیوند", "加入"),
    "leave": ("leave", "esci", "lascia", "ترک", "خروج", "离开", "退出"),
    "start": ("start", "inizia", "avvia", "comincia", "شروع", "开始"),
    "bot": ("bot", "robot", "ربات", "机器人"),
    "invite": ("invite", "invita", "دعوت", "邀请"),
    "help": ("help", "?", "aiuto", "comandi", "راهنما", "کمک", "؟", "帮助", "命令"),
    "undo": ("undo", "annulla", "واگرد", "برگرد", "悔棋", "撤销"),
    "resign": ("resign", "abbandona", "arrenditi", "تسلیم", "认输", "投降"),
}
#: The word after "/resign" that confirms it.
CONFIRM_WORDS = ("confirm", "yes", "conferma", "sì", "si", "تایید", "تأیید", "بله", "确认", "是")
BOT_LEVEL_WORDS = {"easy": "easy", "facile": "easy", "ساده": "easy", "简单": "easy",
                   "search": "search", "ricerca": "search", "forte": "search",
                   "جستجو": "search", "قوی": "search", "搜索": "search", "强": "search",
                   "hard": "hard", "difficile": "hard", "سخت": "hard", "困难": "hard"}

_COMMANDS = {word: name for name, words in COMMAND_WORDS.items() for word in words}
#: After NFKC the full-width "／" of Chinese and Japanese keyboards is "/". A Chinese IME in
#: Chinese mode types "、" on the slash key: read as a command mark only before a command word.
_SLASH = "/"
_IME_SLASH = "、"
#: Persian text typed with an Arabic keyboard layout: its yeh and kaf are other code points.
_PERSIAN_LETTERS = str.maketrans({"ي": "ی", "ى": "ی", "ك": "ک"})
#: The Latin letter under each key of the standard Persian layout: "/join" typed while that
#: layout is on arrives as "/تخهد", and is read as "/join".
_QWERTY_OF_PERSIAN_KEYS = str.maketrans(dict(zip(
    "ضصثقفغعهخحشسیبلاتنمظطزرذدپ", "qwertyuiopasdfghjklzxcvbnm", strict=True)))


@dataclass(frozen=True)
class Command:
    """A command read from a chat line: its English name (None: not a command we know), its
    arguments, and the line as typed."""

    name: str | None
    args: tuple[str, ...]
    typed: str

    @property
    def word(self) -> str:
        """The command word as typed ("/entra", "／ＳＴＡＲＴ"), to quote it back."""
        return self.typed.split()[0]


@dataclass(frozen=True)
class Answer:
    """The table's answer to a command: a message key with its parameters, for every reader of
    the chat or (`private`) only for the player who typed it."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    private: bool = False


def _normalised(text: str) -> str:
    return unicodedata.normalize("NFKC", text).translate(_PERSIAN_LETTERS).casefold()


def _known(word: str, words) -> str | None:
    """`word` (normalised) as one of `words`, also when typed with the Persian layout on."""
    if word in words:
        return word
    latin = word.translate(_QWERTY_OF_PERSIAN_KEYS)
    return latin if latin in words else None


def command_parse(text: str) -> Command | str | None:
    """The command a chat line types, or None for an ordinary message. A line starting with
    "//" is an ordinary message starting with "/": the text to post is returned."""
    stripped = text.strip()
    normalised = _normalised(stripped)
    if normalised.startswith(_SLASH * 2):
        return stripped[1:]
    if normalised.startswith(_SLASH):
        words = normalised[1:].split()
    elif normalised.startswith(_IME_SLASH):
        words = normalised[1:].split()
        if not words or _known(words[0], _COMMANDS) is None:
            return None
    else:
        return None
    if not words:
        return Command(name=None, args=(), typed=stripped)
    # Arguments keep their case ("/invite Bob"): only the command word is read case-blind.
    original_args = tuple(unicodedata.normalize("NFKC", stripped).split()[1:])
    return Command(name=_COMMANDS.get(_known(words[0], _COMMANDS) or ""), args=original_args,
                   typed=stripped)


def command_run(*, game: Game, user, command: Command, source: str, now: datetime) -> Answer:
    """Runs `command` for `user` through the services its button calls; a refusal is the
    service's own words, told to that player alone. Never raises a GameError."""
    try:
        with transaction.atomic():
            return _dispatch(game, user, command, source, now)
    except GameError as error:
        return Answer("refused", {"command": command.word, "code": error.code,
                                  "reason": error.message}, private=True)


def _phase(game: Game) -> str:
    return {GameStatus.OPEN: "open", GameStatus.ACTIVE: "active"}.get(game.status, "over")


def _dispatch(game: Game, user, command: Command, source: str, now: datetime) -> Answer:
    name, args = command.name, command.args
    if name is None:
        return Answer("unknown", {"command": command.word, "phase": _phase(game)}, private=True)
    if name == "help":
        return Answer("help", {"phase": _phase(game)}, private=True)
    if name == "join":
        game_join(game_id=game.pk, user=user, now=now)
        return Answer("joined")
    if name == "leave":
        game_leave(game_id=game.pk, user=user)
        return Answer("left")
    if name == "start":
        game_start(game_id=game.pk, user=user, now=now)
        return Answer("started")
    if name == "bot":
        level = (BOT_LEVEL_WORDS.get(_known(_normalised(args[0]), BOT_LEVEL_WORDS) or "",
                                     args[0]) if args else bots.DEFAULT_LEVEL)
        game_add_bot(game_id=game.pk, user=user, level=level)
        return Answer("bot_added", {"level": level})
    if name == "invite":
        login = " ".join(args)
        game_invite(game_id=game.pk, inviter=user, login=login, now=now)
        return Answer("invited", {"name": login}, private=True)
    if name == "undo":
        # The game is locked since the line was read: its version is the one the player saw.
        game_move_undo(game_id=game.pk, user=user, expected_version=game.version, now=now,
                       source=source)
        return Answer("undone")
    # resign: only with the confirming word; asking first is itself refused where resigning is.
    confirmed = bool(args) and _known(_normalised(args[0]), CONFIRM_WORDS) is not None
    if not confirmed and game.status == GameStatus.ACTIVE and game.seats.filter(
            user=user, resigned_at__isnull=True).exists():
        return Answer("resign_confirm", {"command": f"{command.word} confirm"},
                      private=True)
    game_resign(game_id=game.pk, user=user, now=now)
    return Answer("resigned")

