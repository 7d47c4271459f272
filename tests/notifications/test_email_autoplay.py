"""Email and steps that need nobody: the turn email lists what was decided for the player
automatically since their own last move; `auto on` / `auto off` switch forced moves for the game."""

from __future__ import annotations

import pytest
from django.core import mail

from games import services as game_services
from games.engines import registry
from games.models import Action, Seat
from tests.factories import committed
from tests.notifications.email_play import answer, last_mail_to, outcome_of, pipe, started
from tests.services.chain_engine import chain_engine

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _chain_engine_registered():
    registry.register(chain_engine)
    yield
    registry.unregister(chain_engine.slug)


def move(game, user, action):
    game.refresh_from_db()
    with committed():
        game_services.game_action_submit(game_id=game.pk, user=user, action=action,
                                         expected_version=game.version)


def test_the_turn_email_lists_the_decisions_made_for_the_player():
    game, users = started("chain", 3)
    move(game, users[0], {"type": "take", "spot": "b"})  # the tidy step plays itself
    mail.outbox.clear()
    move(game, users[1], {"type": "take", "spot": "c"})  # payment by order; seat 2 forced
    body = last_mail_to(users[0]).body
    assert last_mail_to(users[0]).subject  # the "your turn" for round 2
    made = body.split("Made for you automatically since your last move")[1].split("\n\n")[0]
    assert f"{users[0].public_name}: tidy left" in made
    assert "take b" not in made  # the player's own move is not "made for them"
    assert 'reply "auto off"' in body
    # What the others did, their automatic moves included, is listed as before.
    changed = body.split("Since your last move:")[1]
    assert f"{users[2].public_name}: take a" in changed
    assert f"{users[1].public_name}: pay coin" in changed


def test_a_turn_email_with_nothing_made_automatically_says_nothing_about_it():
    game, users = started("chain", 3)
    mail.outbox.clear()
    move(game, users[0], {"type": "take", "spot": "a"})
    assert "Made for you automatically" not in last_mail_to(users[1]).body


def test_auto_off_and_on_by_email_switch_forced_moves_for_that_game():
    game, users = started("chain", 3)
    start_mail = last_mail_to(users[0])
    mail.outbox.clear()
    output = pipe(answer(start_mail, "auto off"))
    assert "answered" in output
    reply = last_mail_to(users[0])
    assert outcome_of(reply).startswith("answered")
    assert "Forced moves now wait for you" in reply.body
    assert Seat.objects.get(game=game, number=0).auto_forced is False
    move(game, users[0], {"type": "take", "spot": "b"})
    game.refresh_from_db()
    # Tidying left or right is no choice, yet seat 0 is asked.
    assert chain_engine.legal_actions(game.state, 0)[0]["type"] == "tidy"
    assert not Action.objects.filter(game=game, source="auto").exists()
    # "auto on" answers with the game and plays the waiting forced move at once.
    pipe(answer(last_mail_to(users[0]), "auto on"))
    assert Seat.objects.get(game=game, number=0).auto_forced is True
    assert Action.objects.filter(game=game, source="auto", seat_number=0).count() == 1
    assert "Forced moves now play themselves" in last_mail_to(users[0]).body


def test_no_email_mentions_a_queue():
    from games.services import autoplay

    game, users = started("chain", 3)
    marker = {"type": "take", "spot": "a", "plan": "secret-plan-91c2"}
    autoplay.queue_set(game_id=game.pk, user=users[2], decisions=[[marker]])
    move(game, users[0], {"type": "take", "spot": "b"})
    move(game, users[1], {"type": "take", "spot": "c"})
    assert mail.outbox
    for message in mail.outbox:
        everything = message.body + "".join(str(part[0]) for part in message.alternatives)
        assert "secret-plan-91c2" not in everything
