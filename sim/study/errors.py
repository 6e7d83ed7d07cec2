"""The error of a study file that cannot be used."""

from __future__ import annotations

from pathlib import Path

from engine.errors import DsqError


class StudyError(DsqError):
    """A study file that cannot be used; the message names the file and the key."""


def err(path: str, key: str, message: str) -> StudyError:
    """The error of key ``key`` of the study file ``path``."""
    return StudyError(f"{Path(path).name}: {key}: {message}")
