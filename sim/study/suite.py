"""A study's opening suite: the key ``openings`` (a file relative to the study file, in
the format of docs/openings.md) and ``openings_order``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.study.errors import err

MAX_SUITE_CHECKS = 200_000
"""The most suite lines times rule sets a study checks (each line is played under each)."""


def read_openings(
    path: str, raw: dict[str, Any], rules: list[str], opening: int, ply_cap: int
) -> tuple[str, str]:
    """The study's opening suite (key ``openings``, a file relative to the study file):
    its canonical text, checked under every rule set, and ``openings_order``."""
    # lazy: start-up time (the engine's Position: only for a study with a suite)
    from sim.openings.suite import ORDERS, SuiteError, parse_suite, read_suite_file

    order = raw.get("openings_order", "sequential")
    if order not in ORDERS:
        raise err(path, "openings_order", f"must be one of {', '.join(ORDERS)}, got {order!r}")
    file = raw.get("openings")
    if file is None:
        if "openings_order" in raw:
            raise err(path, "openings_order", "needs an openings file (key openings)")
        return "", order
    if not isinstance(file, str) or not file.strip():
        raise err(path, "openings", "must be the path of an openings file (docs/openings.md)")
    target = Path(path).parent / file
    try:
        text = read_suite_file(target)
        distinct = list(dict.fromkeys(rules))
        lines = sum(1 for line in text.splitlines() if line.split("#", 1)[0].strip())
        if lines * len(distinct) > MAX_SUITE_CHECKS:
            raise err(path, "openings", f"{lines:,} lines checked under {len(distinct):,} rule "
                      f"sets: {lines * len(distinct):,} checks, more than {MAX_SUITE_CHECKS:,} "
                      "(a shorter suite, or fewer rule sets)")  # fmt: skip
        suites = [parse_suite(text, r, str(target)) for r in distinct]
    except SuiteError as exc:
        raise err(path, "openings", str(exc)) from None
    longest = max((s.longest for s in suites), default=0)
    if longest + opening >= ply_cap:
        raise err(path, "openings", f"a line of {longest} moves and opening_plies ({opening})"
                   f" must stay below ply_cap ({ply_cap})")  # fmt: skip
    return suites[0].text, order
