"""The search bot's knowledge of 7 Wonders: what a seat cannot see and which moves to compare.

Hidden from a seat: the other hands, the other seats' pending picks, the cards under other
wonders' stages, the discard pile (but for Halicarnassus while it builds from it), the Age decks
still to come and which guilds are in the game.
The determinizer keeps what the seat sees (its hand, every city's built cards, counts of hands,
stages and discards) and redraws the rest: the other hands from the current Age's cards not in
sight, the discards and stage cards from what is left of the Ages so far, new Age decks as set-up
builds them, and no pending picks for the others (they choose again in the play-out).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engines.base import SeededRandom
from games.engines.search import SearchAdapter

from . import bot
from .engine import build_deck, copy_state
from .rules import GUILDS

State = dict[str, Any]

MAX_CANDIDATES = 8


def _take(pool: list[str], count: int) -> list[str]:
    taken = pool[:count]
    del pool[:count]
    return taken


def determinize(state: State, seat: int, rng: SeededRandom) -> State:
    world = copy_state(state)
    n = state["num_players"]
    age = state["age"]
    built = Counter(cid for p in state["players"] for cid in p["built"])
    own_hand = state["hands"][seat]
    # The current Age's cards nobody can see: its deck less this seat's hand and what is built.
    unseen = Counter(build_deck(age, n)) - Counter(own_hand) - built
    if age == 3:
        known_guilds = {cid for cid in GUILDS if built[cid] or cid in own_hand}
        missing = n + 2 - len(known_guilds)
        others = rng.shuffled(sorted(set(GUILDS) - known_guilds))
        unseen.update(others[: max(0, missing)])
    pool = rng.shuffled(sorted(unseen.elements()))
    hands = [list(hand) for hand in state["hands"]]
    for other in range(n):
        if other != seat:
            hands[other] = _take(pool, len(state["hands"][other]))
    world["hands"] = hands
    # Discards and stage cards: from what is left of this Age and the earlier Ages.
    for earlier in range(1, age):
        pool.extend((Counter(build_deck(earlier, n)) - built).elements())
    pool = rng.shuffled(sorted(pool))
    if state["phase"] == "discard_build" and state["pending_builds"][:1] == [seat]:
        world["discard"] = list(state["discard"])  # shown to Halicarnassus while it chooses
        pool = pool[len(state["discard"]):]  # (the stage cards still come from the pool)
    else:
        world["discard"] = _take(pool, len(state["discard"]))
    for other in range(n):
        if other != seat:
            player = dict(world["players"][other])
            player["stage_cards"] = _take(pool, len(state["players"][other]["stage_cards"]))
            world["players"][other] = player
    if state["phase"] == "pick":
        world["picks"] = [pick if other == seat else None
                          for other, pick in enumerate(state["picks"])]
    decks = {}
    guilds = rng.shuffled(list(GUILDS))[: n + 2]
    for later in range(age + 1, 4):
        deck = build_deck(later, n) + (guilds if later == 3 else [])
        decks[str(later)] = rng.shuffled(deck)
    world["decks"] = decks
    world["rng"] = {"seed": f"determinized:{rng.seed}", "counter": 0}
    return world


def candidates(state: State, seat: int, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    easy = bot.choose(state, seat, legal)
    if "free_city" in state:
        # The two-player variant (the Free City's pile and pick) has no determinizer yet: the
        # search level plays it as the easy bot does rather than search a world it would
        # misdraw.
        return [easy]
    ranked = sorted(legal, key=lambda a: -bot.action_value(state, seat, a))
    out = [easy]
    for action in ranked:
        if len(out) >= MAX_CANDIDATES:
            break
        if action != easy:
            out.append(action)
    return out


ADAPTER = SearchAdapter(determinize=determinize, candidates=candidates, rollouts=24)
