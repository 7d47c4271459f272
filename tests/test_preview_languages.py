"""The preview of a choice ("wood: 3 → 1") reads in the reader's language: each field of the
engines' views a preview can show is worded by its engine's catalog (a good, a resource, a score
category by the name the catalog already gives it), its numbers in the language's digits, its
texts rendered; the page's confirm panel shows it so."""

from __future__ import annotations

import random
import re

import pytest

from config.engine_catalogs import LANGUAGES
from games.engines.registry import get_engine
from games.engines.texts import render
from games.models import Game
from games.presentation import board
from tests.engines.strict_catalogs import strict_translations
from tests.factories import started_game

LATIN = re.compile(r"[A-Za-z]")
#: (engine, players, options) of the random games whose views are read.
GAMES = [("stone_age", 2, None), ("stone_age", 4, None),
         ("seven_wonders", 3, {"wonders": "chosen", "sides": "chosen"}),
         ("seven_wonders", 2, None), ("caverna", 2, None), ("caverna", 1, None)]


def decisions(engine, state, chooser: random.Random, limit: int | None = None):
    """(state, seat, legal actions) at each decision along a random game from `state`, what
    needs nobody resolved, until the end or `limit` decisions; last the final state with no
    seat."""
    made = 0
    while not engine.is_over(state) and (limit is None or made < limit):
        active = engine.active_seats(state)
        if not active:
            state = engine.resolve(state)
            continue
        seat = chooser.choice(active)
        legal = engine.legal_actions(state, seat)
        yield state, seat, legal
        state = engine.apply(state, seat, chooser.choice(legal))
        made += 1
    yield state, None, []


def own_entries(slug: str, num_players: int, options: dict | None, games: int = 2):
    """Each seat's own entry of the view (as itself and as a spectator sees it) along random
    games, to the end."""
    engine = get_engine(slug)
    for index in range(games):
        start = engine.new_game(num_players, f"preview-{index}", options)
        for step, (state, seat, _legal) in enumerate(
                decisions(engine, start, random.Random(index))):
            if step % 3 == 0 or seat is None:
                for each in range(num_players):
                    for viewer in (each, None):
                        entry = board._own_entry(engine.view(state, viewer), each)
                        if entry is not None:
                            yield entry


@pytest.fixture(scope="module")
def paths():
    found: dict[str, set] = {}
    for slug, num_players, options in GAMES:
        catalog = get_engine(slug).text_catalog
        for entry in own_entries(slug, num_players, options):
            found.setdefault(slug, set()).update(board._leaves(entry, catalog))
    return found


def test_every_field_a_preview_can_show_is_worded_by_its_engine(paths):
    assert {slug for slug, _, _ in GAMES} == set(paths)
    unworded = sorted((slug, path) for slug, found in paths.items() for path in found
                      if board.field_text(slug, path) is None)
    assert not unworded, "name these fields in the engine's catalog (<prefix>.field.…):\n" \
        + "\n".join(map(str, unworded))
    assert ("resources", "wood") in paths["stone_age"]
    assert ("supply", "food") in paths["caverna"]
    assert ("wonder", "name") in paths["seven_wonders"]  # a text


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_fields_words_read_in_each_language(paths, language):
    """Through the compiled catalogs read strictly (a missing msgid fails, never falls back
    to English): no Latin letter in Persian and Chinese, no English words in Italian."""
    for slug, found in paths.items():
        catalog = get_engine(slug).text_catalog
        translations = strict_translations(slug, language)
        for path in found:
            label = board.field_text(slug, path)
            english = render(catalog, label)
            shown = render(catalog, label, translations)
            if language == "it":
                assert shown != english, (slug, path, shown)
            else:
                assert not LATIN.search(shown), (slug, path, shown)


def _changes(language: str) -> list[str]:
    """The previews of choices along random games of the three engines, in `language`."""
    lines = []
    for slug, num_players, options in GAMES[::2]:
        engine = get_engine(slug)
        start = engine.new_game(num_players, "preview-lines", options)
        for state, seat, legal in decisions(engine, start, random.Random(7), limit=100):
            for action in legal[:3]:
                lines += board.preview(engine, state, seat, action, language=language)
    return lines


def test_previews_read_in_persian_and_chinese_without_english():
    english = _changes("en")
    assert len(english) > 100 and any(line.startswith("wood: ") for line in english)
    persian, chinese, italian = _changes("fa"), _changes("zh-hans"), _changes("it")
    assert len(persian) == len(chinese) == len(italian) == len(english)
    for line in persian + chinese:
        assert not LATIN.search(line), line
    assert not re.search(r"[0-9]", "".join(persian))  # Persian digits
    assert " ← " in persian[0]  # the arrow points the way Persian reads
    for ours, theirs in zip(english, italian, strict=True):
        assert ours.split(":")[0] != theirs.split(":")[0], (ours, theirs)


def test_a_text_in_the_view_reads_rendered():
    before = {"players": [{"seat": 0, "wonder": {"name": {"k": "sw.wonder_name",
                                                           "p": {"wonder": "rhodes"}}}}]}
    after = {"players": [{"seat": 0, "wonder": {"name": {"k": "sw.wonder_name",
                                                          "p": {"wonder": "giza"}}}}]}
    english = board.view_changes(before, after, 0, engine_slug="seven_wonders", language="en")
    assert english == ["wonder: The Colossus of Rhodes → The Pyramids of Giza"]
    chinese = board.view_changes(before, after, 0, engine_slug="seven_wonders",
                                 language="zh-hans")
    assert len(chinese) == 1 and not LATIN.search(chinese[0])


@pytest.mark.django_db
def test_the_confirm_panel_shows_the_preview_in_the_players_language(client):
    game, users = started_game(2, engine="stone_age", seed="preview-page")
    engine = get_engine("stone_age")
    seat = engine.active_seats(game.state)[0]
    legal = engine.legal_actions(game.state, seat)
    index = next(i for i, action in enumerate(legal) if action.get("location") == "forest")
    users[seat].language = "fa"
    users[seat].save(update_fields=["language"])
    client.force_login(users[seat])
    game = Game.objects.get(pk=game.pk)
    page = client.get(f"/games/{game.pk}/preview/?index={index}&version={game.version}")
    changes = re.search(r'<ul class="changes"[^>]*>(.*?)</ul>', page.content.decode(), re.S)
    assert changes is not None
    shown = re.sub(r"<[^>]+>", " ", changes.group(1))
    assert "آدمک" in shown and not LATIN.search(shown), shown
