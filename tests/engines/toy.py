"""A tiny game that exists only for tests: it exercises the service and the conformance kit with
one simultaneous phase (secret bids, resolved by the system) and one sequential phase (each seat in
turn banks a point or rolls a die). Never registered outside the test suite.

Each of two rounds: every seat secretly bids 1–3 (and may change its bid until all are in); the
resolution reveals the bids, adds them to the scores and gives +2 to the single highest bidder.
Then, from seat 0 on, each seat either banks 1 point or rolls a die for that many points.
"""

from __future__ import annotations

import copy

from games.engines.base import (
    Engine,
    IllegalAction,
    SeededRandom,
    new_rng_state,
    require_choice,
)

ROUNDS = 2


class ToyEngine(Engine):
    slug = "toy"
    name = "Toy"
    min_players = 2
    max_players = 4
    simultaneous = True
    options = [
        {"name": "rounds", "kind": "int", "default": ROUNDS, "min": 1, "max": 5,
         "label": "Rounds", "help": "How many rounds are played."},
    ]

    def new_game(self, num_players, seed, options=None):
        options = self.validate_options(num_players, options)
        return {
            "num_players": num_players,
            "rounds": options["rounds"],
            "round": 1,
            "phase": "bid",
            "bids": [None] * num_players,
            "turn": None,
            "scores": [0] * num_players,
            "last_rolls": [],
            "rng": new_rng_state(seed),
        }

    def active_seats(self, state):
        if state["phase"] == "bid":
            return [seat for seat in range(state["num_players"]) if state["bids"][seat] is None]
        if state["phase"] == "play":
            return [state["turn"]]
        return []

    def legal_actions(self, state, seat):
        if state["phase"] == "bid" and seat in range(state["num_players"]):
            # A seat may replace its bid until every bid is in.
            if any(bid is None for bid in state["bids"]):
                return [{"type": "bid", "amount": amount} for amount in (1, 2, 3)]
            return []
        if state["phase"] == "play" and seat == state["turn"]:
            return [{"type": "bank"}, {"type": "roll"}]
        return []

    def apply(self, state, seat, action):
        if state["phase"] == "over":
            raise IllegalAction("The game is over.")
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(f"Seat {seat} has nothing to do now.")
        action = require_choice(action, legal)
        new = copy.deepcopy(state)
        if action["type"] == "bid":
            new["bids"][seat] = action["amount"]
        elif action["type"] == "bank":
            new["scores"][seat] += 1
            self._next_turn(new)
        else:
            rng = SeededRandom.from_state(new)
            roll = rng.randint(1, 6)
            rng.save(new)
            new["scores"][seat] += roll
            new["last_rolls"].append([seat, roll])
            self._next_turn(new)
        return new

    def _next_turn(self, state):
        if state["turn"] + 1 < state["num_players"]:
            state["turn"] += 1
            return
        if state["round"] == state["rounds"]:
            state["phase"] = "over"
            state["turn"] = None
            return
        state["round"] += 1
        state["phase"] = "bid"
        state["turn"] = None
        state["bids"] = [None] * state["num_players"]

    def active_pickers(self, state):
        return [seat for seat in range(state["num_players"]) if state["bids"][seat] is None]

    def ready_to_resolve(self, state):
        return state["phase"] == "bid" and all(bid is not None for bid in state["bids"])

    def resolve(self, state):
        if not self.ready_to_resolve(state):
            raise IllegalAction("Not every bid is in yet.")
        new = copy.deepcopy(state)
        top = max(new["bids"])
        for seat, bid in enumerate(new["bids"]):
            new["scores"][seat] += bid
        if new["bids"].count(top) == 1:
            new["scores"][new["bids"].index(top)] += 2
        new["revealed_bids"] = list(new["bids"])
        new["phase"] = "play"
        new["turn"] = 0
        return new

    def view(self, state, seat):
        bids = []
        for other, bid in enumerate(state["bids"]):
            if state["phase"] != "bid" or other == seat:
                bids.append(bid)
            else:
                bids.append("hidden" if bid is not None else None)
        return {
            "round": state["round"],
            "phase": state["phase"],
            "turn": state["turn"],
            "scores": list(state["scores"]),
            "bids": bids,
            "revealed_bids": state.get("revealed_bids"),
            "last_rolls": state["last_rolls"][-4:],
            "players": list(range(state["num_players"])),
        }

    def describe(self, state, seat, action, viewer=None):
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "bid":
            if viewer == seat:
                return f"Seat {seat} bid {action['amount']}."
            return f"Seat {seat} placed a secret bid."
        if kind == "bank":
            return f"Seat {seat} banked 1 point."
        if kind == "roll":
            return f"Seat {seat} rolled the die."
        return f"Seat {seat} did something unknown."

    def describe_resolution(self, state, viewer=None):
        return "Bids revealed: " + ", ".join(
            f"seat {seat} bid {bid}" for seat, bid in enumerate(state["bids"])
        ) + "."

    def timeout_action(self, state, seat):
        if state["phase"] == "bid":
            return {"type": "bid", "amount": 1}
        return {"type": "bank"}

    def is_over(self, state):
        return state["phase"] == "over"

    def result(self, state):
        scores = list(state["scores"])
        best = max(scores)
        return {
            "scores": scores,
            "breakdown": [{"points": score} for score in scores],
            "winners": [seat for seat, score in enumerate(scores) if score == best],
        }


toy_engine = ToyEngine()
