"""The engines' texts as message keys with parameters: rendered in English they are exactly
`describe` (over thousands of random decisions per engine), every key and name has a translation
in Persian, Chinese and Italian that keeps its placeholders, and a hidden pick stays hidden in
every language."""

from __future__ import annotations

import importlib
import json
import random

import pytest
from babel.messages.pofile import read_po

from config.engine_catalogs import LANGUAGES, po_path
from games.engines.registry import get_engine
from games.engines.stone_age import texts as stone_age_texts
from games.engines.texts import SEAT_KINDS, placeholders, render, text
from tests.engines.strict_catalogs import strict_translations

ENGINES = {"stone_age": (2, 4), "seven_wonders": (2, 3, 7), "caverna": (1, 3)}
#: Random games per engine and player count; each decision describes up to 8 legal actions
#: for every viewer, so each engine gives some thousands of texts.
GAMES = {"stone_age": 2, "seven_wonders": 2, "caverna": 1}


def _keys(message, found: set[str]) -> set[str]:
    if isinstance(message, dict) and "k" in message:
        found.add(message["k"])
        for value in message.get("p", {}).values():
            _keys(value, found)
    elif isinstance(message, list):
        for item in message:
            _keys(item, found)
    return found


def random_texts(slug: str):
    """(text, English sentence) for every described action and resolution of seeded games."""
    engine = get_engine(slug)
    for num_players in ENGINES[slug]:
        viewers = [None, *range(num_players)]
        for index in range(GAMES[slug]):
            chooser = random.Random(index)
            state = engine.new_game(num_players, f"texts-{index}")
            while not engine.is_over(state):
                active = engine.active_seats(state)
                if not active:
                    for viewer in viewers:
                        yield (engine.resolution_text(state, viewer),
                               engine.describe_resolution(state, viewer))
                    state = engine.resolve(state)
                    continue
                seat = chooser.choice(active)
                legal = engine.legal_actions(state, seat)
                for action in chooser.sample(legal, min(len(legal), 8)):
                    for viewer in viewers:
                        yield (engine.describe_text(state, seat, action, viewer),
                               engine.describe(state, seat, action, viewer))
                state = engine.apply(state, seat, chooser.choice(legal))


@pytest.fixture(scope="module")
def walked():
    return {slug: list(random_texts(slug)) for slug in ENGINES}


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_texts_render_back_to_the_english_descriptions(slug, walked):
    catalog = get_engine(slug).text_catalog
    pairs = walked[slug]
    assert len(pairs) > 2000
    for message, sentence in pairs:
        stored = json.loads(json.dumps(message))  # as the log keeps it
        assert render(catalog, stored) == sentence
        assert "literal" not in _keys(stored, set()), sentence


def test_the_stone_age_log_holds_texts_not_sentences():
    """The rules write each log line as a key with parameters (rules.event); none is English
    to be read back, and each key is one the catalog renders."""
    engine = get_engine("stone_age")
    catalog = stone_age_texts.CATALOG
    keys: set[str] = set()
    for num_players in (2, 4):
        state = engine.new_game(num_players, "log-texts")
        chooser = random.Random(num_players)
        while not engine.is_over(state):
            if engine.ready_to_resolve(state):
                state = engine.resolve(state)
            else:
                seat = chooser.choice(engine.active_seats(state))
                state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))
            for entry in state["last"]:
                for message in (entry["text"], entry.get("private")):
                    if message is None:
                        continue
                    assert isinstance(message, dict), message
                    found = _keys(message, set())
                    assert "literal" not in found and found <= set(catalog.messages), found
                    keys |= found
                    assert render(catalog, json.loads(json.dumps(message)))
    assert {"sa.round", "sa.feeds", "sa.place", "sa.gets"} <= keys


def _catalog(language: str, slug: str):
    with po_path(language, slug).open("rb") as po_file:
        return read_po(po_file, locale=language)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_every_msgid_is_translated_with_its_placeholders(slug, language):
    po = _catalog(language, slug)
    missing, lost = [], []
    for context, msgid, plural in get_engine(slug).text_catalog.msgids():
        entry = po.get(msgid, context=context)
        strings = ([] if entry is None else
                   list(entry.string) if isinstance(entry.string, tuple) else [entry.string])
        if entry is None or entry.fuzzy or not all(strings):
            missing.append((context, msgid))
            continue
        wanted = placeholders(msgid) | (placeholders(plural) if plural else set())
        if context in SEAT_KINDS:
            wanted = {"number"}
        lost.extend((context, msgid, string) for string in strings
                    if placeholders(string) != wanted)
    assert not missing, f"{len(missing)} untranslated in {language}/{slug}: {missing[:5]}"
    assert not lost, lost[:5]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_random_game_texts_render_in_every_language(slug, language, walked):
    catalog = get_engine(slug).text_catalog
    translations = strict_translations(slug, language)
    for message, sentence in walked[slug][::7]:
        rendered = render(catalog, message, translations)
        assert rendered and "{" not in rendered, (message, rendered)
        if language != "it":  # Italian shares words such as "Altar" and "Forum" with English
            assert rendered != sentence, sentence


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_hidden_pick_stays_hidden_in_every_language(language):
    engine = get_engine("seven_wonders")
    state = engine.new_game(3, "hidden-pick")
    while state["phase"] != "pick":
        seat = engine.active_seats(state)[0]
        state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    action = next(a for a in engine.legal_actions(state, 0) if a["type"] == "build")
    translations = strict_translations("seven_wonders", language)
    card_name = translations.pgettext("seven_wonders.card",
                                      engine.text_catalog.names["card"][action["card"]])
    names = {0: "Ana", 1: "Bo", 2: "Cy"}
    for viewer in (None, 1, 2):
        message = engine.describe_text(state, 0, action, viewer)
        assert message == text("sw.chose", seat=0)
        rendered = render(engine.text_catalog, message, translations,
                          seat_name=lambda kind, seat: names[seat])
        assert "Ana" in rendered
        assert card_name not in rendered and action["card"] not in json.dumps(message)
    own = render(engine.text_catalog, engine.describe_text(state, 0, action, 0), translations)
    assert card_name in own


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_score_breakdown_rows_are_labelled_in_every_language(slug, language):
    engine = get_engine(slug)
    scoring = importlib.import_module(f"games.engines.{slug}.scoring")
    assert set(scoring.CATEGORIES) == set(engine.text_catalog.names["category"])
    rows = set(scoring.CATEGORIES)
    if slug == "caverna":
        rows.add("bonus_writing_chamber")
    for row in rows:
        label = engine.category_text(row)
        assert label["k"] != "literal"
        assert render(engine.text_catalog, label, strict_translations(slug, language))
