"""Shared test setup. Keep each addition small and say whose it is."""

from __future__ import annotations

import sys
from pathlib import Path

# Rules-engine tests: make ``import reference`` (tests/reference.py, the slow independent
# move generator) work whatever the import mode or package layout of the tests folder.
TESTS_DIR = Path(__file__).resolve().parent
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))
