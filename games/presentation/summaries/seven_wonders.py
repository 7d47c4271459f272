"""7 Wonders as the game page shows it (templates/games/boards/seven_wonders.html), in short
lines: the reader's hand and pick first, then every city in table order from the reader (with two
players the Free City last)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext

from games.presentation.summaries.common import (
    Names,
    comma,
    final_scores,
    goods,
    listing,
    say,
    semicolon,
)


def _production(produces: dict[str, Any], name: Names) -> str:
    parts = [goods(produces["fixed"], name, "resource")] if produces.get("fixed") else []
    parts += [say(gettext("1 of %(choices)s"),
                  choices="/".join(name.thing("resource", item) for item in group))
              for group in produces.get("choices") or []]
    return listing(parts, gettext("nothing"))


def _wonder(wonder: dict[str, Any] | None) -> str:
    if wonder is None:
        return gettext("no wonder yet")
    if wonder.get("side") is None:
        return say(gettext("%(wonder)s (%(city)s), side not chosen"), wonder=wonder["name"],
                   city=wonder["city"])
    return say(gettext("%(wonder)s (%(city)s) side %(side)s, %(built)s of %(stages)s stages "
                       "built"), wonder=wonder["name"], city=wonder["city"],
               side=wonder["side"], built=wonder["stages_built"],
               stages=len(wonder["stages"]))


def _who(player: dict[str, Any], name: Names) -> str:
    """Whose city: the reader, a neighbour (which side) or the two-player Free City."""
    who = player["name"] if player.get("name") else name.who(player["seat"])
    if player.get("role") == "left":
        who = say(gettext("%(who)s (your left)"), who=who)
    elif player.get("role") == "right":
        who = say(gettext("%(who)s (your right)"), who=who)
    if player.get("name"):  # the two-player Free City
        played_by = player.get("controller")
        if played_by is not None and played_by == name.viewer:
            who = say(gettext("%(who)s, played by you this turn"), who=who)
        elif played_by is not None:
            who = say(gettext("%(who)s, played by %(player)s this turn"), who=who,
                      player=name(played_by))
        pile = player.get("pile_size", 0)
        who = say(ngettext("%(who)s, %(n)s card in its pile", "%(who)s, %(n)s cards in its pile",
                           pile), who=who, n=pile)
    return who


def _city(player: dict[str, Any], name: Names) -> str:
    parts = [_wonder(player.get("wonder")),
             say(ngettext("%(n)s coin", "%(n)s coins", player["coins"]), n=player["coins"]),
             say(ngettext("%(n)s shield", "%(n)s shields", player["shields"]),
                 n=player["shields"])]
    if player.get("tokens"):
        parts.append(say(gettext("military tokens %(tokens)s"), tokens=" ".join(
            localized_sign(token) for token in player["tokens"])))
    if "produces" in player:
        parts.append(say(gettext("produces %(goods)s"),
                         goods=_production(player["produces"], name)))
    built = [card["name"] for cards in player.get("cards", {}).values() for card in cards]
    parts.append(say(gettext("built (%(n)s): %(cards)s"), n=len(built), cards=listing(built)))
    points = player.get("points_so_far", 0)
    parts.append(say(ngettext("%(n)s point so far", "%(n)s points so far", points), n=points))
    if player.get("has_picked") and player.get("role") != "you":
        parts.append(gettext("has picked"))
    return f"{_who(player, name)}: " + comma().join(parts)


def localized_sign(token: int) -> str:
    """A military token as "+3" or "-1", in the reader's digits."""
    return ("+" if token >= 0 else "-") + say("%(n)s", n=abs(token))


def _status(view: dict[str, Any], name: Names) -> str:
    phase = view["phase"]
    if phase == "setup":
        return gettext("Choosing wonders.")
    if phase == "over":
        return gettext("Game over.")
    waiting = view["waiting_for"]
    values = {"age": view["age_name"], "turn": view["turn"], "n": waiting}
    if view.get("free_city"):
        return say(ngettext(
            "Age %(age)s, turn %(turn)s: hands swap across the Border; %(player)s plays the "
            "Free City; waiting for %(n)s player.",
            "Age %(age)s, turn %(turn)s: hands swap across the Border; %(player)s plays the "
            "Free City; waiting for %(n)s players.", waiting),
            player=name(view["free_city"]["controller"]), **values)
    if view["direction"] == "left":
        return say(ngettext(
            "Age %(age)s, turn %(turn)s: hands pass to the left; waiting for %(n)s player.",
            "Age %(age)s, turn %(turn)s: hands pass to the left; waiting for %(n)s players.",
            waiting), **values)
    return say(ngettext(
        "Age %(age)s, turn %(turn)s: hands pass to the right; waiting for %(n)s player.",
        "Age %(age)s, turn %(turn)s: hands pass to the right; waiting for %(n)s players.",
        waiting), **values)


def _hand(you: dict[str, Any], name: Names) -> list[str]:
    out = []
    if you.get("hand"):
        out.append(say(gettext("Your hand (%(n)s): %(cards)s"), n=len(you["hand"]),
                       cards=semicolon().join(
            say(gettext("%(card)s (%(color)s, cost %(cost)s: %(effect)s)"), card=card["name"],
                color=name.thing("color", card["color"]), cost=card["cost"],
                effect=card["effect"]) for card in you["hand"])))
    if you.get("controls_free_city"):
        out.append(gettext("You hold the Free City card: choose your own card first, then the "
                           "Free City's from the rest of your hand."))
    if you.get("pick_text"):
        out.append(say(gettext("Your pick this turn: %(pick)s"), pick=you["pick_text"]))
    if you.get("free_city_pick_text"):
        out.append(say(gettext("The Free City's pick: %(pick)s"),
                       pick=you["free_city_pick_text"]))
    if you.get("discard"):
        out.append(say(gettext("You may build from the discard pile: %(cards)s"),
                       cards=listing(card["name"] for card in you["discard"])))
    return out


def lines(view: dict[str, Any], name: Names, viewer: int | None) -> list[str]:
    out = [_status(view, name)]
    if view.get("you"):
        out.extend(_hand(view["you"], name))
    count = view["num_players"]
    first = viewer if viewer is not None else 0
    by_seat = {player["seat"]: player for player in view["players"]}
    out.extend(_city(by_seat[(first + step) % count], name) for step in range(count)
               if (first + step) % count in by_seat)
    if view.get("free_city"):
        out.append(_city(view["free_city"], name))
    if view.get("events"):
        out.append(say(gettext("Last turn: %(events)s"), events=" ".join(view["events"])))
    if view.get("discard_count"):
        out.append(say(ngettext("Discard pile: %(n)s card.", "Discard pile: %(n)s cards.",
                                view["discard_count"]), n=view["discard_count"]))
    result = view.get("result")
    if result:
        out.append(final_scores(((row["seat"], row["total"]) for row in result["rows"]),
                                result["winners"], name))
        if result.get("free_city"):
            out.append(say(gettext("The Free City (not ranked): %(total)s."),
                           total=result["free_city"]["total"]))
    return out
