"""Golden games: recorded action logs replayed from their seed must stay legal and end with the
recorded final scores. A change here means stored games would replay differently: bump
`rules_version` and record anew only on purpose."""

import json
from pathlib import Path

import pytest

from games.engines.stone_age.engine import engine

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_there_are_golden_games():
    assert len(GOLDEN) >= 2


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game_replays_to_the_recorded_result(path):
    record = json.loads(path.read_text())
    assert record["rules_version"] == engine.rules_version
    state = engine.new_game(record["num_players"], record["seed"], record["options"] or None)
    for index, entry in enumerate(record["log"]):
        if entry == ["resolve"]:
            assert engine.ready_to_resolve(state), f"entry {index}: no dice roll is due"
            state = engine.resolve(state)
            continue
        seat, action = entry[1], entry[2]
        assert seat in engine.active_seats(state), f"entry {index}: seat {seat} not active"
        assert action in engine.legal_actions(state, seat), f"entry {index} is not legal"
        state = engine.apply(state, seat, action)
    assert engine.is_over(state)
    result = engine.result(state)
    expected = record["expected"]
    assert result["scores"] == expected["scores"]
    assert result["winners"] == expected["winners"]
    assert result["breakdown"] == expected["breakdown"]
    assert (state["round"], state["ended_by"]) == (expected["rounds"], expected["ended_by"])
