"""7 Wonders' player-facing texts as message keys with parameters (see games.engines.texts):
the actions as their taker and the others read them, the resolution of a turn, the events of
the board, and the names of cards, wonders, cities, resources and score categories."""

from __future__ import annotations

from typing import Any

from games.engines.texts import Catalog, Text, render, text

from .data import CARDS, WONDERS
from .free_city import FREE_CITY, is_free_city, is_two_player
from .rules import AGE_NAMES, CARD_NAME, RESOURCES, city_names, left_of, right_of
from .scoring import CATEGORIES

MESSAGES: dict[str, Any] = {
    # An action as the seat taking it reads it (also each choice's text).
    "sw.for_free_city": "For the Free City: {action}",
    "sw.unknown": "An unknown action",
    "sw.take_wonder": "Take {wonder} ({city}), side {side}",
    "sw.discard": "Discard {card} for 3 coins",
    "sw.discard_build": "Build {card} from the discard pile for free",
    "sw.build_chain": "Build {card}: free by chain from {chain}",
    "sw.earlier_card": "an earlier card",
    "sw.build_olympia": "Build {card}: free with Olympia's once-per-Age power",
    "sw.build_paying": "Build {card}: {payment}",
    "sw.build_own": "Build {card}: own resources",
    "sw.build_free": "Build {card}: free",
    "sw.wonder_stage": "Build wonder stage {stage} with {card}: {payment}",
    "sw.own_resources": "own resources",
    "sw.pay": "pay {parts}",
    "sw.pay_to": "{coins} to {seller} for {bought}",
    "sw.pay_bank": "{coins} to the bank",
    "sw.coins": ("{n} coin", "{n} coins", "n"),
    "sw.the_left": "the left",
    "sw.the_right": "the right",
    "sw.the_free_city": "the Free City",
    "sw.resource_count": "{n} {resource}",
    # The action as the log shows it.
    "sw.chose": "{seat} chose a card.",
    "sw.chose_for_free_city": "{seat} chose a card for the Free City.",
    "sw.seat_for_free_city": "{seat} (for the Free City)",
    "sw.seventh_wonder": "{seat} used the last card of the Age for a wonder stage.",
    "sw.seventh_discard": "{seat} discarded the last card of the Age for 3 coins.",
    "sw.seventh": "Last card of the Age (Babylon): {action}",
    "sw.seat_action": "{seat}: {action}",
    # The turn's resolution.
    "sw.resolution": "Age {age}, turn {turn}: {picks}.",
    "sw.res_built": "{who} built {card}",
    "sw.res_stage": "{who} built wonder stage {stage}",
    "sw.res_discarded": "{who} discarded a card",
    # Events on the board.
    "sw.ev_built": "{seat} built {card}{how}{last}{paid}.",
    "sw.ev_free_chain": " free by chain",
    "sw.ev_free_olympia": " free (Olympia)",
    "sw.ev_seventh": " with the last card of the Age",
    "sw.ev_paid": " (paid {parts})",
    "sw.ev_coins_to": "{coins} to {seller}",
    "sw.ev_stage": "{seat} built wonder stage {stage}{paid}.",
    "sw.ev_discard": "{seat} discarded a card for 3 coins.",
    "sw.ev_last_discarded": "{seat} discarded the last card of the Age.",
    "sw.ev_discard_build": "{seat} built {card} from the discard pile.",
    "sw.ev_discard_build_wasted": "{seat} found nothing to build in the discard pile.",
    "sw.ev_wonder_chosen": "{seat} took {city}, side {side}.",
    "sw.ev_free_city": "The Free City",
    "sw.ev_mine": "You did something.",
    "sw.ev_other": "Something happened.",
}

CATEGORY_NAMES = {
    "military": "Military", "treasury": "Treasury", "wonder": "Wonder", "civilian": "Civilian",
    "science": "Science", "commercial": "Commercial", "guilds": "Guilds",
}

