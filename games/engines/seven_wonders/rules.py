"""7 Wonders rule helpers: card facts indexed for speed, a city's production, the cheapest ways
to pay a cost (own production + purchases from neighbours), chains and immediate effects.

Everything here is pure and works on the plain state dict of `engine.py`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from operator import mul, sub
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
#: Entries per cache below: a few games' worth. Few results are met again in another game, and
#: a cache that keeps growing costs more in garbage collection (every entry is traversed again
#: and again) than it saves: 65,536 entries made random 7-player games ~15 % slower than 1,024.
CACHE_SIZE = 1024


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


# ----- production ---------------------------------------------------------------------------


@lru_cache(maxsize=CACHE_SIZE)
def _production(wonder: str, side: str, stages: int, built: tuple[str, ...]) -> dict[str, Any]:
    """The production of a city with these cards and wonder stages: that of the city without its
    last card (or, with no card, without its last stage) plus that card's (stage's) effect. The
    parts add up in any order, and the smaller city is nearly always in the cache already (a
    city grows by a card or a stage at a time), so this costs one effect, not all of them."""
    if built:
        return _with_effect(_production(wonder, side, stages, built[:-1]),
                            CARDS[built[-1]]["effect"])
    if stages:
        return _with_effect(_production(wonder, side, stages - 1, built),
                            stage_list(wonder, side)[stages - 1]["effect"])
    start = [0] * 7
    start[INDEX[WONDERS[wonder]["resource"]]] = 1
    return {
        "own_fixed": tuple(start),
        "own_groups": (),
        "sell_fixed": tuple(start),
        "sell_groups": (),
        "price_left": (BASE_PRICE,) * 7,
        "price_right": (BASE_PRICE,) * 7,
        "shields": 0,
    }


def _with_effect(before: dict[str, Any], effect: dict[str, Any]) -> dict[str, Any]:
    """A production (see _production) with one more card's or stage's effect."""
    own_fixed = list(before["own_fixed"])
    sell_fixed = list(before["sell_fixed"])
    own_groups = list(before["own_groups"])
    sell_groups = list(before["sell_groups"])
    price_left = list(before["price_left"])
    price_right = list(before["price_right"])
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
        "shields": before["shields"] + effect.get("shields", 0),
    }


def production(player: dict[str, Any]) -> dict[str, Any]:
    """The city's production, what neighbours may buy from it, its trade prices and shields."""
    return _production(
        player["wonder"], player["side"], len(player["stage_cards"]), tuple(player["built"])
    )


def shields(player: dict[str, Any]) -> int:
    return production(player)["shields"]


# ----- paying a cost --------------------------------------------------------------------------


@lru_cache(maxsize=CACHE_SIZE)
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
    # max(need - fixed, 0) per resource. A list comprehension: mapping the builtin max over
    # pairs takes nearly three times as long (max's call with two arguments is a slow one).
    return tuple([n - f if n > f else 0 for n, f in zip(need, fixed, strict=True)])


