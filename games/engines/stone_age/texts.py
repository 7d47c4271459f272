"""Stone Age's player-facing texts as message keys with parameters (see games.engines.texts):
the log lines the rules write (rules.event), the sentences of `describe`, and the words of the
views (decisions, cards, buildings, score lines)."""

from __future__ import annotations

from typing import Any

from games.engines.base import IllegalAction
from games.engines.texts import Catalog, Text, render, text

from . import data
from .data import BUILDINGS, CARDS, RESOURCES

_PEOPLE = "count"

MESSAGES: dict[str, Any] = {
    # Sentences of the log (rules.py), in the order the rules write them.
    "sa.roll_for_all": "{seat} rolls {dice} for everyone ({card}).",
    "sa.roll_at": "{seat} rolls {dice} = {total} for {good} (the {location}, ÷{divisor}).",
    "sa.roll_card": "{seat} rolls {dice} = {total} for {good} ({card}, ÷{divisor}).",
    "sa.place": ("{seat} places {count} person on the {location}.",
                 "{seat} places {count} people on the {location}.", _PEOPLE),
    "sa.place_card": ("{seat} places {count} person on the {location} ({card}).",
                      "{seat} places {count} people on the {location} ({card}).", _PEOPLE),
    "sa.place_building": ("{seat} places {count} person on the {location} ({building}).",
                          "{seat} places {count} people on the {location} ({building}).",
                          _PEOPLE),
    "sa.placed": "All people are placed; actions begin.",
    "sa.work": ("{seat} works the {location} with {count} person.",
                "{seat} works the {location} with {count} people.", _PEOPLE),
    "sa.make_tool": "{seat} makes a tool (tools now {tiles}).",
    "sa.tool_maker_full": "{seat} visits the tool maker but already has 4/4/4 tools.",
    "sa.hut": "{seat} gains a person in the hut ({people} people).",
    "sa.hut_full": "{seat} visits the hut but already has 10 people.",
    "sa.food_track": "{seat} raises the food track to {level}.",
    "sa.field_full": "{seat} works the field but the food track is already at 10.",
    "sa.card_unpaid": "{seat} cannot pay {cost} resource(s) for {card}; the card stays.",
    "sa.building_unpaid": "{seat} cannot pay for the building ({building}); it stays.",
    "sa.gets": "{seat} gets {amount} {good} ({total}).",
    "sa.gets_with_tools": "{seat} gets {amount} {good} ({total} + {bonus} from tools = {sum}).",
    "sa.die_resource": "{seat} takes 1 {good} (the die showing {face}).",
    "sa.die_tool": "{seat} takes a tool (the die showing {face}).",
    "sa.die_tool_full": ("{seat} takes a tool (the die showing {face}), but tools are already "
                         "4/4/4."),
    "sa.die_food_track": "{seat} takes +1 food track (the die showing {face}).",
    "sa.die_food_track_full": ("{seat} takes +1 food track (the die showing {face}), but the food "
                               "track is already at 10."),
    "sa.pays_for_card": "{seat} pays {pay} for {card}.",
    "sa.takes": "{seat} takes {amount} {good}.",
    "sa.scores": "{seat} scores {amount} points.",
    "sa.gains_tool": "{seat} gains a tool (tools now {tiles}).",
    "sa.tools_full": "{seat} already has 4/4/4 tools.",
    "sa.food_track_full": "{seat}'s food track is already at 10.",
    "sa.draws_hidden": "{seat} draws a face-down card from the deck.",
    "sa.draws_card": "{seat} draws {card} face down (scores only at the end).",
    "sa.deck_empty": "{seat} would draw a card but the deck is empty.",
    "sa.keeps_one_use": "{seat} keeps a one-use tool worth {value}.",
    "sa.keeps_two_resources": "{seat} keeps the card for 2 resources of choice.",
    "sa.buys_building": ("{seat} pays {pay} for the building ({building}) and scores "
                         "{points} points."),
    "sa.stack_empty": "A building stack is empty: this is the last round.",
    "sa.feeds_missing": "{seat} feeds the missing {shortfall} with {pay}.",
    "sa.declines_card": "{seat} declines {card}.",
    "sa.declines_building": "{seat} declines the building ({building}).",
    "sa.short_penalty": "{seat} is {shortfall} food short and loses 10 points.",
    "sa.uses_card": "{seat} uses {card} to take {pay}.",
    "sa.feeding": "Feeding.",
    "sa.feeds": "{seat} feeds {people} people ({food} food left).",
    "sa.short_unpayable": ("{seat} is {shortfall} food short, cannot pay it with resources and "
                           "loses 10 points."),
    "sa.short": "{seat} is {shortfall} food short.",
    "sa.round": "Round {round} begins; {seat} is the start player.",
    "sa.end_buildings": "A building stack ran out: the game ends after this round.",
    "sa.end_cards": "Not enough civilization cards to refill the display: the game ends.",
    # Parts of sentences.
    "sa.amount": "{amount} {good}",
    "sa.nothing": "nothing",
    "sa.none": "none",
    "sa.one_use": "one-use {value}",
    # Sentences of `describe` and `describe_resolution` themselves.
    "sa.illegal": "{seat} tried an action that is not legal.",
    "sa.adds_tools": "{seat} adds tools {tools} to the roll of {total}.",
    "sa.adds_no_tools": "{seat} adds no tools to the roll of {total}.",
    "sa.sets_aside": "{seat} sets aside {amount} {good} for the payment.",
    "sa.acts": "{seat} acts.",
    "sa.nothing_resolved": "Nothing was resolved.",
    "sa.dice_rolled": "Dice rolled.",
    # The words of the view: names of components, ...
    "sa.card_name": "{card}",
    "sa.building_name": "{building}",
    "sa.location_name": "{location}",
    # ... the decision at hand, ...
    "sa.decision_placement": "{seat} places people.",
    "sa.decision_resolve": "{seat} chooses the next location to resolve.",
    "sa.decision_roll": "Rolling {count} dice for {seat}…",
    "sa.decision_tools": ("{seat} rolled {dice} = {total} for {good} (÷{divisor}) and chooses "
                          "tools."),
    "sa.decision_dice_for_all": "{seat} picks one of the dice {dice}.",
    "sa.decision_buy_card": "{seat} may buy {card} for {cost} resource(s).",
    "sa.decision_buy_building": "{seat} may buy the building ({building}).",
    "sa.decision_feeding": ("{seat} is {shortfall} food short: pay with resources or lose 10 "
                            "points."),
    "sa.die_item_tool": "a tool",
    "sa.die_item_food_track": "+1 food track",
    # ... why a location takes no one now, ...
    "sa.closed_full": "full",
    "sa.closed_occupied": "occupied",
    "sa.closed_no_card": "no card",
    "sa.closed_no_building": "no building left",
    "sa.closed_colours": "closed: only {colours} colour(s) allowed",
    "sa.closed_village": "closed: two village locations are already in use",
    # ... the cards' two halves and the buildings' points.
    "sa.top_dice_for_all": "dice for all (each player takes one die's item)",
    "sa.top_roll": "roll 2 dice ÷{divisor} for {good} (tools allowed)",
    "sa.top_points": "{amount} points",
    "sa.top_tool": "+1 tool",
    "sa.top_food_track": "+1 food track",
    "sa.top_extra_card": "draw a face-down card (scores only at the end)",
    "sa.top_one_use": "one-use tool worth {value}",
    "sa.top_two_resources": "2 resources of your choice, once, any time",
    "sa.bottom_culture": "green: {culture}",
    "sa.bottom_multiplier": "sand: {count} × {multiplier}",
    "sa.points_paid": "value of the resources paid",
    # A placement queued while waiting (orders.queue_suggestions).
    "sa.queue_place": ("{count} person on the {location}", "{count} people on the {location}",
                       _PEOPLE),
    # Refusals of a move (rules.illegal_reason), in the player's words.
    "sa.refuse_rolling": "Nobody may act while the dice are being rolled.",
    "sa.refuse_not_turn": "It is not {seat}'s turn to act.",
    "sa.refuse_no_location": "There is no such location.",
    "sa.refuse_placed_here": "You already placed people on the {location} this round.",
    "sa.refuse_closed": "The {location} is {reason}.",
    "sa.refuse_counts": "You may place {counts} people on the {location} now.",
    "sa.refuse_no_counts": "You may place no people on the {location} now.",
    "sa.refuse_no_two_resources": "You have no unused two-resources card.",
    "sa.refuse_payment": "That payment is not accepted: pay exactly the price with resources you "
                         "have (food is never accepted).",
    "sa.refuse_must_place": "That action is not legal now: you must place people.",
    "sa.refuse_must_resolve": "That action is not legal now: you must choose a location to "
                              "resolve.",
    "sa.refuse_must_tools": "That action is not legal now: you must choose which tools to add to "
                            "the roll.",
    "sa.refuse_must_die": "That action is not legal now: you must pick one of the rolled dice.",
    "sa.refuse_must_buy_card": "That action is not legal now: you must pay for the card or "
                               "decline.",
    "sa.refuse_must_buy_building": "That action is not legal now: you must pay for the building "
                                   "or decline.",
    "sa.refuse_must_feed": "That action is not legal now: you must pay the missing food with "
                           "resources or accept the 10-point loss.",
    # The words of the view's own numbers, by their path in a player's entry ("*": any key,
    # the parameter), for the preview of a move (games.board): "wood: 3 → 1".
    "sa.field.people": "people",
    "sa.field.unplaced": "people to place",
    "sa.field.food": "{good}",
    "sa.field.food_track": "food track",
    "sa.field.score": "score",
    "sa.field.resources.*": "{good}",
    "sa.field.resource_total": "resources in all",
    "sa.field.tool_total": "tools in all",
    "sa.field.building_count": "buildings",
    "sa.field.card_count": "civilization cards",
    "sa.field.feeding_penalties": "{category}",
    "sa.field.card_summary.green_points_now": "points for green cards now",
    "sa.field.card_summary.multipliers.*": "{multiplier}",
}

