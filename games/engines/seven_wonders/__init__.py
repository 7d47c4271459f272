"""7 Wonders (base game, first edition) for 2–7 players: simultaneous secret picks; two
players play the variant with the Free City."""

from .engine import SevenWondersEngine

engine = SevenWondersEngine()

__all__ = ["SevenWondersEngine", "engine"]
