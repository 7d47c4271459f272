"""The home board: a 6 x 4 grid (forest x 0-2, mountain x 3-5), its cells, and where tiles may go.

Cells are stored as a list of 24 small dicts indexed by y * 6 + x. Kinds:
forest half: forest (empty), meadow, field, pasture (small), large_pasture (with "pair");
mountain half: rock (empty), cavern (empty cavern), tunnel, deep_tunnel, ore_mine, ruby_mine,
entry (the entry-level dwelling), room (a furnished cavern, "tile" names the furnishing tile).
"""

from __future__ import annotations

from typing import Any

WIDTH = 6
HEIGHT = 4
CELLS = WIDTH * HEIGHT
ENTRY = 3 * WIDTH + 3  # (3,3)
FIRST_CAVERN = 2 * WIDTH + 3  # (3,2)
IN_FRONT = 3 * WIDTH + 2  # (2,3), the forest space in front of the cave entrance

#: Bonus icons collected once, when a landscape tile first covers the space.
BONUS: dict[int, dict[str, int]] = {
    0 * WIDTH + 2: {"wild_boar": 1},
    2 * WIDTH + 0: {"wild_boar": 1},
    3 * WIDTH + 1: {"food": 1},
    0 * WIDTH + 5: {"food": 2},
    3 * WIDTH + 4: {"food": 1},
}

FOREST_KINDS = ("forest", "meadow", "field", "pasture", "large_pasture")
MEADOWISH = ("meadow", "pasture", "large_pasture")
MOUNTAIN_KINDS = (
    "rock",
    "cavern",
    "tunnel",
    "deep_tunnel",
    "ore_mine",
    "ruby_mine",
    "entry",
    "room",
)
DWELLING_ROOM = {
    "dwelling": 1,
    "simple_dwelling_4w2s": 1,
    "simple_dwelling_3w3s": 1,
    "mixed_dwelling": 1,
    "couple_dwelling": 2,
}
DWELLING_TILES = (*DWELLING_ROOM, "additional_dwelling")


def idx(x: int, y: int) -> int:
    return y * WIDTH + x


def xy(index: int) -> list[int]:
    return [index % WIDTH, index // WIDTH]


def is_forest(index: int) -> bool:
    return index % WIDTH < 3


def _neighbours(index: int) -> tuple[int, ...]:
    x, y = index % WIDTH, index // WIDTH
    out = []
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        nx, ny = x + dx, y + dy
        if 0 <= nx < WIDTH and 0 <= ny < HEIGHT:
            out.append(idx(nx, ny))
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(CELLS))


def same_half(a: int, b: int) -> bool:
    return is_forest(a) == is_forest(b)


def new_board() -> list[dict[str, Any]]:
    cells: list[dict[str, Any]] = []
    for i in range(CELLS):
        cells.append({"k": "forest" if is_forest(i) else "rock", "st": False})
    cells[ENTRY]["k"] = "entry"
    cells[FIRST_CAVERN]["k"] = "cavern"
    return cells


# ----- forest placements ------------------------------------------------------------------------


def _forest_anchor(cells: list[dict[str, Any]]) -> bool:
    return any(
        cells[i]["k"] in ("meadow", "field", "pasture", "large_pasture") for i in range(CELLS)
    )


def _touches_farm(cells: list[dict[str, Any]], spots: tuple[int, ...]) -> bool:
    for s in spots:
        for n in NEIGHBOURS[s]:
            if cells[n]["k"] in ("meadow", "field", "pasture", "large_pasture"):
                return True
    return False


def _forest_ok(
    cells: list[dict[str, Any]], spots: tuple[int, ...], anchor: bool | None = None
) -> bool:
    """`anchor`: whether a forest tile already lies on the board (computed once by callers that
    test many spots)."""
    if _forest_anchor(cells) if anchor is None else anchor:
        return _touches_farm(cells, spots)
    return IN_FRONT in spots


def single_forest_spots(cells: list[dict[str, Any]], kind: str) -> list[int]:
    """Where a single meadow or field may go (a meadow may slide under a forest stable)."""
    out = []
    anchor = _forest_anchor(cells)
    for i in range(CELLS):
        c = cells[i]
        if c["k"] != "forest" or (kind == "field" and c["st"]):
            continue
        if _forest_ok(cells, (i,), anchor):
            out.append(i)
    return out


