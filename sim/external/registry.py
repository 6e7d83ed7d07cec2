"""The engine registry: a TOML file naming each external engine, how to start it, the
options to set, its FEN dialect and the rules it claims to play.

Which file: ``--engines FILE``, else ``$DSQ_ENGINES``, else ``engines.toml`` in the data
folder. Example (``docs/engine-protocol.md`` documents every key)::

    [engines.jungine]
    command = ["/opt/jungine/jungle"]        # or one string, split like a shell line
    handshake = "jcei"                       # uci (default), jcei or uji
    rules = "standard+trapped_can_capture"   # the rules it claims to play
    fen_side = "wb"                          # its FEN says w/b for the side to move
    [engines.jungine.options]
    Hash = 64

An :class:`EngineRegistry` holds the loaded entries: the CLI loads the file it was given
and hands the registry to the bots it builds (``sim.bots.context.BotContext``); a batch's
chunks carry the entries they need to the workers as JSON texts
(:meth:`EngineRegistry.entries_json` / :meth:`EngineRegistry.from_json`).
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.errors import DsqError
from sim.storage.paths import resolve_data_dir
from sim.storage.textfiles import read_named_toml

ENV_VAR = "DSQ_ENGINES"
DEFAULT_NAME = "engines.toml"
HANDSHAKES = ("uci", "jcei", "uji")
FEN_SIDES = ("rb", "wb")
MOVE_CASES = ("lower", "upper")
FEN_CASES = ("red_upper", "red_lower")
PYTHON = "{python}"  # in a command: the Python running dsq
_KEYS = {
    "command": "the program and its arguments (a list, or one string split like a shell line)",
    "args": "more arguments after the command",
    "cwd": "working folder (relative to the registry file's folder)",
    "handshake": "the first word sent: uci, jcei or uji",
    "options": "a table of options set with setoption at start",
    "rules": "the rules spec the engine claims to play",
    "fen_side": "rb (r/b for the side to move, as dsq) or wb (w for red)",
    "fen_case": "red_upper (red's pieces upper case, as dsq) or red_lower (red lower case)",
    "move_case": "lower (a3a4, as dsq) or upper (A3A4): the case of the moves it is sent",
    "fen_counters": "whether FENs carry '<clock> <fullmove>' after the side (true)",
    "startpos": "whether games from the initial position are sent as 'position startpos'",
    "start_timeout": "seconds allowed for the handshake and each isready (10)",
}


@dataclass(frozen=True)
class EngineEntry:
    """One engine of the registry (see the module docstring for the keys)."""

    name: str
    command: tuple[str, ...]
    cwd: str | None = None
    handshake: str = "uci"
    options: tuple[tuple[str, str], ...] = ()
    rules: str | None = None
    fen_side: str = "rb"
    fen_case: str = "red_upper"
    move_case: str = "lower"
    fen_counters: bool = True
    startpos: bool = True
    start_timeout: float = 10.0
    source: str = field(default="", compare=False)
    log_dir: str | None = field(default=None, compare=False)  # --engine-log: not a TOML key

    def to_json(self) -> str:
        """The entry as one JSON text (what a chunk carries to a worker)."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> EngineEntry:
        """The entry of :meth:`to_json`."""
        d = json.loads(text)
        d["command"] = tuple(d["command"])
        d["options"] = tuple(tuple(kv) for kv in d["options"])
        return cls(**d)

    def key_json(self) -> str:
        """The entry as JSON without what does not change how the engine plays (where it was
        read from, the rules it claims, its log folder): what a kept check is keyed on."""
        d = asdict(self)
        for key in ("source", "rules", "log_dir"):
            d.pop(key, None)
        return json.dumps(d, sort_keys=True)

    def move_text(self, move: str) -> str:
        """A move (``a3a4``) as the engine writes it (``move_case``)."""
        return move.upper() if self.move_case == "upper" else move

    @property
    def program(self) -> str:
        """The program to run (``{python}`` replaced by this Python)."""
        return sys.executable if self.command[0] == PYTHON else self.command[0]

    def argv(self) -> list[str]:
        """The command line that starts the engine."""
        return [self.program, *self.command[1:]]