@lru_cache(maxsize=CACHE_SIZE)
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
    plan's are dropped, and one canonical plan is kept per (left, right) price pair.

    Every choice of seller stays listed, the dearer one too (2 coins to the right beside 1 to
    the left), as the two-player Free City's rule "the controller chooses the seller regardless
    of price" needs: a plan is dropped only if another costs no more on both sides.

    Two caches, no cache of the whole: what the city must buy changes seldom (own production
    only), while a key of all nine parts is hashed at every call and met again only one time
    in three (a neighbour's new card, a hand passed on: another market)."""
    rests = _rests(need, own_fixed, own_groups)
    if rests is None:
        return ((0, 0, ZERO, ZERO),)
    return _market_plans(rests, left_fixed, left_groups, right_fixed, right_groups, price_left,
                         price_right)


@lru_cache(maxsize=CACHE_SIZE)
def _rests(
    need: tuple[int, ...], own_fixed: tuple[int, ...], own_groups: tuple[tuple[int, ...], ...]
) -> frozenset[tuple[int, ...]] | None:
    """What a city must still buy of `need` once its own production has covered what it can:
    the smallest remainders (see _min_remainders), or None when it covers everything."""
    remaining = _subtract(need, own_fixed)
    if not any(remaining):
        return None
    return _min_remainders(remaining, own_groups)


@lru_cache(maxsize=CACHE_SIZE)
def _most_sold(fixed: tuple[int, ...], groups: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """The most units of each resource a production can give: its fixed units, plus one per
    choice group offering it."""
    most = list(fixed)
    for group in groups:
        for resource in group:
            most[resource] += 1
    return tuple(most)


@lru_cache(maxsize=CACHE_SIZE)
def _market_plans(
    rests: frozenset[tuple[int, ...]],
    left_fixed: tuple[int, ...],
    left_groups: tuple[tuple[int, ...], ...],
    right_fixed: tuple[int, ...],
    right_groups: tuple[tuple[int, ...], ...],
    price_left: tuple[int, ...],
    price_right: tuple[int, ...],
) -> tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]:
    """payment_plans once the city's own production has left `rests` to buy: a cache of its
    own, since a city's new card rarely changes what it must buy for a given cost (the result
    depends on the rests as a set, not on their order: one plan per price pair, the greatest)."""
    by_price: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
    left_most = _most_sold(left_fixed, left_groups) if left_groups else left_fixed
    right_most = _most_sold(right_fixed, right_groups) if right_groups else right_fixed
    if ZERO in rests:  # (then the only one: the rests are the smallest remainders)
        return ((0, 0, ZERO, ZERO),)
    for rest in rests:
        # Only the resources still to buy are split between the sides; a side sells at most
        # its fixed units plus one per choice group that offers the resource (can_supply says
        # no more), so its bounds narrow the split at once instead of refusing the splits
        # beyond them one by one (an empty range: no split at all). Conditional expressions,
        # not min() and max(): those are slow calls for two numbers.
        needed = []
        ranges = []
        for i, n in enumerate(rest):
            if n:
                needed.append(i)
                low = n - right_most[i]
                high = left_most[i]
                ranges.append(range(low if low > 0 else 0, (high if high < n else n) + 1))
        for split in product(*ranges):
            left = [0] * 7
            for i, n in zip(needed, split, strict=True):
                left[i] = n
            left_part = tuple(left)
            # map over operator functions: the same sums as generator expressions, in C.
            right_part = tuple(map(sub, rest, left_part))
            if left_groups and not can_supply(left_part, left_fixed, left_groups):
                continue
            if right_groups and not can_supply(right_part, right_fixed, right_groups):
                continue
            left_coins = sum(map(mul, left_part, price_left))
            right_coins = sum(map(mul, right_part, price_right))
            key = (left_coins, right_coins)
            plan = (left_part, right_part)
            # Canonical: prefer buying from the left, then the lowest resource order.
            if key not in by_price or plan > by_price[key]:
                by_price[key] = plan
    if len(by_price) < 2:  # nothing to compare (most costs)
        return tuple([(*key, *plan) for key, plan in by_price.items()])
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
    """Payment plans for `need` by city `seat` against the current cities (see
    payment_plans)."""
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


#: Each wonder side's stage specials, stage by stage (None for a stage with none).
STAGE_SPECIALS = {
    (wid, side): tuple(stage["effect"].get("special") for stage in wonder["sides"][side])
    for wid, wonder in WONDERS.items()
    for side in ("A", "B")
}


def has_special(player: dict[str, Any], special: str) -> bool:
    built = STAGE_SPECIALS[(player["wonder"], player["side"])][: len(player["stage_cards"])]
    return special in built


def olympia_free_available(player: dict[str, Any], age: int) -> bool:
    return has_special(player, "free_build_once_per_age") and player["free_build_age"] != age


@lru_cache(maxsize=CACHE_SIZE)
def _bought(part: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
    """unvector(part) as (resource, units) pairs: every action gets a dict of its own, made
    from these in C instead of by a comprehension over the seven resources."""
    return tuple(unvector(part).items())


def _action_with_plan(base: dict[str, Any], plan: tuple) -> dict[str, Any]:
    left_coins, right_coins, left_part, right_part = plan
    action = dict(base)
    if left_coins or right_coins:
        buy = {}
        pay = {}
        if left_coins:
            buy["left"] = dict(_bought(left_part))
            pay["left"] = left_coins
        if right_coins:
            buy["right"] = dict(_bought(right_part))
            pay["right"] = right_coins
        action["buy"] = buy
        action["pay"] = pay
    return action


class CityFacts:
    """What `card_actions` needs to know of city `seat` beyond the card, worked out once for all
    the cards of a hand: the names it has built, whether Olympia's free build is open, and the
    payment plans per cost (productions of the city and its neighbours are read once)."""

    __slots__ = ("_markets", "_plans", "_stage_plans", "names", "olympia_free", "seat", "state")

    def __init__(self, state: dict[str, Any], seat: int) -> None:
        player = state["players"][seat]
        self.state = state
        self.seat = seat
        self.names = city_names(player)
        self.olympia_free = olympia_free_available(player, state["age"])
        self._plans: dict[tuple[int, ...], tuple[tuple, ...]] = {}
        self._markets: tuple | None = None
        self._stage_plans: list[tuple] | None = None

    def stage_plans(self) -> list[tuple]:
        """The plans the city can afford for its next wonder stage ([] when all are built): the
        same for every card of the hand."""
        if self._stage_plans is None:
            player = self.state["players"][self.seat]
            stages = STAGE_COST[(player["wonder"], player["side"])]
            built = len(player["stage_cards"])
            coins = player["coins"]
            self._stage_plans = [] if built >= len(stages) else [
                plan for plan in self.plans(stages[built]) if plan[0] + plan[1] <= coins]
        return self._stage_plans

    def plans(self, need: tuple[int, ...]) -> tuple[tuple, ...]:
        """plans_for(state, seat, need), each cost worked out once."""
        plans = self._plans.get(need)
        if plans is None:
            if self._markets is None:
                players = self.state["players"]
                count = len(players)
                own = production(players[self.seat])
                left = production(players[left_of(self.seat, count)])
                right = production(players[right_of(self.seat, count)])
                self._markets = (
                    own["own_fixed"], own["own_groups"], left["sell_fixed"],
                    left["sell_groups"], right["sell_fixed"], right["sell_groups"],
                    own["price_left"], own["price_right"],
                )
            plans = self._plans[need] = payment_plans(need, *self._markets)
        return plans


def card_actions(
    state: dict[str, Any], seat: int, cid: str, *, free_city: bool = False,
    facts: CityFacts | None = None, only: str | None = None,
) -> list[dict[str, Any]]:
    """Every legal action with card `cid` for city `seat`: build / wonder stage / discard, with
    each distinct cheapest payment.

    With `free_city` (the two-player variant's Free City, city index 2, played by the seat that
    controls it) every action is marked `"free_city": true` and the Free City's own limits hold:
    a card it can build free by chain must be built that way; it may discard only a card it can
    neither build nor use for its next wonder stage. (Buying from either neighbour regardless of
    price needs nothing special: see payment_plans.) `facts` (of the same state and seat) lets
    a caller listing a whole hand share what does not depend on the card. `only` ("build",
    "wonder" or "discard"; a city's own card, not the Free City's) lists just the actions of that
    type, the only ones an action of that type can be."""
    if only is not None and free_city:
        raise ValueError("the Free City's discard depends on its other actions")
    if facts is None:
        facts = CityFacts(state, seat)
    player = state["players"][seat]
    coins = player["coins"]
    actions: list[dict[str, Any]] = []
    marker = {"free_city": True} if free_city else {}
    card = CARDS[cid]
    names = facts.names
    if card["name"] not in names and only in (None, "build"):
        base = {"type": "build", "card": cid, **marker}
        if CARD_CHAIN[cid] and CARD_CHAIN[cid] & names:
            actions.append({**base, "free": "chain"})
            if free_city:
                return actions
        else:
            bank = card["coins"]
            need = CARD_COST[cid]
            free_payment = False
            if any(need):
                for plan in facts.plans(need):
                    total = bank + plan[0] + plan[1]
                    if total <= coins:
                        actions.append(_action_with_plan(base, plan))
                        free_payment = free_payment or total == 0
            elif bank <= coins:
                actions.append(base)
                free_payment = bank == 0
            if not free_payment and facts.olympia_free:
                actions.append({**base, "free": "olympia"})
    stage_plans = facts.stage_plans() if only in (None, "wonder") else ()
    if stage_plans:
        base = {"type": "wonder", "card": cid, **marker}
        for plan in stage_plans:
            actions.append(_action_with_plan(base, plan))
    if only in (None, "discard") and not (free_city and actions):
        actions.append({"type": "discard", "card": cid, **marker})
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
