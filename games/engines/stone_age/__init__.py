"""Stone Age (Hans im Glück, 2008), the complete base game for 2–4 players.

The engine the registry serves is `engine.engine`."""
