"""The player's board as a small picture for a turn email: the game page's own board template
(templates/games/boards/) rendered for the player, their part of it drawn as one self-contained
SVG (the sprite's symbols and the boards' colours written in, since a rasterizer applies no page
CSS and follows no `<use href="file#id">`), rasterized to PNG by resvg."""

from __future__ import annotations

import re
import textwrap
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from functools import cache
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import resvg_py
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils.translation import get_language_bidi, gettext

from games.presentation.board import SEAT_COLOURS

#: An email client shows the picture at this width (CSS pixels); it is drawn at twice that when
#: it fits in MAX_BYTES (sharp on phones), else smaller.
WIDTH = 480
MAX_HEIGHT = 560
MAX_BYTES = 60 * 1024
ZOOMS = (1.5, 1.25, 1.0, 0.8, 0.6)
PAD, FONT, LINE, ICON = 8, 13, 22, 18
#: Per engine, the board's element that is the player's own part (classes it carries).
PLAYER_PART = {
    "stone_age": {"sa-yours"},
    "seven_wonders": {"city", "role-you"},
    "caverna": {"cv-you"},
}
BLOCKS = {"p", "li", "h2", "h3", "h4", "div", "section", "ul", "ol", "tr", "table", "summary",
          "details"}
VOID = {"link", "br", "img", "hr", "input", "meta"}
TEXT_COLOUR, MUTED = "#1d1d1f", "#555"
SVG_NS = "http://www.w3.org/2000/svg"


@dataclass(frozen=True)
class BoardPicture:
    png: bytes
    alt: str
    width: int
    height: int


@dataclass
class _Cell:
    background: str
    texts: list[str] = field(default_factory=list)
    icons: list[tuple[str, str, str]] = field(default_factory=list)  # symbol, colour, count


@cache
def _symbols() -> dict[str, str]:
    """The sprite's symbols by id, each as standalone SVG markup."""
    ElementTree.register_namespace("", SVG_NS)
    root = ElementTree.parse(finders.find("games/icons.svg")).getroot()
    return {symbol.get("id"): ElementTree.tostring(symbol, encoding="unicode")
            for symbol in root.iter(f"{{{SVG_NS}}}symbol")}


@cache
def _class_styles() -> dict[str, dict[str, str]]:
    """The boards' stylesheet as class -> declarations, for rules whose selector ends in one
    class (`.c-red`, `.board-caverna .cv-k-meadow`): the colours the picture paints with."""
    css = Path(finders.find("css/boards.css")).read_text(encoding="utf-8")
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    styles: dict[str, dict[str, str]] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        declarations = dict((name.strip(), value.strip()) for name, _, value in
                            (part.partition(":") for part in body.split(";")) if value)
        for selector in selectors.split(","):
            last = selector.strip().split()[-1] if selector.strip() else ""
            if re.fullmatch(r"\.[\w-]+", last):
                styles.setdefault(last[1:], {}).update(declarations)
    return styles


#: Advance widths (in ems) of DejaVu Sans, the font the picture asks for, by kind of character.
_NARROW, _MIDDLE, _WIDE = set("iljI.,:;'|!·"), set("ftr()[]-/ "), set("mwMW%@")


def _text_width(word: str, size: int, bold: bool) -> float:
    ems = 0.0
    for char in word:
        if char in _NARROW:
            ems += 0.3
        elif char in _MIDDLE:
            ems += 0.4
        elif char in _WIDE:
            ems += 0.9
        elif ord(char) >= 0x2E80:  # CJK: square
            ems += 1.0
        elif char.isupper() or char.isdigit():
            ems += 0.68
        else:
            ems += 0.6
    return ems * size * (1.1 if bold else 1.0)


def _colour(value: str | None) -> str | None:
    found = re.search(r"#[0-9a-fA-F]{3,8}\b", value or "")
    return found.group(0) if found else None


def _seat_colour(classes: set[str]) -> str | None:
    for name in classes:
        if (found := re.fullmatch(r"seat-c(\d+)", name)):
            return SEAT_COLOURS[int(found.group(1)) % len(SEAT_COLOURS)]
    return None


def _kind_colour(classes: set[str]) -> str | None:
    for name in classes:
        if name.startswith("c-"):
            return _colour(_class_styles().get(name, {}).get("--kind"))
    return None


