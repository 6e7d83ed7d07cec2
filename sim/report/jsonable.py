"""The JSON form of ``dsq stats``: the collected statistics as plain JSON values."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd


def jsonable(obj: Any) -> Any:
    """Plain JSON values: NaN and infinities become null, numpy scalars Python numbers,
    DataFrames lists of records, objects with ``to_dict`` (the statistics layer's
    dataclasses) dicts, tuples and arrays lists."""
    if hasattr(obj, "to_dict") and not isinstance(obj, pd.DataFrame | pd.Series):
        return jsonable(obj.to_dict())
    if isinstance(obj, pd.DataFrame):
        return [jsonable(r) for r in obj.to_dict("records")]
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple | np.ndarray):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, float | np.floating):
        f = float(obj)
        return f if math.isfinite(f) else None
    if obj is pd.NA or obj is pd.NaT:
        return None
    return obj


def stats_json(out: dict[str, Any]) -> Any:
    """The JSON object ``dsq stats --json`` prints, from what the command collected: the
    capture matrix as its animals and a list of rows, ``by`` as its key and rows, every
    value made plain by :func:`jsonable`."""
    res = dict(out)
    det = res.get("details")
    if det:
        m = det["capture_matrix"]
        res["details"] = {
            "den_animals": det["den_animals"],
            "capture_matrix": {
                "animals": list(m.index),
                "rows_capturer_columns_captured": m.to_numpy().tolist(),
            },
            "capture_squares": det["capture_squares"],
        }
    if "by" in res:
        res["by"] = {"key": res["by"]["key"], "rows": res["by"]["table"]}
    return jsonable(res)
