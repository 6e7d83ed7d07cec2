"""Bounds on what a person (on the command line) or a client (of ``dsq engine``) may ask
for, shared so that both refuse the same requests."""

from __future__ import annotations

MAX_PERFT_DEPTH = 32  # far beyond what finishes (perft 7 takes seconds, each ply ~15x more)
