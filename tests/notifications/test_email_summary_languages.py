"""The emails' game lines in the recipient's language: Stone Age, 7 Wonders (three players, and
two with the Free City) and Caverna read in Persian, Chinese and Italian keep no English word of
the summaries' sentences, Persian counts in Persian digits, and English reads as before."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from games.engines.registry import get_engine
from games.presentation import summaries
from games.presentation.summaries import game_lines, seat_names
from notifications.inbound import context as play
from tests.notifications.email_play import started
from tests.notifications.test_email_summaries import play_moves, section, turn_email

pytestmark = pytest.mark.django_db

LANGUAGES = ["fa", "zh-hans", "it"]
GAMES = [("stone_age", 3), ("seven_wonders", 3), ("seven_wonders", 2), ("caverna", 3)]
PLACEHOLDER = re.compile(r"%\([^)]+\)s")


def summary_words() -> set[str]:
    """Every English word the summaries' own sentences use (their gettext msgids)."""
    words = set()
    for path in Path(summaries.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("gettext", "gettext_lazy", "ngettext")):
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        words |= set(re.findall(r"[A-Za-z]{3,}", PLACEHOLDER.sub("", arg.value)))
    return words


WORDS = summary_words()


def english_left(lines: list[str], names: dict[int, str]) -> list[str]:
    """The summaries' English words found in `lines` (players' own names left out)."""
    found = []
    for line in lines:
        unnamed = line
        for name in names.values():
            unnamed = unnamed.replace(name, "")
        found += [word for word in WORDS if re.search(rf"\b{word}\b", unnamed, re.IGNORECASE)]
    return found


def lines_in(game, seat: int, language: str) -> list[str]:
    view = get_engine(game.engine).view(game.state, seat)
    with translation.override(language):
        return game_lines(game.engine, view, seat_names(game), seat)


def test_the_summaries_have_english_words_to_look_for():
    assert {"Round", "points", "dwarfs", "coins", "Free", "City", "won"} <= WORDS


@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_game_lines_keep_no_english_sentence_in_other_languages(slug, players):
    game, users = started(slug, players, seed=f"summary-languages-{slug}-{players}")
    play_moves(game, users, 3)
    game.refresh_from_db()
    names = seat_names(game)
    seat = play.seat_for(game, users[0]).number
    english = lines_in(game, seat, "en")
    # The English lines do read in English: the check below can find what stayed English.
    assert len(english_left(english, names)) > 10, english
    for language in LANGUAGES:
        lines = lines_in(game, seat, language)
        assert len(lines) == len(english), (language, lines)
        assert english_left(lines, names) == [], (language, lines)
        if language == "fa":
            # Counts in Persian digits (players' names keep theirs).
            status = lines[0]
            for name in names.values():
                status = status.replace(name, "")
            assert not re.search(r"[0-9]", status) and re.search(r"[۰-۹]", status), lines


def test_english_lines_read_as_before():
    game, users = started("stone_age", 3, seed="summary-languages-english")
    seat = play.seat_for(game, users[0]).number
    lines = lines_in(game, seat, "en")
    assert re.fullmatch(r"Round 1, placing people; \d+ cards left in the deck\.", lines[0])
    assert lines[1].startswith("Now: ")
    you = next(line for line in lines if line.startswith("You"))
    assert re.search(r"^You( \(start player\))?: 0 points, 5 people \(5 to place\), "
                     r"12 food \(\+0 a round\), 0 wood, 0 clay, 0 stone, 0 gold, tools none, "
                     r"0 cards, 0 buildings$", you), you


def test_a_persian_players_turn_email_shows_the_game_in_persian():
    game, users = started("caverna", 3, seed="summary-languages-email")
    game.refresh_from_db()
    user = next(user for user in users if play.is_their_turn(game, user))
    user.language = "fa"
    user.save(update_fields=["language"])
    message = turn_email(game, user)
    with translation.override("fa"):
        expected = lines_in(game, play.seat_for(game, user).number, "fa")
    assert expected[0].startswith("دور ")
    for line in expected:
        assert line in message.body, (line, message.body)
    assert not section(message.body, "The game as you see it:")
