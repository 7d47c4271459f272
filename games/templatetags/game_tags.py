"""Small template helpers for game pages."""

from datetime import timedelta

from django import template
from django.utils.translation import gettext, ngettext

from games.presentation.names import with_names
from games.presentation.texts import category_label, component_name
from games.presentation.titles import engine_name as engine_display_name

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
def engine_name(slug: str) -> str:
    """The engine's name in the reader's language ("Stone Age", "عصر حجر", "石器时代")."""
    return engine_display_name(slug)


@register.filter
def score_category(category: str, engine_slug: str) -> str:
    """{{ category|score_category:game.engine }}: a score breakdown's row in the reader's
    language."""
    return category_label(engine_slug, category)


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if mapping else None


@register.filter
def named(text: str, names: dict) -> str:
    """An engine sentence with "Seat N" replaced by the players' names."""
    return with_names(str(text), names or {})


@register.simple_tag(takes_context=True)
def name_of(context, kind: str, component, separator: str = ", ") -> str:
    """A component of the board's game by its id ({% name_of "good" d.good %}), or a list of
    them joined by `separator`, in the reader's language: for the ids a view gives without
    words (goods, colours, score categories)."""
    view = context.get("view")
    slug = view.get("game") if isinstance(view, dict) else None
    items = component if isinstance(component, (list, tuple)) else [component]
    return separator.join(component_name(slug, kind, item) if slug else str(item)
                          for item in items)