def registry_path(
    engines_file: str | os.PathLike[str] | None = None,
    data_dir: str | os.PathLike[str] | None = None,
) -> Path:
    """``engines_file``, else ``$DSQ_ENGINES``, else ``engines.toml`` in the data folder."""
    if engines_file is not None and str(engines_file) != "":
        return Path(engines_file).expanduser()
    env = os.environ.get(ENV_VAR, "")
    if env:
        return Path(env).expanduser()

    return resolve_data_dir(data_dir) / DEFAULT_NAME


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


MAX_REGISTRY_BYTES = 1 << 20  # a registry is a page of TOML


def load_registry(path: str | os.PathLike[str]) -> dict[str, EngineEntry]:
    """The engines of a registry file, by name; DsqError naming the file and the entry."""
    p = Path(path)
    data = read_named_toml(p, "the engine registry", MAX_REGISTRY_BYTES)
    engines = data.get("engines", {})
    extra = sorted(set(data) - {"engines"})
    if extra or not isinstance(engines, dict):
        raise DsqError(f"{p}: engines are tables [engines.NAME]; unexpected {extra or 'engines'}")
    return {name: _entry(p, name, table) for name, table in engines.items()}


def _entry(path: Path, name: str, table: Any) -> EngineEntry:
    """One ``[engines.NAME]`` table as an :class:`EngineEntry`."""
    # lazy: start-up time (engine registry and client: only when an engine is used)
    from sim.external.botspec import NAME_RE

    where = f"{path}: engine {name!r}"
    if not NAME_RE.match(name):
        raise DsqError(f"{where}: names are letters, digits and _ . + - (up to 64)")
    if not isinstance(table, dict):
        raise DsqError(f"{where} must be a table of keys")
    unknown = sorted(set(table) - set(_KEYS))
    if unknown:
        raise DsqError(f"{where}: unknown key {unknown[0]!r}; keys are: {', '.join(_KEYS)}")
    command = _command(where, table.get("command"), table.get("args", []))
    if any("\0" in part for part in command):
        raise DsqError(f"{where}: command and args must not hold a NUL character")
    base = path.parent
    if "/" in command[0] and not Path(command[0]).is_absolute():
        command = (str((base / command[0]).resolve()), *command[1:])
    cwd = table.get("cwd")
    if cwd is not None:
        if not isinstance(cwd, str) or not cwd or "\0" in cwd:
            raise DsqError(f"{where}: cwd is a folder name (without NUL characters)")
        cwd = str((base / cwd).resolve()) if not Path(cwd).is_absolute() else cwd
    handshake = _choice(where, "handshake", table.get("handshake", "uci"), HANDSHAKES)
    fen_side = _choice(where, "fen_side", table.get("fen_side", "rb"), FEN_SIDES)
    fen_case = _choice(where, "fen_case", table.get("fen_case", "red_upper"), FEN_CASES)
    move_case = _choice(where, "move_case", table.get("move_case", "lower"), MOVE_CASES)
    options = table.get("options", {})
    if not isinstance(options, dict) or any(isinstance(v, dict | list) for v in options.values()):
        raise DsqError(f"{where}: options is a table of NAME = value")
    for key, value in options.items():
        if _control(str(key)) or _control(_option_text(value)):
            raise DsqError(
                f"{where}: option {str(key)[:64]!r}: names and values are one line "
                "(no line break, NUL or other control character)"
            )
    rules = table.get("rules")
    if rules is not None:
        # lazy: start-up time (numpy and the rules)
        from engine.rules import parse_rules

        try:
            rules = parse_rules(str(rules)).spec
        except DsqError as exc:
            raise DsqError(f"{where}: rules: {exc}") from None
    timeout = table.get("start_timeout", 10.0)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 600:
        raise DsqError(f"{where}: start_timeout is a number of seconds from 0 to 600")
    flags = {}
    for key in ("fen_counters", "startpos"):
        value = table.get(key, True)
        if not isinstance(value, bool):
            raise DsqError(f"{where}: {key} is true or false")
        flags[key] = value
    return EngineEntry(
        name=name,
        command=command,
        cwd=cwd,
        handshake=handshake,
        options=tuple((str(k), _option_text(v)) for k, v in options.items()),
        rules=rules,
        fen_side=fen_side,
        fen_case=fen_case,
        move_case=move_case,
        start_timeout=float(timeout),
        source=str(path),
        fen_counters=flags["fen_counters"],
        startpos=flags["startpos"],
    )


