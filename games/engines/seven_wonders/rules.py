"""7 Wonders rule helpers: card facts indexed for speed, a city's production, the cheapest ways
to pay a cost (own production + purchases from neighbours), chains and immediate effects.

Everything here is pure and works on the plain state dict of `engine.py`.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from itertools import count as counter
from itertools import product
from operator import add, gt, mul, sub
from typing import Any

from .data import CARDS, WONDERS

RESOURCES = ("wood", "stone", "clay", "ore", "glass", "loom", "papyrus")
RAW = RESOURCES[:4]
INDEX = {name: i for i, name in enumerate(RESOURCES)}
ZERO = (0,) * 7
#: The only plan for a cost the city's own production covers.
OWN_PLANS = ((0, 0, ZERO, ZERO),)
COLORS = ("brown", "grey", "blue", "yellow", "red", "green", "purple")
AGE_NAMES = {1: "I", 2: "II", 3: "III"}
VICTORY_POINTS = {1: 1, 2: 3, 3: 5}
BASE_PRICE = 2
#: Entries per cache below: a few games' worth. Few results are met again in another game, and
#: a cache that keeps growing costs more in garbage collection (every entry is traversed again
#: and again) than it saves: 65,536 entries made random 7-player games ~15 % slower than 1,024.
CACHE_SIZE = 1024


class BoundedCache(dict):
    """A cache of at most `size` entries that forgets its oldest one for each new one. Not
    cleared when full: the garbage collector counts every object made and not yet freed, and
    freeing a full cache at once brings that count to zero, not below, so a cache cleared when
    full made the collector run about four times as often as one kept at its size."""

    __slots__ = ("_order", "_size")

    def __init__(self, size: int) -> None:
        super().__init__()
        self._order: deque = deque()
        self._size = size

    def keep(self, key: Any, value: Any) -> Any:
        """Stores `value` under a `key` not held yet; returns `value`."""
        order = self._order
        if len(order) >= self._size:
            del self[order.popleft()]
        order.append(key)
        self[key] = value
        return value


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


#: Each wonder side's stage specials, stage by stage (None for a stage with none).
STAGE_SPECIALS = {
    (wid, side): tuple(stage["effect"].get("special") for stage in wonder["sides"][side])
    for wid, wonder in WONDERS.items()
    for side in ("A", "B")
}


# ----- production ---------------------------------------------------------------------------


#: The specials of a wonder side's first stages, by (wonder, side) and stages built.
STAGE_SPECIAL_SETS = {
    key: tuple(frozenset(specials[:built]) for built in range(len(specials) + 1))
    for key, specials in STAGE_SPECIALS.items()
}
#: Whether an effect changes what a city makes, sells or pays at the market: only those need a
#: production worked out anew (see _production).
_TRADE_EFFECT_KEYS = ("produce", "produce_choice", "trade_discount")


def _changes_trade(effect: dict[str, Any]) -> bool:
    return any(key in effect for key in _TRADE_EFFECT_KEYS)


CARD_CHANGES_TRADE = {cid: _changes_trade(card["effect"]) for cid, card in CARDS.items()}


#: Productions by (wonder, side, stages built, cards built): see _production.
_PRODUCTIONS = BoundedCache(CACHE_SIZE)


def _production(wonder: str, side: str, stages: int, built: tuple[str, ...]) -> dict[str, Any]:
    """The production of a city with these cards and wonder stages (see _produce), cached."""
    key = (wonder, side, stages, built)
    made = _PRODUCTIONS.get(key)
    if made is None:
        made = _PRODUCTIONS.keep(key, _produce(wonder, side, stages, built))
    return made


def _produce(wonder: str, side: str, stages: int, built: tuple[str, ...]) -> dict[str, Any]:
    """The production of a city with these cards and wonder stages: that of the city without its
    last stage or without its last card, whichever is cached (a city grows by a card or a stage
    at a time, so one of them nearly always is), plus that stage's (card's) effect. The parts
    add up in any order, so this costs one effect, not all of them.

    Beside the production it holds what the hand's actions need of the city, worked out here
    once instead of at every hand: the names it has built, its built stages' specials, and small
    integer keys of what it buys with and sells (see _keyed)."""
    before = _PRODUCTIONS.get((wonder, side, stages - 1, built)) if stages else None
    if before is None and built:
        before = _production(wonder, side, stages, built[:-1])
        cid = built[-1]
        effect = CARDS[cid]["effect"]
        names = before["names"] | {CARD_NAME[cid]}
        if not CARD_CHANGES_TRADE[cid]:
            # Most cards leave the market as it was: its parts and their keys are kept.
            made = dict(before)
            made["names"] = names
            if "shields" in effect:
                made["shields"] += effect["shields"]
            return made
        made = _with_effect(before, effect)
    elif stages:
        if before is None:
            before = _production(wonder, side, stages - 1, built)
        effect = stage_list(wonder, side)[stages - 1]["effect"]
        if not _changes_trade(effect):
            made = dict(before)
            made["specials"] = STAGE_SPECIAL_SETS[(wonder, side)][stages]
            if "shields" in effect:
                made["shields"] += effect["shields"]
            return made
        made = _with_effect(before, effect)
        names = before["names"]
    else:
        start = [0] * 7
        start[INDEX[WONDERS[wonder]["resource"]]] = 1
        made = {
            "own_fixed": tuple(start),
            "own_groups": (),
            "sell_fixed": tuple(start),
            "sell_groups": (),
            "price_left": (BASE_PRICE,) * 7,
            "price_right": (BASE_PRICE,) * 7,
            "shields": 0,
        }
        names = frozenset()
    made["names"] = names
    made["specials"] = STAGE_SPECIAL_SETS[(wonder, side)][stages]
    made["own_key"] = _key(_OWN_KEYS, (made["own_fixed"], made["own_groups"]))
    made["sell_key"] = _key(_SELL_KEYS, (made["sell_fixed"], made["sell_groups"]))
    made["price_key"] = _key(_PRICE_KEYS, (made["price_left"], made["price_right"]))
    # The most units of each resource the city can make for itself and sell: of one resource
    # alone, every choice group offering it gives one (see _one_resource_offers).
    made["own_most"] = _most_sold(made["own_fixed"], made["own_groups"])
    made["sell_most"] = _most_sold(made["sell_fixed"], made["sell_groups"])
    return made


#: Entries per key table and per market cache (see CityFacts).
KEY_TABLE_SIZE = 1024
#: Small integer keys for the parts of productions (see _key): what a city makes for itself,
#: what it sells, its trade prices.
_OWN_KEYS = BoundedCache(KEY_TABLE_SIZE)
_SELL_KEYS = BoundedCache(KEY_TABLE_SIZE)
_PRICE_KEYS = BoundedCache(KEY_TABLE_SIZE)
_NEXT_KEY = counter(1)
MISSING = object()


def _key(table: BoundedCache, value: tuple) -> int:
    """A small integer standing for `value`, the same for equal values while the table holds
    it: a cache key of a few such integers hashes at once, where the tuples of tuples they stand
    for are hashed anew at every lookup. A full table forgets its oldest value; keys are never
    reused, so a value keyed again only misses the caches once."""
    key = table.get(value)
    if key is None:
        key = table.keep(value, next(_NEXT_KEY))
    return key


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
    key = (player["wonder"], player["side"], len(player["stage_cards"]), tuple(player["built"]))
    made = _PRODUCTIONS.get(key)
    return _production(*key) if made is None else made


def shields(player: dict[str, Any]) -> int:
    return production(player)["shields"]


# ----- paying a cost --------------------------------------------------------------------------


@lru_cache(maxsize=CACHE_SIZE)
def _min_remainders(
    need: tuple[int, ...], groups: tuple[tuple[int, ...], ...]
) -> tuple[tuple[int, ...], ...]:
    """Every smallest remainder of `need` once the choice groups have covered what they can
    (each group gives one unit of one of its resources), in order. The groups are taken one by
    one, each remainder reached once however many ways lead to it."""
    reached = {need}
    for group in groups:
        after = set()
        for remaining in reached:
            usable = [r for r in group if remaining[r]]
            if not usable:
                # Exchange argument: skipping a group that could help never reaches a new
                # minimum.
                after.add(remaining)
                continue
            for r in usable:
                lowered = list(remaining)
                lowered[r] -= 1
                after.add(tuple(lowered))
        reached = after
    best = min(map(sum, reached))
    return tuple(sorted(r for r in reached if sum(r) == best))


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
    return not any(_min_remainders(remaining, groups)[0])


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

    Worked out afresh; the hand's actions keep them in caches of their own (see CityFacts)."""
    rests = _rests(need, own_fixed, own_groups)
    if rests is None:
        return OWN_PLANS
    return _market_plans(rests, left_fixed, left_groups, right_fixed, right_groups, price_left,
                         price_right)


