"""Token scopes on API requests: reading needs `read`, writing needs `play` unless the view says
otherwise (`write_scope = "chat"` on chat and reports). Browser sessions have every scope."""

from __future__ import annotations

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
        raise InsufficientScope(f"This token lacks the '{scope}' scope needed here; make a "
                                f"token with it on your account page.",
                                details={"required_scope": scope})
