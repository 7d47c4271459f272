"""Final scoring by the rows of the scoring pad (RULES.md section 13)."""

from __future__ import annotations

from typing import Any

from . import board as B
from . import effects
from .data import TILES

FARM = ("sheep", "donkey", "wild_boar", "cattle")
CATEGORIES = (
    "farm_animals_and_dogs",
    "missing_farm_animal_types",
    "grain",
    "vegetables",
    "rubies",
    "dwarfs",
    "unused_spaces",
    "furnishing_tiles_pastures_mines",
    "gold_and_begging",
)
#: Row 9 of the pad is split into one line per yellow tile owned, named BONUS_PREFIX + tile id,
#: between "furnishing_tiles_pastures_mines" and "gold_and_begging".
BONUS_PREFIX = "bonus_"
WRITING_CHAMBER_SHIELD = 7


def crops_on_fields(cells: list[dict[str, Any]], crop: str) -> int:
    return sum(c.get("n", 0) for c in cells if c["k"] == "field" and c.get("crop") == crop)


def adjacent_dwellings(cells: list[dict[str, Any]], index: int) -> int:
    return effects.adjacent_dwellings(cells, index)


def bonus_by_tile(player: dict[str, Any]) -> dict[str, int]:
    """Bonus points of each yellow tile the player owns, in the supply board's order. The Weaving
    parlor follows the seed rulebook: it doubles the sheep's points (1 per sheep), where RULES.md
    read the tile as 1 per 2 sheep."""
    cells = player["cells"]
    tiles = {c["tile"]: i for i, c in enumerate(cells) if c["k"] == "room"}
    ani, sup = player["animals"], player["supply"]
    grain = sup["grain"] + crops_on_fields(cells, "grain")
    vegetable = sup["vegetable"] + crops_on_fields(cells, "vegetable")
    dwarfs = player["dwarfs"]
    armed = sum(1 for d in dwarfs if d["w"] > 0)
    rows: dict[str, int] = {}
    for tile in TILES:
        if tile not in tiles or TILES[tile]["bonus"] is None:
            continue
        index = tiles[tile]
        if tile == "weaving_parlor":
            points = ani["sheep"]
        elif tile == "milking_parlor":
            points = ani["cattle"]
        elif tile == "state_parlor":
            points = 4 * adjacent_dwellings(cells, index)
        elif tile == "stone_storage":
            points = sup["stone"]
        elif tile == "ore_storage":
            points = sup["ore"] // 2
        elif tile == "main_storage":
            points = 2 * sum(1 for t in tiles if TILES[t]["tag"] == "yellow")
        elif tile == "weapon_storage":
            points = 3 * armed
        elif tile == "supplies_storage":
            points = 8 if armed == len(dwarfs) else 0
        elif tile == "broom_chamber":
            points = {5: 5, 6: 10}.get(len(dwarfs), 0)
        elif tile == "treasure_chamber":
            points = sup["ruby"]
        elif tile == "food_chamber":
            points = 2 * min(grain, vegetable)
        elif tile == "prayer_chamber":
            points = 8 if armed == 0 else 0
        elif tile == "fodder_chamber":
            points = sum(ani[t] for t in FARM) // 3
        else:  # pragma: no cover - a bonus tile without a rule
            raise ValueError(tile)
        rows[BONUS_PREFIX + tile] = points
    return rows


def bonus_points(player: dict[str, Any]) -> int:
    return sum(bonus_by_tile(player).values())


def score_player(player: dict[str, Any]) -> dict[str, int]:
    cells = player["cells"]
    ani, sup = player["animals"], player["supply"]
    grain = sup["grain"] + crops_on_fields(cells, "grain")
    vegetable = sup["vegetable"] + crops_on_fields(cells, "vegetable")
    printed = sum(TILES[c["tile"]]["points"] for c in cells if c["k"] == "room")
    large = sum(1 for c in cells if c["k"] == "large_pasture") // 2
    small = sum(1 for c in cells if c["k"] == "pasture")
    mines = 3 * B.count_kind(cells, "ore_mine") + 4 * B.count_kind(cells, "ruby_mine")
    missing = -2 * sum(1 for t in FARM if ani[t] == 0)
    unused = -B.unused_spaces(cells)
    begging = -3 * player["begging"]
    if any(c["k"] == "room" and c["tile"] == "writing_chamber" for c in cells):
        shield = WRITING_CHAMBER_SHIELD
        for name in ("missing", "unused", "begging"):
            value = {"missing": missing, "unused": unused, "begging": begging}[name]
            used = min(shield, -value)
            shield -= used
            if name == "missing":
                missing += used
            elif name == "unused":
                unused += used
            else:
                begging += used
    return {
        "farm_animals_and_dogs": sum(ani.values()),
        "missing_farm_animal_types": missing,
        "grain": (grain + 1) // 2,
        "vegetables": vegetable,
        "rubies": sup["ruby"],
        "dwarfs": len(player["dwarfs"]),
        "unused_spaces": unused,
        "furnishing_tiles_pastures_mines": printed + 2 * small + 4 * large + mines,
        # Row 9 of the pad: one line per parlour, storage or chamber (the seed: "use one section
        # for the points of each type of furnishing tile").
        **bonus_by_tile(player),
        "gold_and_begging": sup["gold"] + begging,
    }


def result(state: dict[str, Any]) -> dict[str, Any]:
    breakdown = [score_player(p) for p in state["players"]]
    scores = [sum(b.values()) for b in breakdown]
    best = max(scores)
    return {
        "scores": scores,
        "breakdown": breakdown,
        "winners": [seat for seat, s in enumerate(scores) if s == best],
    }
