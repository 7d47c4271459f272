"""The 7 Wonders engine (base game, 2–7 players): set-up, simultaneous secret picks resolved
all at once, Babylon B's seventh card and Halicarnassus' build from the discard pile as
single-seat decisions, military after each Age, and final scoring. Two players play the
variant with the Free City (see free_city.py)."""

from __future__ import annotations

from functools import partial
from typing import Any

from ..base import (
    GAME_OVER,
    Engine,
    IllegalAction,
    SeededRandom,
    State,
    match_legal,
    new_rng_state,
    not_an_object,
)
from ..fastcopy import deep_copy
from ..texts import text
from . import bot, texts, view
from .data import CARDS, OPTIONS, WONDERS
from .free_city import (
    CITIES,
    FREE_CITY,
    acting_seat,
    choosing_for_free_city,
    controller,
    draw_for_controller,
    free_city_hand,
    free_city_pick_actions,
    is_two_player,
)
from .rules import (
    CARD_NAME,
    GUILDS,
    VICTORY_POINTS,
    card_actions,
    city_names,
    distinct,
    hand_actions,
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
    return list(_DECKS[(age, num_players)])


def _deck(age: int, num_players: int) -> tuple[str, ...]:
    deck = []
    for cid, card in CARDS.items():
        if card["age"] == age and card["color"] != "purple":
            deck.extend(cid for threshold in card["copies"] if threshold <= num_players)
    return tuple(deck)


#: Every Age deck before guilds, by (age, cities): the same at every set-up.
_DECKS = {(age, cities): _deck(age, cities) for age in (1, 2, 3) for cities in range(3, 8)}


class SevenWondersEngine(Engine):
    slug = "seven_wonders"
    name = "7 Wonders"
    min_players = 2
    max_players = 7
    rules_version = 1
    simultaneous = True
    options = OPTIONS
    #: No standing orders: every pick is a real choice of a card from a changing hand; the
    #: conditional-move queue covers a player who knows their next pick in advance.
    standing_orders: list[dict[str, Any]] = []

    # ----- set-up ---------------------------------------------------------------------------

    def action_schema(self) -> dict:
        from games.engines.seven_wonders.schema import ACTIONS

        return ACTIONS

    def view_schema(self) -> dict:
        from games.engines.seven_wonders.schema import VIEW

        return VIEW

    def new_game(self, num_players: int, seed: str, options: dict[str, Any] | None = None) -> State:
        options = self.validate_options(num_players, options)
        two_player = num_players == 2
        # Two players use the three-player decks and a third board, the Free City's.
        cities = CITIES if two_player else num_players
        rng = SeededRandom(seed)
        wonders = rng.shuffled(list(WONDER_IDS))[:cities]
        if options["sides"] in ("A", "B"):
            sides = [options["sides"]] * cities
        elif options["sides"] == "random":
            sides = [rng.choice(["A", "B"]) for _ in range(cities)]
        else:
            sides = [None] * num_players
            if two_player:
                # Nobody owns the Free City to choose its side: it is dealt like its board.
                sides.append(rng.choice(["A", "B"]))
        decks = {}
        for age in (1, 2, 3):
            deck = build_deck(age, cities)
            if age == 3:
                deck += rng.shuffled(list(GUILDS))[: cities + 2]
            assert len(deck) == 7 * cities, "an Age deck must hold 7 cards per city"
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
                    # The Free City's board is dealt even when the players choose theirs.
                    "wonder": wonders[seat]
                    if options["wonders"] == "random" or seat >= num_players else None,
                    "side": sides[seat],
                    "coins": 3,
                    "built": [],
                    "stage_cards": [],
                    "tokens": [],
                    "free_build_age": 0,
                }
                for seat in range(cities)
            ],
            "discard": [],
            "seventh": [],
            "pending_builds": [],
            "events": [],
            "conflicts": [],
        }
        if two_player:
            state["free_city"] = {"pile": [], "pick": None}
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
        if is_two_player(state):
            # The last seven cards are the Free City's face-down pile.
            state["free_city"] = {**state["free_city"], "pile": deck[7 * FREE_CITY :]}
            draw_for_controller(state)

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
            seats = [seat for seat, pick in enumerate(state["picks"]) if pick is None]
            if "free_city" in state and state["free_city"]["pick"] is None:  # two players
                seats = sorted({*seats, controller(state)})
            return seats
        if phase == "setup":
            return [state["setup_seat"]]
        if phase == "seventh":
            return [acting_seat(state, state["seventh"][0])]
        if phase == "discard_build":
            return [acting_seat(state, state["pending_builds"][0])]
        return []

    def _valid_seat(self, state: State, seat: Any) -> bool:
        return isinstance(seat, int) and not isinstance(seat, bool) and (
            0 <= seat < state["num_players"]
        )

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        if not (0 <= seat < state["num_players"] if type(seat) is int
                else self._valid_seat(state, seat)):
            return []
        phase = state["phase"]
        if phase == "pick":
            if "free_city" not in state:  # (3–7 players: the Free City's steps never apply)
                if None not in state["picks"]:
                    return []  # every pick is in: the turn is being revealed
                return hand_actions(state, seat)
            if self.ready_to_resolve(state):
                return []  # every pick is in: the turn is being revealed
            if choosing_for_free_city(state, seat):
                return free_city_pick_actions(state)
            # A seat that has picked may still replace its pick, so it keeps its options (the
            # Free City's controller then chooses the Free City's card again).
            return hand_actions(state, seat)
        if seat not in self.active_seats(state):
            return []
        if phase == "setup":
            return self._setup_actions(state, seat)
        if phase == "seventh":
            city = state["seventh"][0]
            if city == seat:
                return card_actions(state, seat, state["hands"][seat][0])
            # A Babylon B Free City plays the last card of its pile.
            return card_actions(state, city, state["free_city"]["pile"][0], free_city=True)
        if phase == "discard_build":
            city = state["pending_builds"][0]
            marker = {"free_city": True} if city != seat else {}
            return [{"type": "discard_build", "card": cid, **marker}
                    for cid in discard_choices(state, city)]
        return []

    # ----- acting ---------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: dict[str, Any]) -> State:
        if state["phase"] == "over":
            raise IllegalAction(GAME_OVER, text("refuse_game_over"))
        if not (0 <= seat < state["num_players"] if type(seat) is int
                else self._valid_seat(state, seat)):
            raise IllegalAction(f"There is no seat {seat!r} in this game.", text(
                "sw.refuse_no_seat", number=seat if type(seat) is int else repr(seat)))
        if not isinstance(action, dict):
            raise not_an_object()
        phase = state["phase"]
        kind = action.get("type")
        if phase == "pick":
            if kind not in PICK_TYPES:
                raise texts.refusal("sw.refuse_pick_kind")
            if "free_city" not in state:  # (3–7 players: ready_to_resolve in short)
                if None not in state["picks"]:
                    raise texts.refusal("sw.refuse_revealing")
            else:
                if self.ready_to_resolve(state):
                    raise texts.refusal("sw.refuse_revealing")
                if choosing_for_free_city(state, seat):
                    return _free_city_pick(state, action)
            cid = action.get("card")
            if not isinstance(cid, str) or cid not in state["hands"][seat]:
                raise texts.refusal("sw.refuse_not_in_hand")
            # Only the listed action is kept: a sent 1.0 or true never reaches the state. It is
            # looked for among the card's actions of its type, the only ones it can be.
            listed = match_legal(action, card_actions(state, seat, cid, only=kind),
                                 partial(_why_not, state, seat, action))
            new = dict(state)
            new["picks"] = picks = list(state["picks"])
            # card_actions builds every action (and what it holds) anew: no copy needed.
            picks[seat] = listed
            if "free_city" in state and seat == controller(state):  # two players
                # A new own card may be the one chosen for the Free City: choose that again.
                new["free_city"] = {**state["free_city"], "pick": None}
            return new
        if seat not in self.active_seats(state):
            raise IllegalAction(f"It is not seat {seat}'s turn to act.",
                                text("refuse_not_turn", who=seat))
        action = match_legal(action, self.legal_actions(state, seat))
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
            city = new["seventh"][0]
            _carry_out(new, city, action, new["events"], seventh=True)
            new["seventh"].pop(0)
            self._advance(new)
            return new
        # discard_build
        cid = action["card"]
        city = new["pending_builds"][0]
        new["discard"].remove(cid)
        player = new["players"][city]
        player["built"] = [*player["built"], cid]
        player["coins"] += immediate_coins(new["players"], city, CARDS[cid]["effect"])
        new["events"] = [{"kind": "discard_build", "seat": city, "card": cid}]
        new["pending_builds"].pop(0)
        self._advance(new)
        return new

    def ready_to_resolve(self, state: State) -> bool:
        return (
            state["phase"] == "pick"
            and None not in state["picks"]  # (a pick is a dict: never == None)
            and ("free_city" not in state or state["free_city"]["pick"] is not None)
        )

    def reveals(self, before: State, seat: int, action: dict[str, Any], after: State) -> bool:
        # A secret pick shows nothing until the last pick is in (that one starts the reveal);
        # every other step (choosing a wonder, the seventh card, building from the discard) is
        # played in the open and hands the turn on.
        return not (before["phase"] == after["phase"] == "pick"
                    and not self.ready_to_resolve(after))

    def resolve(self, state: State) -> State:
        if not self.ready_to_resolve(state):
            raise IllegalAction("Not every seat has picked a card yet.",
                                text("sw.refuse_picks_missing"))
        new = copy_state(state)
        players = new["players"]
        count = new["num_players"]
        incoming = [0] * len(players)
        gains: list[tuple[int, dict[str, Any]]] = []
        events: list[dict[str, Any]] = []
        two_player = is_two_player(new)
        if two_player:
            # The Free City's card is revealed first; it comes from its controller's hand.
            _pay_and_place(new, FREE_CITY, new["free_city"]["pick"], incoming, gains, events,
                           hand=new["hands"][controller(new)])
            new["free_city"] = {**new["free_city"], "pick": None}
        for seat in range(count):
            action = new["picks"][seat]
            _pay_and_place(new, seat, action, incoming, gains, events)
        # Coins from neighbours and immediate effects arrive after every card is placed, so
        # nothing earned this turn paid for anything this turn, and same-turn cards are counted.
        for city, coins in enumerate(incoming):
            if coins:
                players[city]["coins"] += coins
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
            if two_player and new["free_city"]["pile"]:
                if has_special(players[FREE_CITY], "play_seventh_card"):
                    new["seventh"].append(FREE_CITY)
                else:
                    new["discard"].extend(new["free_city"]["pile"])
                    new["free_city"] = {**new["free_city"], "pile": []}
                    events.append({"kind": "last_card_discarded", "seat": FREE_CITY})
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
        count = state["num_players"]
        hands = state["hands"]
        if state["turn"] == 6:
            for seat in range(count):
                if hands[seat]:
                    # Babylon's seventh card was played; anything left is discarded without
                    # coins.
                    state["discard"].extend(hands[seat])
                    hands[seat] = []
        else:
            # Age II passes to the right (seat s gets the hand of s + 1), Ages I and III to the
            # left (seat s gets the hand of s - 1). With two players both directions are the
            # other seat: the hands cross the Border.
            state["hands"] = hands[1:] + hands[:1] if state["age"] == 2 else hands[-1:] + hands[:-1]
            state["turn"] += 1
            state["phase"] = "pick"
            if is_two_player(state):
                draw_for_controller(state)
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
        count = len(players)  # every city, the Free City too
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
            players[seat]["tokens"] = [*players[seat]["tokens"], *taken]
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

    text_catalog = texts.CATALOG

    def describe_text(
        self, state: State, seat: int, action: dict[str, Any], viewer: int | None = None
    ) -> dict[str, Any]:
        return texts.describe_text(state, seat, action, viewer)

    def resolution_text(self, state: State, viewer: int | None = None) -> dict[str, Any]:
        return texts.resolution_text(state, viewer)

    # ----- time-outs and bots ---------------------------------------------------------------

    def timeout_action(self, state: State, seat: int) -> dict[str, Any]:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(f"Seat {seat} has nothing to decide now.",
                                text("refuse_nothing_to_decide", seat=seat))
        for action in legal:
            if action["type"] == "discard":
                return action
        return legal[0]

    def bot_action(self, state: State, seat: int) -> dict[str, Any]:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(f"Seat {seat} has nothing to decide now.",
                                text("refuse_nothing_to_decide", seat=seat))
        return bot.choose(state, seat, legal)

    # ----- the end --------------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def result(self, state: State) -> dict[str, Any]:
        count = state["num_players"]
        outcome = final_result(state["players"], ranked=count)
        result = {
            "scores": outcome["scores"][:count],
            "breakdown": outcome["breakdown"][:count],
            "winners": outcome["winners"],
            "copied_guilds": outcome["copied_guilds"][:count],
        }
        if is_two_player(state):
            # Scored for the record; only the two players are ranked (reference 19.6).
            result["free_city"] = {
                "score": outcome["scores"][FREE_CITY],
                "breakdown": outcome["breakdown"][FREE_CITY],
                "copied_guild": outcome["copied_guilds"][FREE_CITY],
            }
        return result