def forest_twin_spots(cells: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(meadow half, field half) pairs for a meadow/field twin."""
    out = []
    anchor = _forest_anchor(cells)
    for m in range(CELLS):
        if cells[m]["k"] != "forest":
            continue
        for f in NEIGHBOURS[m]:
            if cells[f]["k"] != "forest" or cells[f]["st"] or not is_forest(f):
                continue
            if _forest_ok(cells, (m, f), anchor):
                out.append((m, f))
    return out


# ----- mountain placements ----------------------------------------------------------------------


def _touches_cave(cells: list[dict[str, Any]], spots: tuple[int, ...]) -> bool:
    for s in spots:
        for n in NEIGHBOURS[s]:
            if not is_forest(n) and n not in spots and cells[n]["k"] != "rock":
                return True
    return False


def single_mountain_spots(cells: list[dict[str, Any]]) -> list[int]:
    return [i for i in range(CELLS) if cells[i]["k"] == "rock" and _touches_cave(cells, (i,))]


def mountain_twin_spots(cells: list[dict[str, Any]], ordered: bool = True) -> list[tuple[int, int]]:
    """(first half, second half) pairs of empty mountain spaces joined to the cave system.
    `ordered` lists both orientations (cavern/tunnel); otherwise each pair once (cavern/cavern)."""
    out = []
    for a in range(CELLS):
        if cells[a]["k"] != "rock":
            continue
        for b in NEIGHBOURS[a]:
            if is_forest(b) or cells[b]["k"] != "rock":
                continue
            if not ordered and b < a:
                continue
            if _touches_cave(cells, (a, b)):
                out.append((a, b))
    return out


def ore_mine_spots(cells: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(ore mine half, deep tunnel half) on two adjacent ordinary, empty tunnels."""
    out = []
    for a in range(CELLS):
        if cells[a]["k"] != "tunnel":
            continue
        for b in NEIGHBOURS[a]:
            if cells[b]["k"] == "tunnel":
                out.append((a, b))
    return out


def ruby_mine_spots(cells: list[dict[str, Any]], on: str | None = None) -> list[int]:
    kinds = {"empty_ordinary_tunnel": ("tunnel",), "empty_deep_tunnel": ("deep_tunnel",)}.get(
        on or "", ("tunnel", "deep_tunnel")
    )
    return [i for i in range(CELLS) if cells[i]["k"] in kinds]


def overhang_spots(cells: list[dict[str, Any]], forest: bool) -> list[tuple[int, tuple[int, int]]]:
    """(on-board space, off-board coordinates) for a twin tile overhanging the board's outer
    edge with one half (the Office room). The on-board space must be empty and obey the usual
    adjacency; the forest/mountain border is not an edge."""
    out = []
    anchor = _forest_anchor(cells)
    for i in range(CELLS):
        if is_forest(i) != forest:
            continue
        x, y = i % WIDTH, i // WIDTH
        if cells[i]["k"] != ("forest" if forest else "rock"):
            continue
        if forest and not _forest_ok(cells, (i,), anchor):
            continue
        if not forest and not _touches_cave(cells, (i,)):
            continue
        outside = []
        if forest and x == 0:
            outside.append((-1, y))
        if not forest and x == WIDTH - 1:
            outside.append((WIDTH, y))
        if y == 0:
            outside.append((x, -1))
        if y == HEIGHT - 1:
            outside.append((x, HEIGHT))
        out.extend((i, off) for off in outside)
    return out


def on_board(x: int, y: int) -> bool:
    return 0 <= x < WIDTH and 0 <= y < HEIGHT


# ----- fences and stables -----------------------------------------------------------------------


def small_pasture_spots(cells: list[dict[str, Any]]) -> list[int]:
    return [i for i in range(CELLS) if cells[i]["k"] == "meadow"]


def large_pasture_spots(cells: list[dict[str, Any]]) -> list[tuple[int, int]]:
    out = []
    for a in range(CELLS):
        if cells[a]["k"] != "meadow":
            continue
        for b in NEIGHBOURS[a]:
            if b > a and cells[b]["k"] == "meadow":
                out.append((a, b))
    return out


def stable_spots(cells: list[dict[str, Any]]) -> list[int]:
    return [
        i
        for i in range(CELLS)
        if cells[i]["k"] in ("forest", "meadow", "pasture", "large_pasture") and not cells[i]["st"]
    ]


def empty_caverns(cells: list[dict[str, Any]]) -> list[int]:
    return [i for i in range(CELLS) if cells[i]["k"] == "cavern"]


def empty_fields(cells: list[dict[str, Any]]) -> list[int]:
    return [i for i in range(CELLS) if cells[i]["k"] == "field" and not cells[i].get("n")]


# ----- counting ---------------------------------------------------------------------------------


def count_kind(cells: list[dict[str, Any]], kind: str) -> int:
    return sum(1 for c in cells if c["k"] == kind)


def tiles_on_board(cells: list[dict[str, Any]]) -> list[str]:
    return [c["tile"] for c in cells if c["k"] == "room"]


def dwelling_room(cells: list[dict[str, Any]]) -> int:
    """Room for dwarfs in the ordinary sense (the Additional dwelling excluded)."""
    room = 2  # entry-level dwelling
    for tile in tiles_on_board(cells):
        room += DWELLING_ROOM.get(tile, 0)
    return room


def family_limit(cells: list[dict[str, Any]]) -> int:
    """How many dwarfs this board can house: the family limit of 5 (6 only through the
    Additional dwelling, which houses nobody but the 6th dwarf)."""
    normal = min(dwelling_room(cells), 5)
    if normal == 5 and "additional_dwelling" in tiles_on_board(cells):
        return 6
    return normal


def unused_spaces(cells: list[dict[str, Any]]) -> int:
    return sum(1 for c in cells if c["k"] in ("forest", "rock") and not c["st"])


def cover(cells: list[dict[str, Any]], index: int, kind: str, gains: dict[str, int]) -> None:
    """Lay a landscape tile on a cell, collecting the bonus icon if the cell was uncovered."""
    cell = cells[index]
    if cell["k"] in ("forest", "rock") and index in BONUS:
        for good, amount in BONUS[index].items():
            gains[good] = gains.get(good, 0) + amount
    cell["k"] = kind
