"""Standing orders and forced decisions, on the pure engines: worked examples for each order,
"all legal actions lead to the same state", and for every decision met in bot games, that an
order only ever answers with a listed legal action and reads no hidden information."""

from __future__ import annotations

import copy
import random

import pytest

from games.engines import autoplay
from games.engines.base import canonical_action
from games.engines.caverna.engine import engine as caverna
from games.engines.seven_wonders.engine import engine as seven_wonders
from games.engines.stone_age import rules as sa_rules
from games.engines.stone_age.engine import engine as stone_age
from tests.engines.stone_age.helpers import action_phase, fresh, resources, set_tools
from tests.engines.toy import toy_engine


def order(engine, state, seat, **orders):
    merged = engine.validate_orders(dict(orders))
    return autoplay.order_action(engine, state, seat, engine.legal_actions(state, seat), merged)


def all_ask(engine):
    return {o["name"]: "ask" for o in engine.standing_orders}


# ----- declarations ---------------------------------------------------------------------------


@pytest.mark.parametrize("engine", [stone_age, caverna])
def test_each_order_has_a_default_and_an_ask_choice(engine):
    assert engine.standing_orders
    for declared in engine.standing_orders:
        values = [choice["value"] for choice in declared["choices"]]
        assert declared["default"] in values and "ask" in values
    assert set(engine.validate_orders({})) == {o["name"] for o in engine.standing_orders}


def test_seven_wonders_declares_no_standing_orders():
    assert seven_wonders.standing_orders == []
    assert seven_wonders.validate_orders({}) == {}


def test_unknown_orders_and_values_are_refused_with_a_reason():
    from games.engines.base import InvalidOptions

    with pytest.raises(InvalidOptions, match="Unknown standing order"):
        stone_age.validate_orders({"bribery": "always"})
    with pytest.raises(InvalidOptions, match="must be one of"):
        stone_age.validate_orders({"feeding": "starve"})
    assert stone_age.validate_orders({"tools": "never"}, partial=True) == {"tools": "never"}


# ----- Stone Age ------------------------------------------------------------------------------


def feeding_state(people=3, **have):
    state = fresh(3)
    player = state["players"][0]
    player.update(food=0, food_track=0, people=people, resources=resources(**have))
    state["phase"] = "feeding"
    state["feeding_queue"] = []
    state["turn"] = 0
    sa_rules._feed(state, 0)
    assert state["pending"]["kind"] == "feeding"
    return state


def play_orders(engine, state, seat, **orders):
    """Applies the orders' answers while they give one; returns the state and the actions."""
    played = []
    while engine.active_seats(state) == [seat]:
        action = order(engine, state, seat, **orders)
        if action is None:
            break
        played.append(action)
        state = engine.apply(state, seat, action)
    return state, played


def test_stone_age_feeding_pays_the_cheapest_resources_first():
    state = feeding_state(wood=2, clay=2, gold=1)
    after, played = play_orders(stone_age, state, 0, feeding="cheapest")
    assert played[0] == {"type": "pay", "resource": "wood", "amount": 2}
    assert after["players"][0]["resources"] == resources(clay=1, gold=1)
    assert after["players"][0]["score"] == state["players"][0]["score"]


def test_stone_age_feeding_can_keep_gold():
    state = feeding_state(people=3, wood=1, clay=2, gold=3)
    after, played = play_orders(stone_age, state, 0, feeding="keep_gold")
    assert after["players"][0]["resources"] == resources(gold=3)  # 1 wood + 2 clay paid
    short = feeding_state(people=3, wood=1, clay=1, gold=3)
    assert order(stone_age, short, 0, feeding="keep_gold") == {"type": "accept_penalty"}
    assert order(stone_age, short, 0, feeding="cheapest") == {
        "type": "pay", "resource": "wood", "amount": 1}


def test_stone_age_feeding_can_take_the_penalty_or_ask():
    state = feeding_state(wood=2, clay=2)
    assert order(stone_age, state, 0, feeding="penalty") == {"type": "accept_penalty"}
    assert order(stone_age, state, 0, feeding="ask") is None


