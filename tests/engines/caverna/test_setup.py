"""Set-up per player count: boards, food, dwarfs, stables, round cards, harvest markers."""

import json

import pytest

from games.engines.base import InvalidOptions
from games.engines.caverna.data import ROUND_CARDS, SOLO_CARD_ORDER
from games.engines.caverna.engine import engine

from .helpers import fresh

PRINTED_SPACES = {1: 8, 2: 12, 3: 15, 4: 13, 5: 19, 6: 19, 7: 22}
IMITATION_COSTS = {3: [4], 4: [2], 5: [2, 4], 6: [2, 1], 7: [2, 1, 0]}
STAGE = {card["id"]: card["stage"] for card in ROUND_CARDS}


@pytest.mark.parametrize("n", range(1, 8))
def test_boards_per_player_count(n):
    state = fresh(n)
    printed = [sid for sid in state["order"] if sid not in state["cards"]]
    assert len(printed) == PRINTED_SPACES[n]
    assert state["cards"] == [state["deck"]["1"]]


@pytest.mark.parametrize("n", range(3, 8))
def test_imitation_costs_present(n):
    from games.engines.caverna.data import SPACES

    state = fresh(n)
    costs = [SPACES[s]["imitation_cost"] for s in state["order"] if "imitation_cost" in SPACES[s]]
    assert sorted(costs) == sorted(IMITATION_COSTS[n])


def test_two_players_have_no_imitation():
    assert not [s for s in fresh(2)["order"] if s.startswith("imitation")]


def test_solo_covers_four_spaces():
    order = fresh(1)["order"]
    for covered in ("drift_mining_1_3", "supplies", "clearing_1_3", "starting_player_1_3"):
        assert covered not in order


@pytest.mark.parametrize("n", range(2, 8))
def test_starting_food_by_seat_order(n):
    for seed in ("a", "b", "c"):
        state = fresh(n, seed)
        start = state["start"]
        food = [state["players"][(start + k) % n]["supply"]["food"] for k in range(n)]
        assert food == [1, 1, 2, 3, 3, 3, 3][:n]


def test_solo_starts_with_two_food_and_the_token():
    state = fresh(1)
    assert state["players"][0]["supply"]["food"] == 2
    assert state["start"] == 0


@pytest.mark.parametrize("n", range(1, 8))
def test_each_player_starts_with_two_dwarfs_and_three_stables(n):
    for p in fresh(n)["players"]:
        assert len(p["dwarfs"]) == 2 and all(d["w"] == 0 for d in p["dwarfs"])
        assert p["stables"] == 3
        assert p["cells"][3 * 6 + 3]["k"] == "entry" and p["cells"][2 * 6 + 3]["k"] == "cavern"
        assert sum(p["animals"].values()) == 0


@pytest.mark.parametrize("n", range(3, 8))
def test_round_cards_shuffled_within_stages(n):
    orders = set()
    for k in range(12):
        deck = fresh(n, f"deck-{k}")["deck"]
        stages = [STAGE[deck[str(r)]] for r in range(1, 13)]
        assert stages == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
        assert deck["4"] == "wish_for_children"
        orders.add(tuple(deck[str(r)] for r in range(1, 13)))
    assert len(orders) > 1, "the stages must actually be shuffled"


def test_two_players_eleven_rounds_without_exploration():
    state = fresh(2)
    assert state["rounds"] == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]
    assert state["deck"]["9"] is None
    assert "exploration" not in state["deck"].values()
    assert sorted(state["markers"]) == ["10", "11", "12", "6", "7", "8"]
    assert sorted(state["markers"].values()) == ["green"] * 3 + ["red"] * 3


@pytest.mark.parametrize("n", range(3, 8))
def test_harvest_markers_on_rounds_6_to_12(n):
    markers = fresh(n)["markers"]
    assert sorted(int(r) for r in markers) == list(range(6, 13))
    assert sorted(markers.values()) == ["green"] * 4 + ["red"] * 3


def test_solo_fixed_card_order_and_no_markers():
    state = fresh(1)
    assert [state["deck"][str(r)] for r in range(1, 13)] == SOLO_CARD_ORDER
    assert SOLO_CARD_ORDER[0] == "blacksmithing" and SOLO_CARD_ORDER[8] is None
    assert state["markers"] == {}
    assert state["rounds"] == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]


def test_view_hides_seed_future_cards_and_face_down_markers():
    state = fresh(4, "very-secret-seed")
    text = json.dumps(engine.view(state, 0))
    assert "very-secret-seed" not in text
    assert '"rng"' not in text and '"deck"' not in text and '"markers"' not in text
    view = engine.view(state, None)
    assert view["hidden_markers"] == 7 and view["harvest_markers"] == {}
    names = [s["id"] for s in view["spaces"]]
    assert state["deck"]["2"] not in names


def test_bad_player_counts_and_options_are_refused():
    with pytest.raises(InvalidOptions):
        engine.new_game(0, "x")
    with pytest.raises(InvalidOptions):
        engine.new_game(8, "x")
    with pytest.raises(InvalidOptions):
        engine.new_game(3, "x", {"unknown": 1})


def test_same_seed_same_game():
    assert fresh(5, "s") == fresh(5, "s")
    assert fresh(5, "s") != fresh(5, "t")
