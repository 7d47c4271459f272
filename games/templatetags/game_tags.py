"""Small template helpers for game pages."""

from datetime import timedelta

from django import template
from django.utils.translation import gettext, ngettext

from games.names import with_names

register = template.Library()


@register.filter
def duration_words(value: timedelta) -> str:
    """1 day, 6 hours, 14 days, 1 day 12 hours."""
    seconds = int(value.total_seconds())
    days, seconds = divmod(seconds, 86400)
    hours, seconds = divmod(seconds, 3600)
    minutes = seconds // 60
    # In the reader's language: the template renders under the page's or the email's language.
    parts = [words % {"count": amount} for amount, words in (
        (days, ngettext("%(count)s day", "%(count)s days", days)),
        (hours, ngettext("%(count)s hour", "%(count)s hours", hours)),
        (minutes, ngettext("%(count)s minute", "%(count)s minutes", minutes))) if amount]
    return " ".join(parts) or gettext("no time")


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if mapping else None


@register.filter
def named(text: str, names: dict) -> str:
    """An engine sentence with "Seat N" replaced by the players' names."""
    return with_names(str(text), names or {})