def _rests(
    need: tuple[int, ...], own_fixed: tuple[int, ...], own_groups: tuple[tuple[int, ...], ...]
) -> tuple[tuple[int, ...], ...] | None:
    """What a city must still buy of `need` once its own production has covered what it can:
    the smallest remainders (see _min_remainders), or None when it covers everything."""
    remaining = list(need)
    short = False
    for i in _support(need):
        have = own_fixed[i]
        if have:
            if remaining[i] > have:
                remaining[i] -= have
                short = True
            else:
                remaining[i] = 0
        else:
            short = True
    if not short:
        return None
    if not own_groups:
        return (tuple(remaining),)
    return _min_remainders(tuple(remaining), own_groups)


@lru_cache(maxsize=CACHE_SIZE)
def _support(units: tuple[int, ...]) -> tuple[int, ...]:
    """The resources of which `units` holds any, in order."""
    return tuple([i for i, n in enumerate(units) if n])


@lru_cache(maxsize=CACHE_SIZE)
def _most_sold(fixed: tuple[int, ...], groups: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """The most units of each resource a production can give: its fixed units, plus one per
    choice group offering it."""
    most = list(fixed)
    for group in groups:
        for resource in group:
            most[resource] += 1
    return tuple(most)


def _market_plans(
    rests: tuple[tuple[int, ...], ...],
    left_fixed: tuple[int, ...],
    left_groups: tuple[tuple[int, ...], ...],
    right_fixed: tuple[int, ...],
    right_groups: tuple[tuple[int, ...], ...],
    price_left: tuple[int, ...],
    price_right: tuple[int, ...],
) -> tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]:
    """payment_plans once the city's own production has left `rests` to buy (the result depends
    on the rests as a set, not on their order: one plan per price pair, the greatest)."""
    if ZERO in rests:  # (then the only one: the rests are the smallest remainders)
        return OWN_PLANS
    left_most = _most_sold(left_fixed, left_groups) if left_groups else left_fixed
    right_most = _most_sold(right_fixed, right_groups) if right_groups else right_fixed
    if len(rests) == 1:
        needed = _support(rests[0])
        if len(needed) == 1:
            return _one_resource_plans(needed[0], rests[0][needed[0]], left_most, right_most,
                                       left_fixed, left_groups, right_fixed, right_groups,
                                       price_left, price_right)
    by_price: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
    for rest in rests:
        # Only the resources still to buy are split between the sides; a side sells at most
        # its fixed units plus one per choice group that offers the resource (can_supply says
        # no more), so its bounds narrow the split at once instead of refusing the splits
        # beyond them one by one (an empty range: no split at all). Conditional expressions,
        # not min() and max(): those are slow calls for two numbers.
        needed = _support(rest)
        ranges = []
        for i in needed:
            n = rest[i]
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
            # A side asked for more than its fixed units of one resource alone can sell them
            # (the split is bounded by its most); beyond its fixed units of two resources or
            # more its choice groups must serve them all at once, as can_supply tells.
            if left_groups and sum(map(gt, left_part, left_fixed)) > 1 and not can_supply(
                    left_part, left_fixed, left_groups):
                continue
            if right_groups and sum(map(gt, right_part, right_fixed)) > 1 and not can_supply(
                    right_part, right_fixed, right_groups):
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
    # A price pair is dominated when another costs no more on both sides: in the order of
    # coins to the left (then to the right), exactly those not cheaper on the right than every
    # pair before them.
    plans = []
    cheapest_right = None
    for left_coins, right_coins in sorted(by_price):
        if cheapest_right is None or right_coins < cheapest_right:
            cheapest_right = right_coins
            plans.append((left_coins, right_coins, *by_price[left_coins, right_coins]))
    plans.sort(key=_plan_order)
    return tuple(plans)


