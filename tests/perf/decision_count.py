"""How often a game needs a person: bot games played on the pure engines, once with every
decision asked of the player ("before") and once with the service's rules for steps that need
nobody ("after": forced moves, the default standing orders, and each seat queuing its next
placement while it waits), through the same pure module the service uses
(games.engines.autoplay).

A *person decision* is a decision the seat's player must make. A *wait* is a person decision by
another seat than the previous person decision: the game waits for someone new."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engines import autoplay
from games.engines.caverna import bot as caverna_bot
from games.engines.caverna import rules as caverna_rules
from games.engines.stone_age import bot as stone_age_bot
from games.engines.stone_age import rules as stone_age_rules

#: Candidates a waiting seat queues for its next placement (best first).
QUEUE_CANDIDATES = 3


@dataclass
class Counts:
    games: int = 0
    decisions: int = 0
    person: int = 0
    waits: int = 0
    auto: int = 0
    ordered: int = 0
    queued: int = 0
    dropped: int = 0
    reasons: dict[str, int] = field(default_factory=dict)

    def add(self, other: Counts) -> None:
        for name in ("games", "decisions", "person", "waits", "auto", "ordered", "queued",
                     "dropped"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for key, value in other.reasons.items():
            self.reasons[key] = self.reasons.get(key, 0) + value


def _stone_age_next_placement(state: dict, seat: int) -> list[dict[str, Any]]:
    """The bot's best placements for `seat` were it to place now (the board is public)."""
    if state["phase"] != "placement" or state["players"][seat]["unplaced"] <= 0:
        return []
    legal = stone_age_rules.placement_actions(state, seat)

    def key(action):
        return (stone_age_bot._placement_score(state, seat, action), action["count"],
                -stone_age_rules.BOARD_ORDER.index(action["location"]))

    return sorted(legal, key=key, reverse=True)[:QUEUE_CANDIDATES]


def _caverna_next_placement(state: dict, seat: int) -> list[dict[str, Any]]:
    if state["phase"] != "work":
        return []
    player = state["players"][seat]
    dwarf = caverna_rules.default_dwarf(player)
    if dwarf is None:
        return []
    spaces = caverna_rules.placements(state, seat, dwarf)
    ranked = sorted(spaces, key=lambda sid: (caverna_bot._score_place(state, seat, sid), sid),
                    reverse=True)
    return [{"type": "place", "space": sid} for sid in ranked[:QUEUE_CANDIDATES]]


#: Per engine: the candidates a waiting seat queues for its next placement.
NEXT_PLACEMENT = {
    "stone_age": _stone_age_next_placement,
    "caverna": _caverna_next_placement,
}


def play(engine, num_players: int, seed: str, *, helped: bool) -> Counts:
    """One bot game. `helped`: with forced moves, default standing orders and queues."""
    counts = Counts(games=1)
    state = engine.new_game(num_players, seed)
    orders = engine.validate_orders({})
    queues: dict[int, list] = {seat: [] for seat in range(num_players)}
    next_placement = NEXT_PLACEMENT.get(engine.slug) if helped else None
    last_person = None
    steps = 0
    while not engine.is_over(state):
        steps += 1
        if steps > 100_000:  # pragma: no cover - a runaway game is a bug, not a measurement
            raise RuntimeError(f"{engine.slug} game {seed} does not end")
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        counts.decisions += 1
        step = (autoplay.next_step(engine, state, seat, forced=True, orders=orders,
                                   queue=queues[seat]) if helped else None)
        if step is not None and step.action is not None:
            queues[seat] = step.queue
            if step.source == autoplay.QUEUED:
                counts.queued += 1
            elif step.reason == "order":
                counts.ordered += 1
            else:
                counts.auto += 1
            counts.reasons[step.reason] = counts.reasons.get(step.reason, 0) + 1
            action = step.action
        else:
            if step is not None and step.dropped:
                queues[seat] = []
                counts.dropped += 1
            counts.person += 1
            if seat != last_person:
                counts.waits += 1
            last_person = seat
            action = engine.bot_action(state, seat)
        state = engine.apply(state, seat, action)
        if next_placement is not None and not queues[seat] and (
                engine.is_over(state) or seat not in engine.active_seats(state)):
            # The seat's turn is over: while it waits, it queues its next placement.
            candidates = next_placement(state, seat)
            if candidates:
                queues[seat] = [candidates]
    return counts


def compare(engine, games: int, num_players: int = 3, prefix: str = "fewer") -> dict[str, Counts]:
    """Counts for `games` seeded games, before and after, on the same seeds."""
    before, after = Counts(), Counts()
    for index in range(games):
        seed = f"{prefix}-{engine.slug}-{index}"
        before.add(play(engine, num_players, seed, helped=False))
        after.add(play(engine, num_players, seed, helped=True))
    return {"before": before, "after": after}
