"""The game page's and the profile's forms for steps that need nobody: my queued conditional
moves, forced moves on or off and my standing orders (per game, and as defaults). Thin: every
change goes through games.autoplay."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from games import selectors
from games.engines.autoplay import MAX_QUEUE_CANDIDATES
from games.engines.base import canonical_action
from games.engines.registry import all_engines, get_engine
from games.exceptions import GameError
from games.models import GameStatus
from games.presentation.names import seat_names
from games.presentation.texts import standing_orders_in, view_texts
from games.presentation.titles import engine_name
from games.services import autoplay

#: The queue form offers this many ranked candidates for the next decision.
QUEUE_FORM_SLOTS = 3
FORCED_CHOICES = (("", gettext_lazy("As in my profile")), ("on", gettext_lazy("On")),
                  ("off", gettext_lazy("Off")))


def page_context(game, seat) -> dict:
    """What the game page shows about my automatic moves (only ever my own seat's)."""
    if seat is None or seat.number is None or game.status != GameStatus.ACTIVE or seat.is_bot:
        return {}
    engine = get_engine(game.engine)
    awaited = seat.number in engine.active_seats(game.state)
    suggestions = [] if awaited else engine.queue_suggestions(game.state, seat.number)
    names = seat_names(game)
    # The labels in the reader's language, rendered together (texts are kept per process).
    worded = [suggestion for suggestion in suggestions if "text" in suggestion]
    for suggestion, label in zip(worded, view_texts(engine.slug, [s["text"] for s in worded],
                                                    names=names), strict=True):
        if isinstance(label, str):  # an engine without a catalog keeps its English label
            suggestion["label"] = label
    labels = {canonical_action(s["action"]): s["label"] for s in suggestions}
    queue = [[labels.get(canonical_action(candidate), json.dumps(candidate, sort_keys=True))
              for candidate in decision] for decision in seat.move_queue]
    orders_in_force = autoplay.seat_orders(seat, engine)
    own = seat.standing_orders or {}
    return {"autoplay": {
        "awaited": awaited,
        "queue": queue,
        # The same options in each slot's list: made once, not once a slot by the template.
        "suggestion_options": format_html_join(
            "", '<option value="{}">{}</option>',
            ((canonical_action(s["action"]), s["label"]) for s in suggestions)),
        "slots": range(1, min(QUEUE_FORM_SLOTS, MAX_QUEUE_CANDIDATES) + 1),
        "forced": "" if seat.auto_forced is None else ("on" if seat.auto_forced else "off"),
        "forced_in_force": autoplay.forced_moves_on(seat),
        "forced_choices": FORCED_CHOICES,
        "orders": [{"name": order["name"], "label": order["label"], "help": order["help"],
                    "choices": order["choices"], "value": own.get(order["name"], ""),
                    "in_force": orders_in_force[order["name"]]}
                   for order in standing_orders_in(engine.slug, engine.standing_orders)],
    }}


def _seated_game(request, game_id):
    game = selectors.game_with_seats(game_id)
    if game is None:
        raise Http404(gettext("There is no such game."))
    if not selectors.can_view(game, request.user):
        return None
    return game


def _back(game_id):
    return redirect(reverse("games:detail", args=[game_id]) + "#automatic")


@login_required
@require_POST
def game_queue(request, game_id):
    """Set (the chosen candidates, in order) or cancel ("cancel") my queue."""
    game = _seated_game(request, game_id)
    if game is None:
        return redirect("games:lobby")
    try:
        if "cancel" in request.POST:
            autoplay.queue_clear(game_id=game.pk, user=request.user)
            messages.success(request, gettext("Your queued move is cancelled."))
        else:
            chosen = []
            for value in request.POST.getlist("candidate"):
                if value and value not in chosen:
                    chosen.append(value)
            try:
                candidates = [json.loads(value) for value in chosen]
            except ValueError:
                candidates = None
            if not candidates:
                messages.error(request, gettext("Choose at least one move to queue."))
                return _back(game.pk)
            autoplay.queue_set(game_id=game.pk, user=request.user, decisions=[candidates])
            messages.success(request, gettext("Queued: the first of these still possible when your "
                                      "turn comes is played for you."))
    except GameError as error:
        messages.error(request, error.message)
    return _back(game.pk)


def _orders_from(post, engine) -> dict:
    return {order["name"]: post[f"order_{order['name']}"] for order in engine.standing_orders
            if post.get(f"order_{order['name']}")}


@login_required
@require_POST
def game_autoplay(request, game_id):
    """This game's forced-move setting and standing orders for my seat."""
    game = _seated_game(request, game_id)
    if game is None:
        return redirect("games:lobby")
    engine = get_engine(game.engine)
    forced = {"": None, "on": True, "off": False}.get(request.POST.get("forced", ""))
    orders = _orders_from(request.POST, engine)
    try:
        autoplay.settings_set(game_id=game.pk, user=request.user, auto_forced=forced,
                              standing_orders=orders or None)
        messages.success(request, gettext("Your automatic moves for this game are saved."))
    except GameError as error:
        messages.error(request, error.message)
    return _back(game.pk)


@login_required
def profile_autoplay(request):
    """My defaults: forced moves on or off, and standing orders for each game."""
    engines = [engine for engine in all_engines() if engine.standing_orders]
    if request.method == "POST":
        orders = {engine.slug: {order["name"]: request.POST.get(
            f"{engine.slug}__{order['name']}", order["default"])
            for order in engine.standing_orders} for engine in engines}
        try:
            autoplay.profile_set(user=request.user,
                                 auto_play_forced=request.POST.get("auto_play_forced") == "on",
                                 standing_orders=orders)
            messages.success(request, gettext("Your automatic-move defaults are saved."))
            return redirect("games:profile_autoplay")
        except GameError as error:
            messages.error(request, error.message)
    current = autoplay.profile_read(user=request.user)
    return render(request, "games/autoplay_profile.html", {
        "auto_play_forced": current["auto_play_forced"],
        "engines": [{"slug": engine.slug, "name": engine_name(engine.slug),
                     "orders": [{**order, "value": current["standing_orders"][engine.slug][
                         order["name"]]}
                                for order in standing_orders_in(engine.slug,
                                                                engine.standing_orders)]}
                    for engine in engines],
    })
