"""Which rules a Caverna game is played under.

A state records its rules version in `state["rules_version"]`; states of games started before the
version was recorded have none and are LEGACY_VERSION. Version 4 follows the printed components
where the seed's translation contradicts them (ruby trades, Weaving parlor, Ruby mining with two
players, Small-scale drift mining), gives every seat the last conversions after the final
breeding and limits the Guest room on Extension to once per game. Every corrected rule branches on
`is_legacy`, so a stored log replays exactly as it was recorded.
"""

from __future__ import annotations

from typing import Any

RULES_VERSION = 4
LEGACY_VERSION = 3
#: The versions a new game can be set up under (older logs than 3 were re-recorded at 3).
SUPPORTED_VERSIONS = (LEGACY_VERSION, RULES_VERSION)


def rules_version(state: dict[str, Any]) -> int:
    return state.get("rules_version", LEGACY_VERSION)


def is_legacy(state: dict[str, Any]) -> bool:
    """Whether `state` is played under the seed-wording rules of version 3 and before."""
    return rules_version(state) < RULES_VERSION
