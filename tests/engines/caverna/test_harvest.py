"""Harvest: field phase, feeding (WE9, WE10), harvest events (WE11), breeding (WE12)."""

import pytest

from games.engines.caverna import rules as R
from games.engines.caverna.board import idx
from games.engines.caverna.engine import engine

from .helpers import act, actor, fresh, legal, top


def at_feeding(n=3, mode="normal", seed="feed"):
    """A game whose first feeding decision is due now."""
    state = fresh(n, seed)
    state["stack"] = []
    state["phase"] = "harvest"
    order = R.seat_order(state)
    state["stack"].append({"t": "round_end"})
    for seat in reversed(order):
        state["stack"].append({"t": "feed", "seat": seat, "mode": mode})
    R.run(state)
    return state, order[0]


def test_we9_feeding_with_a_newborn_and_conversions():
    state, seat = at_feeding()
    p = state["players"][seat]
    p["dwarfs"] = [{"w": 0, "at": None, "new": False} for _ in range(3)]
    p["dwarfs"].append({"w": 0, "at": None, "new": True})
    p["cells"][idx(3, 2)].update(k="room", tile="couple_dwelling")
    p["supply"].update(food=2, vegetable=1, gold=3)
    p["animals"]["sheep"] = 1
    assert R.food_needed(state, seat, "normal") == 7
    state = act(
        state,
        {"type": "convert", "from": "vegetable"},
        {"type": "convert", "from": "gold", "amount": 3},
        {"type": "convert", "from": "sheep"},
    )
    assert state["players"][seat]["supply"]["food"] == 7
    state = act(state, {"type": "feed"})
    p = state["players"][seat]
    assert (p["supply"]["food"], p["begging"]) == (0, 0)


def test_we9_begging_for_every_missing_food():
    state, seat = at_feeding()
    p = state["players"][seat]
    p["dwarfs"] = [{"w": 0, "at": None, "new": False} for _ in range(3)]
    p["dwarfs"].append({"w": 0, "at": None, "new": True})
    p["supply"].update(food=2)
    state = act(state, {"type": "feed"})
    assert state["players"][seat]["begging"] == 5
    assert engine.result(state)["breakdown"][seat]["gold_and_begging"] == -15


def test_we10_one_food_per_dwarf_newborns_included():
    state, seat = at_feeding(mode="one")
    p = state["players"][seat]
    p["dwarfs"].append({"w": 0, "at": None, "new": True})
    p["supply"].update(food=5)
    assert R.food_needed(state, seat, "one") == 3
    state = act(state, {"type": "feed"})
    assert state["players"][seat]["supply"]["food"] == 2


def test_feeding_offers_conversions_and_the_timeout_avoids_begging():
    state, seat = at_feeding()
    p = state["players"][seat]
    p["supply"].update(food=0, grain=2, vegetable=1)
    assert {"type": "convert", "from": "grain"} in legal(state)
    while top(state)["t"] == "feed" and actor(state) == seat:
        state = engine.apply(state, seat, engine.timeout_action(state, seat))
    p = state["players"][seat]
    assert p["begging"] == 0 and p["supply"]["grain"] + p["supply"]["vegetable"] < 3


def test_round_4_pays_one_food_per_dwarf_without_field_or_breeding():
    state = fresh(3, "r4")
    state["round"] = 4
    state["stack"] = []
    for p in state["players"]:
        p["animals"].update(sheep=2)
        p["cells"][idx(2, 3)].update(k="field", crop="grain", n=3)
    R.end_work(state)
    R.run(state)
    kinds = {t["t"] for t in state["stack"]}
    assert kinds == {"feed", "round_end"}
    assert all(t["mode"] == "one" for t in state["stack"] if t["t"] == "feed")


def test_field_phase_takes_one_crop_per_field():
    state = fresh(3, "fields")
    p = state["players"][0]
    p["cells"][idx(2, 3)].update(k="field", crop="grain", n=3)
    p["cells"][idx(1, 3)].update(k="field", crop="vegetable", n=1)
    R.field_phase(state, {})
    assert (p["supply"]["grain"], p["supply"]["vegetable"]) == (1, 1)
    assert p["cells"][idx(2, 3)]["n"] == 2
    assert p["cells"][idx(1, 3)]["n"] == 0 and p["cells"][idx(1, 3)]["crop"] is None


def test_we11_harvest_marker_sequence():
    state = fresh(4, "markers")
    state["markers"] = {
        "6": "green",
        "7": "red",
        "8": "red",
        "9": "green",
        "10": "red",
        "11": "green",
        "12": "green",
    }
    state["deck"] = {str(r): None for r in range(1, 13)}
    for r in range(6, 13):
        state["round"] = r - 1
        state["stack"] = []
        R.round_start(state, {})
    kinds = [state["harvest"][str(r)] for r in range(3, 13)]
    assert kinds == [
        "normal",
        "one",
        "normal",
        "normal",
        "none",
        "one",
        "normal",
        "choice",
        "normal",
        "normal",
    ]
    assert kinds.count("normal") == 6 and kinds.count("one") == 2 and kinds.count("choice") == 1


