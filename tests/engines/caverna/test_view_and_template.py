"""The view (what each seat sees), describe sentences, time-outs, and the phone board template
rendered with Django's template engine and builtins only."""

import json
import random

import pytest

from games.engines.caverna.engine import engine
from games.engines.caverna.texts import english
from tests.engines.boards import render_board

from .helpers import add_space, fresh, legal, place, turn_state


def render(view, seat, legal_actions=()):
    choices = [{"index": i, "description": "x", "action": a} for i, a in enumerate(legal_actions)]
    return render_board("caverna", view, seat=seat, legal_actions=choices)


def midgame(n=4, seed="mid", steps=400):
    rng = random.Random(3)
    state = engine.new_game(n, seed)
    for _ in range(steps):
        if engine.is_over(state):
            break
        seat = engine.active_seats(state)[0]
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return state


def test_view_has_what_a_player_needs():
    state = midgame()
    view = engine.view(state, 0)
    assert {"round", "spaces", "players", "decision", "furnishing_tiles"} <= set(view)
    p = view["players"][0]
    assert len(p["rows"]) == 4 and all(len(r) == 6 for r in p["rows"])
    assert {"supply", "animals", "dwarfs", "stables_left", "begging"} <= set(p)
    json.dumps(view)


def test_view_never_shows_future_round_cards_in_order():
    state = fresh(5, "future")
    view = engine.view(state, 1)
    future = [state["deck"][str(r)] for r in range(2, 13)]
    shown = {s["id"] for s in view["spaces"]}
    assert not shown & set(future)
    text = json.dumps(view)
    assert "future" in text  # the remaining cards by stage are public (as on the table)
    assert all(isinstance(v, list) for v in view["future_round_cards_by_stage"].values())


def test_animals_are_shown_where_the_engine_keeps_them():
    state, seat = turn_state(3)
    state["players"][seat]["animals"].update(sheep=2, dog=1)
    view = engine.view(state, seat)
    entry = view["players"][seat]["rows"][3][3]
    assert entry["animals"].get("sheep") == 2


def test_describe_is_a_sentence_for_every_legal_action():
    state = midgame(steps=250)
    seat = engine.active_seats(state)[0]
    for action in engine.legal_actions(state, seat):
        text = engine.describe(state, seat, action)
        assert text.startswith(f"Seat {seat} ") and text.endswith(".")
    assert engine.describe(state, seat, {"type": "nonsense"}) == f"Seat {seat} made a move."


def test_describe_examples():
    state, seat = turn_state(3)
    assert engine.describe(state, seat, {"type": "place", "space": "logging_1_3"}) == (
        f"Seat {seat} placed a dwarf on Logging."
    )
    add_space(state, "blacksmithing")
    state["players"][seat]["supply"]["ore"] = 3
    state = place(state, "blacksmithing")
    assert engine.describe(state, seat, {"type": "forge", "strength": 3}) == (
        f"Seat {seat} forged a weapon of strength 3."
    )
    assert engine.describe(state, seat, {"type": "convert", "from": "gold", "amount": 3}) == (
        f"Seat {seat} converted 3 gold into 2 food."
    )


@pytest.mark.parametrize("n", [1, 3, 7])
def test_timeout_is_legal_and_conservative_through_a_game(n):
    state = engine.new_game(n, f"timeouts-{n}")
    while not engine.is_over(state):
        seat = engine.active_seats(state)[0]
        action = engine.timeout_action(state, seat)
        assert action in engine.legal_actions(state, seat)
        assert action["type"] not in ("release", "ruby_trade", "ruby_tile", "reorder")
        state = engine.apply(state, seat, action)
    assert engine.result(state)["winners"]


def test_bot_beats_the_timeout_player():
    totals = {"bot": 0, "timeout": 0}
    for k in range(3):
        state = engine.new_game(2, f"duel-{k}")
        while not engine.is_over(state):
            seat = engine.active_seats(state)[0]
            move = engine.bot_action if seat == 0 else engine.timeout_action
            state = engine.apply(state, seat, move(state, seat))
        scores = engine.result(state)["scores"]
        totals["bot"] += scores[0]
        totals["timeout"] += scores[1]
    assert totals["bot"] > totals["timeout"]


@pytest.mark.parametrize("viewer", [0, None])
def test_template_renders_at_phone_size(viewer):
    state = midgame(n=4, steps=300)
    view = engine.view(state, viewer)
    seat = engine.active_seats(state)[0] if engine.active_seats(state) else None
    html = render(view, viewer, engine.legal_actions(state, seat) if seat == viewer else ())
    assert 'class="board-caverna"' in html
    assert "Action spaces" in html and "Home boards" in html
    assert html.count('role="gridcell"') == 24 * 4
    for space in view["spaces"]:
        assert english(space["name"]) in html
    assert "{{" not in html and "{%" not in html


def test_template_shows_the_decision_and_the_end():
    state, seat = turn_state(3)
    html = render(engine.view(state, seat), seat, legal(state))
    assert "Place a dwarf on an action space" in html and "(you)" in html
    while not engine.is_over(state):
        s = engine.active_seats(state)[0]
        state = engine.apply(state, s, engine.bot_action(state, s))
    view = engine.view(state, None)
    html = render(view, None)
    assert "game over" in html
    assert "Final scores" in html
    result = engine.result(state)
    assert [f["total"] for f in view["final_scores"]] == result["scores"]
    assert [f["seat"] for f in view["final_scores"] if f["winner"]] == result["winners"]
    assert "Unused spaces" in html
