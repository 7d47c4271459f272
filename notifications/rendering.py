"""How a notice is told: its email (subject, text and HTML from the templates), the digest, and
the facts and one line that the stream, push and webhooks share, in the reader's language."""

from __future__ import annotations

import logging
from datetime import datetime
from email.mime.image import MIMEImage
from email.utils import make_msgid

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import Prefetch, prefetch_related_objects
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.timesince import timeuntil
from django.utils.translation import gettext

from accounts.templatetags.language_tags import localized_digits
from games.models import Seat
from games.presentation import summaries
from games.presentation.titles import engine_title
from notifications.board_picture import BoardPicture, board_picture
from notifications.models import Notification, NotificationKind
from notifications.policy import unsubscribe_token

logger = logging.getLogger(__name__)

#: Emails whose Reply-To lets the player move by answering (docs/email-play.md).
EMAIL_PLAY_KINDS = (NotificationKind.YOUR_TURN, NotificationKind.REMINDER,
                    NotificationKind.GAME_STARTED)
#: Answering these about an open game types the answer's first line in the game's chat
#: ("/join", "/start": notifications.inbound.lobby).
LOBBY_REPLY_KINDS = (NotificationKind.INVITATION, NotificationKind.GAME_LOBBY)


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def unsubscribe_url(user, kind: str) -> str:
    return absolute(reverse("notifications:unsubscribe", args=[unsubscribe_token(user, kind)]))


def new_message_id() -> str:
    return make_msgid(domain="turnpost")


def recipient_language(user) -> str:
    """The language a player's notices are written in, wherever they go (email, push, webhook,
    stream, calendar): their choice, else the site's default (a worker has no browser to ask).
    A webhook speaks the language of the player who registered it."""
    return user.language or settings.LANGUAGE_CODE


# ---- email ---------------------------------------------------------------------------------------


def email_context(notification: Notification, now: datetime) -> dict:
    """JSON-safe facts for the templates, as this player may see them, in their timezone."""
    user = notification.user
    context = {
        "user_name": user.public_name,
        "kind": notification.kind,
        "facts": notification.context,
        "preferences_url": absolute(reverse("notifications:preferences")),
        "unsubscribe_url": unsubscribe_url(user, notification.kind),
        "kind_label": NotificationKind(notification.kind).label,
    }
    game = notification.game
    if game is None:
        return context
    # Seats and their players are read by every part of the email (names in the log lines, the
    # choices, the board): once here, instead of a query a seat each time (35 queries an email
    # of four players before, tests/notifications/test_email_queries.py).
    prefetch_related_objects(
        [game], Prefetch("seats", queryset=Seat.objects.select_related("user")))
    from games.engines.registry import get_engine

    engine = get_engine(game.engine)
    context.update(
        game_id=game.pk,
        game_name=game.title,
        game_url=absolute(reverse("games:detail", args=[game.pk])),
    )
    seat = game.seats.filter(user=user).first()
    if seat is not None and seat.deadline_at is not None:
        # The weekday and month in the reader's language (strftime would write English).
        context["deadline_local"] = localized_digits(date_format(
            timezone.localtime(seat.deadline_at, user.zone), "l d F Y, H:i T"))
        context["time_left"] = localized_digits(timeuntil(seat.deadline_at, now))
    if game.status == "open" and notification.kind in LOBBY_REPLY_KINDS:
        from notifications.inbound import context as email_play

        context["reply_address"] = email_play.reply_address_for(game, user, now=now)
    if seat is not None and game.status == "active":
        from notifications.inbound import context as email_play

        choices = email_play.current_choices(game, user)
        context.update(email_play.choices_page(choices))
        if choices and notification.kind in EMAIL_PLAY_KINDS:
            # Answering this email plays: the address is bound to the version just rendered.
            context["reply_address"] = email_play.reply_address_for(game, user, now=now)
        # What the others did since this player last moved, named as on the game page.
        context["what_changed"] = email_play.moves_since_own(game, seat.number)
        context["made_for_you"] = email_play.automatic_since_own(game, seat.number)
    if seat is not None and seat.number is not None and game.state is not None:
        # The game as the page shows it to this seat, from the engine's view for it alone.
        context["game_lines"] = summaries.game_lines(
            game.engine, engine.view(game.state, seat.number), summaries.seat_names(game),
            seat.number)
    if game.result:
        names = {s.number: s.player_name for s in game.seats.all()}
        context["scores"] = [
            {"player": names.get(number, f"Seat {number}"), "points": points,
             "winner": number in game.result["winners"]}
            for number, points in enumerate(game.result["scores"])
        ]
    return context


