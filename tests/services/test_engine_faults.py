"""Issue: a game can always continue. Engine code that fails, or a move that would leave a game
no seat can play, is refused as an engine fault (JSON, code engine_error, logged with the game and
the action) and nothing is saved; the deadline sweep carries on past such a game; `check_games`
finds stored games whose log no longer replays or that cannot continue."""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.engines import registry
from games.exceptions import EngineFault
from games.log import codec
from games.models import Game, Seat
from tests.engines.toy import ToyEngine
from tests.factories import committed, started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


class CrashingToy(ToyEngine):
    """Rolling the die hits a bug inside the engine (a TypeError, as odd input once did)."""

    slug = "toy_crashing"

    def apply(self, state, seat, action):
        if action == {"type": "roll"}:
            raise TypeError("unsupported operand type(s) for +: 'int' and 'NoneType'")
        return super().apply(state, seat, action)


class DeadEndToy(ToyEngine):
    """Banking leaves a state where the next seat is awaited but offered nothing."""

    slug = "toy_dead_end"

    def apply(self, state, seat, action):
        new = super().apply(state, seat, action)
        if action == {"type": "bank"}:
            new["stuck"] = True
        return new

    def legal_actions(self, state, seat):
        return [] if state.get("stuck") else super().legal_actions(state, seat)

    def active_seats(self, state):
        return [0] if state.get("stuck") else super().active_seats(state)


class BadTimeoutToy(ToyEngine):
    """Its timeout default is not one of the listed moves once the bids are revealed."""

    slug = "toy_bad_timeout"

    def timeout_action(self, state, seat):
        if state["phase"] == "play":
            return {"type": "bank", "amount": 1}
        return super().timeout_action(state, seat)


@pytest.fixture
def faulty_engines():
    engines = [CrashingToy(), DeadEndToy(), BadTimeoutToy()]
    for engine in engines:
        registry.register(engine)
    yield
    for engine in engines:
        registry.unregister(engine.slug)


def _in_play_phase(slug):
    """A two-seat game of `slug` whose secret bids are in and revealed: seat 0 to bank or roll."""
    game, users = started_game(2, engine=slug)
    for seat, user in enumerate(users):
        with committed():
            services.game_action_submit(game_id=game.pk, user=user,
                                        action={"type": "bid", "amount": seat + 1},
                                        expected_version=game.version + seat)
    game.refresh_from_db()
    assert game.state["phase"] == "play" and game.state["turn"] == 0
    return game, users


def _post(user, game, action):
    client = APIClient()
    client.force_authenticate(user)
    return client.post(f"/api/v1/games/{game.pk}/actions/",
                       {"action": action, "version": game.version}, format="json")


def _unchanged(game) -> bool:
    stored = Game.objects.get(pk=game.pk)
    return (stored.version == game.version and stored.actions.count() == game.version
            and json.dumps(stored.state, sort_keys=True) == json.dumps(game.state, sort_keys=True))


def test_an_engine_crash_is_a_json_engine_error_and_saves_nothing(faulty_engines, caplog):
    game, users = _in_play_phase("toy_crashing")
    with caplog.at_level(logging.ERROR, logger="games.services"):
        response = _post(users[0], game, {"type": "roll"})
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "engine_error"
    assert _unchanged(game)
    logged = [r for r in caplog.records if "Engine fault" in r.getMessage()]
    assert logged and f"game {game.pk}" in logged[0].getMessage()
    assert "'roll'" in logged[0].getMessage()


def test_a_move_into_a_dead_end_is_refused(faulty_engines, caplog):
    game, users = _in_play_phase("toy_dead_end")
    with caplog.at_level(logging.ERROR, logger="games.services"):
        response = _post(users[0], game, {"type": "bank"})
    assert response.status_code == 500 and response.json()["code"] == "engine_error"
    assert "unable to continue" in response.json()["message"]
    assert _unchanged(game)
    assert any("has no legal action" in r.getMessage() for r in caplog.records)
    # The game is not jammed: the other move is still there and works.
    with committed():
        assert _post(users[0], game, {"type": "roll"}).status_code == 200