CATALOG = Catalog(
    domain="seven_wonders",
    messages=MESSAGES,
    kinds={"seat": "seat", "seller": "seat", "who": "seat_lower", "card": "card",
           "chain": "card", "wonder": "wonder", "city": "city", "resource": "resource",
           "bought": "resource", "age": "age", "category": "category"},
    names={
        "card": dict(CARD_NAME),
        "wonder": {wonder_id: wonder["name"] for wonder_id, wonder in WONDERS.items()},
        "city": {wonder_id: wonder["city"] for wonder_id, wonder in WONDERS.items()},
        "resource": {resource: resource for resource in RESOURCES},
        "age": {age: name for age, name in AGE_NAMES.items()},
        "category": {category: CATEGORY_NAMES[category] for category in CATEGORIES},
    },
    separators={"parts": " and ", "bought": ", ", "picks": "; "},
)

_CARD_BY_NAME = {name: cid for cid, name in reversed(CARD_NAME.items())}


def english(message: Text) -> str:
    return render(CATALOG, message)


def _coins(n: int) -> Text:
    return text("sw.coins", n=n)


def _resources(counts: dict[str, int]) -> list[Any]:
    return [name if counts[name] == 1 else text("sw.resource_count", n=counts[name],
                                                resource=name)
            for name in RESOURCES if counts.get(name, 0)]


def _city(state: dict[str, Any], city: int) -> int | Text:
    return text("sw.the_free_city") if is_free_city(state, city) else city


def _payment(state: dict[str, Any], seat: int, action: dict[str, Any],
             bank: int = 0) -> Text | None:
    """The payment (view.payment_text); with two players the neighbours are named."""
    count = len(state["players"])
    parts: list[Text] = []
    for side in ("left", "right"):
        paid = action.get("pay", {}).get(side)
        if paid:
            if is_two_player(state):
                seller = _city(state, (left_of if side == "left" else right_of)(seat, count))
            else:
                seller = text(f"sw.the_{side}")
            parts.append(text("sw.pay_to", coins=_coins(paid), seller=seller,
                              bought=_resources(action["buy"][side])))
    if bank:
        parts.append(text("sw.pay_bank", coins=_coins(bank)))
    return text("sw.pay", parts=parts) if parts else None


def own_action_text(state: dict[str, Any], seat: int, action: dict[str, Any]) -> Text:
    """The action as the seat that takes it reads it (a Free City action says so)."""
    if is_two_player(state) and action.get("free_city") is True:
        return text("sw.for_free_city", action=_city_action_text(state, FREE_CITY, action))
    return _city_action_text(state, seat, action)


def _city_action_text(state: dict[str, Any], seat: int, action: dict[str, Any]) -> Text:
    kind = action.get("type")
    cid = action.get("card")
    if kind == "choose_wonder":
        if action.get("wonder") not in WONDERS:
            return text("sw.unknown")
        return text("sw.take_wonder", wonder=action["wonder"], city=action["wonder"],
                    side=str(action.get("side")))
    if not isinstance(cid, str) or cid not in CARDS:
        return text("sw.unknown")
    if kind == "discard":
        return text("sw.discard", card=cid)
    if kind == "discard_build":
        return text("sw.discard_build", card=cid)
    if kind == "build":
        if action.get("free") == "chain":
            owned = sorted(set(CARDS[cid]["chain_from"]) & city_names(state["players"][seat]))
            chain = _CARD_BY_NAME[owned[0]] if owned else text("sw.earlier_card")
            return text("sw.build_chain", card=cid, chain=chain)
        if action.get("free") == "olympia":
            return text("sw.build_olympia", card=cid)
        paying = _payment(state, seat, action, CARDS[cid]["coins"])
        if paying:
            return text("sw.build_paying", card=cid, payment=paying)
        return text("sw.build_own" if CARDS[cid]["cost"] else "sw.build_free", card=cid)
    if kind == "wonder":
        stage = len(state["players"][seat]["stage_cards"]) + 1
        paying = _payment(state, seat, action) or text("sw.own_resources")
        return text("sw.wonder_stage", stage=stage, card=cid, payment=paying)
    return text("sw.unknown")


