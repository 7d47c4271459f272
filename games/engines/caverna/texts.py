"""Caverna's player-facing texts as message keys with parameters (see games.engines.texts):
each move as the log and the choices show it, the view's wording (decisions, home-board cells,
furnishing tiles and their effects, the game's own log lines) and the names of action spaces,
furnishing tiles, landscape tiles, goods, expedition loot and score rows."""

from __future__ import annotations

import re
from typing import Any

from games.engines.texts import Catalog, Parser, Text, render, text

from . import scoring
from .data import LOOT, SPACES, TILES
from .effects import LEGACY_TILE_TEXT, TILE_TEXT, TILE_TRADES
from .orders import ORDERS
from .rules import ANIMALS, GOODS, LEGACY_RUBY_GOODS, space_actions

MESSAGES: dict[str, Any] = {
    "cv.unrecognised": "{seat} did something unrecognised.",
    "cv.place": "{seat} placed a dwarf on {space}.",
    "cv.pass": "{seat} had no usable action space and kept a dwarf home.",
    "cv.reorder": "{seat} paid 1 ruby to play a dwarf out of weapon order.",
    "cv.part": "{seat} chose: {node}.",
    "cv.done": "{seat} finished the action space.",
    "cv.tile": "{seat} placed a {landscape}{where}.",
    "cv.furnish": "{seat} furnished {furnishing}{paid}.",
    "cv.builder_ore": ", paying ore for {subs} (Builder)",
    "cv.furnish_at": "{seat} placed the furnishing tile{where}.",
    "cv.sow": "{seat} sowed {crop}{where}.",
    "cv.sow_done": "{seat} finished sowing.",
    "cv.build_small": "{seat} built a small pasture{where}.",
    "cv.build_large": "{seat} built a large pasture{where}.",
    "cv.build_stable": "{seat} built a stable{where}.",
    "cv.forge": "{seat} forged a weapon of strength {strength}.",
    "cv.loot": "{seat} took expedition loot: {loot}.",
    "cv.loot_done": "{seat} ended the expedition.",
    "cv.imitate": "{seat} imitated {space}.",
    "cv.exchange": "{seat} traded ore {times} time(s).",
    "cv.buy": "{seat} bought 1 {good}.",
    "cv.market_done": "{seat} left the market.",
    "cv.breed": "{seat} bred {animals}.",
    "cv.nothing": "nothing",
    "cv.feed_with": "{seat} fed their dwarfs, one of them with {with} (Working cave).",
    "cv.feed": "{seat} fed their dwarfs.",
    "cv.breed_now": "{seat} went on to breeding.",
    "cv.finish": "{seat} finished their last trades before scoring.",
    "cv.peaceful_cave": "{seat} gave up a strength-{strength} weapon for {strength} food "
                        "(Peaceful cave).",
    "cv.tile_trade": "{seat} used the {furnishing}: {pay} for {get}.",
    "cv.skip_field": "{seat} skipped the field phase.",
    "cv.skip_breeding": "{seat} skipped the breeding phase.",
    "cv.convert_gold": "{seat} converted {amount} gold into {food} food.",
    "cv.convert_donkeys": "{seat} converted 2 donkeys into 3 food.",
    "cv.convert": "{seat} converted 1 {good} into food.",
    "cv.ruby_trade": "{seat} traded a ruby for 1 {good}.",
    "cv.ruby_tile": "{seat} bought a {landscape_id} tile with rubies{where}.",
    "cv.release": "{seat} released 1 {good}.",
    "cv.protect": "{seat} paid 1 ruby to keep the goods on {space}.",
    "cv.let_go": "{seat} let the goods on {space} go back to the supply.",
    "cv.move": "{seat} made a move.",
    # Parts of sentences.
    "cv.at": " at {spots}",
    "cv.spot": "({x},{y})",
    "cv.amount": "{n} {good}",
    "cv.node_gain": "take {goods}",
    "cv.node_gain_if": "take (if allowed) {goods}",
    "cv.node_gain_per": "take per ore mine {goods}",
    "cv.node_pay": "pay {goods}",
    "cv.node_place_tile": "place {landscapes}",
    "cv.node_expedition": "level-{level} expedition",
    "cv.node_take_accumulated": "take the goods on the space",
    "cv.node_furnish_cavern": "furnish a cavern",
    "cv.node_furnish_dwelling": "furnish a dwelling",
    "cv.node_family_growth": "family growth",
    "cv.node_sow": "sow",
    "cv.node_build_small_pasture": "build a small pasture",
    "cv.node_build_large_pasture": "build a large pasture",
    "cv.node_build_stable": "build a stable",
    "cv.node_forge_weapon": "forge a weapon",
    "cv.node_become_starting_player": "become starting player",
    "cv.node_imitate": "imitate",
    "cv.node_exchange": "trade ore",
    "cv.node_weekly_market_buy": "buy goods",
    # Score rows.
    "cv.bonus_row": "Bonus: {furnishing}",
    # The view: names and lists as they stand (bare), goods on a cell, the decision at hand.
    "cv.space_name": "{space}",
    "cv.tile_name": "{furnishing}",
    "cv.loot_name": "{loot}",
    "cv.good_name": "{good}",
    "cv.cell": "{cell}",
    "cv.cell_short": "{short}",
    "cv.effect": "{effect}",
    "cv.effect_legacy": "{effect_legacy}",
    "cv.goods": "{goods}",
    "cv.plus_amount": "+{n} {good}",
    # The game's own log lines (written by the rules as sentences, read back by LOG_PARSER).
    "cv.log_received": "{seat} received {n} {good} from the {source}.",
    "cv.log_supplier": "{seat} received 1 {good} from a supplier.",
    "cv.log_overhang": "{seat} let a tile overhang the board and took 2 gold (office room).",
    "cv.log_new_dwarf": "{seat} welcomed a new dwarf.",
    "cv.log_round": "Round {round} begins.",
    "cv.log_round_card": "Round {round} begins: {space} is revealed.",
    "cv.log_no_harvest": "No harvest this round.",
    "cv.log_over": "The game is over.",
    "cv.log_furnished": "{seat} furnished {furnishing}.",
    "cv.log_slaughtering": "{seat} received {n} more food from the slaughtering cave.",
    "cv.log_used": "{seat} used the {furnishing}.",
    "cv.log_paid": "{seat} paid {paid} for {furnishing} (tile effects).",
    "cv.log_built_for_less": "{seat} built for less thanks to a furnishing tile.",
    "cv.log_mining_cave": "{seat} needed {n} food less thanks to the mining cave.",
    "cv.log_working_cave": "{seat} fed a dwarf with {with} in the working cave.",
    "cv.log_begging": "{seat} took {n} begging marker(s).",
    # A placement queued while waiting (orders.queue_suggestions).
    "cv.queue_place": "A dwarf on {space}",
    # Refusals of a move (rules.py), in the player's words.
    "cv.refuse_not_enough": "Not enough {good}.",
    "cv.refuse_unknown": "Unknown action.",
    # Options refused (CavernaEngine.new_game_at_version).
    "cv.options_no_version": "Caverna has no rules version {version} yet.",
    # The words of the view's own numbers, by their path in a player's entry ("*": any key,
    # the parameter), for the preview of a move (games.board): "wood: 3 → 1".
    "cv.field.supply.*": "{good}",
    "cv.field.animals.*": "{good}",
    "cv.field.armed": "armed dwarfs",
    "cv.field.begging": "begging markers",
    "cv.field.family_limit": "room for dwarfs",
    "cv.field.stables_left": "stables left",
}
#: The decision at hand, by its task (the view's "decision").
DECISIONS = {
    "turn": "Place a dwarf on an action space",
    "frame": "Choose the next action of the space (or finish)",
    "tile": "Choose where the tile goes",
    "furnish": "Choose a furnishing tile",
    "furnish_at": "Choose the cavern for the tile",
    "sow": "Sow grain or vegetables on empty fields",
    "build": "Choose where to build",
    "forge": "Choose the weapon strength (ore to pay)",
    "expedition": "Choose expedition loot",
    "imitate": "Choose the action space to imitate",
    "exchange": "Choose how many times to trade",
    "market": "Buy goods at the Weekly market",
    "breed_pick": "Choose the animal types to breed",
    "breed_choice": "Not all newborns fit: choose which to keep",
    "breed_room": "Not all newborns fit: convert a lone animal to make room, or breed now",
    "overflow": "Your animals do not fit: convert or release one",
    "feed": "Feed your dwarfs (convert goods first if you like)",
    "harvest_choice": "Skip either the field phase or the breeding phase",
    "protect": "More than 6 goods on a space: pay 1 ruby to keep them?",
    "final_trades": "Last conversions and trades before scoring (or finish)",
}
MESSAGES.update({f"cv.decision_{kind}": wording for kind, wording in DECISIONS.items()})
_BARE_KEYS = frozenset({"cv.space_name", "cv.tile_name", "cv.loot_name", "cv.good_name",
                        "cv.cell", "cv.cell_short", "cv.effect", "cv.effect_legacy",
                        "cv.goods", "cv.field.supply.*", "cv.field.animals.*"})
