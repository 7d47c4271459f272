"""A simple deterministic 7 Wonders bot: it values each legal action by the points it adds now,
cheap production early in the game, coins, military edges over its neighbours and the price it
pays, and takes the best (the first listed on equal values)."""

from __future__ import annotations

from typing import Any

from .data import CARDS
from .rules import VICTORY_POINTS, left_of, right_of, shields, stage_list
from .scoring import score_seat

PRODUCTION_VALUE = {1: 2.5, 2: 1.5, 3: 0.0}


def _total(players: list[dict[str, Any]], seat: int) -> int:
    return sum(score_seat(players, seat)[0].values())


def _with(players: list[dict[str, Any]], seat: int, **changes: Any) -> list[dict[str, Any]]:
    changed = list(players)
    changed[seat] = {**players[seat], **changes}
    return changed


def _effect_value(
    state: dict[str, Any], seat: int, effect: dict[str, Any], age: int
) -> float:
    players = state["players"]
    count = len(players)
    value = 0.0
    units = sum(effect.get("produce", {}).values()) + len(effect.get("produce_choice", []))
    value += units * PRODUCTION_VALUE[age]
    if "trade_discount" in effect:
        value += PRODUCTION_VALUE[age]
    added = effect.get("shields", 0)
    if added:
        mine = shields(players[seat])
        for other in {left_of(seat, count), right_of(seat, count)}:
            theirs = shields(players[other])
            if mine <= theirs < mine + added:
                value += VICTORY_POINTS[age] + (1 if mine < theirs else 0)
        value += 0.3 * added
    if effect.get("special"):
        value += 3.0
    return value


def action_value(state: dict[str, Any], seat: int, action: dict[str, Any]) -> float:
    players = state["players"]
    player = players[seat]
    age = state["age"]
    kind = action["type"]
    if kind == "choose_wonder":
        return 1.0 if action["side"] == "A" else 0.5
    cid = action["card"]
    before = _total(players, seat)
    paid = sum(action.get("pay", {}).values())
    if kind == "discard":
        coins = player["coins"]
        return 0.8 + (1.0 if coins < 3 else 0.0)
    if kind in ("build", "discard_build"):
        card = CARDS[cid]
        if kind == "build" and not action.get("free"):
            paid += card["coins"]
        after = _total(_with(players, seat, built=[*player["built"], cid]), seat)
        value = float(after - before)
        value += _effect_value(state, seat, card["effect"], age)
        value += 0.3 * len([c for c in CARDS.values() if card["name"] in c["chain_from"]])
        if action.get("free") == "olympia":
            value -= 1.0
        return value - paid / 2.5
    # wonder stage
    stage_index = len(player["stage_cards"])
    effect = stage_list(player["wonder"], player["side"])[stage_index]["effect"]
    after = _total(_with(players, seat, stage_cards=[*player["stage_cards"], cid]), seat)
    value = float(after - before) + _effect_value(state, seat, effect, age)
    value += effect.get("coins", 0) / 3
    return value - paid / 2.5 + 0.2


def choose(state: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    best = legal[0]
    best_value = action_value(state, seat, best)
    for action in legal[1:]:
        value = action_value(state, seat, action)
        if value > best_value:
            best, best_value = action, value
    return best
