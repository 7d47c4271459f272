"""7 Wonders (base game, first edition) for 2–7 players: simultaneous secret picks; two
players play the variant with the Free City. The engine the registry serves is `engine.engine`."""