def _plan_order(plan: tuple) -> tuple[int, int, int]:
    return (plan[0] + plan[1], plan[0], plan[1])


def _one_resource_plans(
    i: int, n: int, left_most: tuple[int, ...], right_most: tuple[int, ...],
    left_fixed: tuple[int, ...], left_groups: tuple[tuple[int, ...], ...],
    right_fixed: tuple[int, ...], right_groups: tuple[tuple[int, ...], ...],
    price_left: tuple[int, ...], price_right: tuple[int, ...],
) -> tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]:
    """_market_plans for `n` units of the one resource `i` (most costs): each number of units
    bought from the left is a price pair of its own (more from the left costs more there and
    less on the right), so no plan is dominated, and each split is its pair's only plan."""
    low = n - right_most[i]
    high = left_most[i]
    unit_left = price_left[i]
    unit_right = price_right[i]
    plans = []
    for from_left in range(low if low > 0 else 0, (high if high < n else n) + 1):
        from_right = n - from_left
        if from_left:
            units = [0] * 7
            units[i] = from_left
            left_part = tuple(units)
            if left_groups and not can_supply(left_part, left_fixed, left_groups):
                continue
        else:
            left_part = ZERO
        if from_right:
            units = [0] * 7
            units[i] = from_right
            right_part = tuple(units)
            if right_groups and not can_supply(right_part, right_fixed, right_groups):
                continue
        else:
            right_part = ZERO
        plans.append((from_left * unit_left, from_right * unit_right, left_part, right_part))
    if len(plans) > 1:
        plans.sort(key=_plan_order)
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


