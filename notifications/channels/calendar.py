"""A private iCalendar feed per player: one event per deadline awaiting them, read from the
seats at each request, so a phone calendar that refreshes the feed follows the games."""

# A move ends an event; a new turn adds one. The address holds a secret token (no sign-in:
# calendar apps cannot log in); revoking issues a new token and the old address answers 404.

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

import icalendar
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from notifications.models import CalendarFeed
from notifications.rendering import absolute, recipient_language

#: How long each deadline event lasts in the calendar (a deadline is a moment; calendars show
#: zero-length events poorly).
EVENT_LENGTH = timedelta(minutes=15)
#: The alarm on each event, before the deadline.
ALARM_BEFORE = timedelta(hours=1)
#: What the feed asks calendar apps for (not all honour it).
REFRESH_INTERVAL = timedelta(minutes=15)


def feed_for(user, *, create: bool = True) -> CalendarFeed | None:
    feed = CalendarFeed.objects.filter(user=user).first()
    if feed is None and create:
        feed, _ = CalendarFeed.objects.get_or_create(
            user=user, defaults={"token": secrets.token_urlsafe(32)})
    return feed


@transaction.atomic
def feed_revoke(*, user) -> CalendarFeed:
    """A new secret address; the old one stops working at once."""
    feed = feed_for(user)
    feed.token = secrets.token_urlsafe(32)
    feed.save(update_fields=["token"])
    return feed


def feed_url(feed: CalendarFeed) -> str:
    return absolute(reverse("notifications:calendar-feed", args=[feed.token]))


def subscribe_url(feed: CalendarFeed) -> str:
    """The feed as a `webcal://` address: a tap on it opens the phone's calendar app, which
    subscribes (and keeps refreshing) instead of importing the events once."""
    return "webcal://" + feed_url(feed).split("://", 1)[1]


def _awaiting_seats(user):
    from games.models import GameStatus, Seat

    return (Seat.objects.filter(user=user, is_bot=False, deadline_at__isnull=False,
                                game__status=GameStatus.ACTIVE)
            .select_related("game").order_by("deadline_at"))


def calendar_for(user, now: datetime | None = None) -> icalendar.Calendar:
    """The player's deadlines as a calendar, its words in their language (as their emails)."""
    with translation.override(recipient_language(user)):
        return _calendar_for(user, now)


def _calendar_for(user, now: datetime | None) -> icalendar.Calendar:
    from games.presentation.titles import engine_title
    now = now or timezone.now()
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Turnpost//Deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", gettext("Turnpost deadlines"))
    calendar.add("refresh-interval", REFRESH_INTERVAL, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", REFRESH_INTERVAL)
    for seat in _awaiting_seats(user):
        game = seat.game
        name = engine_title(game.engine, game.pk)
        url = absolute(reverse("games:detail", args=[game.pk]))
        event = icalendar.Event()
        # One turn, one event: the same UID while the turn lasts, a new one for the next turn.
        started = int((seat.turn_started_at or seat.deadline_at).timestamp())
        event.add("uid", f"deadline-{game.pk}-{seat.number}-{started}@turnpost")
        event.add("dtstamp", now)
        event.add("dtstart", seat.deadline_at)
        event.add("dtend", seat.deadline_at + EVENT_LENGTH)
        event.add("summary", gettext("Your move in %(game)s: deadline") % {"game": name})
        event.add("description", gettext("Your move in %(game)s is due by this time. Play: "
                                         "%(url)s") % {"game": name, "url": url})
        event.add("url", url)
        event.add("transp", "TRANSPARENT")
        alarm = icalendar.Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", gettext("Your move in %(game)s is due in an hour")
                  % {"game": name})
        alarm.add("trigger", -ALARM_BEFORE)
        event.add_component(alarm)
        calendar.add_component(event)
    return calendar
