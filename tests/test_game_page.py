"""The game page's presentation: board targets from the legal actions, choices as numbered
imperatives with identical outcomes merged, the preview before Confirm (never showing what the
move would reveal), the turn state per seat, and stepping through past versions without seeing
more than one saw then."""

from __future__ import annotations

import re

import pytest

from games import services
from games.engines.base import SeededRandom
from games.engines.registry import get_engine
from games.presentation import board
from games.presentation.names import with_names
from games.web import views
from tests.factories import UserFactory, committed, started_game

pytestmark = pytest.mark.django_db


def test_choice_texts_read_as_orders_with_the_rest_as_detail():
    assert board.imperative("Seat 0 places 2 people on the forest.", 0) == (
        "Place 2 people on the forest", "")
    assert board.imperative("Seat 1 adds no tools to the roll of 6. Seat 1 gets 2 wood (6).",
                            1) == ("Add no tools to the roll of 6", "Seat 1 gets 2 wood (6).")
    assert board.imperative("Seat 2 placed a dwarf on Housework.", 2) == (
        "Place a dwarf on Housework", "")
    assert board.imperative("Seat 0 chose: take the goods on the space + take 1 grain.", 0)[0] \
        == "Take the goods on the space + take 1 grain"
    assert board.imperative("Seat 1 fed their dwarfs.", 1)[0] == "Feed your dwarfs"
    assert board.imperative("Seat 0 acts.", 0)[0] == "Act"  # not "You: acts."
    assert board.imperative("Seat 3 is 2 food short and loses 10 points.", 3)[0] == (
        "Lose 10 points for the 2 missing food")
    assert board.imperative("Build Baths: pay 2 coins to the right", 0)[0] == (
        "Build Baths: pay 2 coins to the right")


def test_targets_come_from_the_actions_fields():
    assert board.targets_of("stone_age", {"type": "place", "location": "forest", "count": 2}) \
        == ["loc:forest"]
    assert board.targets_of("stone_age", {"type": "decline"}) == []
    assert board.targets_of("caverna", {"type": "tile", "tile": "meadow_field_twin",
                                        "at": [[2, 2], [2, 3]]}) == ["cell:2,2", "cell:2,3"]
    assert board.targets_of("caverna", {"type": "ruby_tile", "tile": "meadow", "at": [1, 0]}) \
        == ["cell:1,0"]
    assert board.targets_of("caverna", {"type": "place", "space": "housework"}) == [
        "space:housework"]
    assert board.targets_of("seven_wonders", {"type": "wonder", "card": "loom_1"}) == [
        "card:loom_1", "stage"]
    assert board.targets_of("toy", {"type": "bid", "amount": 1}) == []


def test_identical_outcomes_are_one_choice_and_numbers_have_no_gaps():
    engine = get_engine("stone_age")
    legal = [
        {"index": 0, "action": {"type": "place", "location": "forest", "count": 1},
         "description": "Seat 0 places 1 person on the forest."},
        {"index": 1, "action": {"type": "place", "location": "forest", "count": 1},
         "description": "Seat 0 places 1 person on the forest."},
        {"index": 2, "action": {"type": "place", "location": "river", "count": 1},
         "description": "Seat 0 places 1 person on the river."},
    ]
    choices = board.present_choices(engine, legal, 0, {0: "Ann"})
    assert [(c["number"], c["index"], c["label"]) for c in choices] == [
        (1, 0, "Place 1 person on the forest"), (2, 2, "Place 1 person on the river")]


def caverna_game_at_tile_placement():
    """A Caverna game whose seat to act must place a tile on its home board."""
    game, users = started_game(2, engine="caverna", seed="page-caverna")
    engine = get_engine("caverna")
    for _ in range(300):
        game.refresh_from_db()
        seat = engine.active_seats(game.state)[0]
        legal = engine.legal_actions(game.state, seat)
        if any("at" in action for action in legal):
            return game, users, seat
        with committed():
            services.game_action_submit(game_id=game.pk, user=users[seat],
                                        action=engine.bot_action(game.state, seat),
                                        expected_version=game.version)
    raise AssertionError("no tile placement came")


