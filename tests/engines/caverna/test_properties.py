"""Hypothesis properties over random games: animals always fit (outside the decision that
fixes them), at most 6 dwarfs, weapons at most 14, nothing ever negative."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.caverna import animals as A
from games.engines.caverna.board import family_limit
from games.engines.caverna.engine import engine
from tests.engines.conformance import examples


def check(state):
    for seat, p in enumerate(state["players"]):
        assert len(p["dwarfs"]) <= 6
        assert len(p["dwarfs"]) <= max(2, family_limit(p["cells"]))
        assert all(0 <= d["w"] <= 14 for d in p["dwarfs"])
        assert all(v >= 0 for v in p["supply"].values()), p["supply"]
        assert all(v >= 0 for v in p["animals"].values()), p["animals"]
        assert p["begging"] >= 0 and 0 <= p["stables"] <= 3
        assert sum(1 for c in p["cells"] if c["st"]) + p["stables"] == 3
        for c in p["cells"]:
            assert c.get("n", 0) >= 0
        fixing = (
            state["stack"]
            and state["stack"][-1]["t"] == "overflow"
            and (state["stack"][-1]["seat"] == seat)
        )
        if not fixing:
            assert A.fits(p["cells"], len(p["dwarfs"]), p["animals"]), (seat, p["animals"])
    for space in state["spaces"].values():
        assert all(v >= 0 for v in space["goods"].values())


@settings(max_examples=examples(12), deadline=None)
@given(
    n=st.integers(1, 7),
    seed=st.text("abcdefgh", min_size=1, max_size=6),
    chooser=st.integers(0, 10_000),
    bot_share=st.sampled_from([0.0, 0.3, 0.9]),
)
def test_invariants_hold_along_random_games(n, seed, chooser, bot_share):
    rng = random.Random(chooser)
    state = engine.new_game(n, seed)
    steps = 0
    while not engine.is_over(state):
        check(state)
        seat = engine.active_seats(state)[0]
        if rng.random() < bot_share:
            action = engine.bot_action(state, seat)
        else:
            action = rng.choice(engine.legal_actions(state, seat))
        state = engine.apply(state, seat, action)
        steps += 1
        assert steps < 20_000
    check(state)
