"""What a tournament plays, and its file ``DATA/tournaments/ID.json``.

The file holds the plan (format, players, games, rules, seed, openings: everything that
decides the games), the opening suite's text, and the pairings of every round started so
far. It is written atomically; running the same command again finds it and plays only
what is missing, a changed command for the same id is refused, naming what changed.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import DsqError
from sim.batch.plan import plan_changes
from sim.core.batchspec import MAX_GAMES, MAX_OPENING_PLIES, MAX_PLY_CAP, ORDERS
from sim.core.seeds import MAX_SEED
from sim.storage.atomic import atomic_write_json
from sim.storage.paths import check_batch_id, dsq_line, read_bounded
from sim.storage.records import now_iso
from sim.tournament.pairing import Round

FORMATS = ("round-robin", "gauntlet", "swiss")
TOURNAMENTS_DIR = "tournaments"
MAX_PLAYERS = 64
MAX_ROUNDS = 1000
MAX_BATCHES = 20_000
"""The most batches a tournament may make (rounds times the pairings of a round): counted
from the flags or the file, and refused with the number, before any batch is made."""
DEFAULT_GAMES_PER_PAIR = 2


@dataclass(frozen=True)
class Tournament:
    """A tournament's plan: ``players`` are canonical bot specs (the first is the one a
    gauntlet tests); ``openings`` a suite's canonical text ("" for none)."""

    id: str
    format: str
    players: tuple[str, ...]
    rules: str
    games_per_pair: int
    rounds: int
    seed: int
    opening_plies: int
    ply_cap: int
    openings: str = ""
    openings_order: str = "sequential"
    sprt: str | None = None
    rounds_played: list[Round] = field(default_factory=list, compare=False)

    def plan(self) -> dict[str, Any]:
        """What decides the games, as compared when the tournament is run again."""
        return {
            "format": self.format,
            "players": list(self.players),
            "rules": self.rules,
            "games_per_pair": self.games_per_pair,
            "rounds": self.rounds,
            "seed": self.seed,
            "opening_plies": self.opening_plies,
            "ply_cap": self.ply_cap,
            "openings": suite_digest(self.openings),
            "openings_order": self.openings_order,
            "sprt": self.sprt,
        }

    def round_seed(self, k: int) -> int:
        """The batch seed of every pairing of round ``k`` (0-based): the pairs of a round
        play the same game seeds, hence the same openings."""
        data = f"dsq-tournament:{self.seed}:{k}".encode()
        return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little") & MAX_SEED

    def batch_id(self, k: int, i: int, j: int) -> str:
        """The batch of players ``i`` and ``j`` (0-based) in round ``k``: ``ID-r01-p1p2``."""
        return f"{self.id}-r{k + 1:02d}-p{i + 1}p{j + 1}"

    def label(self, k: int, i: int, j: int) -> str:
        """The batch label naming the tournament, the round and the pair."""
        # lazy: start-up time (the bot catalogue)
        from sim.bots.spec import short_spec

        a, b = short_spec(self.players[i]), short_spec(self.players[j])
        text = f"tournament {self.id} round {k + 1}: {a} vs {b}"
        return text if len(text) <= 200 else text[:197] + "..."


def suite_digest(text: str) -> str:
    """A short digest of a suite's canonical text ("" for no suite)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16] if text else ""


def pairings_per_round(fmt: str, n: int) -> int:
    """How many pairings (batches) a round of ``n`` players has in format ``fmt``."""
    if fmt == "round-robin":
        return n * (n - 1) // 2
    return n - 1 if fmt == "gauntlet" else n // 2


def tournament_path(data_dir: Path, tid: str) -> Path:
    """Where a tournament's file is kept: ``DATA/tournaments/ID.json``."""
    return Path(data_dir) / TOURNAMENTS_DIR / f"{tid}.json"


