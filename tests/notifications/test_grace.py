"""A player who is at it gets no turn email at once: "your move" and "game started" wait for the
player's grace period after their last move or look (notifications/policy.py), go out once it
passed, are dropped when the player moves or looks, and turns of several games due together come
in one email whose every game keeps its own reply address."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client

from accounts.models import User
from games import services as game_services
from games.models import ActionSource
from notifications.models import EmailStatus, Notification, NotificationKind
from notifications.tasks import deliver_pending_notifications
from tests.factories import committed, open_game, started_game
from tests.notifications.email_play import answer, confirmed_player, mails_to, pipe, started

pytestmark = pytest.mark.django_db

START = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


def move(game, user, action, source=ActionSource.WEB):
    game.refresh_from_db()
    with committed():
        game_services.game_action_submit(game_id=game.pk, user=user, action=action,
                                         expected_version=game.version, source=source)


def with_grace(users, minutes=10):
    User.objects.filter(pk__in=[user.pk for user in users]).update(
        turn_email_grace_minutes=minutes)


def bids_in(game, users, source=ActionSource.WEB):
    """Both players bid on the page; the toy game then awaits seat 0's turn."""
    for seat, user in enumerate(users):
        move(game, user, {"type": "bid", "amount": seat + 1}, source=source)


def turn_notice(user, game) -> Notification:
    return Notification.objects.get(user=user, game=game, kind=NotificationKind.YOUR_TURN)


def turn_emails_to(user):
    return [message for message in mails_to(user) if message.subject.startswith("Your move")]


def test_the_turn_email_of_a_player_at_it_waits_for_the_grace_period():
    with time_machine.travel(START, tick=False) as clock:
        game, users = started("toy", 2)
        with_grace(users)
        bids_in(game, users)
        notice = turn_notice(users[0], game)
        assert notice.email_status == EmailStatus.HELD
        assert notice.held_until == START + timedelta(minutes=10)
        assert turn_emails_to(users[0]) == []
        clock.shift(timedelta(minutes=9))
        deliver_pending_notifications()
        assert turn_emails_to(users[0]) == []
        clock.shift(timedelta(minutes=1, seconds=30))
        deliver_pending_notifications()
        [sent] = turn_emails_to(users[0])
        assert sent.subject == f"Your move in {game.title}"
        assert sent.reply_to  # answering it still plays
    notice.refresh_from_db()
    assert notice.email_status == EmailStatus.SENT


def test_a_player_who_moved_elsewhere_meanwhile_is_still_at_it():
    with time_machine.travel(START, tick=False) as clock:
        game, users = started("toy", 2)
        other, _ = started_game(2, make_user=iter([users[0], confirmed_player()]).__next__)
        with_grace(users)
        bids_in(game, users)
        clock.shift(timedelta(minutes=8))
        move(other, users[0], {"type": "bid", "amount": 1})  # a move in another game
        clock.shift(timedelta(minutes=3))
        deliver_pending_notifications()
        assert turn_emails_to(users[0]) == []
        assert turn_notice(users[0], game).held_until == START + timedelta(minutes=18)
        clock.shift(timedelta(minutes=8))
        deliver_pending_notifications()
        assert len(turn_emails_to(users[0])) == 1


def test_looking_at_the_game_or_moving_in_it_drops_the_held_email():
    with time_machine.travel(START, tick=False) as clock:
        game, users = started("toy", 2)
        with_grace(users)
        bids_in(game, users)
        clock.shift(timedelta(minutes=2))
        browser = Client()
        browser.force_login(users[0])
        assert browser.get(f"/games/{game.pk}/version/").status_code == 200  # the page's poll
        clock.shift(timedelta(minutes=11))
        deliver_pending_notifications()
        assert turn_emails_to(users[0]) == []
        assert turn_notice(users[0], game).email_status == EmailStatus.SKIPPED


def test_without_a_grace_period_or_activity_the_email_goes_at_once():
    with time_machine.travel(START, tick=False):
        game, users = started("toy", 2)
        with_grace(users, 0)
        bids_in(game, users)
        assert len(turn_emails_to(users[0])) == 1
        other, others = started("toy", 2)
        with_grace(others)
        bids_in(other, others, source=ActionSource.EMAIL)  # answers by email: not at the page
        assert len(turn_emails_to(others[0])) == 1


