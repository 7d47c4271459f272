"""Moves made the way every entrance makes them: through the service, committed."""

from __future__ import annotations

from games import services
from games.engines.registry import get_engine
from games.models import Game


def play_moves(game_id: int, count: int) -> list[int]:
    """Plays the first legal action of the first awaited seat `count` times; returns the game's
    version after each move (chance steps may add entries of their own)."""
    versions = []
    for _ in range(count):
        game = Game.objects.get(pk=game_id)
        engine = get_engine(game.engine)
        seat = engine.active_seats(game.state)[0]
        user = game.seats.get(number=seat).user
        action = engine.legal_actions(game.state, seat)[0]
        result = services.game_action_submit(game_id=game_id, user=user, action=action,
                                             expected_version=game.version)
        versions.append(result.game.version)
    return versions


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}
