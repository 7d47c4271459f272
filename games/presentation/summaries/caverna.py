"""Caverna as the game page shows it (templates/games/boards/caverna.html), in short lines:
the decision at hand, every player's goods, animals and dwarfs (the reader first), and the
action spaces that are taken or hold goods."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext

from games.presentation.summaries.common import (
    Names,
    amount,
    comma,
    final_scores,
    goods,
    listing,
    say,
    semicolon,
)

PHASES = {"start": gettext_lazy("round start"), "work": gettext_lazy("work phase"),
          "harvest": gettext_lazy("harvest"), "over": gettext_lazy("game over")}


def _player(player: dict[str, Any], name: Names) -> str:
    dwarfs = say(ngettext("%(n)s dwarf", "%(n)s dwarfs", len(player["dwarfs"])),
                 n=len(player["dwarfs"]))
    if player.get("armed", 0):
        dwarfs = say(gettext("%(dwarfs)s (%(n)s armed)"), dwarfs=dwarfs, n=player["armed"])
    parts = [dwarfs]
    placed = [dwarf["placed_on"] for dwarf in player["dwarfs"] if dwarf.get("placed_on")]
    if placed:
        parts.append(say(gettext("working on %(spaces)s"), spaces=comma().join(placed)))
    parts.append(say(gettext("goods: %(goods)s"),
                     goods=listing(item["text"] for item in player["goods"])))
    parts.append(say(gettext("animals: %(animals)s"), animals=listing(
        amount(item["n"], item["animal"]) for item in player["animal_counts"])))
    if player.get("begging"):
        parts.append(say(ngettext("%(n)s begging marker", "%(n)s begging markers",
                                  player["begging"]), n=player["begging"]))
    if not player.get("animals_fit", True):
        parts.append(gettext("animals do not fit"))
    who = name.who(player["seat"])
    if player.get("starting_player"):
        who = say(gettext("%(who)s (starting player)"), who=who)
    return f"{who}: " + comma().join(parts)


def lines(view: dict[str, Any], name: Names, viewer: int | None) -> list[str]:
    out = [say(gettext("Round %(round)s of %(last)s, %(phase)s."), round=view["round"],
               last=view["last_round"], phase=str(PHASES.get(view["phase"], view["phase"])))]
    decision = view.get("decision")
    if decision:
        if decision.get("space"):
            out.append(say(gettext("Now: %(player)s: %(text)s (%(space)s)."),
                           player=name(decision["seat"]), text=decision["text"],
                           space=decision["space"]))
        else:
            out.append(say(gettext("Now: %(player)s: %(text)s."), player=name(decision["seat"]),
                           text=decision["text"]))
    players = view["players_viewer_first"] if viewer is not None else view["players"]
    out.extend(_player(player, name) for player in players)
    taken = [f"{space['name']} ({name(space['occupant'])})" for space in view["spaces"]
             if space.get("occupant") is not None]
    if taken:
        out.append(say(gettext("Taken action spaces: %(spaces)s"), spaces=semicolon().join(taken)))
    stocked = [f"{space['name']}: " + goods(space["goods"], name, "good", keep_zero=True)
               for space in view["spaces"] if space.get("goods")]
    if stocked:
        out.append(say(gettext("Goods waiting on spaces: %(spaces)s"),
                       spaces=semicolon().join(stocked)))
    scores = view.get("final_scores")
    if scores:
        out.append(final_scores(((row["seat"], row["total"]) for row in scores),
                                (row["seat"] for row in scores if row["winner"]), name))
    return out