def test_every_caverna_cell_in_a_choice_is_a_labelled_cell_of_the_home_board(client):
    game, users, seat = caverna_game_at_tile_placement()
    client.force_login(users[seat])
    page = client.get(f"/games/{game.pk}/").content.decode()
    engine = get_engine("caverna")
    for action in engine.legal_actions(game.state, seat):
        text = engine.describe(game.state, seat, action)
        for x, y in re.findall(r"\((\d),(\d)\)", text):
            # The coordinates of the choice text are on the drawn board, as a tap target.
            assert f'data-target="cell:{x},{y}"' in page
            assert f'<span class="cv-xy">({x},{y})</span>' in page
    # Only one's own home board has targets (24 cells), not the other players' boards.
    assert page.count('data-target="cell:') == 24


def test_a_choice_is_previewed_then_confirmed_and_the_preview_hides_what_a_move_reveals(client):
    game, users, seat = caverna_game_at_tile_placement()
    client.force_login(users[seat])
    engine = get_engine("caverna")
    legal = engine.legal_actions(game.state, seat)
    index = next(i for i, action in enumerate(legal) if "at" in action)
    fragment = client.get(f"/games/{game.pk}/preview/",
                          {"index": index, "version": game.version}).content.decode()
    label = board.imperative(engine.describe(game.state, seat, legal[index]), seat)[0]
    assert f"{with_names(label, {})}?" in fragment.replace("&#x27;", "'")
    assert 'name="confirm" value="1"' in fragment
    stale = client.get(f"/games/{game.pk}/preview/",
                       {"index": index, "version": game.version - 1}).content.decode()
    assert "no longer available" in stale
    game.refresh_from_db()
    version = game.version
    response = client.post(f"/games/{game.pk}/act/", {"version": version, "index": index})
    assert response.status_code == 302 and f"confirm={index}" in response["Location"]
    game.refresh_from_db()
    assert game.version == version, "nothing is played before Confirm"


def test_the_preview_of_a_card_that_draws_from_the_deck_shows_no_numbers():
    engine = get_engine("stone_age")
    choose = SeededRandom("preview-draw")
    state = engine.new_game(2, "preview-draw")
    checked = 0
    for _ in range(3000):
        if engine.is_over(state) or checked >= 3:
            break
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        legal = engine.legal_actions(state, seat)
        for action in legal:
            after = engine.apply(state, seat, action)
            if len(after["deck"]) < len(state["deck"]):
                lines = board.preview(engine, state, seat, action)
                # Only what everyone will see: never the buyer's private card summary.
                public = board.view_changes(engine.view(state, None), engine.view(after, None),
                                            seat, engine_slug="stone_age")
                assert lines == public
                assert not [line for line in lines if "green cards" in line]
                private = board.view_changes(engine.view(state, seat), engine.view(after, seat),
                                             seat, engine_slug="stone_age")
                checked += private != public
        state = engine.apply(state, seat, choose.choice(legal))
    assert checked, "no card draw came up"


def bot_move(game, users) -> None:
    """The bot's choice for the first awaited seat, through the service, or the resolution
    that is due when nobody is awaited; `game` is read again after it."""
    engine = get_engine(game.engine)
    active = engine.active_seats(game.state)
    if not active:
        services.game_resolve(game_id=game.pk)
    else:
        with committed():
            services.game_action_submit(game_id=game.pk, user=users[active[0]],
                                        action=engine.bot_action(game.state, active[0]),
                                        expected_version=game.version)
    game.refresh_from_db()


def test_simultaneous_turn_state_shows_who_picked_and_folds_my_choices(client):
    game, users = started_game(3, engine="seven_wonders", seed="page-7w")
    engine = get_engine("seven_wonders")
    game.refresh_from_db()
    pick = engine.legal_actions(game.state, 0)[0]
    with committed():
        services.game_action_submit(game_id=game.pk, user=users[0], action=pick,
                                    expected_version=game.version)
    client.force_login(users[0])
    page = client.get(f"/games/{game.pk}/").content.decode()
    legend = page.split('<ul class="legend"')[1].split("</ul>")[0]
    assert legend.count("✓ picked") == 1 and legend.count("choosing…") == 2
    assert "<strong>Your pick:</strong>" in page and "(change)" in page
    assert 'class="move folded"' in page and "Change your pick" in page
    other = client.__class__()
    other.force_login(users[1])
    page = other.get(f"/games/{game.pk}/").content.decode()
    assert "Your pick" not in page and "✓ picked" in page
    assert engine.describe(game.state, 0, pick, viewer=0).split(":")[0] not in page.split(
        'id="log"')[0], "another player's pick stays hidden"


