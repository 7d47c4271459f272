"""7 Wonders scoring: the seven categories in the rulebook's order, science with wildcards
chosen optimally, Olympia B's guild copy chosen to maximise its owner's score, and the winners
with the coins tie-break."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from .data import CARDS
from .rules import CARD_COLOR, count_items, stage_list

CATEGORIES = ("military", "treasury", "wonder", "civilian", "science", "commercial", "guilds")
SYMBOLS = ("compass", "gear", "tablet")


def science_points(compass: int, gear: int, tablet: int, wildcards: int = 0) -> int:
    """c² + g² + t² + 7·min(c, g, t), each wildcard assigned to the best symbol."""
    best = 0
    for assignment in combinations_with_replacement(range(3), wildcards):
        counts = [compass, gear, tablet]
        for symbol in assignment:
            counts[symbol] += 1
        points = sum(n * n for n in counts) + 7 * min(counts)
        best = max(best, points)
    return best


def _score(players: list[dict[str, Any]], seat: int, copied: str | None) -> dict[str, int]:
    player = players[seat]
    stages = stage_list(player["wonder"], player["side"])[: len(player["stage_cards"])]
    symbols = {"compass": 0, "gear": 0, "tablet": 0}
    wildcards = 0
    civilian = commercial = guilds = 0
    effects: list[tuple[str, dict[str, Any]]] = [
        (CARD_COLOR[cid], CARDS[cid]["effect"]) for cid in player["built"]
    ]
    if copied:
        effects.append(("purple", CARDS[copied]["effect"]))
    for color, effect in effects:
        symbol = effect.get("science")
        if symbol == "any":
            wildcards += 1
        elif symbol:
            symbols[symbol] += 1
        points = effect.get("points", 0)
        if "points_per" in effect:
            spec = effect["points_per"]
            points += spec["amount"] * count_items(players, seat, spec)
        if color == "blue":
            civilian += points
        elif color == "yellow":
            commercial += points
        elif color == "purple":
            guilds += points
    wonder = 0
    for stage in stages:
        wonder += stage["effect"].get("points", 0)
        if stage["effect"].get("science") == "any":
            wildcards += 1
    return {
        "military": sum(player["tokens"]),
        "treasury": player["coins"] // 3,
        "wonder": wonder,
        "civilian": civilian,
        "science": science_points(
            symbols["compass"], symbols["gear"], symbols["tablet"], wildcards
        ),
        "commercial": commercial,
        "guilds": guilds,
    }


def copy_candidates(players: list[dict[str, Any]], seat: int) -> list[str]:
    """Guilds Olympia B (third stage built) may copy: those built by either neighbour."""
    count = len(players)
    player = players[seat]
    stages = stage_list(player["wonder"], player["side"])[: len(player["stage_cards"])]
    if not any(stage["effect"].get("special") == "copy_neighbor_guild" for stage in stages):
        return []
    found = set()
    for other in ((seat + 1) % count, (seat - 1) % count):
        found.update(cid for cid in players[other]["built"] if CARD_COLOR[cid] == "purple")
    return sorted(found)


def score_seat(players: list[dict[str, Any]], seat: int) -> tuple[dict[str, int], str | None]:
    """The breakdown for `seat` and the guild it copies (Olympia B), chosen to maximise its total;
    on equal totals the first guild in alphabetical order."""
    best = _score(players, seat, None)
    best_copy = None
    # Copying never lowers a score (guild points and wildcards are never negative), so a copy is
    # always made when a neighbour has a guild. Each guild exists once, so it is never a double.
    for guild in copy_candidates(players, seat):
        option = _score(players, seat, guild)
        if best_copy is None or sum(option.values()) > sum(best.values()):
            best, best_copy = option, guild
    return best, best_copy


def final_result(players: list[dict[str, Any]]) -> dict[str, Any]:
    breakdown = []
    copies = []
    for seat in range(len(players)):
        scores, copied = score_seat(players, seat)
        breakdown.append({category: scores[category] for category in CATEGORIES})
        copies.append(copied)
    totals = [sum(row.values()) for row in breakdown]
    top = max(totals)
    tied = [seat for seat, total in enumerate(totals) if total == top]
    richest = max(players[seat]["coins"] for seat in tied)
    winners = [seat for seat in tied if players[seat]["coins"] == richest]
    return {"scores": totals, "breakdown": breakdown, "winners": winners, "copied_guilds": copies}
