"""The engine protocol every game implements, its errors, and the seeded RNG.

Engines are pure: stdlib only, no Django, no I/O, no clock, no global random. State is a plain
JSON-serialisable dict; every function returns a new value and leaves its input untouched.
"""

from __future__ import annotations

import copy
import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from games.engines.texts import Text, text

State = dict[str, Any]
Action = dict[str, Any]


class EngineError(Exception):
    """Base class of every error an engine raises on purpose."""


class IllegalAction(EngineError):
    """The action is not legal for that seat now. The message says why, in English words a player
    reads (and the logs keep); `text`, when the engine gives one, is the same reason as a text of
    its catalog (games.engines.texts), which the service renders in the player's language."""

    def __init__(self, message: str, text: Text | None = None) -> None:
        super().__init__(message)
        self.text = text


class InvalidOptions(EngineError):
    """The game options, the player count or standing orders are not acceptable for this
    engine. As with IllegalAction: the message in English words, and `text`, the same reason
    as a text of the engine's catalog, which the service renders in the requester's language."""

    def __init__(self, message: str, text: Text | None = None) -> None:
        super().__init__(message)
        self.text = text


class SeededRandom:
    """Counter-based RNG: draw n is SHA-256(seed ‖ ":" ‖ n), reduced by rejection sampling.

    Unlike `random.Random`, its sequence is fixed by this code alone, so a game stored years ago
    replays identically on any Python version. The counter lives in the game state (`state["rng"]`)
    so that draws are part of the replayable history; the seed never leaves the server in a view.
    """

    _BITS = 64
    _SPACE = 1 << _BITS

    def __init__(self, seed: str, counter: int = 0) -> None:
        self.seed = seed
        self.counter = counter

    @classmethod
    def from_state(cls, state: State) -> SeededRandom:
        rng = state["rng"]
        return cls(rng["seed"], rng["counter"])

    def save(self, state: State) -> None:
        """Write the counter back into a state the caller owns (a copy, never the input)."""
        state["rng"] = {"seed": self.seed, "counter": self.counter}

    def _next64(self) -> int:
        digest = hashlib.sha256(f"{self.seed}:{self.counter}".encode()).digest()
        self.counter += 1
        return int.from_bytes(digest[:8], "big")

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = self._SPACE - (self._SPACE % n)
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included (a die is randint(1, 6))."""
        return low + self.randbelow(high - low + 1)

    def choice(self, items: list[Any]) -> Any:
        return items[self.randbelow(len(items))]

    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates in place: the draws of randbelow, worked out inline (a new game shuffles
        whole decks, and two method calls a draw cost nearly as much as its hash)."""
        sha256 = hashlib.sha256
        prefix = f"{self.seed}:"
        counter = self.counter
        space = self._SPACE
        for i in range(len(items) - 1, 0, -1):
            bound = i + 1
            limit = space - space % bound
            while True:
                value = int.from_bytes(sha256(f"{prefix}{counter}".encode()).digest()[:8], "big")
                counter += 1
                if value < limit:
                    break
            j = value % bound
            items[i], items[j] = items[j], items[i]
        self.counter = counter

    def shuffled(self, items: list[Any]) -> list[Any]:
        result = list(items)
        self.shuffle(result)
        return result


def new_rng_state(seed: str) -> dict[str, Any]:
    """The `state["rng"]` entry of a new game."""
    return {"seed": seed, "counter": 0}