def test_history_shows_the_board_as_it_was_for_me_then_and_everything_after_the_end(client):
    game, users = started_game(3, engine="seven_wonders", seed="page-history")
    game.refresh_from_db()
    first_hand = [c for c in game.state["hands"][0]]
    others_hand = game.state["hands"][1]
    while game.status == "active":
        bot_move(game, users)
    from games.engines.seven_wonders.data import CARDS

    client.force_login(users[0])
    page = client.get(f"/games/{game.pk}/", {"at": 0}).content.decode()
    assert "Looking back" in page
    hand = page.split("Your hand")[1].split("Cities")[0]
    assert all(CARDS[c]["name"] in hand for c in first_hand)
    assert 'id="your-move"' not in page, "no choices on a past version"
    # After the end anyone allowed may see any seat's view of any version.
    page = client.get(f"/games/{game.pk}/", {"at": 0, "as": 1}).content.decode()
    hand = page.split("Your hand")[1].split("Cities")[0]
    assert all(CARDS[c]["name"] in hand for c in others_hand)
    stranger = client.__class__()
    page = stranger.get(f"/games/{game.pk}/", {"at": 0, "as": 2}).content.decode()
    assert "Your hand" in page, "after the end a spectator may take any seat's view"


def test_history_before_the_end_keeps_other_hands_hidden(client):
    game, users = started_game(3, engine="seven_wonders", seed="page-history-2")
    engine = get_engine("seven_wonders")
    game.refresh_from_db()
    from games.engines.seven_wonders.data import CARDS

    others = [CARDS[c]["name"] for c in game.state["hands"][1]
              if c not in game.state["hands"][0]]
    with committed():
        services.game_action_submit(game_id=game.pk, user=users[0],
                                    action=engine.legal_actions(game.state, 0)[0],
                                    expected_version=game.version)
    client.force_login(users[0])
    page = client.get(f"/games/{game.pk}/", {"at": 0, "as": 1}).content.decode()
    hand = page.split("Your hand")[1].split("Cities")[0]
    assert not [name for name in others if name in hand], "the ?as= view is only for the end"
    assert client.get(f"/games/{game.pk}/", {"at": "99"}).status_code == 200


# ----- the phone page, version 3 ----------------------------------------------------------------


def stone_age_at_placement(client):
    """A Stone Age game at its first placement, with its player to act signed in."""
    game, users = started_game(2, engine="stone_age", seed="page-v3")
    engine = get_engine("stone_age")
    seat = engine.active_seats(game.state)[0]
    client.force_login(users[seat])
    return game, users, seat, engine


def test_a_tapped_place_lists_each_of_its_choices_with_its_own_confirm(client):
    game, users, seat, engine = stone_age_at_placement(client)
    legal = engine.legal_actions(game.state, seat)
    at_forest = [i for i, action in enumerate(legal) if action.get("location") == "forest"]
    assert len(at_forest) > 1, "the forest takes 1 to 5 people"
    sheet = client.get(f"/games/{game.pk}/preview/",
                       {"target": "loc:forest", "version": game.version}).content.decode()
    # Two taps: the place, then one of its choices, which is itself the Confirm.
    assert sheet.count('name="confirm" value="1"') == len(at_forest)
    assert sorted(map(int, re.findall(r'name="index" value="(\d+)"', sheet))) == at_forest
    assert sheet.count("confirm-button") == len(at_forest)
    one = client.get(f"/games/{game.pk}/preview/",
                     {"target": "loc:hunt-nowhere", "version": game.version}).content.decode()
    assert "no longer available" in one, "a place with no choice says so"
    stranger = client.__class__()
    stranger.force_login(UserFactory())
    assert "confirm-button" not in stranger.get(
        f"/games/{game.pk}/preview/", {"target": "loc:forest", "version": game.version}
    ).content.decode(), "nobody confirms for another player"


