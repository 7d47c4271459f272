"""The "search" bot level: determinized flat Monte Carlo over the moves of one decision.

For each decision the bot draws D determinizations: complete states that agree with everything
its seat may see (the public state, its own hand) and redraw everything it may not (other hands,
pending secret picks, deck and tile orders, future dice) from the pools the view leaves open. On
each one it tries every candidate move and plays the game out with the easy (heuristic) bot on
every seat; the move with the best total of (own score − best other score) is chosen. The same
determinizations serve every candidate (common random numbers), so differences come from the
moves, not the draws.

Budget: `rollouts` play-outs per decision (candidates × determinizations; the adapter's own
count unless the caller gives one), deterministic for a given seed. A candidate stops being
played out once it is clearly worse than the leader (racing: after RACE_MIN_DRAWS worlds, its
mean deficit on the same worlds is RACE_Z standard errors or more), and the search ends when one
candidate is left: a decision with an obvious answer costs a few worlds, not the whole budget,
and the choice still depends on the play-outs alone. `max_seconds` bounds the search's wall time
(a person waits for the reply, whatever else the machine is doing): the search stops before a
world that could overrun it (judged by the slowest world so far, with TIME_HEADROOM to spare).
It binds only on a busy machine or in the longest decisions, the only cases where the choice can
depend on timing. The seed is derived from the seat's view, never from the game's secret seed,
so the choice is a function of what the seat sees: scrambling the hidden parts of the state
changes nothing.

The "hard" level is the same search with a larger budget: each adapter's `hard_rollouts`
play-outs over `hard_width` candidates (`width`; the pilots favoured the search level's own
width, so the budget buys more worlds a candidate), bounded by
`max_seconds` (2 s by default, BOT_HARD_MAX_SECONDS), and play-outs that may stray from the easy
bot's moves now and then (`explore`, the adapter's `hard_explore`; draws shared by every
candidate of a world).

Each engine supplies a `SearchAdapter`: its determinizer, which moves are worth searching, and
optionally a faster in-place step for play-outs.
"""

from __future__ import annotations

import hashlib
import json
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import Action, Engine, IllegalAction, SeededRandom, State

#: Play-outs per decision of an adapter that sets none, and the wall seconds a search may take,
#: when the caller gives none.
DEFAULT_ROLLOUTS = 48
DEFAULT_MAX_SECONDS = 1.0
#: The wall seconds a hard bot's decision may take when the caller gives none.
HARD_MAX_SECONDS = 2.0
#: The share of `max_seconds` a search plans to fill: the next world may be slower than the
#: slowest so far (Stone Age's early decisions, bounded at 2 s, ended at up to 1.98 s without it).
TIME_HEADROOM = 0.95
#: A play-out that has not ended after this many steps is scored as it stands.
MAX_PLAYOUT_STEPS = 5000
#: Racing: a candidate is dropped once, over at least RACE_MIN_DRAWS shared worlds, its mean
#: deficit to the leader is RACE_Z standard errors or more (a one-sided test at about 0.6 %
#: per look; several looks and candidates make it a few percent per decision at worst, and a
#: wrongly dropped candidate was close to the leader anyway).
RACE_MIN_DRAWS = 4
RACE_Z = 2.5


def _default_step(engine: Engine, state: State, seat: int, action: Action) -> State:
    return engine.apply(state, seat, action)


@dataclass
class SearchAdapter:
    """What the search needs to know about one engine.

    determinize(state, seat, rng) -> a new state: the public parts of `state` and what `seat`
        itself holds, with every part `seat` cannot see redrawn from `rng`. It must not read the
        hidden parts it replaces (the scramble tests check that the result does not depend on
        them).
    candidates(state, seat, legal, width) -> the moves worth comparing (at most `width`, the
        easy bot's own move first); one candidate means "no search".
    step(engine, state, seat, action) -> the next state in a play-out; may change `state` in
        place (play-outs own their states).
    start(state) -> a copy of a determinized state that `step` may change in place.
    prefer_easy: points a play-out by which another move must beat the easy bot's on average.
    rollouts: play-outs per decision when the caller gives no count: the budget the engine's
        strength was measured at.
    width: candidates compared at one decision by the search level.
    hard_rollouts, hard_width: the same for the hard level.
    hard_explore: the hard level's chance that a play-out decision strays from the easy bot's
        move (to one of its next best): where play-outs barely differ between worlds, the easy
        bot's fixed replies are otherwise taken for the opponent's, and moves that only beat
        those replies win the search.
    """

    determinize: Callable[[State, int, SeededRandom], State]
    candidates: Callable[[State, int, list[Action], int], list[Action]]
    step: Callable[[Engine, State, int, Action], State] = _default_step
    start: Callable[[State], State] = lambda state: state
    playout_policy: Callable[[Engine, State, int], Action] | None = None
    evaluate: Callable[[Engine, State, int], float] | None = None
    prefer_easy: float = 0.0
    rollouts: int = DEFAULT_ROLLOUTS
    width: int = 6
    hard_rollouts: int = 4 * DEFAULT_ROLLOUTS
    hard_width: int = 8
    hard_explore: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def view_seed(engine: Engine, state: State, seat: int, salt: str = "") -> str:
    """A seed for the search drawn from what `seat` sees (its view), so the search's draws are
    the same whatever the hidden parts of the state hold."""
    text = json.dumps(engine.view(state, seat), sort_keys=True, default=str)
    return hashlib.sha256(f"{salt}|{seat}|{text}".encode()).hexdigest()


def margin(engine: Engine, state: State, seat: int) -> float:
    """Own score minus the best other score (positive: ahead); only ranked seats have scores
    (7 Wonders' Free City is not ranked)."""
    scores = engine.result(state)["scores"]
    others = [s for i, s in enumerate(scores) if i != seat]
    return float(scores[seat] - (max(others) if others else 0))


