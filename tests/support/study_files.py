"""A small study file, and that file with one edit: what the hostile-study tests start from."""

from __future__ import annotations

BASE = """name = "h"
seed = 3
ply_cap = 200
[rules]
specs = ["standard"]
[ladder]
bots = ["random", "greedy"]
[games]
per_cell = 2
"""
RULES = '[rules]\nspecs = ["standard"]'  # BASE's rules table


def edited(old: str, new: str) -> str:
    """BASE with its text ``old`` (which it must hold) replaced by ``new``."""
    assert old in BASE, old
    return BASE.replace(old, new, 1)
