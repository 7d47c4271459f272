"""How the game page presents a decision: board targets, choices as imperatives, the preview
of one choice, who is to act. Presentation only: it reads the engines' legal actions, sentences
and views and never changes a game.

Targets come from the legal actions' own fields through a small mapping per engine (a Stone
Age `location`, a Caverna `space`, cell coordinates in `at` or a furnishing `tile`, a 7 Wonders
`card` and, for a wonder stage, the stage), so the engines know nothing about the page.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from games.engines.base import Engine
from games.engines.registry import UnknownEngine, get_engine
from games.engines.texts import Catalog, placeholders, text
from games.presentation.names import with_names
from games.presentation.texts import is_text, message_text, number_format, render_text

#: Seat colours (with a legend on the page); white text is readable on each (contrast ≥ 4.5).
SEAT_COLOURS = ("#b3261e", "#1f5fbf", "#2e6b30", "#8a5a00", "#6a1b9a", "#00695c", "#5d4037")


def _cells(value: Any) -> list[tuple[int, int]]:
    """Every [x, y] pair in an `at` field (one cell, or a list of cells)."""
    if (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return [(value[0], value[1])]
    if isinstance(value, list):
        return [cell for item in value for cell in _cells(item)]
    return []


def _stone_age_targets(action: dict) -> list[str]:
    return [f"loc:{action['location']}"] if isinstance(action.get("location"), str) else []


def _caverna_targets(action: dict) -> list[str]:
    targets = []
    if isinstance(action.get("space"), str):
        targets.append(f"space:{action['space']}")
    targets += [f"cell:{x},{y}" for x, y in _cells(action.get("at"))]
    if action.get("type") == "furnish" and isinstance(action.get("tile"), str):
        targets.append(f"tile:{action['tile']}")
    return targets


def _seven_wonders_targets(action: dict) -> list[str]:
    targets = [f"card:{action['card']}"] if isinstance(action.get("card"), str) else []
    if action.get("type") == "wonder":
        targets.append("stage")
    return targets


TARGETS: dict[str, Callable[[dict], list[str]]] = {
    "stone_age": _stone_age_targets,
    "caverna": _caverna_targets,
    "seven_wonders": _seven_wonders_targets,
}


def targets_of(engine_slug: str, action: Any) -> list[str]:
    """The board places (target keys) where this action is offered; [] for the short list."""
    mapping = TARGETS.get(engine_slug)
    if mapping is None or not isinstance(action, dict):
        return []
    return mapping(action)


# ----- choices as imperatives -------------------------------------------------------------------

#: The engines write "Seat 2 places …" (Stone Age) or "Seat 2 placed …" (Caverna); a choice
#: reads as what the player does: "Place …".
VERBS = {
    "places": "Place", "placed": "Place", "works": "Work", "pays": "Pay", "paid": "Pay",
    "declines": "Decline", "takes": "Take", "took": "Take", "adds": "Add", "feeds": "Feed",
    "fed": "Feed", "gains": "Gain", "makes": "Make", "raises": "Raise", "uses": "Use",
    "used": "Use", "bought": "Buy", "bred": "Breed", "built": "Build", "converted": "Convert",
    "ended": "End", "finished": "Finish", "forged": "Forge", "furnished": "Furnish",
    "imitated": "Imitate", "released": "Release", "skipped": "Skip", "sowed": "Sow",
    "traded": "Trade", "went": "Go", "sets": "Set", "acts": "Act", "chose:": "",
}
_OWN = re.compile(r"\b(their|his|her)\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def imperative(text: str, seat: int) -> tuple[str, str]:
    """(label, detail): the first sentence of an engine's choice text as an order to the
    player ("Seat 0 places 2 people on the forest." → "Place 2 people on the forest"), and the
    rest of the text (what follows from it) as detail."""
    sentences = _SENTENCE_END.split(text.strip(), maxsplit=1)
    head, detail = sentences[0], (sentences[1] if len(sentences) > 1 else "")
    prefix = f"Seat {seat} "
    if head.startswith(prefix):
        words = head[len(prefix):].split(" ", 1)
        # A one-word sentence keeps its full stop on the verb ("Seat 0 acts.").
        verb, tail = words[0].rstrip("."), (words[1] if len(words) > 1 else "")
        short = re.match(r"is (\d+) food short and loses (\d+) points", head[len(prefix):])
        if short:
            head = f"Lose {short[2]} points for the {short[1]} missing food"
        elif verb in VERBS:
            tail = _OWN.sub("your", tail)
            head = (f"{VERBS[verb]} {tail}" if VERBS[verb] else tail[:1].upper() + tail[1:])
        elif verb == "cannot":
            head = f"You cannot {tail}"
        else:
            head = f"You: {head[len(prefix):]}"
    return head.rstrip(". ").strip(), detail.strip()


def choice_label(engine_slug: str, item: dict, seat: int,
                 names: dict[int, str]) -> tuple[str, str]:
    """(label, detail) of one legal action: the English imperative, or in another language the
    engine's sentence (the imperative is English grammar)."""
    if "text" in item and not (translation.get_language() or "en").startswith("en"):
        return render_text(engine_slug, item["text"], names=names), ""
    return imperative(item["description"], seat)


