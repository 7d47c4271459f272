"""Home-board geometry: adjacency, placement rules (WE16), bonus icons, stables, unused spaces."""

import pytest

from games.engines.caverna import board as B
from games.engines.caverna.board import idx, new_board


def pairs(spots):
    return {(tuple(B.xy(a)), tuple(B.xy(b))) for a, b in spots}


@pytest.mark.parametrize(
    ("x", "y", "expected"),
    [
        (0, 0, {(1, 0), (0, 1)}),
        (2, 3, {(1, 3), (3, 3), (2, 2)}),
        (3, 2, {(2, 2), (4, 2), (3, 1), (3, 3)}),
        (5, 3, {(4, 3), (5, 2)}),
    ],
)
def test_adjacency_is_orthogonal(x, y, expected):
    assert {tuple(B.xy(n)) for n in B.NEIGHBOURS[idx(x, y)]} == expected


def test_we16_first_forest_twin_must_cover_the_space_in_front_of_the_entrance():
    spots = pairs(B.forest_twin_spots(new_board()))
    unordered = {frozenset(p) for p in spots}
    assert unordered == {frozenset({(2, 3), (1, 3)}), frozenset({(2, 3), (2, 2)})}
    # Either half may be the meadow.
    assert ((2, 3), (1, 3)) in spots and ((1, 3), (2, 3)) in spots


def test_first_single_forest_tile_also_goes_in_front_of_the_entrance():
    assert B.single_forest_spots(new_board(), "meadow") == [idx(2, 3)]
    assert B.single_forest_spots(new_board(), "field") == [idx(2, 3)]


def test_later_forest_tiles_must_touch_a_farm_tile():
    cells = new_board()
    cells[idx(2, 3)]["k"] = "field"
    spots = {tuple(B.xy(i)) for i in B.single_forest_spots(cells, "meadow")}
    assert spots == {(1, 3), (2, 2)}
    twins = pairs(B.forest_twin_spots(cells))
    assert ((0, 3), (1, 3)) in twins  # (0,3) touches nothing, but its other half (1,3) does
    assert ((0, 0), (1, 0)) not in twins and ((0, 2), (0, 3)) not in twins


def test_a_field_never_goes_under_a_stable_but_a_meadow_may():
    cells = new_board()
    cells[idx(2, 3)]["st"] = True
    assert B.single_forest_spots(cells, "field") == []
    assert B.single_forest_spots(cells, "meadow") == [idx(2, 3)]
    twins = pairs(B.forest_twin_spots(cells))
    assert all(field != (2, 3) for _, field in twins)
    assert ((2, 3), (1, 3)) in twins


def test_we16_mountain_twin_must_touch_the_cave_system():
    cells = new_board()
    twins = pairs(B.mountain_twin_spots(cells))
    assert ((4, 3), (5, 3)) in twins
    assert ((4, 0), (5, 0)) not in twins and ((5, 0), (4, 0)) not in twins
    gains = {}
    B.cover(cells, idx(4, 3), "cavern", gains)
    B.cover(cells, idx(5, 3), "tunnel", gains)
    assert gains == {"food": 1}


def test_cavern_cavern_twin_lists_each_pair_once():
    ordered = B.mountain_twin_spots(new_board(), ordered=True)
    once = B.mountain_twin_spots(new_board(), ordered=False)
    assert len(ordered) == 2 * len(once)


def test_we16_ore_mine_twin_needs_two_ordinary_tunnels():
    cells = new_board()
    cells[idx(4, 2)]["k"] = "tunnel"
    cells[idx(4, 1)]["k"] = "deep_tunnel"
    assert B.ore_mine_spots(cells) == []
    cells[idx(4, 1)]["k"] = "tunnel"
    assert pairs(B.ore_mine_spots(cells)) == {((4, 2), (4, 1)), ((4, 1), (4, 2))}


def test_ruby_mine_on_tunnel_or_deep_tunnel():
    cells = new_board()
    cells[idx(4, 2)]["k"] = "tunnel"
    cells[idx(4, 1)]["k"] = "deep_tunnel"
    cells[idx(5, 2)]["k"] = "ore_mine"
    assert B.ruby_mine_spots(cells, "empty_ordinary_tunnel") == [idx(4, 2)]
    assert B.ruby_mine_spots(cells, "empty_deep_tunnel") == [idx(4, 1)]


def test_bonus_icons_collected_once_by_a_landscape_tile():
    cells = new_board()
    gains = {}
    cells[idx(2, 0)]["st"] = True  # a stable alone collects nothing
    B.cover(cells, idx(2, 0), "meadow", gains)
    B.cover(cells, idx(0, 2), "field", gains)
    B.cover(cells, idx(1, 3), "meadow", gains)
    B.cover(cells, idx(5, 0), "tunnel", gains)
    assert gains == {"wild_boar": 2, "food": 3}
    B.cover(cells, idx(1, 3), "pasture", gains)  # fencing is not a new landscape tile
    assert gains == {"wild_boar": 2, "food": 3}


def test_stables_go_on_forest_meadow_or_pasture_one_per_space():
    cells = new_board()
    cells[idx(0, 0)]["k"] = "field"
    cells[idx(1, 0)].update(k="meadow", st=True)
    spots = set(B.stable_spots(cells))
    assert idx(0, 0) not in spots and idx(1, 0) not in spots
    assert idx(2, 0) in spots
    assert all(B.is_forest(i) for i in spots)


def test_unused_spaces():
    cells = new_board()
    assert B.unused_spaces(cells) == 22  # entry and pre-printed cavern are used
    cells[idx(0, 0)]["st"] = True
    cells[idx(4, 2)]["k"] = "tunnel"
    assert B.unused_spaces(cells) == 20


@pytest.mark.parametrize(
    ("tiles", "limit"),
    [
        ([], 2),
        (["dwelling"], 3),
        (["couple_dwelling"], 4),
        (["couple_dwelling", "dwelling", "mixed_dwelling"], 5),
        (["couple_dwelling", "dwelling", "mixed_dwelling", "simple_dwelling_4w2s"], 5),
        (["couple_dwelling", "dwelling", "additional_dwelling"], 6),
        (["dwelling", "additional_dwelling"], 3),
    ],
)
def test_dwelling_room_and_family_limit(tiles, limit):
    cells = new_board()
    free = [idx(4, y) for y in range(4)] + [idx(5, y) for y in range(4)]
    for tile, at in zip(tiles, free, strict=False):
        cells[at].update(k="room", tile=tile)
    assert B.family_limit(cells) == limit
