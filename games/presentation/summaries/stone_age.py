"""Stone Age as the game page shows it (templates/games/boards/stone_age.html), in short lines."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext

from games.presentation.summaries.common import (
    Names,
    comma,
    final_scores,
    goods,
    listing,
    say,
    semicolon,
)

PHASES = {"placement": gettext_lazy("placing people"),
          "actions": gettext_lazy("resolving actions"),
          "feeding": gettext_lazy("feeding"), "over": gettext_lazy("game over")}


def _tribe(player: dict[str, Any], order: list[str], name: Names) -> str:
    people = say(ngettext("%(n)s person", "%(n)s people", player["people"]), n=player["people"])
    if player.get("unplaced"):
        people = say(gettext("%(people)s (%(n)s to place)"), people=people,
                     n=player["unplaced"])
    tools = comma().join(say(gettext("%(value)s (used)"), value=tile["value"]) if tile.get("used")
                      else say("%(value)s", value=tile["value"])
                      for tile in player["tools"]) or gettext("none")
    parts = [
        say(ngettext("%(n)s point", "%(n)s points", player["score"]), n=player["score"]),
        people,
        say(gettext("%(food)s food (+%(track)s a round)"), food=player["food"],
            track=player["food_track"]),
        goods(player["resources"], name, "good", order, keep_zero=True),
        say(gettext("tools %(tools)s"), tools=tools),
        say(ngettext("%(n)s card", "%(n)s cards", player["card_count"]),
            n=player["card_count"]),
        say(ngettext("%(n)s building", "%(n)s buildings", player["building_count"]),
            n=player["building_count"]),
    ]
    if player.get("face_up_cards"):
        parts.append(say(gettext("ready to use: %(cards)s"),
                         cards=semicolon().join(card["top"] for card in player["face_up_cards"])))
    if player.get("feeding_penalties"):
        parts.append(say(ngettext("fed short %(n)s time", "fed short %(n)s times",
                                  player["feeding_penalties"]), n=player["feeding_penalties"]))
    who = name.who(player["seat"])
    if player.get("is_first_player"):
        who = say(gettext("%(who)s (start player)"), who=who)
    return f"{who}: " + comma().join(parts)


def _people(location: dict[str, Any], name: Names) -> str:
    return comma().join(say("%(player)s %(count)s", player=name(p["seat"]), count=p["count"])
                     for p in location["people"])


def _slot(slot: dict[str, Any]) -> str:
    if not slot.get("card"):
        return say(gettext("for %(cost)s: bought"), cost=slot["cost"])
    return say(gettext("for %(cost)s: %(card)s (%(effect)s)"), cost=slot["cost"],
               card=slot["card"]["name"], effect=slot["card"]["top"])


def _stack(stack: dict[str, Any]) -> str:
    top = stack.get("top")
    if not top:
        return gettext("empty stack")
    if top["cost_type"] == "fixed":
        return say(gettext("%(cost)s for %(points)s points"), cost=top["cost"],
                   points=top["points"])
    return say(gettext("%(cost)s for %(points)s"), cost=top["cost"], points=top["points"])


def lines(view: dict[str, Any], name: Names, viewer: int | None) -> list[str]:
    order = view.get("resources_order") or ["wood", "clay", "stone", "gold"]
    status = say(ngettext("Round %(round)s, %(phase)s; %(n)s card left in the deck.",
                          "Round %(round)s, %(phase)s; %(n)s cards left in the deck.",
                          view["deck_size"]),
                 round=view["round"], phase=str(PHASES.get(view["phase"], view["phase"])),
                 n=view["deck_size"])
    if view.get("last_round"):
        status += " " + gettext("Last round: a building stack is empty.")
    out = [status]
    decision = view.get("decision")
    if decision:
        now = say(gettext("Now: %(text)s"), text=decision["text"])
        if decision["kind"] == "tools":
            now += " " + say(gettext("Dice %(dice)s."), dice=comma().join(
                say("%(face)s", face=face) for face in decision["dice"]))
        elif decision["kind"] == "dice_for_all":
            now += " " + semicolon().join(say("%(face)s: %(text)s", face=face, text=text)
                                   for face, text in decision["items"].items()) + "."
        elif decision["kind"] == "feeding":
            now += " " + say(gettext("Set aside so far: %(goods)s."),
                             goods=goods(decision["chosen"], name, "good", order))
        out.append(now)
    players = sorted(view["players"], key=lambda p: not p["is_viewer"])
    out.extend(_tribe(player, order, name) for player in players)
    for player in players:
        if player["is_viewer"] and player.get("cards") is not None:
            out.append(say(gettext("Your civilization cards: %(cards)s"), cards=listing(
                f"{card['name']} ({card['bottom']})" for card in player["cards"])))
    occupied = [f"{loc['name']} ({_people(loc, name)})" for loc in view["locations"]
                if loc["people"]]
    if occupied:
        out.append(say(gettext("People on the board: %(places)s"),
                       places=semicolon().join(occupied)))
    out.append(say(gettext("Cards on offer: %(slots)s"),
                   slots=semicolon().join(_slot(slot) for slot in view["display"])))
    out.append(say(gettext("Buildings on top: %(stacks)s"),
                   stacks=semicolon().join(_stack(stack) for stack in view["building_stacks"])))
    result = view.get("result")
    if result:
        out.append(final_scores(enumerate(result["scores"]), result["winners"], name))
    return out
