"""The order the suite's test files are handed to the xdist workers: the costliest first.

pytest-xdist (``--dist loadfile``) runs each file on one worker and hands out the files in
collection order (``--no-loadscope-reorder``; by default it would order them by their number
of tests, which puts the long one-test files last, where the other worker waits for them).
Handing out the longest first, each to the worker that is free, ends both workers at about
the same time. The costs are a run's per-file seconds (:data:`COSTS`, refreshed with
``python -m pytest --junitxml=run.xml`` then ``python -m tests.support.schedule run.xml``);
a file not measured yet counts :data:`UNMEASURED_S` per test. Only the order depends on
them: every test runs whatever they say.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

COSTS = Path(__file__).with_name("file_seconds.json")
UNMEASURED_S = 0.2


def load_costs(path: Path = COSTS) -> dict[str, float]:
    """Seconds per test file (its path from the project folder), or {} without the file."""
    try:
        return {str(k): float(v) for k, v in json.loads(path.read_text("utf-8")).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def file_of(nodeid: str) -> str:
    """The test file of a node id (``tests/x/test_y.py::test_z[1]`` -> ``tests/x/test_y.py``)."""
    return nodeid.split("::", 1)[0]


def costliest_first(items: list[Any], costs: dict[str, float]) -> list[Any]:
    """``items`` (anything with a ``nodeid``), files ordered by cost, the costliest first;
    the tests of a file keep their order and stay together."""
    counts = Counter(file_of(i.nodeid) for i in items)
    first_seen = {f: k for k, f in enumerate(dict.fromkeys(file_of(i.nodeid) for i in items))}

    def cost(f: str) -> float:
        return costs.get(f, UNMEASURED_S * counts[f])

    return sorted(items, key=lambda i: (-cost(file_of(i.nodeid)), first_seen[file_of(i.nodeid)]))


def junit_costs(xml_path: Path) -> dict[str, float]:
    """Seconds per test file from a JUnit XML report (``pytest --junitxml``)."""
    seconds: Counter[str] = Counter()
    for case in ET.parse(xml_path).getroot().iter("testcase"):
        module = case.get("classname", "")
        parts = module.split(".")
        while len(parts) > 1 and not Path(*parts[:-1], parts[-1] + ".py").is_file():
            parts.pop()  # a test class: tests.x.test_y.TestZ
        seconds["/".join(parts) + ".py"] += float(case.get("time", 0))
    return {f: round(s, 1) for f, s in sorted(seconds.items())}


def main(argv: list[str]) -> int:
    """Rewrite :data:`COSTS` from the JUnit XML report named in ``argv``."""
    if len(argv) != 1:
        print("usage: python -m tests.support.schedule JUNIT.xml", file=sys.stderr)
        return 2
    costs = junit_costs(Path(argv[0]))
    COSTS.write_text(json.dumps(costs, indent=1) + "\n", encoding="utf-8")
    print(f"{len(costs)} files, {sum(costs.values()):.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