def build_email(notification: Notification, now: datetime) -> EmailMultiAlternatives:
    with translation.override(recipient_language(notification.user)):
        return _build_email(notification, now)


def _build_email(notification: Notification, now: datetime) -> EmailMultiAlternatives:
    context = email_context(notification, now)
    picture = _player_board(notification) if notification.kind in EMAIL_PLAY_KINDS else None
    if picture is not None:
        context["board_picture"] = {"cid": make_msgid("board", domain="turnpost")[1:-1],
                                    "alt": picture.alt, "width": picture.width,
                                    "height": picture.height}
    base = f"notifications/email/{notification.kind}"
    message = _message(
        user=notification.user,
        kind=notification.kind,
        subject=render_to_string(f"{base}.subject.txt", context),
        text=render_to_string(f"{base}.txt", context),
        html=render_to_string(f"{base}.html", context),
        reply_to=context.get("reply_address") or None,
        message_id=notification.message_id,
    )
    if picture is not None:
        _attach_inline(message, picture.png, context["board_picture"]["cid"])
    return message


def _player_board(notification: Notification) -> BoardPicture | None:
    """The player's board in an active game they sit in, as a picture; a board that cannot be
    drawn leaves the email without one (its words tell the same), never unsent."""
    game = notification.game
    if game is None or game.status != "active" or game.state is None:
        return None
    seat = next((seat for seat in game.seats.all() if seat.user_id == notification.user_id), None)
    if seat is None:
        return None
    try:
        return board_picture(game, seat.number)
    except ValueError:
        logger.warning("no board picture for game %s", game.pk, exc_info=True)
        return None


def _attach_inline(message: EmailMultiAlternatives, png: bytes, content_id: str) -> None:
    """A picture the HTML part shows by `cid:`: the message becomes multipart/related."""
    image = MIMEImage(png, "png")
    image.add_header("Content-ID", f"<{content_id}>")
    image.add_header("Content-Disposition", "inline", filename="board.png")
    message.mixed_subtype = "related"
    message.attach(image)


