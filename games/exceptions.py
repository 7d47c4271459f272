"""Errors the game services raise; each carries a machine-readable code and an HTTP status.

400 is for a request the API's schema refuses (a wrong type, a missing field); a request the
schema allows but the rules refuse (an illegal action, a setup the game does not offer, inviting
oneself, reporting what does not exist) is 422, whatever the schema could not say."""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    code = "game_error"
    status = 400

    def __init__(self, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or {}


class InvalidGameSetup(GameError):
    code = "invalid_game_setup"
    status = 422


class LobbyError(GameError):
    """Joining a full or started game, leaving a running one, starting someone else's…"""

    code = "lobby_error"
    status = 409


class NotAllowed(GameError):
    code = "not_allowed"
    status = 403


class StaleVersion(GameError):
    code = "stale_version"
    status = 409


class IllegalMove(GameError):
    code = "illegal_action"
    status = 422


class GameNotRunning(GameError):
    code = "game_not_running"
    status = 409


class IdempotencyKeyReused(GameError):
    code = "idempotency_key_reused"
    status = 422


class InvalidTransition(GameError):
    code = "invalid_transition"
    status = 409


class ChatError(GameError):
    code = "invalid_message"
    status = 422


class ChatThrottled(GameError):
    code = "throttled"
    status = 429


class ReportError(GameError):
    code = "invalid_report"
    status = 422


class EngineFault(GameError):
    """Engine code failed or left a game that cannot continue. Nothing was saved; the fault is
    logged with the game and the action so it can be mended. Never the player's fault."""

    code = "engine_error"
    status = 500


class InvitationError(GameError):
    code = "invalid_invitation"
    status = 422


class InvitationsThrottled(GameError):
    """The inviter reached the hourly invitation limit (GAME_INVITATIONS_PER_HOUR)."""

    code = "throttled"
    status = 429