def test_choice_harvest_each_player_skips_field_or_breeding():
    state = fresh(3, "choice")
    state["round"] = 10
    state["harvest"]["10"] = "choice"
    state["stack"] = []
    first = R.seat_order(state)[0]
    p = state["players"][first]
    p["cells"][idx(2, 3)].update(k="field", crop="grain", n=3)
    p["animals"]["sheep"] = 1
    R.end_work(state)
    R.run(state)
    assert top(state)["t"] == "harvest_choice" and actor(state) == first
    state = act(state, {"type": "skip", "phase": "field"})
    for _ in range(2):
        state = act(state, {"type": "skip", "phase": "breeding"})
    assert state["players"][first]["supply"]["grain"] == 0  # skipped the field phase
    assert top(state)["t"] == "feed"


def we12_board(state, seat):
    p = state["players"][seat]
    cells = p["cells"]
    cells[idx(0, 0)].update(k="large_pasture", pair=idx(1, 0))
    cells[idx(1, 0)].update(k="large_pasture", pair=idx(0, 0))
    cells[idx(0, 1)]["k"] = "pasture"
    cells[idx(2, 1)]["st"] = True
    cells[idx(2, 2)]["st"] = True
    cells[idx(4, 1)]["k"] = "ore_mine"
    cells[idx(4, 2)]["k"] = "ruby_mine"
    p["animals"].update(sheep=2, wild_boar=3, cattle=1, donkey=2)
    return p


def test_we12_breeding_only_what_fits():
    state = fresh(3, "breed")
    p = we12_board(state, 0)
    assert R.animals_fit(p)
    R.breed_auto(state, {"seat": 0})
    # The lone cow could make room for a donkey foal: the player is asked first.
    assert [t["t"] for t in state["stack"][-2:]] == ["breed", "breed_room"]
    R.breed_auto(state, {"seat": 0, "asked": True})  # ... and goes on to breeding
    assert p["animals"] == {"sheep": 3, "wild_boar": 4, "cattle": 1, "donkey": 2, "dog": 0}


def test_breeding_skipped_by_the_choice():
    state = fresh(3, "breed")
    p = we12_board(state, 0)
    p["skip"] = "breeding"
    R.breed_auto(state, {"seat": 0})
    assert p["animals"]["sheep"] == 2


def test_breeding_asks_when_newborns_compete_for_room():
    state = fresh(3, "breed2")
    p = state["players"][0]
    p["animals"].update(sheep=2, donkey=2)
    p["cells"][idx(2, 3)].update(k="pasture", st=True)  # 4 of one type; entry holds 2
    R.breed_auto(state, {"seat": 0})
    task = state["stack"][-1]
    assert task["t"] == "breed_choice"
    assert sorted(task["options"]) == [["donkey"], ["sheep"]]


def test_dogs_never_breed():
    state = fresh(3, "dogs")
    p = state["players"][0]
    p["animals"]["dog"] = 5
    R.breed_auto(state, {"seat": 0})
    assert p["animals"]["dog"] == 5


@pytest.mark.parametrize("n", [1, 2, 3])
def test_every_round_returns_dwarfs_home_and_newborns_grow_up(n):
    state = fresh(n, "home")
    seat = actor(state)
    p = state["players"][seat]
    p["cells"][idx(3, 2)].update(k="room", tile="dwelling")
    p["dwarfs"][0]["new"] = True
    p["dwarfs"][0]["at"] = "wood_gathering"
    R.round_end(state, {})
    assert all(d["at"] is None and not d["new"] for d in p["dwarfs"])


def breeding_state(seed):
    state = fresh(3, seed)
    state["phase"] = "harvest"
    state["stack"] = [{"t": "round_end"}, {"t": "breed", "seat": 0}]
    p = state["players"][0]
    p["cells"][idx(2, 3)].update(k="meadow", st=True)  # 1 animal of any type
    p["animals"].update(sheep=2, cattle=1)  # sheep in the entry dwelling, the cow on the meadow
    return state, p


def test_a_lone_animal_may_be_converted_to_make_room_for_a_newborn():
    state, p = breeding_state("breed-room")
    R.run(state)
    assert top(state)["t"] == "breed_room" and actor(state) == 0
    assert legal(state) == [{"type": "convert", "from": "cattle"}, {"type": "breed_now"}]
    assert engine.timeout_action(state, 0) == {"type": "breed_now"}
    state = act(state, {"type": "convert", "from": "cattle"})
    p = state["players"][0]
    assert (p["animals"]["sheep"], p["animals"]["cattle"]) == (3, 0)


def test_breeding_now_keeps_the_lone_animal_and_skips_the_newborn_without_room():
    state, p = breeding_state("breed-now")
    R.run(state)
    state = act(state, {"type": "breed_now"})
    p = state["players"][0]
    assert (p["animals"]["sheep"], p["animals"]["cattle"]) == (2, 1)
