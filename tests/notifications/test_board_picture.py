"""The turn email shows the player's board: a PNG drawn from the game page's board template,
attached inline (Content-ID) and shown by the HTML part with its text alternative."""

from __future__ import annotations

import hashlib
import re
import struct
import zlib
from html import unescape

import pytest
from django.utils import timezone

from games import services as game_services
from games.engines.registry import get_engine
from games.models import ActionSource, Game
from games.presentation.board import SEAT_COLOURS
from notifications import board_picture
from notifications.models import NotificationKind
from notifications.rendering import build_email
from notifications.services import notify
from tests.factories import committed, started_game
from tests.notifications.email_play import confirmed_player, started

pytestmark = pytest.mark.django_db

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Samples per pixel by PNG colour type (greyscale, RGB, palette, grey+alpha, RGBA).
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def decoded_png(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, the filtered scanlines) of an 8-bit non-interlaced PNG: every chunk's CRC
    checked and the image data inflated, so a broken file fails here."""
    assert data[:8] == PNG_SIGNATURE
    position, chunks = 8, []
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        (crc,) = struct.unpack(">I", data[position + 8 + length:position + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in {kind!r}"
        chunks.append((kind, body))
        position += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (depth, interlace) == (8, 0)
    pixels = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    assert len(pixels) == height * (1 + width * CHANNELS[colour_type])
    return width, height, pixels


def played(engine_slug: str, players: int, moves: int):
    """A game some moves in, every seat choosing as the engine's bot would, on the page."""
    game, users = started(engine_slug, players, seed=f"picture-{engine_slug}")
    engine = get_engine(engine_slug)
    for _ in range(moves):
        game = Game.objects.get(pk=game.pk)
        if game.status != "active":
            break
        seat = engine.active_seats(game.state)[0]
        with committed():
            game_services.game_action_submit(
                game_id=game.pk, user=users[seat], action=engine.bot_action(game.state, seat),
                expected_version=game.version, source=ActionSource.WEB)
    return Game.objects.get(pk=game.pk), users


def turn_email(game, user):
    seat = game.seats.get(user=user)
    notification = notify(user=user, kind=NotificationKind.YOUR_TURN, game=game,
                          seat_number=seat.number)
    return build_email(notification, timezone.now()).message()


@pytest.mark.parametrize(("engine_slug", "players", "moves"), [
    ("stone_age", 2, 12), ("seven_wonders", 3, 9), ("caverna", 2, 10)])
def test_the_turn_email_shows_the_players_board_inline(engine_slug, players, moves, tmp_path):
    game, users = played(engine_slug, players, moves)
    player = users[0]
    message = turn_email(game, player)

    assert message.get_content_type() == "multipart/related"
    images = [part for part in message.walk() if part.get_content_type() == "image/png"]
    assert len(images) == 1
    image = images[0]
    content_id = image["Content-ID"].strip("<>")
    assert image.get_content_disposition() == "inline"
    html = next(part for part in message.walk() if part.get_content_type() == "text/html")
    html = html.get_payload(decode=True).decode()
    tag = re.search(r'<img src="cid:([^"]+)" alt="([^"]+)"', html)
    assert tag and tag.group(1) == content_id
    alt = unescape(tag.group(2))
    assert alt.startswith(f"Your board in {game.title}: ") and len(alt) > 40
    # The text part says the same in words.
    text = next(part for part in message.walk() if part.get_content_type() == "text/plain")
    assert alt in text.get_payload(decode=True).decode()

    png = image.get_payload(decode=True)
    assert len(png) <= board_picture.MAX_BYTES
    width, height, pixels = decoded_png(png)
    assert width >= board_picture.WIDTH * min(board_picture.ZOOMS) and height > 60
    (tmp_path / f"{engine_slug}.png").write_bytes(png)
    print(f"{engine_slug}: {len(png)} bytes, {width}x{height}")


@pytest.mark.parametrize(("engine_slug", "players", "moves", "figure"), [
    ("stone_age", 2, 12, "person"), ("seven_wonders", 3, 9, "disc"), ("caverna", 2, 10, "dwarf")])
