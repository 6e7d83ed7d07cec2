"""Running the dashboard under Streamlit's AppTest."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.support import APP
from tests.support.procs import WAIT


def run_app(monkeypatch: pytest.MonkeyPatch, data: Path, page: str | None = None,
            **env: str) -> AppTest:  # fmt: skip
    """An AppTest of the dashboard on ``data``, run (and switched to ``page``)."""
    monkeypatch.setenv("DSQ_DATA", str(data))
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    at = AppTest.from_file(str(APP), default_timeout=WAIT)
    at.run()
    if page:
        at.switch_page(f"views/{page}.py")
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def metrics(at: AppTest) -> dict[str, tuple[str, str]]:
    """Metric label -> (value, delta)."""
    return {m.label: (m.value, m.delta) for m in at.metric}