#: A home-board cell's kind as its label names it (a furnished cavern reads as its tile).
CELL_LABELS = {
    "forest": "Forest",
    "meadow": "Meadow",
    "field": "Field",
    "pasture": "Small pasture",
    "large_pasture": "Large pasture",
    "rock": "Mountain",
    "cavern": "Cavern",
    "tunnel": "Tunnel",
    "deep_tunnel": "Deep tunnel",
    "ore_mine": "Ore mine",
    "ruby_mine": "Ruby mine",
    "entry": "Entry-level dwelling",
}
#: The same, short enough for the cell itself (forest and mountain cells say nothing).
CELL_SHORT = {
    "meadow": "Meadow",
    "field": "Field",
    "pasture": "Pasture",
    "large_pasture": "L.pasture",
    "cavern": "Cavern",
    "tunnel": "Tunnel",
    "deep_tunnel": "Deep tun.",
    "ore_mine": "Ore mine",
    "ruby_mine": "Ruby mine",
    "entry": "Entry",
}
#: The standing orders' words (orders.ORDERS): "<order>" its label, "<order>.help" its help,
#: "<order>.<value>" a choice; games.texts.standing_orders_in reads them by context
#: "caverna.order".
ORDER_WORDS = {
    key: words
    for order in ORDERS
    for key, words in ((order["name"], order["label"]), (f"{order['name']}.help", order["help"]),
                       *((f"{order['name']}.{choice['value']}", choice["label"])
                         for choice in order["choices"]))
}
#: The furnishing tiles whose automatic gains the log names ("... from the dog school.").
_SOURCES = ("stone_carver", "blacksmith", "weaving_parlor", "milking_parlor", "state_parlor",
            "miner", "dog_school", "seam", "quarry", "breeding_cave")
