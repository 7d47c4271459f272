"""The log reads in the reader's language through the API: Accept-Language for a caller who has
chosen none, the player's own language setting otherwise; a hidden pick is hidden in each."""

from __future__ import annotations

import pytest

from games import services
from games.engines.registry import get_engine
from games.log.codec import literal
from games.models import Action, Game
from games.presentation.texts import entry_text, took_back_texts, translations_for
from tests.api.test_games_api import client_for
from tests.factories import started_game

pytestmark = pytest.mark.django_db


def _pick_phase(game: Game) -> Game:
    engine = get_engine(game.engine)
    while game.state["phase"] != "pick":
        seat = engine.active_seats(game.state)[0]
        services.game_action_submit(game_id=game.pk, user=game.seats.get(number=seat).user,
                                    action=engine.legal_actions(game.state, seat)[0],
                                    expected_version=None)
        game = Game.objects.get(pk=game.pk)
    return game


def _last_description(client, game_id: int, **headers) -> str:
    response = client.get(f"/api/v1/games/{game_id}/log/", **headers)
    assert response.status_code == 200, response.content
    return response.json()["results"][-1]["description"]


def _seat_zero_picked():
    """A three-player 7 Wonders game in which seat 0 has made its (hidden) pick."""
    game, users = started_game(3, engine="seven_wonders", seed="languages")
    game = _pick_phase(game)
    engine = get_engine("seven_wonders")
    pick = next(a for a in engine.legal_actions(game.state, 0) if a["type"] == "build")
    services.game_action_submit(game_id=game.pk, user=users[0], action=pick,
                                expected_version=game.version)
    return Game.objects.get(pk=game.pk), users, pick


def test_a_log_entry_reads_in_each_readers_language_and_keeps_the_pick_hidden():
    game, users, pick = _seat_zero_picked()
    engine = get_engine("seven_wonders")
    entry = Action.objects.filter(game=game).latest("sequence")
    assert entry.text_for(None) == entry.text_for(1) == {"k": "sw.chose", "p": {"seat": 0}}
    assert entry.text_for(0)["p"]["card"] == pick["card"]
    card = engine.text_catalog.names["card"][pick["card"]]

    other, spectator_like, picker = (client_for(users[1]), client_for(users[2]),
                                     client_for(users[0]))
    # Players are named, as on the game's page, in every language.
    name = game.seats.get(number=0).player_name
    assert _last_description(other, game.pk) == f"{name} chose a card."
    assert (_last_description(other, game.pk, HTTP_ACCEPT_LANGUAGE="fa")
            == f"{name} کارتی انتخاب کرد.")
    users[2].language = "it"
    users[2].save(update_fields=["language"])
    # The player's own choice wins over the browser's.
    assert (_last_description(spectator_like, game.pk, HTTP_ACCEPT_LANGUAGE="fa")
            == f"{name} ha scelto una carta.")
    own = _last_description(picker, game.pk, HTTP_ACCEPT_LANGUAGE="zh-hans")
    chinese_card = translations_for("seven_wonders", "zh-hans").pgettext("seven_wonders.card",
                                                                         card)
    assert own.startswith(f"建造{chinese_card}") and card not in own
    response = other.get(f"/api/v1/games/{game.pk}/log/", HTTP_ACCEPT_LANGUAGE="it")
    assert response.json()["results"][-1]["text"] == {"k": "sw.chose", "p": {"seat": 0}}


def test_an_undo_entry_reads_in_the_readers_language():
    engine = get_engine("stone_age")
    state = engine.new_game(2, "languages")
    seat = engine.active_seats(state)[0]
    action = engine.legal_actions(state, seat)[0]
    move = Action(seat_number=seat, payload=action, **Action.stored_texts(
        engine.describe_text(state, seat, action), None, seat_number=seat, payload=action))
    public, actor = took_back_texts(seat, move)
    assert actor is None
    undo = Action(seat_number=seat, payload={"undoes": 1}, **Action.stored_texts(
        public, actor, seat_number=seat, payload={"undoes": 1}))
    english = f"Seat {seat} took back a move: {engine.describe(state, seat, action)}"
    assert entry_text(undo, None, language="en", engine_slug="stone_age") == english
    italian = entry_text(undo, None, language="it", engine_slug="stone_age",
                         names={seat: "Ada"})
    assert italian.startswith("Ada ha ripreso una mossa: Ada mette 1 persona su ")


def test_the_choices_read_in_the_readers_language():
    game, users = started_game(3, engine="seven_wonders", seed="languages")
    game = _pick_phase(game)
    client = client_for(users[1])
    english = client.get(f"/api/v1/games/{game.pk}/actions/").json()
    italian = client.get(f"/api/v1/games/{game.pk}/actions/", HTTP_ACCEPT_LANGUAGE="it").json()
    assert [item["text"] for item in english] == [item["text"] for item in italian]
    assert english[0]["description"].startswith(("Build", "Discard"))
    assert all(item["description"].startswith(("Costruisci", "Scarta")) for item in italian)


def test_entries_written_before_texts_were_kept_read_as_their_english_sentence():
    old = Action(seat_number=1, **Action.stored_texts(literal("Seat 1 acts."), None,
                                                      seat_number=1, payload=None))
    assert entry_text(old, None, language="fa", engine_slug="stone_age",
                      names={1: "Ada"}) == "Ada acts."
    # A key this version cannot render reads as the key, not as an error.
    retired = Action(seat_number=1, public_text='{"k":"sa.retired_key"}')
    assert entry_text(retired, None, language="it", engine_slug="stone_age") == "sa.retired_key"


def test_an_emails_list_of_moves_reads_in_the_recipients_language():
    """The mail worker builds an email with the recipient's language active: the moves since the
    recipient's own read in it, the hidden pick still hidden."""
    from django.utils import translation

    from notifications.inbound.context import moves_since_own

    game, users, _ = _seat_zero_picked()
    name = users[0].username
    with translation.override("fa"):
        persian = moves_since_own(game, 1)
    with translation.override("it"):
        italian = moves_since_own(game, 1)
    assert persian[-1] == f"{name} کارتی انتخاب کرد."
    assert italian[-1] == f"{name} ha scelto una carta."
