"""POST /api/v1/games/{id}/resign/ and GET /api/v1/games/{id}/export/, and
`manage.py verify_export` replaying a finished game's export."""

from __future__ import annotations

import json
import random

import pytest
from django.core.management import CommandError, call_command

from games import selectors, services
from games.engines.registry import all_engines
from games.models import ActionSource, Game
from tests.api.clients import token_client
from tests.factories import UserFactory, committed, started_game

pytestmark = pytest.mark.django_db

ENGINES = [engine.slug for engine in all_engines() if engine.slug != "toy"]


def play_to_the_end(game: Game, users, seed: str, max_moves: int = 5000) -> Game:
    chooser = random.Random(seed)
    by_seat = dict(enumerate(users))
    for _ in range(max_moves):
        game = Game.objects.get(pk=game.pk)
        if game.status != "active":
            return game
        seat = chooser.choice(selectors.awaiting_seats(game))
        legal = selectors.legal_actions_for(game, by_seat[seat])
        with committed():
            services.game_action_submit(game_id=game.pk, user=by_seat[seat],
                                        action=chooser.choice(legal)["action"],
                                        expected_version=game.version,
                                        source=ActionSource.API)
    raise AssertionError("the game did not end")


def verify(tmp_path, export: dict) -> str:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    from io import StringIO

    out = StringIO()
    call_command("verify_export", str(path), stdout=out)
    return out.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize("slug", ENGINES)
def test_a_finished_games_export_replays_and_a_tampered_one_does_not(slug, tmp_path):
    game, users = started_game(3, engine=slug, seed=f"export-{slug}")
    game = play_to_the_end(game, users, seed=slug)
    export = token_client(users[1]).get(f"/api/v1/games/{game.pk}/export/").json()
    assert export["seed"] == game.seed and export["result"] == game.result
    assert len(export["actions"]) == game.version
    assert not any(entry["hidden"] for entry in export["actions"])
    assert [p["username"] for p in export["players"]] == [u.username for u in users]
    assert verify(tmp_path, export).startswith("OK:")

    cheated = json.loads(json.dumps(export))
    cheated["result"]["scores"][0] += 1
    with pytest.raises(CommandError, match="scores"):
        verify(tmp_path, cheated)
    moves = [entry for entry in export["actions"] if entry["kind"] == "move"]
    swapped = json.loads(json.dumps(export))
    index = export["actions"].index(moves[1])
    swapped["actions"][index]["seat"] = (moves[1]["seat"] + 1) % 3
    with pytest.raises(CommandError):
        verify(tmp_path, swapped)
    cut = {**export, "actions": export["actions"][:-1]}
    with pytest.raises(CommandError):
        verify(tmp_path, cut)


def test_a_running_games_export_hides_the_seed_and_others_secret_picks():
    game, users = started_game(3, engine="seven_wonders", seed="export-secret")
    # Past the wonder choice, into the first turn of picks.
    chooser = random.Random(3)
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.state["phase"] == "pick":
            break
        seat = selectors.awaiting_seats(game)[0]
        legal = selectors.legal_actions_for(game, users[seat])
        with committed():
            services.game_action_submit(game_id=game.pk, user=users[seat],
                                        action=chooser.choice(legal)["action"],
                                        expected_version=game.version)
    pick = selectors.legal_actions_for(game, users[0])[0]["action"]
    with committed():
        services.game_action_submit(game_id=game.pk, user=users[0], action=pick,
                                    expected_version=game.version)
    mine = token_client(users[0]).get(f"/api/v1/games/{game.pk}/export/").json()
    theirs = token_client(users[1]).get(f"/api/v1/games/{game.pk}/export/").json()
    for export in (mine, theirs):
        assert export["seed"] is None and export["result"] is None
        assert game.seed not in json.dumps(export)
    assert mine["actions"][-1]["payload"] == pick and not mine["actions"][-1]["hidden"]
    assert theirs["actions"][-1]["payload"] is None and theirs["actions"][-1]["hidden"]
    assert pick["card"] not in json.dumps(theirs["actions"][-1])


def test_resigning_hands_the_seat_to_a_bot_until_one_player_is_left(tmp_path):
    game, users = started_game(3, engine="stone_age", seed="resign")
    first = token_client(users[0])
    with committed():
        answer = first.post(f"/api/v1/games/{game.pk}/resign/")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["status"] == "active"
    seat = next(s for s in body["seats"] if s["username"] == users[0].username)
    assert seat["is_bot"] and seat["replaced_by_bot"]
    again = first.post(f"/api/v1/games/{game.pk}/take-back/")
    assert again.status_code == 409 and "resigned" in again.json()["message"]
    assert first.post(f"/api/v1/games/{game.pk}/resign/").status_code == 409
    outsider = token_client(UserFactory()).post(f"/api/v1/games/{game.pk}/resign/")
    assert outsider.status_code == 403
    # The bot plays the resigned seat: the game moves on with the other two.
    game.refresh_from_db()
    assert 0 not in selectors.awaiting_seats(game)
    from notifications.models import Notification

    # No "your time ran out, take your seat back" message for a player who resigned.
    assert not Notification.objects.filter(user=users[0], kind="timed_out").exists()

    with committed():
        last = token_client(users[1]).post(f"/api/v1/games/{game.pk}/resign/")
    assert last.status_code == 200
    result = last.json()["result"]
    assert last.json()["status"] == "finished"
    assert (result["by_resignation"], result["winners"], result["resigned"]) == (True, [2], [0, 1])
    assert len(result["scores"]) == 3  # the position scored where it stopped
    assert token_client(users[2]).post(f"/api/v1/games/{game.pk}/resign/").status_code == 409
    export = token_client(users[2]).get(f"/api/v1/games/{game.pk}/export/").json()
    assert [p["resigned"] for p in export["players"]] == [True, True, False]
    assert "resignation" in verify(tmp_path, export)


def test_in_a_two_player_game_resigning_ends_it():
    game, users = started_game(2, engine="stone_age", seed="resign-two")
    with committed():
        answer = token_client(users[1]).post(f"/api/v1/games/{game.pk}/resign/")
    assert answer.json()["status"] == "finished"
    assert answer.json()["result"]["winners"] == [0]
    assert all(seat["deadline_at"] is None for seat in answer.json()["seats"])
