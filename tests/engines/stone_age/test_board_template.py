"""The phone board template renders every kind of view (a seat's, a spectator's, each decision,
the end) with Django's template language alone, and shows what the view holds."""



from games.engines.stone_age.engine import engine
from tests.engines.boards import render_board
from tests.engines.conformance import play_random_game

from .helpers import action_phase, apply, resources, rig_dice


def render(view, seat=None):
    return render_board("stone_age", view, seat=seat)


def states_of_every_kind():
    game = play_random_game(engine, 4, "template-kinds", chooser_seed=3)
    state = engine.new_game(4, "template-kinds")
    kinds = {}
    for entry in game.log:
        pending = state["pending"]
        kinds.setdefault((state["phase"], pending and pending["kind"]), state)
        if entry[0] == "resolve":
            state = engine.resolve(state)
        else:
            state = engine.apply(state, entry[1], entry[2])
    kinds[("over", None)] = state
    return kinds


def test_every_decision_renders_for_a_player_and_a_spectator():
    for (_phase, kind), state in states_of_every_kind().items():
        for viewer in (None, *engine.active_seats(state)):
            html = render(engine.view(state, viewer), viewer)
            assert 'class="board-stone_age"' in html
            assert "Civilization cards" in html and "Buildings" in html
            if kind is not None:
                assert "sa-decision" in html


def test_the_roll_and_the_tool_choices_with_their_yields_are_shown():
    state = action_phase(4, 1, {"quarry": 3})
    state["players"][1]["tools"] = [{"value": 2, "used": False}, {"value": 1, "used": True}]
    rig_dice(state, [6, 5, 2])  # 13 -> 2 stone; +2 -> 15 -> 3 stone
    state = apply(state, 1, {"type": "resolve", "location": "quarry"})
    html = render(engine.view(state, 1), 1)
    for die in (6, 5, 2):
        assert f'<span class="sa-die">{die}</span>' in html
    assert "Total <strong>13</strong> ÷ 5 = <strong>2 stone</strong>" in html
    assert "<td>tile 2 </td>" in html and "<td>3 stone</td>" in html
    assert "Your tribe" in html and "1 (used)" in html


def test_own_cards_shown_only_to_their_owner():
    state = action_phase(2, 0, {"forest": 2})
    state["players"][0]["cards"] = ["civ_11"]
    assert "7 food / Pottery" in render(engine.view(state, 0), 0)
    assert "7 food / Pottery" not in render(engine.view(state, 1), 1)
    assert "7 food / Pottery" not in render(engine.view(state, None))


def test_the_end_shows_the_breakdown_and_winner():
    state = states_of_every_kind()[("over", None)]
    html = render(engine.view(state, None))
    assert "Final scoring" in html and "Green culture sets" in html and "Winner" in html
    assert "green_sets" not in html
    for score in engine.result(state)["scores"]:
        assert f"<td>{score}</td>" in html


def test_card_prices_and_stack_heights_are_shown():
    state = engine.new_game(3, "prices")
    state["players"][0]["resources"] = resources(wood=1)
    html = render(engine.view(state, 0), 0)
    assert "<strong>4</strong> resources" in html and "<strong>1</strong> resource:" in html
    assert html.count("(7 left)") == 3
