"""On PostgreSQL: while 7 Wonders turns resolve, every read of the game (the API's game and legal
actions, the event stream's snapshot, the game page) answers from one version of it."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection
from django.test import Client

from games import selectors, services
from games.api.streams import _game_start
from games.engines.registry import get_engine
from games.log.replay import state_at
from games.models import Game, GameStatus
from games.presentation.names import seat_names
from games.presentation.texts import view_texts
from tests.api.clients import token_client
from tests.factories import started_game
from tests.services.racing import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 8


def _plain(value):
    """As a JSON answer carries it (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(value))


def _play_rounds(game_id: int, users: list) -> None:
    """Each round: every awaited seat picks at once, then the turn resolves."""
    for _ in range(ROUNDS):
        game = selectors.game_with_seats(game_id)
        if game.status != GameStatus.ACTIVE:
            return
        movers = [users[seat] for seat in get_engine(game.engine).active_seats(game.state)]
        picks = {user.pk: selectors.legal_actions_for(game, user)[0]["action"]
                 for user in movers}
        race([
            (lambda user=user, action=picks[user.pk], seen=game.version:
             services.game_action_submit(game_id=game_id, user=user, action=action,
                                         expected_version=seen))
            for user in movers
        ])
        services.game_resolve(game_id=game_id)


def _read_until(done: threading.Event, read, answers: list) -> None:
    try:
        while not done.is_set():
            answers.append(read())
    finally:
        connection.close()


def test_every_read_answers_from_one_version_while_turns_resolve():
    game, users = started_game(3, engine="seven_wonders", seed="one-snapshot")
    engine = get_engine(game.engine)
    names = seat_names(game)
    detail, actions = token_client(users[0]), token_client(users[1])
    page = Client()
    page.force_login(users[0])
    url = f"/api/v1/games/{game.pk}/"

    def read_detail():
        response = detail.get(url)
        body = response.json()
        return ("detail", 0, body["version"], body["awaiting_seats"], body["view"],
                response["ETag"])

    def read_actions():
        return "actions", 1, None, None, actions.get(f"{url}actions/").json(), None

    def read_snapshot():
        shown = _game_start(game.pk, users[2])["snapshot"]
        return "snapshot", 2, shown["version"], shown["awaiting"], _plain(shown["view"]), None

    def read_page():
        # The test client collects every template rendered meanwhile, in any thread (a turn
        # email draws the recipient's board from the board template): take the page's own.
        response = page.get(f"/games/{game.pk}/")
        names = [template.name for template in response.templates]
        context = response.context[names.index("games/detail.html")]
        awaited = [row["number"] for row in context["legend"] if row["state"] == "to act"]
        return "page", 0, context["game"].version, awaited, _plain(context["view"]), None

    done = threading.Event()
    answers: dict[str, list] = {}
    readers = []
    for read in (read_detail, read_actions, read_snapshot, read_page):
        answers[read.__name__] = []
        readers.append(threading.Thread(target=_read_until,
                                        args=(done, read, answers[read.__name__])))
    for reader in readers:
        reader.start()
    try:
        _play_rounds(game.pk, users)
    finally:
        done.set()
        for reader in readers:
            reader.join(60)

    game = Game.objects.get(pk=game.pk)
    states = {version: state_at(engine, game, version) for version in range(game.version + 1)}

    def view_of(version: int, seat: int):
        return _plain(view_texts(game.engine, engine.view(states[version], seat),
                                 language="en", names=names))

    legal = [_plain(engine.legal_actions(state, 1)) for state in states.values()]
    mixed = []
    # An ETag names one version: the tag of one version on the body of another would reach a
    # client that then holds a tag that another version's body also carries.
    tagged: dict[str, set[int]] = {}
    for read, found in answers.items():
        assert found, f"{read} never answered"
        for kind, seat, version, awaiting, shown, etag in found:
            if etag is not None:
                tagged.setdefault(etag, set()).add(version)
            if kind == "actions":
                if [item["action"] for item in shown] not in legal:
                    mixed.append((kind, shown))
            elif (sorted(awaiting) != engine.active_seats(states[version])
                  or shown != view_of(version, seat)):
                mixed.append((kind, version, awaiting))
    mixed += [("etag", tag, sorted(versions)) for tag, versions in tagged.items()
              if len(versions) > 1]
    total = sum(len(found) for found in answers.values())
    assert game.version > 2 * ROUNDS
    assert not mixed, f"{len(mixed)} of {total} answers mixed two versions: {mixed[:10]}"


def _transaction_settings() -> tuple[str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('transaction_isolation'), "
                       "current_setting('transaction_read_only')")
        return cursor.fetchone()


def test_a_snapshot_is_one_read_only_repeatable_read_transaction_and_ends_with_it():
    """The reads inside `snapshot()` run in a REPEATABLE READ, read-only transaction opened by
    its BEGIN; the connection's next transaction is READ COMMITTED and may write again."""
    from django.db import transaction
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries, selectors.snapshot():
        assert _transaction_settings() == ("repeatable read", "on")
    assert not any("SET TRANSACTION" in query["sql"] for query in queries)
    with transaction.atomic():
        assert _transaction_settings() == ("read committed", "off")
    with pytest.raises(RuntimeError), selectors.snapshot():
        raise RuntimeError("a read failed")
    with transaction.atomic():
        assert _transaction_settings() == ("read committed", "off")
