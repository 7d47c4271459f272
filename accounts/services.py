"""Player account changes: vacations (which pause the player's clocks in every game), and the
password check behind API token logins (which spends allauth's failed-login allowance)."""

from __future__ import annotations

from datetime import datetime, timedelta

from allauth.account.adapter import get_adapter
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Vacation


class LoginLocked(Exception):
    """Too many failed logins for this account (or from this address) within the window."""


def password_login(request, *, login: str, password: str):
    """The active account that `login` (username or email address) and `password` open, or
    None. Goes through allauth's adapter as the web login form does, so both spend and respect
    the same failed-login allowance (ACCOUNT_RATE_LIMITS["login_failed"]); raises LoginLocked
    while it is used up, even for the right password."""
    login = login.strip()
    credentials = {"username": login}
    if "@" in login:
        credentials["email"] = login
    try:
        user = get_adapter(request).authenticate(request, password=password, **credentials)
    except ValidationError as error:
        if error.code == "too_many_login_attempts":
            raise LoginLocked(str(error.message)) from error
        raise
    if user is None or not user.is_active:
        return None
    return user


class VacationError(Exception):
    """A vacation that cannot be taken; the message says why."""


def _days_in_year(start: datetime, end: datetime, year: int) -> float:
    lower = max(start, datetime(year, 1, 1, tzinfo=start.tzinfo))
    upper = min(end, datetime(year + 1, 1, 1, tzinfo=end.tzinfo))
    return max((upper - lower).total_seconds(), 0) / 86400


def vacation_create(*, user, starts_at: datetime, ends_at: datetime,
                    now: datetime | None = None) -> Vacation:
    """Books a vacation: it may not start in the past, overlap another, or go beyond the
    yearly allowance. The player's running clocks are re-derived at once."""
    from games.services import player_clocks_recompute

    now = now or timezone.now()
    if ends_at <= starts_at:
        raise VacationError(gettext("A vacation must end after it starts."))
    if starts_at < now - timedelta(minutes=5):
        raise VacationError(gettext("A vacation cannot start in the past."))
    allowance = settings.VACATION_DAYS_PER_YEAR
    with transaction.atomic():
        existing = list(Vacation.objects.select_for_update().filter(user=user))
        if any(v.starts_at < ends_at and starts_at < v.ends_at for v in existing):
            raise VacationError(gettext("This overlaps a vacation you already have."))
        for year in range(starts_at.year, ends_at.year + 1):
            used = sum(v.days_in_year(year) for v in existing)
            wanted = _days_in_year(starts_at, ends_at, year)
            if used + wanted > allowance + 1e-9:
                left = max(allowance - used, 0)
                raise VacationError(
                    gettext("That is %(wanted)s days in %(year)s, but only %(left)s of your "
                    "%(allowance)s vacation days are left for that year.")
                        % {"wanted": f"{wanted:.1f}",
                           "year": year,
                           "left": f"{left:.1f}",
                           "allowance": allowance}
                )
        vacation = Vacation.objects.create(user=user, starts_at=starts_at, ends_at=ends_at)
        player_clocks_recompute(user=user, now=now)
    return vacation


def vacation_end(*, user, vacation_id: int, now: datetime | None = None) -> None:
    """Cancels a future vacation, or ends a current one now; clocks resume from now."""
    from games.services import player_clocks_recompute

    now = now or timezone.now()
    with transaction.atomic():
        vacation = Vacation.objects.select_for_update().filter(pk=vacation_id, user=user).first()
        if vacation is None:
            raise VacationError(gettext("There is no such vacation."))
        if vacation.ends_at <= now:
            raise VacationError(gettext("This vacation is already over."))
        if vacation.starts_at >= now:
            vacation.delete()
        else:
            vacation.ends_at = now
            vacation.save(update_fields=["ends_at"])
        player_clocks_recompute(user=user, now=now)


def current_vacation(user, now: datetime | None = None) -> Vacation | None:
    now = now or timezone.now()
    return Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).first()