class Engine(ABC):
    """One game's rules. Subclasses state their facts as class attributes and implement the rest.

    | attribute       | meaning                                                        |
    | slug            | registry key, stored on each game ("stone_age")                |
    | name            | shown to people ("Stone Age")                                  |
    | min_players     | smallest seat count                                            |
    | max_players     | largest seat count                                             |
    | rules_version   | bumped whenever a rules fix changes what a stored log means     |
    | options         | list of option descriptions, see `OPTION_KINDS`                |
    | simultaneous    | whether several seats may be active at once                    |
    """

    slug: str = ""
    name: str = ""
    min_players: int = 1
    max_players: int = 1
    rules_version: int = 1
    simultaneous: bool = False
    #: Each option: {"name", "kind": "choice"|"bool"|"int", "default", "label", "help",
    #: and "choices": [values] (with "choice_labels": {value: label}) for choice, "min"/"max"
    #: for int}.
    options: list[dict[str, Any]] = []
    #: Routine decisions a player may pre-answer (standing orders), each {"name", "label",
    #: "help", "default", "choices": [{"value", "label"}]}; "ask" is always one of the values.
    #: An engine with none declares none.
    standing_orders: list[dict[str, Any]] = []

    # ----- set-up -----------------------------------------------------------------------------

    @abstractmethod
    def new_game(self, num_players: int, seed: str, options: dict[str, Any] | None = None) -> State:
        """A new game; every shuffle comes from `seed`. Raises InvalidOptions."""

    def new_game_at_version(
        self, num_players: int, seed: str, options: dict[str, Any] | None, rules_version: int
    ) -> State:
        """A new game under the rules of `rules_version` (the version a stored game was created
        with), so that its log replays by the rules it was played by. Engines that keep older
        versions playable override this; by default there are only the current rules."""
        return self.new_game(num_players, seed, options)

    # ----- whose turn -------------------------------------------------------------------------

    @abstractmethod
    def active_seats(self, state: State) -> list[int]:
        """Seats that must act now: several at once during simultaneous picks, none when over."""

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every legal action for `seat` at this decision point ([] if it is not to act)."""

    @abstractmethod
    def apply(self, state: State, seat: int, action: Action) -> State:
        """The state after `seat` takes `action`; raises IllegalAction and changes nothing."""

    def ready_to_resolve(self, state: State) -> bool:
        """True when a system step without a player decision is due (all secret picks are in)."""
        return False

    def resolve(self, state: State) -> State:
        """Run the due system step. Raises IllegalAction when nothing is due."""
        raise IllegalAction("Nothing is waiting to be resolved.", text("refuse_nothing_to_resolve"))

    def reveals(self, before: State, seat: int, action: Action, after: State) -> bool:
        """Whether `seat` taking `action` in `before` (giving `after`) revealed information that
        taking it back cannot hide again: a die rolled, a card drawn or turned up, or the turn
        passed to another player (who then saw the move). A player may undo their own moves back
        to the start of their turn, never across such a step. Engines that do not say: every
        step reveals, so nothing can be undone."""
        return True

    # ----- what people see --------------------------------------------------------------------

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may see. Never the seed, nor others' secrets."""

    @abstractmethod
    def describe(
        self, state: State, seat: int, action: Action, viewer: int | None = None
    ) -> str:
        """A short sentence for `action` by `seat` in `state` (the state before it), as `viewer`
        may see it: a hidden pick reads "Seat 3 chose a card" to everyone but seat 3."""

    def describe_resolution(self, state: State, viewer: int | None = None) -> str:
        """A sentence for the system step that `resolve` would run on `state`."""
        return "The turn was resolved."

    #: The engine's message catalog (games.engines.texts.Catalog): the keys its texts use and
    #: how their parameters read. Engines without one describe in English only.
    text_catalog: Any = None

    def describe_text(
        self, state: State, seat: int, action: Action, viewer: int | None = None
    ) -> dict[str, Any]:
        """`describe` as a message key with parameters (games.engines.texts), which the
        presentation layer renders in the viewer's language; rendered in English it is exactly
        `describe`. By default the English sentence itself."""
        return text("literal", text=self.describe(state, seat, action, viewer))

    def resolution_text(self, state: State, viewer: int | None = None) -> dict[str, Any]:
        """`describe_resolution` as a message key with parameters."""
        return text("literal", text=self.describe_resolution(state, viewer))

    def category_text(self, category: str) -> dict[str, Any]:
        """The label of a row of the score breakdown (`result()["breakdown"]`)."""
        if self.text_catalog is not None and category in self.text_catalog.names.get(
                "category", {}):
            return text("category", category=category)
        return text("literal", text=category)

    # ----- time-outs and bots -----------------------------------------------------------------

    @abstractmethod
    def timeout_action(self, state: State, seat: int) -> Action:
        """A legal, conservative default for a seat whose deadline passed."""

    def bot_action(self, state: State, seat: int) -> Action:
        """The move a bot makes for `seat`; deterministic for a given state."""
        return self.timeout_action(state, seat)

    def orders_view(self, state: State, seat: int) -> dict[str, Any]:
        """What `standing_order_action` is given: `view(state, seat)`, or a part of it that is
        cheaper to build (never anything the view would not show the seat)."""
        return self.view(state, seat)

    def standing_order_action(
        self, view: dict[str, Any], legal: list[Action], orders: dict[str, Any]
    ) -> Action | None:
        """The action a seat's standing `orders` play for the decision in `view` (the seat's own
        view, so no hidden information), one of `legal`; None when the orders leave it to the
        player."""
        return None

    def queue_suggestions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """For a seat that is waiting: the actions its next placement could be were it to act
        now, each {"action", "label"} (and "text", the label as a text, where the engine has
        one), from what the seat may see, for the page's queue form
        (a conditional move is still checked against the legal actions when its time comes).
        [] when the engine offers none."""
        return []

    # ----- the end ----------------------------------------------------------------------------

    def resignation_ends_game(self, num_players: int, players_staying: int) -> bool:
        """Whether a resignation ends the game, `players_staying` people still playing (bots
        aside). A race for points stays a race while two people run it: the resigned seat is
        played on by the bot. With one person left the game ends and they win (the position
        is scored with `result` as it stands, for the record)."""
        return players_staying < 2

    @abstractmethod
    def is_over(self, state: State) -> bool: ...

    @abstractmethod
    def result(self, state: State) -> dict[str, Any]:
        """{"scores": [int per seat], "breakdown": [{category: points} per seat],
        "winners": [seats]}, in the rulebook's scoring order and with its tie-breaks."""

    # ----- described for clients ----------------------------------------------------------------

    def action_schema(self) -> dict[str, Any]:
        """A JSON Schema every legal action of this engine validates against."""
        return {"type": "object", "required": ["type"]}

    def view_schema(self) -> dict[str, Any]:
        """A JSON Schema every view of this engine (any seat or a spectator) validates against."""
        return {"type": "object"}

    # ----- shared helpers ---------------------------------------------------------------------

    def describe_engine(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "rules_version": self.rules_version,
            "simultaneous": self.simultaneous,
            "options": copy.deepcopy(self.options),
        }

    def validate_options(self, num_players: int, options: dict[str, Any] | None) -> dict[str, Any]:
        """Checks the player count and options against the descriptions; returns the options with
        every default filled in. Raises InvalidOptions with a reason a person can act on."""
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise InvalidOptions("The number of players must be a whole number.",
                                 text("options_players_whole"))
        if not self.min_players <= num_players <= self.max_players:
            if self.min_players == self.max_players:
                span = f"exactly {self.min_players}"
            else:
                span = f"{self.min_players} to {self.max_players}"
            raise InvalidOptions(
                f"This game is played by {span} players, not {num_players}.",
                text("options_players_exactly", players=self.min_players, count=num_players)
                if self.min_players == self.max_players else
                text("options_players_span", low=self.min_players, high=self.max_players,
                     count=num_players))
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise InvalidOptions("Options must be an object of name: value pairs.",
                                 text("options_not_object"))
        known = {option["name"]: option for option in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise InvalidOptions(f"Unknown option(s) for this game: {', '.join(unknown)}.",
                                 text("options_unknown", names=", ".join(map(str, unknown))))
        normalised: dict[str, Any] = {}
        for name, option in known.items():
            value = options.get(name, option["default"])
            kind = option["kind"]
            if kind == "choice" and value not in option["choices"]:
                choices = ", ".join(str(choice) for choice in option["choices"])
                raise InvalidOptions(f"Option {name} must be one of: {choices}.",
                                     text("options_choice", option=name, choices=choices))
            if kind == "bool" and not isinstance(value, bool):
                raise InvalidOptions(f"Option {name} must be true or false.",
                                     text("options_bool", option=name))
            if kind == "int":
                if isinstance(value, bool) or not isinstance(value, int):
                    raise InvalidOptions(f"Option {name} must be a whole number.",
                                         text("options_whole", option=name))
                if not option.get("min", value) <= value <= option.get("max", value):
                    raise InvalidOptions(
                        f"Option {name} must be between {option['min']} and {option['max']}.",
                        text("options_range", option=name, low=option["min"],
                             high=option["max"]))
            normalised[name] = value
        return normalised

    def validate_orders(self, orders: Any, *, partial: bool = False) -> dict[str, Any]:
        """Checks standing orders against the declarations; returns them with every default
        filled in (only the given ones when `partial`). Raises InvalidOptions with a reason."""
        orders = {} if orders is None else orders
        if not isinstance(orders, dict):
            raise InvalidOptions("Standing orders must be an object of name: value pairs.",
                                 text("orders_not_object"))
        known = {order["name"]: order for order in self.standing_orders}
        unknown = sorted(set(orders) - set(known))
        if unknown:
            raise InvalidOptions(
                f"Unknown standing order(s) for this game: {', '.join(map(str, unknown))}.",
                text("orders_unknown", names=", ".join(map(str, unknown))))
        normalised: dict[str, Any] = {}
        for name, order in known.items():
            if partial and name not in orders:
                continue
            value = orders.get(name, order["default"])
            values = [choice["value"] for choice in order["choices"]]
            if not isinstance(value, str) or value not in values:
                raise InvalidOptions(f"Standing order {name} must be one of: {', '.join(values)}.",
                                     text("orders_choice", order=name, choices=", ".join(values)))
            normalised[name] = value
        return normalised

    def require_active(self, state: State, seat: int) -> None:
        """Raises IllegalAction unless `seat` is among the seats to act."""
        if self.is_over(state):
            raise IllegalAction(GAME_OVER, text("refuse_game_over"))
        if seat not in self.active_seats(state):
            raise IllegalAction(f"It is not seat {seat}'s turn to act.",
                                text("refuse_not_turn", who=seat))


#: Deeper JSON than any engine's action is refused before it is serialised (a bomb of nested
#: lists must not cost a recursion error or seconds of CPU).
MAX_ACTION_DEPTH = 8


def _depth_ok(value: Any, depth: int) -> bool:
    if depth > MAX_ACTION_DEPTH:
        return False
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return False
            if isinstance(item, (dict, list, tuple)) and not _depth_ok(item, depth + 1):
                return False
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, (dict, list, tuple)) and not _depth_ok(item, depth + 1):
                return False
    return True


