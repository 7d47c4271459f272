"""7 Wonders' player-facing texts as message keys with parameters (see games.engines.texts):
the actions as their taker and the others read them, the resolution of a turn, the events of
the board, and the names of cards, wonders, cities, resources and score categories."""

from __future__ import annotations

from typing import Any

from games.engines.base import IllegalAction
from games.engines.texts import Catalog, Text, option_words, render, text

from .data import CARDS, OPTIONS, WONDERS
from .free_city import FREE_CITY, is_free_city, is_two_player
from .rules import AGE_NAMES, CARD_NAME, COLORS, RESOURCES, city_names, left_of, right_of
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
    # The words of the view: names of components, ...
    "sw.card_name": "{card}",
    "sw.wonder_name": "{wonder}",
    "sw.city_name": "{city}",
    "sw.age_name": "{age}",
    "sw.free_city": "Free City",
    # ... what a card or a wonder stage costs and does.
    "sw.list": "{items}",
    "sw.resources": "{resources}",
    "sw.free": "free",
    "sw.no_effect": "no effect",
    "sw.eff_produces": "produces {resources}",
    "sw.eff_produces_one_of": "produces 1 of {choice}",
    "sw.eff_untradable": "(neighbours cannot buy it)",
    "sw.eff_shields": ("{n} shield", "{n} shields", "n"),
    "sw.eff_points": "{n} VP",
    "sw.eff_coins": "+{n} coins",
    "sw.eff_science": "science: {symbol}",
    "sw.eff_science_any": "science: any symbol",
    "sw.eff_trade": "buy {goods} from {directions} for {price} coin",
    "sw.eff_coins_per": "{amount} coins per {what} ({whom})",
    "sw.eff_points_per": "{amount} VP per {what} ({whom})",
    "sw.per_card": "{colors} card",
    "sw.per_wonder_stage": "wonder stage",
    "sw.per_defeat_token": "defeat token",
    "sw.eff_free_build_once_per_age": "once per Age, build a card for free",
    "sw.eff_build_from_discard": "build a card from the discard pile for free",
    "sw.eff_play_seventh_card": "play the last card of each Age too",
    "sw.eff_copy_neighbor_guild": "copy a neighbour's guild at the end",
    # Refusals of a move (engine.apply), in the player's words.
    "sw.refuse_pick_kind": "Pick a card from your hand: build it, use it for a wonder stage, or "
                           "discard it.",
    "sw.refuse_revealing": "Every pick is in; the turn is being revealed.",
    "sw.refuse_not_in_hand": "That card is not in your hand.",
    "sw.refuse_free_city_mark": "Now choose the Free City's card: one of the cards left in your "
                                "hand, marked for the Free City.",
    "sw.refuse_free_city_hand": "That card is not among the cards you may give the Free City "
                                "(your hand less the card you chose for your own city).",
    "sw.refuse_free_city_chain": "The Free City can build {card} free by chain, so it must "
                                 "build it that way.",
    "sw.refuse_free_city_discard": "The Free City may discard {card} only if it can neither "
                                   "build it nor use it for its next wonder stage.",
    "sw.refuse_free_city_use": "That is not a way for the Free City to use {card} now: choose a "
                               "listed action.",
    "sw.refuse_already_built": "Your city already has {card}; no city may hold two identical "
                               "buildings.",
    "sw.refuse_wonder_complete": "Your wonder is complete.",
    "sw.refuse_olympia": "Olympia's free build is not available for that card now.",
    "sw.refuse_build": "That is not a way to build {card} now: choose one of the listed payments "
                       "(you may buy only what your city lacks, only from what your neighbours' "
                       "brown and grey cards and boards produce, with coins you hold now).",
    "sw.refuse_use": "That is not a way to use {card} now: choose one of the listed payments "
                     "(you may buy only what your city lacks, only from what your neighbours' "
                     "brown and grey cards and boards produce, with coins you hold now).",
    "sw.refuse_no_seat": "There is no seat {number} in this game.",
    "sw.refuse_picks_missing": "Not every seat has picked a card yet.",
    # The words of the view's own numbers and names, by their path in a player's entry ("*":
    # any key, the parameter), for the preview of a move (games.board): "coins: 3 → 1".
    "sw.field.coins": "coins",
    "sw.field.shields": "shields",
    "sw.field.card_count": "cards built",
    "sw.field.hand_size": "cards in hand",
    "sw.field.points_so_far": "points so far",
    "sw.field.score_so_far.*": "{category}",
    "sw.field.produces.fixed.*": "{resource}",
    "sw.field.produces.sellable.*": "{resource} for your neighbours to buy",
    "sw.field.wonder.stages_built": "wonder stages built",
    "sw.field.wonder.name": "wonder",
    "sw.field.wonder.city": "city",
}

CATEGORY_NAMES = {
    "military": "Military", "treasury": "Treasury", "wonder": "Wonder", "civilian": "Civilian",
    "science": "Science", "commercial": "Commercial", "guilds": "Guilds",
}