def test_the_picture_is_one_svg_with_its_symbols_and_the_players_colour(
        engine_slug, players, moves, figure, tmp_path):
    game, users = played(engine_slug, players, moves)
    seat = game.seats.get(user=users[0]).number
    svg, height, words = board_picture.board_svg(
        engine_slug, board_picture.board_html(game, seat))
    # Self-contained: every icon used is a symbol of the document, nothing outside is named,
    # no class is left for a stylesheet the rasterizer does not have.
    used = set(re.findall(r'<use href="#([\w-]+)"', svg))
    assert used and used <= set(re.findall(r'<symbol [^>]*\bid="([\w-]+)"', svg))
    assert "icons.svg" not in svg and "class=" not in svg
    # The player's own figure in the player's seat colour.
    assert f'href="#{figure}"' in svg
    assert f'color="{SEAT_COLOURS[seat]}"' in svg
    assert words and 0 < height <= board_picture.MAX_HEIGHT
    (tmp_path / f"{engine_slug}.svg").write_text(svg)


def test_a_board_without_a_part_of_the_players_own_gives_no_picture():
    assert board_picture.board_svg("toy", "<div><p>Seat 0: 3</p></div>") is None
    game, users = started("toy", 2)
    message = turn_email(game, users[0])
    assert not [part for part in message.walk() if part.get_content_maintype() == "image"]


def test_a_picture_past_the_size_limit_at_every_zoom_is_refused():
    # Noise does not compress: too big at every zoom.
    noise = "".join(f'<rect x="{x}" y="{y}" width="4" height="4" '
                    f'fill="#{hashlib.sha256(f"{x},{y}".encode()).hexdigest()[:6]}"/>'
                    for x in range(0, 600, 4) for y in range(0, 400, 4))
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400">{noise}</svg>'
    with pytest.raises(ValueError, match="bytes even at zoom"):
        board_picture.rasterize(svg)



def _line_of_words(svg: str) -> list[tuple[float, str]]:
    """(x, word) of the flowing words of the picture's first line that holds two or more."""
    lines: dict[str, list[tuple[float, str]]] = {}
    for x, y, word in re.findall(r'<text x="([\d.]+)" y="(\d+)" font-size="\d+" [^>]*'
                                 r'textLength="[\d.]+"[^>]*>([^<]+)</text>', svg):
        lines.setdefault(y, []).append((float(x), unescape(word)))
    return next(words for words in lines.values() if len(words) >= 2)


@pytest.mark.parametrize(("language", "right_to_left"), [("en", False), ("fa", True)])
def test_a_right_to_left_language_is_laid_out_from_the_right(language, right_to_left):
    from django.utils import translation

    game, users = played("stone_age", 2, 6)
    seat = game.seats.get(user=users[0]).number
    with translation.override(language):
        svg, _, _ = board_picture.board_svg("stone_age", board_picture.board_html(game, seat))
    words = _line_of_words(svg)  # in reading order
    first, second = words[0][0], words[1][0]
    assert (first > second) == right_to_left, words


def test_the_email_of_several_games_shows_each_games_board_by_its_own_picture():
    from notifications.rendering import turns_message

    player = confirmed_player()
    rows = []
    for engine_slug in ("stone_age", "caverna"):
        people = iter([player])
        game, _ = started_game(2, engine=engine_slug, seed="several",
                               make_user=lambda people=people: next(people, None)
                               or confirmed_player())
        seat = game.seats.get(user=player).number
        engine = get_engine(engine_slug)
        while seat not in engine.active_seats(game.state):  # the others move up to the player
            other = engine.active_seats(game.state)[0]
            with committed():
                game_services.game_action_submit(
                    game_id=game.pk, user=game.seats.get(number=other).user,
                    action=engine.bot_action(game.state, other), expected_version=game.version,
                    source=ActionSource.WEB)
            game = Game.objects.get(pk=game.pk)
        rows.append(notify(user=player, kind=NotificationKind.YOUR_TURN, game=game,
                           seat_number=seat))
    message = turns_message(player, rows, timezone.now(), "<several@turnpost>").message()
    images = [part for part in message.walk() if part.get_content_type() == "image/png"]
    assert len(images) == 2
    html = next(part for part in message.walk() if part.get_content_type() == "text/html")
    html = html.get_payload(decode=True).decode()
    shown = re.findall(r'<img src="cid:([^"]+)" alt="([^"]+)"', html)
    assert sorted(cid for cid, _ in shown) == sorted(
        image["Content-ID"].strip("<>") for image in images)
    for row, (_, alt) in zip(rows, shown, strict=True):
        assert unescape(alt).startswith(f"Your board in {row.game.title}: ")
    for image in images:
        assert len(image.get_payload(decode=True)) <= board_picture.MAX_BYTES
        decoded_png(image.get_payload(decode=True))

