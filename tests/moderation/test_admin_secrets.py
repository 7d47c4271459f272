"""The Django admin never shows a game's secrets (seed, hands, deck order, picks not yet
revealed) to moderators: they see the spectator's view. A superuser reveals them on purpose, one
audited request at a time."""

from __future__ import annotations

import json
from html import escape

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from games import services
from games.engines.registry import get_engine
from games.exceptions import NotAllowed
from games.models import ActionSource, AuditEntry, Game
from games.presentation.names import seat_names
from games.presentation.texts import entry_text, view_texts
from games.services import moderation
from tests.factories import UserFactory, committed, started_game

pytestmark = pytest.mark.django_db

SEED = "admin-secrets-seed-4f1c9a7e2b"


@pytest.fixture
def moderator():
    user = UserFactory(is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return user


@pytest.fixture
def superuser():
    return UserFactory(is_staff=True, is_superuser=True)


@pytest.fixture
def game_with_a_pending_pick():
    """A 7 Wonders game in its first turn where seat 0 has picked (secretly) and the others
    have not, so the pick waits unresolved in the state and the log."""
    game, players = started_game(3, engine="seven_wonders", seed=SEED)
    engine = get_engine("seven_wonders")
    pick = engine.legal_actions(game.state, 0)[0]
    with committed():
        services.game_action_submit(game_id=game.pk, user=players[0], action=pick,
                                    expected_version=game.version, source=ActionSource.API)
    game.refresh_from_db()
    assert game.state["picks"][0] is not None and game.needs_resolution is False
    return game, pick


def hidden_tokens(game: Game, pick: dict) -> set[str]:
    """Strings that only the hidden state holds: the seed, cards in hands and decks, the pending
    pick's card; minus anything a spectator may see."""
    state = game.state
    public = json.dumps(get_engine(game.engine).view(state, None))
    cards = {card for hand in state["hands"] for card in hand}
    cards |= {card for deck in state["decks"].values() for card in deck}
    tokens = {token for token in cards | {pick["card"]} if token not in public}
    tokens |= {game.seed, state["rng"]["seed"]}
    assert game.seed == SEED and pick["card"] in tokens and len(tokens) > 30
    return tokens


def admin_pages(client: Client, game: Game) -> dict[str, str]:
    urls = [
        "/admin/games/game/",
        f"/admin/games/game/?q={game.pk}",
        f"/admin/games/game/{game.pk}/change/",
        f"/admin/games/game/{game.pk}/history/",
        "/admin/games/auditentry/",
    ]
    pages = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        pages[url] = response.content.decode()
    return pages


def leaks(pages: dict[str, str], tokens: set[str]) -> list[tuple[str, str]]:
    return [(url, token) for url, page in pages.items() for token in tokens if token in page]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_moderator_sees_the_public_view_and_no_secret(moderator, game_with_a_pending_pick):
    game, pick = game_with_a_pending_pick
    client = logged_in(moderator)
    pages = admin_pages(client, game)
    assert leaks(pages, hidden_tokens(game, pick)) == []
    change = pages[f"/admin/games/game/{game.pk}/change/"]
    # What a spectator sees is there: wonders, hand sizes, who has picked.
    assert "state (as a spectator sees it)" in change.lower()
    public = view_texts(game.engine, get_engine(game.engine).view(game.state, None))
    for player in public["players"]:
        assert escape(player["wonder"]["name"]) in change
    assert "has_picked" in change and "hand_size" in change
    # The log shows the pick as everyone reads it, not what was picked.
    # Players are named there, as on the game page.
    named = entry_text(game.actions.get(), None, language="en", names=seat_names(game))
    assert escape(named) in change
    assert "Reveal hidden state" not in change


def test_a_moderator_cannot_reveal(moderator, game_with_a_pending_pick):
    game, pick = game_with_a_pending_pick
    client = logged_in(moderator)
    for response in (client.get(f"/admin/games/game/{game.pk}/reveal/"),
                     client.post(f"/admin/games/game/{game.pk}/reveal/", {"reason": "curious"})):
        assert response.status_code == 403
        assert leaks({"reveal": response.content.decode()}, hidden_tokens(game, pick)) == []
    with pytest.raises(NotAllowed):
        moderation.game_hidden_state_reveal(moderator=moderator, game=game, reason="curious")
    assert not AuditEntry.objects.exists()


def test_a_superuser_sees_secrets_only_after_an_audited_reveal(superuser,
                                                                game_with_a_pending_pick):
    game, pick = game_with_a_pending_pick
    tokens = hidden_tokens(game, pick)
    client = logged_in(superuser)
    pages = admin_pages(client, game)
    assert leaks(pages, tokens) == []
    assert "Reveal hidden state" in pages[f"/admin/games/game/{game.pk}/change/"]
    url = f"/admin/games/game/{game.pk}/reveal/"
    asking = client.get(url)
    assert asking.status_code == 200 and 'name="reason"' in asking.content.decode()
    no_reason = client.post(url, {"reason": "  "})
    assert no_reason.status_code == 200 and 'name="reason"' in no_reason.content.decode()
    assert leaks({"asking": asking.content.decode(), "no reason": no_reason.content.decode()},
                 tokens) == []
    assert not AuditEntry.objects.exists()

    revealed = client.post(url, {"reason": "Dispute over a card; player report #12"})
    page = revealed.content.decode()
    assert revealed.status_code == 200
    assert {token for token in tokens if token not in page} == set()
    assert "no-store" in revealed.headers["Cache-Control"]
    entry = AuditEntry.objects.get()
    assert (entry.actor, entry.action, entry.target_type, entry.target_id) == (
        superuser, "reveal_hidden_state", "game", game.pk)
    assert entry.reason == "Dispute over a card; player report #12"
    assert leaks({"audit": json.dumps([entry.before, entry.after])}, tokens) == []
    # The audit trail itself shows no secret, to moderators or anyone; revealing again is
    # another entry.
    assert leaks(admin_pages(client, game), tokens) == []
    client.post(url, {"reason": "Second look"})
    assert AuditEntry.objects.filter(action="reveal_hidden_state").count() == 2


def test_the_reveal_shows_the_pending_pick_as_submitted(superuser, game_with_a_pending_pick):
    game, pick = game_with_a_pending_pick
    hidden = moderation.game_hidden_state_reveal(moderator=superuser, game=game,
                                                 reason="checking the log")
    assert hidden["seed"] == SEED and hidden["state"] == game.state
    assert [entry["payload"] for entry in hidden["actions"]] == [pick]
    assert AuditEntry.objects.filter(actor=superuser, action="reveal_hidden_state").count() == 1
