"""Taking back moves through the service and the API: back to the start of one's own turn, one
move at a time, never across a reveal; the log keeps every entry and the version only grows."""

from __future__ import annotations

import pytest

from games import services
from games.engines.registry import get_engine
from games.exceptions import NotAllowed, StaleVersion
from games.models import Action, ActionKind
from games.services.undo import UndoRefused, can_undo
from tests.api.clients import token_client
from tests.factories import UserFactory, committed, started_game

pytestmark = pytest.mark.django_db


def submit(game, user, action):
    game.refresh_from_db()
    with committed():
        return services.game_action_submit(game_id=game.pk, user=user, action=action,
                                           expected_version=game.version)


def undo(game, user, version=None):
    game.refresh_from_db()
    with committed():
        return services.game_move_undo(game_id=game.pk, user=user,
                                       expected_version=game.version if version is None
                                       else version)


def play_until(game, users, wanted, limit=400):
    """Plays bot moves for whoever is to act until `wanted(engine, state, seat)` holds for the
    seat to act; returns that seat."""
    engine = get_engine(game.engine)
    for _ in range(limit):
        game.refresh_from_db()
        seat = engine.active_seats(game.state)[0]
        if wanted(engine, game.state, seat):
            return seat
        submit(game, users[seat], engine.bot_action(game.state, seat))
    raise AssertionError("the wanted position never came")


def own_steps_only(game, engine):
    """Every step is the players' own here: none is played for them (test_autoplay covers undo
    across automatic steps)."""
    game.seats.update(auto_forced=False, standing_orders={
        order["name"]: "ask" for order in engine.standing_orders})


def caverna_turn_start(engine, state, seat):
    return any(action["type"] == "place" for action in engine.legal_actions(state, seat))


def test_a_multi_step_caverna_turn_is_taken_back_step_by_step_to_its_start():
    game, users = started_game(2, engine="caverna", seed="undo-caverna-1")
    engine = get_engine("caverna")
    own_steps_only(game, engine)
    seat = play_until(game, users, caverna_turn_start)
    player = users[seat]
    game.refresh_from_db()
    start_state, start_version = game.state, game.version
    place = next(a for a in engine.legal_actions(game.state, seat) if a["type"] == "place"
                 and a["space"] in ("drift_mining", "excavation", "wood_gathering", "logging",
                                    "ore_mining", "sustenance", "housework", "clearing"))
    submit(game, player, place)
    game.refresh_from_db()
    assert engine.active_seats(game.state) == [seat], "placing a dwarf starts a multi-step turn"
    middle_state = game.state
    second = engine.legal_actions(game.state, seat)[0]
    submit(game, player, second)
    game.refresh_from_db()
    assert engine.active_seats(game.state) == [seat], "this seed's space has a third step"
    assert can_undo(engine, game, seat)

    result = undo(game, player)
    game.refresh_from_db()
    assert game.state == middle_state
    assert result.outcome["undone"] == start_version + 2
    assert game.version == start_version + 3, "an undo is a log entry: the version grows"

    undo(game, player)
    game.refresh_from_db()
    assert game.state == start_state, "back to the start of the turn"
    assert game.version == start_version + 4

    entries = list(game.actions.filter(sequence__gt=start_version).order_by("sequence"))
    assert [e.kind for e in entries] == ["move", "move", "undo", "undo"]
    assert entries[0].undone_by == entries[3].sequence
    assert entries[1].undone_by == entries[2].sequence
    assert entries[2].payload == {"undoes": entries[1].sequence}
    assert services.game_replay_verify(game=game)
    assert services.game_health_problem(game=game) is None

    with pytest.raises(UndoRefused, match="no move of yours"):
        undo(game, player)
    # The turn goes on from its start: the same move can be made again.
    submit(game, player, place)
    game.refresh_from_db()
    assert game.version == start_version + 5
    assert services.game_replay_verify(game=game)