_NODE_WORDS = {"take_accumulated", "family_growth", "sow", "build_small_pasture",
               "build_large_pasture", "build_stable", "forge_weapon", "become_starting_player",
               "imitate", "exchange", "weekly_market_buy"}

_ALL_GOODS = tuple(dict.fromkeys((*GOODS, *ANIMALS, *LEGACY_RUBY_GOODS, "donkey_pair")))
_LANDSCAPES = ("meadow", "field", "tunnel", "cavern", "ruby_mine", "meadow_field_twin",
               "cavern_tunnel_twin", "cavern_cavern_twin", "ore_mine_deep_tunnel_twin")

#: Score rows (scoring.CATEGORIES) as the scoring pad names them.
CATEGORY_NAMES = {row: row.replace("_", " ").capitalize() for row in scoring.CATEGORIES}

CATALOG = Catalog(
    domain="caverna",
    messages=MESSAGES,
    kinds={"seat": "seat", "who": "seat_lower", "space": "space", "furnishing": "furnishing",
           "loot": "loot",
           "landscape": "landscape", "landscapes": "landscape", "landscape_id": "landscape_id",
           "good": "good", "subs": "good_id", "crop": "good_id", "with": "good_id",
           "animals": "good_id", "category": "category", "cell": "cell", "short": "cell_short",
           "effect": "effect", "effect_legacy": "effect_legacy", "source": "source"},
    names={
        "space": {sid: space["name"] for sid, space in SPACES.items()},
        "furnishing": {tid: tile["name"] for tid, tile in TILES.items()},
        "loot": {item["id"]: item["name"] for item in LOOT},
        # The same things under two English spellings: most sentences write the id with
        # spaces, a few (sowing, breeding, feeding, ruby tiles) write the id itself.
        "landscape": {tile: tile.replace("_", " ") for tile in _LANDSCAPES},
        "landscape_id": {tile: tile for tile in _LANDSCAPES},
        "good": {good: good.replace("_", " ") for good in _ALL_GOODS},
        "good_id": {good: good for good in _ALL_GOODS},
        "category": CATEGORY_NAMES,
        "cell": CELL_LABELS,
        "cell_short": CELL_SHORT,
        "effect": TILE_TEXT,
        "effect_legacy": LEGACY_TILE_TEXT,
        "source": {tile: tile.replace("_", " ") for tile in _SOURCES},
        "order": ORDER_WORDS,
    },
    separators={"spots": " and ", "subs": " and ", "animals": ", ", "goods": ", ",
                "pay": ", ", "get": ", ", "node": " + ", "landscapes": " or ", "paid": ", "},
    bare=_BARE_KEYS,
)