def _offers(plans: tuple[tuple, ...]) -> tuple[tuple, ...]:
    """Payment plans in the shape actions are made from: (coins to the left, to the right,
    their sum, units bought from the left and from the right as (resource, units) pairs)."""
    return tuple([(left_coins, right_coins, left_coins + right_coins, _bought(left_part),
                   _bought(right_part))
                  for left_coins, right_coins, left_part, right_part in plans])


#: The only offer for a cost the city's own production covers.
OWN_OFFERS = _offers(OWN_PLANS)


def _with_offer(action: dict[str, Any], offer: tuple) -> dict[str, Any]:
    """`action` (a new dict, changed in place) with what the offer buys and pays, if anything."""
    left_coins, right_coins, _, left_items, right_items = offer
    if left_coins:
        if right_coins:
            action["buy"] = {"left": dict(left_items), "right": dict(right_items)}
            action["pay"] = {"left": left_coins, "right": right_coins}
        else:
            action["buy"] = {"left": dict(left_items)}
            action["pay"] = {"left": left_coins}
    elif right_coins:
        action["buy"] = {"right": dict(right_items)}
        action["pay"] = {"right": right_coins}
    return action


#: What a city must still buy of a cost (see _rests), keyed by the cost and a small integer for
#: its own production (see _key); what the market offers for that (see _market_plans, as
#: _offers), keyed by the rests and small integers for the neighbours' sales and the city's
#: prices. Each forgets its oldest entries, like the key tables.
_RESTS = BoundedCache(KEY_TABLE_SIZE)
_OFFERS = BoundedCache(KEY_TABLE_SIZE)


