"""What play-by-email mails show a player: their numbered choices (a page of them, or those
matching a word), a signed reply address and what changed since their own move."""

# What changed is the log as their seat may read it, players named. The game itself is drawn
# by `games.presentation.summaries` from the engine's `view` for their seat.

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings

from games.models import ActionSource
from games.presentation.summaries import seat_names
from games.presentation.texts import entry_text
from notifications.inbound import tokens
from notifications.inbound.commands import Choice, choices_from, words_of

#: Log sources of moves made for a player without asking them (games.autoplay).
AUTOMATIC_SOURCES = (ActionSource.AUTO, ActionSource.QUEUED)


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
    return choices_from(selectors.legal_actions_for(game, user), seat_names(game))


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


def _log_lines(game, entries, viewer: int | None) -> list[str]:
    """The entries as `viewer` may read them, in the active language (the recipient's, while an
    email is built), players named."""
    names = seat_names(game)
    return [entry_text(entry, viewer, names=names, engine_slug=game.engine) for entry in entries]


def moves_since_own(game, seat_number: int | None, limit: int = 12) -> list[str]:
    """What others did since this seat's previous move (everything when it has not moved yet),
    the last `limit` of it, as the seat may read it, players named."""
    entries = []
    for entry in game.actions.order_by("-sequence")[:200]:
        if seat_number is not None and entry.seat_number == seat_number and entry.kind == "move":
            if entry.source in AUTOMATIC_SOURCES:
                continue  # made for the player: listed apart (automatic_since_own)
            break
        entries.append(entry)
    return _log_lines(game, reversed(entries[:limit]), seat_number)


def automatic_since_own(game, seat_number: int | None, limit: int = 12) -> list[str]:
    """The decisions made for this seat automatically (forced, by its standing orders, from its
    queue) since its player's own last move, as the seat reads them, players named."""
    if seat_number is None:
        return []
    from games.services.autoplay import automatic_moves_since_own_move

    entries = automatic_moves_since_own_move(game, seat_number)[-limit:]
    return _log_lines(game, entries, seat_number)


def changes_since(game, user, version: int, limit: int = 12) -> list[str]:
    """The log entries after `version`, as this player may read them."""
    seat = seat_for(game, user)
    viewer = seat.number if seat is not None else None
    entries = list(game.actions.filter(sequence__gt=version).order_by("-sequence")[:limit])
    return _log_lines(game, reversed(entries), viewer)
