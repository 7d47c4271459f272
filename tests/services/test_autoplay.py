"""Steps that need nobody, through the service: forced moves play themselves (unless switched
off), standing orders answer routine decisions, queued conditional moves are played, dropped or
cancelled, stay private, and are played exactly once under concurrent moves."""

from __future__ import annotations

import pytest

from games import services
from games.engines import registry
from games.exceptions import NotAllowed
from games.models import Action, Game, Seat
from games.services import autoplay
from notifications.models import Notification
from tests.factories import committed, started_game
from tests.services.chain_engine import chain_engine
from tests.services.racing import race


@pytest.fixture(autouse=True)
def _chain_engine_registered():
    registry.register(chain_engine)
    yield
    registry.unregister(chain_engine.slug)


def chain_game(**seat_settings):
    game, users = started_game(3, engine="chain")
    for number, settings in seat_settings.items():
        Seat.objects.filter(game=game, number=int(number[-1])).update(**settings)
    return game, users


def move(game, user, action):
    game.refresh_from_db()
    with committed():
        return services.game_action_submit(game_id=game.pk, user=user, action=action,
                                           expected_version=game.version)


def log(game):
    return [(a.seat_number, a.source, a.payload) for a in
            Action.objects.filter(game=game).order_by("sequence")]


def seat(game, number) -> Seat:
    return Seat.objects.select_related("user").get(game=game, number=number)


def turn_notices(user):
    return Notification.objects.filter(user=user, kind="your_turn").count()


@pytest.mark.django_db
class TestForcedMovesAndOrders:
    def test_same_state_forced_and_ordered_steps_play_themselves_without_a_turn(self):
        game, users = chain_game()
        move(game, users[0], {"type": "take", "spot": "b"})
        # Tidying left or right leads to the same state: played at once for seat 0.
        assert log(game)[-1] == (0, "auto", {"type": "tidy", "hand": "left"})
        move(game, users[1], {"type": "take", "spot": "c"})
        entries = log(game)
        # Seat 1's payment by its default order (a coin), then seat 2's only spot, forced.
        assert entries[-2:] == [(1, "auto", {"type": "pay", "with": "coin"}),
                                (2, "auto", {"type": "take", "spot": "a"})]
        game.refresh_from_db()
        assert chain_engine.active_seats(game.state) == [0]  # round 2 begins with seat 0
        # Seat 2 was never awaited: no deadline started, no "your turn".
        assert seat(game, 2).deadline_at is None and seat(game, 2).turn_started_at is None
        assert turn_notices(users[2]) == 0
        assert seat(game, 0).deadline_at is not None
        assert services.game_replay_verify(game=game)

    def test_a_player_who_switched_forced_moves_off_is_asked(self):
        game, users = chain_game()
        users[2].auto_play_forced = False
        users[2].save(update_fields=["auto_play_forced"])
        move(game, users[0], {"type": "take", "spot": "a"})
        move(game, users[1], {"type": "take", "spot": "b"})
        game.refresh_from_db()
        assert chain_engine.active_seats(game.state) == [2]
        assert seat(game, 2).deadline_at is not None
        assert turn_notices(users[2]) == 1
        assert all(source != "auto" or number != 2 for number, source, _ in log(game))

    def test_the_game_setting_overrides_the_profile(self):
        game, users = chain_game(seat2={"auto_forced": False})
        move(game, users[0], {"type": "take", "spot": "a"})
        move(game, users[1], {"type": "take", "spot": "b"})
        game.refresh_from_db()
        assert chain_engine.active_seats(game.state) == [2]
        # Switching it on again for this game plays the forced move at once.
        with committed():
            autoplay.settings_set(game_id=game.pk, user=users[2], auto_forced=True)
        assert log(game)[-2:] == [(2, "auto", {"type": "take", "spot": "c"}),
                                  (2, "auto", {"type": "pay", "with": "coin"})]

    def test_an_order_set_to_ask_leaves_the_decision_to_the_player(self):
        game, users = chain_game()
        autoplay.settings_set(game_id=game.pk, user=users[0],
                              standing_orders={"payment": "ask"})
        move(game, users[0], {"type": "take", "spot": "c"})
        game.refresh_from_db()
        assert chain_engine.legal_actions(game.state, 0) == [
            {"type": "pay", "with": "coin"}, {"type": "pay", "with": "points"}]
        assert seat(game, 0).deadline_at is not None

    def test_profile_orders_apply_where_the_game_says_nothing(self):
        game, users = chain_game()
        users[0].standing_orders = {"chain": {"payment": "points"}}
        users[0].save(update_fields=["standing_orders"])
        move(game, users[0], {"type": "take", "spot": "c"})
        assert (0, "auto", {"type": "pay", "with": "points"}) in log(game)

    def test_bot_seats_are_played_by_the_bot_not_by_autoplay(self):
        game, users = chain_game()
        Seat.objects.filter(game=game, number=2).update(is_bot=True)
        move(game, users[0], {"type": "take", "spot": "a"})
        move(game, users[1], {"type": "take", "spot": "b"})
        entries = log(game)
        seat2 = [source for number, source, _ in entries if number == 2]
        # The bot's worker played the forced move and the payment, as the bot.
        assert seat2 == ["bot", "bot"]

    def test_automatic_moves_since_my_own_move_are_listed(self):
        game, users = chain_game()
        move(game, users[0], {"type": "take", "spot": "a"})
        move(game, users[1], {"type": "take", "spot": "c"})
        game.refresh_from_db()
        made = autoplay.automatic_moves_since_own_move(game, 2)
        assert [(a.seat_number, a.payload) for a in made] == [
            (2, {"type": "take", "spot": "b"}), (2, {"type": "tidy", "hand": "left"})]
        assert autoplay.automatic_moves_since_own_move(game, 0) == []