#: The standing orders' words (data.ORDERS): "<order>" its label, "<order>.help" its help,
#: "<order>.<value>" a choice; games.texts.standing_orders_in reads them by context
#: "stone_age.order".
ORDER_WORDS = {
    key: words
    for order in data.ORDERS
    for key, words in ((order["name"], order["label"]), (f"{order['name']}.help", order["help"]),
                       *((f"{order['name']}.{choice['value']}", choice["label"])
                         for choice in order["choices"]))
}

#: The score breakdown's categories (scoring.CATEGORIES), as the result table labels them.
CATEGORY_NAMES = {
    "buildings": "Buildings", "card_points": "Card points",
    "feeding_penalties": "Feeding penalties", "green_sets": "Green culture sets",
    "farmers": "Farmers", "toolmakers": "Toolmakers", "hut_builders": "Hut builders",
    "shamans": "Shamans", "resources": "Resources",
}

CATALOG = Catalog(
    domain="stone_age",
    messages=MESSAGES,
    kinds={"seat": "seat", "who": "seat_lower", "card": "card", "building": "building",
           "location": "location",
           "good": "good", "category": "category", "culture": "culture",
           "multiplier": "multiplier"},
    names={
        "card": {card_id: card["name"] for card_id, card in CARDS.items()},
        "building": {building_id: b["name"] for building_id, b in BUILDINGS.items()},
        "location": dict(data.LOCATION_NAMES),
        "good": {good: good for good in (*RESOURCES, "food")},
        "category": CATEGORY_NAMES,
        "culture": {symbol: symbol for symbol in data.CULTURE_SYMBOLS},
        "multiplier": {kind: kind.replace("_", " ") for kind in data.MULTIPLIER_KINDS},
        "order": ORDER_WORDS,
    },
    separators={"dice": ", ", "tiles": "/", "pay": " + ", "tools": " + ", "counts": ", "},
    bare=frozenset({"sa.card_name", "sa.building_name", "sa.location_name", "sa.field.food",
                    "sa.field.resources.*", "sa.field.feeding_penalties",
                    "sa.field.card_summary.multipliers.*"}),
)