def _message(*, user, kind: str, subject: str, text: str, html: str,
             reply_to: str | None = None, message_id: str = "") -> EmailMultiAlternatives:
    unsubscribe = unsubscribe_url(user, kind)
    message = EmailMultiAlternatives(
        subject=" ".join(subject.split()),
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        reply_to=[reply_to] if reply_to else None,
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
            "Message-ID": message_id or new_message_id(),
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def digest_message(user, rows: list[Notification], now: datetime,
                   message_id: str) -> EmailMultiAlternatives:
    with translation.override(recipient_language(user)):
        return _list_message("digest", user, rows, now, message_id)


def turns_message(user, rows: list[Notification], now: datetime,
                  message_id: str) -> EmailMultiAlternatives:
    """Turns of several games released together after the player's grace period: one email
    listing each game with its deadline and choices, each with its own reply address."""
    with translation.override(recipient_language(user)):
        return _list_message("turns", user, rows, now, message_id)


#: Games of a "your move in N games" email drawn as pictures (each at most 60 KB): the first
#: ones listed, so that the email stays a few hundred KB at most.
LIST_PICTURES = 3


def _list_message(template: str, user, rows: list[Notification], now: datetime,
                  message_id: str) -> EmailMultiAlternatives:
    items, playable_games, described_games = [], set(), set()
    pictures: list[tuple[bytes, str]] = []  # (PNG, Content-ID) of the turns' boards
    for row in rows:
        context = email_context(row, now)
        # Each game is drawn once, under its first item, as it stands now.
        describe = row.game_id is not None and row.game_id not in described_games
        described_games.add(row.game_id)
        # Play by email from a list too: each game awaiting the player lists its choices
        # once, with the reply address bound to its current version.
        play = picture = None
        if context.get("reply_address") and row.game_id not in playable_games:
            playable_games.add(row.game_id)
            play = {key: context[key] for key in (
                "choices", "choices_total", "choices_hidden_after", "reply_address")}
            drawn = (_player_board(row) if template == "turns" and len(pictures) < LIST_PICTURES
                     else None)
            if drawn is not None:
                picture = {"cid": make_msgid("board", domain="turnpost")[1:-1],
                           "alt": drawn.alt, "width": drawn.width, "height": drawn.height}
                pictures.append((drawn.png, picture["cid"]))
        items.append({
            "kind_label": context["kind_label"],
            "game_name": context.get("game_name", ""),
            "game_url": context.get("game_url", ""),
            "time_left": context.get("time_left", ""),
            "deadline_local": context.get("deadline_local", ""),
            "facts": row.context,
            "kind": row.kind,
            "play": play,
            "board_picture": picture,
            "game_lines": context.get("game_lines", []) if describe else [],
            "what_changed": context.get("what_changed", []) if describe else [],
        })
    plays = [item["play"] for item in items if item["play"]]
    # One game to play: answering the email plays it. Several: each names its address.
    reply_to = plays[0]["reply_address"] if len(plays) == 1 else None
    context = {
        "user_name": user.public_name, "items": items, "answer_plays": bool(reply_to),
        "preferences_url": absolute(reverse("notifications:preferences")),
        "unsubscribe_url": unsubscribe_url(user, rows[0].kind),
    }
    base = f"notifications/email/{template}"
    message = _message(
        user=user, kind=rows[0].kind,
        subject=render_to_string(f"{base}.subject.txt", context),
        text=render_to_string(f"{base}.txt", context),
        html=render_to_string(f"{base}.html", context),
        reply_to=reply_to, message_id=message_id,
    )
    for png, content_id in pictures:
        _attach_inline(message, png, content_id)
    return message


# ---- the facts and the one line (stream, push, webhooks) -----------------------------------------


def notice(notification: Notification) -> dict:
    """A notification as the stream (and webhooks, and push) tell it: the player's own facts."""
    body = {"id": notification.pk, "kind": notification.kind,
            "created_at": notification.created_at.isoformat(), "facts": notification.context}
    if notification.game_id is not None:
        # The player's own notice, named in their language (on the stream, in their push and
        # in their webhooks alike).
        with translation.override(recipient_language(notification.user)):
            name = engine_title(notification.game.engine, notification.game_id)
        body["game"] = {"id": notification.game_id, "name": name,
                        "seat": notification.seat_number}
    return body


def deadline_suffix(moment: datetime | str | None, zone) -> str:
    """" — deadline Tue 18:00" in `zone`, in the active language (its weekday, its digits)."""
    if not moment:
        return ""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    when = localized_digits(date_format(moment.astimezone(zone), "D H:i"))
    return gettext(" — deadline %(when)s") % {"when": when}


def sentence(notification: Notification, game_name: str) -> str:
    """One line, as a chat channel or a phone shows it: "Alice's turn in 7 Wonders #12 —
    deadline Tue 18:00", in the active language (times in the player's time zone)."""
    user, facts = notification.user, notification.context
    values = {"name": user.public_name, "game": game_name,
              "deadline": deadline_suffix(facts.get("deadline_at"), user.zone)}
    kind = notification.kind
    if kind == NotificationKind.YOUR_TURN:
        return gettext("%(name)s's turn in %(game)s%(deadline)s") % values
    if kind == NotificationKind.REMINDER:
        return gettext("Reminder: %(name)s's move in %(game)s is due%(deadline)s") % values
    if kind == NotificationKind.GAME_STARTED:
        if facts.get("your_move"):
            return gettext("%(game)s has started: %(name)s moves first") % values
        return gettext("%(game_name)s has started") % {"game_name": game_name}
    if kind == NotificationKind.GAME_FINISHED:
        return gettext("%(game_name)s is over") % {"game_name": game_name}
    if kind == NotificationKind.TIMED_OUT:
        return gettext("%(name)s ran out of time in %(game)s") % values
    if kind == NotificationKind.INVITATION:
        return gettext("%(inviter)s invited %(name)s to %(game)s") % {
            **values, "inviter": facts.get("inviter") or gettext("Someone")}
    if kind == NotificationKind.MENTION:
        return gettext("%(author)s mentioned %(name)s in %(game)s: %(text)s") % {
            **values, "author": facts.get("author") or gettext("Someone"),
            "text": facts.get("text", "")[:200]}
    label = str(NotificationKind(kind).label)
    text = facts.get("text", "")[:200]
    return gettext("%(kind)s: %(text)s") % {"kind": label, "text": text} if text else label
