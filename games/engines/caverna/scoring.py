"""Final scoring by the rows of the scoring pad (RULES.md section 13)."""

from __future__ import annotations

from typing import Any

from . import board as B
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
    "bonus_parlors_storages_chambers",
    "gold_and_begging",
)
WRITING_CHAMBER_SHIELD = 7


def crops_on_fields(cells: list[dict[str, Any]], crop: str) -> int:
    return sum(c.get("n", 0) for c in cells if c["k"] == "field" and c.get("crop") == crop)


def adjacent_dwellings(cells: list[dict[str, Any]], index: int) -> int:
    count = 0
    for n in B.NEIGHBOURS[index]:
        c = cells[n]
        if c["k"] == "entry" or (c["k"] == "room" and c["tile"] in B.DWELLING_TILES):
            count += 1
    return count


def bonus_points(player: dict[str, Any]) -> int:
    """Bonus points of the yellow tiles. The Weaving parlor follows the seed rulebook: it doubles
    the sheep's points (1 per sheep), where RULES.md read the tile as 1 per 2 sheep."""
    cells = player["cells"]
    tiles = {c["tile"]: i for i, c in enumerate(cells) if c["k"] == "room"}
    ani, sup = player["animals"], player["supply"]
    grain = sup["grain"] + crops_on_fields(cells, "grain")
    vegetable = sup["vegetable"] + crops_on_fields(cells, "vegetable")
    dwarfs = player["dwarfs"]
    armed = sum(1 for d in dwarfs if d["w"] > 0)
    total = 0
    for tile, index in tiles.items():
        if tile == "weaving_parlor":
            total += ani["sheep"]
        elif tile == "milking_parlor":
            total += ani["cattle"]
        elif tile == "state_parlor":
            total += 4 * adjacent_dwellings(cells, index)
        elif tile == "stone_storage":
            total += sup["stone"]
        elif tile == "ore_storage":
            total += sup["ore"] // 2
        elif tile == "main_storage":
            total += 2 * sum(1 for t in tiles if TILES[t]["tag"] == "yellow")
        elif tile == "weapon_storage":
            total += 3 * armed
        elif tile == "supplies_storage":
            total += 8 if armed == len(dwarfs) else 0
        elif tile == "broom_chamber":
            total += {5: 5, 6: 10}.get(len(dwarfs), 0)
        elif tile == "treasure_chamber":
            total += sup["ruby"]
        elif tile == "food_chamber":
            total += 2 * min(grain, vegetable)
        elif tile == "prayer_chamber":
            total += 8 if armed == 0 else 0
        elif tile == "fodder_chamber":
            total += sum(ani[t] for t in FARM) // 3
    return total


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
        "bonus_parlors_storages_chambers": bonus_points(player),
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
