"""A client generated from the live schema works: three people play a full game of every engine
through the generated code alone (login, lobby, legal actions, moves), against a live server.

Prints per engine the HTTP requests and the wall time of the game."""

from __future__ import annotations

import random
import time

import pytest

from games.engines.registry import all_engines
from tests.api.generated import fetch_schema, generate_client, import_every_module
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


def play_full_game(tc, base_url, slug: str, users, seed: int) -> dict:
    from turnpost_client.api.games import create_game, get_game, join_game, start_game
    from turnpost_client.api.moves import list_legal_actions, submit_action
    from turnpost_client.models import (
        ActionSubmitRequest,
        ActionSubmitRequestAction,
        GameCreateRequest,
        GameStatusEnum,
    )

    counter = Counted()
    started = time.perf_counter()
    clients = [_login(tc, base_url, user, counter) for user in users]
    game = create_game.sync(client=clients[0], body=GameCreateRequest(engine=slug,
                                                                     num_players=len(users)))
    assert hasattr(game, "id"), game
    for client in clients[1:]:
        assert hasattr(join_game.sync(game.id, client=client), "id")
    game = start_game.sync(game.id, client=clients[0])
    assert game.status == GameStatusEnum.ACTIVE, game
    client_of = {user.username: client for user, client in zip(users, clients, strict=True)}
    by_seat = {seat.number: client_of[seat.username] for seat in game.seats}
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
    game = get_game.sync(game.id, client=clients[0])
    assert game.status == GameStatusEnum.FINISHED, f"{slug}: not over after {moves} moves"
    return {"moves": moves, "requests": counter.requests, "stale": stale,
            "seconds": time.perf_counter() - started, "winners": game.result["winners"]}


def test_every_generated_module_imports(generated):
    names = import_every_module(generated)
    assert any(name.endswith("submit_action") for name in names)
    assert any(name.endswith("get_engine") for name in names)


@pytest.mark.slow
@pytest.mark.parametrize("slug", [engine.slug for engine in all_engines()
                                  if engine.slug != "toy"])
def test_three_people_play_a_full_game_through_the_generated_client(generated, live_server,
                                                                    slug):
    users = [confirm_email(UserFactory()) for _ in range(3)]
    outcome = play_full_game(generated, live_server.url, slug, users, seed=15)
    print(f"\n{slug}: {outcome['moves']} moves, {outcome['requests']} requests, "
          f"{outcome['seconds']:.1f} s, {outcome['stale']} stale, winners {outcome['winners']}")
    assert outcome["moves"] > 10
