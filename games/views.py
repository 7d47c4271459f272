"""HTML views of the phone-first web UI. Thin: read with selectors, change with services."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import select_template
from django.urls import reverse
from django.views.decorators.http import require_POST

from games import autoplay_views, selectors, services
from games.engines.registry import get_engine
from games.exceptions import GameError
from games.forms import GameCreateForm
from games.models import ActionSource, GameStatus, ReportReason
from games.names import seat_names, with_names

LOG_ENTRIES_SHOWN = 30
INVITATION_SENT = ("Invitation sent, if that name or email belongs to a player who is not in "
                   "this game yet.")


def lobby(request):
    user = request.user
    context = {"open_games": selectors.game_list_open(user=user)[:30]}
    if user.is_authenticated:
        context["awaiting"] = selectors.game_list(user=user, awaiting_me=True)[:50]
        context["my_games"] = selectors.game_list(user=user, mine=True).exclude(
            status__in=[GameStatus.FINISHED, GameStatus.ABORTED]
        )[:50]
        context["finished"] = selectors.game_list(user=user, mine=True).filter(
            status=GameStatus.FINISHED
        )[:10]
    return render(request, "games/lobby.html", context)


@login_required
def game_create(request):
    form = GameCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(
                creator=request.user,
                engine_slug=form.cleaned_data["engine"],
                num_players=form.cleaned_data["num_players"],
                options=form.chosen_options(),
                time_per_move=form.chosen_time_per_move(),
                reserve=form.chosen_reserve(),
                max_consecutive_timeouts=form.cleaned_data["max_consecutive_timeouts"],
                allow_spectators=form.cleaned_data["allow_spectators"],
            )
        except GameError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, "Game created. Share its page so others can join.")
            return redirect("games:detail", game_id=game.pk)
    return render(request, "games/create.html", {"form": form})


def _visible_game(request, game_id):
    game = get_object_or_404(selectors.game_list(), pk=game_id)
    if not selectors.can_view(game, request.user):
        raise Http404("There is no such game.")
    return game


def game_detail(request, game_id):
    game = _visible_game(request, game_id)
    engine = get_engine(game.engine)
    seat = selectors.seat_of(game, request.user)
    viewer_seat = seat.number if seat else None
    if seat is not None:
        services.seat_mark_seen(game=game, user=request.user)
    view = selectors.game_view_for(game, request.user)
    log = list(game.actions.order_by("-sequence")[:LOG_ENTRIES_SHOWN])
    names = seat_names(game)
    legal_actions = [{**choice, "description": with_names(choice["description"], names)}
                     for choice in selectors.legal_actions_for(game, request.user)]
    context = {
        "game": game,
        "engine": engine,
        "seat": seat,
        "seats": list(game.seats.all()),
        "vacations": selectors.vacations_now(game),
        "chat": list(
            game.chat_messages.select_related("author").order_by("-created_at")[:50])[::-1],
        "report_reasons": ReportReason.choices,
        "view": view,
        "view_json": json.dumps(view, indent=1, sort_keys=True) if view is not None else "",
        "legal_actions": legal_actions,
        "log": [(entry, with_names(entry.description_for(viewer_seat), names)) for entry in log],
        "seat_names": names,
        "result_rows": _result_rows(game),
        "is_creator": request.user.is_authenticated and game.created_by_id == request.user.pk,
        "can_join": request.user.is_authenticated and game.status == GameStatus.OPEN
        and seat is None and game.seats.count() < game.num_players,
        "board_template": select_template(
            [f"games/boards/{game.engine}.html", "games/boards/generic.html"]
        ).template.name,
    }
    context.update(autoplay_views.page_context(game, seat))
    return render(request, "games/detail.html", context)


def game_version(request, game_id):
    """What the game page polls to know when to refresh itself: cheap and free of secrets."""
    game = _visible_game(request, game_id)
    return JsonResponse({"version": game.version, "status": game.status,
                         "seats": game.seats.count()})


def _result_rows(game) -> list[dict]:
    if not game.result:
        return []
    seats = {seat.number: seat for seat in game.seats.all()}
    return [
        {
            "seat": seats.get(number),
            "score": score,
            "breakdown": game.result["breakdown"][number],
            "winner": number in game.result["winners"],
        }
        for number, score in enumerate(game.result["scores"])
    ]


def _lobby_action(request, game_id, change, success):
    try:
        change(game_id=game_id, user=request.user)
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, success)
    return redirect("games:detail", game_id=game_id)


@login_required
@require_POST
def game_join(request, game_id):
    _visible_game(request, game_id)
    return _lobby_action(request, game_id, services.game_join, "You joined the game.")


@login_required
@require_POST
def game_leave(request, game_id):
    _visible_game(request, game_id)
    return _lobby_action(request, game_id, services.game_leave, "You left the game.")


@login_required
@require_POST
def game_start(request, game_id):
    _visible_game(request, game_id)
    return _lobby_action(request, game_id, services.game_start, "The game has started.")


@login_required
@require_POST
def game_add_bot(request, game_id):
    _visible_game(request, game_id)
    return _lobby_action(request, game_id, services.game_add_bot, "A bot took a seat.")


@login_required
@require_POST
def game_invite(request, game_id):
    _visible_game(request, game_id)
    try:
        services.game_invite(game_id=game_id, inviter=request.user,
                             login=request.POST.get("username", ""))
    except GameError as error:
        messages.error(request, error.message)
    else:
        # The same words whoever was named: the page must not tell who has an account.
        messages.success(request, INVITATION_SENT)
    return redirect("games:detail", game_id=game_id)


@login_required
@require_POST
def game_take_back(request, game_id):
    _visible_game(request, game_id)
    try:
        services.seat_take_back(game_id=game_id, user=request.user)
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "You have your seat back.")
    return redirect("games:detail", game_id=game_id)


@login_required
@require_POST
def game_act(request, game_id):
    """Submits one of the listed legal actions, chosen by its index at the version shown."""
    game = _visible_game(request, game_id)
    try:
        version = int(request.POST["version"])
        index = int(request.POST["index"])
    except (KeyError, ValueError):
        messages.error(request, "That form was incomplete; please choose again.")
        return redirect("games:detail", game_id=game.pk)
    legal = selectors.legal_actions_for(game, request.user)
    if version != game.version:
        messages.error(request, "The game moved on while you were looking; here is the new state.")
        return redirect("games:detail", game_id=game.pk)
    if not 0 <= index < len(legal):
        messages.error(request, "That choice is no longer available.")
        return redirect("games:detail", game_id=game.pk)
    try:
        result = services.game_action_submit(
            game_id=game.pk,
            user=request.user,
            action=legal[index]["action"],
            expected_version=version,
            idempotency_key=request.POST.get("idempotency_key") or None,
            source=ActionSource.WEB,
        )
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, result.outcome["description"])
    return redirect("games:detail", game_id=game.pk)


@login_required
@require_POST
def game_chat_post(request, game_id):
    _visible_game(request, game_id)
    try:
        services.chat_post(game_id=game_id, user=request.user, body=request.POST.get("body", ""))
    except GameError as error:
        messages.error(request, error.message)
    return redirect(f"{reverse('games:detail', args=[game_id])}#chat")


@login_required
@require_POST
def report_create(request):
    back = request.POST.get("next") or reverse("games:lobby")
    if not back.startswith("/") or back.startswith("//"):
        back = reverse("games:lobby")
    try:
        object_id = int(request.POST.get("id", ""))
    except ValueError:
        messages.error(request, "That report was incomplete.")
        return redirect(back)
    try:
        services.report_create(reporter=request.user, target=request.POST.get("target", ""),
                               object_id=object_id, reason=request.POST.get("reason", ""),
                               details=request.POST.get("details", ""))
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "Thank you: the moderators will look at it.")
    return redirect(back)
