"""The board pictures: icons of static/games/icons.svg (`<use href="…#id">`, the sprite cached
by the browser) and the drawings of games.presentation.drawing, each with its text alternative."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from django import template
from django.templatetags.static import static
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from accounts.templatetags.language_tags import localized_digits
from games.engines.texts import text
from games.presentation import drawing
from games.presentation.texts import component_name, render_text

register = template.Library()


@cache
def _sprite() -> str:
    return static("games/icons.svg")


def _svg(symbol: str, classes: str = "") -> str:
    return format_html('<svg class="i{}" aria-hidden="true" focusable="false">'
                       '<use href="{}#{}"></use></svg>', classes, _sprite(), symbol)


#: A piece as its fields: (symbol, count, card colour, joiner).
PieceKey = tuple[str, Any, str, str]


def _key(piece: dict) -> PieceKey:
    return piece["symbol"], piece.get("n"), piece.get("colour", ""), piece.get("joiner", "")


@lru_cache(maxsize=4096)
def _pieces_html(keys: tuple[PieceKey, ...], classes: str, language: str | None) -> str:
    """The HTML of a row of pieces. A board draws the same few hundred pieces on every page
    (in the reader's digits), so each row is built once per process, not once per request."""
    html = []
    for symbol, count, colour, joiner in keys:
        if joiner:
            html.append(format_html('<i class="j{}">{}</i>', " arrow" if joiner == "→" else "",
                                    joiner))
        svg = _svg(symbol, f"{classes} c-{colour}" if colour else classes)
        html.append(svg if count is None else format_html(
            '<span class="q">{}<b>{}</b></span>', svg, localized_digits(count)))
    return mark_safe("".join(html))  # each part is built by format_html


def _piece(piece: dict, classes: str = "") -> str:
    return _pieces_html((_key(piece),), classes, translation.get_language())


def _labelled(inner: str, label: str, classes: str) -> str:
    """A picture with its text alternative; without one it is hidden from assistive
    technology (the words beside it say the same)."""
    if label:
        return format_html('<span class="{}" role="img" aria-label="{}">{}</span>',
                           classes, label, inner)
    return format_html('<span class="{}" aria-hidden="true">{}</span>', classes, inner)


@register.simple_tag
def icon(symbol: str, label: str = "", count=None, seat=None) -> str:
    """One icon ({% icon "wood" label n %}); `seat` paints a figure in that seat's colour."""
    classes = f" fig seat-c{seat}" if seat is not None else ""
    return _labelled(_piece({"symbol": symbol, "n": count}, classes), label, "pic")


@register.simple_tag
def pieces(drawn: list, label: str = "") -> str:
    """A drawing (a list of pieces) labelled with the engine's sentence for it."""
    if not drawn:
        return ""
    return _labelled(_pieces_html(tuple(_key(piece) for piece in drawn), "",
                                  translation.get_language()), label, "pic")


@register.simple_tag
def figures(symbol: str, seat: int, count: int, label: str = "", owner: str = "") -> str:
    """`count` figures (people, dwarfs) in the seat's colour, named "owner: label"; more than
    three are one figure and a count."""
    count = int(count or 0)
    if owner:
        label = f"{owner}: {label}"
    if count > 3:
        inner = format_html("{}<b>{}</b>", _svg(symbol, f" fig seat-c{seat}"),
                            localized_digits(f"×{count}"))
    else:
        inner = format_html_join("", "{}", ((_svg(symbol, f" fig seat-c{seat}"),)
                                            for _ in range(count)))
    return _labelled(inner, label, "pic figs")


@register.filter
def seven_wonders_card(card_id: str) -> dict:
    """The card's drawing, the cards it chains to named in the reader's language."""
    drawn = drawing.seven_wonders_card(card_id)
    return {**drawn, "chains_to": [component_name("seven_wonders", "card", other)
                                   for other in drawn["chains_to"]]}


@register.filter
def seven_wonders_options(card: dict, legal_actions: list) -> list[dict]:
    """A card in hand's choices (build, wonder stage, discard), each drawn and worded (the
    view's own sentence for it). The view words them in the order of the legal actions on
    this card; when the two do not line up (a history page has no legal actions), the words
    alone."""
    actions = [entry.get("action", entry) for entry in legal_actions or ()]
    mine = [action for action in actions if action.get("card") == card["id"]
            and action.get("type") != "discard_build"]
    words = card.get("options") or []
    if len(mine) != len(words):
        return [{"kind": "", "pieces": [], "text": option} for option in words]
    return [{"kind": action["type"], "pieces": drawing.seven_wonders_option(action),
             "text": option} for action, option in zip(mine, words, strict=True)]


@register.simple_tag
def seven_wonders_stage(wonder_id: str, side: str, number: int) -> dict:
    return drawing.seven_wonders_stage(wonder_id, side, number)


@register.filter
def stone_age_card(card_id: str) -> dict:
    return drawing.stone_age_card(card_id)


@register.filter
def stone_age_building(building_id: str) -> list:
    return drawing.stone_age_building(building_id)


@register.filter
def stone_age_place(location_id: str) -> str:
    return drawing.STONE_AGE_PLACES.get(location_id, "")


@register.filter
def caverna_pieces(amounts: dict) -> list:
    return drawing.caverna_pieces(amounts)


@register.filter
def caverna_tile(tile_id: str) -> dict:
    return drawing.caverna_tile(tile_id)


@register.filter
def caverna_amounts(amounts: dict) -> list[dict]:
    """Caverna goods or animals by id with their counts, each its symbol and words ("2 sheep")."""
    return [{"symbol": drawing.CAVERNA_SYMBOLS.get(good, good), "n": n,
             "text": render_text("caverna", text("cv.amount", n=n, good=good))}
            for good, n in (amounts or {}).items() if n]


@register.filter
def caverna_at_home(dwarfs: list) -> int:
    """How many of a player's dwarfs are at home (on no action space): drawn in the cave."""
    return sum(1 for dwarf in dwarfs or () if not dwarf.get("placed_on"))


@lru_cache(maxsize=1024)
def _stone_age_card_html(card_id: str, top: str, bottom: str | None, name: str,
                         language: str | None) -> str:
    drawn = drawing.stone_age_card(card_id)
    bottom_html = ("" if bottom is None else format_html(
        '<span class="sa-card-bottom">{}</span>', pieces(drawn["bottom"], bottom)))
    return format_html('<span class="sa-card{}"><span class="sa-card-top">{}</span>{}{}</span>',
                       " sa-green" if drawn["green"] and bottom is not None else "",
                       pieces(drawn["top"], top), bottom_html,
                       format_html("<small>{}</small>", name) if name else "")


@register.simple_tag
def stone_age_card_face(card: dict, named: bool = False, bottom: bool = True) -> str:
    """A civilization card drawn from its view ({"id", "name", "top", "bottom"}): what it gives
    on top, its culture symbol or multiplier below (each with the engine's words as its text
    alternative), its name under it when `named`; `bottom=False` draws the top alone (a card
    lying face up shows what it gives, nothing more). Card faces never change, so each is
    built once per language and process."""
    return _stone_age_card_html(card["id"], card["top"], card["bottom"] if bottom else None,
                                card["name"] if named else "", translation.get_language())


# ----- 7 Wonders cities, built in Python -------------------------------------------------------
# A seven-player board draws some seventy built cards and twenty wonder stages; through the
# template language each costs dozens of variable lookups and tag calls. Card faces and stages
# never change, so each is built once per language and process from its words.


@lru_cache(maxsize=2048)
def _built_card_html(card_id: str, colour: str, name: str, effect: str,
                     language: str | None) -> str:
    drawn = seven_wonders_card(card_id)
    chain = ""
    if drawn["chains_to"]:
        words = translation.gettext("gives free %(cards)s") % {
            "cards": " / ".join(str(other) for other in drawn["chains_to"])}
        chain = format_html('<span class="chain">{}<span class="sr-only">{}</span></span>',
                            icon("chain"), words)
    return format_html('<li class="built-card c-{}"><span class="name">{}</span>{}{}</li>',
                       colour, name, pieces(drawn["effect"], effect), chain)


@register.simple_tag
def seven_wonders_tableau(cards_by_colour: dict) -> str:
    """A city's built cards, colour by colour: each its name, its effect drawn and named, and
    a chain mark naming the cards it makes free."""
    language = translation.get_language()
    return mark_safe("".join(  # each part is built by format_html
        _built_card_html(card["id"], colour, str(card["name"]), str(card["effect"]), language)
        for colour, cards in cards_by_colour.items() for card in cards))


@lru_cache(maxsize=1024)
def _stage_html(wonder_id: str, side: str, number: int, built: bool, next_for_you: bool,
                cost: str, effect: str, language: str | None) -> str:
    drawn = drawing.seven_wonders_stage(wonder_id, side, number)
    done = format_html('<span class="done">✔<span class="sr-only"> {}</span></span>',
                       translation.gettext("built")) if built else ""
    inner = format_html(
        '<span class="stage-head">{}{}{}</span>{}<span class="stage-effect">'
        '<i class="j arrow" aria-hidden="true">→</i>{}</span>',
        icon("stage"), localized_digits(number), format_html(" {}", done) if done else "",
        pieces(drawn["cost"], translation.gettext("Cost: %(cost)s") % {"cost": cost}),
        pieces(drawn["effect"], effect))
    if next_for_you:
        inner = format_html('<div data-target="stage" data-label="{}">{}</div>',
                            translation.gettext("Wonder stage %(number)s") % {"number": number},
                            inner)
    return format_html('<li class="stage{}">{}</li>', " built" if built else "", inner)


@register.simple_tag
def seven_wonders_wonder(city: dict) -> str:
    """A city's wonder board: its stages in order, built or not, each with its cost and effect
    drawn and named; the viewer's next stage is a place to tap."""
    wonder = city.get("wonder") or {}
    if not wonder.get("stages"):
        return ""
    language, built = translation.get_language(), wonder.get("stages_built") or 0
    yours = city.get("role") == "you"
    return format_html('<ol class="wonder">{}</ol>', mark_safe("".join(  # format_html parts
        _stage_html(wonder["id"], wonder.get("side") or "", stage["number"],
                    bool(stage["built"]), yours and stage["number"] == built + 1,
                    str(stage["cost"]), str(stage["effect"]), language)
        for stage in wonder["stages"])))


@register.simple_tag
def seven_wonders_stats(city: dict) -> str:
    """A city's coins, shields and points so far, each drawn with its count and named, and its
    military tokens (their values said once, then drawn)."""
    coins, shields, points = city["coins"], city["shields"], city["points_so_far"]
    html = [
        icon("coin", localized_digits(translation.ngettext(
            "%(counter)s coin", "%(counter)s coins", coins) % {"counter": coins}), coins),
        icon("shield", localized_digits(translation.ngettext(
            "%(counter)s shield", "%(counter)s shields", shields) % {"counter": shields}),
             shields),
        icon("points", localized_digits(translation.gettext("points so far: %(points)s")
                                        % {"points": points}), points)]
    if tokens := city.get("tokens"):
        said = " ".join(localized_digits(f"{token:+d}") for token in tokens)
        drawn = "".join(icon("defeat" if token < 0 else "victory", "", token)
                        for token in tokens)
        html.append(format_html('<span class="tokens"><span class="sr-only">{} {} </span>{}'
                                '</span>', translation.gettext("tokens:"), said,
                                mark_safe(drawn)))  # built by format_html
    if city.get("free_build_available"):
        html.append(format_html("<span>{} {}</span>", icon("special"),
                                translation.gettext("free build available")))
    return mark_safe("\n".join(html))  # each part is built by format_html


@register.simple_tag
def seven_wonders_score_line(score_so_far: dict) -> str:
    """A city's points so far by category, named in the reader's language."""
    return " · ".join(f"{component_name('seven_wonders', 'category', category)} "
                      f"{localized_digits(points)}" for category, points in score_so_far.items())