def _identical(listed: Any, sent: Any) -> bool:
    """For two values already `==`: whether they are also the same JSON, types included (`==`
    takes 1, 1.0 and true for one another; this does not)."""
    kind = type(sent)
    if type(listed) is not kind:
        return False
    if kind is dict:
        # Plain loops, recursing only into containers and floats: this runs for every move.
        for key, item in listed.items():
            other = sent[key]
            item_kind = type(item)
            if item_kind is not type(other):
                return False
            if item_kind in _RECHECKED and not _identical(item, other):
                return False
        return True
    if kind is list:
        return all(map(_identical, listed, sent))
    if kind is float:
        return repr(listed) == repr(sent)  # 0.0 == -0.0, yet they are different texts
    return True


#: The JSON types whose equal values may still differ as JSON (inside, or -0.0 and 0.0).
_RECHECKED = frozenset((dict, list, float))


#: The general refusal, for engines with no more specific reason.
NOT_LISTED = "That action is not one of the legal actions now."
#: A move sent after the game ended.
GAME_OVER = "The game is over."

#: One encoder for every canonical text (building one per call costs more than encoding a move).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                              allow_nan=False)


def canonical_action(action: Any) -> str:
    """The canonical JSON text of an action: sorted keys, no spaces, types kept (1, 1.0 and true
    are three different texts). Two actions are the same move exactly when these are equal; never
    compare decoded JSON with `==`, for which 1 == 1.0 == True. Raises IllegalAction for what is
    not a JSON object of plain JSON values."""
    if not isinstance(action, dict):
        raise not_an_object()
    if not _depth_ok(action, 1):
        raise IllegalAction("That action is nested too deeply to be any legal action.",
                            text("refuse_too_deep"))
    try:
        return _CANONICAL.encode(action)
    except (TypeError, ValueError):
        raise IllegalAction("An action must contain only JSON values.",
                            text("refuse_not_json")) from None


