"""A player's open game stream is a look at the game (games/live/presence.py): it is noted when
the stream opens and at each heartbeat, for seated players only, in the cache the uvicorn
process shares with this one; notifications hold a turn email back while it lasts."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.live import presence
from tests.api.clients import token_of
from tests.conftest import wait_for
from tests.factories import UserFactory, started_game
from tests.live.helpers import auth
from tests.live.sse import SSEStream

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def test_a_players_open_stream_is_a_look_at_the_game_a_spectators_is_not(asgi_server):
    game, users = started_game(2, engine="stone_age", seed="stream-presence")
    spectator = UserFactory()
    assert presence.last_look(user_id=users[1].pk, game_id=game.pk) is None
    watching = SSEStream(f"{asgi_server}/api/v1/games/{game.pk}/stream",
                         auth(token_of(spectator)))
    playing = SSEStream(f"{asgi_server}/api/v1/games/{game.pk}/stream", auth(token_of(users[1])))
    assert watching.next_event()["event"] == playing.next_event()["event"] == "snapshot"
    assert wait_for(lambda: presence.is_open(user_id=users[1].pk, game_id=game.pk,
                                             now=timezone.now()), timeout=10)
    first = presence.last_look(user_id=users[1].pk, game_id=game.pk)
    # Each heartbeat (every second on the server under test) notes it again.
    assert wait_for(lambda: presence.last_look(user_id=users[1].pk, game_id=game.pk) > first,
                    timeout=10)
    assert presence.last_look(user_id=spectator.pk, game_id=game.pk) is None
    watching.close()
    playing.close()
