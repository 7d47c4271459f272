"""What emails show of a game: the seat's view as short lines with player names and resources
in words, the moves by others since the player's last move, and nothing the seat may not see.

Real games of every engine (and the test toy game) are played a few moves by email; then the
"your turn" email and the answer to a played move are read as the player gets them."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from games.models import Action, Game
from games.presentation.summaries import seat_names
from games.presentation.texts import entry_text
from notifications.inbound import context as play
from notifications.models import Notification, NotificationKind
from notifications.rendering import build_email
from tests.notifications.email_play import (
    answer,
    last_mail_to,
    mails_to,
    outcome_of,
    pipe,
    reply_to_of,
    started,
)

pytestmark = pytest.mark.django_db

ENGINES = ["stone_age", "seven_wonders", "caverna", "toy"]
#: Words naming what players hold, which a line of every player must use.
RESOURCE_WORDS = {
    "stone_age": ["food", "wood", "clay", "stone", "gold"],
    "seven_wonders": ["coins", "shields"],
    "caverna": ["food", "dwarfs", "goods:", "animals:"],
    "toy": [],
}
RAW = re.compile(r"\b[Ss]eat \d\b|active_seats|you\.pick|players \d:|\w+\.\w+:|\{|\}|_")


def section(body: str, heading: str) -> list[str]:
    """The "- " lines under a heading of the text part (empty when the heading is absent)."""
    lines = body.splitlines()
    if heading not in lines:
        return []
    found = []
    for line in lines[lines.index(heading) + 1:]:
        if not line.startswith("- "):
            break
        found.append(line[2:])
    return found


def last_answer_to(user):
    """The latest answer to an email the player sent (a "your turn" email may follow it)."""
    return [message for message in mails_to(user) if outcome_of(message)][-1]


def play_moves(game: Game, users, moves: int) -> None:
    """The players whose turn it is answer their latest email with "1", `moves` times."""
    for _ in range(moves):
        game.refresh_from_db()
        mover = next((user for user in users if play.is_their_turn(game, user)
                      and reply_to_of(last_mail_to(user))), None)
        assert mover is not None, "nobody could move"
        pipe(answer(last_mail_to(mover), "1"))
        assert outcome_of(last_answer_to(mover)).startswith("applied"), last_answer_to(mover).body


def turn_email(game: Game, user):
    game.refresh_from_db()
    seat = play.seat_for(game, user)
    notification = Notification(user=user, kind=NotificationKind.YOUR_TURN, game=game,
                                seat_number=seat.number, context={})
    return build_email(notification, timezone.now())


def others_moves_since(game: Game, seat_number: int) -> list[str]:
    """The public descriptions of what others did after this seat's last move, names put in."""
    names = seat_names(game)
    last_own = (Action.objects.filter(game=game, seat_number=seat_number, kind="move")
                .order_by("-sequence").values_list("sequence", flat=True).first()) or 0
    texts = []
    for entry in Action.objects.filter(game=game, sequence__gt=last_own).order_by("sequence"):
        if entry.seat_number not in (None, seat_number):
            text = entry_text(entry, None, language="en")
            for number, name in names.items():
                text = re.sub(rf"\b[Ss]eat {number}\b", name, text)
            texts.append(text)
    return texts


def hidden_from(game: Game, seat_number: int) -> list[str]:
    """Words the seat must not read: the seed, and in 7 Wonders the cards in other hands and
    other players' pending picks; in the toy game other players' secret bids."""
    state = game.state
    secrets = [str(game.seed)] if game.seed else []
    if game.engine == "seven_wonders":
        from games.engines.seven_wonders.rules import CARD_NAME

        own = {CARD_NAME[card] for card in state["hands"][seat_number]}
        built = {CARD_NAME[card] for player in state["players"] for card in player["built"]}
        for other, hand in enumerate(state["hands"]):
            if other != seat_number:
                secrets += [CARD_NAME[card] for card in hand
                            if CARD_NAME[card] not in own | built]
        # Two players: the Free City's face-down pile.
        secrets += [CARD_NAME[card] for card in state.get("free_city", {}).get("pile", [])
                    if CARD_NAME[card] not in own | built]
    return secrets


