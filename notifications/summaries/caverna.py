"""Caverna as the game page shows it (templates/games/boards/caverna.html), in short lines:
the decision at hand, every player's goods, animals and dwarfs (the reader first), and the
action spaces that are taken or hold goods."""

from __future__ import annotations

from typing import Any

from notifications.summaries.common import Names, listing, plural

PHASES = {"start": "round start", "work": "work phase", "harvest": "harvest", "over": "game over"}


def _player(player: dict[str, Any], name: Names) -> str:
    dwarfs = player["dwarfs"]
    armed = player.get("armed", 0)
    parts = [plural(len(dwarfs), "dwarf") + (f" ({armed} armed)" if armed else "")]
    placed = [dwarf["placed_on"] for dwarf in dwarfs if dwarf.get("placed_on")]
    if placed:
        parts.append("working on " + ", ".join(placed))
    parts.append("goods: " + listing((f"{item['n']} {item['good'].replace('_', ' ')}"
                                      for item in player["goods"]), "none"))
    parts.append("animals: " + listing((f"{item['n']} {item['animal']}"
                                        for item in player["animal_counts"]), "none"))
    if player.get("begging"):
        parts.append(plural(player["begging"], "begging marker"))
    if not player.get("animals_fit", True):
        parts.append("animals do not fit")
    start = " (starting player)" if player.get("starting_player") else ""
    return f"{name.who(player['seat'])}{start}: " + ", ".join(parts)


def lines(view: dict[str, Any], name: Names, viewer: int | None) -> list[str]:
    out = [f"Round {view['round']} of {view['last_round']}, "
           f"{PHASES.get(view['phase'], view['phase'])}."]
    decision = view.get("decision")
    if decision:
        space = f" ({decision['space']})" if decision.get("space") else ""
        out.append(f"Now: {name(decision['seat'])}: {decision['text']}{space}.")
    players = view["players_viewer_first"] if viewer is not None else view["players"]
    out.extend(_player(player, name) for player in players)
    taken = [f"{space['name']} ({name(space['occupant'])})" for space in view["spaces"]
             if space.get("occupant") is not None]
    if taken:
        out.append("Taken action spaces: " + "; ".join(taken))
    stocked = [f"{space['name']}: " + ", ".join(f"{n} {good.replace('_', ' ')}"
                                                 for good, n in space["goods"].items())
               for space in view["spaces"] if space.get("goods")]
    if stocked:
        out.append("Goods waiting on spaces: " + "; ".join(stocked))
    scores = view.get("final_scores")
    if scores:
        out.append("Final scores: " + ", ".join(
            f"{name(row['seat'])} {row['total']}" for row in scores) + "; won: "
            + listing(name(row["seat"]) for row in scores if row["winner"]))
    return out
