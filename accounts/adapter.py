"""django-allauth adapter: failed logins are counted per account, not per typed login, and a
new username may not pass for another player.

allauth's "login_failed" limiter keys its per-key counter on the login string as typed, so
"alice", "ALICE" and "alice@example.com" would each get their own allowance. Keying it on the
account they name means every way of naming one account (web form, API token login, username
or email) spends one shared allowance, and a successful password reset clears that account's
counter. Logins that name no account keep allauth's own key (they cannot succeed anyway).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.utils import filter_users_by_email, filter_users_by_username
from django.conf import settings
from django.contrib.sites.shortcuts import get_current_site
from django.core.exceptions import ValidationError
from django.urls import reverse


def account_for_login(login: str):
    """The one account a login (email address or username) names, or None."""
    login = (login or "").strip()
    if not login:
        return None
    if "@" in login:
        users = filter_users_by_email(login, prefer_verified=True)
        if len(users) == 1:
            return users[0]
    return filter_users_by_username(login).first()


class AccountAdapter(DefaultAccountAdapter):
    def _get_login_attempts_cache_key(self, request, **credentials: Any) -> str:
        login = credentials.get("email") or credentials.get("username") or ""
        account = account_for_login(login)
        if account is None:
            return super()._get_login_attempts_cache_key(request, **credentials)
        return f"{get_current_site(request).domain}:account:{account.pk}"

    def get_email_confirmation_url(self, request, emailconfirmation) -> str:
        """The link in the confirmation email is on SITE_URL, like every other email's links,
        whichever host name the sign-up form happened to be posted to."""
        return settings.SITE_URL + reverse("account_confirm_email", args=[emailconfirmation.key])

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """allauth's emails name the site by its Site row, written once at migration time; they
        name SITE_URL's host instead, so the text says the host its links go to."""
        site = get_current_site(getattr(self, "request", None))
        context = {"current_site": SimpleNamespace(name=site.name,
                                                   domain=urlsplit(settings.SITE_URL).netloc),
                   **context}
        super().send_mail(template_prefix, email, context)

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """allauth's checks (format, case-insensitive uniqueness), then the display-name rules:
        no direction controls or invisible-only names, nothing that looks like another
        player's username or display name ("аlice" with a Cyrillic a next to "alice")."""
        from accounts.models import validate_display_name

        username = super().clean_username(username, shallow=shallow)
        if not shallow:
            try:
                validate_display_name(username)
            except ValidationError as error:
                raise ValidationError(
                    [message.replace("display name", "username") for message in error.messages]
                ) from error
        return username