def test_undo_is_refused_after_a_die_roll_and_after_the_turn_passes():
    game, users = started_game(2, engine="stone_age", seed="undo-stone-age-1")
    engine = get_engine("stone_age")
    own_steps_only(game, engine)

    def hunting_to_resolve(engine, state, seat):
        return {"type": "resolve", "location": "hunting_grounds"} in engine.legal_actions(
            state, seat)

    # A placement that hands the turn to the other player cannot be taken back.
    game.refresh_from_db()
    seat = engine.active_seats(game.state)[0]
    submit(game, users[seat], {"type": "place", "location": "hunting_grounds", "count": 1})
    with pytest.raises(UndoRefused, match="revealed something"):
        undo(game, users[seat])

    seat = play_until(game, users, hunting_to_resolve)
    submit(game, users[seat], {"type": "resolve", "location": "hunting_grounds"})
    game.refresh_from_db()
    last = game.actions.order_by("-sequence").first()
    assert last.kind == ActionKind.RESOLVE, "the dice were rolled in the move's request"
    version = game.version
    with pytest.raises(UndoRefused, match="no move of yours"):
        undo(game, users[seat])
    game.refresh_from_db()
    assert game.version == version
    assert not Action.objects.filter(game=game, undone_by__isnull=False).exists()


def test_undo_needs_the_current_version_and_a_seat():
    game, users = started_game(2, engine="caverna", seed="undo-caverna-2")
    engine = get_engine("caverna")
    seat = play_until(game, users, caverna_turn_start)
    game.refresh_from_db()
    submit(game, users[seat], next(a for a in engine.legal_actions(game.state, seat)
                                   if a["type"] == "place"))
    game.refresh_from_db()
    with pytest.raises(StaleVersion):
        undo(game, users[seat], version=game.version - 1)
    with pytest.raises(NotAllowed):
        undo(game, UserFactory())
    with pytest.raises(UndoRefused):
        undo(game, users[1 - seat])


def test_the_api_takes_back_a_move_and_explains_a_refusal():
    game, users = started_game(2, engine="caverna", seed="undo-caverna-3")
    engine = get_engine("caverna")
    own_steps_only(game, engine)
    seat = play_until(game, users, caverna_turn_start)
    game.refresh_from_db()
    before = game.state
    client = token_client(users[seat])
    place = next(a for a in engine.legal_actions(game.state, seat) if a["type"] == "place")
    response = client.post(f"/api/v1/games/{game.pk}/actions/",
                           {"action": place, "version": game.version}, format="json")
    assert response.status_code == 200, response.content
    version = response.json()["version"]
    game.refresh_from_db()
    assert engine.active_seats(game.state) == [seat], "placing a dwarf starts a multi-step turn"

    stale = client.post(f"/api/v1/games/{game.pk}/undo/", {"version": version - 1},
                        format="json")
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    response = client.post(f"/api/v1/games/{game.pk}/undo/", {"version": version},
                           format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["version"] == version + 1 and body["undone"] == version
    game.refresh_from_db()
    assert game.state == before

    refused = client.post(f"/api/v1/games/{game.pk}/undo/", {"version": body["version"]},
                          format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "undo_refused"
    assert "no move of yours" in refused.json()["message"]

    log = client.get(f"/api/v1/games/{game.pk}/log/?since={version - 1}").json()["results"]
    assert [(e["kind"], e["undone_by"]) for e in log] == [("move", version + 1),
                                                         ("undo", None)]
    bad = client.post(f"/api/v1/games/{game.pk}/undo/", {"version": "x"}, format="json")
    assert bad.status_code == 400


def test_the_game_page_offers_undo_and_takes_the_move_back(client):
    game, users = started_game(2, engine="caverna", seed="undo-caverna-4")
    engine = get_engine("caverna")
    seat = play_until(game, users, caverna_turn_start)
    client.force_login(users[seat])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Undo my last move" not in page, "nothing of this turn to take back yet"
    game.refresh_from_db()
    before = game.state
    submit(game, users[seat], next(a for a in engine.legal_actions(game.state, seat)
                                   if a["type"] == "place"))
    game.refresh_from_db()
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Undo my last move" in page
    other = client.__class__()
    other.force_login(users[1 - seat])
    assert "Undo my last move" not in other.get(f"/games/{game.pk}/").content.decode()
    with committed():
        response = client.post(f"/games/{game.pk}/undo/", {"version": game.version})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.state == before
    with committed():
        response = client.post(f"/games/{game.pk}/undo/", {"version": game.version},
                               follow=True)
    assert "no move of yours" in response.content.decode()
