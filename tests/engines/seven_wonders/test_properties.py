"""Hypothesis properties over random play: every card is conserved (each dealt card ends in
exactly one hand, city, wonder stage, the discard pile or, with two players, the Free City's
pile), coins never go negative, no city holds two buildings of one name, and the final scores
are the breakdown sums; with two players the Free City is a city like the others."""

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.seven_wonders.engine import engine
from games.engines.seven_wonders.rules import CARD_NAME
from tests.engines.conformance import examples


def all_cards(state):
    cards = Counter()
    for hand in state["hands"]:
        cards.update(hand)
    for player in state["players"]:
        cards.update(player["built"])
        cards.update(player["stage_cards"])
    cards.update(state["discard"])
    cards.update(state.get("free_city", {}).get("pile", []))
    for deck in state["decks"].values():
        cards.update(deck)
    return cards


def check(state, total):
    assert all_cards(state) == total
    for player in state["players"]:
        assert player["coins"] >= 0
        names = [CARD_NAME[c] for c in player["built"]]
        assert len(names) == len(set(names))


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    num_players=st.integers(2, 7),
    seed=st.text(min_size=1, max_size=12),
    sides=st.sampled_from(["A", "B", "random"]),
    data=st.data(),
)
def test_random_play_conserves_cards_and_coins(num_players, seed, sides, data):
    state = engine.new_game(num_players, seed, {"sides": sides})
    total = all_cards(state)
    cities = len(state["players"])  # with two players, three: the Free City's too
    assert cities == (3 if num_players == 2 else num_players)
    assert sum(total.values()) == 21 * cities
    steps = 0
    while not engine.is_over(state):
        steps += 1
        assert steps < 2000
        active = engine.active_seats(state)
        if not active:
            state = engine.resolve(state)
            check(state, total)
            continue
        seat = data.draw(st.sampled_from(active))
        legal = engine.legal_actions(state, seat)
        if data.draw(st.booleans()):
            action = engine.bot_action(state, seat)
        else:
            action = legal[data.draw(st.integers(0, len(legal) - 1))]
        assert action in legal
        state = engine.apply(state, seat, action)
        check(state, total)
    result = engine.result(state)
    assert result["scores"] == [sum(row.values()) for row in result["breakdown"]]
    assert len(result["scores"]) == num_players
    if "free_city" in result:
        city = result["free_city"]
        assert city["score"] == sum(city["breakdown"].values())
    # 18 cards played per city (more with Babylon B or Halicarnassus), rest discarded.
    played = sum(len(p["built"]) + len(p["stage_cards"]) for p in state["players"])
    assert played + len(state["discard"]) == 21 * cities
