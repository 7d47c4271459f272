"""Final scoring (RULES.md section 14) and the winner with its tie-break (section 15)."""

from __future__ import annotations

from typing import Any

from .data import CARDS, MULTIPLIER_KINDS, RESOURCES

#: Breakdown categories in the rulebook's scoring order: points already on the track first,
#: then green sets, sand multipliers and resources.
CATEGORIES = ("buildings", "card_points", "feeding_penalties", "green_sets", "farmers",
              "toolmakers", "hut_builders", "shamans", "resources")


def green_points(card_ids: list[str]) -> int:
    """Repeated sets of different symbols, each set scoring its size squared."""
    counts: dict[str, int] = {}
    for card_id in card_ids:
        symbol = CARDS[card_id]["bottom"].get("culture")
        if symbol:
            counts[symbol] = counts.get(symbol, 0) + 1
    total = 0
    level = 1
    while True:
        size = sum(1 for count in counts.values() if count >= level)
        if not size:
            return total
        total += size * size
        level += 1


def multiplier_figures(card_ids: list[str]) -> dict[str, int]:
    figures = dict.fromkeys(MULTIPLIER_KINDS, 0)
    for card_id in card_ids:
        bottom = CARDS[card_id]["bottom"]
        if "multiplier" in bottom:
            figures[bottom["multiplier"]] += bottom["count"]
    return figures


def tool_value(player: dict) -> int:
    return sum(tile["value"] for tile in player["tools"])


def breakdown(player: dict) -> dict[str, int]:
    figures = multiplier_figures(player["cards"])
    # An unused two-resources card is taken automatically at the end: 2 resources = 2 points.
    leftover = sum(player["resources"][kind] for kind in RESOURCES) + 2 * len(
        player["two_resources"])
    return {
        "buildings": player["points"]["buildings"],
        "card_points": player["points"]["cards"],
        "feeding_penalties": -10 * player["points"]["penalties"],
        "green_sets": green_points(player["cards"]),
        "farmers": figures["farmer"] * player["food_track"],
        "toolmakers": figures["toolmaker"] * tool_value(player),
        "hut_builders": figures["hut_builder"] * len(player["buildings"]),
        "shamans": figures["shaman"] * player["people"],
        "resources": leftover,
    }


def tie_break(player: dict) -> int:
    """Food track + total tool-tile value + people (the sum reading, see the rules doc)."""
    return player["food_track"] + tool_value(player) + player["people"]


def result(state: dict[str, Any]) -> dict[str, Any]:
    rows = [breakdown(player) for player in state["players"]]
    scores = [sum(row.values()) for row in rows]
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    best_tie = max(tie_break(state["players"][seat]) for seat in leaders)
    winners = [seat for seat in leaders if tie_break(state["players"][seat]) == best_tie]
    return {
        "scores": scores,
        "breakdown": rows,
        "winners": winners,
        "tie_break": [tie_break(player) for player in state["players"]],
        "ended_by": state.get("ended_by"),
    }
