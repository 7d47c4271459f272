"""What a reply's first line asks for, and which of the numbered choices it names.

Choices keep the engine's order and their number (index + 1) for the whole version, however the
list is narrowed ("more", a filter word), so a number read anywhere means the same move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Words that are commands, not filters (and their synonyms).
PASS_WORDS = {"pass", "skip"}
STATUS_WORDS = {"status", "state", "board", "show"}
HELP_WORDS = {"help", "?", "commands", "hilfe", "aide"}
MORE_WORDS = {"more", "next"}
LIST_WORDS = {"list", "all", "choices", "options"}
FIND_WORDS = {"find", "filter", "search"}

_NUMBER = re.compile(r"^(?:#|no\.?\s*|nr\.?\s*|number\s+|choice\s+|option\s+|move\s+)?(\d{1,5})"
                     r"(?:\s*[.):]?)(?:\s|$)", re.IGNORECASE)
_WORD = re.compile(r"[0-9a-zà-ÿ]+", re.IGNORECASE)


@dataclass(frozen=True)
class Choice:
    number: int
    action: dict
    description: str

    @property
    def words(self) -> set[str]:
        kind = self.action.get("type") if isinstance(self.action, dict) else None
        return set(words_of(self.description)) | set(words_of(str(kind or "")))


@dataclass(frozen=True)
class Command:
    #: "choose", "pass", "status", "help", "more", "list", "find", "words", "unreadable"
    kind: str
    number: int | None = None
    words: tuple[str, ...] = ()
    text: str = ""


def words_of(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text.replace("_", " "))]


def choices_from(legal: list[dict]) -> list[Choice]:
    """From `games.selectors.legal_actions_for` rows to numbered choices."""
    return [Choice(number=row["index"] + 1, action=row["action"],
                   description=row["description"]) for row in legal]


def interpret(first_line: str) -> Command:
    text = first_line.strip().strip("*_\"'“”‘’`").strip()
    if not text:
        return Command("unreadable", text=first_line)
    number = _NUMBER.match(text)
    if number:
        return Command("choose", number=int(number.group(1)), text=text)
    words = words_of(text)
    if not words:
        return Command("help" if text.strip() == "?" else "unreadable", text=text)
    head, rest = words[0], tuple(words[1:])
    if head in PASS_WORDS and not rest:
        return Command("pass", text=text)
    if head in HELP_WORDS and not rest:
        return Command("help", text=text)
    if head in STATUS_WORDS and not rest:
        return Command("status", text=text)
    if head in MORE_WORDS and not rest:
        return Command("more", text=text)
    if head in LIST_WORDS and not rest:
        return Command("list", text=text)
    if head in FIND_WORDS or (head == "show" and rest):
        return Command("find", words=rest, text=text) if rest else Command("list", text=text)
    return Command("words", words=tuple(words), text=text)


def matching(choices: list[Choice], words: tuple[str, ...], *, exact: bool) -> list[Choice]:
    """Choices whose text holds every word: as whole words (exact) or as word beginnings."""
    found = []
    for choice in choices:
        own = choice.words
        if exact:
            ok = all(word in own for word in words)
        else:
            ok = all(any(candidate.startswith(word) for candidate in own) for word in words)
        if ok:
            found.append(choice)
    return found


def pass_choices(choices: list[Choice]) -> list[Choice]:
    by_type = [c for c in choices if isinstance(c.action, dict) and c.action.get("type") == "pass"]
    return by_type or [c for c in choices if {"pass", "passes", "passed"} & c.words]


def verb_on_choice(choices: list[Choice], words: tuple[str, ...]) -> list[Choice]:
    """"discard 3": the choices that hold the word "discard" and act on the same thing as
    choice 3 (the same values for the keys both actions have, the action type aside), e.g.
    7 Wonders' {"type": "discard", "card": "baths_1"} for choice 3 = build the Baths. Empty
    when the words are not a verb and a listed number."""
    if len(words) != 2 or not words[1].isdigit() or not 1 <= int(words[1]) <= len(choices):
        return []
    verb, target = words[0], choices[int(words[1]) - 1]
    if not isinstance(target.action, dict):
        return []
    if verb in target.words:
        return [target]
    found = []
    for choice in choices:
        if not isinstance(choice.action, dict) or verb not in choice.words:
            continue
        shared = (set(choice.action) & set(target.action)) - {"type"}
        if shared and all(choice.action[key] == target.action[key] for key in shared):
            found.append(choice)
    return found
