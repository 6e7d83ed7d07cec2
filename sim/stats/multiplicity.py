"""Families of tests corrected for multiplicity: Holm's step-down method.

One implementation for the whole project: the variant studies' effects and findings
(:mod:`sim.study`) and the pairwise tests of a rules comparison
(:func:`sim.stats.compare.compare_rules`) are corrected with it.
"""

from __future__ import annotations

import math
from typing import Any


def holm(tests: list[dict[str, Any]], alpha: float = 0.05) -> None:
    """Add ``p_holm`` (Holm's step-down correction over every test with a p-value ``p``)
    and ``significant`` (``p_holm < alpha``) to each test, in place; a test without a
    p-value gets ``p_holm`` None and is not significant."""
    # lazy: start-up time (statsmodels)
    from statsmodels.stats.multitest import multipletests

    tested = [e for e in tests if e.get("p") is not None and not math.isnan(e["p"])]
    if tested:
        _reject, corrected, _s, _b = multipletests([e["p"] for e in tested], alpha, "holm")
        for e, p in zip(tested, corrected, strict=True):
            e["p_holm"] = float(p)
            e["significant"] = bool(p < alpha)
    for e in tests:
        e.setdefault("p_holm", None)
        e.setdefault("significant", False)
