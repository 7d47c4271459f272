"""The only code that changes a game, one module per capability; every change runs in one
transaction with the game row locked. Callers use the names re-exported here."""

from games.services.chat import CHAT_RATE, chat_post, report_create
from games.services.clocks import player_clocks_recompute
from games.services.deadlines import (
    SWEEP_BATCH_SIZE,
    deadlines_due_game_ids,
    deadlines_sweep,
    deadlines_sweep_games,
    reminders_send_due,
    seat_hand_to_bot,
    seat_mark_seen,
    seat_take_back,
)
from games.services.endings import game_abort, game_resign
from games.services.invitations import game_invite, invitation_decline
from games.services.lobby import (
    game_add_bot,
    game_create,
    game_join,
    game_leave,
    game_rematch,
    game_start,
    join_refusal,
)
from games.services.play import (
    game_action_submit,
    game_bot_moves_play,
    game_event_announce,
    game_health_problem,
    game_replay_verify,
    game_resolve,
    game_seat_move_apply,
)
from games.services.steps import SubmitResult
from games.services.undo import game_move_undo

__all__ = [
    "CHAT_RATE",
    "SWEEP_BATCH_SIZE",
    "SubmitResult",
    "chat_post",
    "deadlines_due_game_ids",
    "deadlines_sweep",
    "deadlines_sweep_games",
    "game_abort",
    "game_action_submit",
    "game_add_bot",
    "game_bot_moves_play",
    "game_create",
    "game_event_announce",
    "game_health_problem",
    "game_invite",
    "game_join",
    "game_leave",
    "game_move_undo",
    "game_rematch",
    "game_replay_verify",
    "game_resign",
    "game_resolve",
    "game_seat_move_apply",
    "game_start",
    "invitation_decline",
    "join_refusal",
    "player_clocks_recompute",
    "reminders_send_due",
    "report_create",
    "seat_hand_to_bot",
    "seat_mark_seen",
    "seat_take_back",
]