def tools_state(tiles, dice, divisor=3, good="wood"):
    state = action_phase(3, 0, {"forest": 1})
    set_tools(state["players"][0], tiles)
    state["pending"] = {"kind": "tools", "seat": 0, "source": "forest", "good": good,
                        "divisor": divisor, "dice": dice}
    return state


def test_stone_age_tools_only_to_reach_the_next_resource():
    # 2 + 3 = 5 wood-points: one short of 2 wood. Tile 1 reaches it; 4 would be wasted on it.
    state = tools_state([1, 4, 2], [2, 3])
    assert order(stone_age, state, 0, tools="next_resource") == {
        "type": "use_tools", "tiles": [1], "one_use": []}
    assert order(stone_age, state, 0, tools="never") == {
        "type": "use_tools", "tiles": [], "one_use": []}
    assert order(stone_age, state, 0, tools="ask") is None


def buy_card_state(slot="civ_slot_2", **have):
    state = action_phase(3, 0, {slot: 1})
    state["players"][0]["resources"] = resources(**have)
    return stone_age.apply(state, 0, {"type": "resolve", "location": slot})


def test_stone_age_buys_paying_the_cheapest_resources():
    state = buy_card_state(wood=1, gold=3)
    assert state["pending"]["kind"] == "buy_card"
    assert order(stone_age, state, 0, purchases="buy_cheapest") == {
        "type": "buy_card", "pay": {"wood": 1, "clay": 0, "stone": 0, "gold": 1}}
    assert order(stone_age, state, 0, purchases="decline_if_short") is None
    assert order(stone_age, state, 0, purchases="ask") is None


def test_stone_age_declines_what_only_the_two_resources_card_could_pay():
    state = action_phase(3, 0, {"civ_slot_2": 1})
    state["players"][0]["resources"] = resources()
    state["players"][0]["two_resources"] = ["civ_36"]
    state = stone_age.apply(state, 0, {"type": "resolve", "location": "civ_slot_2"})
    assert state["pending"]["kind"] == "buy_card"
    for setting in ("buy_cheapest", "decline_if_short"):
        assert order(stone_age, state, 0, purchases=setting) == {"type": "decline"}
    assert order(stone_age, state, 0, purchases="ask") is None


def test_stone_age_resolves_the_village_first():
    state = action_phase(3, 0, {"forest": 2, "tool_maker": 1, "hut": 2})
    assert order(stone_age, state, 0, resolve_order="village_first") == {
        "type": "resolve", "location": "tool_maker"}
    assert order(stone_age, state, 0, resolve_order="ask") is None


# ----- Caverna --------------------------------------------------------------------------------


def caverna_task(task, seat=0, supply=None, animals=None, **extra):
    state = caverna.new_game(3, "orders")
    player = state["players"][seat]
    player["supply"].update(supply or {})
    player["animals"].update(animals or {})
    state["stack"] = [{"t": task, "seat": seat, **extra}]
    return state


def test_caverna_feeding_converts_crops_then_spare_animals_then_begs():
    state = caverna_task("feed", mode="normal",
                         supply={"food": 0, "grain": 1, "vegetable": 0},
                         animals={"sheep": 2})
    after, played = play_orders(caverna, state, 0, feeding="crops_animals")
    # 4 food needed (two adults): 1 grain, a sheep (keeping the last one), then 2 begging.
    assert played == [{"type": "convert", "from": "grain"},
                      {"type": "convert", "from": "sheep"},
                      {"type": "feed"}]
    assert after["players"][0]["animals"]["sheep"] == 1
    assert after["players"][0]["begging"] == 2


def test_caverna_feeding_crops_only_begs_rather_than_give_up_animals():
    state = caverna_task("feed", mode="normal", supply={"food": 1, "grain": 1},
                         animals={"sheep": 2})
    after, played = play_orders(caverna, state, 0, feeding="crops_only")
    assert played == [{"type": "convert", "from": "grain"}, {"type": "feed"}]
    assert after["players"][0]["animals"]["sheep"] == 2
    assert after["players"][0]["begging"] == 2
    assert order(caverna, state, 0, feeding="ask") is None


