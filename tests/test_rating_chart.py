"""The profile's rating charts: an SVG drawn on the server from each game's rating application
(real ratings, through the rating service), and the chart's empty, one-point and flat cases."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import translation

from games.models import Rating
from games.presentation.rating_chart import HEIGHT, LEFT, RIGHT, WIDTH, RatingPoint, rating_chart
from games.selectors import profiles
from tests.factories import UserFactory
from tests.test_player_pages import finished

DAY = datetime(2026, 3, 1, 12, tzinfo=UTC)


def _points(svg: str) -> list[tuple[float, float]]:
    line = re.search(r'<polyline class="line" points="([^"]+)"', svg)
    return [tuple(map(float, pair.split(","))) for pair in line[1].split()] if line else []


def test_no_points_draw_nothing():
    assert rating_chart([], title="Stone Age") == ""


def test_one_point_is_a_single_dot_in_the_middle_with_its_value_and_date():
    svg = rating_chart([RatingPoint(DAY, 4.25)], title="Stone Age")
    assert svg.startswith("<svg") and "<polyline" not in svg
    assert svg.count("<circle") == 1
    assert f'cx="{LEFT + (WIDTH - LEFT - RIGHT) / 2}"' in svg
    assert ">4.2<" in svg or ">4.3<" in svg
    assert 'role="img"' in svg and "Stone Age" in svg


def test_a_line_rises_and_falls_with_the_ratings_and_stays_inside_the_picture():
    ratings = [0.0, 3.5, 2.0, 7.75, 6.0]
    svg = rating_chart([RatingPoint(DAY + timedelta(days=i), value)
                        for i, value in enumerate(ratings)], title="7 Wonders")
    points = _points(svg)
    assert len(points) == len(ratings) and svg.count("<circle") == len(ratings)
    xs, ys = [x for x, _ in points], [y for _, y in points]
    assert xs == sorted(xs) and xs[0] == LEFT and xs[-1] == WIDTH - RIGHT
    # Higher ratings are drawn higher (a smaller y), the highest at the top, lowest at the bottom.
    assert ys.index(min(ys)) == ratings.index(max(ratings))
    assert ys.index(max(ys)) == ratings.index(min(ratings))
    assert all(0 <= y <= HEIGHT for y in ys)
    assert ">7.8<" in svg and ">0.0<" in svg  # the highest and lowest values are labelled
    assert re.search(r'<text class="value"[^>]*>6\.0</text>', svg)  # and the rating now


def test_a_flat_series_is_a_level_line_not_stretched_noise():
    svg = rating_chart([RatingPoint(DAY, 5.0), RatingPoint(DAY + timedelta(days=1), 5.01)],
                       title="Caverna")
    (_, y1), (_, y2) = _points(svg)
    assert abs(y1 - y2) < 1


def test_names_and_titles_are_escaped_and_persian_reads_persian_digits():
    with translation.override("fa"):
        svg = rating_chart([RatingPoint(DAY, 12.5), RatingPoint(DAY, 14.0)], title="<b>&")
    assert "<b>" not in svg and "&lt;b&gt;&amp;" in svg
    assert "۱۴٫۰" in svg or "۱۴.۰" in svg


@pytest.mark.django_db
def test_the_profile_charts_the_ratings_the_players_really_had():
    alice, bob = UserFactory(), UserFactory()
    finished([alice, bob])
    finished([alice, bob])
    finished([bob, alice])
    history = profiles.rating_history(alice)["toy"]
    # Her rating before the first game, then after each of the three.
    assert len(history) == 4 and history[0].rating == pytest.approx(0.0, abs=0.01)
    assert history[-1].rating == pytest.approx(Rating.objects.get(user=alice).ordinal, abs=0.001)
    assert history[1].rating < history[2].rating  # a second win raised it
    page = Client().get(f"/users/{alice.username}/").content.decode()
    assert page.count('<svg class="rating-chart"') == 1
    drawn = _points(page[page.index('<svg class="rating-chart"'):])
    assert len(drawn) == 4
    # A player without rated games (an unrated game does not count) has no chart.
    carol = UserFactory()
    finished([carol, bob], rated=False)
    assert "rating-chart" not in Client().get(f"/users/{carol.username}/").content.decode()
