"""The shared conformance kit over every player count, random and bot-driven."""

import os

import pytest

from games.engines.caverna.engine import engine
from tests.engines.conformance import check_engine


def games_per_count() -> int:
    """TURNPOST_CAVERNA_GAMES as given (`make fuzz` sets it); else TURNPOST_RANDOM_GAMES capped
    at 30: CI sets 50, and 20–30 random games per count (plus the bot run below) keep this
    folder within its CPU budget while meeting the required minimum of 20."""
    if os.environ.get("TURNPOST_CAVERNA_GAMES"):
        return max(20, int(os.environ["TURNPOST_CAVERNA_GAMES"]))
    return max(20, min(int(os.environ.get("TURNPOST_RANDOM_GAMES", "20")), 30))


def test_engine_facts():
    assert (engine.slug, engine.name, engine.min_players, engine.max_players) == (
        "caverna",
        "Caverna",
        1,
        7,
    )
    assert engine.simultaneous is False and engine.rules_version == 4


def test_conformance_random_games_every_player_count():
    played = check_engine(engine, games_per_count=games_per_count(), deep_checks_per_count=2)
    assert sorted(played) == [1, 2, 3, 4, 5, 6, 7]
    for games in played.values():
        assert len(games) >= 20


@pytest.mark.parametrize("share", [1.0, 0.5])
def test_conformance_with_the_bot(share):
    played = check_engine(
        engine, games_per_count=3, deep_checks_per_count=1, use_bot=share, seed_prefix=f"bot{share}"
    )
    assert len(played) == 7
