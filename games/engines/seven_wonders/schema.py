"""JSON Schemas of 7 Wonders' actions and views (served at GET /api/v1/engines/seven_wonders/).
The API serves a view with its texts rendered in the reader's language, so a text is a string
here."""

from __future__ import annotations

from games.engines.jsonschema import (
    BOOL,
    COUNT,
    INT,
    OBJECT,
    STR,
    action,
    actions,
    array,
    counts,
    enum,
    nullable,
    obj,
    view,
)
from games.engines.seven_wonders.data import CARDS, WONDERS
from games.engines.seven_wonders.rules import RESOURCES

CARD = enum(sorted(CARDS))
#: Resources bought from each neighbour, and the coins paid to each.
NEIGHBOUR_BUYS = {"type": "object", "additionalProperties": False,
                  "properties": {side: counts(RESOURCES) for side in ("left", "right")}}
NEIGHBOUR_COINS = counts(("left", "right"))

#: The two-player variant's Free City: the controlling seat's second action of a turn.
FREE_CITY = {"const": True}


def _card_action(kind: str, **properties) -> dict:
    """A card action, which may be made for the Free City (`free_city: true`)."""
    schema = action(kind, card=CARD, free_city=FREE_CITY, **properties)
    schema["required"] = ["type", "card"]
    return schema


ACTIONS = actions(
    "7 Wonders action",
    action("choose_wonder", wonder=enum(sorted(WONDERS)), side=enum(("A", "B"))),
    # A build either pays (coins to neighbours in `pay` for resources bought in `buy`) or is
    # free (`free`: by chain or Olympia's power).
    _card_action("build", buy=NEIGHBOUR_BUYS, pay=NEIGHBOUR_COINS,
                 free=enum(("chain", "olympia"))),
    _card_action("wonder", buy=NEIGHBOUR_BUYS, pay=NEIGHBOUR_COINS),
    _card_action("discard"),
    _card_action("discard_build"),
)

_CARD_INFO = obj({"id": CARD, "name": STR}, closed=False)
_PLAYER = obj({"seat": COUNT, "left": COUNT, "right": COUNT, "wonder": nullable(OBJECT),
               "coins": INT, "shields": INT, "tokens": array(INT), "cards": OBJECT,
               "card_count": COUNT, "hand_size": COUNT, "has_picked": BOOL, "role": STR},
              closed=False)

VIEW = view("7 Wonders view", {
    "game": {"const": "seven_wonders"},
    "phase": STR,
    "age": INT,
    "age_name": STR,
    "turn": INT,
    # Two players: hands swap "across" the Border.
    "direction": enum(("left", "right", "across")),
    "num_players": INT,
    "active_seats": array(COUNT),
    "waiting_for": COUNT,
    "players": array(_PLAYER),
    "discard_count": COUNT,
    "events": array(STR),
    "conflicts": array(OBJECT),
    "categories": array(STR),
    "result": nullable(obj({"scores": array(INT), "winners": array(COUNT)}, closed=False)),
    # Only for a player: their hand (cards with what each can become) and pending pick.
    "you": nullable(obj({
        "seat": COUNT, "left": COUNT, "right": COUNT,
        "hand": array(obj({"id": CARD, "name": STR, "options": array(STR)}, closed=False)),
        "pick": nullable(OBJECT), "pick_text": nullable(STR),
        "discard": nullable(array(_CARD_INFO)),
        # Two players: whether this seat plays the Free City this turn, and its pending pick.
        "controls_free_city": BOOL,
        "free_city_pick": nullable(OBJECT), "free_city_pick_text": nullable(STR),
    }, optional=("controls_free_city", "free_city_pick", "free_city_pick_text"))),
    # Two players only: the Free City, a third city with no seat ("controller" plays it).
    "free_city": {**_PLAYER, "properties": {**_PLAYER["properties"], "seat": {"type": "null"},
                                            "name": STR,
                                            "controller": nullable(COUNT),
                                            "pile_size": COUNT}},
}, optional=("free_city",))