def english(message: Text) -> str:
    return render(CATALOG, message)


def _goods(goods: dict[str, int]) -> list[Text]:
    return [text("cv.amount", n=amount, good=_id("good", good)) for good, amount in goods.items()]


def node_text(node: dict[str, Any]) -> Any:
    """A part of an action space's effect; a combination is the list of its parts."""
    if "op" in node:
        return [node_text(item) for item in node["items"]]
    act = node["act"]
    if act in ("gain", "gain_if", "gain_per", "pay"):
        return text(f"cv.node_{act}", goods=_goods(node["goods"]))
    if act == "place_tile":
        return text("cv.node_place_tile", landscapes=list(node["tiles"]))
    if act == "expedition":
        return text("cv.node_expedition", level=node["level"])
    if act == "furnish":
        return text("cv.node_furnish_dwelling" if node.get("scope") == "dwelling_tiles"
                    else "cv.node_furnish_cavern")
    if act in _NODE_WORDS:
        return text(f"cv.node_{act}")
    return text("literal", text=act.replace("_", " "))


def describe_text(state: dict[str, Any], seat: int, action: Any) -> Text:
    """The move as everyone reads it (Caverna hides nothing a move shows)."""
    if not isinstance(action, dict):
        return text("cv.unrecognised", seat=seat)
    kind = action.get("type")
    at = action.get("at")
    where = None
    if isinstance(at, list) and at:
        spots = at if isinstance(at[0], list) else [at]
        where = text("cv.at", spots=[text("cv.spot", x=s[0], y=s[1]) for s in spots
                                     if isinstance(s, list) and len(s) == 2])
    try:
        return _move_text(state, seat, action, kind, where)
    except (KeyError, IndexError, TypeError, ValueError):
        return text("cv.move", seat=seat)


