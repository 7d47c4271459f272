"""The engine protocol every game implements, its errors, and the seeded RNG.

Engines are pure: stdlib only, no Django, no I/O, no clock, no global random. State is a plain
JSON-serialisable dict; every function returns a new value and leaves its input untouched.
"""

from __future__ import annotations

import copy
import hashlib
from abc import ABC, abstractmethod
from typing import Any

State = dict[str, Any]
Action = dict[str, Any]


class EngineError(Exception):
    """Base class of every error an engine raises on purpose."""


class IllegalAction(EngineError):
    """The action is not legal for that seat now. The message says why, in words a player reads."""


class InvalidOptions(EngineError):
    """The game options or player count are not acceptable for this engine."""


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
        """Fisher–Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

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
    #: and "choices": [values] for choice, "min"/"max" for int}.
    options: list[dict[str, Any]] = []

    # ----- set-up -----------------------------------------------------------------------------

    @abstractmethod
    def new_game(self, num_players: int, seed: str, options: dict[str, Any] | None = None) -> State:
        """A new game; every shuffle comes from `seed`. Raises InvalidOptions."""

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
        raise IllegalAction("Nothing is waiting to be resolved.")

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

    # ----- time-outs and bots -----------------------------------------------------------------

    @abstractmethod
    def timeout_action(self, state: State, seat: int) -> Action:
        """A legal, conservative default for a seat whose deadline passed."""

    def bot_action(self, state: State, seat: int) -> Action:
        """The move a bot makes for `seat`; deterministic for a given state."""
        return self.timeout_action(state, seat)

    # ----- the end ----------------------------------------------------------------------------

    @abstractmethod
    def is_over(self, state: State) -> bool: ...

    @abstractmethod
    def result(self, state: State) -> dict[str, Any]:
        """{"scores": [int per seat], "breakdown": [{category: points} per seat],
        "winners": [seats]}, in the rulebook's scoring order and with its tie-breaks."""

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
            raise InvalidOptions("The number of players must be a whole number.")
        if not self.min_players <= num_players <= self.max_players:
            if self.min_players == self.max_players:
                span = f"exactly {self.min_players}"
            else:
                span = f"{self.min_players} to {self.max_players}"
            raise InvalidOptions(f"{self.name} is played by {span} players, not {num_players}.")
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise InvalidOptions("Options must be an object of name: value pairs.")
        known = {option["name"]: option for option in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise InvalidOptions(f"Unknown option(s) for {self.name}: {', '.join(unknown)}.")
        normalised: dict[str, Any] = {}
        for name, option in known.items():
            value = options.get(name, option["default"])
            kind = option["kind"]
            if kind == "choice" and value not in option["choices"]:
                choices = ", ".join(str(choice) for choice in option["choices"])
                raise InvalidOptions(f"Option {name} must be one of: {choices}.")
            if kind == "bool" and not isinstance(value, bool):
                raise InvalidOptions(f"Option {name} must be true or false.")
            if kind == "int":
                if isinstance(value, bool) or not isinstance(value, int):
                    raise InvalidOptions(f"Option {name} must be a whole number.")
                if not option.get("min", value) <= value <= option.get("max", value):
                    raise InvalidOptions(
                        f"Option {name} must be between {option['min']} and {option['max']}."
                    )
            normalised[name] = value
        return normalised

    def require_active(self, state: State, seat: int) -> None:
        """Raises IllegalAction unless `seat` is among the seats to act."""
        if self.is_over(state):
            raise IllegalAction("The game is over.")
        if seat not in self.active_seats(state):
            raise IllegalAction(f"It is not seat {seat}'s turn to act.")


def require_choice(action: Action, legal: list[Action]) -> None:
    """The common legality check: `action` must equal one of the listed legal actions."""
    if not isinstance(action, dict):
        raise IllegalAction("An action must be a JSON object.")
    if action not in legal:
        raise IllegalAction("That action is not one of the legal actions now.")
