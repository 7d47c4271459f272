"""7 Wonders (base game, first edition) for 3–7 players: simultaneous secret picks."""

from .engine import SevenWondersEngine

engine = SevenWondersEngine()

__all__ = ["SevenWondersEngine", "engine"]
