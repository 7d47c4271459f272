"""Stone Age (Hans im Glück, 2008), the complete base game for 2–4 players.

`engine` is the instance the registry serves. The rules live in `rules`, final scoring in
`scoring`, what a seat may see in `view`, time-outs and the bot in `bot`, the facts in `data`.
"""

from __future__ import annotations

from typing import Any

from ..base import Engine, IllegalAction

from . import bot, rules, scoring
from . import view as view_module


class StoneAgeEngine(Engine):
    slug = "stone_age"
    name = "Stone Age"
    min_players = 2
    max_players = 4
    rules_version = 1
    simultaneous = False
    options: list[dict[str, Any]] = []

    def new_game(self, num_players, seed, options=None):
        normalised = self.validate_options(num_players, options)
        if not isinstance(seed, str) or not seed:
            raise IllegalAction("A game needs a non-empty seed.")
        return rules.new_game(num_players, seed, normalised)

    def active_seats(self, state):
        return rules.active_seats(state)

    def legal_actions(self, state, seat):
        return rules.legal_actions(state, seat)

    def apply(self, state, seat, action):
        return rules.apply_action(state, seat, action)

    def ready_to_resolve(self, state):
        return rules.ready_to_resolve(state)

    def resolve(self, state):
        return rules.resolve(state)

    def describe_resolution(self, state, viewer=None):
        return view_module.describe_resolution(state, viewer)

    def view(self, state, seat):
        return view_module.view(state, seat)

    def describe(self, state, seat, action, viewer=None):
        return view_module.describe(state, seat, action, viewer)

    def timeout_action(self, state, seat):
        return bot.timeout_action(state, seat)

    def bot_action(self, state, seat):
        return bot.bot_action(state, seat)

    def is_over(self, state):
        return state["phase"] == "over"

    def result(self, state):
        return scoring.result(state)


engine = StoneAgeEngine()
