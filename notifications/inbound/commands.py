"""What a reply's first line asks for, and which of the numbered choices it names."""

# Choices keep the engine's order and their number (index + 1) for the whole version, however the
# list is narrowed ("more", a filter word), so a number read anywhere means the same move.

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from games.presentation.summaries import with_names

#: Words that are commands, not filters (and their synonyms).
PASS_WORDS = {"pass", "skip"}
STATUS_WORDS = {"status", "state", "board", "show"}
HELP_WORDS = {"help", "?", "commands", "hilfe", "aide"}
MORE_WORDS = {"more", "next"}
LIST_WORDS = {"list", "all", "choices", "options"}
FIND_WORDS = {"find", "filter", "search"}
#: "auto on" / "auto off": forced moves play themselves in this game, or wait for the player.
AUTO_WORDS = {"auto", "autoplay"}
SWITCH_WORDS = {"on", "off"}

#: The commands in the players' other languages, as the English word they stand for. Italian
#: words are read like the English ones (word by word, so "scarta 3" is "discard 3"); Persian
#: and Chinese ones only as a whole answer or at its start before a number or a word ("弃牌 3",
#: "بیاب wood"), since "过" and "پاس" also sit inside ordinary words ("看过", "پاسخ").
#: The emails' help text names the first of each (the catalogs' "email command" entries).
ITALIAN_WORDS = {
    "passo": "pass", "passa": "pass", "salta": "pass",
    "stato": "status", "situazione": "status", "tabellone": "status",
    "aiuto": "help", "comandi": "help",
    "altre": "more", "altri": "more", "avanti": "more", "ancora": "more",
    "tutte": "list", "elenco": "list", "lista": "list",
    "cerca": "find", "trova": "find", "filtra": "find",
    "scarta": "discard", "scarto": "discard", "scartare": "discard",
    "acceso": "on", "attivo": "on", "attiva": "on", "spento": "off", "disattivo": "off",
    "disattiva": "off",
}
PHRASES = {
    "pass": ("پاس", "پاس می‌دهم", "رد", "بگذر", "过", "跳过", "不要"),
    "status": ("وضعیت", "وضعیت بازی", "状态", "局面", "查看"),
    "help": ("راهنما", "کمک", "؟", "帮助", "命令"),
    "more": ("بیشتر", "بعدی", "ادامه", "更多", "下一页", "继续"),
    "list": ("فهرست", "همه", "همهٔ انتخاب‌ها", "全部", "列表", "所有选项"),
    "find": ("بیاب", "پیدا کن", "جستجو", "查找", "搜索", "找"),
    "discard": ("دور بینداز", "دورانداختن", "دور انداختن", "弃牌", "弃掉", "丢弃"),
    "auto on": ("خودکار روشن", "خودکار فعال", "自动 开", "自动开", "自动开启", "开启自动"),
    "auto off": ("خودکار خاموش", "خودکار غیرفعال", "自动 关", "自动关", "自动关闭", "关闭自动"),
}
#: Longest first, so that "自动开启" is not read as "自动开" followed by "启".
_PHRASES_LONGEST_FIRST = sorted(((english, phrase) for english, phrases in PHRASES.items()
                                 for phrase in phrases), key=lambda pair: -len(pair[1]))
#: Politeness around a Persian or Chinese command ("لطفا وضعیت", "请帮助", "更多，谢谢").
_POLITE_PREFIX = re.compile(r"^(?:لطفا|لطفاً|خواهش می‌کنم|请|麻烦)\s*")
_POLITE_SUFFIX = re.compile(r"\s*(?:لطفا|لطفاً|ممنون|مرسی|谢谢|谢了|吧)$")
_PHRASE_EDGE = " \t.,;:!！。，、；：،؛"
#: Chinese numerals ("三", "十二", "二十三", "一百零五", "〇"); "两" is two.
_CHINESE_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
                   "六": 6, "七": 7, "八": 8, "九": 9}
_CHINESE_NUMBER = re.compile("[〇零一二两三四五六七八九十百]+")

_WORD = re.compile(r"[0-9a-zà-ÿ]+", re.IGNORECASE)
_STANDALONE_NUMBER = re.compile(r"(?<![^\W_])[0-9]+(?![^\W_])")
#: Latin words and digit runs of an answer, apart (so "2番", "我选2" and "Ход 2" all hold 2).
_TOKEN = re.compile(r"[0-9]+|[a-zà-ÿ]+", re.IGNORECASE)
#: Words that say nothing about which choice is meant ("2 please", "I choose 3", "#12 bitte").
FILLER_WORDS = {"please", "pls", "plz", "thanks", "thank", "thx", "you", "ok", "okay", "i",
                "id", "ill", "im", "my", "me", "the", "a", "an", "it", "is", "this", "that",
                "no", "nr", "number", "num", "choice", "option", "move", "choose", "pick",
                "select", "play", "with", "for", "bitte", "danke", "merci",
                "svp", "gracias", "grazie", "prego", "por", "favor", "dank", "je", "ich",
                "nehme", "nummer", "numero", "número", "numer", "numéro", "wahl", "choix",
                "opción", "opzione", "opção", "opcao", "escolha", "escolho", "elijo", "scelgo",
                "keuze", "val", "valg", "wybór", "wybieram", "optie", "il", "lo", "la",
                "per", "favore", "mio", "mia", "voglio", "prendo", "gioco", "scelta"}
