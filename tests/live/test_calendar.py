"""The private deadline calendar: valid iCalendar (parsed back), one event per awaiting
deadline, following the game as it moves, and revocable."""

from __future__ import annotations

import icalendar
import pytest
from django.test import Client

from games.models import Seat
from notifications.channels import calendar
from tests.factories import UserFactory, committed, started_game
from tests.live.helpers import play_moves

pytestmark = [pytest.mark.django_db]


def _feed(client, url):
    response = client.get(url.removeprefix("http://127.0.0.1:8000"))
    return response, (icalendar.Calendar.from_ical(response.content)
                      if response.status_code == 200 else None)


def _path(user):
    return calendar.feed_url(calendar.feed_for(user)).split("://", 1)[1].split("/", 1)[1]


def test_one_event_per_awaiting_deadline_and_it_follows_the_game():
    games = [started_game(2, engine="stone_age", seed=f"ical-{n}") for n in range(2)]
    player = games[0][1][0]
    client = Client()
    # The same player in a second game, at the other seat.
    second, second_users = games[1]
    Seat.objects.filter(game=second, user=second_users[0]).update(user=UserFactory())
    Seat.objects.filter(game=second, user=second_users[1]).update(user=player)

    def events_of(user):
        response = client.get("/" + _path(user))
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/calendar")
        parsed = icalendar.Calendar.from_ical(response.content)
        assert parsed["VERSION"] == "2.0" and "PRODID" in parsed
        return parsed.walk("VEVENT")

    awaiting = list(Seat.objects.filter(user=player, deadline_at__isnull=False)
                    .select_related("game"))
    events = events_of(player)
    assert len(events) == len(awaiting) >= 1
    by_game = {str(event["URL"]).rstrip("/").rsplit("/", 1)[1]: event for event in events}
    for seat in awaiting:
        event = by_game[str(seat.game_id)]
        # iCalendar counts whole seconds: the event is never later than the deadline.
        assert event.decoded("DTSTART") == seat.deadline_at.replace(microsecond=0)
        assert f"#{seat.game_id}" in str(event["SUMMARY"])
        assert event.walk("VALARM")[0]["ACTION"] == "DISPLAY"
    assert len({str(event["UID"]) for event in events}) == len(events)

    # The game moves until the player's turns there are over and back: the feed follows.
    game = awaiting[0].game
    with committed():
        play_moves(game.pk, 1)
    now_awaiting = Seat.objects.filter(user=player, deadline_at__isnull=False).count()
    assert len(events_of(player)) == now_awaiting


def test_revoking_replaces_the_address_and_unknown_addresses_are_not_found():
    game, users = started_game(2, engine="stone_age", seed="ical-revoke")
    client = Client()
    old = "/" + _path(users[0])
    assert client.get(old).status_code == 200
    client.force_login(users[0])
    page = client.get("/notifications/live/")
    assert old in page.content.decode()
    response = client.post("/notifications/calendar/")
    assert response.status_code == 302
    new = "/" + _path(users[0])
    assert new != old
    assert Client().get(old).status_code == 404
    assert Client().get(new).status_code == 200
    assert Client().get("/notifications/calendar/not-a-token.ics").status_code == 404


def test_the_page_offers_a_webcal_subscription_a_copy_button_and_a_secondary_replace():
    user = UserFactory()
    client = Client()
    client.force_login(user)
    client.post("/notifications/calendar/")
    page = client.get("/notifications/live/").content.decode()
    feed = calendar.feed_url(calendar.feed_for(user))
    webcal = "webcal://" + feed.split("://", 1)[1]
    assert f'href="{webcal}"' in page
    assert f'value="{feed}"' in page and 'data-copy="#calendar-url"' in page
    section = page[page.index('id="calendar"'):page.index('id="push-section"')]
    replace = section[section.index('class="calendar-replace"'):]
    assert '<button type="submit" class="secondary">' in replace
    # The one primary action is subscribing.
    assert section.count('class="button"') == 1
