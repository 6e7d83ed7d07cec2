"""Whether a batch's games can differ, and the opening plies that make them differ.

The referee seeds each bot's generator per game (:func:`sim.play.referee.play_game`), so a
bot that draws nothing from it plays the same move in the same position in every game:
such a bot is *deterministic*. Of dsq's own bots these are ``alphabeta`` without
``noise``, and ``mcts`` with a progressive bias (``bias`` above 0, the default) and no
rollout plies; neither with a ``time_ms`` budget (its moves then follow the machine's
speed, not a seed: not counted deterministic, though it gives no seeded variety).
``random`` and ``greedy`` (ties drawn at random) vary with the seed; an external engine is
not known to be deterministic and is taken to vary.

Two deterministic bots from one start play at most one game per colour (one game in all
in self-play), so a batch of more games repeats them. ``--opening-plies auto``, the
default of ``dsq simulate`` and ``dsq tournament``, is then :data:`VARIETY_PLIES` seeded
random plies (as the study presets use), else 0.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from sim.bots.spec import parse_bot, short_spec
from sim.core.batchspec import MAX_OPENING_PLIES

__all__ = [
    "AUTO",
    "OPENING_PLIES_HELP",
    "VARIETY_PLIES",
    "auto_opening_plies",
    "deterministic",
    "distinct_limit",
    "opening_plies_arg",
    "repeats_games",
    "start_count",
    "variety_note",
]

AUTO = "auto"
VARIETY_PLIES = 8


def deterministic(bot: str) -> bool:
    """Whether bot spec ``bot`` plays the same move in the same position in every game."""
    spec = parse_bot(bot)
    p = spec.params
    if spec.name == "alphabeta":
        return not p["noise"] and not p["time_ms"]
    if spec.name == "mcts":
        return not p["time_ms"] and p["bias"] > 0 and not p["rollout_plies"]
    return False


def start_count(openings: str = "") -> int:
    """The distinct start positions of an opening suite's canonical text (1 without)."""
    lines = {ln.partition("\t")[0].strip() for ln in openings.splitlines()}
    return max(len(lines - {""}), 1)


def _same_bot(red: str, blue: str) -> bool:
    return parse_bot(red).canonical == parse_bot(blue).canonical


def distinct_limit(
    red: str, blue: str, opening_plies: int, openings: str = "", swap: bool = True
) -> int | None:
    """The most distinct games the bots can play from the batch's starts: one per start
    and colour (one per start in self-play or without ``swap``) when both bots are
    deterministic and no random ply is played; None when the games may all differ."""
    if opening_plies or not (deterministic(red) and deterministic(blue)):
        return None
    per_start = 2 if swap and not _same_bot(red, blue) else 1
    return per_start * start_count(openings)


def repeats_games(
    red: str,
    blue: str,
    opening_plies: int,
    openings: str = "",
    games: int | None = None,
    swap: bool = True,
) -> bool:
    """Whether the batch plays copies of its games: its bots are deterministic, no random
    ply is played and it has more ``games`` than :func:`distinct_limit` (any number of
    games more than one per start and colour when ``games`` is None)."""
    limit = distinct_limit(red, blue, opening_plies, openings, swap)
    return limit is not None and (games is None or games > limit)


def auto_opening_plies(
    red: str, blue: str, openings: str = "", games: int | None = None, swap: bool = True
) -> int:
    """What ``--opening-plies auto`` means: :data:`VARIETY_PLIES` when the batch would
    repeat its games without random plies, else 0."""
    return VARIETY_PLIES if repeats_games(red, blue, 0, openings, games, swap) else 0


def _names(bots: Sequence[str]) -> str:
    names = [short_spec(b) for b in dict.fromkeys(bots)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def variety_note(
    red: str,
    blue: str,
    opening_plies: int,
    openings: str = "",
    swap: bool = True,
    chosen: bool = False,
    players: Sequence[str] = (),
) -> str:
    """The line saying the bots repeat their games from these starts, and what was done
    about it: ``chosen``, ``opening_plies`` random plies were chosen for them (``auto``);
    else the games are kept as they are (``--opening-plies 0``). With ``players`` (a
    tournament's deterministic players), it speaks of each pairing of two of them."""
    starts = start_count(openings)
    per_start = 2 if swap and not _same_bot(red, blue) else 1
    limit = per_start * starts
    where = "from one start" if starts == 1 else f"from these {starts} starts"
    who, verb = ("these bots are", "they play")
    if players:
        who, verb = f"{_names(players)} are", "each pairing of two of them plays"
    each = "one per colour" if starts == 1 else "one per start and colour"
    amount = f"at most {limit} distinct game{'s' if limit > 1 else ''}"
    amount += f" ({each})" if per_start == 2 else ""
    if chosen:
        done = (
            f"adding {opening_plies} seeded random opening plies "
            "(--opening-plies 0 to keep them identical)"
        )
    else:
        done = (
            "--opening-plies 0 keeps them identical, so the games repeat "
            f"(--opening-plies {VARIETY_PLIES} gives seeded variety)"
        )
    return f"{who} deterministic: {where} {verb} {amount}; {done}"


def opening_plies_arg(text: str) -> int | None:
    """argparse type of ``--opening-plies``: ``auto`` (None) or a whole number of plies."""
    t = text.strip().lower()
    if t == AUTO:
        return None
    if not t.isascii() or not t.isdigit() or len(t) > 6:
        raise argparse.ArgumentTypeError(f"expected auto or a whole number, got {text[:40]!r}")
    value = int(t)
    if value > MAX_OPENING_PLIES:
        raise argparse.ArgumentTypeError(
            f"must be auto or between 0 and {MAX_OPENING_PLIES}, got {value}"
        )
    return value


OPENING_PLIES_HELP = (
    f"uniformly random opening plies, seeded (default auto: {VARIETY_PLIES} when both bots "
    "are deterministic and the games would repeat, else 0; 0 keeps exactly 0)"
)
