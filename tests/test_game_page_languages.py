"""The game page in the reader's language: the log and the choices of a Stone Age game read in
Persian for a player who chose Persian, with the players' names for seats."""

from __future__ import annotations

import pytest

from games import services
from games.engines.registry import get_engine
from games.models import Game
from tests.factories import started_game

pytestmark = pytest.mark.django_db


def test_log_and_choices_read_in_the_players_language(client):
    game, users = started_game(2, engine="stone_age", seed="page-languages")
    engine = get_engine("stone_age")
    seat = engine.active_seats(game.state)[0]
    action = next(a for a in engine.legal_actions(game.state, seat)
                  if a.get("location") == "forest")
    services.game_action_submit(game_id=game.pk, user=users[seat], action=action,
                                expected_version=game.version)
    game = Game.objects.get(pk=game.pk)
    other = 1 - seat
    mover_name = game.seats.get(number=seat).player_name
    users[other].language = "fa"
    users[other].save(update_fields=["language"])
    client.force_login(users[other])
    page = client.get(f"/games/{game.pk}/").content.decode()
    count = str(action["count"]).translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"))
    assert f"{mover_name} {count} آدمک در جنگل می‌گذارد." in page
    assert "آدمک در شکارگاه می‌گذارد." in page  # a choice of the player to act now


def test_a_seven_wonders_pick_reads_in_the_pickers_language_and_stays_hidden(client):
    game, users = started_game(3, engine="seven_wonders", seed="page-languages")
    engine = get_engine("seven_wonders")
    while game.state["phase"] != "pick":
        seat = engine.active_seats(game.state)[0]
        services.game_action_submit(game_id=game.pk, user=users[seat],
                                    action=engine.legal_actions(game.state, seat)[0],
                                    expected_version=None)
        game = Game.objects.get(pk=game.pk)
    pick = next(a for a in engine.legal_actions(game.state, 0) if a["type"] == "discard")
    services.game_action_submit(game_id=game.pk, user=users[0], action=pick,
                                expected_version=game.version)
    for user in users:
        user.language = "it"
        user.save(update_fields=["language"])
    client.force_login(users[0])
    own = client.get(f"/games/{game.pk}/").content.decode().replace("&#x27;", "'")
    assert "Scarta " in own and "per 3 monete" in own
    client.force_login(users[1])
    other = client.get(f"/games/{game.pk}/").content.decode().replace("&#x27;", "'")
    name = game.seats.get(number=0).player_name
    assert f"{name} ha scelto una carta." in other


@pytest.mark.parametrize("language", ["fa", "zh-hans", "it"])
def test_the_boards_read_in_the_language_without_english(language):
    """Both boards, for every kind of decision and the end, as a player and a spectator: the
    engine's texts (rendered by the page) and the template's words in the language. In
    Persian and Chinese no Latin word is left but the Ages' numerals and wonder sides; in
    Italian none of the games' English words."""
    import re

    from django.utils import translation

    from tests.engines.boards import render_board
    from tests.engines.test_view_texts import ENGLISH_WORDS, LATIN_KEPT, sample_states

    checked = 0
    with translation.override(language):
        for slug, state, num_players in sample_states():
            engine = get_engine(slug)
            for viewer in (None, *range(num_players)):
                html = render_board(slug, engine.view(state, viewer), seat=viewer)
                shown = re.sub(r"(?s)<style.*?</style>|<[^>]+>", " ", html)
                # The players' names (PLAYER_NAMES, digits in the reader's script), and their
                # first letters on the tags.
                shown = re.sub(r"Player\S|Pla", " ", shown)
                if language == "it":
                    leftover = ENGLISH_WORDS.findall(shown)
                else:
                    leftover = [word for word in re.findall(r"[A-Za-z]+", shown)
                                if word not in LATIN_KEPT]
                assert not leftover, (slug, viewer, sorted(set(leftover)))
                checked += 1
    assert checked > 40


def test_stone_age_standing_orders_read_in_the_players_language():
    """The automatic-moves form's words (games.texts.standing_orders_in) for Stone Age."""
    from games.presentation.texts import standing_orders_in

    orders = get_engine("stone_age").standing_orders
    persian = standing_orders_in("stone_age", orders, language="fa")
    assert [order["name"] for order in persian] == [order["name"] for order in orders]
    for english, translated in zip(orders, persian, strict=True):
        assert translated["label"] != english["label"] and translated["help"] != english["help"]
        assert all(mine["label"] != theirs["label"] for mine, theirs in
                   zip(translated["choices"], english["choices"], strict=True))
