"""The conformance kit run on the test-only toy engine, plus the kit's own ability to fail."""

import copy

import pytest

from games.engines.base import IllegalAction, SeededRandom
from tests.engines.conformance import check_engine, play_random_game, replay
from tests.engines.strict import Tally, check_random_points
from tests.engines.toy import ToyEngine, toy_engine


def test_toy_engine_passes_the_conformance_kit():
    played = check_engine(toy_engine, games_per_count=200)
    assert set(played) == {2, 3, 4}


def test_bids_stay_secret_until_resolved():
    state = toy_engine.new_game(3, "s3cret-seed")
    state = toy_engine.apply(state, 1, {"type": "bid", "amount": 3})
    assert toy_engine.view(state, 0)["bids"] == [None, "hidden", None]
    assert toy_engine.view(state, 1)["bids"] == [None, 3, None]
    assert toy_engine.describe(state, 1, {"type": "bid", "amount": 3}, viewer=0) == (
        "Seat 1 placed a secret bid."
    )


def test_kit_catches_an_engine_that_mutates_its_input():
    class Mutating(ToyEngine):
        def apply(self, state, seat, action):
            new = super().apply(state, seat, action)
            state["round"] = 99
            return new

    with pytest.raises(AssertionError):
        check_engine(Mutating(), games_per_count=1)


def test_kit_catches_an_engine_that_leaks_the_seed():
    class Leaking(ToyEngine):
        def view(self, state, seat):
            return {**super().view(state, seat), "rng": state["rng"]}

    with pytest.raises(AssertionError, match="seed"):
        check_engine(Leaking(), games_per_count=1)


def test_kit_catches_a_replay_that_differs():
    game = play_random_game(toy_engine, 2, "seed-a")
    game.log = game.log[:-1]
    assert replay(toy_engine, game) != game.final_state


def test_toy_engine_passes_the_strict_actions_kit():
    tally = Tally()
    for num_players in (2, 3, 4):
        check_random_points(toy_engine, tally, num_players, f"strict-{num_players}", num_players,
                            [0.0, 0.3, 0.6, 0.9])
    tally.assert_thorough(minimum=100)


def test_strict_kit_catches_an_engine_that_matches_actions_with_equality():
    class Lax(ToyEngine):
        def apply(self, state, seat, action):
            legal = self.legal_actions(state, seat)
            if action not in legal:  # 1.0 == 1 == True
                raise IllegalAction("Not legal.")
            return super().apply(state, seat, legal[legal.index(action)])

    with pytest.raises(AssertionError, match="accepted: int as float"):
        check_random_points(Lax(), Tally(), 2, "lax", 0, [0.0])


def test_strict_kit_catches_an_engine_whose_refusal_crashes():
    class Crashing(ToyEngine):
        def apply(self, state, seat, action):
            if action.get("amount", 1) > 3:  # a list amount: TypeError instead of a refusal
                raise IllegalAction("Bids are 1 to 3.")
            return super().apply(state, seat, action)

    with pytest.raises(AssertionError, match=r"Error \(.*\) instead of IllegalAction"):
        check_random_points(Crashing(), Tally(), 2, "crash", 0, [0.0])


def test_kit_catches_a_bot_that_answers_a_number_as_a_float():
    class FloatBot(ToyEngine):
        def bot_action(self, state, seat):
            action = super().bot_action(state, seat)
            return {**action, "amount": 1.0} if "amount" in action else action

    with pytest.raises(AssertionError, match="not a listed action"):
        check_engine(FloatBot(), games_per_count=1)


def test_illegal_action_has_a_reason_and_changes_nothing():
    state = toy_engine.new_game(2, "seed")
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="legal"):
        toy_engine.apply(state, 0, {"type": "bid", "amount": 7})
    assert state == before


def test_seeded_random_is_pinned():
    # Golden values: if these change, every stored game stops replaying.
    rng = SeededRandom("golden")
    assert [rng.randint(1, 6) for _ in range(10)] == GOLDEN_DICE
    assert rng.counter == 10
    assert SeededRandom("golden").shuffled(list(range(8))) == GOLDEN_SHUFFLE


def test_seeded_random_draws_are_sha256_of_seed_and_counter():
    import hashlib

    digest = hashlib.sha256(b"golden:0").digest()
    expected = int.from_bytes(digest[:8], "big") % (1 << 20)
    assert SeededRandom("golden").randbelow(1 << 20) == expected


def test_a_shuffle_is_fisher_yates_over_randbelow():
    # shuffle draws inline for speed: the orders and the counter are randbelow's.
    for seed in ("golden", "7w-3", "ß:1"):
        for length in (0, 1, 2, 8, 49):
            rng, reference = SeededRandom(seed, 5), SeededRandom(seed, 5)
            items = list(range(length))
            for i in range(length - 1, 0, -1):
                j = reference.randbelow(i + 1)
                items[i], items[j] = items[j], items[i]
            assert rng.shuffled(list(range(length))) == items
            assert rng.counter == reference.counter


GOLDEN_DICE = [5, 1, 3, 1, 2, 6, 1, 6, 3, 3]
GOLDEN_SHUFFLE = [3, 0, 4, 1, 6, 7, 5, 2]