def playout(engine: Engine, adapter: SearchAdapter, state: State,
            rng: SeededRandom | None = None, explore: float = 0.0) -> State:
    """Plays `state` to the end with the easy bot on every seat (secret picks in seat order).
    With `explore` > 0, a decision the search would compare is, with that probability, made by
    one of the adapter's EXPLORE_WIDTH best moves drawn from `rng` instead."""
    policy = adapter.playout_policy or (lambda e, s, seat: e.bot_action(s, seat))
    if explore > 0 and rng is not None:
        policy = _exploring(policy, adapter, rng, explore)
    for _ in range(MAX_PLAYOUT_STEPS):
        if engine.is_over(state):
            break
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        active = engine.active_seats(state)
        if not active:
            break
        seat = active[0]
        state = adapter.step(engine, state, seat, policy(engine, state, seat))
    return state


#: An exploring play-out's alternatives: the easy bot's move and the next by its values.
EXPLORE_WIDTH = 3


def _exploring(policy, adapter: SearchAdapter, rng: SeededRandom, explore: float):
    def explored(engine: Engine, state: State, seat: int) -> Action:
        if rng.randbelow(1000) >= explore * 1000:
            return policy(engine, state, seat)
        legal = engine.legal_actions(state, seat)
        if len(legal) < 2:
            return policy(engine, state, seat)
        return rng.choice(adapter.candidates(state, seat, legal, EXPLORE_WIDTH))
    return explored


def choose(
    engine: Engine,
    adapter: SearchAdapter,
    state: State,
    seat: int,
    *,
    rollouts: int | None = None,
    width: int | None = None,
    max_seconds: float = DEFAULT_MAX_SECONDS,
    seed: str | None = None,
    stats: dict[str, Any] | None = None,
    clock: Callable[[], float] = time.monotonic,
    explore: float = 0.0,
) -> Action:
    """The search bot's move for `seat` in `state` (a legal action): `width` candidates (the
    adapter's `width` when None) and `rollouts` play-outs (its `rollouts`) within `max_seconds`
    of `clock` (wall time; a measurement may pass CPU time, `time.process_time`, so that a busy
    machine does not cut its searches short)."""
    started = clock()
    planned = max_seconds * TIME_HEADROOM
    # Key order is not part of a JSON state (PostgreSQL's jsonb reorders keys; a replay keeps
    # insertion order), but engines list moves in dict order: search a key-sorted copy, so the
    # choice is the same for the stored and the replayed state.
    state = json.loads(json.dumps(state, sort_keys=True))
    legal = engine.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action")
    width = adapter.width if width is None else width
    candidates = adapter.candidates(state, seat, legal, width) if len(legal) > 1 else legal[:1]
    if stats is not None:
        stats.update(candidates=len(candidates), playouts=0, searched=len(candidates) > 1)
    if len(candidates) == 1:
        return candidates[0]
    seed = seed if seed is not None else view_seed(engine, state, seat)
    evaluate = adapter.evaluate or margin
    if rollouts is None:
        rollouts = adapter.rollouts
    draws = max(1, rollouts // len(candidates))
    # The first candidate is the easy bot's move: another must beat it by `prefer_easy` points a
    # play-out on average (noisy games, dice above all, otherwise pick by luck).
    bonus = [adapter.prefer_easy if index == 0 else 0.0 for index in range(len(candidates))]
    outcomes: list[list[float]] = [[] for _ in candidates]  # per candidate, per world played
    live = list(range(len(candidates)))
    done = skipped = 0
    slowest = 0.0  # the longest world so far (play-outs vary: the mean world overran by 1 %)
    for draw in range(draws):
        world_started = clock()
        if done and world_started - started + slowest > planned:
            break  # the next world could overrun the budget
        world = adapter.determinize(state, seat, SeededRandom(f"{seed}:{draw}"))
        # The determinized seat acts again in that world: its pending decision is the same, so
        # every candidate is legal there; a world where one is not is dropped (a determinizer
        # bug must cost strength, never a move).
        values = []
        try:
            for index in live:
                after = adapter.step(engine, adapter.start(world), seat, candidates[index])
                # Every candidate's play-out in a world draws the same numbers.
                rng = SeededRandom(f"{seed}:{draw}:playout") if explore else None
                outcome = evaluate(engine, playout(engine, adapter, after, rng, explore), seat)
                values.append(outcome + bonus[index])
        except IllegalAction:
            skipped += 1
            continue
        for index, value in zip(live, values, strict=True):
            outcomes[index].append(value)
        done += 1
        slowest = max(slowest, clock() - world_started)
        if done >= RACE_MIN_DRAWS:
            live = _still_racing(outcomes, live)
            if len(live) == 1:
                break
    if stats is not None:
        stats.update(playouts=sum(len(values) for values in outcomes), draws=done,
                     skipped=skipped, dropped=len(candidates) - len(live))
    # Among the candidates still racing (all played on the same worlds), the best total.
    best = max(live, key=lambda index: (sum(outcomes[index]), -index))
    return candidates[best]


def _still_racing(outcomes: list[list[float]], live: list[int]) -> list[int]:
    """The candidates of `live` not clearly worse than the leader on the worlds all of them
    were played on (each candidate's `outcomes` holds one value a world, in the same order)."""
    leader = max(live, key=lambda index: (sum(outcomes[index]), -index))
    kept = []
    for index in live:
        if index != leader:
            deficits = [a - b for a, b in zip(outcomes[leader], outcomes[index], strict=True)]
            spread = statistics.stdev(deficits)
            if statistics.fmean(deficits) > RACE_Z * spread / math.sqrt(len(deficits)):
                continue
        kept.append(index)
    return kept