def present_choices(engine: Engine, legal: list[dict], seat: int,
                    names: dict[int, str]) -> list[dict[str, Any]]:
    """The legal actions as the page lists them: imperatives with players named, identical
    outcomes merged into the first of them, numbered 1… without gaps; each keeps the index of
    the legal action it submits and the board targets it belongs to."""
    choices: list[dict[str, Any]] = []
    seen: dict[str, dict[str, Any]] = {}
    for item in legal:
        text = with_names(item["description"], names)
        if text in seen:
            # Two listed actions with the very same sentence: one choice, the targets of both.
            merged = seen[text]
            merged["targets"] = list(dict.fromkeys(
                merged["targets"] + targets_of(engine.slug, item["action"])))
            continue
        label, detail = choice_label(engine.slug, item, seat, names)
        choice = {
            "number": len(choices) + 1,
            "index": item["index"],
            "label": with_names(label, names),
            "detail": with_names(detail, names),
            "text": text,
            "targets": targets_of(engine.slug, item["action"]),
            "kind": str(item["action"].get("type", "")) if isinstance(item["action"], dict)
            else "",
        }
        seen[text] = choice
        choices.append(choice)
    for choice in choices:
        choice["target_attr"] = " ".join(choice["targets"])
    return choices


# ----- the preview of one choice ----------------------------------------------------------------


def _own_entry(view: dict, seat: int) -> dict | None:
    """The viewer's own player entry in an engine's view."""
    players = view.get("players") if isinstance(view, dict) else None
    if not isinstance(players, list):
        return None
    for entry in players:
        if isinstance(entry, dict) and (entry.get("seat") == seat or entry.get("is_viewer")
                                        or entry.get("role") == "you"):
            return entry
    return None


#: Numbers of a view entry that are no amounts: seats (a neighbour's too) and coordinates.
_NOT_AMOUNTS = frozenset({"seat", "x", "y", "index", "left", "right"})
#: Where each engine's catalog words the fields of its view ("<prefix>.<path>"), see
#: `field_text`.
FIELD_KEYS = {"stone_age": "sa.field", "seven_wonders": "sw.field", "caverna": "cv.field"}


