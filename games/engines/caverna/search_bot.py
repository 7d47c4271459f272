"""The search bot's knowledge of Caverna: what a seat cannot see and which moves to compare.

Hidden in Caverna are only the order of the round cards not yet revealed (each stage's cards are
shuffled within the stage at set-up) and the harvest markers still face down; the determinizer
redraws both from the pools the public state leaves open (the stage's cards not yet revealed, the
markers not yet turned) and replaces the secret seed. Play-outs change one copied state in place
(`rules.apply_action` + `rules.run`), which is several times faster than `engine.apply`.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import SeededRandom
from games.engines.search import SearchAdapter

from . import board_memo, bot
from . import rules as R
from .data import ROUND_CARDS

State = dict[str, Any]

#: The stage of each round's card (round 4 is always Wish for children).
ROUND_STAGE = {1: 1, 2: 1, 3: 1, 5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4, 11: 4, 12: 4}
#: Candidates compared at one decision (the easy bot's move always among them), by the search
#: level and by the hard level, the hard level's play-outs a decision and its play-outs' chance
#: to stray from the easy bot's move. Play-outs here barely differ between worlds (only the
#: order of round cards and markers is hidden): more worlds alone bought nothing against search
#: bots and wider searches lost (bot_duel pilots, docs/bots.md), while play-outs that vary the
#: replies won more.
MAX_CANDIDATES = 6
HARD_CANDIDATES = 6
HARD_ROLLOUTS = 96
HARD_EXPLORE = 0.15
#: Decisions worth a search; the rest (feeding, overflow, sowing order …) the easy bot plays.
SEARCHED = ("turn", "furnish", "final_trades", "breed_choice", "harvest_choice")


def determinize(state: State, seat: int, rng: SeededRandom) -> State:
    world = R.fast_copy(state)
    n = state["n"]
    current = state["round"]
    if n > 1:
        revealed = set(state["cards"])
        future = [r for r in state["rounds"] if r > current and ROUND_STAGE.get(r)]
        by_stage: dict[int, list[str]] = {}
        for card in ROUND_CARDS:
            cid = card["id"]
            if cid == "wish_for_children" or n not in card["player_counts"] or cid in revealed:
                continue
            by_stage.setdefault(card["stage"], []).append(cid)
        deck = {key: value for key, value in state["deck"].items() if int(key) <= current}
        for stage in (1, 2, 3, 4):
            rounds = [r for r in future if ROUND_STAGE[r] == stage]
            cards = rng.shuffled(sorted(by_stage.get(stage, [])))
            for r, cid in zip(rounds, cards, strict=False):
                deck[str(r)] = cid
        for r in range(1, 13):
            deck.setdefault(str(r), None)  # round 9 of a 2-player game; round 4 is fixed
        if current < 4:
            deck["4"] = "wish_for_children"
        world["deck"] = deck
        turned = dict(state["revealed"])
        pool = ["green"] * (4 if n >= 3 else 3) + ["red"] * 3
        for marker in turned.values():
            pool.remove(marker)
        hidden_rounds = sorted((key for key in state["markers"] if key not in turned), key=int)
        markers = dict(turned)
        markers.update(zip(hidden_rounds, rng.shuffled(pool), strict=True))
        world["markers"] = markers
    world["rng"] = {"seed": f"determinized:{rng.seed}", "counter": 0}
    return world


def candidates(state: State, seat: int, legal: list[dict[str, Any]],
               width: int = MAX_CANDIDATES) -> list[dict[str, Any]]:
    task = state["stack"][-1]
    easy = bot.bot_action(state, seat)
    if task["t"] not in SEARCHED:
        return [easy]
    if task["t"] == "turn":
        places = [a for a in legal if a["type"] == "place"]
        places.sort(key=lambda a: -bot._score_place(state, seat, a["space"]))
        pool = places
    elif task["t"] == "final_trades":
        pool = [a for a in legal if a["type"] in ("finish", "ruby_trade", "tile_trade")]
    else:
        pool = R.decision_actions(state, task)
    out = [easy]
    for action in pool:
        if len(out) >= width:
            break
        if action != easy:
            out.append(action)
    return out


@board_memo.scoped
def _step(engine: Any, state: State, seat: int, action: dict[str, Any]) -> State:
    R.apply_action(state, seat, action)
    R.run(state, seat)
    return state


def _policy(engine: Any, state: State, seat: int) -> dict[str, Any]:
    return bot.bot_action(state, seat)


ADAPTER = SearchAdapter(
    determinize=determinize,
    candidates=candidates,
    step=_step,
    start=R.fast_copy,
    playout_policy=_policy,
    rollouts=12,
    width=MAX_CANDIDATES,
    hard_rollouts=HARD_ROLLOUTS,
    hard_width=HARD_CANDIDATES,
    hard_explore=HARD_EXPLORE,
)
