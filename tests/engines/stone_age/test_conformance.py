"""The shared conformance kit on Stone Age: random full games for 2, 3 and 4 players, replay,
JSON round trip, purity, hidden seed, illegal input; plus a run where the bot plays."""

import pytest

from games.engines.stone_age.engine import engine
from tests.engines.conformance import THOROUGH, check_engine, player_range, random_games

GAMES = random_games()


def test_the_player_counts():
    assert player_range(engine) == [2, 3, 4]


@pytest.mark.slow
@pytest.mark.parametrize("num_players", player_range(engine))
def test_random_games_pass_the_conformance_kit(num_players):
    played = check_engine(engine, games_per_count=GAMES, deep_checks_per_count=3 if THOROUGH else 1,
                          player_counts=[num_players])
    assert len(played[num_players]) == GAMES


@pytest.mark.parametrize("num_players", player_range(engine))
def test_bot_and_timeouts_mixed_with_random_play_pass_the_kit(num_players):
    played = check_engine(engine, games_per_count=random_games(tenth=True),
                          deep_checks_per_count=1, use_bot=0.5, seed_prefix="bot-mix",
                          player_counts=[num_players])
    assert set(played) == {num_players}
