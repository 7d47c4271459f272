"""Hypothesis properties over random play: people ≤ 10, food track ≤ 10, at most 3 tool tiles of
value ≤ 4, resources and food never negative, every card and building accounted for."""

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.stone_age import data, rules, scoring
from games.engines.stone_age.engine import engine
from tests.engines.conformance import examples


def check_invariants(state):
    num = state["num_players"]
    for player in state["players"]:
        assert data.START_PEOPLE <= player["people"] <= data.MAX_PEOPLE
        assert 0 <= player["food_track"] <= data.MAX_FOOD_TRACK
        assert player["food"] >= 0
        assert all(amount >= 0 for amount in player["resources"].values())
        values = [tile["value"] for tile in player["tools"]]
        assert len(values) <= 3 and all(1 <= v <= 4 for v in values)
        assert not values or max(values) - min(values) <= 1
        assert sum(values) == min(player["tools_gained"], 12)
        assert set(player["one_use"]) <= set(player["cards"])
        assert set(player["two_resources"]) <= set(player["cards"])
        points = player["points"]
        assert player["score"] == points["buildings"] + points["cards"] - 10 * points["penalties"]
        placed = sum(player["placed"].values())
        assert placed + max(player["unplaced"], 0) <= player["people"]
        assert player["unplaced"] >= 0
    cards = state["deck"] + [c for c in state["display"] if c] + [
        c for p in state["players"] for c in p["cards"]]
    assert Counter(cards) == Counter(data.CARD_IDS)
    tiles = [t for stack in state["stacks"] for t in stack] + [
        b["id"] for p in state["players"] for b in p["buildings"]]
    assert len(tiles) == len(set(tiles)) == 7 * num
    if state["phase"] == "placement":
        for location in rules.active_locations(state):
            here = rules.occupants(state, location)
            if location in data.RESOURCE_LOCATIONS:
                assert sum(here.values()) <= 7 and len(here) <= data.RESOURCE_COLOURS[num]
            elif location == "hut":
                assert sum(here.values()) in (0, 2) and len(here) <= 1
            elif location != "hunting_grounds":
                assert sum(here.values()) <= 1
        if num < 4:
            assert sum(1 for v in data.VILLAGE if rules.occupants(state, v)) <= 2


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(num_players=st.integers(2, 4), seed=st.text(min_size=1, max_size=12),
       chooser_seed=st.integers(0, 10**6), bot_share=st.sampled_from([0.0, 0.3, 1.0]))
def test_invariants_hold_through_whole_games(num_players, seed, chooser_seed, bot_share):
    chooser = random.Random(chooser_seed)
    state = engine.new_game(num_players, seed)
    for _step in range(20_000):
        check_invariants(state)
        if engine.is_over(state):
            break
        if engine.ready_to_resolve(state):
            assert engine.active_seats(state) == []
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        if chooser.random() < bot_share:
            action = engine.bot_action(state, seat)
        else:
            action = chooser.choice(engine.legal_actions(state, seat))
        state = engine.apply(state, seat, action)
    assert engine.is_over(state)
    result = engine.result(state)
    assert result["scores"] == [sum(row.values()) for row in result["breakdown"]]
    for row, player in zip(result["breakdown"], state["players"], strict=True):
        assert list(row) == list(scoring.CATEGORIES)
        assert row["buildings"] + row["card_points"] + row["feeding_penalties"] == player["score"]


@given(gains=st.integers(0, 30), used=st.lists(st.booleans(), min_size=30, max_size=30))
def test_tool_progression_never_exceeds_three_tiles_of_four(gains, used):
    player = engine.new_game(2, "tools")["players"][0]
    for step in range(gains):
        rules.gain_tool(player)
        for tile, flag in zip(player["tools"], used[step:], strict=False):
            tile["used"] = flag
    values = sorted(tile["value"] for tile in player["tools"])
    assert values == sorted(data.TOOL_TILES_AFTER[min(gains, 12)])


@given(st.lists(st.sampled_from(data.CARD_IDS), unique=True))
def test_green_sets_match_the_formula(cards):
    counts = Counter(data.CARDS[c]["bottom"]["culture"] for c in cards
                     if "culture" in data.CARDS[c]["bottom"])
    expected = sum(sum(1 for n in counts.values() if n >= k) ** 2 for k in (1, 2))
    assert scoring.green_points(cards) == expected <= 128


@given(have=st.fixed_dictionaries({k: st.integers(0, 6) for k in data.RESOURCES}),
       cost=st.integers(1, 4))
def test_card_payments_are_exact_and_within_holdings(have, cost):
    payments = rules.card_payments(have, cost)
    assert all(sum(p.values()) == cost and all(p[k] <= have[k] for k in have)
               for p in payments)
    assert bool(payments) == (sum(have.values()) >= cost)
    assert len(payments) == len({tuple(p.values()) for p in payments})
