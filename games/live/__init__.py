"""Live events: the signal games send, the Redis bus that carries it after commit, and the
hub the streams listen on."""
