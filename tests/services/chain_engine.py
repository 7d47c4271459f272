"""A small sequential game for the tests of steps that need nobody. Never registered outside
the tests that use it.

Three spots (a, b, c) and three seats; each round the seats take a spot in turn, so the last
seat's choice is forced (one spot left). Taking b asks the seat to tidy up, left or right, which
leads to the same state either way; taking c asks it to pay, with a coin or a point, a routine
decision that the standing order "payment" may answer. Two rounds, then the game is over.
"""

from __future__ import annotations

import copy

from games.engines.base import Engine, IllegalAction, require_choice

SPOTS = ("a", "b", "c")


class ChainEngine(Engine):
    slug = "chain"
    name = "Chain"
    min_players = 3
    max_players = 3
    simultaneous = False
    options: list = []
    standing_orders = [
        {"name": "payment", "label": "Paying for spot c", "help": "", "default": "coin",
         "choices": [{"value": "coin", "label": "With a coin"},
                     {"value": "points", "label": "With a point"},
                     {"value": "ask", "label": "Ask me"}]},
    ]

    def new_game(self, num_players, seed, options=None):
        self.validate_options(num_players, options)
        return {"n": num_players, "round": 1, "turn": 0, "step": "choose", "taken": {},
                "coins": [3] * num_players, "points": [0] * num_players, "over": False}

    def active_seats(self, state):
        return [] if state["over"] else [state["turn"]]

    def legal_actions(self, state, seat):
        if state["over"] or seat != state["turn"]:
            return []
        if state["step"] == "choose":
            return [{"type": "take", "spot": s} for s in SPOTS if s not in state["taken"]]
        if state["step"] == "tidy":
            return [{"type": "tidy", "hand": "left"}, {"type": "tidy", "hand": "right"}]
        return [{"type": "pay", "with": "coin"}, {"type": "pay", "with": "points"}]

    def apply(self, state, seat, action):
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("Not your turn.")
        action = require_choice(action, legal)
        new = copy.deepcopy(state)
        if action["type"] == "take":
            new["taken"][action["spot"]] = seat
            new["points"][seat] += 1
            if action["spot"] == "b":
                new["step"] = "tidy"
                return new
            if action["spot"] == "c":
                new["step"] = "pay"
                return new
        elif action["type"] == "pay":
            if action["with"] == "coin":
                new["coins"][seat] -= 1
            else:
                new["points"][seat] -= 1
        self._next(new)
        return new

    def _next(self, state):
        state["step"] = "choose"
        if len(state["taken"]) < len(SPOTS):
            state["turn"] = (state["turn"] + 1) % state["n"]
            return
        state["taken"] = {}
        state["turn"] = 0
        state["round"] += 1
        if state["round"] > 2:
            state["over"] = True

    def view(self, state, seat):
        return {"turn": state["turn"], "step": state["step"], "viewer": seat,
                "taken": dict(state["taken"]), "round": state["round"],
                "decision": None if state["over"] else {"seat": state["turn"],
                                                         "kind": state["step"]}}

    def describe(self, state, seat, action, viewer=None):
        detail = action.get("spot") or action.get("hand") or action.get("with")
        return f"Seat {seat}: {action['type']} {detail}"

    def standing_order_action(self, view, legal, orders):
        decision = view["decision"]
        if decision is None or decision["seat"] != view["viewer"] or decision["kind"] != "pay":
            return None
        wanted = orders.get("payment")
        return next((a for a in legal if a["with"] == wanted), None)

    def timeout_action(self, state, seat):
        return self.legal_actions(state, seat)[0]

    def is_over(self, state):
        return state["over"]

    def result(self, state):
        scores = [p + c for p, c in zip(state["points"], state["coins"], strict=True)]
        best = max(scores)
        return {"scores": scores, "breakdown": [{"total": s} for s in scores],
                "winners": [i for i, s in enumerate(scores) if s == best]}


chain_engine = ChainEngine()