#: The options' words (data.OPTIONS), read by context "seven_wonders.option" where the new-game
#: form and GET /api/v1/engines/ show them (games.presentation.texts.engine_described).
OPTION_WORDS = option_words(OPTIONS)

#: Where a card may be counted or bought: the neighbours and the city itself.
DIRECTIONS = ("left", "self", "right")
SCIENCE_SYMBOLS = ("compass", "gear", "tablet")

CATALOG = Catalog(
    domain="seven_wonders",
    messages=MESSAGES,
    kinds={"seat": "seat", "seller": "seat", "who": "seat_lower", "card": "card",
           "chain": "card", "wonder": "wonder", "city": "city", "resource": "resource",
           "bought": "resource", "age": "age", "category": "category",
           "resources": "resource", "choice": "resource", "goods": "resource",
           "directions": "direction", "whom": "direction", "colors": "color",
           "color": "color", "symbol": "science"},
    names={
        # By id, and by the name itself: a chain's source cards are named in the data.
        "card": {**CARD_NAME, **{name: name for name in CARD_NAME.values()}},
        "wonder": {wonder_id: wonder["name"] for wonder_id, wonder in WONDERS.items()},
        "city": {wonder_id: wonder["city"] for wonder_id, wonder in WONDERS.items()},
        "resource": {resource: resource for resource in RESOURCES},
        "age": {age: name for age, name in AGE_NAMES.items()},
        "category": {category: CATEGORY_NAMES[category] for category in CATEGORIES},
        "direction": {direction: direction for direction in DIRECTIONS},
        "color": {color: color for color in COLORS},
        "science": {symbol: symbol for symbol in SCIENCE_SYMBOLS},
        "option": OPTION_WORDS,
    },
    separators={"parts": " and ", "bought": ", ", "picks": "; ", "items": ", ",
                "resources": ", ", "choice": "/", "goods": "/", "directions": " and ",
                "whom": "/", "colors": " or "},
    bare=frozenset({"sw.card_name", "sw.wonder_name", "sw.city_name", "sw.age_name",
                    "sw.list", "sw.resources", "sw.field.score_so_far.*",
                    "sw.field.produces.fixed.*"}),
)

_CARD_BY_NAME = {name: cid for cid, name in reversed(CARD_NAME.items())}


def english(message: Text) -> str:
    return render(CATALOG, message)


def refusal(key: str, **params: Any) -> IllegalAction:
    """A refusal with its text, its English words read from the text."""
    message = text(key, **params)
    return IllegalAction(english(message), message)


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


# ----- the words of the view -------------------------------------------------------------------

SPECIALS = ("free_build_once_per_age", "build_from_discard", "play_seventh_card",
            "copy_neighbor_guild")


def effect_text(effect: dict[str, Any]) -> Text:
    """What a card or a wonder stage does, in a few words."""
    parts: list[Text] = []
    if "produce" in effect:
        parts.append(text("sw.eff_produces", resources=_resources(effect["produce"])))
    for group in effect.get("produce_choice", []):
        parts.append(text("sw.eff_produces_one_of", choice=list(group)))
    if ("produce" in effect or "produce_choice" in effect) and not effect.get("tradable"):
        parts.append(text("sw.eff_untradable"))
    if "shields" in effect:
        parts.append(text("sw.eff_shields", n=effect["shields"]))
    if "points" in effect:
        parts.append(text("sw.eff_points", n=effect["points"]))
    if "coins" in effect:
        parts.append(text("sw.eff_coins", n=effect["coins"]))
    if "science" in effect:
        symbol = effect["science"]
        parts.append(text("sw.eff_science_any") if symbol == "any"
                     else text("sw.eff_science", symbol=symbol))
    if "trade_discount" in effect:
        discount = effect["trade_discount"]
        parts.append(text("sw.eff_trade", goods=list(discount["resources"]),
                          directions=list(discount["directions"]), price=discount["price"]))
    for key, message in (("coins_per", "sw.eff_coins_per"), ("points_per", "sw.eff_points_per")):
        if key in effect:
            spec = effect[key]
            what = (text("sw.per_card", colors=list(spec["colors"])) if spec["what"] == "card"
                    else text(f"sw.per_{spec['what']}"))
            parts.append(text(message, amount=spec["amount"], what=what,
                              whom=list(spec["whom"])))
    if effect.get("special"):
        parts.append(text(f"sw.eff_{effect['special']}"))
    return text("sw.list", items=parts) if parts else text("sw.no_effect")


def cost_text(coins: int, resources: dict[str, int]) -> Text:
    """A price in coins and resources ("free" when there is none)."""
    items = [text("sw.coins", n=coins)] if coins else []
    if any(resources.values()):
        items.append(text("sw.resources", resources=_resources(resources)))
    return text("sw.list", items=items) if items else text("sw.free")


def card_name(cid: str) -> Text:
    return text("sw.card_name", card=cid)


def named_card(name: str) -> Text:
    """A card named by its name in the data (a chain's source card): the name, never an id,
    says no more than the printed card does."""
    return text("sw.card_name", card=name)
