"""Secrets a development server makes for itself: generated at random on first run, kept in a
file of DATA_DIR readable by its owner only (0600), and read back on every later start. The
repository holds none, so no key in it can sign anything a server accepts."""

# Web, workers and beat load the settings at the same moment under `make run`: the first to
# finish writing wins (a hard link is created atomically or not at all) and the others read its
# value, so every process signs with the same key.

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path


def random_token() -> str:
    return secrets.token_urlsafe(48)


def development_secret(path: Path, make: Callable[[], str] = random_token) -> str:
    """The secret kept in `path`, written there first (mode 0600) when there is none yet."""
    existing = _read(path)
    if existing:
        return existing
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(make() + "\n")
        # FileExistsError: another process was first, and its secret is the one.
        with suppress(FileExistsError):
            os.link(draft, path)
    finally:
        draft.unlink(missing_ok=True)
    return _read(path)


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        return ""