def check_lines(game: Game, user, message, *, others: list[str]) -> list[str]:
    seat = play.seat_for(game, user)
    body = message.body
    lines = section(body, "The game as you see it:")
    assert lines, body
    for line in lines:
        assert not RAW.search(line), (line, body)
    names = seat_names(game)
    for number, name in names.items():
        if number != seat.number:
            assert any(name in line for line in lines), (name, lines)
    for word in RESOURCE_WORDS[game.engine]:
        assert any(word in line for line in lines), (word, lines)
    for secret in hidden_from(game, seat.number):
        assert not re.search(rf"\b{re.escape(secret)}\b", body), (secret, body)
        assert not re.search(rf"\b{re.escape(secret)}\b", message.alternatives[0][0])
    html = message.alternatives[0][0]
    assert "The game as you see it" in html
    for line in lines[:2]:
        assert line.replace("&", "&amp;").replace("'", "&#x27;").replace('"', "&quot;") in html
    moves = section(body, "Since your last move:") or section(body, "What happened:")
    for text in others:
        assert text in moves, (text, moves)
    for line in moves:
        assert not re.search(r"\b[Ss]eat \d\b", line), line
    return lines


@pytest.mark.parametrize("slug", ENGINES)
def test_turn_and_answer_emails_show_the_game_in_named_lines_without_secrets(slug):
    game, users = started(slug, 3, seed=f"summaries-{slug}")
    play_moves(game, users, 4)
    game.refresh_from_db()
    # Someone whose turn it is, who has moved before, so that "since your last move" matters.
    player = next((user for user in users if play.is_their_turn(game, user)
                   and Action.objects.filter(game=game, seat_number=play.seat_for(
                       game, user).number, kind="move").exists()), None) or next(
        user for user in users if play.is_their_turn(game, user))
    seat_number = play.seat_for(game, player).number
    others = others_moves_since(game, seat_number)
    turn = turn_email(game, player)
    check_lines(game, player, turn, others=others)
    assert section(turn.body, "Since your last move:") or not others

    # The answer to a move played by email: the game after it, same rules.
    pipe(answer(last_mail_to(player), "1"))
    reply = last_answer_to(player)
    assert outcome_of(reply).startswith("applied"), reply.body
    game.refresh_from_db()
    check_lines(game, player, reply, others=[])


def test_seven_wonders_hand_is_the_readers_and_other_picks_stay_secret():
    game, users = started("seven_wonders", 3, seed="summaries-picks")
    # The first player picks; the others have not: the pick is in their own email only.
    first = users[0]
    pipe(answer(last_mail_to(first), "1"))
    game.refresh_from_db()
    picker = play.seat_for(game, first).number
    pick = game.state["picks"][picker]
    assert pick is not None
    from games.engines.seven_wonders import texts
    from games.engines.seven_wonders.rules import CARD_NAME

    pick_text = texts.english(texts.own_action_text(game.state, picker, pick))
    own_lines = section(last_answer_to(first).body, "The game as you see it:")
    assert any(line.startswith("Your pick this turn: " + pick_text) for line in own_lines)
    other = users[1]
    lines = check_lines(game, other, turn_email(game, other), others=[])
    hand = [CARD_NAME[card] for card in game.state["hands"][play.seat_for(game, other).number]]
    assert any(line.startswith(f"Your hand ({len(hand)}): {hand[0]} (") for line in lines)
    body = turn_email(game, other).body
    assert pick_text not in body and CARD_NAME[pick["card"]] not in body
    first_line = next(line for line in lines if line.startswith(first.public_name))
    assert re.match(rf"{first.public_name}( \(your (left|right)\))?: ", first_line)
    assert first_line.endswith("has picked")


