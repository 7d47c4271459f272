"""What play-by-email mails show a player: their numbered choices (a page of them, or those
matching a word), a signed reply address, what changed, and their view of the game. Everything
comes from the engine's `view`/`describe` with the player's seat as viewer."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.conf import settings

from notifications.inbound import tokens
from notifications.inbound.commands import Choice, choices_from, words_of


def confirmed_addresses(user) -> set[str]:
    """Addresses from which this player may play by email (lower case)."""
    from allauth.account.models import EmailAddress

    verified = {address.lower() for address in EmailAddress.objects.filter(
        user=user, verified=True).values_list("email", flat=True)}
    if not settings.EMAIL_PLAY_REQUIRE_CONFIRMED and user.email:
        verified.add(user.email.lower())
    return verified


def email_play_enabled_for(user) -> bool:
    return bool(tokens.play_address()) and bool(user.email) and (
        user.email.lower() in confirmed_addresses(user))


def restriction_for(user) -> str:
    """Why this player may not move now (a suspension or ban, as games.services says it), or ""."""
    from accounts.models import active_restriction, restriction_message

    sanction = active_restriction(user)
    return restriction_message(sanction) if sanction is not None else ""


def seat_for(game, user):
    return next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)


def is_their_turn(game, user) -> bool:
    seat = seat_for(game, user)
    return (game.status == "active" and seat is not None and not seat.is_bot
            and seat.deadline_at is not None)


def current_choices(game, user) -> list[Choice]:
    """The player's numbered choices now, while it is their turn (else none)."""
    from games import selectors

    if not is_their_turn(game, user):
        return []
    return choices_from(selectors.legal_actions_for(game, user))


def choices_page(choices: list[Choice], *, offset: int = 0,
                 selected: list[Choice] | None = None) -> dict[str, Any]:
    """Template facts for a list of choices: a page of at most EMAIL_PLAY_CHOICES_SHOWN starting at
    `offset`, or the `selected` ones (a filter); numbers are always the full list's numbers."""
    shown_max = max(settings.EMAIL_PLAY_CHOICES_SHOWN, 1)
    if selected is not None:
        page = selected[:shown_max]
        hidden_after = len(selected) - len(page)
        offset = 0
    else:
        offset = offset if 0 <= offset < len(choices) else 0
        page = choices[offset:offset + shown_max]
        hidden_after = len(choices) - offset - len(page)
    return {
        "choices": [{"number": c.number, "description": c.description} for c in page],
        "choices_example": _example_word(page, [c for c in (selected or choices)
                                                if c not in page]),
        "choices_total": len(choices),
        "choices_hidden_after": max(hidden_after, 0),
        "choices_hidden_before": offset,
        "choices_filtered": selected is not None,
        "choices_offset": offset,
        "can_pass": any(isinstance(c.action, dict) and c.action.get("type") == "pass"
                        for c in choices),
    }


def _example_word(shown: list[Choice], hidden: list[Choice]) -> str:
    """A word for the "find WORD" hint that narrows to choices this email did not list (e.g.
    "toolmaker" when the first page was all hunting and forest), else a generic one."""
    seen = set().union(*(choice.words for choice in shown)) if shown else set()
    for choice in hidden:
        for word in words_of(choice.description):
            if len(word) > 3 and not word.isdigit() and word not in seen:
                return word
    return "wood"


def reply_address_for(game, user, *, offset: int = 0, now: datetime | None = None) -> str:
    """A Reply-To bound to this player, game and the game's current version; empty when the
    player cannot play by email (no confirmed address, or email play is off)."""
    if not email_play_enabled_for(user):
        return ""
    token = tokens.make_token(user_id=user.pk, game_id=game.pk, version=game.version,
                              offset=offset, now=now)
    return tokens.reply_address(token)


_SCALARS = (str, int, float, bool)
#: Lists of at most this many records (players, usually) get a line per record.
_RECORDS_SHOWN = 8
_LINE_MAX = 400


def _scalar(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, _SCALARS)


def _compact(value: Any, depth: int = 0) -> str:
    """One value on (part of) one line: lists of names joined, small dicts as "key value" pairs,
    anything deeper counted."""
    if _is_scalar(value):
        return _scalar(value)
    if isinstance(value, list):
        if not value:
            return "none"
        if all(_is_scalar(v) for v in value):
            shown = ", ".join(_scalar(v) for v in value[:16])
            return shown + (" …" if len(value) > 16 else "")
        if all(isinstance(v, dict) and "name" in v for v in value):
            shown = ", ".join(str(v["name"]) for v in value[:12])
            return shown + (f" … ({len(value)} in all)" if len(value) > 12 else "")
        return f"{len(value)} entries"
    if isinstance(value, dict):
        if depth >= 2 and "name" in value:
            return str(value["name"])
        if depth >= 3 or (depth >= 2 and not all(_is_scalar(v) for v in value.values())):
            return "…"
        # Inside a record, empty parts (no tools, nothing placed) are left out.
        shown = {key: inner for key, inner in value.items()
                 if depth == 0 or inner not in (None, [], {}, "")}
        parts = [f"{key} {_compact(inner, depth + 1)}" if _is_scalar(inner) else
                 f"{key} ({_compact(inner, depth + 1)})" for key, inner in shown.items()]
        return ", ".join(parts) if parts else "none"
    return str(value)


def _line(prefix: str, text: str) -> str:
    line = f"{prefix}: {text}"
    return line if len(line) <= _LINE_MAX else line[:_LINE_MAX - 1] + "…"


def _records(value: Any) -> bool:
    return (isinstance(value, list) and 0 < len(value) <= _RECORDS_SHOWN
            and all(isinstance(v, dict) for v in value)
            and not all("name" in v for v in value))


def view_lines(view: dict | None, limit: int = 60) -> list[str]:
    """The engine's view for this seat as short "name: value" lines: enough to play from the
    email alone (the player's own part first, every player's counts, the names on the board),
    while the web page has the full board."""
    if not view:
        return []
    lines: list[str] = []
    items = list(view.items())
    # The viewer's own part ("you": {...}) first: what they hold decides their move.
    items.sort(key=lambda item: item[0] != "you" or not isinstance(item[1], dict))
    seen_records: list[list[str]] = []
    for key, value in items:
        if _records(value):
            # The same records in another order (e.g. "players_viewer_first") are shown once.
            signature = sorted(json.dumps(record, sort_keys=True, default=str) for record in value)
            if signature in seen_records:
                continue
            seen_records.append(signature)
        if isinstance(value, dict) and not all(_is_scalar(v) for v in value.values()):
            lines.extend(_line(f"{key}.{inner_key}", _compact(inner, 1))
                         for inner_key, inner in value.items())
        elif _records(value):
            lines.extend(_line(f"{key} {number}", _compact(record, 1))
                         for number, record in enumerate(value, start=1))
        else:
            lines.append(_line(str(key), _compact(value)))
    return lines[:limit] + (["…"] if len(lines) > limit else [])


def changes_since(game, user, version: int, limit: int = 12) -> list[str]:
    """The log entries after `version`, as this player may read them."""
    seat = seat_for(game, user)
    viewer = seat.number if seat is not None else None
    entries = list(game.actions.filter(sequence__gt=version).order_by("-sequence")[:limit])
    return [entry.description_for(viewer) for entry in reversed(entries)]
