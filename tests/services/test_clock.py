"""Playing time and deadlines around vacations."""

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from games.services.clocks import deadline_after, playing_time

T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)
DAY = timedelta(days=1)


def test_without_pauses_the_deadline_is_start_plus_budget():
    assert deadline_after(T0, DAY) == T0 + DAY


def test_a_vacation_inside_the_turn_pushes_the_deadline_by_its_length():
    vacation = (T0 + timedelta(hours=6), T0 + timedelta(days=3, hours=6))
    assert deadline_after(T0, DAY, [vacation]) == T0 + DAY + timedelta(days=3)


def test_a_turn_starting_during_a_vacation_starts_counting_when_it_ends():
    vacation = (T0 - DAY, T0 + timedelta(hours=2))
    assert deadline_after(T0, DAY, [vacation]) == T0 + timedelta(hours=2) + DAY


def test_a_vacation_after_the_deadline_changes_nothing():
    assert deadline_after(T0, DAY, [(T0 + 2 * DAY, T0 + 3 * DAY)]) == T0 + DAY


def test_overlapping_pauses_count_once():
    pauses = [(T0 + timedelta(hours=1), T0 + timedelta(hours=5)),
              (T0 + timedelta(hours=3), T0 + timedelta(hours=9))]
    assert deadline_after(T0, DAY, pauses) == T0 + DAY + timedelta(hours=8)
    assert playing_time(T0, T0 + DAY, pauses) == DAY - timedelta(hours=8)


pause = st.tuples(st.integers(-100, 200), st.integers(1, 100)).map(
    lambda p: (T0 + timedelta(hours=p[0]), T0 + timedelta(hours=p[0] + p[1]))
)


@given(budget_hours=st.integers(0, 400), pauses=st.lists(pause, max_size=5))
def test_playing_time_until_the_deadline_is_the_budget(budget_hours, pauses):
    budget = timedelta(hours=budget_hours)
    deadline = deadline_after(T0, budget, pauses)
    assert deadline >= T0 + budget
    assert playing_time(T0, deadline, pauses) == budget