def test_caverna_keeps_the_most_valuable_newborns():
    options = [["sheep"], ["cattle"], ["sheep", "donkey"]]
    state = caverna_task("breed_choice", options=options, animals={"sheep": 2, "cattle": 2,
                                                                   "donkey": 2})
    assert order(caverna, state, 0, breeding="keep_valuable") == {
        "type": "breed", "types": ["sheep", "donkey"]}
    room = caverna_task("breed_room", animals={"sheep": 1, "cattle": 2})
    assert order(caverna, room, 0, breeding="keep_valuable") == {"type": "breed_now"}
    assert order(caverna, room, 0, breeding="ask") is None


def test_caverna_converts_from_the_largest_herd_or_the_least_valuable():
    state = caverna_task("overflow", animals={"sheep": 2, "cattle": 5})
    assert order(caverna, state, 0, overflow="largest_herd") == {
        "type": "convert", "from": "cattle"}
    assert order(caverna, state, 0, overflow="least_valuable") == {
        "type": "convert", "from": "sheep"}
    assert order(caverna, state, 0, overflow="ask") is None


def test_caverna_takes_the_goods_of_an_and_or_space_first():
    state = caverna.new_game(3, "orders")
    seat = caverna.active_seats(state)[0]
    state["spaces"]["drift_mining_1_3"]["goods"] = {"stone": 2}
    state = caverna.apply(state, seat, {"type": "place", "space": "drift_mining_1_3"})
    decision = caverna.view(state, seat)["decision"]
    assert decision["kind"] == "frame" and decision["op"] == "and_or"
    goods = next(part for part in decision["parts"] if part["goods_only"])
    assert order(caverna, state, seat, action_parts="goods_first") == {
        "type": "part", "index": goods["index"]}
    assert order(caverna, state, seat, action_parts="ask") is None


# ----- forced decisions -----------------------------------------------------------------------


def test_a_single_legal_action_is_forced():
    state = caverna_task("final_trades")
    assert autoplay.forced_action(caverna, state, 0, [{"type": "finish"}]) == (
        {"type": "finish"}, "forced")


def test_actions_that_all_lead_to_the_same_state_are_forced_and_others_are_not():
    from tests.services.chain_engine import chain_engine

    state = chain_engine.new_game(3, "s")
    state = chain_engine.apply(state, 0, {"type": "take", "spot": "b"})
    legal = chain_engine.legal_actions(state, 0)
    assert len(legal) == 2
    assert autoplay.forced_action(chain_engine, state, 0, legal) == (legal[0], "same_state")
    paying = chain_engine.apply(chain_engine.new_game(3, "s"), 0, {"type": "take", "spot": "c"})
    assert autoplay.forced_action(chain_engine, paying, 0,
                                  chain_engine.legal_actions(paying, 0)) is None
    # A toy bid of 1, 2 or 3 changes the state: a real choice.
    toy = toy_engine.new_game(2, "s")
    assert autoplay.forced_action(toy_engine, toy, 0, toy_engine.legal_actions(toy, 0)) is None


def test_long_lists_are_never_compared_state_by_state():
    state = fresh(3)
    legal = stone_age.legal_actions(state, stone_age.active_seats(state)[0])
    assert len(legal) > autoplay.MAX_SAME_STATE_ACTIONS
    assert autoplay.forced_action(stone_age, state, 0, legal) is None


def test_forced_moves_switched_off_and_all_orders_asking_leave_every_decision_to_the_player():
    state = feeding_state(wood=2, clay=2)
    assert autoplay.next_step(stone_age, state, 0, forced=False, orders=all_ask(stone_age)) \
        is None
    step = autoplay.next_step(stone_age, state, 0, forced=False,
                              orders=stone_age.validate_orders({}))
    assert step.source == autoplay.AUTO and step.reason == "order"


