"""Caverna: The Cave Farmers (Uwe Rosenberg, 2013) for 1-7 players.

The engine the registry serves is `engine.engine`."""