def not_an_object() -> IllegalAction:
    """The refusal of an action that is no JSON object."""
    return IllegalAction("An action must be a JSON object.", text("refuse_not_object"))


def match_legal(
    action: Any, legal: list[Action], why_not: Callable[[], str | IllegalAction] | None = None
) -> Action:
    """The listed legal action that `action` is, compared as canonical JSON; raises IllegalAction
    when there is none, with the reason `why_not()` gives (the engine's own words, or the
    refusal itself when it has a text too) or a general one. Callers apply the returned
    (listed) action, never the one they were sent, so no client-made value ever reaches the
    state."""
    # Fast path, for every legal move: `==` (in C) finds the candidates, `_identical` then tells
    # 1 from 1.0 and true. A match has the listed action's own shape, so it is not too deep.
    for candidate in legal:
        if candidate == action and _identical(candidate, action):
            return candidate
    # Otherwise compare canonical texts (which also sees a listed tuple as the list sent), and
    # refuse with the canonical check's reason when the action is no plain JSON object at all.
    wanted = canonical_action(action)
    for candidate in legal:
        if _CANONICAL.encode(candidate) == wanted:
            return candidate
    reason = why_not() if why_not else None
    if isinstance(reason, IllegalAction):
        raise reason
    raise IllegalAction(reason or NOT_LISTED, None if reason else text("refuse_not_listed"))


def require_choice(action: Action, legal: list[Action]) -> Action:
    """The common legality check: `action` must be one of the listed legal actions, as canonical
    JSON. Returns the listed action."""
    return match_legal(action, legal)