def english(message: Text) -> str:
    return render(CATALOG, message)


def entry_text(entry: dict, viewer: int | None) -> Text:
    """A log entry (rules.event) as `viewer` may read it."""
    if viewer is not None and entry.get("seat") == viewer and "private" in entry:
        message = entry["private"]
    else:
        message = entry["text"]
    # A game saved before the log held texts keeps its English sentences.
    return message if isinstance(message, dict) else text("literal", text=message)


def die_item(face: int) -> Text:
    """What a die of "dice for all" gives (data.DICE_FOR_ALL)."""
    kind, resource = data.DICE_FOR_ALL[face]
    if kind == "resource":
        return text("sa.amount", amount=1, good=resource)
    return text("sa.die_item_tool" if kind == "tool" else "sa.die_item_food_track")


def card_top(card_id: str) -> Text:
    """A civilization card's top half, what it gives when bought."""
    top = CARDS[card_id]["top"]
    kind = top["type"]
    if kind in ("food", "resource"):
        return text("sa.amount", amount=top["amount"], good=top.get("resource", "food"))
    if kind == "resource_by_dice":
        return text("sa.top_roll", divisor=top["divisor"], good=top["resource"])
    if kind == "points":
        return text("sa.top_points", amount=top["amount"])
    if kind == "one_use_tool":
        return text("sa.top_one_use", value=top["value"])
    return text({"dice_for_all": "sa.top_dice_for_all", "tool": "sa.top_tool",
                 "food_track": "sa.top_food_track", "extra_card": "sa.top_extra_card",
                 "any_two_resources": "sa.top_two_resources"}[kind])


def card_bottom(card_id: str) -> Text:
    """A civilization card's bottom half, what it scores at the end."""
    bottom = CARDS[card_id]["bottom"]
    if "culture" in bottom:
        return text("sa.bottom_culture", culture=bottom["culture"])
    return text("sa.bottom_multiplier", count=bottom["count"], multiplier=bottom["multiplier"])


def refusal(key: str, **params: Any) -> IllegalAction:
    """A refusal with its text, its English words read from the text."""
    message = text(key, **params)
    return IllegalAction(render(CATALOG, message), message)


def closed_text(reason: str | None, num_players: int) -> Text | None:
    """Why a location takes no one now (rules.location_status)."""
    if reason is None:
        return None
    if reason == "colours":
        return text("sa.closed_colours", colours=data.RESOURCE_COLOURS[num_players])
    return text(f"sa.closed_{reason}")
