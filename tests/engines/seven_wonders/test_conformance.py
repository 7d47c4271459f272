"""The shared conformance kit on 7 Wonders: random full games for 2–7 players (two with
the Free City), replay, purity,
JSON round trip, hidden seed and illegal input; also with B sides, chosen boards and the bot."""

import os

import pytest

from games.engines.seven_wonders.engine import engine
from tests.engines.conformance import check_engine

DEFAULT = 50
GAMES = int(os.environ.get("TURNPOST_RANDOM_GAMES", DEFAULT))


def test_engine_facts():
    assert (engine.slug, engine.name) == ("seven_wonders", "7 Wonders")
    assert (engine.min_players, engine.max_players) == (2, 7)
    assert engine.simultaneous is True
    assert engine.rules_version == 1


def test_conformance_kit_default_options():
    played = check_engine(engine, games_per_count=GAMES)
    assert set(played) == {2, 3, 4, 5, 6, 7}
    for num_players, games in played.items():
        for game in games:
            # 18 turns, each with one pick per city (the Free City's by its controller) and
            # one resolve.
            picks = [entry for entry in game.log if entry[0] == "seat"]
            assert len(picks) >= 18 * (3 if num_players == 2 else num_players)


@pytest.mark.parametrize(
    "options",
    [
        {"sides": "B"},
        {"sides": "random"},
        {"wonders": "chosen", "sides": "chosen"},
        {"wonders": "random", "sides": "chosen"},
    ],
)
def test_conformance_kit_other_options_with_the_bot(options):
    check_engine(
        engine,
        games_per_count=max(2, GAMES // 10),
        deep_checks_per_count=1,
        options=options,
        seed_prefix=f"options-{sorted(options.items())}",
        use_bot=0.3,
    )
