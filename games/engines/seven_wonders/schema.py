"""JSON Schemas of 7 Wonders' actions and views (served at GET /api/v1/engines/seven_wonders/)."""

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

ACTIONS = actions(
    "7 Wonders action",
    action("choose_wonder", wonder=enum(sorted(WONDERS)), side=enum(("A", "B"))),
    # A build either pays (coins to neighbours in `pay` for resources bought in `buy`) or is
    # free (`free`: by chain or Olympia's power).
    {**action("build", card=CARD, buy=NEIGHBOUR_BUYS, pay=NEIGHBOUR_COINS,
              free=enum(("chain", "olympia"))),
     "required": ["type", "card"]},
    {**action("wonder", card=CARD, buy=NEIGHBOUR_BUYS, pay=NEIGHBOUR_COINS),
     "required": ["type", "card"]},
    action("discard", card=CARD),
    action("discard_build", card=CARD),
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
    "direction": enum(("left", "right")),
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
    })),
})
