"""The 7 Wonders engine (base game, 3–7 players): set-up, simultaneous secret picks resolved
all at once, Babylon B's seventh card and Halicarnassus' build from the discard pile as
single-seat decisions, military after each Age, and final scoring."""

from __future__ import annotations

import copy
from typing import Any

from ..base import Engine, IllegalAction, SeededRandom, State, new_rng_state
from . import bot, view
from .data import CARDS, WONDERS
from .rules import (
    CARD_NAME,
    GUILDS,
    VICTORY_POINTS,
    card_actions,
    city_names,
    distinct,
    has_special,
    immediate_coins,
    left_of,
    right_of,
    shields,
    stage_list,
)
from .scoring import final_result

WONDER_IDS = tuple(WONDERS)
PICK_TYPES = ("build", "wonder", "discard")


def build_deck(age: int, num_players: int) -> list[str]:
    """The Age deck for `num_players` before guilds: one entry per physical copy in play."""
    deck = []
    for cid, card in CARDS.items():
        if card["age"] == age and card["color"] != "purple":
            deck.extend(cid for threshold in card["copies"] if threshold <= num_players)
    return deck


class SevenWondersEngine(Engine):
    slug = "seven_wonders"
    name = "7 Wonders"
    min_players = 3
    max_players = 7
    rules_version = 1
    simultaneous = True
    options = [
        {
            "name": "wonders",
            "kind": "choice",
            "default": "random",
            "choices": ["random", "chosen"],
            "label": "Wonder boards",
            "help": "Dealt at random, or chosen by the players one after another in seat order.",
        },
        {
            "name": "sides",
            "kind": "choice",
            "default": "A",
            "choices": ["A", "B", "random", "chosen"],
            "label": "Board side",
            "help": "Side A for everyone (recommended for first games), B for everyone, "
            "random per player, or chosen by each player.",
        },
    ]

    # ----- set-up ---------------------------------------------------------------------------

    def new_game(self, num_players: int, seed: str, options: dict[str, Any] | None = None) -> State:
        options = self.validate_options(num_players, options)
        rng = SeededRandom(seed)
        wonders = rng.shuffled(list(WONDER_IDS))[:num_players]
        if options["sides"] in ("A", "B"):
            sides = [options["sides"]] * num_players
        elif options["sides"] == "random":
            sides = [rng.choice(["A", "B"]) for _ in range(num_players)]
        else:
            sides = [None] * num_players
        decks = {}
        for age in (1, 2, 3):
            deck = build_deck(age, num_players)
            if age == 3:
                deck += rng.shuffled(list(GUILDS))[: num_players + 2]
            assert len(deck) == 7 * num_players, "an Age deck must hold 7 cards per player"
            decks[str(age)] = rng.shuffled(deck)
        state: State = {
            "rng": new_rng_state(seed),
            "num_players": num_players,
            "options": options,
            "phase": "pick",
            "setup_seat": None,
            "age": 1,
            "turn": 1,
            "decks": decks,
            "hands": [[] for _ in range(num_players)],
            "picks": [None] * num_players,
            "players": [
                {
                    "wonder": wonders[seat] if options["wonders"] == "random" else None,
                    "side": sides[seat],
                    "coins": 3,
                    "built": [],
                    "stage_cards": [],
                    "tokens": [],
                    "free_build_age": 0,
                }
                for seat in range(num_players)
            ],
            "discard": [],
            "seventh": [],
            "pending_builds": [],
            "events": [],
            "conflicts": [],
        }
        rng.save(state)
        if options["wonders"] == "chosen" or options["sides"] == "chosen":
            state["phase"] = "setup"
            state["setup_seat"] = 0
        else:
            self._deal(state)
        return state

    def _deal(self, state: State) -> None:
        deck = state["decks"].pop(str(state["age"]))
        state["hands"] = [deck[7 * seat : 7 * seat + 7] for seat in range(state["num_players"])]

    def _setup_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        player = state["players"][seat]
        if player["wonder"] is not None:
            wonders = [player["wonder"]]
        else:
            taken = {p["wonder"] for p in state["players"]}
            wonders = [wid for wid in WONDER_IDS if wid not in taken]
        sides = [player["side"]] if player["side"] is not None else ["A", "B"]
        return [
            {"type": "choose_wonder", "wonder": wid, "side": side}
            for wid in wonders
            for side in sides
        ]

    # ----- whose turn -----------------------------------------------------------------------

    def active_seats(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "pick":
            return [seat for seat, pick in enumerate(state["picks"]) if pick is None]
        if phase == "setup":
            return [state["setup_seat"]]
        if phase == "seventh":
            return [state["seventh"][0]]
        if phase == "discard_build":
            return [state["pending_builds"][0]]
        return []

    def _valid_seat(self, state: State, seat: Any) -> bool:
        return isinstance(seat, int) and not isinstance(seat, bool) and (
            0 <= seat < state["num_players"]
        )

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if not self._valid_seat(state, seat):
            return []
        phase = state["phase"]
        if phase == "pick":
            if self.ready_to_resolve(state):
                return []  # every pick is in: the turn is being revealed
            # A seat that has picked may still replace its pick, so it keeps its options.
            actions = []
            for cid in distinct(state["hands"][seat]):
                actions.extend(card_actions(state, seat, cid))
            return actions
        if seat not in self.active_seats(state):
            return []
        if phase == "setup":
            return self._setup_actions(state, seat)
        if phase == "seventh":
            return card_actions(state, seat, state["hands"][seat][0])
        if phase == "discard_build":
            return [{"type": "discard_build", "card": cid} for cid in discard_choices(state, seat)]
        return []

    # ----- acting ---------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: dict[str, Any]) -> State:
        if state["phase"] == "over":
            raise IllegalAction("The game is over.")
        if not self._valid_seat(state, seat):
            raise IllegalAction(f"There is no seat {seat!r} in this game.")
        if not isinstance(action, dict):
            raise IllegalAction("An action must be a JSON object.")
        phase = state["phase"]
        kind = action.get("type")
        if phase == "pick":
            if kind not in PICK_TYPES:
                raise IllegalAction("Pick a card from your hand: build it, use it for a wonder "
                                    "stage, or discard it.")
            if self.ready_to_resolve(state):
                raise IllegalAction("Every pick is in; the turn is being revealed.")
            cid = action.get("card")
            if not isinstance(cid, str) or cid not in state["hands"][seat]:
                raise IllegalAction("That card is not in your hand.")
            if action not in card_actions(state, seat, cid):
                raise IllegalAction(_why_not(state, seat, action))
            new = dict(state)
            new["picks"] = list(state["picks"])
            new["picks"][seat] = copy.deepcopy(action)
            return new
        if seat not in self.active_seats(state):
            raise IllegalAction(f"It is not seat {seat}'s turn to act.")
        legal = self.legal_actions(state, seat)
        if action not in legal:
            raise IllegalAction("That action is not one of the legal actions now.")
        new = copy_state(state)
        if phase == "setup":
            player = new["players"][seat]
            player["wonder"] = action["wonder"]
            player["side"] = action["side"]
            new["events"] = [{"kind": "wonder_chosen", "seat": seat, "wonder": action["wonder"],
                              "side": action["side"]}]
            if seat + 1 < new["num_players"]:
                new["setup_seat"] = seat + 1
            else:
                new["setup_seat"] = None
                new["phase"] = "pick"
                self._deal(new)
            return new
        if phase == "seventh":
            new["events"] = []
            _carry_out(new, seat, action, new["events"], seventh=True)
            new["seventh"].pop(0)
            self._advance(new)
            return new
        # discard_build
        cid = action["card"]
        new["discard"].remove(cid)
        player = new["players"][seat]
        player["built"].append(cid)
        player["coins"] += immediate_coins(new["players"], seat, CARDS[cid]["effect"])
        new["events"] = [{"kind": "discard_build", "seat": seat, "card": cid}]
        new["pending_builds"].pop(0)
        self._advance(new)
        return new

    def ready_to_resolve(self, state: State) -> bool:
        return state["phase"] == "pick" and all(pick is not None for pick in state["picks"])

    def resolve(self, state: State) -> State:
        if not self.ready_to_resolve(state):
            raise IllegalAction("Not every seat has picked a card yet.")
        new = copy_state(state)
        players = new["players"]
        count = new["num_players"]
        incoming = [0] * count
        gains: list[tuple[int, dict[str, Any]]] = []
        events: list[dict[str, Any]] = []
        for seat in range(count):
            action = new["picks"][seat]
            _pay_and_place(new, seat, action, incoming, gains, events)
        # Coins from neighbours and immediate effects arrive after every card is placed, so
        # nothing earned this turn paid for anything this turn, and same-turn cards are counted.
        for seat in range(count):
            players[seat]["coins"] += incoming[seat]
        for seat, effect in gains:
            players[seat]["coins"] += immediate_coins(players, seat, effect)
        new["picks"] = [None] * count
        if new["turn"] == 6:
            for seat in range(count):
                hand = new["hands"][seat]
                if hand and has_special(players[seat], "play_seventh_card"):
                    new["seventh"].append(seat)
                elif hand:
                    new["discard"].extend(hand)
                    new["hands"][seat] = []
                    events.append({"kind": "last_card_discarded", "seat": seat})
        new["events"] = events
        self._advance(new)
        return new

    def _advance(self, state: State) -> None:
        """Runs the end of the turn up to the next decision: Babylon's seventh card, then
        Halicarnassus' build from the discard pile, then passing or the end of the Age."""
        if state["seventh"]:
            state["phase"] = "seventh"
            return
        while state["pending_builds"]:
            seat = state["pending_builds"][0]
            if discard_choices(state, seat):
                state["phase"] = "discard_build"
                return
            state["pending_builds"].pop(0)
            state["events"].append({"kind": "discard_build_wasted", "seat": seat})
        for seat in range(state["num_players"]):
            if state["turn"] == 6 and state["hands"][seat]:
                # Babylon's seventh card was played; anything left is discarded without coins.
                state["discard"].extend(state["hands"][seat])
                state["hands"][seat] = []
        count = state["num_players"]
        if state["turn"] < 6:
            hands = state["hands"]
            passed: list[list[str]] = [[] for _ in range(count)]
            for seat in range(count):
                target = right_of(seat, count) if state["age"] == 2 else left_of(seat, count)
                passed[target] = hands[seat]
            state["hands"] = passed
            state["turn"] += 1
            state["phase"] = "pick"
            return
        self._military(state)
        if state["age"] == 3:
            state["phase"] = "over"
            state["hands"] = [[] for _ in range(count)]
            return
        state["age"] += 1
        state["turn"] = 1
        state["phase"] = "pick"
        self._deal(state)

    def _military(self, state: State) -> None:
        players = state["players"]
        count = state["num_players"]
        strength = [shields(player) for player in players]
        victory = VICTORY_POINTS[state["age"]]
        record = {"age": state["age"], "shields": strength, "tokens": []}
        for seat in range(count):
            taken = []
            for other in (left_of(seat, count), right_of(seat, count)):
                if strength[seat] > strength[other]:
                    taken.append(victory)
                elif strength[seat] < strength[other]:
                    taken.append(-1)
            players[seat]["tokens"].extend(taken)
            record["tokens"].append(taken)
        state["conflicts"].append(record)

    # ----- what people see ------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.build_view(self, state, seat)

    def describe(
        self, state: State, seat: int, action: dict[str, Any], viewer: int | None = None
    ) -> str:
        return view.describe_action(state, seat, action, viewer)

    def describe_resolution(self, state: State, viewer: int | None = None) -> str:
        return view.describe_resolution(state, viewer)

    # ----- time-outs and bots ---------------------------------------------------------------

    def timeout_action(self, state: State, seat: int) -> dict[str, Any]:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(f"Seat {seat} has nothing to do now.")
        for action in legal:
            if action["type"] == "discard":
                return action
        return legal[0]

    def bot_action(self, state: State, seat: int) -> dict[str, Any]:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(f"Seat {seat} has nothing to do now.")
        return bot.choose(state, seat, legal)

    # ----- the end --------------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def result(self, state: State) -> dict[str, Any]:
        outcome = final_result(state["players"])
        return {
            "scores": outcome["scores"],
            "breakdown": outcome["breakdown"],
            "winners": outcome["winners"],
            "copied_guilds": outcome["copied_guilds"],
        }


def copy_state(state: State) -> State:
    """A copy deep enough for resolve/apply to change freely: every list or dict they modify is
    new; what they never modify in place (card ids, past conflict records, picks, the RNG
    entry, options) is shared. Much cheaper than copy.deepcopy on the hot path."""
    new = dict(state)
    new["players"] = [
        {**player, "built": list(player["built"]), "stage_cards": list(player["stage_cards"]),
         "tokens": list(player["tokens"])}
        for player in state["players"]
    ]
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["picks"] = list(state["picks"])
    new["decks"] = dict(state["decks"])
    for key in ("discard", "seventh", "pending_builds", "events", "conflicts"):
        new[key] = list(state[key])
    return new


def discard_choices(state: State, seat: int) -> list[str]:
    """Discarded cards Halicarnassus may build: any whose name the city does not hold yet."""
    names = city_names(state["players"][seat])
    return sorted(cid for cid in distinct(state["discard"]) if CARD_NAME[cid] not in names)


def _pay_and_place(
    state: State,
    seat: int,
    action: dict[str, Any],
    incoming: list[int],
    gains: list[tuple[int, dict[str, Any]]],
    events: list[dict[str, Any]],
) -> None:
    players = state["players"]
    count = state["num_players"]
    player = players[seat]
    cid = action["card"]
    state["hands"][seat].remove(cid)
    pay = action.get("pay", {})
    to_left = pay.get("left", 0)
    to_right = pay.get("right", 0)
    incoming[left_of(seat, count)] += to_left
    incoming[right_of(seat, count)] += to_right
    event: dict[str, Any] = {"kind": action["type"], "seat": seat}
    if to_left or to_right:
        event["pay"] = dict(pay)
    if action["type"] == "build":
        bank = 0 if action.get("free") else CARDS[cid]["coins"]
        player["coins"] -= bank + to_left + to_right
        player["built"].append(cid)
        if action.get("free") == "olympia":
            player["free_build_age"] = state["age"]
        gains.append((seat, CARDS[cid]["effect"]))
        event["card"] = cid
        if action.get("free"):
            event["free"] = action["free"]
    elif action["type"] == "wonder":
        stage_index = len(player["stage_cards"])
        player["coins"] -= to_left + to_right
        player["stage_cards"].append(cid)
        effect = stage_list(player["wonder"], player["side"])[stage_index]["effect"]
        gains.append((seat, effect))
        if effect.get("special") == "build_from_discard":
            state["pending_builds"].append(seat)
        event["stage"] = stage_index + 1
    else:
        state["discard"].append(cid)
        gains.append((seat, {"coins": 3}))
    events.append(event)


def _carry_out(
    state: State, seat: int, action: dict[str, Any], events: list[dict[str, Any]], *,
    seventh: bool = False,
) -> None:
    """One seat's action on its own (Babylon's seventh card): pay, place, collect."""
    incoming = [0] * state["num_players"]
    gains: list[tuple[int, dict[str, Any]]] = []
    _pay_and_place(state, seat, action, incoming, gains, events)
    if seventh:
        events[-1]["seventh"] = True
    for other, coins in enumerate(incoming):
        state["players"][other]["coins"] += coins
    for who, effect in gains:
        state["players"][who]["coins"] += immediate_coins(state["players"], who, effect)


def _why_not(state: State, seat: int, action: dict[str, Any]) -> str:
    cid = action["card"]
    name = CARD_NAME.get(cid, cid)
    player = state["players"][seat]
    kind = action["type"]
    if kind == "build" and name in city_names(player):
        return f"Your city already has {name}; no city may hold two identical buildings."
    if kind == "wonder" and len(player["stage_cards"]) >= len(
        stage_list(player["wonder"], player["side"])
    ):
        return "Your wonder is complete."
    if action.get("free") == "olympia":
        return "Olympia's free build is not available for that card now."
    return (
        f"That is not a way to {'build' if kind == 'build' else 'use'} {name} now: choose one of "
        "the listed payments (you may buy only what your city lacks, only from what your "
        "neighbours' brown and grey cards and boards produce, with coins you hold now)."
    )
