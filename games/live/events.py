"""The boundary between games and whoever reacts to them (notifications, later chat).

Services send `game_event` after their transaction commits; receivers must not change games.
"""

from django.dispatch import Signal

#: kwargs: game_id (int), kind (str: "started", "turn", "finished", "aborted", "joined", "left"),
#: seats (list[int]: the seat numbers concerned, e.g. the seats now to act).
game_event = Signal()

#: kwargs: user_id (int), kind (str: "moderation"), text (str: what the player is told).
player_event = Signal()

#: kwargs: timeouts (list of dicts: game (Game), seat (Seat, its user loaded), replaced (bool: a
#: bot took the seat over), timeouts (int: in a row)). Sent by the deadline sweep once per batch
#: of games, inside its transaction, so that receivers write for all the seats at once.
seats_timed_out = Signal()
