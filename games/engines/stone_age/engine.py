"""Stone Age (Hans im Glück, 2008), the complete base game for 2–4 players.

`engine` is the instance the registry serves. The rules live in `rules`, final scoring in
`scoring`, what a seat may see in `view`, time-outs and the bot in `bot`, the facts in `data`.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import Engine, IllegalAction
from games.engines.texts import text

from . import bot, data, orders, rules, scoring, texts
from . import view as view_module


class StoneAgeEngine(Engine):
    slug = "stone_age"
    name = "Stone Age"
    min_players = 2
    max_players = 4
    rules_version = 1
    simultaneous = False
    options: list[dict[str, Any]] = []
    standing_orders = data.ORDERS

    def action_schema(self) -> dict:
        from games.engines.stone_age.schema import ACTIONS

        return ACTIONS

    def view_schema(self) -> dict:
        from games.engines.stone_age.schema import VIEW

        return VIEW

    def new_game(self, num_players, seed, options=None):
        normalised = self.validate_options(num_players, options)
        if not isinstance(seed, str) or not seed:
            raise IllegalAction("A game needs a non-empty seed.", text("refuse_empty_seed"))
        return rules.new_game(num_players, seed, normalised)

    # The calls made at every step of a game (and of every game a search plays out) go
    # straight to the rules, with no method of this class in between.
    active_seats = staticmethod(rules.active_seats)
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply_action)
    ready_to_resolve = staticmethod(rules.ready_to_resolve)
    resolve = staticmethod(rules.resolve)

    def describe_resolution(self, state, viewer=None):
        return view_module.describe_resolution(state, viewer)

    def reveals(self, before, seat, action, after):
        # Dice (the RNG moved), a card drawn or laid out from the face-down deck, a new round,
        # or the turn passing on: each is seen by someone the moment it happens.
        return (after["rng"] != before["rng"] or len(after["deck"]) != len(before["deck"])
                or after["round"] != before["round"] or after["phase"] != before["phase"]
                or rules.ready_to_resolve(after) or rules.active_seats(after) != [seat])

    def view(self, state, seat):
        return view_module.view(state, seat)

    def describe(self, state, seat, action, viewer=None):
        return view_module.describe(state, seat, action, viewer)

    text_catalog = texts.CATALOG

    def describe_text(self, state, seat, action, viewer=None):
        return view_module.describe_text(state, seat, action, viewer)

    def resolution_text(self, state, viewer=None):
        return view_module.resolution_text(state, viewer)

    def standing_order_action(self, view, legal, orders_given):
        return orders.choose(view, legal, orders_given)

    def queue_suggestions(self, state, seat):
        return orders.queue_suggestions(state, seat)

    def timeout_action(self, state, seat):
        return bot.timeout_action(state, seat)

    def bot_action(self, state, seat):
        return bot.bot_action(state, seat)

    is_over = staticmethod(rules.is_over)

    def result(self, state):
        return scoring.result(state)


engine = StoneAgeEngine()