def test_a_game_started_while_its_players_look_at_it_waits_too():
    with time_machine.travel(START, tick=False) as clock:
        game, users = open_game(2, make_user=confirmed_player)
        with_grace(users)
        browser = Client()
        browser.force_login(users[1])
        browser.get(f"/games/{game.pk}/")  # the lobby page, waiting for the start
        mail.outbox.clear()
        with committed():
            game_services.game_start(game_id=game.pk, user=users[0])
        started_to = {user.pk: [m for m in mails_to(user) if "started" in m.subject]
                      for user in users}
        assert started_to[users[1].pk] == []  # was looking
        assert len(started_to[users[0].pk]) == 1  # had neither moved nor looked
        clock.shift(timedelta(minutes=1))
        browser.get(f"/games/{game.pk}/version/")  # the page still open, polling
        clock.shift(timedelta(minutes=10))
        deliver_pending_notifications()
        assert [m for m in mails_to(users[1]) if "started" in m.subject] == []


def test_turns_of_several_games_due_together_come_in_one_email_that_plays_each():
    with time_machine.travel(START, tick=False) as clock:
        alice, bob = confirmed_player(), confirmed_player()
        games = []
        for _ in range(2):
            # The same seed seats them alike in both games.
            game, users = started_game(2, make_user=iter([alice, bob]).__next__, seed="grace")
            games.append((game, users))
        with_grace([alice, bob])
        for game, users in games:
            bids_in(game, users)
        player = games[0][1][0]
        assert games[1][1][0] == player  # the creator sits first
        clock.shift(timedelta(minutes=11))
        mail.outbox.clear()
        deliver_pending_notifications()
        [sent] = mails_to(player)
        assert sent.subject == "Your move in 2 games"
        addresses = re.findall(r"write to (\S+) with the number", sent.body)
        assert len(set(addresses)) == 2 and not sent.reply_to
        for game, _users in games:
            assert game.title in sent.body
        assert sent.body.count("Please move by") == 2
        # Writing "2" (roll) to the second game's address plays there, not in the first.
        second, _ = games[1]
        pipe(answer(sent, "2", to=addresses[1]))
    second.refresh_from_db()
    first = games[0][0]
    first.refresh_from_db()
    assert second.actions.filter(source=ActionSource.EMAIL).count() == 1
    assert not first.actions.filter(source=ActionSource.EMAIL).exists()
    statuses = set(Notification.objects.filter(user=player, kind=NotificationKind.YOUR_TURN)
                   .values_list("email_status", flat=True))
    assert statuses == {EmailStatus.SENT}


def test_a_player_away_gets_the_first_turn_at_once_and_the_next_ones_together():
    """Turns of other games falling due within the grace period after a turn email wait for it
    to pass and come in one email, though the player is not at the page."""
    with time_machine.travel(START - timedelta(hours=1), tick=False) as clock:
        alice, bob = confirmed_player(), confirmed_player()
        games = [started_game(2, make_user=iter([alice, bob]).__next__, seed="away")[0]
                 for _ in range(3)]
        with_grace([alice, bob])
        for game in games:  # Alice answers by email (no sign of being at the page)
            move(game, alice, {"type": "bid", "amount": 1}, source=ActionSource.EMAIL)
        clock.move_to(START)
        for number, game in enumerate(games):
            move(game, bob, {"type": "bid", "amount": 2})  # Bob on the page, 3 minutes apart
            notice = turn_notice(alice, game)
            if number == 0:
                assert notice.email_status == EmailStatus.SENT  # nothing held it
            else:
                assert (notice.email_status, notice.held_until) == (
                    EmailStatus.HELD, START + timedelta(minutes=10))
            clock.shift(timedelta(minutes=3))
        assert [m.subject for m in turn_emails_to(alice)] == [f"Your move in {games[0].title}"]
        clock.move_to(START + timedelta(minutes=10, seconds=30))
        deliver_pending_notifications()
        assert [m.subject for m in turn_emails_to(alice)] == [
            f"Your move in {games[0].title}", "Your move in 2 games"]


def test_a_player_answering_by_email_is_not_held_by_the_email_of_another_game():
    with time_machine.travel(START - timedelta(hours=1), tick=False) as clock:
        alice, bob = confirmed_player(), confirmed_player()
        first, second = (started_game(2, make_user=iter([alice, bob]).__next__, seed="away")[0]
                         for _ in range(2))
        with_grace([alice, bob])
        move(first, alice, {"type": "bid", "amount": 1}, source=ActionSource.EMAIL)
        clock.move_to(START)
        move(first, bob, {"type": "bid", "amount": 2})  # Alice's turn email in the first game
        clock.shift(timedelta(minutes=2))
        move(second, alice, {"type": "bid", "amount": 1}, source=ActionSource.EMAIL)
        move(second, bob, {"type": "bid", "amount": 2})
        assert turn_notice(alice, second).email_status == EmailStatus.SENT


