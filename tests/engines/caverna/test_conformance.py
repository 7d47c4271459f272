"""The shared conformance kit over every player count, random and bot-driven."""

import os

import pytest

from games.engines.caverna.engine import engine
from tests.engines.conformance import RANDOM_GAMES, check_engine, player_range


def games_per_count() -> int:
    """TURNPOST_CAVERNA_GAMES as given (`make fuzz` sets it); else TURNPOST_RANDOM_GAMES capped
    at 30, Caverna's games being the slowest (CI's fuzz run plays 30, as the rules' D12 asks:
    at least 20)."""
    if os.environ.get("TURNPOST_CAVERNA_GAMES"):
        return int(os.environ["TURNPOST_CAVERNA_GAMES"])
    return min(RANDOM_GAMES, 30)


GAMES = games_per_count()
#: A game checked at every step (purity, JSON round trip, hidden seed, bot and timeout moves
#: listed) costs ~14 s of CPU here, most of the kit's time. The thorough runs (20 games or more
#: per count: CI's fuzz run, `make fuzz`) check two random and one bot-driven game per count;
#: `make test` one random game per count, its bot-driven games (one per count) without them.
THOROUGH = GAMES >= 20


def test_engine_facts():
    assert (engine.slug, engine.name, engine.min_players, engine.max_players) == (
        "caverna",
        "Caverna",
        1,
        7,
    )
    assert engine.simultaneous is False and engine.rules_version == 4
    assert player_range(engine) == [1, 2, 3, 4, 5, 6, 7]


@pytest.mark.slow
@pytest.mark.parametrize("num_players", player_range(engine))
def test_conformance_random_games_every_player_count(num_players):
    played = check_engine(engine, games_per_count=GAMES, deep_checks_per_count=2 if THOROUGH else 1,
                          player_counts=[num_players])
    assert len(played[num_players]) == GAMES


@pytest.mark.parametrize("num_players", player_range(engine))
@pytest.mark.parametrize("share", [1.0, 0.5])
def test_conformance_with_the_bot(share, num_players):
    played = check_engine(
        engine, games_per_count=3 if THOROUGH else 1, deep_checks_per_count=1 if THOROUGH else 0,
        use_bot=share, seed_prefix=f"bot{share}", player_counts=[num_players]
    )
    assert set(played) == {num_players}