def _command(where: str, command: Any, args: Any) -> tuple[str, ...]:
    if isinstance(command, str):
        try:
            parts = shlex.split(command)
        except ValueError as exc:
            raise DsqError(f"{where}: command: {exc}") from None
    elif isinstance(command, list) and all(isinstance(c, str) for c in command):
        parts = list(command)
    else:
        raise DsqError(f"{where}: command is required: a program (string) or a list of strings")
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise DsqError(f"{where}: args is a list of strings")
    parts += args
    if not parts or not parts[0]:
        raise DsqError(f"{where}: the command is empty")
    return tuple(parts)


def _choice(where: str, key: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise DsqError(f"{where}: {key} is one of {', '.join(allowed)}, not {value!r}")
    return str(value)


def _control(text: str) -> bool:
    """Whether ``text`` holds a control character other than a tab (a line break would
    end the ``setoption`` command and start another)."""
    return any((c < " " and c != "\t") or c == "\x7f" for c in text)


def _option_text(value: Any) -> str:
    """An option value as the protocol sends it (``true``/``false`` for booleans)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# -- a loaded registry -------------------------------------------------------------------


@dataclass(frozen=True)
class EngineRegistry:
    """The engines of one registry, by name, and the file they came from (None: entries
    handed over by a batch's driver). The CLI loads it from its ``--engines`` and ``--data``;
    a batch's chunks carry the entries they need to the workers (:meth:`entries_json`,
    :meth:`from_json`); bots find their engine in it (:class:`sim.bots.context.BotContext`)."""

    entries: dict[str, EngineEntry] = field(default_factory=dict)
    path: Path | None = None

    @classmethod
    def load(
        cls,
        engines_file: str | os.PathLike[str] | None = None,
        data_dir: str | os.PathLike[str] | None = None,
    ) -> EngineRegistry:
        """The registry ``--engines FILE`` names, else ``$DSQ_ENGINES``'s, else the data
        folder's. A missing default file is an empty registry; a missing file that was named
        is an error."""
        path = registry_path(engines_file, data_dir)
        named = (engines_file is not None and str(engines_file) != "") or bool(
            os.environ.get(ENV_VAR)
        )
        try:
            missing = not path.exists()
        except (OSError, ValueError) as exc:
            raise DsqError(f"bad engine registry path {str(path)[:200]!r}: {exc}") from None
        if missing and not named:
            return cls({}, path)
        return cls(load_registry(path), path)

    @classmethod
    def from_json(cls, items: tuple[str, ...] | list[str]) -> EngineRegistry:
        """The registry of the entries of :meth:`entries_json` (in a worker process)."""
        return cls({e.name: e for e in (EngineEntry.from_json(t) for t in items)})

    def find(self, name: str) -> EngineEntry:
        """The engine ``name``; DsqError naming the registry and its engines otherwise."""
        entry = self.entries.get(name)
        if entry is None:
            if self.path is not None and not self.entries and not _exists(self.path):
                raise DsqError(
                    f"no engine {name!r}: the engine registry {self.path} does not exist; "
                    f"name one with --engines FILE or ${ENV_VAR} (docs/engine-protocol.md)"
                )
            known = ", ".join(sorted(self.entries)) or "none"
            where = f" in {self.path}" if self.path is not None else ""
            raise DsqError(
                f"no engine {name!r}{where} (engines: {known}); name the registry with "
                "--engines FILE"
            )
        return entry

    def entries_json(self, names: list[str] | tuple[str, ...]) -> tuple[str, ...]:
        """The entries ``names`` as JSON texts (for a chunk to carry)."""
        return tuple(self.find(n).to_json() for n in sorted(set(names)))

    def with_log_dir(self, folder: str | None) -> EngineRegistry:
        """This registry with every engine logging its protocol lines into ``folder``
        (``--engine-log``; None: no log)."""
        return EngineRegistry(
            {n: replace(e, log_dir=folder) for n, e in self.entries.items()}, self.path
        )

    def with_entries(self, entries: dict[str, EngineEntry]) -> EngineRegistry:
        """This registry with ``entries`` added (replacing those of the same name)."""
        return EngineRegistry({**self.entries, **entries}, self.path)
