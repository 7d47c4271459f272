"""7 Wonders as the game page shows it (templates/games/boards/seven_wonders.html), in short
lines: the reader's hand and pick first, then every city in table order from the reader (with two
players the Free City last)."""

from __future__ import annotations

from typing import Any

from notifications.summaries.common import Names, goods, listing, plural


def _production(produces: dict[str, Any]) -> str:
    parts = [goods(produces.get("fixed") or {})] if produces.get("fixed") else []
    parts += ["1 of " + "/".join(group) for group in produces.get("choices") or []]
    return listing(parts, "nothing")


def _city(player: dict[str, Any], name: Names) -> str:
    wonder = player.get("wonder")
    if wonder is None:
        where = "no wonder yet"
    elif wonder.get("side") is None:
        where = f"{wonder['name']} ({wonder['city']}), side not chosen"
    else:
        where = (f"{wonder['name']} ({wonder['city']}) side {wonder['side']}, "
                 f"{wonder['stages_built']} of {len(wonder['stages'])} stages built")
    role = {"left": " (your left)", "right": " (your right)"}.get(player.get("role", ""), "")
    if player.get("name"):  # the two-player Free City
        played_by = player.get("controller")
        if played_by is not None:
            role += f", played by {'you' if played_by == name.viewer else name(played_by)} " \
                "this turn"
        role += f", {plural(player.get('pile_size', 0), 'card')} in its pile"
    parts = [where, plural(player["coins"], "coin"), plural(player["shields"], "shield")]
    if player.get("tokens"):
        parts.append("military tokens " + " ".join(f"{token:+d}" for token in player["tokens"]))
    if "produces" in player:
        parts.append("produces " + _production(player["produces"]))
    built = [card["name"] for cards in player.get("cards", {}).values() for card in cards]
    parts.append(f"built ({len(built)}): {listing(built)}")
    parts.append(plural(player.get("points_so_far", 0), "point") + " so far")
    if player.get("has_picked") and player.get("role") != "you":
        parts.append("has picked")
    who = player["name"] if player.get("name") else name.who(player["seat"])
    return f"{who}{role}: " + ", ".join(parts)


def lines(view: dict[str, Any], name: Names, viewer: int | None) -> list[str]:
    phase = view["phase"]
    if phase == "setup":
        status = "Choosing wonders."
    elif phase == "over":
        status = "Game over."
    elif view.get("free_city"):
        status = (f"Age {view['age_name']}, turn {view['turn']}: hands swap across the Border; "
                  f"{name(view['free_city']['controller'])} plays the Free City; waiting for "
                  f"{plural(view['waiting_for'], 'player')}.")
    else:
        status = (f"Age {view['age_name']}, turn {view['turn']}: hands pass to the "
                  f"{view['direction']}; waiting for {plural(view['waiting_for'], 'player')}.")
    out = [status]
    you = view.get("you")
    if you:
        if you.get("hand"):
            out.append(f"Your hand ({len(you['hand'])}): " + "; ".join(
                f"{card['name']} ({card['color']}, cost {card['cost']}: {card['effect']})"
                for card in you["hand"]))
        if you.get("controls_free_city"):
            out.append("You hold the Free City card: choose your own card first, then the Free "
                       "City's from the rest of your hand.")
        if you.get("pick_text"):
            out.append(f"Your pick this turn: {you['pick_text']}")
        if you.get("free_city_pick_text"):
            out.append(f"The Free City's pick: {you['free_city_pick_text']}")
        if you.get("discard"):
            out.append("You may build from the discard pile: "
                       + listing(card["name"] for card in you["discard"]))
    count = view["num_players"]
    first = viewer if viewer is not None else 0
    by_seat = {player["seat"]: player for player in view["players"]}
    out.extend(_city(by_seat[(first + step) % count], name) for step in range(count)
               if (first + step) % count in by_seat)
    if view.get("free_city"):
        out.append(_city(view["free_city"], name))
    if view.get("events"):
        out.append("Last turn: " + " ".join(view["events"]))
    if view.get("discard_count"):
        out.append(f"Discard pile: {plural(view['discard_count'], 'card')}.")
    result = view.get("result")
    if result:
        out.append("Final scores: " + ", ".join(
            f"{name(row['seat'])} {row['total']}" for row in result["rows"]) + "; won: "
            + listing(name(seat) for seat in result["winners"]))
        if result.get("free_city"):
            out.append(f"The Free City (not ranked): {result['free_city']['total']}.")
    return out
