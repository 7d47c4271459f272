"""The search bot's knowledge of 7 Wonders: what a seat cannot see and which moves to compare.

Hidden from a seat: the other hands, the other seats' pending picks, the cards under other
wonders' stages, the discard pile (but for Halicarnassus while it builds from it), the Age decks
still to come and which guilds are in the game; with two players also the Free City's face-down
pile (but for its last card while its controller plays it as Babylon's seventh) and its pending
pick unless this seat made it.
The determinizer keeps what the seat sees (its hand, every city's built cards, counts of hands,
stages, pile and discards, its own picks) and redraws the rest: the other hands and the Free
City's pile from the current Age's cards not in sight, the discards and stage cards from what is
left of the Ages so far, new Age decks as set-up builds them, and no pending picks for the others
(they choose again in the play-out).

With two players the seat controlling the Free City makes two searched decisions a turn, its own
card and then the Free City's; for the latter every card left in its hand is a candidate, and the
play-outs judge it by the seat's own margin over the other player (the Free City is not ranked),
so a card that gives the Free City shields against the opponent or keeps a card from the
opponent's next hand is chosen when it pays.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engines.base import SeededRandom
from games.engines.search import SearchAdapter

from . import bot
from .engine import build_deck, copy_state
from .free_city import acting_seat, choosing_for_free_city, controller, is_two_player
from .rules import GUILDS

State = dict[str, Any]

#: Candidates compared at one decision by the search level and by the hard level, and the hard
#: level's play-outs a decision: the hard level plays each candidate on 24 worlds rather than 3.
#: A wider hard search (12 candidates) did no better for two players and worse for three
#: (bot_duel pilots, docs/bots.md): the moves past the easy bot's best 8 mostly win play-outs
#: by the easy bot's replies, not against better players.
MAX_CANDIDATES = 8
HARD_CANDIDATES = 8
HARD_ROLLOUTS = 192


def _take(pool: list[str], count: int) -> list[str]:
    taken = pool[:count]
    del pool[:count]
    return taken


def determinize(state: State, seat: int, rng: SeededRandom) -> State:
    world = copy_state(state)
    n = state["num_players"]
    cities = len(state["players"])  # with two players the Free City is a third city
    two_player = is_two_player(state)
    age = state["age"]
    built = Counter(cid for p in state["players"] for cid in p["built"])
    own_hand = state["hands"][seat]
    # The current Age's cards nobody can see: its deck less this seat's hand and what is built.
    unseen = Counter(build_deck(age, cities)) - Counter(own_hand) - built
    if age == 3:
        known_guilds = {cid for cid in GUILDS if built[cid] or cid in own_hand}
        missing = cities + 2 - len(known_guilds)
        others = rng.shuffled(sorted(set(GUILDS) - known_guilds))
        unseen.update(others[: max(0, missing)])
    # Babylon B's Free City playing the last card of its pile shows that card to its controller.
    shown_pile = (two_player and state["phase"] == "seventh" and state["seventh"][0] >= n
                  and acting_seat(state, state["seventh"][0]) == seat)
    if shown_pile:
        unseen -= Counter(state["free_city"]["pile"])
    pool = rng.shuffled(sorted(unseen.elements()))
    hands = [list(hand) for hand in state["hands"]]
    for other in range(n):
        if other != seat:
            hands[other] = _take(pool, len(state["hands"][other]))
    world["hands"] = hands
    if two_player and not shown_pile:
        world["free_city"]["pile"] = _take(pool, len(state["free_city"]["pile"]))
    # Discards and stage cards: from what is left of this Age and the earlier Ages.
    for earlier in range(1, age):
        pool.extend((Counter(build_deck(earlier, cities)) - built).elements())
    pool = rng.shuffled(sorted(pool))
    if (state["phase"] == "discard_build"
            and acting_seat(state, state["pending_builds"][0]) == seat):
        world["discard"] = list(state["discard"])  # shown to Halicarnassus while it chooses
        pool = pool[len(state["discard"]):]  # (the stage cards still come from the pool)
    else:
        world["discard"] = _take(pool, len(state["discard"]))
    for other in range(cities):
        if other != seat:
            player = dict(world["players"][other])
            player["stage_cards"] = _take(pool, len(state["players"][other]["stage_cards"]))
            world["players"][other] = player
    if state["phase"] == "pick":
        world["picks"] = [pick if other == seat else None
                          for other, pick in enumerate(state["picks"])]
        if two_player and controller(state) != seat:
            # The other player's card for the Free City: it chooses again in the play-out.
            world["free_city"]["pick"] = None
    decks = {}
    guilds = rng.shuffled(list(GUILDS))[: cities + 2]
    for later in range(age + 1, 4):
        deck = build_deck(later, cities) + (guilds if later == 3 else [])
        decks[str(later)] = rng.shuffled(deck)
    world["decks"] = decks
    world["rng"] = {"seed": f"determinized:{rng.seed}", "counter": 0}
    return world


def candidates(state: State, seat: int, legal: list[dict[str, Any]],
               width: int = MAX_CANDIDATES) -> list[dict[str, Any]]:
    easy = bot.choose(state, seat, legal)
    out = [easy]
    if choosing_for_free_city(state, seat):
        # The Free City's card: every card left in the hand once (its best use for the Free
        # City), since what suits the seat may be what the opponent would get next turn.
        cards = {easy["card"]}
        for action in sorted(legal, key=lambda a: -bot.action_value(state, seat, a)):
            if len(out) >= width:
                break
            if action["card"] not in cards:
                cards.add(action["card"])
                out.append(action)
        return out
    ranked = sorted(legal, key=lambda a: -bot.action_value(state, seat, a))
    for action in ranked:
        if len(out) >= width:
            break
        if action != easy:
            out.append(action)
    return out


ADAPTER = SearchAdapter(
    determinize=determinize, candidates=candidates, rollouts=24, width=MAX_CANDIDATES,
    hard_rollouts=HARD_ROLLOUTS, hard_width=HARD_CANDIDATES,
)