def test_a_waiting_turn_is_not_held_longer_by_an_email_that_went_after_it_fell_due():
    """Only turn emails sent before a turn fell due hold it: one that went later (another
    game's, sent at once while this one waited for its own grace period) would push it back at
    every re-check, and a player playing one game by email would not hear of the other."""
    with time_machine.travel(START - timedelta(hours=1), tick=False) as clock:
        alice, bob = confirmed_player(), confirmed_player()
        waiting, other = (started_game(2, make_user=iter([alice, bob]).__next__, seed="away")[0]
                          for _ in range(2))
        with_grace([alice, bob])
        for game in (waiting, other):  # Alice answers by email (no sign of being at the page)
            move(game, alice, {"type": "bid", "amount": 1}, source=ActionSource.EMAIL)
        clock.move_to(START)
        browser = Client()
        browser.force_login(alice)
        assert browser.get(f"/games/{waiting.pk}/version/").status_code == 200  # a look
        clock.shift(timedelta(minutes=1))
        move(waiting, bob, {"type": "bid", "amount": 2})
        assert turn_notice(alice, waiting).held_until == START + timedelta(minutes=10)
        clock.shift(timedelta(minutes=7))
        move(other, bob, {"type": "bid", "amount": 2})  # nothing holds this one: sent at once
        assert turn_notice(alice, other).email_status == EmailStatus.SENT
        clock.move_to(START + timedelta(minutes=10, seconds=30))
        deliver_pending_notifications()
        assert [m.subject for m in turn_emails_to(alice)] == [
            f"Your move in {other.title}", f"Your move in {waiting.title}"]
    assert turn_notice(alice, waiting).email_status == EmailStatus.SENT


def test_the_grace_period_is_a_setting_on_the_email_settings_page():
    player = confirmed_player()
    browser = Client()
    browser.force_login(player)
    page = browser.get("/notifications/settings/")
    assert b'name="turn_email_grace_minutes"' in page.content
    form = {"digest_hour": 8, "quiet_hours_start": "", "quiet_hours_end": "",
            "reminder_percent": 25, "reminder_hours": 2,
            **{f"kind__{kind}": "immediate" for kind in NotificationKind.values}}
    refused = browser.post("/notifications/settings/", {**form, "turn_email_grace_minutes": 500})
    assert refused.status_code == 200 and b"120" in refused.content
    assert browser.post("/notifications/settings/",
                        {**form, "turn_email_grace_minutes": 3}).status_code == 302
    player.refresh_from_db()
    assert player.turn_email_grace_minutes == 3
    assert User._meta.get_field("turn_email_grace_minutes").default == 10  # a new account's


def test_when_the_email_carrying_a_batch_is_no_longer_needed_the_next_turn_carries_the_rest():
    from notifications.channels import email as email_channel
    from notifications.services import held_notices_release

    with time_machine.travel(START, tick=False) as clock:
        alice, bob = confirmed_player(), confirmed_player()
        games = [started_game(2, make_user=iter([alice, bob]).__next__, seed="grace")
                 for _ in range(2)]
        with_grace([alice, bob])
        for game, users in games:
            bids_in(game, users)
        (first, users), (second, _) = games
        player = users[0]
        clock.shift(timedelta(minutes=11))
        mail.outbox.clear()
        held_notices_release()  # its deliveries wait for a commit that never comes here
        lead, other = turn_notice(player, first), turn_notice(player, second)
        assert (lead.email_status, other.email_status) == (EmailStatus.PENDING,
                                                           EmailStatus.BATCHED)
        assert other.sent_with == lead
        move(first, player, {"type": "bank"})  # the first game's turn is answered meanwhile
        assert email_channel.deliver(notification_id=lead.pk) == "skipped"
        other.refresh_from_db()
        assert (other.email_status, other.sent_with) == (EmailStatus.PENDING, None)
        assert email_channel.deliver(notification_id=other.pk) == "sent"
        [sent] = turn_emails_to(player)
        assert sent.subject == f"Your move in {second.title}"