def make_tournament(
    fmt: str,
    players: list[str],
    *,
    rules: str = "standard",
    games_per_pair: int | None = None,
    rounds: int | None = None,
    seed: int | None = None,
    tid: str | None = None,
    opening_plies: int = 0,
    ply_cap: int = 1000,
    openings: str = "",
    openings_order: str = "sequential",
    sprt: str | None = None,
) -> Tournament:
    """A checked plan (``DsqError`` naming the bad flag). Without ``tid`` the id is a
    digest of the plan, without ``seed`` the seed derives from the id, so the same command
    names the same tournament."""
    # lazy: start-up time (the batch spec checks the bots and the rules)
    from sim.batch import make_spec
    from sim.batch.run import canonical_sprt

    if fmt not in FORMATS:
        raise DsqError(f"unknown --format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if len(players) < 2:
        raise DsqError(f"a tournament needs at least two --players, got {len(players)}")
    if len(players) > MAX_PLAYERS:
        raise DsqError(f"at most {MAX_PLAYERS} --players, got {len(players)}")
    gpp = DEFAULT_GAMES_PER_PAIR if games_per_pair is None else games_per_pair
    if gpp < 2 or gpp % 2:
        raise DsqError(
            f"--games-per-pair must be even (colour-swapped pairs) and at least 2, got {gpp}"
        )
    if rounds is None:
        rounds = max(1, math.ceil(math.log2(len(players)))) if fmt == "swiss" else 1
    if not 1 <= rounds <= MAX_ROUNDS:
        raise DsqError(f"--rounds must be 1..{MAX_ROUNDS}, got {rounds}")
    batches = rounds * pairings_per_round(fmt, len(players))
    if batches > MAX_BATCHES:
        raise DsqError(
            f"a {fmt} of {len(players)} players over {rounds:,} round"
            f"{'' if rounds == 1 else 's'} would make {batches:,} batches, more than the "
            f"{MAX_BATCHES:,} a tournament may have (fewer --rounds or --players)"
        )
    if sprt is not None and fmt != "gauntlet":
        raise DsqError("--sprt tests each pairing of a gauntlet: use --format gauntlet")
    if fmt == "swiss" and rounds >= len(players) + (len(players) % 2):
        most = len(players) + len(players) % 2 - 1
        raise DsqError(
            f"a Swiss of {len(players)} players has at most {most} "
            f"round{'' if most == 1 else 's'} without rematches; got --rounds {rounds} "
            "(use round-robin)"
        )
    options: dict[str, Any] = {
        "swap": True,
        "opening_plies": opening_plies,
        "ply_cap": ply_cap,
        "openings": openings,
        "openings_order": "random" if fmt == "swiss" else openings_order,
    }
    spec = make_spec(rules, players[0], players[1], gpp, seed=0, **options)
    canon = [make_spec(spec.rules, p, p, gpp, seed=0, **options).red for p in players]
    dup = sorted({p for p in canon if canon.count(p) > 1})
    if dup:
        raise DsqError(f"--players names {dup[0]!r} twice; each player must differ")
    plan = {
        "format": fmt,
        "players": canon,
        "rules": spec.rules,
        "games_per_pair": gpp,
        "rounds": rounds,
        "seed": seed,
        "opening_plies": spec.opening_plies,
        "ply_cap": spec.ply_cap,
        "openings": suite_digest(spec.openings),
        "openings_order": spec.openings_order,
        "sprt": canonical_sprt(sprt),
    }
    if tid is None:
        digest = hashlib.sha256(json.dumps(plan, sort_keys=True).encode()).hexdigest()
        tid = f"t-{fmt}-{digest[:10]}"
    check_batch_id(tid)
    if seed is None:
        data = f"dsq-tournament-seed:{tid}".encode()
        seed = int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little") & MAX_SEED
    return Tournament(
        id=tid,
        format=fmt,
        players=tuple(canon),
        rules=spec.rules,
        games_per_pair=gpp,
        rounds=rounds,
        seed=seed,
        opening_plies=spec.opening_plies,
        ply_cap=spec.ply_cap,
        openings=spec.openings,
        openings_order=spec.openings_order,
        sprt=canonical_sprt(sprt),
    )


def register(data_dir: Path, t: Tournament) -> Tournament:
    """Write the tournament's file, or check it holds the same plan; return the
    tournament with the rounds recorded so far. ``DsqError`` naming what changed."""
    path = tournament_path(data_dir, t.id)
    if path.exists():
        old = load(data_dir, t.id)
        changes = plan_changes(old.plan(), t.plan())
        if changes:
            raise DsqError(
                f"tournament {t.id!r} was started with another plan ({path}); changed: "
                f"{', '.join(changes)}. Give it another --tournament-id, or run "
                f"{dsq_line('tournament', '--resume', t.id, data=data_dir)}"
            )
        return old
    save(data_dir, t)
    return t


def save(data_dir: Path, t: Tournament) -> None:
    """Write the tournament's file atomically (its plan, suite and rounds)."""
    path = tournament_path(data_dir, t.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    created = now_iso()
    if path.exists():
        created = _read(path).get("created_at", created)
    atomic_write_json(
        path,
        {
            "id": t.id,
            "created_at": created,
            "plan": t.plan(),
            "openings_text": t.openings,
            "rounds": [r.to_dict() for r in t.rounds_played],
        },
    )


def _read(path: Path) -> dict[str, Any]:
    try:
        d = json.loads(read_bounded(path).decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise DsqError(f"{path}: unreadable tournament file: {exc}") from None
    if not isinstance(d, dict):
        raise DsqError(f"{path}: unreadable tournament file: not an object")
    return d


def load(data_dir: Path, tid: str) -> Tournament:
    """The tournament ``tid`` as recorded (``DsqError`` if missing, or unreadable: every
    field of its file is checked by :func:`_checked` before it is used)."""
    check_batch_id(tid)
    path = tournament_path(data_dir, tid)
    if not path.exists():
        shows = dsq_line("tournament", "--list", data=data_dir)
        raise DsqError(f"no tournament {tid!r} in {data_dir} ({shows} shows them)")
    return _checked(path, _read(path), tid)


def _kind(value: Any) -> str:
    """The JSON kind of ``value`` in words (never its content)."""
    if isinstance(value, bool) or value is None:
        return "true/false" if value is not None else "null"
    return {dict: "an object", list: "a list", str: "text", int: "a whole number",
            float: "a number"}.get(type(value), type(value).__name__)  # fmt: skip


def _checked(path: Path, d: dict[str, Any], tid: str) -> Tournament:
    """The tournament of a file's content ``d``, every field checked for its type and range
    (the limits of the flags: ``rounds`` at most :data:`MAX_ROUNDS`, ...) and the plan made
    again by :func:`make_tournament`, which must give the same plan."""

    def fail(key: str, message: str) -> DsqError:
        return DsqError(f"{path}: unreadable tournament file: {key}: {message}")

    def whole(key: str, value: Any, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(key, f"must be a whole number, not {_kind(value)}")
        if not low <= value <= high:
            raise fail(key, f"must be from {low:,} to {high:,}, got {value:,}")
        return value

    def text(key: str, value: Any) -> str:
        if not isinstance(value, str):
            raise fail(key, f"must be text, not {_kind(value)}")
        return value

    p = d.get("plan")
    if not isinstance(p, dict):
        raise fail("plan", f"must be an object, not {_kind(p)}")
    if d.get("id") != tid:
        raise fail("id", f"must be {tid!r}, the file's name")
    fmt = p.get("format")
    if fmt not in FORMATS:
        raise fail("plan.format", f"must be one of {', '.join(FORMATS)}")
    players = p.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_PLAYERS:
        raise fail("plan.players", f"must be a list of 2 to {MAX_PLAYERS} bot specs")
    specs = [text(f"plan.players[{i}]", s) for i, s in enumerate(players)]
    gpp = whole("plan.games_per_pair", p.get("games_per_pair"), 2, MAX_GAMES)
    if gpp % 2:
        raise fail("plan.games_per_pair", f"must be even (colour-swapped pairs), got {gpp}")
    rounds = whole("plan.rounds", p.get("rounds"), 1, MAX_ROUNDS)
    seed = whole("plan.seed", p.get("seed"), 0, MAX_SEED)
    plies = whole("plan.opening_plies", p.get("opening_plies"), 0, MAX_OPENING_PLIES)
    ply_cap = whole("plan.ply_cap", p.get("ply_cap"), 1, MAX_PLY_CAP)
    p = {"openings": "", "openings_order": "sequential", "sprt": None, **p}  # older files
    order = p["openings_order"]
    if order not in ORDERS:
        raise fail("plan.openings_order", f"must be one of {', '.join(ORDERS)}")
    sprt = p.get("sprt")
    if sprt is not None:
        text("plan.sprt", sprt)
    text("created_at", d.get("created_at", ""))
    suite = text("openings_text", d.get("openings_text", ""))
    if suite_digest(suite) != p.get("openings"):
        raise fail("openings_text", "the opening suite does not match its digest")
    played = d.get("rounds", [])
    if not isinstance(played, list) or len(played) > rounds:
        raise fail("rounds", f"must be a list of at most {rounds} rounds")
    rounds_played = [
        _check_round(fail, whole, f"rounds[{k}]", rnd, len(specs), fmt == "swiss")
        for k, rnd in enumerate(played)
    ]
    try:
        t = make_tournament(
            str(fmt), specs, rules=text("plan.rules", p.get("rules")), games_per_pair=gpp,
            rounds=rounds, seed=seed, tid=tid, opening_plies=plies, ply_cap=ply_cap,
            openings=suite, openings_order=str(order), sprt=sprt,
        )  # fmt: skip
    except DsqError as exc:
        raise fail("plan", str(exc)) from None
    changes = plan_changes(p, t.plan())
    if changes:
        raise fail("plan", f"not as dsq writes it ({', '.join(changes)})")
    return Tournament(**{**t.__dict__, "rounds_played": rounds_played})


def _check_round(fail: Any, whole: Any, key: str, rnd: Any, n: int, swiss: bool) -> Round:
    """A recorded round as a :class:`Round`: ``pairings`` of two players each (indices
    below ``n``), no pair twice, and a ``bye`` or null; in a Swiss, no player twice, and the
    bye not paired."""
    if not isinstance(rnd, dict) or not isinstance(rnd.get("pairings"), list):
        raise fail(key, "must be an object with a list of pairings")
    seen: set[int] = set()
    pairs: set[frozenset[int]] = set()
    ordered: list[tuple[int, int]] = []
    for m, pair in enumerate(rnd["pairings"]):
        where = f"{key}.pairings[{m}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise fail(where, "must be a pair of players")
        i, j = (whole(where, x, 0, n - 1) for x in pair)
        if i == j or frozenset((i, j)) in pairs:
            raise fail(where, f"players {i} and {j}: a player against itself, or a pair twice")
        if swiss and (i in seen or j in seen):
            raise fail(where, "a player plays twice in a round of a Swiss")
        pairs.add(frozenset((i, j)))
        seen.update((i, j))
        ordered.append((i, j))
    bye = rnd.get("bye")
    if bye is not None and whole(f"{key}.bye", bye, 0, n - 1) in seen and swiss:
        raise fail(f"{key}.bye", f"player {bye} has a bye and a pairing")
    return Round(tuple(ordered), bye)


def recorded_tournaments(data_dir: Path) -> list[str]:
    """The ids of the tournaments recorded in ``data_dir`` (sorted)."""
    folder = Path(data_dir) / TOURNAMENTS_DIR
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []
