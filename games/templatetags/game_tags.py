"""Small template helpers for game pages."""

from datetime import timedelta

from django import template

from games.names import with_names

register = template.Library()


@register.filter
def duration_words(value: timedelta) -> str:
    """1 day, 6 hours, 14 days, 1 day 12 hours."""
    seconds = int(value.total_seconds())
    days, seconds = divmod(seconds, 86400)
    hours, seconds = divmod(seconds, 3600)
    minutes = seconds // 60
    parts = []
    for amount, unit in ((days, "day"), (hours, "hour"), (minutes, "minute")):
        if amount:
            parts.append(f"{amount} {unit}{'s' if amount != 1 else ''}")
    return " ".join(parts) or "no time"


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if mapping else None


#: Above this many choices the page groups them by kind, each group folded but the first.
GROUP_CHOICES_ABOVE = 10


@register.filter
def choice_groups(choices: list[dict]) -> list[dict]:
    """Legal actions grouped by their kind ("build", "discard", ...) for long lists, keeping
    the global numbering (the same numbers an email reply uses). One unnamed group otherwise."""
    if len(choices) <= GROUP_CHOICES_ABOVE:
        return [{"label": "", "choices": choices}]
    groups: dict[str, list[dict]] = {}
    for choice in choices:
        action = choice.get("action")
        kind = action.get("type") if isinstance(action, dict) else None
        groups.setdefault(str(kind or "other"), []).append(choice)
    if len(groups) == 1:
        return [{"label": "", "choices": choices}]
    return [{"label": kind.replace("_", " ").capitalize(), "choices": members}
            for kind, members in groups.items()]


@register.filter
def named(text: str, names: dict) -> str:
    """An engine sentence with "Seat N" replaced by the players' names."""
    return with_names(str(text), names or {})
