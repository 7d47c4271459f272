"""A client generated from the live schema works: people play a full game of every engine and
player count the issue names through the generated code alone (login, lobby, their game list
before anyone moved, legal actions, moves, standings, profiles, the leaderboard), against a live
server; every answer parses into typed models.

Prints per engine the HTTP requests and the wall time of the game."""

from __future__ import annotations

import random
import time

import pytest

from games.engines.registry import all_engines
from tests.api.generated import (
    assert_parsed,
    fetch_schema,
    generate_client,
    import_every_module,
)
from tests.factories import PASSWORD, UserFactory, confirm_email

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: More moves than any full game of a shipped engine takes at three players.
MAX_MOVES = 5000


@pytest.fixture(scope="module")
def generated(tmp_path_factory, request):
    """The client package, generated once per module from the live server's schema."""
    live_server = request.getfixturevalue("live_server")
    directory = tmp_path_factory.mktemp("generated-client")
    schema = fetch_schema(live_server.url, directory / "schema.json")
    return generate_client(schema, directory)


class Counted:
    """Counts the HTTP requests the generated code sends."""

    def __init__(self):
        self.requests = 0

    def __call__(self, request):
        self.requests += 1


def _login(tc, base_url, user, counter):
    from turnpost_client.api.tokens import login_with_password
    from turnpost_client.models import TokenRequestRequest

    anonymous = tc.Client(base_url=base_url, httpx_args={"event_hooks": {"request": [counter]}})
    answer = login_with_password.sync(client=anonymous, body=TokenRequestRequest(
        username=user.username, password=PASSWORD))
    assert hasattr(answer, "token"), answer
    return tc.AuthenticatedClient(base_url=base_url, token=answer.token,
                                  httpx_args={"event_hooks": {"request": [counter]}})


@pytest.fixture(autouse=True)
def _quiet_http_log():
    import logging

    logging.getLogger("httpx").setLevel(logging.WARNING)


def parsed(response):
    """The parsed answer of a `sync_detailed` call, checked typed against its JSON."""
    import json

    assert response.status_code == 200, response.content
    assert_parsed(response.parsed, json.loads(response.content))
    return response.parsed


def play_full_game(tc, base_url, slug: str, users, seed: int) -> dict:
    from turnpost_client.api.account import list_my_games
    from turnpost_client.api.games import create_game, get_game, join_game, start_game
    from turnpost_client.api.moves import list_legal_actions, submit_action
    from turnpost_client.api.players import get_leaderboard, get_user_profile
    from turnpost_client.models import (
        ActionSubmitRequest,
        ActionSubmitRequestAction,
        EngineEnum,
        GameCreateRequest,
        GameStatusEnum,
        ListMyGamesStatus,
    )

    counter = Counted()
    started = time.perf_counter()
    clients = [_login(tc, base_url, user, counter) for user in users]
    # The schema names the games on offer: a typed client takes one of them.
    game = create_game.sync(client=clients[0], body=GameCreateRequest(engine=EngineEnum(slug),
                                                                     num_players=len(users)))
    assert hasattr(game, "id"), game
    for client in clients[1:]:
        assert hasattr(join_game.sync(game.id, client=client), "id")
    game = start_game.sync(game.id, client=clients[0])
    assert game.status == GameStatusEnum.ACTIVE, game
    client_of = {user.username: client for user, client in zip(users, clients, strict=True)}
    by_seat = {seat.number: client_of[seat.username] for seat in game.seats}
    # What a bot does first (docs/writing-a-client.md): list its games, seat 0 before anyone
    # has moved (`last_move` null).
    for number in sorted(by_seat):
        listed = parsed(list_my_games.sync_detailed(client=by_seat[number]))
        assert [item.id for item in listed.results] == [game.id]
    chooser = random.Random(seed)
    moves = stale = 0
    # What a move's answer says is enough to go on: the version, the status, the awaited seats.
    status, awaiting, version = "active", game.awaiting_seats, game.version
    while status == "active" and moves < MAX_MOVES:
        if not awaiting:  # a step for a worker is under way
            game = get_game.sync(game.id, client=clients[0])
            status, awaiting, version = game.status.value, game.awaiting_seats, game.version
            continue
        client = by_seat[awaiting[0]]
        legal = list_legal_actions.sync(game.id, client=client)
        assert isinstance(legal, list) and legal, legal
        choice = chooser.choice(legal)
        answer = submit_action.sync(game.id, client=client, body=ActionSubmitRequest(
            action=ActionSubmitRequestAction.from_dict(choice.action.to_dict()),
            version=version))
        if getattr(answer, "code", None) == "stale_version":
            stale += 1
            game = get_game.sync(game.id, client=clients[0])
            status, awaiting, version = game.status.value, game.awaiting_seats, game.version
            continue
        assert hasattr(answer, "awaiting_seats"), answer
        moves += 1
        status, awaiting, version = answer.status.value, answer.awaiting_seats, answer.version
    game = parsed(get_game.sync_detailed(game.id, client=clients[0]))
    assert game.status == GameStatusEnum.FINISHED, f"{slug}: not over after {moves} moves"
    assert sorted(standing.rank for standing in game.standings)[0] == 1
    assert all(standing.rating is None or standing.rating.after is not None
               for standing in game.standings)
    parsed(list_my_games.sync_detailed(client=clients[0], status=ListMyGamesStatus.FINISHED))
    profile = parsed(get_user_profile.sync_detailed(users[0].username, client=clients[1]))
    assert profile.engines[0].played >= 1 and profile.head_to_head.games >= 1
    parsed(get_leaderboard.sync_detailed(slug, client=clients[0]))
    return {"moves": moves, "requests": counter.requests, "stale": stale,
            "seconds": time.perf_counter() - started, "winners": game.result["winners"]}


def test_every_generated_module_imports(generated):
    names = import_every_module(generated)
    assert any(name.endswith("submit_action") for name in names)
    assert any(name.endswith("get_engine") for name in names)


#: The games the issue played (engine, players); every shipped engine is among them.
GAMES = [("stone_age", 2), ("seven_wonders", 3), ("seven_wonders", 2), ("caverna", 2)]


def test_every_shipped_engine_is_played():
    assert {slug for slug, _ in GAMES} == {engine.slug for engine in all_engines()
                                           if engine.slug != "toy"}


@pytest.mark.slow
@pytest.mark.parametrize("slug, players", GAMES)
def test_people_play_a_full_game_through_the_generated_client(generated, live_server, slug,
                                                              players):
    users = [confirm_email(UserFactory()) for _ in range(players)]
    outcome = play_full_game(generated, live_server.url, slug, users, seed=15)
    print(f"\n{slug} {players}p: {outcome['moves']} moves, {outcome['requests']} requests, "
          f"{outcome['seconds']:.1f} s, {outcome['stale']} stale, winners {outcome['winners']}")
    assert outcome["moves"] > 10
