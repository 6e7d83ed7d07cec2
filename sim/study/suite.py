"""A study's opening suite: the key ``openings`` (a file relative to the study file, in
the format of docs/openings.md) and ``openings_order``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.study.errors import err

MAX_SUITE_CHECKS = 200_000
"""The most suite lines times rule sets a study checks, all its suites together (each line
is played under each rule set)."""


@dataclass
class SuiteChecks:
    """The suites one study file has read: each file read and checked once (its canonical
    text and longest line), and the checks they took in all."""

    read: dict[str, tuple[str, int]] = field(default_factory=dict)
    checks: int = 0


def read_openings(
    path: str,
    raw: dict[str, Any],
    rules: list[str],
    opening: int,
    ply_cap: int,
    seen: SuiteChecks | None = None,
) -> tuple[str, str]:
    """The study's opening suite (key ``openings``, a file relative to the study file):
    its canonical text, checked under every rule set, and ``openings_order``. ``seen``
    holds the suites the study read before: a file is checked once, and the checks of all
    of them together are at most :data:`MAX_SUITE_CHECKS` (counted before a file is
    parsed)."""
    # lazy: start-up time (the engine's Position: only for a study with a suite)
    from sim.openings.suite import ORDERS, SuiteError, parse_suite, read_suite_file

    seen = SuiteChecks() if seen is None else seen
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
    if str(target) not in seen.read:
        try:
            text = read_suite_file(target)
            distinct = list(dict.fromkeys(rules))
            lines = sum(1 for line in text.splitlines() if line.split("#", 1)[0].strip())
            before, seen.checks = seen.checks, seen.checks + lines * len(distinct)
            if seen.checks > MAX_SUITE_CHECKS:
                more = f" ({before:,} of the suites before)" if before else ""
                raise err(path, "openings", f"{target}: {lines:,} lines checked under "
                          f"{len(distinct):,} rule sets: {seen.checks:,} checks{more}, more "
                          f"than {MAX_SUITE_CHECKS:,} (a shorter suite, fewer suites or fewer "
                          "rule sets)")  # fmt: skip
            suites = [parse_suite(text, r, str(target)) for r in distinct]
        except SuiteError as exc:
            raise err(path, "openings", str(exc)) from None
        seen.read[str(target)] = (suites[0].text, max((s.longest for s in suites), default=0))
    text, longest = seen.read[str(target)]
    if longest + opening >= ply_cap:
        raise err(path, "openings", f"a line of {longest} moves and opening_plies ({opening})"
                   f" must stay below ply_cap ({ply_cap})")  # fmt: skip
    return text, order
