"""Every refusal an engine raises carries a text (a message key with parameters), so that no
refusal reaches a player in English when they chose another language: the engines' code is
read for `IllegalAction(...)` calls without one, and the refusals of a seat with nothing to
decide, of a step that is not due, of a seat that is not to act, of a seat that does not exist
and of an empty seed are rendered in Persian, Chinese and Italian from the compiled catalogs."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from config.engine_catalogs import LANGUAGES
from games.engines.base import IllegalAction
from games.engines.registry import get_engine
from games.engines.texts import render
from tests.engines.strict_catalogs import strict_translations

GAMES = Path(__file__).resolve().parents[2] / "games"
LATIN = re.compile(r"[A-Za-z]")


def refusals_without_text(source: str) -> list[int]:
    """Lines of `source` raising or building an IllegalAction with its English words only."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name == "IllegalAction" and len(node.args) < 2 and not any(
                keyword.arg == "text" for keyword in node.keywords):
            lines.append(node.lineno)
    return lines


def test_the_scan_sees_a_refusal_without_text():
    assert refusals_without_text('raise IllegalAction("No.")\n') == [1]
    assert refusals_without_text('raise IllegalAction("No.", text("no"))\n') == []
    assert refusals_without_text('raise IllegalAction("No.", text=None)\n') == []


def test_every_refusal_in_the_code_carries_a_text():
    found = [f"{path.relative_to(GAMES.parent)}:{line}"
             for path in sorted(GAMES.rglob("*.py"))
             for line in refusals_without_text(path.read_text())]
    assert not found, "IllegalAction without a text (give it a key of the engine's catalog):\n" \
        + "\n".join(found)


def _refused(call) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        call()
    return refused.value


def _idle_state(engine, num_players: int, seed: str) -> tuple[dict, int]:
    """A state along a random game where some seat has nothing to decide, and that seat (7
    Wonders' players choose their wonders one after the other)."""
    chooser = random.Random(0)
    options = {"wonders": "chosen", "sides": "chosen"} if engine.slug == "seven_wonders" else None
    state = engine.new_game(num_players, seed, options)
    while not engine.is_over(state):
        active = engine.active_seats(state)
        idle = [seat for seat in range(num_players)
                if seat not in active and not engine.legal_actions(state, seat)]
        if idle and active:
            return state, idle[0]
        if not active:
            state = engine.resolve(state)
            continue
        seat = chooser.choice(active)
        state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)))
    raise AssertionError("no seat was ever idle")


def engine_refusals(slug: str, num_players: int) -> list[IllegalAction]:
    engine = get_engine(slug)
    state, idle = _idle_state(engine, num_players, f"refusals-{slug}")
    active = engine.active_seats(state)[0]
    refusals = [
        _refused(lambda: engine.bot_action(state, idle)),
        _refused(lambda: engine.timeout_action(state, idle)),
        _refused(lambda: engine.apply(state, idle, engine.legal_actions(state, active)[0])),
    ]
    if not engine.ready_to_resolve(state):
        refusals.append(_refused(lambda: engine.resolve(state)))
    if slug == "stone_age":
        refusals.append(_refused(lambda: engine.new_game(num_players, "")))
    if slug == "seven_wonders":
        refusals.append(_refused(lambda: engine.apply(state, num_players + 5, {"type": "x"})))
    if slug == "caverna":
        from games.engines.caverna import rules

        player = {"supply": {"wood": 1}}
        refusals.append(_refused(lambda: rules.pay(player, {"wood": 2})))
    return refusals


ENGINES = [("stone_age", 2), ("seven_wonders", 3), ("caverna", 2)]


@pytest.mark.parametrize(("slug", "num_players"), ENGINES)
def test_the_refusals_of_bots_timeouts_and_steps_carry_texts(slug, num_players):
    refusals = engine_refusals(slug, num_players)
    assert len(refusals) >= 4
    catalog = get_engine(slug).text_catalog
    for refusal in refusals:
        assert refusal.text is not None, str(refusal)
        # The text says what the English words say.
        assert render(catalog, refusal.text) == str(refusal)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("slug", "num_players"), ENGINES)
def test_the_refusals_read_in_each_language(slug, num_players, language):
    catalog = get_engine(slug).text_catalog
    translations = strict_translations(slug, language)
    for refusal in engine_refusals(slug, num_players):
        english = str(refusal)
        shown = render(catalog, refusal.text, translations)
        assert shown != english
        if language != "it":
            assert not LATIN.search(shown), (english, shown)
