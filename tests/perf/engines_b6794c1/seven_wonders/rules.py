"""7 Wonders rule helpers: card facts indexed for speed, a city's production, the cheapest ways
to pay a cost (own production + purchases from neighbours), chains and immediate effects.

Everything here is pure and works on the plain state dict of `engine.py`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any

from .data import CARDS, WONDERS

RESOURCES = ("wood", "stone", "clay", "ore", "glass", "loom", "papyrus")
RAW = RESOURCES[:4]
INDEX = {name: i for i, name in enumerate(RESOURCES)}
ZERO = (0,) * 7
COLORS = ("brown", "grey", "blue", "yellow", "red", "green", "purple")
AGE_NAMES = {1: "I", 2: "II", 3: "III"}
VICTORY_POINTS = {1: 1, 2: 3, 3: 5}
BASE_PRICE = 2


def vector(resources: dict[str, int]) -> tuple[int, ...]:
    counts = [0] * 7
    for name, count in resources.items():
        counts[INDEX[name]] += count
    return tuple(counts)


def unvector(counts: tuple[int, ...] | list[int]) -> dict[str, int]:
    return {RESOURCES[i]: n for i, n in enumerate(counts) if n}


# Card facts in the shapes the hot paths want.
CARD_COST = {cid: vector(card["cost"]) for cid, card in CARDS.items()}
CARD_NAME = {cid: card["name"] for cid, card in CARDS.items()}
CARD_COLOR = {cid: card["color"] for cid, card in CARDS.items()}
CARD_CHAIN = {cid: frozenset(card["chain_from"]) for cid, card in CARDS.items()}
GUILDS = tuple(sorted(cid for cid, card in CARDS.items() if card["color"] == "purple"))


def stage_list(wonder: str, side: str) -> list[dict[str, Any]]:
    return WONDERS[wonder]["sides"][side]


STAGE_COST = {
    (wid, side): tuple(vector(stage["cost"]) for stage in wonder["sides"][side])
    for wid, wonder in WONDERS.items()
    for side in ("A", "B")
}


def resources_text(counts: dict[str, int]) -> str:
    parts = []
    for name in RESOURCES:
        n = counts.get(name, 0)
        if n:
            parts.append(name if n == 1 else f"{n} {name}")
    return ", ".join(parts)


# ----- production ---------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def _production(wonder: str, side: str, stages: int, built: tuple[str, ...]) -> dict[str, Any]:
    own_fixed = [0] * 7
    sell_fixed = [0] * 7
    own_groups: list[tuple[int, ...]] = []
    sell_groups: list[tuple[int, ...]] = []
    start = INDEX[WONDERS[wonder]["resource"]]
    own_fixed[start] += 1
    sell_fixed[start] += 1
    price_left = [BASE_PRICE] * 7
    price_right = [BASE_PRICE] * 7
    effects = [CARDS[cid]["effect"] for cid in built]
    effects += [stage["effect"] for stage in stage_list(wonder, side)[:stages]]
    shields = 0
    for effect in effects:
        shields += effect.get("shields", 0)
        tradable = effect.get("tradable", False)
        for name, n in effect.get("produce", {}).items():
            own_fixed[INDEX[name]] += n
            if tradable:
                sell_fixed[INDEX[name]] += n
        for group in effect.get("produce_choice", []):
            indexes = tuple(sorted(INDEX[name] for name in group))
            own_groups.append(indexes)
            if tradable:
                sell_groups.append(indexes)
        discount = effect.get("trade_discount")
        if discount:
            for name in discount["resources"]:
                if "left" in discount["directions"]:
                    price_left[INDEX[name]] = min(price_left[INDEX[name]], discount["price"])
                if "right" in discount["directions"]:
                    price_right[INDEX[name]] = min(price_right[INDEX[name]], discount["price"])
    return {
        "own_fixed": tuple(own_fixed),
        "own_groups": tuple(sorted(own_groups)),
        "sell_fixed": tuple(sell_fixed),
        "sell_groups": tuple(sorted(sell_groups)),
        "price_left": tuple(price_left),
        "price_right": tuple(price_right),
        "shields": shields,
    }


def production(player: dict[str, Any]) -> dict[str, Any]:
    """The city's production, what neighbours may buy from it, its trade prices and shields."""
    return _production(
        player["wonder"], player["side"], len(player["stage_cards"]), tuple(player["built"])
    )


