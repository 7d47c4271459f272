"""How games read to people: engine texts in the reader's language, titles, names, board
targets, the per-engine email summaries."""
