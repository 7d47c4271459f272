"""Speed work on the engines must not change what they do: a SHA-256 over everything two seeded
random games show (states, legal-action lists, views, sentences, refusals, bot and time-out
moves, results; see tests/perf/fingerprint.py) equals the value recorded from the code before
that work. A deliberate rules change re-records it with `python -m tests.perf.fingerprint SLUG
PLAYERS 2` (and bumps the engine's rules_version, as for the golden games)."""

from __future__ import annotations

import pytest

from tests.perf.fingerprint import fingerprint

RECORDED = {
    ("seven_wonders", 2): "9a06e2e72c69e8a7ef23c82220f8034081ba399bce0dee393a06138a38f1dae1",
    ("seven_wonders", 7): "7034d1f62d8229fd1b0112a8449d171597d44d338b9a3370e2919b56ba375264",
    ("stone_age", 2): "8e7b37b1541ad5dffd2a8c5d075b68a45d617f98999164e6ada752b37b9ead63",
    ("stone_age", 4): "9baf268b9c6f327e4291bbb2a8693d8085aa63c051e812379994e55b12047a8b",
}


@pytest.mark.parametrize(("slug", "num_players"), sorted(RECORDED))
def test_two_random_games_show_exactly_what_they_showed(slug, num_players):
    assert fingerprint(slug, num_players, 2) == RECORDED[(slug, num_players)]