@pytest.mark.django_db
class TestQueues:
    def test_the_first_legal_candidate_is_played_as_queued(self):
        game, users = chain_game()
        autoplay.queue_set(game_id=game.pk, user=users[1], decisions=[
            [{"type": "take", "spot": "a"}, {"type": "take", "spot": "c"}]])
        move(game, users[0], {"type": "take", "spot": "a"})
        entries = log(game)
        assert (1, "queued", {"type": "take", "spot": "c"}) in entries
        assert seat(game, 1).move_queue == []
        assert turn_notices(users[1]) == 0
        game.refresh_from_db()
        assert services.game_replay_verify(game=game), services.game_health_problem(game=game)

    def test_a_queue_with_no_legal_candidate_is_dropped_and_the_player_asked(self):
        game, users = chain_game()
        autoplay.queue_set(game_id=game.pk, user=users[1],
                           decisions=[[{"type": "take", "spot": "a"}]])
        move(game, users[0], {"type": "take", "spot": "a"})
        game.refresh_from_db()
        assert chain_engine.active_seats(game.state) == [1]
        assert seat(game, 1).move_queue == []
        assert seat(game, 1).deadline_at is not None
        assert turn_notices(users[1]) == 1
        assert all(source != "queued" for _, source, _ in log(game))

    def test_a_queue_is_cancelled_by_delete_and_refused_while_the_move_is_at_hand(self):
        game, users = chain_game()
        autoplay.queue_set(game_id=game.pk, user=users[1],
                           decisions=[[{"type": "take", "spot": "b"}]])
        autoplay.queue_clear(game_id=game.pk, user=users[1])
        move(game, users[0], {"type": "take", "spot": "a"})
        assert all(source != "queued" for _, source, _ in log(game))
        with pytest.raises(autoplay.YourMove):
            autoplay.queue_set(game_id=game.pk, user=users[1],
                               decisions=[[{"type": "take", "spot": "b"}]])

    def test_bad_queues_are_refused_with_a_reason(self):
        game, users = chain_game()
        for bad, words in [([], "list"), ([[]], "non-empty"), ([[1]], "JSON object"),
                           ([[{"type": "take"}]] * 4, "at most 3"),
                           ([[{"type": "take"}] * 6], "more than 5")]:
            with pytest.raises(autoplay.InvalidQueue, match=words):
                autoplay.queue_set(game_id=game.pk, user=users[1], decisions=bad)
        assert seat(game, 1).move_queue == []

    def test_queues_are_private(self):
        game, users = chain_game()
        secret = [[{"type": "take", "spot": "c"}]]
        autoplay.queue_set(game_id=game.pk, user=users[1], decisions=secret)
        assert autoplay.queue_read(game=game, user=users[0])["decisions"] == []
        assert autoplay.queue_read(game=game, user=users[2])["decisions"] == []
        assert autoplay.queue_read(game=game, user=users[1])["decisions"] == secret
        assert not Action.objects.filter(game=game, source="queued").exists()

    def test_a_players_own_move_cancels_their_queue(self):
        game, users = chain_game()
        move(game, users[0], {"type": "take", "spot": "c"})
        # A queue kept from earlier (in 7 Wonders a seat that picked may still change its pick).
        Seat.objects.filter(game=game, number=1).update(move_queue=[[{"type": "take",
                                                                      "spot": "b"}]])
        move(game, users[1], {"type": "take", "spot": "a"})
        assert seat(game, 1).move_queue == []
        assert all(source != "queued" for _, source, _ in log(game))

    def test_not_a_player_cannot_read_or_set_a_queue(self):
        game, users = chain_game()
        outsider = type(users[0]).objects.create(username="outsider")
        with pytest.raises(NotAllowed):
            autoplay.queue_read(game=game, user=outsider)
        with pytest.raises(NotAllowed):
            autoplay.queue_set(game_id=game.pk, user=outsider,
                               decisions=[[{"type": "take", "spot": "a"}]])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_a_queued_move_is_played_exactly_once_under_concurrent_moves(attempt):
    game, users = chain_game()
    autoplay.queue_set(game_id=game.pk, user=users[1], decisions=[
        [{"type": "take", "spot": "a"}, {"type": "take", "spot": "b"}]])
    version = Game.objects.get(pk=game.pk).version
    moves = [
        (lambda spot=spot: services.game_action_submit(
            game_id=game.pk, user=users[0], action={"type": "take", "spot": spot},
            expected_version=version))
        for spot in ("a", "c", "a", "c")
    ]
    # Seat 1 also changes its mind at the same moment: the queue is either played first
    # (and the DELETE finds nothing) or cancelled first (and seat 1 is asked).
    outcomes = race([*moves, lambda: autoplay.queue_clear(game_id=game.pk, user=users[1])])
    applied = [o for o in outcomes[:-1] if not isinstance(o, Exception)]
    assert len(applied) == 1, outcomes
    queued = list(Action.objects.filter(game=game, source="queued"))
    assert len(queued) <= 1
    assert seat(game, 1).move_queue == []
    game.refresh_from_db()
    if queued:
        # Played from the queue, then the rest needed nobody: round 2 waits for seat 0.
        assert queued[0].seat_number == 1
        assert game.state["round"] == 2 and chain_engine.active_seats(game.state) == [0]
    else:
        assert chain_engine.active_seats(game.state) == [1]
    sequences = list(Action.objects.filter(game=game).order_by("sequence")
                     .values_list("sequence", flat=True))
    assert sequences == list(range(1, len(sequences) + 1))
    assert services.game_replay_verify(game=game)


