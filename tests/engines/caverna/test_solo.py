"""Solo rules: accumulation limit with ruby protection (WE14), harvests, card order."""

from games.engines.caverna import rules as R
from games.engines.caverna.engine import engine

from .helpers import act, fresh, legal, top


def solo_at_round_start(wood, rubies):
    state = fresh(1, "solo")
    state["spaces"]["logging_1_3"]["goods"] = {"wood": wood}
    state["players"][0]["supply"]["ruby"] = rubies
    state["stack"] = [{"t": "round_start"}]
    R.run(state)
    return state


def test_we14_more_than_six_is_cleared_then_refilled():
    state = solo_at_round_start(7, 0)
    assert state["spaces"]["logging_1_3"]["goods"] == {"wood": 3}


def test_we14_a_ruby_protects_the_pile():
    state = solo_at_round_start(7, 1)
    assert top(state)["t"] == "protect"
    assert legal(state) == [
        {"type": "protect", "space": "logging_1_3"},
        {"type": "let_go", "space": "logging_1_3"},
    ]
    kept = act(state, {"type": "protect", "space": "logging_1_3"})
    assert kept["spaces"]["logging_1_3"]["goods"] == {"wood": 8}
    assert kept["players"][0]["supply"]["ruby"] == 0
    lost = act(state, {"type": "let_go", "space": "logging_1_3"})
    assert lost["spaces"]["logging_1_3"]["goods"] == {"wood": 3}
    assert lost["players"][0]["supply"]["ruby"] == 1


def test_we14_exactly_six_stays():
    state = solo_at_round_start(6, 0)
    assert state["spaces"]["logging_1_3"]["goods"] == {"wood": 7}


def test_solo_harvest_every_round_from_five():
    state = fresh(1, "solo-harvest")
    for r in range(1, 13):
        if r == 9:
            continue
        state["round"] = r - 1 if r != 10 else 8
        state["stack"] = []
        R.round_start(state, {})
    kinds = {int(r): k for r, k in state["harvest"].items()}
    assert [kinds[r] for r in (1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12)] == [
        "none",
        "none",
        "normal",
        "one",
        "normal",
        "normal",
        "normal",
        "normal",
        "normal",
        "normal",
        "normal",
    ]


def test_solo_game_plays_to_the_end_with_the_bot():
    state = fresh(1, "solo-bot")
    steps = 0
    while not engine.is_over(state):
        state = engine.apply(state, 0, engine.bot_action(state, 0))
        steps += 1
        assert steps < 3000
    assert state["cards"] == [c for c in R.SOLO_CARD_ORDER if c]
    result = engine.result(state)
    assert result["winners"] == [0]
