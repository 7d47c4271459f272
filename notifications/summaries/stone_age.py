"""Stone Age as the game page shows it (templates/games/boards/stone_age.html), in short lines."""

from __future__ import annotations

from typing import Any

from notifications.summaries.common import Names, goods, listing, plural

PHASES = {"placement": "placing people", "actions": "resolving actions", "feeding": "feeding",
          "over": "game over"}


def _tribe(player: dict[str, Any], order: list[str], name: Names) -> str:
    people = plural(player["people"], "person", "people")
    if player.get("unplaced"):
        people += f" ({player['unplaced']} to place)"
    tools = ", ".join(str(tile["value"]) + (" (used)" if tile.get("used") else "")
                      for tile in player["tools"]) or "none"
    parts = [
        plural(player["score"], "point"), people,
        f"{player['food']} food (+{player['food_track']} a round)",
        goods(player["resources"], order, keep_zero=True),
        f"tools {tools}", plural(player["card_count"], "card"),
        plural(player["building_count"], "building"),
    ]
    if player.get("face_up_cards"):
        parts.append("ready to use: " + "; ".join(card["top"] for card in
                                                   player["face_up_cards"]))
    if player.get("feeding_penalties"):
        parts.append(f"fed short {player['feeding_penalties']} times")
    start = " (start player)" if player.get("is_first_player") else ""
    return f"{name.who(player['seat'])}{start}: " + ", ".join(parts)


def _people(location: dict[str, Any], name: Names) -> str:
    return ", ".join(f"{name(p['seat'])} {p['count']}" for p in location["people"])


def lines(view: dict[str, Any], name: Names, viewer: int | None) -> list[str]:
    order = view.get("resources_order") or ["wood", "clay", "stone", "gold"]
    status = (f"Round {view['round']}, {PHASES.get(view['phase'], view['phase'])}; "
              f"{plural(view['deck_size'], 'card')} left in the deck.")
    if view.get("last_round"):
        status += " Last round: a building stack is empty."
    out = [status]
    decision = view.get("decision")
    if decision:
        now = f"Now: {decision['text']}"
        if decision["kind"] == "tools":
            now += f" Dice {', '.join(map(str, decision['dice']))}."
        elif decision["kind"] == "dice_for_all":
            now += " " + "; ".join(f"{face}: {text}" for face, text in
                                   decision["items"].items()) + "."
        elif decision["kind"] == "feeding":
            now += f" Set aside so far: {goods(decision['chosen'], order)}."
        out.append(now)
    players = sorted(view["players"], key=lambda p: not p["is_viewer"])
    out.extend(_tribe(player, order, name) for player in players)
    for player in players:
        if player["is_viewer"] and player.get("cards") is not None:
            out.append("Your civilization cards: " + listing(
                f"{card['name']} ({card['bottom']})" for card in player["cards"]))
    occupied = [f"{loc['name']} ({_people(loc, name)})" for loc in view["locations"]
                if loc["people"]]
    if occupied:
        out.append("People on the board: " + "; ".join(occupied))
    out.append("Cards on offer: " + "; ".join(
        f"for {slot['cost']}: {slot['card']['name']} ({slot['card']['top']})"
        if slot.get("card") else f"for {slot['cost']}: bought" for slot in view["display"]))
    out.append("Buildings on top: " + "; ".join(
        f"{stack['top']['cost']} for {stack['top']['points']}"
        + (" points" if stack["top"]["cost_type"] == "fixed" else "")
        if stack.get("top") else "empty stack" for stack in view["building_stacks"]))
    result = view.get("result")
    if result:
        out.append("Final scores: " + ", ".join(
            f"{name(seat)} {score}" for seat, score in enumerate(result["scores"])) + "; won: "
            + listing(name(seat) for seat in result["winners"]))
    return out