class CrashingChain(type(chain_engine)):
    """Tidying right and the standing orders hit bugs; nobody chooses either here."""

    slug = "chain_crashing"

    def apply(self, state, seat, action):
        if action == {"type": "tidy", "hand": "right"}:
            raise TypeError("unsupported operand type(s) for +: 'int' and 'NoneType'")
        return super().apply(state, seat, action)

    def standing_order_action(self, view, legal, orders):
        raise KeyError("decision")


@pytest.mark.django_db
def test_a_fault_in_a_trial_or_an_order_leaves_the_decision_to_the_player():
    crashing = CrashingChain()
    registry.register(crashing)
    try:
        game, users = started_game(3, engine="chain_crashing")
        move(game, users[0], {"type": "take", "spot": "b"})
        game.refresh_from_db()
        assert crashing.active_seats(game.state) == [0]  # asked to tidy; the move stands
        move(game, users[0], {"type": "tidy", "hand": "left"})
        move(game, users[1], {"type": "take", "spot": "c"})
        game.refresh_from_db()
        assert crashing.legal_actions(game.state, 1)[0]["type"] == "pay"  # the order failed
    finally:
        registry.unregister(crashing.slug)


class _UndoableChain(type(chain_engine)):
    """The chain game where no step reveals anything (a game of open information)."""

    slug = "chain_undoable"

    def reveals(self, before, seat, action, after):
        return False


@pytest.mark.django_db
def test_undo_takes_back_a_move_with_the_automatic_steps_that_followed_it():
    from games.services import undo

    undoable = _UndoableChain()
    registry.register(undoable)
    try:
        game, users = started_game(3, engine=undoable.slug)
        game.refresh_from_db()
        before, version = game.state, game.version
        move(game, users[0], {"type": "take", "spot": "b"})
        # The tidying that followed was played for seat 0 (both ways lead to the same state).
        assert [source for _, source, _ in log(game)] == ["api", "auto"]
        game.refresh_from_db()
        assert undo.can_undo(undoable, game, 0) and not undo.can_undo(undoable, game, 1)
        with committed():
            result = services.game_move_undo(game_id=game.pk, user=users[0],
                                             expected_version=game.version)
        game.refresh_from_db()
        assert game.state == before and game.version == version + 3
        taken_back = Action.objects.filter(game=game, undone_by=result.outcome["sequence"])
        assert sorted(taken_back.values_list("source", flat=True)) == ["api", "auto"]
        assert Action.objects.get(game=game, sequence=result.outcome["sequence"]).payload == {
            "undoes": version + 1, "with_automatic": [version + 2]}
        assert services.game_replay_verify(game=game)
        # Once another seat has moved after them, neither can be taken back.
        move(game, users[0], {"type": "take", "spot": "b"})
        move(game, users[1], {"type": "take", "spot": "a"})
        game.refresh_from_db()
        assert Action.objects.filter(game=game).latest("sequence").seat_number != 0
        assert not undo.can_undo(undoable, game, 0)
        with pytest.raises(undo.UndoRefused), committed():
            services.game_move_undo(game_id=game.pk, user=users[0],
                                    expected_version=game.version)
    finally:
        registry.unregister(undoable.slug)
