"""The view's wording as texts (keys with parameters, games.engines.texts): in English they read
as the board always did; in Persian, Chinese and Italian every one of them is translated (none
stays English); the game's own log lines read back to their keys."""

from __future__ import annotations

import random

import pytest

from games.engines.caverna import texts as T
from games.engines.caverna.board import idx
from games.engines.caverna.effects import LEGACY_TILE_TEXT, TILE_TEXT
from games.engines.caverna.engine import engine
from games.engines.texts import placeholders, render, text
from tests.engines.strict_catalogs import strict_translations

from .helpers import fresh, set_cell, turn_state

LANGUAGES = ("fa", "zh_Hans", "it")
english = T.english


def texts_in(value, found: list) -> list:
    """Every text in a view (a dict of a key and its parameters), outermost first."""
    if isinstance(value, dict):
        if isinstance(value.get("k"), str) and set(value) <= {"k", "p"}:
            found.append(value)
            return found
        for item in value.values():
            texts_in(item, found)
    elif isinstance(value, list):
        for item in value:
            texts_in(item, found)
    return found


def random_states(players: int, seed: str, every: int = 25):
    """States along a seeded random game, and its end."""
    chooser = random.Random(seed)
    state = engine.new_game(players, seed)
    step = 0
    while not engine.is_over(state):
        if step % every == 0:
            yield state
        seat = engine.active_seats(state)[0]
        state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))
        step += 1
    yield state


@pytest.fixture(scope="module")
def view_texts():
    """(text, English) of every text the views of two random games show, each once."""
    seen: dict[str, tuple[dict, str]] = {}
    for players, seed in ((1, "view-texts-solo"), (3, "view-texts")):
        for state in random_states(players, seed):
            for viewer in (None, 0):
                for message in texts_in(engine.view(state, viewer), []):
                    seen.setdefault(repr(message), (message, english(message)))
    return list(seen.values())


def test_the_view_reads_in_english_as_the_board_did():
    state, seat = turn_state(3)
    cells = state["players"][seat]["cells"]
    cells[idx(4, 2)].update(k="room", tile="cuddle_room")
    set_cell(state, seat, 2, 3, "field", crop="grain", n=2)
    state["spaces"]["wood_gathering"]["goods"] = {"wood": 3, "wild_boar": 1}
    view = engine.view(state, seat)
    assert english(view["decision"]["text"]) == "Place a dwarf on an action space"
    rows = view["players"][seat]["rows"]
    forest, rock, entry = rows[0][0], rows[0][5], rows[3][3]
    assert (english(forest["label"]), forest["short"]) == ("Forest", "")
    assert english(rows[0][2]["bonus"]) == "+1 wild boar"
    assert (english(rock["label"]), rock["short"]) == ("Mountain", "")
    assert (english(entry["label"]), english(entry["short"])) == ("Entry-level dwelling", "Entry")
    room = rows[2][4]
    assert english(room["label"]) == english(room["short"]) == "Cuddle room"
    assert english(room["effect"]) == TILE_TEXT["cuddle_room"]
    assert english(rows[3][2]["crop_text"]) == "2 grain"
    space = next(s for s in view["spaces"] if s["id"] == "wood_gathering")
    assert (english(space["name"]), english(space["goods_text"])) == (
        "Wood gathering", "3 wood, 1 wild boar")
    dwelling = next(t for t in view["furnishing_tiles"] if t["id"] == "dwelling")
    assert (english(dwelling["name"]), english(dwelling["cost_text"])) == (
        "Dwelling", "4 wood, 3 stone")
    assert english(view["recent"][-1]) == state["log"][-1]


def test_older_games_read_their_own_tile_effects():
    board = {t["id"]: t["effect"] for t in engine.view(fresh(3, version=3), 0)["furnishing_tiles"]}
    for tile, wording in LEGACY_TILE_TEXT.items():
        assert english(board[tile]) == wording


def test_every_log_line_of_random_games_reads_back_to_its_key():
    lines = set()
    for players in (1, 2, 4):
        for state in random_states(players, f"log-lines-{players}", every=1):
            lines.update(state["log"])
    keys = set()
    for line in lines:
        message = T.log_text(line)
        assert message["k"] != "literal", line
        assert english(message) == line
        keys.add(message["k"])
    assert len(keys) >= 8, keys


def test_every_log_template_reads_back_to_its_key():
    """The rarer lines too (Office room, Mining cave, a payment changed by a tile)."""
    samples = {"seat": 2, "good": "stone", "source": "dog_school", "space": "ore_trading",
               "furnishing": "simple_dwelling_4w2s", "with": "ore",
               "paid": [text("cv.amount", n=3, good="wood"), text("cv.amount", n=1, good="ore")]}
    for key in T.LOG_KEYS:
        message = text(key, **{name: samples.get(name, 4)
                               for name in placeholders(T.MESSAGES[key])})
        assert T.log_text(english(message)) == message, key
    bred = text("cv.breed", seat=1, animals=["sheep", "wild_boar"])
    assert T.log_text("Seat 1 bred sheep, wild_boar.") == bred
    assert T.log_text("Seat 1 did a thing no template knows.")["k"] == "literal"


#: Texts a language writes exactly as English does (nothing to tell apart).
SAME_AS_ENGLISH = {"it": set()}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_view_text_is_translated(language, view_texts):
    translations = strict_translations("caverna", language)  # fails on any msgid the catalog lacks
    kinds = {message["k"] for message, _ in view_texts}
    assert {"cv.cell", "cv.cell_short", "cv.effect", "cv.tile_name", "cv.space_name",
            "cv.decision_turn", "cv.goods", "category"} <= kinds
    stayed = []
    for message, sentence in view_texts:
        rendered = render(T.CATALOG, message, translations)
        assert rendered and "{" not in rendered, (message, rendered)
        if rendered == sentence and any(c.isalpha() for c in sentence) and (
                sentence not in SAME_AS_ENGLISH.get(language, ())):
            stayed.append(sentence)
    assert not stayed, f"still English in {language}: {sorted(set(stayed))[:10]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_tile_cell_decision_and_log_wording_is_translated(language):
    """Beyond what random games show: every furnishing tile's name and effect, every cell
    label, every decision and every log line template."""
    translations = strict_translations("caverna", language)
    messages = [text("cv.tile_name", furnishing=tile) for tile in T.CATALOG.names["furnishing"]]
    messages += [text("cv.effect", effect=tile) for tile in TILE_TEXT]
    messages += [text("cv.effect_legacy", effect_legacy=tile) for tile in LEGACY_TILE_TEXT]
    messages += [text("cv.cell", cell=kind) for kind in T.CELL_LABELS]
    messages += [text("cv.cell_short", short=kind) for kind in T.CELL_SHORT]
    messages += [T.decision_text(kind) for kind in T.DECISIONS]
    messages += [text("cv.loot_name", loot=item) for item in T.CATALOG.names["loot"]]
    messages += [text("cv.log_received", seat=0, n=2, good="ore", source=source)
                 for source in T.CATALOG.names["source"]]
    messages += [text(key, **{name: 1 for name in placeholders(T.MESSAGES[key])})
                 for key in T.LOG_KEYS if key != "cv.log_received"
                 and not {"good", "space", "furnishing", "with", "paid"}
                 & placeholders(T.MESSAGES[key])]
    stayed = [english(message) for message in messages
              if render(T.CATALOG, message, translations) == english(message)]
    assert not stayed, f"still English in {language}: {stayed[:10]}"
