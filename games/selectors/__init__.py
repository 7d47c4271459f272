"""Read-only queries for games: who may see what (access), listings (lists), validators
(stamps), one game as shown (views), players' records (profiles)."""

from games.selectors.access import (
    GameAccess,
    can_view,
    game_access,
    seat_of,
    viewer_seat_number,
    visible_to,
)
from games.selectors.lists import (
    SEAT_ORDER,
    game_awaiting_filter,
    game_list,
    game_list_open,
    game_seats,
    user_by_login,
)
from games.selectors.stamps import GameStamp, game_stamp
from games.selectors.views import (
    awaiting_seats,
    chat_lines_for,
    chat_newest,
    game_version_and_seats,
    game_view_for,
    game_with_seats,
    legal_actions_at_version,
    legal_actions_for,
    log_newest,
    rendered_view,
    snapshot,
    vacations_now,
)

__all__ = [
    "SEAT_ORDER",
    "GameAccess",
    "GameStamp",
    "awaiting_seats",
    "can_view",
    "chat_lines_for",
    "chat_newest",
    "game_access",
    "game_awaiting_filter",
    "game_list",
    "game_list_open",
    "game_seats",
    "game_stamp",
    "game_version_and_seats",
    "game_view_for",
    "game_with_seats",
    "legal_actions_at_version",
    "legal_actions_for",
    "log_newest",
    "rendered_view",
    "seat_of",
    "snapshot",
    "user_by_login",
    "vacations_now",
    "viewer_seat_number",
    "visible_to",
]
