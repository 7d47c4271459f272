"""Speed work on the engines must not change what they do: a SHA-256 over everything two seeded
random games show (states, legal-action lists, views, sentences, refusals, bot and time-out
moves, results; see tests/perf/fingerprint.py) equals the value recorded from the code before
that work. A deliberate rules change re-records it with `python -m tests.perf.fingerprint SLUG
PLAYERS 2` (and bumps the engine's rules_version, as for the golden games). A change of texts
alone (words of the views turned into message keys) re-records it too, once the fingerprint with
`--english` (texts rendered in English) is shown to equal the value before the change."""

from __future__ import annotations

import pytest

from tests.perf.fingerprint import fingerprint

RECORDED = {
    ("seven_wonders", 2): "0a916a2c89d91f413ad2fb82133d93a9a3ed0ab5633c48f48b184ade14d7871d",
    ("seven_wonders", 7): "259d14bd7a949ae49a7877f4dfb0370c95e4f7cfd45c1cd1a5735ea3d0322ad4",
    ("stone_age", 2): "50693a844388be960874a6b80547fa1a5efe5419060ae6923b7081abc4b20e04",
    ("stone_age", 4): "c8d65f64f167d8712c75c050c0fe809d809cbab0f6bff7626f3ea62d34ccffb5",
}


@pytest.mark.parametrize(("slug", "num_players"), sorted(RECORDED))
def test_two_random_games_show_exactly_what_they_showed(slug, num_players):
    assert fingerprint(slug, num_players, 2) == RECORDED[(slug, num_players)]
