"""The ways a notice reaches a player: email, phone push, webhooks, event streams, the
calendar feed."""
