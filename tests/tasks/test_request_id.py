"""The request id (X-Request-ID) goes with the tasks a request queues: a real worker logs each
task's lines under the id of the request that queued it; a task run in-process leaves the
request's own id in place."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Game
from tests.conftest import wait_for
from tests.factories import open_game

BID = {"type": "bid", "amount": 2}


def _bid_by_two_of_three():
    game, users = open_game(3)
    game = services.game_start(game_id=game.pk, user=users[0])
    seats = {seat.number: seat.user for seat in game.seats.all()}
    for seat in (0, 1):
        services.game_action_submit(game_id=game.pk, user=seats[seat], action=BID,
                                    expected_version=seat)
    return game, seats[2]


def _last_bid(game, user, request_id: str):
    client = APIClient()
    client.force_authenticate(user)
    return client.post(f"/api/v1/games/{game.pk}/actions/", {"action": BID, "version": 2},
                       format="json", HTTP_X_REQUEST_ID=request_id)


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_task_queued_during_a_request_logs_that_requests_id(worker_queue, tmp_path):
    game, last = _bid_by_two_of_three()
    request_id = str(uuid.uuid4())
    # The last bid queues the step that resolves the bids (games.tasks.resolve_game).
    answer = _last_bid(game, last, request_id)
    assert answer.status_code == 200, answer.content
    assert answer["X-Request-ID"] == request_id
    worker_queue["start"]()
    assert wait_for(lambda: Game.objects.get(pk=game.pk).version == 4), "worker did not resolve"
    log = tmp_path / "worker.log"

    def logged() -> list[str]:
        return [line for line in log.read_text().splitlines()
                if "games.tasks.resolve_game" in line and "succeeded" in line]

    assert wait_for(logged), log.read_text()[-2000:]
    assert logged()[0].startswith(f"[{request_id}] INFO celery.app.trace: "), logged()


@pytest.mark.django_db(transaction=True)
def test_a_task_run_in_process_leaves_the_requests_id_in_place():
    game, last = _bid_by_two_of_three()
    request_id = str(uuid.uuid4())
    answer = _last_bid(game, last, request_id)
    assert answer.status_code == 200, answer.content
    assert Game.objects.get(pk=game.pk).version == 4  # resolved in-process, in the request
    assert answer["X-Request-ID"] == request_id