#: The longest number read as a choice number (longer digit runs are no choice).
_MAX_DIGITS = 5


@dataclass(frozen=True)
class Choice:
    number: int
    action: dict
    description: str

    @property
    def words(self) -> set[str]:
        kind = self.action.get("type") if isinstance(self.action, dict) else None
        return set(words_of(self.description)) | set(words_of(str(kind or "")))

    @property
    def counts(self) -> set[str]:
        """The numbers standing alone in the text ("places 2 people"), not inside a name
        ("player2")."""
        return set(_STANDALONE_NUMBER.findall(answer_text(self.description)))

    @property
    def tokens(self) -> set[str]:
        """Words and numbers of the text as an answer line is split ("player2", "bid", "2")."""
        return {token.lower() for token in _TOKEN.findall(
            answer_text(self.description).replace("_", " "))}


@dataclass(frozen=True)
class Command:
    #: "choose" (one number), "ambiguous" (several numbers), "pass", "status", "help", "more",
    #: "list", "find", "auto" (words: "on" or "off"), "words" (words, no number), "unreadable"
    kind: str
    number: int | None = None
    words: tuple[str, ...] = ()
    text: str = ""
    #: Every distinct number of the line, in order ("5 or 8?": 5, 8).
    numbers: tuple[int, ...] = ()
    #: The line's Latin words and numbers in order ("discard 3": "discard", "3").
    tokens: tuple[str, ...] = ()


def words_of(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text.replace("_", " "))]


def choices_from(legal: list[dict], names: Mapping[int, str] | None = None) -> list[Choice]:
    """From `games.selectors.legal_actions_for` rows to numbered choices, players called by
    their `names` (seat number → display name) where the engine's text says "Seat N"."""
    return [Choice(number=row["index"] + 1, action=row["action"],
                   description=with_names(row["description"], names or {})) for row in legal]


def answer_text(line: str) -> str:
    """An answer line as the player means it: NFKC (full-width digits, "②"), every script's
    decimal digits (Persian "۲", Arabic-Indic "٢", Devanagari …) and Chinese numerals ("三",
    "十二") as ASCII digits, no bidi marks or keycap combiners ("2️⃣" is "2")."""
    return _with_chinese_numbers(_with_ascii_digits(line))


def _with_ascii_digits(line: str) -> str:
    from notifications.inbound.parsing import normalised

    return "".join(str(unicodedata.decimal(char)) if char.isdecimal() and not char.isascii()
                   else char for char in normalised(line))


def _with_chinese_numbers(text: str) -> str:
    return _CHINESE_NUMBER.sub(lambda match: _chinese_number(match.group()), text)


def _chinese_number(numeral: str) -> str:
    """"二十三" is 23, "十二" 12, "一百零五" 105; a run without 十 or 百 is read digit by digit
    ("一二" is 12, as a phone keypad would write it)."""
    if "十" not in numeral and "百" not in numeral:
        return "".join(str(_CHINESE_DIGITS[char]) for char in numeral)
    total, digit = 0, None
    for char in numeral:
        if char == "百":
            total += (1 if digit is None else digit) * 100
            digit = None
        elif char == "十":
            total += (1 if digit is None else digit) * 10
            digit = None
        else:
            digit = _CHINESE_DIGITS[char] if _CHINESE_DIGITS[char] else digit
    return str(total + (digit or 0))


def _in_english(text: str) -> str:
    """A Persian or Chinese command, alone or heading the answer, as its English word."""
    bare = _POLITE_SUFFIX.sub("", _POLITE_PREFIX.sub("", text.strip(_PHRASE_EDGE)))
    bare = bare.strip(_PHRASE_EDGE)
    for english, phrase in _PHRASES_LONGEST_FIRST:
        if bare == phrase:
            return english
        rest = bare[len(phrase):]
        if bare.startswith(phrase) and (rest[:1].isspace() or rest[:1].isdigit()
                                        or (rest[:1].isascii() and rest[:1].isalpha())
                                        or _CHINESE_NUMBER.match(rest)):
            return f"{english} {rest.strip(_PHRASE_EDGE)}"
    return text