def _rests_of(need: tuple[int, ...], own: dict[str, Any]) -> tuple[tuple[int, ...], ...] | None:
    """_rests for a city of production `own` (see _production)."""
    key = (need, own["own_key"])
    rests = _RESTS.get(key, MISSING)
    if rests is MISSING:
        rests = _RESTS.keep(key, _rests(need, own["own_fixed"], own["own_groups"]))
    return rests


def _offers_of(
    rests: tuple[tuple[int, ...], ...], own: dict[str, Any], left: dict[str, Any],
    right: dict[str, Any],
) -> tuple[tuple, ...]:
    """The market's offers (see _offers) for `rests` to a city of production `own` between
    `left` and `right`."""
    key = (rests, left["sell_key"], right["sell_key"], own["price_key"])
    offers = _OFFERS.get(key)
    if offers is None:
        support = _support(rests[0]) if len(rests) == 1 else ()
        if len(support) == 1:
            # Most often what is still to buy is of one resource: its own small cache.
            offers = _bought_offers(support[0], rests[0][support[0]], own, left, right)
        elif len(support) == 2:  # next most often, of two: worked out without vectors
            offers = _two_resource_offers(rests[0], support[0], support[1], own, left, right)
        else:
            offers = _offers(_market_plans(
                rests, left["sell_fixed"], left["sell_groups"], right["sell_fixed"],
                right["sell_groups"], own["price_left"], own["price_right"]))
        _OFFERS.keep(key, offers)
    return offers


def _two_resource_offers(
    rest: tuple[int, ...], a: int, b: int, own: dict[str, Any], left: dict[str, Any],
    right: dict[str, Any],
) -> tuple[tuple, ...]:
    """_offers(_market_plans((rest,), ...)) for a rest of two resources `a` < `b` only, bought
    by a city of production `own` between `left` and `right`: the same splits, bounds, checks,
    canonical plans and order (see _market_plans), on the units of the two resources alone."""
    left_fixed = left["sell_fixed"]
    right_fixed = right["sell_fixed"]
    left_groups = left["sell_groups"]
    right_groups = right["sell_groups"]
    left_most = left["sell_most"]
    right_most = right["sell_most"]
    price_left = own["price_left"]
    price_right = own["price_right"]
    need_a = rest[a]
    need_b = rest[b]
    low = need_a - right_most[a]
    high = left_most[a]
    range_a = range(low if low > 0 else 0, (high if high < need_a else need_a) + 1)
    low = need_b - right_most[b]
    high = left_most[b]
    range_b = range(low if low > 0 else 0, (high if high < need_b else need_b) + 1)
    left_a, left_b, right_a, right_b = price_left[a], price_left[b], price_right[a], price_right[b]
    fixed_left_a, fixed_left_b = left_fixed[a], left_fixed[b]
    fixed_right_a, fixed_right_b = right_fixed[a], right_fixed[b]
    by_price: dict[tuple[int, int], tuple[int, int]] = {}
    for from_left_a in range_a:
        from_right_a = need_a - from_left_a
        for from_left_b in range_b:
            from_right_b = need_b - from_left_b
            # Beyond a side's fixed units of both resources its choice groups must serve both
            # at once (see _market_plans).
            if left_groups and from_left_a > fixed_left_a and from_left_b > fixed_left_b:
                units = [0] * 7
                units[a] = from_left_a
                units[b] = from_left_b
                if not can_supply(tuple(units), left_fixed, left_groups):
                    continue
            if right_groups and from_right_a > fixed_right_a and from_right_b > fixed_right_b:
                units = [0] * 7
                units[a] = from_right_a
                units[b] = from_right_b
                if not can_supply(tuple(units), right_fixed, right_groups):
                    continue
            key = (from_left_a * left_a + from_left_b * left_b,
                   from_right_a * right_a + from_right_b * right_b)
            split = (from_left_a, from_left_b)
            best = by_price.get(key)
            if best is None or split > best:  # (the canonical plan: see _market_plans)
                by_price[key] = split
    if len(by_price) > 1:
        kept = []
        cheapest_right = None
        for key in sorted(by_price):
            if cheapest_right is None or key[1] < cheapest_right:
                cheapest_right = key[1]
                kept.append(key)
        kept.sort(key=_pair_order)
    else:
        kept = list(by_price)
    name_a = RESOURCES[a]
    name_b = RESOURCES[b]
    offers = []
    for left_coins, right_coins in kept:
        from_left_a, from_left_b = by_price[left_coins, right_coins]
        offers.append((left_coins, right_coins, left_coins + right_coins,
                       _two_units(name_a, from_left_a, name_b, from_left_b),
                       _two_units(name_a, need_a - from_left_a, name_b, need_b - from_left_b)))
    return tuple(offers)


