"""How many times a game needs a person, before and after steps that need nobody: 200 seeded
three-player bot games per engine, once with every decision asked, once with forced moves, the
default standing orders and each seat queuing its next placement while it waits (see
decision_count). Skipped unless pytest runs with --benchmark-enable (`make bench`); the counts
are deterministic (seeded games), so the goal is asserted: at least 40% fewer decisions needing
a person in Stone Age and Caverna, and fewer waits."""

from __future__ import annotations

import pytest

from games.engines.registry import get_engine
from tests.perf.decision_count import compare
from tests.perf.engine_play import BENCHMARKS_ONLY

pytestmark = BENCHMARKS_ONLY

GAMES = 200
#: Fewer decisions needing a person, at least (share of "before"), per engine.
GOAL = {"stone_age": 0.40, "caverna": 0.40, "seven_wonders": 0.0}


def table_row(slug: str, counts: dict) -> str:
    before, after = counts["before"], counts["after"]
    games = before.games
    saved = 1 - after.person / before.person
    return (f"{slug:14} decisions/game {before.decisions / games:6.1f} | needing a person "
            f"{before.person / games:6.1f} -> {after.person / games:6.1f} ({saved:.0%} fewer) | "
            f"waits {before.waits / games:6.1f} -> {after.waits / games:6.1f} | after: "
            f"forced {after.auto / games:.1f}, orders {after.ordered / games:.1f}, "
            f"queued {after.queued / games:.1f}, queues dropped {after.dropped / games:.1f}")


@pytest.mark.parametrize("slug", ["stone_age", "caverna", "seven_wonders"])
def test_decisions_needing_a_person_before_and_after(benchmark, slug):
    engine = get_engine(slug)
    counts = benchmark.pedantic(compare, args=(engine, GAMES), rounds=1, iterations=1)
    before, after = counts["before"], counts["after"]
    row = table_row(slug, counts)
    print("\n" + row)
    benchmark.extra_info.update({
        "games": GAMES,
        "person_before": before.person / GAMES, "person_after": after.person / GAMES,
        "waits_before": before.waits / GAMES, "waits_after": after.waits / GAMES,
        "forced_after": after.auto / GAMES, "orders_after": after.ordered / GAMES,
        "queued_after": after.queued / GAMES, "dropped_after": after.dropped / GAMES,
    })
    assert before.games == after.games == GAMES
    assert after.person <= before.person * (1 - GOAL[slug]), row
    if GOAL[slug]:
        assert after.waits < before.waits, row


def _decisions_of_one_bot_game(engine, seed: str) -> list[tuple]:
    state, out = engine.new_game(3, seed), []
    while not engine.is_over(state):
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        out.append((state, seat))
        state = engine.apply(state, seat, engine.bot_action(state, seat))
    return out


@pytest.mark.parametrize("slug", ["stone_age", "caverna", "seven_wonders"])
def test_cost_of_the_check_after_each_move(benchmark, slug):
    """What the service adds per awaited seat after a move: `next_step` (forced check, the
    default standing orders, an empty queue) at every decision of one bot game."""
    from games.engines import autoplay

    engine = get_engine(slug)
    orders = engine.validate_orders({})
    decisions = _decisions_of_one_bot_game(engine, f"cost-{slug}")

    def check_all():
        return sum(autoplay.next_step(engine, state, seat, orders=orders) is not None
                   for state, seat in decisions)

    answered = benchmark(check_all)
    benchmark.extra_info["decisions"] = len(decisions)
    assert 0 <= answered <= len(decisions)
