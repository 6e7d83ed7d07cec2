"""Helpers shared by the tests: the project's folders, the independent reference move
generator, rule sets that toggle every option, the fixture dataset, the dashboard server
and AppTest helpers."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEST_DATA = ROOT / "tests" / "data"
APP = ROOT / "dashboard" / "app.py"