def test_the_live_part_of_the_page_is_a_fragment_of_the_same_page(client):
    game, users, seat, engine = stone_age_at_placement(client)
    page = client.get(f"/games/{game.pk}/").content.decode()
    fragment = client.get(f"/games/{game.pk}/live/").content.decode()
    assert "<html" not in fragment and 'id="sheet"' not in fragment and 'id="chat"' not in fragment
    assert 'id="your-move"' in fragment and 'id="board"' in fragment and 'id="log"' in fragment
    live = page.split('<div id="game-live">')[1]
    # The page embeds exactly what the fragment sends (the morph then changes nothing).
    tokens = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|nonce="[^"]*"')
    assert tokens.sub("", fragment).strip() in tokens.sub("", live)
    assert client.__class__().get(f"/games/{game.pk + 999}/live/").status_code == 404


def test_the_turn_and_deadline_come_first_and_the_log_folds_below_the_board(client):
    game, users, seat, engine = stone_age_at_placement(client)
    page = client.get(f"/games/{game.pk}/").content.decode()
    bar = page.split('id="turn-bar">')[1].split("</p>")[0]
    assert "Your move" in bar and "left)" in bar
    assert page.index('id="turn-bar"') < page.index('id="board"') < page.index('id="log"')
    assert '<details id="log" class="log-panel">' in page, "the log starts folded"
    other = client.__class__()
    other.force_login(users[1 - seat])
    bar = other.get(f"/games/{game.pk}/").content.decode().split('id="turn-bar">')[1]
    assert "Waiting for" in bar.split("</p>")[0]


def test_the_log_is_paged(client, monkeypatch):
    monkeypatch.setattr(views, "LOG_ENTRIES_SHOWN", 1)  # pages of 1: three moves make three
    game, users = started_game(2, engine="stone_age", seed="page-v3-log")
    for _ in range(3):
        bot_move(game, users)
    client.force_login(users[0])
    log = client.get(f"/games/{game.pk}/").content.decode().split('id="log"')[1]
    assert log.count('class="step"') == 1 and "?log=2#log" in log
    log = client.get(f"/games/{game.pk}/", {"log": 2}).content.decode().split('id="log"')[1]
    assert log.count('class="step"') == 2 and "?log=3#log" in log
    log = client.get(f"/games/{game.pk}/", {"log": 9}).content.decode().split('id="log"')[1]
    assert log.count('class="step"') == game.version and "?log=10" not in log
    assert client.get(f"/games/{game.pk}/", {"log": "x"}).status_code == 200


def test_a_confirm_drawn_before_another_players_pick_still_plays_and_returns_to_the_board(
        client):
    game, users = started_game(3, engine="seven_wonders", seed="page-v3-stale")
    engine = get_engine("seven_wonders")
    game.refresh_from_db()
    drawn_at = game.version
    index = 0
    mine = engine.legal_actions(game.state, 0)[index]
    with committed():
        services.game_action_submit(game_id=game.pk, user=users[1], expected_version=drawn_at,
                                    action=engine.legal_actions(game.state, 1)[0])
    game.refresh_from_db()
    assert game.version > drawn_at
    client.force_login(users[0])
    with committed():
        response = client.post(f"/games/{game.pk}/act/",
                               {"version": drawn_at, "index": index, "confirm": "1"})
    assert response.status_code == 302 and response["Location"].endswith("#play")
    game.refresh_from_db()
    assert 0 not in engine.active_seats(game.state), "Alice's pick was made"
    assert game.actions.filter(seat_number=0).count() == 1
    assert board.targets_of("seven_wonders", mine)


def test_a_confirm_whose_choice_is_gone_plays_nothing_and_says_so(client):
    game, users, seat, engine = stone_age_at_placement(client)
    drawn_at = game.version
    with committed():
        services.game_action_submit(game_id=game.pk, user=users[seat], expected_version=drawn_at,
                                    action=engine.bot_action(game.state, seat))
    game.refresh_from_db()
    version = game.version
    response = client.post(f"/games/{game.pk}/act/",
                           {"version": drawn_at, "index": 0, "confirm": "1"}, follow=True)
    game.refresh_from_db()
    assert game.version == version
    assert "moved on" in response.content.decode()
