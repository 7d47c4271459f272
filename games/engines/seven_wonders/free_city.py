"""The two-player variant's Free City (reference section 19): a third city, index 2 in
`state["players"]`, with no seat of its own. Each turn the seat holding the Free City card draws
the top card of the Free City's pile into its hand and chooses two cards, first its own, then the
Free City's; the card changes hands with the hands across the Border card every turn, so seat 0
controls the Free City in turns 1, 3, 5 of every Age and seat 1 in turns 2, 4, 6.

A two-player state differs from a 3–7 player one only by the `"free_city"` entry
({"pile": [...], "pick": action or None}) and by `players` holding three cities for two seats;
a 3–7 player state never has that entry, so those games are untouched by this module.
"""

from __future__ import annotations

from typing import Any

from .rules import CityFacts, card_actions, distinct

#: The seats of a two-player game; the Free City is the city after them.
SEATS = 2
FREE_CITY = SEATS
CITIES = SEATS + 1


def is_two_player(state: dict[str, Any]) -> bool:
    return "free_city" in state


def controller(state: dict[str, Any]) -> int:
    """The seat holding the Free City card this turn: seat 0 (the player on the Free City's left)
    at the start of every Age (reference 19.6), then the card crosses the Border every turn."""
    return (state["turn"] - 1) % SEATS


def acting_seat(state: dict[str, Any], city: int) -> int:
    """Who decides for `city`: its own seat, or for the Free City the seat controlling it."""
    if is_two_player(state) and city == FREE_CITY:
        return controller(state)
    return city


def is_free_city(state: dict[str, Any], city: int) -> bool:
    return is_two_player(state) and city == FREE_CITY


def label(state: dict[str, Any], city: int) -> str:
    """A city's name in a sentence: "Seat N" (the presentation puts the player's name in) or
    "the Free City"."""
    return "the Free City" if is_free_city(state, city) else f"Seat {city}"


def choosing_for_free_city(state: dict[str, Any], seat: int) -> bool:
    """Whether `seat`'s next pick is the Free City's card: it controls the Free City, has chosen
    its own card and not yet the Free City's."""
    return (
        is_two_player(state)
        and state["phase"] == "pick"
        and seat == controller(state)
        and state["picks"][seat] is not None
        and state["free_city"]["pick"] is None
    )


def free_city_hand(state: dict[str, Any]) -> list[str]:
    """The cards the controller may give the Free City: its hand less its own chosen card."""
    seat = controller(state)
    hand = list(state["hands"][seat])
    hand.remove(state["picks"][seat]["card"])
    return hand


def free_city_pick_actions(state: dict[str, Any]) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = []
    facts = CityFacts(state, FREE_CITY)
    for cid in distinct(free_city_hand(state)):
        actions.extend(card_actions(state, FREE_CITY, cid, free_city=True, facts=facts))
    return actions


def draw_for_controller(state: dict[str, Any]) -> None:
    """The controller draws the top card of the Free City pile into its hand (in place, on a
    state the caller owns)."""
    pile = list(state["free_city"]["pile"])
    state["hands"][controller(state)].append(pile.pop(0))
    state["free_city"] = {**state["free_city"], "pile": pile}