class _Drawing(HTMLParser):
    """Reads the rendered board and lays the player's part out in rows: words, icons with their
    counts and the home board's grid of cells, as the page shows them (collapsed details and
    text for screen readers left out)."""

    def __init__(self, part: set[str], rtl: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.part, self.depth = part, 0  # depth > 0: inside the player's part
        # Right to left (Persian): lines and rows are laid out from the right, as the page does.
        self.rtl = rtl
        self.stack: list[tuple[str, set[str], bool, bool]] = []  # tag, classes, hidden, silent
        self.svg: list[str] = []
        self.used: set[str] = set()
        self.x, self.y = PAD, PAD
        self.line_used = False
        self.row: list[_Cell] | None = None
        self.cell: _Cell | None = None
        self.count_for_icon = False
        self.spoken: list[str] = []  # the words of the part, as a screen reader hears them

    # -- reading --------------------------------------------------------------------------

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        if self.depth == 0:
            if self.part <= classes:
                self.depth = 1
                self.stack.append((tag, classes | ({"open"} if "open" in attributes else set()),
                                   False, False))
            return
        if tag in VOID:
            return
        hidden = bool(self.stack and self.stack[-1][2]) or "sr-only" in classes or (
            self.stack and self.stack[-1][0] == "details" and self.stack[-1][1].isdisjoint(
                {"open"}) and tag != "summary")
        if tag == "details" and "open" in attributes:
            classes = classes | {"open"}
        # What a screen reader skips (a picture's twin of words said beside it).
        silent = bool(self.stack and self.stack[-1][3]) or attributes.get("aria-hidden") == "true"
        self.depth += 1
        self.stack.append((tag, classes, hidden, silent))
        if attributes.get("role") == "img" and attributes.get("aria-label") and not silent:
            self.spoken.append(attributes["aria-label"])
        if hidden:
            return
        if attributes.get("role") == "row":
            self._break()
            self.row = []
        elif attributes.get("role") == "gridcell" and self.row is not None:
            background = next((_colour(_class_styles().get(name, {}).get("background"))
                               for name in sorted(classes) if name.startswith("cv-k-")), None)
            self.cell = _Cell(background or ("#dcedc8" if "cv-f" in classes else "#d7ccc8"))
        elif tag in BLOCKS:
            self._break()
        elif tag == "use" and (href := attributes.get("href", "")).partition("#")[2]:
            self._icon(href.partition("#")[2])

    def handle_endtag(self, tag):
        if self.depth == 0 or tag in VOID:
            return
        while self.stack:
            opened, classes, hidden, _ = self.stack.pop()
            self.depth -= 1
            if not hidden:
                if "cv-cell" in classes and self.cell is not None and self.row is not None:
                    self.row.append(self.cell)
                    self.cell = None
                elif self.row is not None and "cv-row" in classes:
                    self._draw_row(self.row)
                    self.row = None
                elif opened in BLOCKS:
                    self._break()
            if opened == tag:
                break

    def handle_data(self, data):
        if self.depth == 0:
            return
        words = data.split()
        if not words:
            return
        tags = [entry[0] for entry in self.stack]
        if not self.stack[-1][3]:
            self.spoken.extend(words)
        if self.stack[-1][2]:
            return
        if self.cell is not None:
            self.cell.texts.extend(words)
            if self.count_for_icon and self.cell.icons:
                symbol, colour, _ = self.cell.icons[-1]
                self.cell.icons[-1] = (symbol, colour, " ".join(words))
            return
        classes = set().union(*(entry[1] for entry in self.stack))
        count = self.count_for_icon and tags[-1] == "b"
        colour = (_seat_colour(classes) if "tag" in classes else None) or (
            MUTED if classes & {"muted", "sa-muted", "cv-muted", "j"} else None) or (
            _kind_colour(classes) or TEXT_COLOUR)
        bold = bool({"strong", "b", "h3", "summary"} & set(tags)) or "tag" in classes
        size = FONT - 2 if count or "small" in tags else FONT
        for word in words:
            self._word(word, colour, bold, size, tight=count)
        self.count_for_icon = False

    # -- drawing --------------------------------------------------------------------------

    def _break(self) -> None:
        if self.line_used:
            self.y += LINE
        self.x, self.line_used = PAD, False

    def _room(self, width: float) -> None:
        if self.x + width > WIDTH - PAD and self.line_used:
            self._break()

    def _icon(self, symbol: str) -> None:
        if symbol not in _symbols():
            return
        classes = self.stack[-2][1] if len(self.stack) > 1 else set()
        # A figure inside a player's tag (white on the seat colour on the page) takes the seat
        # colour: the picture draws no tag behind it.
        tagged = next((_seat_colour(entry[1]) for entry in reversed(self.stack)
                       if "tag" in entry[1]), None)
        colour = _seat_colour(classes) or _kind_colour(classes) or tagged or TEXT_COLOUR
        self.used.add(symbol)
        self.count_for_icon = True
        if self.cell is not None:
            self.cell.icons.append((symbol, colour, ""))
            return
        self._room(ICON)
        self.svg.append(f'<use href="#{symbol}" x="{self._placed(self.x, ICON):.0f}" '
                        f'y="{self.y + 2:.0f}" '
                        f'width="{ICON}" height="{ICON}" color="{colour}"/>')
        self.x += ICON + 1
        self.line_used = True

    def _word(self, word: str, colour: str, bold: bool, size: int, tight: bool) -> None:
        width = _text_width(word, size, bold)
        if not tight and self.line_used:
            self.x += size * 0.32
        self._room(width)
        weight = ' font-weight="bold"' if bold else ""
        # Laid out by estimated widths: textLength makes the word take exactly that room.
        self.svg.append(f'<text x="{self._placed(self.x, width):.1f}" y="{self.y + 16:.0f}" '
                        f'font-size="{size}" '
                        f'fill="{colour}"{weight} textLength="{width:.1f}" '
                        f'lengthAdjust="spacingAndGlyphs">{escape(word)}</text>')
        self.x += width
        self.line_used = True

    def _placed(self, x: float, width: float) -> float:
        """Where something laid out at `x` (from the line's start) is drawn."""
        return WIDTH - x - width if self.rtl else x

    def _draw_row(self, cells: list[_Cell]) -> None:
        self._break()
        columns = max(len(cells), 6)
        width = (WIDTH - 2 * PAD) / columns
        height = 3 * LINE
        for index, cell in enumerate(cells):
            x = self._placed(PAD + index * width, width)
            self.svg.append(f'<rect x="{x + 1:.0f}" y="{self.y:.0f}" width="{width - 2:.0f}" '
                            f'height="{height - 2}" rx="3" fill="{cell.background}"/>')
            name = " ".join(cell.texts[1:]) if cell.texts[:1] and cell.texts[0].startswith(
                "(") else " ".join(cell.texts)
            # A cell's words start at its right edge in a right-to-left language.
            start, anchor = (x + width - 3, ' text-anchor="end"') if self.rtl else (x + 3, "")
            for number, part in enumerate(textwrap.wrap(name, 12, break_long_words=True)[:2]):
                if part:
                    self.svg.append(f'<text x="{start:.0f}" y="{self.y + 13 + 12 * number:.0f}" '
                                    f'font-size="10" fill="{TEXT_COLOUR}"{anchor}>'
                                    f'{escape(part)}</text>')
            for place, (symbol, colour, count) in enumerate(cell.icons[:3]):
                left = (x + width - 3 - (place + 1) * (ICON + 6) + 6 if self.rtl
                        else x + 3 + place * (ICON + 6))
                self.svg.append(f'<use href="#{symbol}" x="{left:.0f}" y="{self.y + 38:.0f}" '
                                f'width="{ICON - 2}" height="{ICON - 2}" color="{colour}"/>')
                if count:
                    self.svg.append(f'<text x="{left + ICON - 3:.0f}" y="{self.y + 54:.0f}" '
                                    f'font-size="9" font-weight="bold" fill="{TEXT_COLOUR}">'
                                    f'{escape(count)}</text>')
        self.y += height
        self.x, self.line_used = PAD, False

    def document(self) -> tuple[str, int]:
        self._break()
        height = min(int(self.y) + PAD, MAX_HEIGHT)
        symbols = "".join(_symbols()[symbol] for symbol in sorted(self.used))
        return (f'<svg xmlns="{SVG_NS}" width="{WIDTH}" height="{height}" '
                f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, sans-serif">'
                f'<defs>{symbols}</defs><rect width="100%" height="100%" fill="#fbf7ef"/>'
                f'{"".join(self.svg)}</svg>', height)


def board_svg(engine_slug: str, board_html: str) -> tuple[str, int, str] | None:
    """The player's part of a rendered board as (SVG, height, the words it shows), laid out in
    the active language's direction; None when the engine's board has no part of its own for
    the player."""
    part = PLAYER_PART.get(engine_slug)
    if part is None:
        return None
    drawing = _Drawing(part, rtl=get_language_bidi())
    drawing.feed(board_html)
    drawing.close()
    if not drawing.svg:
        return None
    svg, height = drawing.document()
    return svg, height, " ".join(drawing.spoken)


def board_html(game, seat_number: int) -> str:
    """The game page's board for this seat, from the page's own template."""
    from games import selectors
    from games.presentation import summaries

    names = summaries.seat_names(game)
    view = selectors.rendered_view(game, seat_number, language=None, names=names)
    return render_to_string(f"games/boards/{game.engine}.html", {
        "view": view, "game": game, "seat": None, "legal_actions": [], "seat_names": names,
        "cards_url": ""})


def rasterize(svg: str) -> bytes:
    """The SVG as a PNG of at most MAX_BYTES: the sharpest of ZOOMS that fits."""
    for zoom in ZOOMS:
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom))
        if len(png) <= MAX_BYTES:
            return png
    raise ValueError(f"the board picture takes {len(png)} bytes even at zoom {ZOOMS[-1]}")


def board_picture(game, seat_number: int) -> BoardPicture | None:
    """The player's board as a PNG with its text alternative, or None for an engine whose
    board has no part of the player's own."""
    if game.engine not in PLAYER_PART:
        return None
    drawn = board_svg(game.engine, board_html(game, seat_number))
    if drawn is None:
        return None
    svg, height, words = drawn
    summary = words if len(words) <= 240 else words[:239].rsplit(" ", 1)[0] + "…"
    alt = gettext("Your board in %(game)s: %(summary)s") % {"game": game.title,
                                                             "summary": summary}
    return BoardPicture(png=rasterize(svg), alt=alt, width=WIDTH, height=height)
