"""Issue: no input can corrupt a game. Through the REST API, a legal move whose numbers or shape
were changed (3 -> 3.0, true, "3"; an extra key) is refused with 422 and changes nothing, in every
shipped engine; the listed action itself is then accepted."""

from __future__ import annotations

import copy
import json
import random

import pytest
from rest_framework.test import APIClient

from games import services
from games.engines.base import canonical_action
from games.engines.registry import get_engine
from games.models import ActionSource, Game
from tests.factories import committed, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

PLAYERS = {"stone_age": 2, "seven_wonders": 3, "caverna": 2}


def _numbers_in(value) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    if isinstance(value, dict):
        return any(_numbers_in(item) for item in value.values())
    if isinstance(value, list):
        return any(_numbers_in(item) for item in value)
    return False


def _first_int_as(value, kind):
    """A copy of `value` with its first int (depth first) turned into `kind` of it."""
    done = False

    def walk(item):
        nonlocal done
        if done:
            return item
        if isinstance(item, int) and not isinstance(item, bool):
            done = True
            return {"float": float(item), "bool": bool(item), "string": str(item)}[kind]
        if isinstance(item, dict):
            return {key: walk(child) for key, child in item.items()}
        if isinstance(item, list):
            return [walk(child) for child in item]
        return item

    return walk(copy.deepcopy(value))


def _play_until_a_number_is_listed(game, users, engine, rng):
    """Random legal moves through the service until the awaited human seat is offered a legal
    action with a number in it; returns (game, seat, that action)."""
    for _ in range(400):
        game.refresh_from_db()
        if game.needs_resolution:
            with committed():
                services.game_resolve(game_id=game.pk)
            continue
        seat = engine.active_seats(game.state)[0]
        legal = engine.legal_actions(game.state, seat)
        numbered = [action for action in legal if _numbers_in(action)]
        if numbered:
            return game, seat, rng.choice(numbered)
        with committed():
            services.game_action_submit(game_id=game.pk, user=users[seat],
                                        action=rng.choice(legal), expected_version=game.version,
                                        source=ActionSource.API)
    raise AssertionError("no legal action with a number was offered in 400 moves")


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize("slug", sorted(PLAYERS))
def test_type_changed_legal_moves_are_refused_and_change_nothing(slug):
    engine = get_engine(slug)
    game, users = started_game(PLAYERS[slug], engine=slug, seed=f"integrity-{slug}")
    game, seat, listed = _play_until_a_number_is_listed(game, users, engine, random.Random(7))
    client = _client(users[seat])
    url = f"/api/v1/games/{game.pk}/actions/"
    state_before = json.dumps(game.state, sort_keys=True)
    mutations = [_first_int_as(listed, kind) for kind in ("float", "bool", "string")]
    mutations.append({**listed, "extra": 1})
    for mutated in mutations:
        response = client.post(url, {"action": mutated, "version": game.version}, format="json")
        assert response.status_code == 422, (mutated, response.content)
        body = response.json()
        assert body["code"] == "illegal_action" and body["message"]
        stored = Game.objects.get(pk=game.pk)
        assert stored.version == game.version
        assert json.dumps(stored.state, sort_keys=True) == state_before
    with committed():
        accepted = client.post(url, {"action": listed, "version": game.version}, format="json")
    assert accepted.status_code == 200, accepted.content
    assert Game.objects.get(pk=game.pk).actions.order_by("-sequence").first().payload == listed


def test_the_audited_stone_age_float_count_is_refused():
    game, users = started_game(2, engine="stone_age", seed="float-count")
    engine = get_engine("stone_age")
    seat = engine.active_seats(game.state)[0]
    assert {"type": "place", "location": "hunting_grounds", "count": 1} in engine.legal_actions(
        game.state, seat)
    response = _client(users[seat]).post(
        f"/api/v1/games/{game.pk}/actions/",
        {"action": {"type": "place", "location": "hunting_grounds", "count": 1.0},
         "version": game.version}, format="json")
    assert response.status_code == 422
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == game.version and stored.actions.count() == 0


def test_keys_in_another_order_are_the_same_move():
    """Canonical JSON sorts keys: the order a client writes them in does not matter."""
    game, users = started_game(2, engine="stone_age", seed="key-order")
    engine = get_engine("stone_age")
    seat = engine.active_seats(game.state)[0]
    listed = engine.legal_actions(game.state, seat)[0]
    reordered = dict(reversed(list(listed.items())))
    with committed():
        response = _client(users[seat]).post(
            f"/api/v1/games/{game.pk}/actions/", {"action": reordered, "version": game.version},
            format="json")
    assert response.status_code == 200, response.content
    entry = Game.objects.get(pk=game.pk).actions.get()
    assert canonical_action(entry.payload) == canonical_action(listed)
