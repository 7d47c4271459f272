"""JSON Schemas of Stone Age's actions and views (served at GET /api/v1/engines/stone_age/). The
API serves a view with its texts rendered in the reader's language, so a text is a string here."""

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
from games.engines.stone_age import data

LOCATION = enum(data.LOCATION_NAMES)
RESOURCE = enum(data.RESOURCES)
PAYMENT = counts(data.RESOURCES)

ACTIONS = actions(
    "Stone Age action",
    action("place", location=LOCATION, count={"type": "integer", "minimum": 1,
                                              "maximum": data.MAX_PEOPLE}),
    action("resolve", location=LOCATION),
    action("use_tools", tiles=array(COUNT), one_use=array(STR)),
    action("pick_die", face={"type": "integer", "minimum": 1, "maximum": 6}),
    action("buy_card", pay=PAYMENT),
    action("buy_building", pay=PAYMENT),
    action("use_two_resources", take=PAYMENT),
    action("decline"),
    action("pay", resource=RESOURCE, amount=COUNT),
    action("accept_penalty"),
)

_LOCATION = obj({"id": LOCATION, "name": STR, "people": array(OBJECT), "free": nullable(INT),
                 # Why no one may go there now ("occupied", …); null outside placement.
                 "closed": nullable({"type": ["string", "boolean"]}),
                 "yields": STR, "divisor": INT, "cost": INT,
                 "card": nullable(OBJECT), "height": COUNT, "top": nullable(OBJECT)},
                optional=("yields", "divisor", "cost", "card", "height", "top"))
_PLAYER = obj({"seat": COUNT, "name": STR, "food": INT, "resources": counts(data.RESOURCES),
               "score": INT}, optional=("name",), closed=False)

VIEW = view("Stone Age view", {
    "game": {"const": "stone_age"},
    "round": COUNT,
    "phase": STR,
    "num_players": INT,
    "first_player": COUNT,
    "viewer": nullable(COUNT),
    "active_seats": array(COUNT),
    "decision": nullable(obj({"kind": STR, "seat": COUNT, "text": STR}, closed=False)),
    "locations": array(_LOCATION),
    "display": array(_LOCATION),
    "building_stacks": array(_LOCATION),
    "deck_size": COUNT,
    "last_round": BOOL,
    "players": array(_PLAYER),
    "log": array(STR),
    "resources_order": array(RESOURCE),
    "ended_by": nullable(STR),
    "result": nullable(obj({"scores": array(INT), "winners": array(COUNT)}, closed=False)),
})
