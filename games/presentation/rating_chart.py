"""A player's rating over time at one game, drawn as an inline SVG on the server: a line through
the rating after each rated game, the lowest and highest values and the first and last dates
labelled; the page needs no script to show it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from accounts.templatetags.language_tags import localized_digits

WIDTH, HEIGHT = 320, 140
#: Room for the value labels (left), the dates (bottom) and the dots at the edges.
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 10, 24


@dataclass(frozen=True)
class RatingPoint:
    at: datetime
    rating: float


def _rating_text(value: float) -> str:
    return localized_digits(f"{value:.1f}")


def _date_text(moment: datetime) -> str:
    """The day in the reader's time zone and digits."""
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return localized_digits(date_format(moment, "SHORT_DATE_FORMAT"))


def _scale(low: float, high: float) -> tuple[float, float]:
    """The vertical range drawn: the values' own, widened to at least 2 points so that a flat
    series is a line in the middle rather than a jitter stretched to the full height."""
    if high - low < 2:
        middle = (high + low) / 2
        return middle - 1, middle + 1
    return low, high


def rating_chart(points: Sequence[RatingPoint], *, title: str) -> SafeString:
    """The SVG of `points` (oldest first), or "" when there are none. Games are spaced evenly
    (a month without games is not a flat stretch of line); one point is a single dot."""
    if not points:
        return SafeString("")
    ratings = [point.rating for point in points]
    low, high = _scale(min(ratings), max(ratings))
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_width / (len(points) - 1) if len(points) > 1 else 0

    def x(index: int) -> float:
        return LEFT + (index * step if len(points) > 1 else plot_width / 2)

    def y(value: float) -> float:
        return TOP + (high - value) / (high - low) * plot_height

    coordinates = [(round(x(i), 1), round(y(p.rating), 1)) for i, p in enumerate(points)]
    first, last = points[0], points[-1]
    summary = gettext("%(title)s. From %(first)s on %(start)s to %(last)s on %(end)s; lowest "
                      "%(lowest)s, highest %(highest)s.") % {
        "title": title, "first": _rating_text(first.rating), "last": _rating_text(last.rating),
        "lowest": _rating_text(min(ratings)), "highest": _rating_text(max(ratings)),
        "start": _date_text(first.at), "end": _date_text(last.at)}
    grid = format_html_join("", (
        '<line class="grid" x1="{}" y1="{}" x2="{}" y2="{}"/>'
        '<text class="axis" x="{}" y="{}" text-anchor="end" dominant-baseline="middle">{}</text>'),
        ((LEFT, round(y(value), 1), WIDTH - RIGHT, round(y(value), 1), LEFT - 4,
          round(y(value), 1), _rating_text(value))
         for value in dict.fromkeys((max(ratings), min(ratings)))))
    line = (format_html('<polyline class="line" points="{}"/>',
                        " ".join(f"{px},{py}" for px, py in coordinates))
            if len(coordinates) > 1 else "")
    dots = format_html_join("", '<circle class="dot" cx="{}" cy="{}" r="{}"><title>{}</title>'
                                '</circle>',
                            ((px, py, 4 if len(points) == 1 else 2.5,
                              f"{_date_text(point.at)}: {_rating_text(point.rating)}")
                             for (px, py), point in zip(coordinates, points, strict=True)))
    dates = format_html(
        '<text class="axis" x="{}" y="{}" text-anchor="{}">{}</text>',
        LEFT if len(points) > 1 else x(0), HEIGHT - 6, "start" if len(points) > 1 else "middle",
        _date_text(first.at))
    if len(points) > 1:
        dates += format_html('<text class="axis" x="{}" y="{}" text-anchor="end">{}</text>',
                             WIDTH - RIGHT, HEIGHT - 6,
                             _date_text(last.at))
    # The rating now, written beside the last dot (below it when the dot is at the top).
    last_x, last_y = coordinates[-1]
    now = format_html('<text class="value" x="{}" y="{}" text-anchor="{}">{}</text>',
                      last_x, round(last_y - 7 if last_y > TOP + 12 else last_y + 14, 1),
                      "end" if len(points) > 1 else "middle", _rating_text(last.rating))
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {} {}" role="img" aria-label="{}" '
        'xmlns="http://www.w3.org/2000/svg" direction="ltr">{}{}{}{}{}</svg>',
        WIDTH, HEIGHT, summary, grid, line, dots, now, dates)
