"""Stone Age's and 7 Wonders' views hold no English: every word a player reads in them (a
decision, a card's halves or effect, a cost, a log line, a name) is a text, a message key with
parameters, and each renders in Persian, Chinese and Italian from the engines' catalogs. Strings
outside texts are ids only. Checked over states of every kind of decision, for every viewer."""

from __future__ import annotations

import re
from typing import Any

import pytest

from config.engine_catalogs import LANGUAGES
from games.engines.registry import get_engine
from games.engines.texts import render
from tests.engines.conformance import play_random_game
from tests.engines.english import is_text
from tests.engines.strict_catalogs import strict_translations

#: Fields whose strings are ids (of a phase, a location, a good, a colour, ...), not words.
ID_FIELDS = {"game", "phase", "kind", "id", "location", "cost_type", "good", "yields",
             "ended_by", "resources_order", "direction", "role", "color", "side", "resource",
             "categories", "choices", "sellable_choices", "type", "card", "wonder", "free"}
#: Players' names in a script that is neither English nor the one checked.
NAMES = {seat: f"Ωμέγα{seat}" for seat in range(8)}
#: Latin letters that may stay in Persian and Chinese: the Ages' Roman numerals, a wonder's side.
LATIN_KEPT = {"I", "II", "III", "A", "B"}
#: English words of these games that Italian never uses (Italian shares "Altar", "Forum", ...).
ENGLISH_WORDS = re.compile(
    r"\b(the|of|and|for|with|points?|food|wood|clay|stone|gold|tools?|cards?|coins?|shields?|"
    r"produces|build|free|people|person|places|rolled|may|buy|seat|science|neighbours?|"
    r"short|dice|any|once)\b", re.IGNORECASE)


def _kinds(slug: str, num_players: int, seed: str, chooser_seed: int,
           options: dict | None = None) -> list[dict]:
    """The first state of each kind of decision (Stone Age: phase and pending step; 7 Wonders:
    phase and Age) along a seeded random game, and its end."""
    engine = get_engine(slug)
    game = play_random_game(engine, num_players, seed, chooser_seed=chooser_seed,
                            options=options)
    state = engine.new_game(num_players, seed, options)
    kinds: dict[Any, dict] = {}
    for entry in game.log:
        kind = ((state["phase"], state["pending"] and state["pending"]["kind"])
                if slug == "stone_age" else (state["phase"], state["age"]))
        kinds.setdefault(kind, state)
        state = (engine.resolve(state) if entry[0] == "resolve"
                 else engine.apply(state, entry[1], entry[2]))
    kinds[("over", None)] = state
    return list(kinds.values())


def sample_states() -> list[tuple[str, dict, int]]:
    # The Stone Age game is the board template test's, which meets every kind of decision;
    # the three 7 Wonders players choose their wonders.
    chosen = {"wonders": "chosen", "sides": "chosen"}
    return [(slug, state, num_players)
            for slug, num_players, seed, chooser, options in (
                ("stone_age", 4, "template-kinds", 3, None),
                ("stone_age", 2, "view-texts", 1, None),
                ("seven_wonders", 3, "view-texts", 1, chosen),
                ("seven_wonders", 2, "view-texts", 2, None))
            for state in _kinds(slug, num_players, seed, chooser, options)]


@pytest.fixture(scope="module")
def samples():
    return sample_states()


def texts_and_strings(value: Any, field: str = "") -> tuple[list[dict], list[tuple[str, str]]]:
    """The texts in a view, and its strings outside texts with the field that holds each."""
    texts: list[dict] = []
    strings: list[tuple[str, str]] = []

    def walk(item: Any, name: str) -> None:
        if is_text(item):
            texts.append(item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                walk(inner, str(key))
        elif isinstance(item, list):
            for inner in item:
                walk(inner, name)
        elif isinstance(item, str):
            strings.append((name, item))

    walk(value, field)
    return texts, strings


def test_the_samples_cover_every_kind_of_view(samples):
    pending = {(state["pending"] or {}).get("kind") for slug, state, _ in samples
               if slug == "stone_age"}
    assert pending >= {None, "roll", "tools", "dice_for_all", "buy_card", "buy_building",
                       "feeding"}
    phases = {state["phase"] for slug, state, _ in samples if slug == "seven_wonders"}
    assert phases >= {"setup", "pick", "over"}


def test_views_hold_only_texts_and_ids(samples):
    for slug, state, num_players in samples:
        engine = get_engine(slug)
        for viewer in (None, *range(num_players)):
            texts, strings = texts_and_strings(engine.view(state, viewer))
            words = [(field, value) for field, value in strings if field not in ID_FIELDS]
            assert not words, (slug, words[:5])
            assert texts
            assert all(text["k"] != "literal" for text in texts)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_of_the_views_reads_in_the_language_without_english(samples, language):
    checked = 0
    for slug, state, num_players in samples:
        engine = get_engine(slug)
        translations = strict_translations(slug, language)
        for viewer in (None, *range(num_players)):
            view = engine.view(state, viewer)
            texts, _ = texts_and_strings(view)
            for message in texts:
                # Strict: a msgid the language's catalog lacks fails here.
                rendered = render(engine.text_catalog, message, translations,
                                  seat_name=lambda kind, seat: NAMES[seat])
                assert rendered and "{" not in rendered, (message, rendered)
                if language == "it":
                    leftover = ENGLISH_WORDS.findall(rendered)
                else:
                    leftover = [word for word in re.findall(r"[A-Za-z]+", rendered)
                                if word not in LATIN_KEPT]
                assert not leftover, (slug, language, message, rendered)
                checked += 1
    assert checked > 5000


def test_a_seat_in_a_view_text_is_a_parameter_never_a_word(samples):
    """"Seat N" is the presentation's to write (the player's name): no text of a view carries it
    as words, so a page names every player."""
    for slug, state, _ in samples:
        engine = get_engine(slug)
        texts, _ = texts_and_strings(engine.view(state, 0))
        for message in texts:
            rendered = render(engine.text_catalog, message,
                              seat_name=lambda kind, seat: NAMES[seat])
            assert not re.search(r"\b[Ss]eat \d", rendered), rendered


@pytest.mark.parametrize("language", LANGUAGES)
def test_stone_age_standing_orders_and_queued_placements_read_in_the_language(language):
    """The standing orders' labels, help and choices (names of kind "order") and the placements
    a waiting seat may queue (their texts) have the language's words, none of them English."""
    engine = get_engine("stone_age")
    translations = strict_translations("stone_age", language)
    context = engine.text_catalog.name_context("order")
    words = [translations.pgettext(context, english)
             for english in engine.text_catalog.names["order"].values()]
    state = engine.new_game(3, "queue-texts")
    waiting = next(seat for seat in range(3) if seat not in engine.active_seats(state))
    suggestions = engine.queue_suggestions(state, waiting)
    assert suggestions and all(render(engine.text_catalog, item["text"]) == item["label"]
                               for item in suggestions)
    words += [render(engine.text_catalog, item["text"], translations) for item in suggestions]
    for rendered in words:
        if language == "it":
            leftover = ENGLISH_WORDS.findall(rendered)
        else:
            leftover = [word for word in re.findall(r"[A-Za-z]+", rendered)
                        if word not in LATIN_KEPT]
        assert not leftover, (language, rendered)
    assert len(words) == len(engine.text_catalog.names["order"]) + len(suggestions)
