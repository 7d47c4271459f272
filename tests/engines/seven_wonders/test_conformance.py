"""The shared conformance kit on 7 Wonders: random full games for 2–7 players (two with
the Free City), replay, purity,
JSON round trip, hidden seed and illegal input; also with B sides, chosen boards and the bot."""

import pytest

from games.engines.seven_wonders.engine import engine
from tests.engines.conformance import THOROUGH, check_engine, player_range, random_games

GAMES = random_games()


def test_engine_facts():
    assert (engine.slug, engine.name) == ("seven_wonders", "7 Wonders")
    assert (engine.min_players, engine.max_players) == (2, 7)
    assert engine.simultaneous is True
    assert engine.rules_version == 1


@pytest.mark.parametrize("num_players", player_range(engine))
def test_conformance_kit_default_options(num_players):
    played = check_engine(engine, games_per_count=GAMES, deep_checks_per_count=3 if THOROUGH else 1,
                          player_counts=[num_players])
    assert len(played[num_players]) == GAMES
    for game in played[num_players]:
        # 18 turns, each with one pick per city (the Free City's by its controller) and
        # one resolve.
        picks = [entry for entry in game.log if entry[0] == "seat"]
        assert len(picks) >= 18 * (3 if num_players == 2 else num_players)


@pytest.mark.slow
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
        games_per_count=random_games(tenth=True),
        deep_checks_per_count=1,
        options=options,
        seed_prefix=f"options-{sorted(options.items())}",
        use_bot=0.3,
    )
