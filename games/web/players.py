"""HTML pages about players and how they come together: profiles, leaderboards, finished games,
invite links, answers to invitations and rematches. Thin: read with games.profiles, change with
the services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games import selectors, services
from games.engines.registry import UnknownEngine, all_engines, get_engine
from games.exceptions import GameError
from games.models import GameStatus
from games.presentation.rating_chart import rating_chart
from games.selectors import profiles
from games.services import invitations as invites
from games.services import ratings

GAMES_PER_PAGE = 20
#: The leading players each game's card shows on the page of all leaderboards.
LEADERS_SHOWN = 3


def _engine_filter(request) -> str | None:
    slug = request.GET.get("engine") or None
    if slug is not None and slug not in {engine.slug for engine in all_engines()}:
        return None
    return slug


def _finished_page(request, games):
    # Each card reads its game's seats twice (standings, whether it was rated): one query.
    games = games.prefetch_related("seats__user")
    page = Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    return page, [(game, profiles.result_rows(game)) for game in page.object_list]


def user_profile(request, username):
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    engine = _engine_filter(request)
    games = profiles.finished_games(request.user, player=player, engine=engine).select_related(
        "rating_application")
    page, finished = _finished_page(request, games)
    return render(request, "players/profile.html", {
        "player": player,
        "profile": profiles.profile(player, request.user),
        "current": profiles.current_games(player, request.user)[:20],
        "finished": finished,
        "page": page,
        "engine": engine,
        "engines": all_engines(),
        "provisional_games": ratings.PROVISIONAL_GAMES,
        "rating_charts": _rating_charts(player),
    })


def _rating_charts(player) -> list[dict]:
    """One chart per game the player has a rating history at: its caption and its SVG."""
    charts = []
    for slug, points in sorted(profiles.rating_history(player).items()):
        caption = gettext("%(game)s: rating after each rated game") % {
            "game": profiles.engine_name(slug)}
        charts.append({"caption": caption, "svg": rating_chart(points, title=caption)})
    return charts


def leaderboards(request):
    """Every game's leaderboard: its top players and how many are rated, one card per engine."""
    boards = [{"engine": engine, "top": list(ratings.leaderboard(engine.slug)[:LEADERS_SHOWN]),
               "rated_players": ratings.leaderboard(engine.slug).count()}
              for engine in all_engines()]
    return render(request, "players/leaderboards.html", {
        "boards": boards, "provisional_games": ratings.PROVISIONAL_GAMES})


def leaderboard(request, engine):
    try:
        game_engine = get_engine(engine)
    except UnknownEngine:
        raise Http404(gettext("There is no such game.")) from None
    page = Paginator(ratings.leaderboard(engine), 50).get_page(request.GET.get("page"))
    return render(request, "players/leaderboard.html", {
        "engine": game_engine, "page": page, "engines": all_engines(),
        "start_rank": page.start_index(), "provisional_games": ratings.PROVISIONAL_GAMES,
    })


def finished_games(request):
    engine = _engine_filter(request)
    games = profiles.finished_games(request.user, engine=engine).select_related(
        "rating_application")
    page, finished = _finished_page(request, games)
    return render(request, "players/finished.html", {
        "finished": finished, "page": page, "engine": engine, "engines": all_engines(),
    })


def invite_link(request, token):
    """The page an invite link opens: Join when logged in; otherwise sign up or log in first,
    and come back here (the `next` of both forms)."""
    try:
        link = invites.invite_link_open(token)
    except GameError as error:
        return render(request, "players/invite.html", {"error": error.message}, status=400)
    game = link.game
    seat = selectors.seat_of(game, request.user)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('account_login')}?next={request.path}")
        try:
            invites.invite_link_join(token=token, user=request.user)
        except GameError as error:
            messages.error(request, error.message)
            return redirect(request.path)
        messages.success(request, gettext("You joined the game."))
        return redirect("games:detail", game_id=game.pk)
    if seat is not None:
        return redirect("games:detail", game_id=game.pk)
    if game.status != GameStatus.OPEN:
        # A link outlives its game's lobby, and whoever holds it may not be one of its players:
        # it no longer says anything about the game (its name, players, options).
        return render(request, "players/invite.html", {"error": gettext(
            "This invite link no longer opens a game: the game it named has started or ended.")},
            status=410)
    refusal = None
    if request.user.is_authenticated and game.status == GameStatus.OPEN:
        refusal = services.join_refusal(game, request.user, via_link=True)
    return render(request, "players/invite.html", {
        "game": game,
        "engine_name": profiles.engine_name(game.engine),
        "seats": list(game.seats.select_related("user")),
        "open": game.status == GameStatus.OPEN and game.seats.count() < game.num_players,
        "refusal": refusal,
        "next": request.path,
    })


@login_required
@require_POST
def invitation_decline(request, game_id):
    try:
        services.invitation_decline(game_id=game_id, user=request.user)
    except GameError as error:
        messages.error(request, error.message)
        return redirect("games:lobby")
    messages.success(request, gettext("You declined the invitation."))
    return redirect("games:lobby")


@login_required
@require_POST
def game_rematch(request, game_id):
    game = get_object_or_404(selectors.game_list(), pk=game_id)
    if not selectors.can_view(game, request.user):
        raise Http404(gettext("There is no such game."))
    try:
        rematch = services.game_rematch(game_id=game.pk, user=request.user)
    except GameError as error:
        messages.error(request, error.message)
        return redirect("games:detail", game_id=game.pk)
    messages.success(request, gettext("Rematch offered: it starts when every player accepts."))
    return redirect("games:detail", game_id=rematch.pk)
