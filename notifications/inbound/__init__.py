"""Play by email: signed reply addresses, reading replies (webhook or MTA pipe), turning them into
moves through the game services, and answering each one."""
