"""Golden logs: recorded games replayed from set-up must reach the recorded final scores.
If a rules change alters a golden result, bump rules_version and re-record deliberately."""

import json
from pathlib import Path

import pytest

from games.engines.caverna import engine

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_golden_logs_exist():
    assert len(GOLDEN) >= 2


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_log_replays_to_the_recorded_result(path):
    game = json.loads(path.read_text())
    assert game["rules_version"] == engine.rules_version
    state = engine.new_game(game["num_players"], game["seed"], game["options"] or None)
    for seat, action in game["log"]:
        assert engine.active_seats(state) == [seat]
        state = engine.apply(state, seat, action)
    assert engine.is_over(state)
    assert engine.result(state) == game["expected"]
