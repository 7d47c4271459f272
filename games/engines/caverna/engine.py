"""Caverna: The Cave Farmers (Uwe Rosenberg, 2013) for 1-7 players.

Facts: sequential (one seat acts at a time), no hidden hands; the only secrets are the order of
future round cards and the face-down harvest markers, both drawn from the seeded RNG at set-up.
Modules: data (facts), board (home-board geometry), animals (holding solver), rules (state
machine), scoring, view (views and sentences), bot, effects (furnishing-tile hooks),
board_memo (facts of a home board kept while the board is unchanged).
"""

from __future__ import annotations

from typing import Any

from games.engines.base import Engine, IllegalAction, InvalidOptions, require_choice
from games.engines.texts import text

from . import board_memo, bot, orders, rules, scoring, texts, versions, view


class CavernaEngine(Engine):
    slug = "caverna"
    name = "Caverna"
    min_players = 1
    max_players = 7
    #: 2: furnishing-tile effects (issue 6) and one score line per bonus tile.
    #: 3: a lone animal may be converted to make room for newborns before breeding.
    #: 4: the printed components over the seed's translation (no ruby -> gold, Weaving parlor
    #: 1 per 2 sheep, 2-player Ruby mining from round 3, Small-scale drift mining and/or), last
    #: conversions for every seat, the Guest room once per game on Extension. Games created under
    #: 3 keep its rules (see versions.py).
    rules_version = versions.RULES_VERSION
    simultaneous = False
    options: list[dict[str, Any]] = []
    standing_orders = orders.ORDERS

    def action_schema(self) -> dict:
        from games.engines.caverna.schema import ACTIONS

        return ACTIONS

    def view_schema(self) -> dict:
        from games.engines.caverna.schema import VIEW

        return VIEW

    def new_game(self, num_players: int, seed: str, options: dict[str, Any] | None = None) -> dict:
        normalised = self.validate_options(num_players, options)
        return rules.new_game(num_players, seed, normalised)

    def new_game_at_version(
        self, num_players: int, seed: str, options: dict[str, Any] | None, rules_version: int
    ) -> dict:
        if rules_version > versions.RULES_VERSION:
            raise InvalidOptions(f"Caverna has no rules version {rules_version} yet.",
                                 text("cv.options_no_version", version=rules_version))
        normalised = self.validate_options(num_players, options)
        # Versions 1 and 2 have no rules of their own left: their logs were re-recorded at 3.
        version = max(rules_version, versions.LEGACY_VERSION)
        return rules.new_game(num_players, seed, normalised, version)

    def active_seats(self, state: dict) -> list[int]:
        if state["phase"] == "over" or not state["stack"]:
            return []
        return [state["stack"][-1]["seat"]]

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        return rules.legal_actions(state, seat)

    @board_memo.scoped  # the copy shares the boards: what the check learnt of them holds on
    def apply(self, state: dict, seat: int, action: dict) -> dict:
        self.require_active(state, seat)
        # Checked against the legal actions of its type only (the rest cannot match); only the
        # listed action is applied: a sent 4.0 or true never reaches the state.
        action = require_choice(action, rules.actions_like(state, seat, action))
        return rules.apply_copy(state, seat, action)

    def reveals(self, before: dict, seat: int, action: dict, after: dict) -> bool:
        # The secrets are the next round cards and the face-down harvest markers: a new round or
        # a turned marker reveals them; so does the turn passing to another player.
        return (after["round"] != before["round"] or after["revealed"] != before["revealed"]
                or after["cards"] != before["cards"] or after["rng"] != before["rng"]
                or self.active_seats(after) != [seat])

    def view(self, state: dict, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def describe(self, state: dict, seat: int, action: dict, viewer: int | None = None) -> str:
        return view.describe(state, seat, action)

    text_catalog = texts.CATALOG

    def describe_text(self, state: dict, seat: int, action: dict,
                      viewer: int | None = None) -> dict[str, Any]:
        return texts.describe_text(state, seat, action)

    def category_text(self, category: str) -> dict[str, Any]:
        return texts.row_text(category)

    def orders_view(self, state: dict, seat: int) -> dict[str, Any]:
        return view.orders_view(state, seat)

    def standing_order_action(self, view: dict, legal: list[dict], orders_given: dict
                              ) -> dict | None:
        return orders.choose(view, legal, orders_given)

    def queue_suggestions(self, state: dict, seat: int) -> list[dict[str, Any]]:
        return orders.queue_suggestions(state, seat)

    def timeout_action(self, state: dict, seat: int) -> dict:
        if seat not in self.active_seats(state):
            raise IllegalAction(f"Seat {seat} has nothing to decide now.",
                                text("refuse_nothing_to_decide", seat=seat))
        return bot.timeout_action(state, seat)

    def bot_action(self, state: dict, seat: int) -> dict:
        if seat not in self.active_seats(state):
            raise IllegalAction(f"Seat {seat} has nothing to decide now.",
                                text("refuse_nothing_to_decide", seat=seat))
        return bot.bot_action(state, seat)

    def is_over(self, state: dict) -> bool:
        return state["phase"] == "over" and not state["stack"]

    def result(self, state: dict) -> dict[str, Any]:
        return scoring.result(state)


engine = CavernaEngine()