def test_a_timeout_default_that_is_not_legal_is_an_engine_fault(faulty_engines):
    game, users = started_game(2, engine="toy_bad_timeout")
    with committed():
        services.game_action_submit(game_id=game.pk, user=users[0],
                                    action={"type": "bid", "amount": 2},
                                    expected_version=game.version)
    game.refresh_from_db()
    # The last bid makes the game ready to resolve (fine); revealing the bids then awaits a seat
    # whose timeout default is not a legal move: the resolution is refused, nothing saved.
    with pytest.raises(EngineFault), committed():
        services.game_action_submit(game_id=game.pk, user=users[1],
                                    action={"type": "bid", "amount": 1},
                                    expected_version=game.version)
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == game.version + 1 and stored.state["phase"] == "bid"
    assert stored.needs_resolution


def test_the_sweep_goes_on_past_a_faulty_game(faulty_engines):
    now = timezone.now()
    faulty, _ = _in_play_phase("toy_crashing")
    healthy, _ = started_game(2, engine="toy")
    # The crashing engine's timeout for seat 0 is a roll, which crashes.
    CrashingToy.timeout_action = lambda self, state, seat: (
        {"type": "roll"} if state["phase"] == "play" else {"type": "bid", "amount": 1})
    try:
        Seat.objects.filter(game__in=[faulty, healthy]).exclude(deadline_at=None).update(
            deadline_at=now - timedelta(minutes=1))
        with committed():
            report = services.deadlines_sweep(now=now)
    finally:
        del CrashingToy.timeout_action
    assert report.faulty_games == 1
    assert report.games == 1 and report.timed_out_seats == 2
    assert Game.objects.get(pk=healthy.pk).version > healthy.version
    assert _unchanged(faulty)


def _check_games(*args) -> tuple[str, int]:
    out = StringIO()
    try:
        call_command("check_games", *args, stdout=out)
    except CommandError as error:
        return out.getvalue(), error.returncode
    return out.getvalue(), 0


def test_check_games_passes_sound_games_and_names_unsound_ones():
    sound, users = started_game(2, engine="stone_age", seed="sound")
    drifted, _ = started_game(2, engine="stone_age", seed="drifted")
    bad_log, bad_log_users = started_game(2, engine="stone_age", seed="bad-log")
    output, code = _check_games()
    assert code == 0 and "with a problem" in output and "0 with a problem" in output

    # A stored state with a float where the engine keeps an int: it no longer matches its log.
    state = drifted.state
    state["players"][0]["food"] = float(state["players"][0]["food"])
    Game.objects.filter(pk=drifted.pk).update(state=state)
    # A log entry whose count was stored as 1.0 (as a lenient engine once accepted).
    with committed():
        services.game_action_submit(
            game_id=bad_log.pk, user=bad_log_users[_awaited(bad_log)],
            action={"type": "place", "location": "hunting_grounds", "count": 1},
            expected_version=bad_log.version)
    entry = Game.objects.get(pk=bad_log.pk).actions.get()
    entry.payload = {**entry.payload, "count": 1.0}
    entry.save(update_fields=["payload"])

    output, code = _check_games()
    assert code == 1
    assert f"game {drifted.pk} " in output and "different state" in output
    assert f"game {bad_log.pk} " in output and "does not replay" in output
    assert f"game {sound.pk} " not in output
    assert "2 with a problem" in output
    output, code = _check_games("--game", str(sound.pk))
    assert code == 0 and "Checked 1 game(s): 0 with a problem." in output


def test_check_games_finds_a_game_that_cannot_continue(faulty_engines):
    game, _ = _in_play_phase("toy_dead_end")
    # A move into the dead end, written straight into the database as an earlier release without
    # the playability check could have stored it: the log replays, but nobody can play on.
    engine = registry.get_engine("toy_dead_end")
    stuck = engine.apply(game.state, 0, {"type": "bank"})
    game.actions.create(sequence=game.version + 1, kind="move", seat_number=0,
                        payload={"type": "bank"}, source="api",
                        public_text=codec.pack(codec.literal("Seat 0 banks."), seat=0,
                                                  payload={"type": "bank"}))
    Game.objects.filter(pk=game.pk).update(state=stuck, version=game.version + 1)
    output, code = _check_games()
    assert code == 1 and f"game {game.pk} " in output and "cannot continue" in output
    assert "has no legal action" in output


def _awaited(game) -> int:
    from games.engines.registry import get_engine

    return get_engine(game.engine).active_seats(game.state)[0]
