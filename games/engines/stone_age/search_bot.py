"""The search bot's knowledge of Stone Age: what a seat cannot see and which moves to compare.

Hidden from a seat: the order (and, with the other tribes' face-down cards, the content) of the
civilization deck, other tribes' civilization cards except the face-up ones (one-use tools,
two-resources cards), the building tiles below each stack's top (drawn from the tiles not in
sight, the box's unused stacks among them) and every future die (the secret seed). The
determinizer keeps what the seat sees (display, its own cards, card counts, stack heights and
tops, built buildings) and redraws the rest.
"""

from __future__ import annotations

import copy
from typing import Any

from games.engines.base import SeededRandom
from games.engines.search import SearchAdapter

from . import bot, rules
from .data import BUILDING_IDS, CARD_IDS

State = dict[str, Any]

#: Candidates compared at one decision by the search level and by the hard level, and the hard
#: level's play-outs a decision: the hard level plays each candidate on 80 worlds rather than
#: 16. Six candidates did worse against search bots (bot_duel pilots, docs/bots.md).
MAX_CANDIDATES = 4
HARD_CANDIDATES = 4
HARD_ROLLOUTS = 320
#: Pending decisions worth a search (None: placing people; the order of resolving is not).
SEARCHED = (None, "buy_card", "buy_building")
#: Dice make single play-outs noisy: another move must beat the easy bot's by this much.
PREFER_EASY = 2.0


def determinize(state: State, seat: int, rng: SeededRandom) -> State:
    world = copy.deepcopy(state)
    players = world["players"]
    seen = set(state["display"]) | set(state["players"][seat]["cards"])
    for other, player in enumerate(state["players"]):
        if other != seat:
            seen |= set(player["one_use"]) | set(player["two_resources"])
    pool = rng.shuffled(sorted(set(CARD_IDS) - seen))
    for other, player in enumerate(state["players"]):
        if other == seat:
            continue
        face_up = [*player["one_use"], *player["two_resources"]]
        hidden = len(player["cards"]) - len(face_up)
        players[other]["cards"] = [*face_up, *pool[:hidden]]
        del pool[:hidden]
    world["deck"] = pool[: len(state["deck"])]
    tiles_seen = {stack[0] for stack in state["stacks"] if stack}
    tiles_seen |= {b["id"] for p in state["players"] for b in p["buildings"]}
    tiles = rng.shuffled(sorted(set(BUILDING_IDS) - tiles_seen))
    stacks = []
    for stack in state["stacks"]:
        below = len(stack) - 1 if stack else 0
        stacks.append([stack[0], *tiles[:below]] if stack else [])
        del tiles[:below]
    world["stacks"] = stacks
    world["rng"] = {"seed": f"determinized:{rng.seed}", "counter": 0}
    return world


def candidates(state: State, seat: int, legal: list[dict[str, Any]],
               width: int = MAX_CANDIDATES) -> list[dict[str, Any]]:
    easy = bot.bot_action(state, seat)
    pending = state["pending"]
    kind = pending["kind"] if pending else None
    if kind not in SEARCHED or (kind is None and state["phase"] != "placement"):
        return [easy]
    pool = legal
    if kind is None and state["phase"] == "placement":
        pool = sorted(legal, key=lambda a: -bot._placement_score(state, seat, a))
    out = [easy]
    for action in pool:
        if len(out) >= width:
            break
        if action != easy:
            out.append(action)
    return out


def _policy(engine: Any, state: State, seat: int) -> dict[str, Any]:
    return bot.bot_action(state, seat)


def _step(engine: Any, state: State, seat: int, action: dict[str, Any]) -> State:
    return rules.apply_action(state, seat, action)


ADAPTER = SearchAdapter(
    determinize=determinize, candidates=candidates, step=_step, playout_policy=_policy,
    prefer_easy=PREFER_EASY, rollouts=64, width=MAX_CANDIDATES,
    hard_rollouts=HARD_ROLLOUTS, hard_width=HARD_CANDIDATES,
)
