"""Golden logs: recorded games replayed from set-up must reach the recorded final scores.

Each file names the rules version it was recorded under and replays under that version
(`new_game_at_version`), as a stored game does. The `v3_*` files were recorded by the engine of
rules version 3, before the version-4 corrections existed, in games that use what version 4
changed (ruby → gold, Weaving parlor, two-player Ruby mining, Small-scale drift mining, Guest
room on Extension, last trades): they must still replay to the same final state. If a rules
change alters a golden result, bump rules_version and record anew on purpose."""

import hashlib
import json
from pathlib import Path

import pytest

from games.engines.base import IllegalAction
from games.engines.caverna.engine import engine
from games.engines.caverna.versions import LEGACY_VERSION

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def _load(path):
    return json.loads(path.read_text())


def _replay(game, version):
    state = engine.new_game_at_version(game["num_players"], game["seed"], game["options"], version)
    for seat, action in game["log"]:
        assert engine.active_seats(state) == [seat]
        state = engine.apply(state, seat, action)
    return state


def test_golden_logs_exist_for_both_versions():
    versions = [_load(path)["rules_version"] for path in GOLDEN]
    assert versions.count(LEGACY_VERSION) >= 3
    assert versions.count(engine.rules_version) >= 3


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_log_replays_to_the_recorded_result(path):
    game = _load(path)
    state = _replay(game, game["rules_version"])
    assert engine.is_over(state)
    assert engine.result(state) == game["expected"]
    if "final_state_sha256" in game:
        text = json.dumps(state, sort_keys=True).encode()
        assert hashlib.sha256(text).hexdigest() == game["final_state_sha256"]


@pytest.mark.parametrize(
    "path",
    [p for p in GOLDEN if p.stem.startswith("v3_")],
    ids=lambda p: p.stem,
)
def test_a_version_3_log_means_something_else_under_the_current_rules(path):
    """The branch on the version is what keeps these games playable: the same log under the
    current rules is refused, reaches another seat's turn, or ends elsewhere."""
    game = _load(path)
    state = engine.new_game(game["num_players"], game["seed"])
    same = True
    try:
        for seat, action in game["log"]:
            if engine.active_seats(state) != [seat]:
                same = False
                break
            state = engine.apply(state, seat, action)
        else:
            same = engine.is_over(state) and engine.result(state) == game["expected"]
    except IllegalAction:
        same = False
    assert not same


def record_golden(num_players, seed, log):  # pragma: no cover - run by hand to record anew
    state = _replay(
        {"num_players": num_players, "seed": seed, "options": {}, "log": log}, engine.rules_version
    )
    return {
        "engine": "caverna",
        "rules_version": engine.rules_version,
        "num_players": num_players,
        "seed": seed,
        "options": {},
        "log": log,
        "expected": engine.result(state),
        "final_state_sha256": hashlib.sha256(
            json.dumps(state, sort_keys=True).encode()
        ).hexdigest(),
    }
