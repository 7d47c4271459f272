"""Caverna: The Cave Farmers (Uwe Rosenberg, 2013) for 1-7 players.

Facts: sequential (one seat acts at a time), no hidden hands; the only secrets are the order of
future round cards and the face-down harvest markers, both drawn from the seeded RNG at set-up.
Modules: data (facts), board (home-board geometry), animals (holding solver), rules (state
machine), scoring, view (views and sentences), bot, effects (furnishing-tile hooks).
"""

from __future__ import annotations

from typing import Any

from ..base import Engine, IllegalAction, require_choice

from . import bot, rules, scoring, view


class CavernaEngine(Engine):
    slug = "caverna"
    name = "Caverna"
    min_players = 1
    max_players = 7
    #: 2: furnishing-tile effects (issue 6) and one score line per bonus tile.
    #: 3: a lone animal may be converted to make room for newborns before breeding.
    rules_version = 3
    simultaneous = False
    options: list[dict[str, Any]] = []

    def new_game(self, num_players: int, seed: str, options: dict[str, Any] | None = None) -> dict:
        normalised = self.validate_options(num_players, options)
        return rules.new_game(num_players, seed, normalised)

    def active_seats(self, state: dict) -> list[int]:
        if state["phase"] == "over" or not state["stack"]:
            return []
        return [state["stack"][-1]["seat"]]

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        return rules.legal_actions(state, seat)

    def apply(self, state: dict, seat: int, action: dict) -> dict:
        self.require_active(state, seat)
        require_choice(action, rules.legal_actions(state, seat))
        new = rules.fast_copy(state)
        rules.apply_action(new, seat, action)
        rules.run(new, seat)
        return new

    def view(self, state: dict, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def describe(self, state: dict, seat: int, action: dict, viewer: int | None = None) -> str:
        return view.describe(state, seat, action)

    def timeout_action(self, state: dict, seat: int) -> dict:
        if seat not in self.active_seats(state):
            raise IllegalAction(f"Seat {seat} has nothing to decide.")
        return bot.timeout_action(state, seat)

    def bot_action(self, state: dict, seat: int) -> dict:
        if seat not in self.active_seats(state):
            raise IllegalAction(f"Seat {seat} has nothing to decide.")
        return bot.bot_action(state, seat)

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over" and not state["stack"]

    def result(self, state: dict) -> dict[str, Any]:
        return scoring.result(state)


engine = CavernaEngine()

__all__ = ["CavernaEngine", "engine"]
