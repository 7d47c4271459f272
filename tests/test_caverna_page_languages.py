"""The Caverna board in the reader's language: every text of the view the game page shows (the
decision, home-board cells, furnishing tiles and their effects, action spaces and their goods,
round cards, the game's own events) and of the standing orders reads in Persian, Chinese or
Italian, and none of them is left in English; the API's view reads in the token user's language
too, and so does the preview of a choice."""

from __future__ import annotations

import random
import re
from html import escape

import pytest

from games.engines.caverna.engine import engine
from games.engines.caverna.texts import ORDER_WORDS, english
from games.models import Game
from games.presentation.names import seat_names
from games.presentation.texts import render_text
from tests.api.clients import token_client
from tests.engines.caverna.test_view_texts import texts_in
from tests.factories import started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def midgame():
    """A three-player game some rounds in: furnished caverns, goods on spaces, a log."""
    game, users = started_game(3, engine="caverna", seed="board-languages")
    chooser = random.Random(7)
    state = game.state
    while state["round"] < 5 or not state["built"]:
        seat = engine.active_seats(state)[0]
        legal = engine.legal_actions(state, seat)
        furnish = [action for action in legal if action["type"] == "furnish"]
        state = engine.apply(state, seat, chooser.choice(furnish or legal))
    Game.objects.filter(pk=game.pk).update(state=state)
    return Game.objects.get(pk=game.pk), users


def _page_text(page: str) -> str:
    # The board's icons name their sprite symbols by id (`<use href="…#sheep">`): no text.
    page = re.sub(r'<use href="[^"]*"', "<use", page)
    return page.replace("&#x27;", "'").replace("&quot;", '"')


@pytest.mark.parametrize("language", ["fa", "zh-hans", "it"])
def test_the_board_shows_no_english_text(client, midgame, language):
    game, users = midgame
    seat = engine.active_seats(game.state)[0]
    users[seat].language = language
    users[seat].save(update_fields=["language"])
    client.force_login(users[seat])
    page = _page_text(client.get(f"/games/{game.pk}/").content.decode())
    names = seat_names(game)
    view = engine.view(game.state, seat)
    messages = texts_in(view, [])
    assert len(messages) > 300
    stayed, shown = [], 0
    for message in messages:
        sentence = english(message)
        read = render_text("caverna", message, language=language, names=names)
        if read == sentence or not re.search(r"[A-Za-z]", sentence):
            continue
        pattern = rf"(?<![\w]){re.escape(_page_text(escape(sentence)))}(?![\w])"
        if re.search(pattern, page):
            stayed.append(sentence)
        shown += _page_text(escape(read)) in page
    # The standing orders' words and the queue's suggestions (the automatic-moves forms).
    stayed += [words for words in ORDER_WORDS.values() if _page_text(escape(words)) in page]
    assert not stayed, f"English left on the {language} board: {sorted(set(stayed))[:10]}"
    assert shown > 200
    # A sample that must be there, translated: the decision, a cell, a tile and its effect.
    for message in (view["decision"]["text"], view["players"][seat]["rows"][0][0]["label"],
                    view["furnishing_tiles"][0]["name"], view["furnishing_tiles"][0]["effect"],
                    view["spaces"][0]["name"], view["recent"][-1]):
        assert _page_text(escape(render_text("caverna", message, language=language,
                                             names=names))) in page, message


def test_the_api_view_reads_in_the_token_users_language(midgame):
    game, users = midgame
    users[0].language = "it"
    users[0].save(update_fields=["language"])
    body = token_client(users[0]).get(f"/api/v1/games/{game.pk}/").json()
    view = body["view"]
    dwelling = next(tile for tile in view["furnishing_tiles"] if tile["id"] == "dwelling")
    assert (dwelling["name"], dwelling["effect"]) == ("Abitazione", "Spazio per 1 nano.")
    assert view["players"][0]["rows"][0][0]["label"] == "Foresta"
    assert isinstance(view["decision"]["text"], str) and all(
        isinstance(line, str) for line in view["recent"])
    english_body = token_client(users[1]).get(f"/api/v1/games/{game.pk}/").json()
    assert english_body["view"]["players"][0]["rows"][0][0]["label"] == "Forest"


def _confirm_of_a_tile_placement(client, language: str) -> tuple[str, str, str]:
    """The confirm panel of a tile placement, as a player reading `language` fetches it; the
    engine's sentence for the move in that language, and in English."""
    from tests.test_game_page import caverna_game_at_tile_placement

    game, users, seat = caverna_game_at_tile_placement()
    users[seat].language = language
    users[seat].save(update_fields=["language"])
    client.force_login(users[seat])
    legal = engine.legal_actions(game.state, seat)
    index = next(i for i, action in enumerate(legal) if "at" in action)
    fragment = _page_text(client.get(f"/games/{game.pk}/preview/",
                                     {"index": index, "version": game.version}).content.decode())
    sentence = render_text("caverna", engine.describe_text(game.state, seat, legal[index]),
                           language=language, names=seat_names(game))
    return fragment, sentence.rstrip(".。"), engine.describe(game.state, seat, legal[index])


def test_the_preview_of_a_choice_reads_in_the_players_language(client):
    fragment, sentence, english = _confirm_of_a_tile_placement(client, "it")
    # The engine's sentence is asked about, not made a question by a "?" of its own.
    assert "Fare questa mossa?" in fragment
    assert sentence in fragment and f"{sentence}?" not in fragment
    assert english.split(" ", 2)[2] not in fragment


def test_the_persian_confirm_asks_a_natural_question_with_a_persian_question_mark(client):
    fragment, sentence, _ = _confirm_of_a_tile_placement(client, "fa")
    title = re.search(r'<h2 class="confirm-title">(.*?)</h2>', fragment, re.S)[1].strip()
    assert title == "این حرکت را انجام می‌دهید؟"
    # The move itself is shown as the log tells it, not turned into a question.
    assert sentence in fragment and "?" not in fragment.split("confirm-title", 1)[1]


def test_a_waiting_player_queues_a_placement_read_in_their_language(client, midgame):
    game, users = midgame
    waiting = next(seat for seat in range(3) if seat not in engine.active_seats(game.state))
    suggestions = engine.queue_suggestions(game.state, waiting)
    assert suggestions
    users[waiting].language = "zh-hans"
    users[waiting].save(update_fields=["language"])
    client.force_login(users[waiting])
    page = _page_text(client.get(f"/games/{game.pk}/").content.decode())
    for suggestion in suggestions:
        assert f">{render_text('caverna', suggestion['text'], language='zh-hans')}</option>" \
            in page
        assert suggestion["label"] not in page