def _pair_order(pair: tuple[int, int]) -> tuple[int, int, int]:
    return (pair[0] + pair[1], pair[0], pair[1])


def _two_units(name_a: str, units_a: int, name_b: str, units_b: int) -> tuple:
    """_bought of units of two resources at most: the (resource, units) pairs of those bought."""
    if units_a:
        return ((name_a, units_a), (name_b, units_b)) if units_b else ((name_a, units_a),)
    return ((name_b, units_b),) if units_b else ()


#: Offers for units of one resource (see _one_resource_offers), by (resource, units, most the
#: left and the right neighbour sell of it, its prices on either side): a few hundred at most.
_ONE_RESOURCE_OFFERS: dict[tuple[int, int, int, int, int, int], tuple[tuple, ...]] = {}


def _one_resource_offers(
    resource: int, units: int, own: dict[str, Any], left: dict[str, Any], right: dict[str, Any]
) -> tuple[tuple, ...]:
    """The offers (see _offers) for `units` of one `resource`: the same as the general way's,
    worked out from a few numbers. For one resource the choice groups add up like fixed units
    (each group offering it gives one), so the city makes all it can of it, buys the rest, and
    each side sells up to its most (see _production)."""
    units -= own["own_most"][resource]
    if units <= 0:
        return OWN_OFFERS
    return _bought_offers(resource, units, own, left, right)


def _bought_offers(
    resource: int, units: int, own: dict[str, Any], left: dict[str, Any], right: dict[str, Any]
) -> tuple[tuple, ...]:
    """The offers for `units` of one `resource` that a city of production `own` must buy."""
    key = (resource, units, left["sell_most"][resource], right["sell_most"][resource],
           own["price_left"][resource], own["price_right"][resource])
    offers = _ONE_RESOURCE_OFFERS.get(key)
    if offers is None:
        offers = _ONE_RESOURCE_OFFERS[key] = _offers(_one_resource_plans(
            resource, units, left["sell_most"], right["sell_most"], left["sell_fixed"], (),
            right["sell_fixed"], (), own["price_left"], own["price_right"]))
    return offers


