"""payment_plans against a brute-force search: every way to assign each needed unit to a
distinct unit of own production or of a neighbour's sellable production."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.seven_wonders.rules import can_supply, payment_plans
from tests.engines.conformance import examples

RES = range(4)  # wood, stone, clay, ore are enough to exercise the search

counts = st.lists(st.integers(0, 2), min_size=7, max_size=7).map(
    lambda xs: tuple(x if i < 4 else 0 for i, x in enumerate(xs))
)
groups = st.lists(
    st.lists(st.sampled_from(list(RES)), min_size=2, max_size=3, unique=True).map(
        lambda g: tuple(sorted(g))
    ),
    max_size=2,
).map(lambda gs: tuple(sorted(gs)))
prices = st.lists(st.sampled_from([1, 2]), min_size=7, max_size=7).map(tuple)


def units(fixed, choice_groups):
    result = []
    for resource, n in enumerate(fixed):
        result += [frozenset([resource])] * n
    result += [frozenset(group) for group in choice_groups]
    return result


def brute_force(need, own, left, right, price_left, price_right):
    wanted = [r for r, n in enumerate(need) for _ in range(n)]
    sources = [("own", u) for u in own] + [("left", u) for u in left] + \
        [("right", u) for u in right]
    outcomes = set()

    def walk(i, used, bought, coins_left, coins_right):
        if i == len(wanted):
            outcomes.add((bought, coins_left, coins_right))
            return
        resource = wanted[i]
        for index, (side, unit) in enumerate(sources):
            if index in used or resource not in unit:
                continue
            if side == "own":
                walk(i + 1, used | {index}, bought, coins_left, coins_right)
            elif side == "left":
                walk(i + 1, used | {index}, bought + 1, coins_left + price_left[resource],
                     coins_right)
            else:
                walk(i + 1, used | {index}, bought + 1, coins_left,
                     coins_right + price_right[resource])

    walk(0, frozenset(), 0, 0, 0)
    if not outcomes:
        return set()
    fewest = min(b for b, _, _ in outcomes)
    pairs = {(cl, cr) for b, cl, cr in outcomes if b == fewest}
    return {p for p in pairs
            if not any(q != p and q[0] <= p[0] and q[1] <= p[1] for q in pairs)}


@settings(max_examples=examples(300), deadline=None)
@given(need=counts, own_fixed=counts, own_groups=groups, left_fixed=counts, left_groups=groups,
       right_fixed=counts, right_groups=groups, price_left=prices, price_right=prices)
def test_payment_plans_match_brute_force(need, own_fixed, own_groups, left_fixed, left_groups,
                                         right_fixed, right_groups, price_left, price_right):
    need = tuple(min(n, 2) for n in need)
    plans = payment_plans(need, own_fixed, own_groups, left_fixed, left_groups, right_fixed,
                          right_groups, price_left, price_right)
    expected = brute_force(need, units(own_fixed, own_groups), units(left_fixed, left_groups),
                           units(right_fixed, right_groups), price_left, price_right)
    assert {(p[0], p[1]) for p in plans} == expected
    for coins_left, coins_right, left_part, right_part in plans:
        assert can_supply(left_part, left_fixed, left_groups)
        assert can_supply(right_part, right_fixed, right_groups)
        rest = tuple(n - a - b for n, a, b in zip(need, left_part, right_part, strict=True))
        assert min(rest) >= 0
        assert can_supply(rest, own_fixed, own_groups)
        assert coins_left == sum(k * p for k, p in zip(left_part, price_left, strict=True))
        assert coins_right == sum(k * p for k, p in zip(right_part, price_right, strict=True))
