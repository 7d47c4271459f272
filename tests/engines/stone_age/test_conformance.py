"""The shared conformance kit on Stone Age: random full games for 2, 3 and 4 players, replay,
JSON round trip, purity, hidden seed, illegal input; plus a run where the bot plays."""

import os

from games.engines.stone_age.engine import engine
from tests.engines.conformance import check_engine

GAMES = int(os.environ.get("TURNPOST_RANDOM_GAMES", "50"))


def test_random_games_pass_the_conformance_kit():
    played = check_engine(engine, games_per_count=GAMES)
    assert set(played) == {2, 3, 4}
    assert all(len(games) == GAMES for games in played.values())


def test_bot_and_timeouts_mixed_with_random_play_pass_the_kit():
    played = check_engine(engine, games_per_count=max(2, GAMES // 10), deep_checks_per_count=1,
                          use_bot=0.5, seed_prefix="bot-mix")
    assert set(played) == {2, 3, 4}