def describe_text(state: dict[str, Any], seat: int, action: dict[str, Any],
                  viewer: int | None) -> Text:
    """The action as `viewer` may read it: a pick still hidden is only "chose a card"."""
    if not isinstance(action, dict):
        return text("sw.unknown")
    phase = state["phase"]
    for_free_city = is_two_player(state) and action.get("free_city") is True
    if phase == "pick" and viewer != seat:
        return text("sw.chose_for_free_city" if for_free_city else "sw.chose", seat=seat)
    own = own_action_text(state, seat, action)
    if phase == "seventh":
        who = text("sw.seat_for_free_city", seat=seat) if for_free_city else seat
        if viewer != seat and action.get("type") == "wonder":
            return text("sw.seventh_wonder", seat=who)
        if viewer != seat and action.get("type") == "discard":
            return text("sw.seventh_discard", seat=who)
        return text("sw.seventh", action=own)
    if viewer != seat:
        return text("sw.seat_action", seat=seat, action=own)
    return own


def resolution_text(state: dict[str, Any], viewer: int | None = None) -> Text:
    """The turn's picks revealed together."""
    parts = []
    picks = list(enumerate(state["picks"]))
    if is_two_player(state):
        picks.insert(0, (FREE_CITY, state["free_city"]["pick"]))  # revealed first
    for seat, action in picks:
        if not action:
            continue
        who = _city(state, seat)
        kind = action["type"]
        if kind == "build":
            parts.append(text("sw.res_built", who=who, card=action["card"]))
        elif kind == "wonder":
            stage = len(state["players"][seat]["stage_cards"]) + 1
            parts.append(text("sw.res_stage", who=who, stage=stage))
        else:
            parts.append(text("sw.res_discarded", who=who))
    return text("sw.resolution", age=state["age"], turn=state["turn"], picks=parts)


def event_text(state: dict[str, Any], event: dict[str, Any], viewer: int | None) -> Text:
    """An event of the board's list."""
    seat = event["seat"]
    kind = event["kind"]
    who = text("sw.ev_free_city") if is_free_city(state, seat) else seat
    count = len(state["players"])
    paid_parts = []
    for side, n in event.get("pay", {}).items():
        if n:
            if is_two_player(state):
                seller = _city(state, (left_of if side == "left" else right_of)(seat, count))
            else:
                seller = text(f"sw.the_{side}")
            paid_parts.append(text("sw.ev_coins_to", coins=_coins(n), seller=seller))
    paid = text("sw.ev_paid", parts=paid_parts) if paid_parts else None
    if kind == "build":
        how = {"chain": "sw.ev_free_chain", "olympia": "sw.ev_free_olympia"}.get(
            event.get("free"))
        return text("sw.ev_built", seat=who, card=event["card"],
                    how=text(how) if how else None,
                    last=text("sw.ev_seventh") if event.get("seventh") else None, paid=paid)
    if kind == "wonder":
        return text("sw.ev_stage", seat=who, stage=event["stage"], paid=paid)
    if kind in ("discard", "last_card_discarded", "discard_build_wasted"):
        return text({"discard": "sw.ev_discard", "last_card_discarded": "sw.ev_last_discarded",
                     "discard_build_wasted": "sw.ev_discard_build_wasted"}[kind], seat=who)
    if kind == "discard_build":
        return text("sw.ev_discard_build", seat=who, card=event["card"])
    if kind == "wonder_chosen":
        return text("sw.ev_wonder_chosen", seat=who, city=event["wonder"],
                    side=str(event["side"]))
    return text("sw.ev_mine" if viewer == seat else "sw.ev_other")