def _leaves(value: Any, catalog: Catalog | None,
            path: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    """Every number and every text of the engine in a view entry, by its path (lists are not
    opened: their items have no stable path)."""
    found: dict[tuple[str, ...], Any] = {}
    if isinstance(value, bool):
        return found
    if isinstance(value, (int, float)):
        found[path] = value
    elif isinstance(value, dict):
        if catalog is not None and "k" in value and is_text(value, catalog):
            found[path] = value
            return found
        for key, item in value.items():
            if key in _NOT_AMOUNTS:
                continue
            found.update(_leaves(item, catalog, (*path, str(key))))
    return found


def field_text(engine_slug: str, path: tuple[str, ...]) -> dict[str, Any] | None:
    """The engine's text naming a field of its view: the message "<prefix>.<a>.<b>" of the path
    a/b, or "<prefix>.<a>.*" with the last key as its parameter (resources/wood: the good
    "wood"); None when the catalog does not word it."""
    prefix = FIELD_KEYS.get(engine_slug)
    catalog = get_engine(engine_slug).text_catalog if prefix else None
    if catalog is None or not path:
        return None
    for key in (".".join((prefix, *path)), ".".join((prefix, *path[:-1], "*"))):
        template = catalog.messages.get(key)
        if isinstance(template, str):
            names = sorted(placeholders(template))
            return text(key, **{names[0]: path[-1]}) if names else text(key)
    return None


def _words(path: tuple[str, ...]) -> str:
    return " ".join(part.replace("_", " ") for part in path)


def view_changes(before: dict, after: dict, seat: int, limit: int = 8, *,
                 engine_slug: str = "", language: str | None = None) -> list[str]:
    """What the viewer's own numbers (and named things) do ("wood: 3 → 1"), from their view
    before and after, in `language` (default: the active one): fields named by `engine_slug`'s
    catalog, texts rendered, numbers in the language's digits. A field the catalog does not
    name (an engine without a catalog) reads as its English path."""
    old, new = _own_entry(before, seat), _own_entry(after, seat)
    if old is None or new is None:
        return []
    language = language or translation.get_language() or "en"
    catalog = None
    if engine_slug:
        try:
            catalog = get_engine(engine_slug).text_catalog
        except UnknownEngine:
            catalog = None
    old_leaves, new_leaves = _leaves(old, catalog), _leaves(new, catalog)
    number = number_format(language)

    def shown(value: Any) -> str:
        if isinstance(value, dict):
            return message_text(engine_slug, value, language=language)
        return number(value)

    def field_words(path: tuple[str, ...]) -> str:
        label = field_text(engine_slug, path) if catalog is not None else None
        if label is not None:
            try:
                return render_text(engine_slug, label, language=language)
            except LookupError:  # a key the catalog does not name (a new good): its words
                pass
        return _words(path)

    lines = []
    with translation.override(language):
        for path in sorted(set(old_leaves) | set(new_leaves)):
            was, now = old_leaves.get(path), new_leaves.get(path)
            if isinstance(was, dict) or isinstance(now, dict):
                if was == now or now is None:
                    continue
                before_words = shown(was) if was is not None else "—"
            else:
                was, now = was or 0, now or 0
                if was == now:
                    continue
                before_words = shown(was)
            lines.append(gettext("%(field)s: %(before)s → %(after)s")
                         % {"field": field_words(path), "before": before_words,
                            "after": shown(now)})
    return lines[:limit]


def preview(engine: Engine, state: dict, seat: int, action: dict, *,
            language: str | None = None) -> list[str]:
    """How the player's own numbers change if they take `action`, in `language` (default: the
    active one). When the step reveals something (`Engine.reveals`), only the numbers
    everybody will see are compared (a spectator's view): a card drawn face down must not show
    before the move is made."""
    after = engine.apply(state, seat, action)
    viewer = None if engine.reveals(state, seat, action, after) else seat
    return view_changes(engine.view(state, viewer), engine.view(after, viewer), seat,
                        engine_slug=engine.slug, language=language)


# ----- who is to act ----------------------------------------------------------------------------


def seat_legend(seats: list, awaited: set[int], simultaneous: bool,
                viewer_seat: int | None) -> list[dict[str, Any]]:
    """One row per seat: name, colour and turn state (to act, picked ✓, waiting)."""
    rows = []
    for seat in seats:
        if seat.number is None:
            continue
        if seat.number in awaited:
            state = "to act"
        elif simultaneous and awaited:
            state = "picked"
        else:
            state = ""
        rows.append({"seat": seat, "number": seat.number, "name": seat.player_name,
                     "colour": SEAT_COLOURS[seat.number % len(SEAT_COLOURS)], "state": state,
                     "you": seat.number == viewer_seat})
    return rows


def turn_summary(legend: list[dict[str, Any]], viewer_seat: int | None) -> dict[str, Any]:
    """The one line the page keeps in view: whether the viewer is to act, who else is awaited,
    and the deadline that matters (the viewer's, else the nearest of those awaited)."""
    awaited = [row for row in legend if row["state"] == "to act"]
    yours = any(row["number"] == viewer_seat for row in awaited)
    deadlines = [row["seat"].deadline_at for row in awaited
                 if row["seat"].deadline_at and (not yours or row["number"] == viewer_seat)]
    return {"yours": yours,
            "others": [row["name"] for row in awaited if row["number"] != viewer_seat],
            "deadline": min(deadlines) if deadlines else None}