def interpret(first_line: str) -> Command:
    """What the answer line asks for. A number anywhere in it (inside any script) chooses;
    two different numbers are ambiguous; otherwise command words, or words to match."""
    # Command words before Chinese numerals are read: "下一页" is "more", not page 1.
    text = _with_chinese_numbers(_in_english(
        _with_ascii_digits(first_line).strip().strip("*_\"'“”‘’`«»").strip()))
    if not text:
        return Command("unreadable", text=first_line)
    tokens = tuple(ITALIAN_WORDS.get(token, token) for token in (
        token.lower() for token in _TOKEN.findall(text.replace("_", " "))))
    words = tuple(token for token in tokens if not token.isdigit())
    if tokens and (tokens[0] in FIND_WORDS or (tokens[0] == "show" and len(tokens) > 1)):
        # "find 3", "show wood": a filter, whatever it holds.
        rest = tokens[1:]
        return Command("find", words=rest, text=text) if rest else Command("list", text=text)
    numbers = tuple(dict.fromkeys(int(token) for token in tokens
                                  if token.isdigit() and len(token) <= _MAX_DIGITS))
    content = tuple(word for word in words if word not in FILLER_WORDS)
    if len(numbers) > 1 or any(token.isdigit() and len(token) > _MAX_DIGITS
                               for token in tokens):
        return Command("ambiguous", numbers=numbers, words=content, text=text, tokens=tokens)
    if numbers:
        return Command("choose", number=numbers[0], numbers=numbers, words=content, text=text,
                       tokens=tokens)
    if not words:
        return Command("help" if text.strip() == "?" else "unreadable", text=text)
    head, rest = words[0], tuple(words[1:])
    if head in AUTO_WORDS and len(rest) == 1 and rest[0] in SWITCH_WORDS:
        return Command("auto", words=rest, text=text)
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
    return Command("words", words=words, text=text)


@dataclass(frozen=True)
class Reading:
    """What an answer with a number comes to: one choice to play, candidates to ask about
    (nothing played), `illegal` (a number no choice has) or `unmatched` (words before the
    number that no choice holds, "wonder 1": nothing is guessed)."""

    choice: Choice | None = None
    candidates: tuple[Choice, ...] = ()
    illegal: bool = False
    unmatched: bool = False


def read_numbered(command: Command, choices: list[Choice]) -> Reading:
    """A "choose" or "ambiguous" answer against the player's choices. Played only when the
    answer means one choice: its one number alone or with words that are only comment ("2
    please", "2 – I bid two", "Ход 2", "2番でお願いします"), or with words that choice holds
    ("bid 3"), or the choice line copied whole ("2. bob2 bid 2."); "discard 3" is the
    discard of what choice 3 is about; a place or good with a count ("river 2") is the one
    choice of that place holding that number. Candidates are asked about when the numbers or
    words name different choices ("5 or 8?", "3 build baths" when 3 discards them), only
    those the words name."""
    by_number = {choice.number: choice for choice in choices}
    leading = command.tokens[0] if command.tokens else ""
    if command.kind == "ambiguous":
        # The choice's own text copied after its number: the other numbers are that text's.
        if leading.isdigit() and int(leading) in by_number:
            target = by_number[int(leading)]
            rest = [token for token in command.tokens[1:] if token not in FILLER_WORDS]
            if rest and all(token in target.words | target.tokens for token in rest):
                return Reading(choice=target)
        return Reading(candidates=tuple(by_number[number] for number in command.numbers
                                        if number in by_number))
    target = by_number.get(command.number)
    if target is None:
        return Reading(illegal=True)
    if not command.words:
        return Reading(choice=target)
    # "discard 3": the verb acts on what choice 3 is about (7 Wonders' Build/Discard Baths).
    if len(command.words) == 1 and command.tokens == (command.words[0], str(command.number)):
        same_object = verb_on_choice(choices, (command.words[0], str(command.number)))
        if len(same_object) == 1:
            return Reading(choice=same_object[0])
    named = matching(choices, command.words, exact=True)
    # The number may also be a count the words' choices hold ("river 2": 2 people on the river).
    counted = [choice for choice in named if str(command.number) in choice.counts]
    if target in named and all(choice is target for choice in counted):
        return Reading(choice=target)
    if target not in named and len(counted) == 1:
        return Reading(choice=counted[0])
    if named:
        # Only the choices the words name (those with that count, if any); the numbered choice
        # too when the number leads or the words hold it.
        pool = counted or named
        if leading.isdigit() or target in named:
            pool = [target, *pool]
        return Reading(candidates=tuple({choice.number: choice for choice in pool}.values()))
    # Words no choice holds: comment after a leading number ("2 – I bid two"); before it, they
    # were meant as the move ("wonder 1") and cannot be played.
    return Reading(choice=target) if leading.isdigit() else Reading(unmatched=True)


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
