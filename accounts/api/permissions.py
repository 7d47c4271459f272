"""Token scopes on API requests: reading needs `read`, writing needs `play` unless the view says
otherwise (`write_scope = "chat"` on chat and reports). Browser sessions have every scope."""

from __future__ import annotations

from django.utils.translation import gettext
from rest_framework.permissions import SAFE_METHODS, BasePermission

from accounts.tokens import has_scope
from games.exceptions import GameError


class InsufficientScope(GameError):
    code = "insufficient_scope"
    status = 403


class TokenScopeRequired(BasePermission):
    def has_permission(self, request, view) -> bool:
        writing = request.method not in SAFE_METHODS
        scope = getattr(view, "write_scope", "play") if writing else "read"
        if scope is None or has_scope(request.auth, scope):
            return True
        raise InsufficientScope(gettext(
            "This token lacks the '%(scope)s' scope needed here; make a "
                                "token with it on your account page.") % {"scope": scope},
                                details={"required_scope": scope})