def copy_state(state: State) -> State:
    """A copy deep enough for resolve/apply to change freely: every list or dict they modify in
    place is new; what they never modify in place (card ids, past conflict records, picks, the
    RNG entry, options, a city's built cards, stages and military tokens: those are replaced
    by longer lists) is shared. Much cheaper than copy.deepcopy on the hot path."""
    new = dict(state)
    new["players"] = [{**player} for player in state["players"]]
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["picks"] = list(state["picks"])
    new["decks"] = dict(state["decks"])
    for key in ("discard", "seventh", "pending_builds", "events", "conflicts"):
        new[key] = list(state[key])
    if "free_city" in state:
        new["free_city"] = {**state["free_city"], "pile": list(state["free_city"]["pile"])}
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
    hand: list[str] | None = None,
) -> None:
    """City `seat` carries out `action` with a card taken from `hand` (its own hand unless
    given: the Free City's card comes from its controller's hand or its pile). Coins it earns
    are added to `incoming` (from trade and discarding) or `gains` (an effect's, counted once
    every card is placed). Its built cards and stages are replaced by longer lists, never
    changed in place (see copy_state)."""
    players = state["players"]
    count = len(players)
    player = players[seat]
    cid = action["card"]
    (state["hands"][seat] if hand is None else hand).remove(cid)
    kind = action["type"]
    event: dict[str, Any] = {"kind": kind, "seat": seat}
    paid = 0
    pay = action.get("pay")
    if pay:
        to_left = pay.get("left", 0)
        to_right = pay.get("right", 0)
        incoming[(seat + 1) % count] += to_left  # (left_of)
        incoming[(seat - 1) % count] += to_right  # (right_of)
        paid = to_left + to_right
        if to_left or to_right:
            event["pay"] = dict(pay)
    if kind == "build":
        free = action.get("free")
        player["coins"] -= (0 if free else CARD_BANK[cid]) + paid
        player["built"] = [*player["built"], cid]
        if free == "olympia":
            player["free_build_age"] = state["age"]
        gain = CARD_GAIN[cid]
        if gain is not None:
            gains.append((seat, gain))
        event["card"] = cid
        if free:
            event["free"] = free
    elif kind == "wonder":
        stage_index = len(player["stage_cards"])
        player["coins"] -= paid
        player["stage_cards"] = [*player["stage_cards"], cid]
        effect = stage_list(player["wonder"], player["side"])[stage_index]["effect"]
        gains.append((seat, effect))
        if effect.get("special") == "build_from_discard":
            state["pending_builds"].append(seat)
        event["stage"] = stage_index + 1
    else:
        state["discard"].append(cid)
        incoming[seat] += DISCARD_COINS
    events.append(event)


