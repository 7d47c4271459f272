"""The action log: how entries are stored (texts and payloads), pinned, exported."""
