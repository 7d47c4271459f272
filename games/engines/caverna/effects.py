"""Hooks where furnishing-tile effects plug in (issue 6).

Issue 5 makes every tile buyable (cost, placement, printed points) and gives the dwellings and
the animal-holding rooms their effect; every other effect is deliberately absent and listed in
docs/rules/caverna.md. The engine calls these functions at the points where a tile can change
the rules, so the next issue fills them in without touching the state machine.
"""

from __future__ import annotations

from typing import Any

State = dict[str, Any]


def tile_cost(state: State, seat: int, tile: str, base: dict[str, int]) -> dict[str, int]:
    """What `seat` pays for `tile` (Carpenter, Stone carver, Builder change this later)."""
    return dict(base)


def forge_discount(state: State, seat: int) -> int:
    """Ore saved when forging (the Blacksmith: 2)."""
    return 0


def either_or_is_and_or(state: State, seat: int) -> bool:
    """The Guest room turns "either ... or" into "and/or"."""
    return False


def on_build(state: State, seat: int, tile: str, gains: dict[str, int]) -> None:
    """Immediate effects when a tile is built (Stone carver, Blacksmith, parlours)."""


def on_round_start(state: State, seat: int, gains: dict[str, int]) -> None:
    """Suppliers and the Miner."""


def feeding_reduction(state: State, seat: int) -> int:
    """Food saved at a feeding (Mining cave)."""
    return 0