def test_the_queue_plays_its_first_legal_candidate_or_is_dropped():
    state = fresh(3)
    seat = stone_age.active_seats(state)[0]
    wanted = [{"type": "place", "location": "moon", "count": 1},
              {"type": "place", "location": "forest", "count": 2},
              {"type": "place", "location": "hut", "count": 2}]
    step = autoplay.next_step(stone_age, state, seat, orders=all_ask(stone_age),
                              queue=[wanted, [wanted[2]]])
    assert step.source == autoplay.QUEUED and step.action == wanted[1]
    assert step.queue == [[wanted[2]]]
    dropped = autoplay.next_step(stone_age, state, seat, orders=all_ask(stone_age),
                                 queue=[[wanted[0]]])
    assert dropped.dropped and dropped.action is None and dropped.queue == []


# ----- every decision of bot games: legal answers, no hidden information ----------------------


def scramble_stone_age(state, seat, rng):
    other = copy.deepcopy(state)
    rng.shuffle(other["deck"])
    for stack in other["stacks"]:
        rest = stack[1:]
        rng.shuffle(rest)
        stack[1:] = rest
    for number, player in enumerate(other["players"]):
        if number != seat:
            hidden = [c for c in player["cards"]
                      if c not in player["one_use"] and c not in player["two_resources"]]
            pool = list(other["deck"]) + hidden
            rng.shuffle(pool)
            player["cards"] = [*pool[: len(hidden)],
                               *[c for c in player["cards"] if c not in hidden]]
    other["rng"] = {"seed": f"scrambled-{rng.random()}", "counter": rng.randrange(10**6)}
    return other


def scramble_caverna(state, seat, rng):
    other = copy.deepcopy(state)
    future = [r for r in other["deck"] if int(r) > other["round"]]
    cards = [other["deck"][r] for r in future]
    rng.shuffle(cards)
    for r, card in zip(future, cards, strict=True):
        other["deck"][r] = card
    hidden = [r for r in other["markers"] if r not in other["revealed"]]
    colours = [other["markers"][r] for r in hidden]
    rng.shuffle(colours)
    for r, colour in zip(hidden, colours, strict=True):
        other["markers"][r] = colour
    other["rng"] = {"seed": f"scrambled-{rng.random()}", "counter": rng.randrange(10**6)}
    return other


def assert_part_of_view(part, whole):
    """What the orders read is the seat's view or a part of it, never anything more."""
    if isinstance(part, dict):
        assert isinstance(whole, dict)
        for key, value in part.items():
            assert key in whole, key
            assert_part_of_view(value, whole[key])
    elif isinstance(part, list):
        assert isinstance(whole, list) and len(part) == len(whole)
        for mine, theirs in zip(part, whole, strict=True):
            if mine is not None:
                assert_part_of_view(mine, theirs)
    else:
        assert part == whole


@pytest.mark.parametrize(("engine", "scramble", "games"), [
    (stone_age, scramble_stone_age, 4),
    (caverna, scramble_caverna, 2),
])
def test_orders_answer_with_listed_actions_and_ignore_hidden_state(engine, scramble, games):
    rng = random.Random(7)
    defaults = engine.validate_orders({})
    variants = [defaults] + [
        {o["name"]: rng.choice(o["choices"])["value"] for o in engine.standing_orders}
        for _ in range(3)
    ]
    answered = 0
    for index in range(games):
        state = engine.new_game(3, f"orders-{index}")
        while not engine.is_over(state):
            if engine.ready_to_resolve(state):
                state = engine.resolve(state)
                continue
            seat = engine.active_seats(state)[0]
            legal = engine.legal_actions(state, seat)
            assert_part_of_view(engine.orders_view(state, seat), engine.view(state, seat))
            listed = {canonical_action(a) for a in legal}
            for orders in variants:
                chosen = engine.standing_order_action(engine.orders_view(state, seat), legal,
                                                      orders)
                if chosen is None:
                    continue
                answered += 1
                assert canonical_action(chosen) in listed
                scrambled = scramble(state, seat, rng)
                again = engine.standing_order_action(
                    engine.orders_view(scrambled, seat), engine.legal_actions(scrambled, seat),
                    orders)
                assert again == chosen
            state = engine.apply(state, seat, engine.bot_action(state, seat))
    assert answered > 50