def _move_text(state: dict[str, Any], seat: int, action: dict[str, Any], kind: Any,
               where: Text | None) -> Text:
    if kind in ("pass", "reorder", "done", "sow_done", "loot_done", "market_done",
                "breed_now", "finish"):
        return text(f"cv.{kind}", seat=seat)
    if kind in ("place", "imitate", "protect", "let_go"):
        return text(f"cv.{kind}", seat=seat, space=_id("space", action["space"]))
    if kind == "part":
        task = state["stack"][-1]
        node = space_actions(state, task["src"])
        for k in [*task["path"], action["index"]]:
            node = node["items"][k]
        return text("cv.part", seat=seat, node=node_text(node))
    if kind == "tile":
        return text("cv.tile", seat=seat, landscape=_id("landscape", action["tile"]),
                    where=where)
    if kind == "furnish":
        subs = action.get("ore_for")
        paid = text("cv.builder_ore", subs=[_id("good_id", g) for g in subs]) if subs else None
        return text("cv.furnish", seat=seat, furnishing=_id("furnishing", action["tile"]),
                    paid=paid)
    if kind == "furnish_at":
        return text("cv.furnish_at", seat=seat, where=where)
    if kind == "sow":
        return text("cv.sow", seat=seat, crop=_id("good_id", action["crop"]), where=where)
    if kind == "build":
        what = state["stack"][-1]["what"]
        key = {"small": "cv.build_small", "large": "cv.build_large",
               "stable": "cv.build_stable"}[what]
        return text(key, seat=seat, where=where)
    if kind == "forge":
        return text("cv.forge", seat=seat, strength=action["strength"])
    if kind == "loot":
        return text("cv.loot", seat=seat, loot=_id("loot", action["item"]))
    if kind == "exchange":
        return text("cv.exchange", seat=seat, times=action["times"])
    if kind in ("buy", "release"):
        good = action["good"] if kind == "buy" else action["animal"]
        return text(f"cv.{kind}", seat=seat, good=_id("good", good))
    if kind == "breed":
        animals = [_id("good_id", animal) for animal in action["types"]]
        return text("cv.breed", seat=seat, animals=animals or text("cv.nothing"))
    if kind == "feed":
        if action.get("with"):
            return text("cv.feed_with", seat=seat, **{"with": _id("good_id", action["with"])})
        return text("cv.feed", seat=seat)
    if kind == "tile_trade":
        tile = action["tile"]
        if tile == "peaceful_cave":
            strength = state["players"][seat]["dwarfs"][action["dwarf"]]["w"]
            return text("cv.peaceful_cave", seat=seat, strength=strength)
        pay, get = TILE_TRADES[tile][action["option"]]
        return text("cv.tile_trade", seat=seat, furnishing=_id("furnishing", tile), pay=_goods(pay),
                    get=_goods(get))
    if kind == "skip":
        return text({"field": "cv.skip_field", "breeding": "cv.skip_breeding"}[action["phase"]],
                    seat=seat)
    if kind == "convert":
        source = action["from"]
        if source == "gold":
            return text("cv.convert_gold", seat=seat, amount=action["amount"],
                        food=action["amount"] - 1)
        if source == "donkey_pair":
            return text("cv.convert_donkeys", seat=seat)
        return text("cv.convert", seat=seat, good=_id("good", source))
    if kind == "ruby_trade":
        return text("cv.ruby_trade", seat=seat, good=_id("good", action["to"]))
    if kind == "ruby_tile":
        return text("cv.ruby_tile", seat=seat, landscape_id=_id("landscape_id", action["tile"]),
                    where=where)
    return text("cv.move", seat=seat)


def _id(kind: str, item: str) -> str:
    """`item` when it names a known thing of `kind`; KeyError (read as "made a move") if not."""
    CATALOG.names[kind][item]
    return item


def row_text(row: str) -> Text:
    """A row of the scoring pad: a category, or a bonus tile's own line."""
    if row.startswith(scoring.BONUS_PREFIX):
        return text("cv.bonus_row", furnishing=row[len(scoring.BONUS_PREFIX):])
    return text("category", category=row)


# ----- the view's texts -------------------------------------------------------------------------


def goods_text(goods: dict[str, int]) -> Text | None:
    """ "3 wood, 1 stone" (None for no goods)."""
    return text("cv.goods", goods=_goods(goods)) if goods else None


def decision_text(kind: str) -> Text:
    return (text(f"cv.decision_{kind}") if kind in DECISIONS
            else text("literal", text=kind))


def tile_effect_text(tile: str, legacy: bool) -> Text:
    """The effect of `tile` as the game's rules version has it (an older version's own
    wording where its rule differed)."""
    if legacy and tile in LEGACY_TILE_TEXT:
        return text("cv.effect_legacy", effect_legacy=tile)
    return text("cv.effect", effect=tile)


# ----- the game's own log -----------------------------------------------------------------------

#: The log lines the rules write (rules.log, effects.log), read back by their templates.
LOG_KEYS = [key for key in MESSAGES if key.startswith("cv.log_")]
_BRED = re.compile(r"Seat (\d+) bred (.+)\.\Z")


def _paid(words: str) -> list[Text] | Text:
    if words == "nothing":
        return text("cv.nothing")
    parts = []
    for part in words.split(", "):
        amount, good = part.split(" ", 1)
        parts.append(text("cv.amount", n=int(amount), good=_id("good", good)))
    return parts


_LOG_PARSER = Parser(CATALOG, LOG_KEYS, readers={"paid": _paid})


def log_text(sentence: str) -> Text:
    """A line of the game's log as a text (a line no template reads stays a literal)."""
    bred = _BRED.match(sentence)
    if bred:
        animals = bred[2].split(", ")
        if all(animal in CATALOG.names["good_id"] for animal in animals):
            return text("cv.breed", seat=int(bred[1]), animals=animals)
    return _LOG_PARSER.parse(sentence)
