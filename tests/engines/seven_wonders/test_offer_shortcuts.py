"""The market's shortcuts give the general way's offers: what is still to buy of one resource
(_bought_offers) or of two (_two_resource_offers) is offered exactly as _market_plans' plans,
shaped by _offers, in the same order, for any neighbours' sales (choice groups too) and prices."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.seven_wonders.rules import (
    _bought_offers,
    _market_plans,
    _most_sold,
    _offers,
    _support,
    _two_resource_offers,
)
from tests.engines.conformance import examples

counts = st.lists(st.integers(0, 3), min_size=7, max_size=7).map(tuple)
groups = st.lists(
    st.lists(st.integers(0, 6), min_size=2, max_size=4, unique=True).map(
        lambda g: tuple(sorted(g))
    ),
    max_size=3,
).map(lambda gs: tuple(sorted(gs)))
prices = st.lists(st.sampled_from([1, 2]), min_size=7, max_size=7).map(tuple)


def seller(fixed, choice_groups):
    """What _offers_of reads of a neighbour's production."""
    return {"sell_fixed": fixed, "sell_groups": choice_groups,
            "sell_most": _most_sold(fixed, choice_groups)}


def general(rest, left, right, own):
    return _offers(_market_plans((rest,), left["sell_fixed"], left["sell_groups"],
                                 right["sell_fixed"], right["sell_groups"], own["price_left"],
                                 own["price_right"]))


@settings(max_examples=examples(400), deadline=None)
@given(first=st.integers(0, 6), second=st.integers(0, 6), units=st.tuples(
    st.integers(1, 4), st.integers(1, 4)), left_fixed=counts, left_groups=groups,
    right_fixed=counts, right_groups=groups, price_left=prices, price_right=prices)
def test_the_shortcuts_offer_what_the_general_way_offers(
    first, second, units, left_fixed, left_groups, right_fixed, right_groups, price_left,
    price_right,
):
    left = seller(left_fixed, left_groups)
    right = seller(right_fixed, right_groups)
    own = {"price_left": price_left, "price_right": price_right}
    rest = [0] * 7
    rest[first] = units[0]
    rest[second] += units[1]
    rest = tuple(rest)
    support = _support(rest)
    if len(support) == 1:
        shortcut = _bought_offers(support[0], rest[support[0]], own, left, right)
    else:
        shortcut = _two_resource_offers(rest, support[0], support[1], own, left, right)
    assert shortcut == general(rest, left, right, own)