class CityFacts:
    """What `card_actions` needs to know of city `seat` beyond the card, worked out once for all
    the cards of a hand: the names it has built, its coins, whether Olympia's free build is
    open, and the payment offers per cost (the neighbours' productions are read when the first
    cost is to be bought)."""

    __slots__ = ("_left", "_right", "_stage_offers", "coins", "names", "olympia_free", "own",
                 "player", "players", "seat")

    def __init__(self, state: dict[str, Any], seat: int) -> None:
        players = state["players"]
        player = players[seat]
        own = production(player)
        self.players = players
        self.seat = seat
        self.player = player
        self.coins = player["coins"]
        self.own = own
        self.names = own["names"]
        self.olympia_free = ("free_build_once_per_age" in own["specials"]
                             and player["free_build_age"] != state["age"])
        self._left: dict[str, Any] | None = None
        self._right: dict[str, Any] | None = None
        self._stage_offers: list[tuple] | None = None

    def stage_offers(self) -> list[tuple]:
        """The offers the city can afford for its next wonder stage ([] when all are built):
        the same for every card of the hand."""
        if self._stage_offers is None:
            player = self.player
            stages = STAGE_FACTS[(player["wonder"], player["side"])]
            built = len(player["stage_cards"])
            coins = self.coins
            self._stage_offers = [] if built >= len(stages) else [
                offer for offer in self.offers(*stages[built]) if offer[2] <= coins]
        return self._stage_offers

    def offers(
        self, need: tuple[int, ...], one: tuple[int, int] | None = None
    ) -> tuple[tuple, ...]:
        """The payment offers for `need` (see _offers): plans_for(state, seat, need). `one` is
        (resource, units) when the cost is of one resource (see CARD_FACTS)."""
        own = self.own
        if one is not None:
            if one[1] <= own["own_most"][one[0]]:
                return OWN_OFFERS
            rests = None
        else:
            rests = _rests_of(need, own)
            if rests is None:
                return OWN_OFFERS
        left = self._left
        if left is None:
            players = self.players
            count = len(players)
            left = self._left = production(players[(self.seat + 1) % count])
            self._right = production(players[(self.seat - 1) % count])
        if one is not None:
            return _one_resource_offers(one[0], one[1], own, left, self._right)
        return _offers_of(rests, own, left, self._right)


def _one_resource(need: tuple[int, ...]) -> tuple[int, int] | None:
    """(resource, units) of a cost of one resource only, else None."""
    needed = _support(need)
    return (needed[0], need[needed[0]]) if len(needed) == 1 else None


#: Per card: its name, the names that chain to it, its coins to the bank, its resource cost
#: (None for none) and (resource, units) if that cost is of one resource, in one lookup.
CARD_FACTS = {
    cid: (card["name"], CARD_CHAIN[cid], card["coins"], CARD_COST[cid] if any(CARD_COST[cid])
          else None, _one_resource(CARD_COST[cid]))
    for cid, card in CARDS.items()
}
#: Per wonder side: each stage's cost and (resource, units) if it is of one resource.
STAGE_FACTS = {
    key: tuple((need, _one_resource(need)) for need in costs) for key, costs in STAGE_COST.items()
}


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
    if only == "discard":
        return [{"type": "discard", "card": cid}]  # (always legal: nothing to know of the city)
    if facts is None:
        facts = CityFacts(state, seat)
    actions: list[dict[str, Any]] = []
    name, chain, bank, need, one = CARD_FACTS[cid]
    names = facts.names
    if only != "wonder" and name not in names:
        base = ({"type": "build", "card": cid, "free_city": True} if free_city
                else {"type": "build", "card": cid})
        if chain and not chain.isdisjoint(names):
            actions.append({**base, "free": "chain"})
            if free_city:
                return actions
        else:
            coins = facts.coins
            free_payment = False
            if need is not None:
                for offer in facts.offers(need, one):
                    total = bank + offer[2]
                    if total <= coins:
                        actions.append(_with_offer(dict(base), offer))
                        if total == 0:
                            free_payment = True
            elif bank <= coins:
                actions.append(base)
                free_payment = bank == 0
            if not free_payment and facts.olympia_free:
                actions.append({**base, "free": "olympia"})
    if only != "build":
        stage_offers = facts.stage_offers()
        if stage_offers:
            base = ({"type": "wonder", "card": cid, "free_city": True} if free_city
                    else {"type": "wonder", "card": cid})
            for offer in stage_offers:
                actions.append(_with_offer(dict(base), offer))
    if only is None and not (free_city and actions):
        actions.append({"type": "discard", "card": cid, "free_city": True} if free_city
                       else {"type": "discard", "card": cid})
    return actions


