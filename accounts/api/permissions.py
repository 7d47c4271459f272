"""Token scopes on API requests: reading needs `read`, writing needs `play` unless the view says
otherwise (`write_scope = "chat"` on chat and reports, `read_scope` / `write_scope = "manage"`
on tokens, webhooks and account settings). Browser sessions have every scope."""

from __future__ import annotations

from django.utils.translation import gettext
from rest_framework.permissions import SAFE_METHODS, BasePermission

from accounts.tokens import has_scope
from games.exceptions import GameError


class InsufficientScope(GameError):
    code = "insufficient_scope"
    status = 403


def require_scope(auth, scope: str | None) -> None:
    """Refuses credentials without `scope` (None: nothing to check) with 403 insufficient_scope."""
    if scope is None or has_scope(auth, scope):
        return
    raise InsufficientScope(gettext(
        "This token lacks the '%(scope)s' scope needed here; make a "
                            "token with it on your account page.") % {"scope": scope},
                            details={"required_scope": scope})


class TokenScopeRequired(BasePermission):
    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            require_scope(request.auth, getattr(view, "read_scope", "read"))
        else:
            require_scope(request.auth, getattr(view, "write_scope", "play"))
        return True