def shields(player: dict[str, Any]) -> int:
    return production(player)["shields"]


# ----- paying a cost --------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def _min_remainders(
    need: tuple[int, ...], groups: tuple[tuple[int, ...], ...]
) -> frozenset[tuple[int, ...]]:
    """Every smallest remainder of `need` once the choice groups have covered what they can
    (each group gives one unit of one of its resources)."""
    results: set[tuple[int, ...]] = set()

    def walk(index: int, remaining: tuple[int, ...]) -> None:
        if index == len(groups) or not any(remaining):
            results.add(remaining)
            return
        usable = [r for r in groups[index] if remaining[r]]
        if not usable:
            # Exchange argument: skipping a group that could help never reaches a new minimum.
            walk(index + 1, remaining)
            return
        for r in usable:
            lowered = list(remaining)
            lowered[r] -= 1
            walk(index + 1, tuple(lowered))

    walk(0, need)
    best = min(sum(r) for r in results)
    return frozenset(r for r in results if sum(r) == best)


def _subtract(need: tuple[int, ...], fixed: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(n - f if n > f else 0 for n, f in zip(need, fixed, strict=True))


@lru_cache(maxsize=65536)
def can_supply(
    need: tuple[int, ...], fixed: tuple[int, ...], groups: tuple[tuple[int, ...], ...]
) -> bool:
    """Whether a production (fixed units + choice groups) covers `need` completely."""
    remaining = _subtract(need, fixed)
    if not any(remaining):
        return True
    if sum(remaining) > len(groups):
        return False
    return not any(next(iter(_min_remainders(remaining, groups))))


@lru_cache(maxsize=65536)
def payment_plans(
    need: tuple[int, ...],
    own_fixed: tuple[int, ...],
    own_groups: tuple[tuple[int, ...], ...],
    left_fixed: tuple[int, ...],
    left_groups: tuple[tuple[int, ...], ...],
    right_fixed: tuple[int, ...],
    right_groups: tuple[tuple[int, ...], ...],
    price_left: tuple[int, ...],
    price_right: tuple[int, ...],
) -> tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]:
    """The distinct cheapest ways to cover `need`: (coins to left, coins to right, units bought
    from the left, units bought from the right). Own production is used as far as it goes (only
    the missing units are bought); plans whose coins to both sides are no better than another
    plan's are dropped, and one canonical plan is kept per (left, right) price pair."""
    remaining = _subtract(need, own_fixed)
    if not any(remaining):
        return ((0, 0, ZERO, ZERO),)
    by_price: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
    for rest in _min_remainders(remaining, own_groups):
        if not any(rest):
            return ((0, 0, ZERO, ZERO),)
        ranges = [range(n + 1) for n in rest]
        for left_part in product(*ranges):
            right_part = tuple(n - k for n, k in zip(rest, left_part, strict=True))
            if not can_supply(left_part, left_fixed, left_groups):
                continue
            if not can_supply(right_part, right_fixed, right_groups):
                continue
            left_coins = sum(k * p for k, p in zip(left_part, price_left, strict=True))
            right_coins = sum(k * p for k, p in zip(right_part, price_right, strict=True))
            key = (left_coins, right_coins)
            plan = (left_part, right_part)
            # Canonical: prefer buying from the left, then the lowest resource order.
            if key not in by_price or plan > by_price[key]:
                by_price[key] = plan
    plans = []
    for (left_coins, right_coins), (left_part, right_part) in by_price.items():
        dominated = any(
            (other_left <= left_coins and other_right <= right_coins)
            and (other_left, other_right) != (left_coins, right_coins)
            for other_left, other_right in by_price
        )
        if not dominated:
            plans.append((left_coins, right_coins, left_part, right_part))
    plans.sort(key=lambda plan: (plan[0] + plan[1], plan[0], plan[1]))
    return tuple(plans)


def left_of(seat: int, num_players: int) -> int:
    return (seat + 1) % num_players


def right_of(seat: int, num_players: int) -> int:
    return (seat - 1) % num_players


