"""The boards' pictures: every component of every engine is drawn with symbols the sprite has,
the sprite has no symbol nobody names, and every picture on a rendered board has a text
alternative (a name of its own, or words beside it)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from games.engines.caverna import data as caverna
from games.engines.caverna.engine import engine as caverna_engine
from games.engines.seven_wonders import data as seven_wonders
from games.engines.seven_wonders.engine import engine as seven_wonders_engine
from games.engines.stone_age import data as stone_age
from games.engines.stone_age.engine import engine as stone_age_engine
from games.presentation import drawing
from tests.engines.boards import played_until, render_board

SPRITE = Path(__file__).resolve().parents[1] / "static" / "games" / "icons.svg"


def symbols_of(pieces: list[dict]) -> set[str]:
    return {piece["symbol"] for piece in pieces}


def test_the_sprite_holds_exactly_the_symbols_the_drawings_name():
    ids = re.findall(r'<symbol id="([^"]+)"', SPRITE.read_text())
    assert len(ids) == len(set(ids))
    assert set(ids) == drawing.SYMBOLS


def test_every_seven_wonders_card_and_wonder_stage_is_drawn():
    for card_id, card in seven_wonders.CARDS.items():
        drawn = drawing.seven_wonders_card(card_id)
        assert drawn["effect"], card_id
        assert symbols_of(drawn["cost"] + drawn["effect"]) <= drawing.SYMBOLS, card_id
        # A cost as the card prints it: one icon per resource, the coins as one coin and a count.
        resources = sum(piece.get("n", 1) for piece in drawn["cost"] if piece["symbol"] != "coin")
        assert resources == sum(card["cost"].values()), card_id
        for later in drawn["chains_to"]:
            assert card["name"] in seven_wonders.CARDS[later]["chain_from"]
    assert drawing.seven_wonders_card("lumber_yard_1")["chains_to"] == []
    assert "forum_2" in drawing.seven_wonders_card("east_trading_post_1")["chains_to"]
    for wonder_id, wonder in seven_wonders.WONDERS.items():
        for side, stages in wonder["sides"].items():
            for number in range(1, len(stages) + 1):
                drawn = drawing.seven_wonders_stage(wonder_id, side, number)
                assert drawn["cost"] and drawn["effect"], (wonder_id, side, number)
                assert symbols_of(drawn["cost"] + drawn["effect"]) <= drawing.SYMBOLS


def test_every_stone_age_card_building_and_place_is_drawn():
    for card_id in stone_age.CARDS:
        drawn = drawing.stone_age_card(card_id)
        assert drawn["top"] and drawn["bottom"], card_id
        assert symbols_of(drawn["top"] + drawn["bottom"]) <= drawing.SYMBOLS, card_id
    assert drawing.stone_age_card("civ_11")["green"]  # Pottery: a culture card
    assert drawing.stone_age_card("civ_17")["bottom"] == [{"symbol": "farmer", "n": 2}]
    # Each of the eight culture symbols has a picture of its own, and every green card shows
    # its own symbol.
    cultures = {card_id: card["bottom"]["culture"] for card_id, card in stone_age.CARDS.items()
                if "culture" in card["bottom"]}
    assert set(cultures.values()) == set(stone_age.CULTURE_SYMBOLS)
    for card_id, culture in cultures.items():
        assert drawing.stone_age_card(card_id)["bottom"] == [{"symbol": f"culture_{culture}"}]
    sprite = SPRITE.read_text()
    drawn = {re.search(rf'<symbol id="culture_{culture}"[^>]*>(.*?)</symbol>', sprite)[1]
             for culture in stone_age.CULTURE_SYMBOLS}
    assert len(drawn) == len(stone_age.CULTURE_SYMBOLS)
    for building_id, building in stone_age.BUILDINGS.items():
        drawn = drawing.stone_age_building(building_id)
        assert drawn and symbols_of(drawn) <= drawing.SYMBOLS, building_id
        if building["cost"]["type"] == "fixed":
            assert len(drawn) == sum(building["cost"]["resources"].values())
    assert set(drawing.STONE_AGE_PLACES.values()) <= drawing.SYMBOLS


def test_every_caverna_good_and_furnishing_cost_is_drawn():
    goods = set(caverna_engine.text_catalog.names["good"])
    assert symbols_of(drawing.caverna_pieces(dict.fromkeys(goods, 1))) <= drawing.SYMBOLS
    for tile in caverna.TILES.values():
        assert symbols_of(drawing.caverna_pieces(tile["cost"])) <= drawing.SYMBOLS


class Pictures(HTMLParser):
    """Each picture (.pic) of a page: whether it is named, or hidden and what words surround it."""

    def __init__(self):
        super().__init__()
        self.unnamed: list[str] = []
        self.count = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "pic" not in (attributes.get("class") or "").split():
            return
        self.count += 1
        named = attributes.get("role") == "img" and (attributes.get("aria-label") or "").strip()
        if not named and attributes.get("aria-hidden") != "true":
            self.unnamed.append(self.get_starttag_text())


@pytest.mark.parametrize(("engine", "players", "steps"), [
    (seven_wonders_engine, 3, 30), (stone_age_engine, 3, 40), (caverna_engine, 3, 60)])
def test_every_picture_on_a_board_is_named_or_hidden_beside_words(engine, players, steps):
    moves = iter(range(steps))
    state = played_until(engine, engine.new_game(players, f"drawing-{engine.slug}"),
                         lambda state: next(moves, None) is None)
    for viewer in (0, None):
        html = render_board(engine.slug, engine.view(state, viewer), seat=viewer)
        pictures = Pictures()
        pictures.feed(html)
        assert pictures.count >= 15, (engine.slug, viewer, pictures.count)
        assert pictures.unnamed == [], pictures.unnamed[:3]
        # Icons themselves are never announced: their picture or the words beside them are.
        assert not re.search(r'<svg class="i[^"]*"(?![^>]*aria-hidden="true")', html)


def test_players_colours_are_the_seat_colours_everywhere():
    from games.presentation.board import SEAT_COLOURS

    css = (SPRITE.parents[0] / "board.css").read_text()
    found = dict(re.findall(r"\.seat-c(\d) \{ --seat: (#[0-9a-f]{6}); \}", css))
    assert [found[str(seat)] for seat in range(len(SEAT_COLOURS))] == list(SEAT_COLOURS)
    # The boards paint players only through those classes, never colours of their own.
    boards = Path(__file__).resolve().parents[1] / "templates" / "games" / "boards"
    for template in boards.glob("*.html"):
        assert not re.search(r"(sa|cv)-seat-|<style", template.read_text()), template.name


def test_a_civilization_card_names_its_culture_symbol_on_the_board_and_in_the_cards_dialog():
    from django.template.loader import render_to_string

    card = {"id": "civ_11", "name": "Pottery card", "top": "7 food", "bottom": "green: pottery"}
    board = render_board("stone_age", {**stone_age_engine.view(
        stone_age_engine.new_game(2, "drawing-culture"), 0)}, seat=0)
    assert re.search(r'role="img" aria-label="green: [a-z]+"><svg[^>]*><use href="[^"]*#culture_',
                     board)
    dialog = render_to_string("games/_player_cards.html", {
        "game": {"engine": "stone_age"}, "p": {"seat": 1, "cards": [card]}, "name": "Ann"})
    assert re.search(r'aria-label="green: pottery"><svg[^>]*><use href="[^"]*#culture_pottery"',
                     dialog)
    assert "Pottery card" in dialog


def test_the_pictures_count_in_the_readers_digits():
    """Rows of pieces are built once per process: each language keeps its own."""
    from django.utils import translation

    state = stone_age_engine.new_game(2, "drawing-digits")
    view = stone_age_engine.view(state, 0)
    with translation.override("fa"):
        persian = render_board("stone_age", view, seat=0)
    english = render_board("stone_age", view, seat=0)
    assert '<span class="q">' in english and re.search(r'<b>۱۲</b>', persian)
    assert re.search(r"<b>12</b>", english) and not re.search(r"<b>[۰-۹]+</b>", english)


def test_a_furnishing_tile_on_the_home_board_has_its_colour_points_and_effect():
    assert drawing.caverna_tile("couple_dwelling") == {
        "tag": "orange", "points": 5, "effect": [{"symbol": "dwarf"}, {"symbol": "dwarf"}]}
    assert drawing.caverna_tile("ore_storage")["effect"] == [
        {"symbol": "points", "n": 1}, {"symbol": "ore", "joiner": "/", "n": 2}]
    beer = drawing.caverna_tile("beer_parlor")["effect"]
    assert [piece.get("joiner", "") for piece in beer] == ["", "→", "/"]
    for tile_id, tile in caverna.TILES.items():
        drawn = drawing.caverna_tile(tile_id)
        assert drawn["tag"] == tile["tag"] and drawn["points"] == tile["points"]
        assert symbols_of(drawn["effect"]) <= drawing.SYMBOLS, tile_id
    # On a rendered home board a furnished cave is a tile of its colour, its effect named.
    state = caverna_engine.new_game(2, "drawing-tile")
    state["players"][0]["cells"][9] = {**state["players"][0]["cells"][9], "k": "room",
                                       "tile": "couple_dwelling"}
    html = render_board("caverna", caverna_engine.view(state, 0), seat=0)
    cell = re.search(r'cv-k-room cv-tag-orange".*?</div></div>', html, re.S)
    assert cell and re.search(r'<span class="pic" role="img" aria-label="[^"]+">(<svg[^>]*>'
                              r'<use href="[^"]*#dwarf"></use></svg>){2}</span>', cell[0])
    assert 'aria-label="5 pts"' in cell[0]


def test_the_cards_in_a_seven_wonders_hand_draw_their_choices_with_their_words():
    assert drawing.seven_wonders_option({"type": "discard", "card": "lumber_yard_1"}) == [
        {"symbol": "discard"}, {"symbol": "coin", "n": 3, "joiner": "→"}]
    assert drawing.seven_wonders_option(
        {"type": "build", "card": "forum_2", "free": "chain"}) == [
        {"symbol": "card", "colour": "yellow"}, {"symbol": "chain"}]
    assert drawing.seven_wonders_option(
        {"type": "wonder", "card": "forum_2", "pay": {"left": 2, "right": 1}}) == [
        {"symbol": "stage"}, {"symbol": "trade"}, {"symbol": "coin", "n": 3}]
    state = seven_wonders_engine.new_game(3, "drawing-hand")
    legal = seven_wonders_engine.legal_actions(state, 0)
    listed = [{"index": i, "action": action} for i, action in enumerate(legal)]
    html = render_board("seven_wonders", seven_wonders_engine.view(state, 0), seat=0,
                        legal_actions=listed)
    hand = re.search(r'<ul class="cards hand">.*?</ul>', html, re.S)[0]
    options = re.findall(r'<span class="option option-(\w+)"><span class="pic" role="img" '
                         r'aria-label="([^"]+)">', hand)
    assert len(options) == len([a for a in legal if a.get("card")])
    assert {kind for kind, _ in options} >= {"build", "discard"}
    assert all(words.strip() for _, words in options)
    assert "<small class=\"muted\">" not in hand  # no paragraph of words left
    # Without legal actions (a page looking back) the choices stay words.
    looking_back = render_board("seven_wonders", seven_wonders_engine.view(state, 0), seat=0)
    assert 'class="option ' not in looking_back
