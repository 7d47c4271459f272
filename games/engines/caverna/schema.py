"""JSON Schemas of Caverna's actions and views (served at GET /api/v1/engines/caverna/). The API
serves a view with its texts rendered in the reader's language, so a text is a string here."""

from __future__ import annotations

from games.engines.caverna.data import SPACES
from games.engines.caverna.rules import ANIMALS, FARM, GOODS
from games.engines.jsonschema import (
    BOOL,
    COUNT,
    INT,
    OBJECT,
    STR,
    action,
    actions,
    array,
    enum,
    nullable,
    obj,
    view,
)

SPACE = enum(sorted(SPACES))
XY = array(INT, min=2, max=2)  # [column, row] on the player's board

ACTIONS = actions(
    "Caverna action",
    action("place", space=SPACE),
    action("imitate", space=SPACE),
    action("let_go", space=SPACE),
    action("protect", space=SPACE),
    action("part", index=COUNT),
    action("tile", tile=STR, at=array(XY, min=1, max=2)),
    action("ruby_tile", tile=STR, at=XY),
    action("build", at=array(XY, min=1, max=2)),
    action("furnish", tile=STR),
    action("furnish_at", at=XY),
    action("sow", crop=enum(("grain", "vegetable")), at=XY),
    action("convert", **{"from": STR}, amount={"type": "integer", "minimum": 2})
    | {"required": ["type", "from"]},
    action("buy", good=STR),
    action("ruby_trade", to=STR),
    action("release", animal=enum(ANIMALS)),
    action("breed", types=array(enum(FARM))),
    action("forge", strength={"type": "integer", "minimum": 1}),
    action("loot", item=STR),
    action("reorder", dwarf=COUNT),
    action("skip", phase=enum(("breeding", "field"))),
    action("exchange", times={"type": "integer", "minimum": 1}),
    action("feed", **{"with": STR}) | {"required": ["type"]},
    # A furnishing tile's trade: an option of the tile, or (Peaceful Cave) a dwarf's weapon.
    {"oneOf": [action("tile_trade", tile=STR, option=COUNT),
               action("tile_trade", tile={"const": "peaceful_cave"}, dwarf=COUNT)],
     "title": "tile_trade"},
    *(action(kind) for kind in ("done", "pass", "finish", "breed_now", "loot_done",
                                "market_done", "sow_done")),
)

_PLAYER = obj({
    "seat": COUNT, "supply": obj({good: INT for good in GOODS}),
    "animals": obj({animal: COUNT for animal in ANIMALS}),
    "dwarfs": array(obj({"weapon": INT, "placed_on": nullable(STR), "newborn": BOOL})),
    "stables_left": COUNT, "begging": COUNT, "rows": array(array(OBJECT)),
    "animals_fit": BOOL, "family_limit": COUNT, "starting_player": BOOL,
    "goods": array(obj({"good": STR, "n": INT, "text": STR})),
    "animal_counts": array(obj({"animal": STR, "icon": STR, "n": COUNT})),
    "armed": COUNT,
    "deliveries": array(obj({"good": STR, "good_name": STR, "rounds_left": COUNT})),
})

VIEW = view("Caverna view", {
    "round": INT,
    "rounds": array(INT),
    "last_round": INT,
    "phase": STR,
    "starting_player": COUNT,
    "harvest_markers": OBJECT,
    "harvest_kinds": OBJECT,
    "hidden_markers": COUNT,
    "spaces": array(obj({"id": SPACE, "name": STR, "goods": OBJECT, "goods_text": nullable(STR),
                         "occupant": nullable(INT), "round_card": BOOL})),
    "future_round_cards_by_stage": OBJECT,
    "furnishing_tiles": array(obj({"id": STR, "name": STR, "cost": OBJECT,
                                   "cost_text": nullable(STR), "points": INT, "category": STR,
                                   "effect": STR, "available": BOOL})),
    "market_prices": OBJECT,
    "players": array(_PLAYER),
    "players_viewer_first": array(_PLAYER),
    "you": nullable(COUNT),
    "decision": nullable(obj({"kind": STR, "seat": nullable(COUNT), "text": STR,
                              "trading_allowed": BOOL}, closed=False)),
    "recent": array(STR),
    "final_scores": nullable(array(OBJECT)),
})