def plans_for(state: dict[str, Any], seat: int, need: tuple[int, ...]) -> list[tuple]:
    """Payment plans for `need` by `seat` against the current cities (see payment_plans)."""
    players = state["players"]
    count = len(players)
    own = production(players[seat])
    left = production(players[left_of(seat, count)])
    right = production(players[right_of(seat, count)])
    return list(
        payment_plans(
            need,
            own["own_fixed"],
            own["own_groups"],
            left["sell_fixed"],
            left["sell_groups"],
            right["sell_fixed"],
            right["sell_groups"],
            own["price_left"],
            own["price_right"],
        )
    )


def city_names(player: dict[str, Any]) -> set[str]:
    return {CARD_NAME[cid] for cid in player["built"]}


def has_special(player: dict[str, Any], special: str) -> bool:
    stages = stage_list(player["wonder"], player["side"])[: len(player["stage_cards"])]
    return any(stage["effect"].get("special") == special for stage in stages)


def olympia_free_available(player: dict[str, Any], age: int) -> bool:
    return has_special(player, "free_build_once_per_age") and player["free_build_age"] != age


def _action_with_plan(base: dict[str, Any], plan: tuple) -> dict[str, Any]:
    left_coins, right_coins, left_part, right_part = plan
    action = dict(base)
    if left_coins or right_coins:
        buy = {}
        pay = {}
        if left_coins:
            buy["left"] = unvector(left_part)
            pay["left"] = left_coins
        if right_coins:
            buy["right"] = unvector(right_part)
            pay["right"] = right_coins
        action["buy"] = buy
        action["pay"] = pay
    return action


def card_actions(state: dict[str, Any], seat: int, cid: str) -> list[dict[str, Any]]:
    """Every legal action with card `cid` (held by `seat`): build / wonder stage / discard, with
    each distinct cheapest payment."""
    player = state["players"][seat]
    coins = player["coins"]
    actions: list[dict[str, Any]] = []
    card = CARDS[cid]
    if card["name"] not in city_names(player):
        base = {"type": "build", "card": cid}
        if CARD_CHAIN[cid] and CARD_CHAIN[cid] & city_names(player):
            actions.append({**base, "free": "chain"})
        else:
            bank = card["coins"]
            need = CARD_COST[cid]
            free_payment = False
            if any(need):
                for plan in plans_for(state, seat, need):
                    total = bank + plan[0] + plan[1]
                    if total <= coins:
                        actions.append(_action_with_plan(base, plan))
                        free_payment = free_payment or total == 0
            elif bank <= coins:
                actions.append(base)
                free_payment = bank == 0
            if not free_payment and olympia_free_available(player, state["age"]):
                actions.append({**base, "free": "olympia"})
    stages = STAGE_COST[(player["wonder"], player["side"])]
    built_stages = len(player["stage_cards"])
    if built_stages < len(stages):
        base = {"type": "wonder", "card": cid}
        for plan in plans_for(state, seat, stages[built_stages]):
            if plan[0] + plan[1] <= coins:
                actions.append(_action_with_plan(base, plan))
    actions.append({"type": "discard", "card": cid})
    return actions


def distinct(cards: list[str]) -> list[str]:
    seen: set[str] = set()
    result = []
    for cid in cards:
        if cid not in seen:
            seen.add(cid)
            result.append(cid)
    return result


# ----- immediate effects ----------------------------------------------------------------------


def count_items(players: list[dict[str, Any]], seat: int, spec: dict[str, Any]) -> int:
    """How many items a coins_per / points_per spec counts for `seat`."""
    count = len(players)
    total = 0
    for whom in spec["whom"]:
        if whom == "self":
            other = players[seat]
        elif whom == "left":
            other = players[left_of(seat, count)]
        else:
            other = players[right_of(seat, count)]
        what = spec["what"]
        if what == "card":
            colors = spec["colors"]
            total += sum(1 for cid in other["built"] if CARD_COLOR[cid] in colors)
        elif what == "wonder_stage":
            total += len(other["stage_cards"])
        elif what == "defeat_token":
            total += sum(1 for token in other["tokens"] if token < 0)
    return total


def immediate_coins(players: list[dict[str, Any]], seat: int, effect: dict[str, Any]) -> int:
    gained = effect.get("coins", 0)
    if "coins_per" in effect:
        spec = effect["coins_per"]
        gained += spec["amount"] * count_items(players, seat, spec)
    return gained