def test_the_digest_draws_each_game_once():
    from notifications.rendering import digest_message

    game, users = started("stone_age", 3, seed="summaries-digest")
    player = next(user for user in users if play.is_their_turn(game, user))
    rows = [Notification.objects.create(user=player, kind=kind, game=game,
                                        seat_number=play.seat_for(game, player).number,
                                        email_status="digest", send_after=timezone.now())
            for kind in (NotificationKind.YOUR_TURN, NotificationKind.REMINDER)]
    message = digest_message(player, rows, timezone.now(), message_id="<d@turnpost>")
    assert message.body.count("The game as you see it:") == 1
    lines = [line.strip()[2:] for line in message.body.splitlines()
             if line.startswith("  - ")]
    assert any(line.startswith("You (start player): ") or line.startswith("You: ")
               for line in lines), message.body
    assert not any(RAW.search(line) for line in lines), lines
    assert "The game as you see it" in message.alternatives[0][0]


# ---- links ---------------------------------------------------------------------------------------


def test_the_confirmation_email_names_the_host_its_link_goes_to(client, settings):
    """The Site row is written at migration time (port 8000 here); the email follows SITE_URL."""
    from django.contrib.sites.models import Site
    from django.core import mail
    from django.urls import reverse

    settings.SITE_URL = "http://127.0.0.1:8101"
    assert Site.objects.get_current().domain != "127.0.0.1:8101"
    response = client.post(reverse("account_signup"), {
        "email": "newcomer@example.com", "username": "newcomer",
        "password1": "a-Long-test-passw0rd", "password2": "a-Long-test-passw0rd"})
    assert response.status_code == 302, response.content[:2000]
    message = next(m for m in mail.outbox if m.to == ["newcomer@example.com"])
    links = re.findall(r"https?://[^\s/]+/\S*", message.body)
    assert links and all(link.startswith("http://127.0.0.1:8101/") for link in links), links
    hosts = set(re.findall(r"\b(?:127\.0\.0\.1|localhost|example\.com)(?::\d+)?\b",
                           message.body.replace("newcomer@example.com", "")))
    assert hosts == {"127.0.0.1:8101"}, message.body


def test_seven_wonders_for_two_the_free_city_pick_is_asked_and_seen_by_its_controller_only():
    game, users = started("seven_wonders", 2, seed="summaries-two")
    game.refresh_from_db()
    controller = next(user for user in users if play.seat_for(game, user).number == 0)
    other = next(user for user in users if user != controller)
    turn = turn_email(game, controller)
    lines = check_lines(game, controller, turn, others=[])
    assert any(line.startswith("You hold the Free City card") for line in lines)
    assert any(line.startswith("Free City (your right), played by you this turn, 6 cards in "
                               "its pile: ") for line in lines), lines
    # Its own card first; the answer then lists the Free City's choices.
    pipe(answer(last_mail_to(controller), "1"))
    reply = last_answer_to(controller)
    assert outcome_of(reply).startswith("applied"), reply.body
    assert "For the Free City: " in reply.body
    pipe(answer(last_mail_to(controller), "1"))
    game.refresh_from_db()
    city_pick = game.state["free_city"]["pick"]
    assert city_pick is not None
    from games.engines.seven_wonders import texts

    pick_text = texts.english(texts.own_action_text(game.state, 0, city_pick))
    own_lines = section(last_answer_to(controller).body, "The game as you see it:")
    assert f"The Free City's pick: {pick_text}" in own_lines
    body = turn_email(game, other).body
    other_lines = check_lines(game, other, turn_email(game, other), others=[])
    assert pick_text not in body
    free_city = next(line for line in other_lines if line.startswith("Free City"))
    assert free_city.startswith(f"Free City (your left), played by {controller.public_name}")
    assert free_city.endswith("has picked")