def hand_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """card_actions of every distinct card of the seat's own hand, in order: the pick phase's
    legal actions, listed for every pick of every seat, so worked out here in one pass."""
    players = state["players"]
    player = players[seat]
    stage_cards = player["stage_cards"]
    wonder = player["wonder"]
    side = player["side"]
    key = (wonder, side, len(stage_cards), tuple(player["built"]))
    own = _PRODUCTIONS.get(key) or _production(*key)
    own_most = own["own_most"]
    names = own["names"]
    coins = player["coins"]
    olympia_free = ("free_build_once_per_age" in own["specials"]
                    and player["free_build_age"] != state["age"])
    count = len(players)
    left = production(players[(seat + 1) % count])
    right = production(players[(seat - 1) % count])
    # The most units of each resource both neighbours together sell, and with the city's own:
    # a cost beyond either has no offer (most costs a city cannot cover itself; see the bounds
    # of _market_plans), known before its rests are worked out or the market is looked up.
    market = tuple(map(add, left["sell_most"], right["sell_most"]))
    reach = tuple(map(add, own_most, market))
    stage_offers: list[tuple] | tuple = ()
    stages = STAGE_FACTS[(wonder, side)]
    if len(stage_cards) < len(stages):
        need, one = stages[len(stage_cards)]
        if one is not None:
            stage_offers = (OWN_OFFERS if one[1] <= own_most[one[0]] else [
                offer for offer in _one_resource_offers(one[0], one[1], own, left, right)
                if offer[2] <= coins])
        elif not any(map(gt, need, reach)):
            rests = _rests_of(need, own)
            if rests is None:
                stage_offers = OWN_OFFERS
            elif len(rests) > 1 or not any(map(gt, rests[0], market)):
                stage_offers = [offer for offer in _offers_of(rests, own, left, right)
                                if offer[2] <= coins]
    actions: list[dict[str, Any]] = []
    append = actions.append
    for cid in dict.fromkeys(state["hands"][seat]):
        name, chain, bank, need, one = CARD_FACTS[cid]
        if name not in names:
            if chain and not chain.isdisjoint(names):
                append({"type": "build", "card": cid, "free": "chain"})
            else:
                free_payment = False
                if need is None:
                    if bank <= coins:
                        append({"type": "build", "card": cid})
                        free_payment = bank == 0
                else:
                    if one is not None:
                        if one[1] <= own_most[one[0]]:
                            offers = OWN_OFFERS
                        else:
                            offers = _one_resource_offers(one[0], one[1], own, left, right)
                    elif any(map(gt, need, reach)):
                        offers = ()
                    else:
                        rests = _rests_of(need, own)
                        if rests is None:
                            offers = OWN_OFFERS
                        elif len(rests) == 1 and any(map(gt, rests[0], market)):
                            offers = ()
                        else:
                            offers = _offers_of(rests, own, left, right)
                    if offers is OWN_OFFERS:  # (nothing bought: the action as it is)
                        if bank <= coins:
                            append({"type": "build", "card": cid})
                            free_payment = bank == 0
                    else:
                        for offer in offers:
                            total = bank + offer[2]
                            if total <= coins:
                                append(_with_offer({"type": "build", "card": cid}, offer))
                                if total == 0:
                                    free_payment = True
                if olympia_free and not free_payment:
                    append({"type": "build", "card": cid, "free": "olympia"})
        if stage_offers is OWN_OFFERS:
            append({"type": "wonder", "card": cid})
        else:
            for offer in stage_offers:
                append(_with_offer({"type": "wonder", "card": cid}, offer))
        append({"type": "discard", "card": cid})
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