#: Coins a card costs at the bank; its effect if that brings coins when built (see
#: immediate_coins), else None; the coins a discarded card brings.
CARD_BANK = {cid: card["coins"] for cid, card in CARDS.items()}
CARD_GAIN = {cid: card["effect"] if "coins" in card["effect"] or "coins_per" in card["effect"]
             else None for cid, card in CARDS.items()}
DISCARD_COINS = 3


def _carry_out(
    state: State, seat: int, action: dict[str, Any], events: list[dict[str, Any]], *,
    seventh: bool = False,
) -> None:
    """One city's action on its own (Babylon's seventh card): pay, place, collect."""
    incoming = [0] * len(state["players"])
    gains: list[tuple[int, dict[str, Any]]] = []
    hand = state["free_city"]["pile"] if seat >= state["num_players"] else None
    _pay_and_place(state, seat, action, incoming, gains, events, hand=hand)
    if seventh:
        events[-1]["seventh"] = True
    for other, coins in enumerate(incoming):
        state["players"][other]["coins"] += coins
    for who, effect in gains:
        state["players"][who]["coins"] += immediate_coins(state["players"], who, effect)


def _free_city_pick(state: State, action: dict[str, Any]) -> State:
    """The controller's second pick of the turn: the Free City's card, from its hand less the
    card it chose for itself."""
    cid = action.get("card")
    if action.get("free_city") is not True:
        raise texts.refusal("sw.refuse_free_city_mark")
    if not isinstance(cid, str) or cid not in free_city_hand(state):
        raise texts.refusal("sw.refuse_free_city_hand")
    listed = match_legal(action, free_city_pick_actions(state),
                         partial(_why_not_free_city, state, action))
    new = dict(state)
    new["free_city"] = {**state["free_city"], "pick": deep_copy(listed)}
    return new


def _why_not_free_city(state: State, action: dict[str, Any]) -> IllegalAction:
    cid = action["card"]
    legal = card_actions(state, FREE_CITY, cid, free_city=True)
    if any(a.get("free") == "chain" for a in legal):
        return texts.refusal("sw.refuse_free_city_chain", card=cid)
    if action.get("type") == "discard" and not any(a["type"] == "discard" for a in legal):
        return texts.refusal("sw.refuse_free_city_discard", card=cid)
    return texts.refusal("sw.refuse_free_city_use", card=cid)


def _why_not(state: State, seat: int, action: dict[str, Any]) -> IllegalAction:
    cid = action["card"]
    player = state["players"][seat]
    kind = action["type"]
    if kind == "build" and CARD_NAME.get(cid, cid) in city_names(player):
        return texts.refusal("sw.refuse_already_built", card=cid)
    if kind == "wonder" and len(player["stage_cards"]) >= len(
        stage_list(player["wonder"], player["side"])
    ):
        return texts.refusal("sw.refuse_wonder_complete")
    if action.get("free") == "olympia":
        return texts.refusal("sw.refuse_olympia")
    return texts.refusal("sw.refuse_build" if kind == "build" else "sw.refuse_use", card=cid)


engine = SevenWondersEngine()
