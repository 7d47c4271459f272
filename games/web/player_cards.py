"""A player's cards on tap (seed 003: pointing at a player's score shows the civilization cards
they hold): read from the engine's view for the viewer's seat, so hidden cards stay hidden."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from games import selectors
from games.presentation.names import seat_names


@require_GET
def player_cards(request, game_id: int):
    """The cards (7 Wonders: the built city; Caverna: the home board) of the player at
    `?seat=N`, as far as the viewer may see them; `&partial=1` answers the fragment the board
    shows. (A query, not a path: the boards are rendered without URLs too, tests/engines.)"""
    game = selectors.game_with_seats(game_id)
    access = selectors.game_access(request.user, game) if game is not None else None
    if access is None or not access.may_view or game.state is None:
        raise Http404(gettext("There is no such game."))
    raw = request.GET.get("seat", "")
    seat = int(raw) if raw.isdigit() and len(raw) < 4 else None
    names = seat_names(game)
    # Only the engine's view for the viewer's own seat (a spectator's: None) is read here.
    shown = selectors.rendered_view(game, access.seat_number, language=None, names=names)
    player = next((entry for entry in shown.get("players", [])
                   if isinstance(entry, dict) and entry.get("seat") == seat), None)
    if player is None:
        raise Http404(gettext("There is no such player in this game."))
    context = {"game": game, "p": player, "name": names.get(seat, ""),
               "is_viewer": seat == access.seat_number and seat is not None}
    template = ("games/_player_cards.html" if request.GET.get("partial")
                else "games/player_cards.html")
    return render(request, template, context)
