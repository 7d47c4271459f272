"""The phone board template renders every kind of 7 Wonders view (a seat's, a spectator's, the
set-up choice, Babylon's seventh card, Halicarnassus' choice, the end) with Django's template
language alone, shows what issue 3 point 7 asks for, and never shows a hidden card."""



from games.engines.seven_wonders.data import CARDS
from games.engines.seven_wonders.engine import engine
from tests.engines.boards import render_board
from tests.engines.conformance import play_random_game
from tests.engines.seven_wonders.helpers import card, city, game, hand, options_for, pick_all


def render(state, viewer=None):
    legal = engine.legal_actions(state, viewer) if viewer is not None else []
    return render_board("seven_wonders", engine.view(state, viewer), seat=viewer,
                        legal_actions=legal)


def states_of_every_phase():
    options = {"wonders": "chosen", "sides": "chosen"}
    played = play_random_game(engine, 3, "template-phases", options=options, chooser_seed=5,
                              use_bot=0.5)
    state = engine.new_game(3, "template-phases", options)
    phases = {}
    for entry in played.log:
        phases.setdefault(state["phase"], state)
        if entry[0] == "resolve":
            state = engine.resolve(state)
        else:
            state = engine.apply(state, entry[1], entry[2])
    phases["over"] = state
    return phases


def test_every_phase_renders_for_each_seat_and_a_spectator():
    phases = states_of_every_phase()
    assert {"setup", "pick", "over"} <= set(phases)
    for state in phases.values():
        for viewer in (None, 0, 1, 2):
            html = render(state, viewer)
            assert 'class="board-seven_wonders"' in html
            assert "Cities" in html


def test_hand_shows_cost_options_in_words_and_the_waiting_count():
    state = game(3, ["olympia", "giza", "rhodes"])  # left Giza sells stone, right Rhodes ore
    hand(state, 0, [card("Baths"), card("Barracks"), card("Lumber Yard")])
    hand(state, 1, [card("Altar"), card("Theater"), card("Stone Pit")])
    hand(state, 2, [card("Tavern"), card("Stockade"), card("Clay Pool")])
    html = render(state, 0)
    assert "Your hand" in html
    assert "Cost: stone" in html  # Baths
    assert "Build Baths: pay 2 coins to the left for stone" in html
    assert "Build Barracks: pay 2 coins to the right for ore" in html
    assert "Discard Lumber Yard for 3 coins" in html
    assert "waiting for 3 players" in html
    picked = engine.apply(state, 0, {"type": "discard", "card": card("Baths")})
    html = render(picked, 0)
    assert "waiting for 2 players" in html
    assert "Your pick:</strong> Discard Baths for 3 coins" in html
    # The other seats see that seat 0 has picked, never what.
    other = render(picked, 1)
    assert "has picked" in other and "Discard Baths" not in other


def test_cities_by_colour_neighbours_coins_shields_stages_and_tokens():
    state = game(3, ["rhodes", "giza", "ephesus"])
    city(state, 0, built=[card("Stockade"), card("Altar"), card("Lumber Yard")], coins=7,
         stages=1, tokens=[1, -1])
    html = render(state, 0)
    assert "Your city" in html and "Left neighbour" in html and "Right neighbour" in html
    for colour in ("red", "blue", "brown"):  # built cards coloured by type
        assert f'class="built-card c-{colour}"' in html
    assert "7 coins" in html and "1 shield" in html
    assert "tokens: +1 -1" in html
    # The first wonder stage is built: its cost and effect drawn, named in words.
    built = html[html.index('<li class="stage built">'):]
    built = built[:built.index("</li>")]
    assert "✔" in built and 'aria-label="Cost: 2 wood"' in built and 'aria-label="3 VP"' in built
    assert html.count('<li class="stage built">') == 1


def test_spectator_sees_no_hand_and_no_pick():
    state = game(3)
    state = engine.apply(state, 0, {"type": "discard", "card": state["hands"][0][0]})
    html = render(state, None)
    assert "Your hand" not in html and "Your pick" not in html
    names = {CARDS[cid]["name"] for hand_ in state["hands"] for cid in hand_}
    assert names and not [name for name in names if name in html]
    # A seat sees its own hand only.
    html = render(state, 1)
    assert all(CARDS[cid]["name"] in html for cid in state["hands"][1])
    assert not [cid for cid in state["hands"][0] + state["hands"][2]
                if CARDS[cid]["name"] in html and cid not in state["hands"][1]]


def test_discard_pile_only_for_halicarnassus_while_choosing():
    state = game(3, ["halicarnassus", "giza", "rhodes"])
    city(state, 0, built=[card("Ore Vein"), card("Mine")], coins=5, stages=1)
    hand(state, 0, [card("Lumber Yard"), card("Press", 1)])
    hand(state, 1, [card("Stone Pit"), card("Loom", 1)])
    hand(state, 2, [card("Clay Pool"), card("Glassworks", 1)])
    state["discard"] = [card("Pawnshop")]
    stage = options_for(state, 0, card("Lumber Yard"), "wonder")
    after = pick_all(state, {0: stage[0], 1: {"type": "build", "card": card("Stone Pit")},
                             2: {"type": "build", "card": card("Clay Pool")}})
    assert after["phase"] == "discard_build"
    assert "Discard pile (only you see it)" in render(after, 0)
    assert "Pawnshop" in render(after, 0)
    for viewer in (None, 1, 2):
        html = render(after, viewer)
        assert "Pawnshop" not in html and "builds from the discard pile" in html


def test_the_board_leaves_the_ranked_scores_to_the_pages_result_table():
    """The ranked scores are the page's own table (templates/games/_final_scores.html, fitting a
    phone); a second, ten-column table on the board scrolled sideways."""
    html = render(states_of_every_phase()["over"], None)
    assert "<table" not in html and "Final scores" not in html


def test_two_player_board_shows_the_free_city_its_controller_and_picks_to_the_controller_only():
    played = play_random_game(engine, 2, "template-two", chooser_seed=3, use_bot=0.5)
    state = engine.new_game(2, "template-two")
    for entry in played.log:
        for viewer in (None, 0, 1):
            html = render(state, viewer)
            assert "Free City" in html and "Cities" in html
            for cid in state["free_city"]["pile"]:
                if all(cid not in player["built"] for player in state["players"]):
                    assert CARDS[cid]["name"] not in html.split("<h3>Cities</h3>")[0]
        state = (engine.resolve(state) if entry[0] == "resolve"
                 else engine.apply(state, entry[1], entry[2]))
    html = render(state, 0)
    assert "Free City (not ranked)" in html and "<table" not in html

    state = engine.new_game(2, "template-two")
    html = render(state, 0)
    assert "hands swap across the Border" in html and "plays the Free City this turn" in html
    assert "You hold the Free City card" in html
    assert "You hold the Free City card" not in render(state, 1)
    state = engine.apply(state, 0, {"type": "discard", "card": state["hands"][0][0]})
    city_pick = engine.legal_actions(state, 0)[0]
    html = render(state, 0)
    assert "For the Free City: " in html  # the hand's options are now the Free City's
    state = engine.apply(state, 0, city_pick)
    assert "The Free City's pick:" in render(state, 0)
    assert "The Free City's pick:" not in render(state, 1)
