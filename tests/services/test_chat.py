"""Chat messages need something visible: whitespace and invisible characters (zero-width spaces
and joiners, word joiners, byte-order marks, bidi marks and overrides, fillers) are trimmed like
spaces, and a message of nothing else is refused with a clear error on the API and the page."""

from __future__ import annotations

import time
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import services
from games.exceptions import ChatError
from games.models import ChatMessage
from games.presentation.visible_text import visible_text
from tests.factories import started_game

INVISIBLE_BODIES = [
    "\u200b",  # zero-width space
    "\u200c\u200d",  # zero-width non-joiner, joiner
    "\u2060",  # word joiner
    "\ufeff",  # byte-order mark
    "\u200e\u200f\u061c",  # left-to-right, right-to-left and Arabic letter marks
    "\u202a\u202b\u202c\u202d\u202e",  # bidi embeddings and overrides
    "\u2066\u2067\u2068\u2069",  # bidi isolates
    "\u00a0\u2002\u3000",  # no-break, en and ideographic spaces
    "\u3164\u115f\u1160\uffa0",  # Hangul fillers
    "\u2800",  # blank Braille pattern
    "\ufe0f\u034f",  # variation selector, combining grapheme joiner
    "\U000e0020\U000e007f",  # tag characters
    " \t\n\u200b \u2028\u2029 \u202e\r\n ",  # mixed with ordinary whitespace and separators
]


@pytest.fixture
def table(db):
    game, (alice, bob) = started_game(2)
    return game, alice


@pytest.mark.parametrize("body", INVISIBLE_BODIES)
def test_a_message_with_nothing_visible_is_refused(table, body):
    game, alice = table
    with pytest.raises(ChatError, match="no visible characters"):
        services.chat_post(game_id=game.pk, user=alice, body=body)
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize(("body", "stored"), [
    ("\u200b\u202ehello\u2060\ufeff", "hello"),
    ("  good luck\u200b  ", "good luck"),
    ("a\u200bb", "a\u200bb"),  # only the ends are trimmed
    ("\U0001f469\u200d\U0001f4bb", "\U0001f469\u200d\U0001f4bb"),  # an emoji sequence
    ("\u0645\u0631\u062d\u0628\u0627", "\u0645\u0631\u062d\u0628\u0627"),
    ("e\u0301", "e\u0301"),
    ("\u4f60\u597d", "\u4f60\u597d"),
])
def test_visible_messages_are_kept_without_their_invisible_edges(table, body, stored):
    game, alice = table
    message = services.chat_post(game_id=game.pk, user=alice, body=body)
    assert ChatMessage.objects.get(pk=message.pk).body == stored


def test_the_api_refuses_an_invisible_message_with_a_clear_error(table, api_client):
    game, alice = table
    api_client.force_authenticate(alice)
    response = api_client.post(f"/api/v1/games/{game.pk}/chat/", {"body": "\u200b\u2060\u202e"},
                               format="json")
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_message"
    assert "no visible characters" in response.json()["message"]
    assert not ChatMessage.objects.exists()


def test_the_game_page_shows_the_error(table, client):
    game, alice = table
    client.force_login(alice)
    page = client.post(f"/games/{game.pk}/chat/", {"body": "\u200b \ufeff"}, follow=True)
    assert page.status_code == 200
    assert [str(m) for m in page.context["messages"]] == [
        "A message cannot be empty: it has no visible characters."]
    assert not ChatMessage.objects.exists()


# ---- the rule itself, over many strings ---------------------------------------------------------

INVISIBLE_CATEGORIES = ["Cc", "Cf", "Zs", "Zl", "Zp"]
VISIBLE_CATEGORIES = ["Lu", "Ll", "Lo", "Nd", "Po", "Sm", "So"]


@given(st.text(alphabet=st.characters(categories=INVISIBLE_CATEGORIES), max_size=40))
def test_text_of_format_controls_and_spaces_has_nothing_visible(text):
    assert visible_text(text) == ""


@given(
    st.text(alphabet=st.characters(categories=INVISIBLE_CATEGORIES), max_size=10),
    st.characters(categories=VISIBLE_CATEGORIES).filter(
        lambda char: char not in "\u2800\u3164\u115f\u1160\uffa0"),
    st.text(max_size=20),
    st.text(alphabet=st.characters(categories=INVISIBLE_CATEGORIES), max_size=10),
)
def test_text_with_a_visible_character_keeps_it(before, visible, middle, after):
    text = before + visible + middle + after
    kept = visible_text(text)
    assert kept.startswith(visible) and kept in text
    assert unicodedata.category(kept[-1]) not in INVISIBLE_CATEGORIES


def test_trimming_stays_linear_on_long_invisible_runs():
    """A regular expression anchored at the end would retry from every position of the run."""
    text = "\u200b" * 200_000 + "x" + "\u200b" * 200_000
    started = time.perf_counter()
    assert visible_text(text) == "x"
    assert time.perf_counter() - started < 2


def test_writing_too_fast_is_a_429_that_says_when_to_come_back(table, api_client):
    """The per-game limit (5 a minute) answers like every other 429: a Retry-After header and
    the same seconds in the body, counted from the oldest message in the window."""
    game, alice = table
    api_client.force_authenticate(alice)
    url = f"/api/v1/games/{game.pk}/chat/"
    for number in range(services.CHAT_RATE[0]):
        assert api_client.post(url, {"body": f"hello {number}"}, format="json").status_code == 201
    refused = api_client.post(url, {"body": "one more"}, format="json")
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "throttled"  # the same code as the API-wide rate limits
    wait = int(refused["Retry-After"])
    assert wait == body["details"]["retry_after_seconds"]
    assert 1 <= wait <= services.CHAT_RATE[1].total_seconds()
    assert ChatMessage.objects.count() == services.CHAT_RATE[0]
