"""The duel script's scoring (tests/perf/bot_duel.py): the share of search bots the hard bot
finishes ahead of, and the interval over games, for two and for three players."""

from __future__ import annotations

import pytest

from tests.perf.bot_duel import share_ahead, summarize


def test_the_share_counts_each_search_bot_behind_and_half_a_tie():
    assert share_ahead([50, 40, 60], [2], 0) == 0.5
    assert share_ahead([60, 40, 60], [0, 2], 0) == 0.75  # a shared first place: ½
    assert share_ahead([60, 40, 60], [0], 0) == 1.0  # the tie-break put it first
    assert share_ahead([60, 40, 60], [2], 0) == 0.5
    assert share_ahead([30, 40], [1], 0) == 0.0


def _game(share, seat=0, seconds=(0.5,)):
    return {"scores": [1, 0], "winners": [seat], "hard_seat": seat, "share": share,
            "hard_seconds": list(seconds), "search_seconds": [0.1]}


def test_two_player_games_get_a_wilson_interval_and_more_players_a_normal_one():
    games = [_game(1.0)] * 6 + [_game(0.0)] * 3 + [_game(0.5)]
    two = summarize(games, 2)
    assert two["share_ahead"] == pytest.approx(0.65)
    low, high = two["share_ahead_95ci"]
    assert 0.35 < low < 0.65 < high < 0.9  # Wilson: inside [0, 1], around the share
    three = summarize(games, 3)
    low3, high3 = three["share_ahead_95ci"]
    assert low3 + high3 == pytest.approx(2 * 0.65)  # normal: symmetric around the mean


def test_the_cpu_per_decision_is_summarized_over_every_game():
    games = [_game(1.0, seconds=[0.2, 1.9]), _game(0.0, seconds=[0.3])]
    cpu = summarize(games, 2)["hard_cpu_seconds_per_decision"]
    assert cpu["decisions"] == 3 and cpu["max"] == 1.9 and cpu["mean"] == pytest.approx(0.8)
