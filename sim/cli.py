"""The ``dsq`` command: one sub-command per module in ``sim.commands``.

Each command module defines ``register(subparsers)``, which adds its parser and sets
``func`` (a callable taking the parsed ``argparse.Namespace`` and returning an exit code).
User errors (``engine.errors.DsqError``) and resource errors (out of memory, a full disk)
print one line on stderr and exit with code 2: never a traceback.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import re
import sys
from typing import NoReturn

from engine import __version__
from engine.errors import DsqError, closest, did_you_mean
from sim.commands import ALIASES
from sim.core.addrspace import check_address_space, fit_to_address_space, out_of_memory

# Order here is the order in ``dsq --help``.
COMMAND_MODULES = [
    "sim.commands.rules",
    "sim.commands.perft",
    "sim.commands.legal",
    "sim.commands.replay",
    "sim.commands.bench",
    "sim.commands.bots",
    "sim.commands.bestmove",
    "sim.commands.play",
    "sim.commands.simulate",
    "sim.commands.batches",
    "sim.commands.compact",
    "sim.commands.stats",
    "sim.commands.games",
    "sim.commands.openings",
    "sim.commands.dashboard",
    "sim.commands.tablebase",
    "sim.commands.serve",
    "sim.commands.engines",
    "sim.commands.study",
    "sim.commands.tournament",
    "sim.commands.tune",
]


# The flags of ``dsq`` itself, before any command.
TOP_FLAGS = ("-h", "--help", "--version")


class DsqArgumentParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        """Print ``<prog>: error: <message>`` (one line, no usage block) and exit 2; a word
        that is not one of the choices is answered with the closest choice."""
        self.exit(2, f"{self.prog}: error: {message}{closest_choice(message)} "
                     f"(see '{self.prog} --help')\n")  # fmt: skip


def closest_choice(message: str) -> str:
    """``; did you mean X?`` for argparse's ``invalid choice: 'W' (choose from 'X', ...)``
    when one choice is close to ``W``; else nothing."""
    found = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
    if not found:
        return ""
    return did_you_mean(found.group(1), re.findall(r"'([^']*)'", found.group(2)))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered, or just the one named ``only``.

    Registering one command imports only its module, so ``dsq stats`` does not pay for
    numba and ``dsq perft`` does not pay for pandas.
    """
    parser = DsqArgumentParser(
        prog="dsq", description="Dou Shou Qi lab: engine, bots, simulations, statistics."
    )
    parser.add_argument(
        "--version", action="version", version=f"dsq {__version__}", help="print the version"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        if only is None or name.rsplit(".", 1)[1] == only:
            importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``dsq`` console script."""
    argv = sys.argv[1:] if argv is None else list(argv)
    names = {name.rsplit(".", 1)[1]: name.rsplit(".", 1)[1] for name in COMMAND_MODULES}
    names.update({old: new for new, olds in ALIASES.items() for old in olds})
    parser = build_parser(names.get(argv[0]) if argv else None)
    if argv and argv[0].startswith("-") and argv[0] not in TOP_FLAGS:
        parser.error(
            f"unrecognized arguments: {' '.join(argv)}; a command comes first, then its flags"
        )
    if argv and argv[0] in names and names[argv[0]] != argv[0]:
        _answer_as(parser, argv[0])
    args, extra = parser.parse_known_args(argv)
    if extra:
        _unrecognized(parser, args, extra)
    name = command_name(args)
    fit_to_address_space()
    try:
        check_address_space()
        code = args.func(args)
    except DsqError as exc:
        return _error(name, str(exc))
    except KeyboardInterrupt:
        print(f"dsq {name}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except MemoryError:
        return _error(name, out_of_memory())
    except RecursionError:
        return _error(name, "input nested too deeply")
    except OSError as exc:  # a full disk, a file size limit, a folder that vanished, ...
        return _error(name, describe_os_error(exc))
    return int(code or 0)


def command_name(args: argparse.Namespace) -> str:
    """The command as typed, with its sub-command (``tablebase stats``): what error lines
    name. A command's sub-commands are parsed into ``<something>_command``."""
    words = [args.command]
    words += [v for k, v in vars(args).items() if k.endswith("_command") and isinstance(v, str)]
    return " ".join(words)


def _unrecognized(
    parser: argparse.ArgumentParser, args: argparse.Namespace, extra: list[str]
) -> NoReturn:
    """Refuse ``extra`` arguments in the name of the sub-command that was given them
    (``dsq simulate: error: ...``, its ``--help``), suggesting the closest of its flags."""
    words = command_name(args).split()
    for word in words:  # down the sub-commands: ``tablebase`` then ``stats``
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction) and word in action.choices:
                parser = action.choices[word]
                break
    message = f"unrecognized arguments: {' '.join(extra)}"
    flags = [f for a in parser._actions for f in a.option_strings if f.startswith("--")]
    close = [
        hit
        for word in extra
        if word.startswith("--") and (hit := closest(word.split("=", 1)[0], flags))
    ]
    if close:
        message += f"; did you mean {' '.join(dict.fromkeys(close))}?"
    parser.error(message)


def _answer_as(parser: argparse.ArgumentParser, alias: str) -> None:
    """Make the command typed by its former name ``alias`` show that name in its usage and
    error lines, as it did before it was renamed."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and alias in action.choices:
            action.choices[alias].prog = f"{parser.prog} {alias}"


def _error(command: str, message: str) -> int:
    """Print ``dsq COMMAND: error: MESSAGE`` as one line on stderr; return 2."""
    text = " ".join(message.split())
    print(f"dsq {command}: error: {text}", file=sys.stderr)
    return 2


def describe_os_error(exc: OSError) -> str:
    """One line for an operating-system error: what failed, on which file."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        what = "disk full"
    elif exc.errno == errno.EFBIG:
        what = "file size limit reached"
    else:
        what = exc.strerror or type(exc).__name__
    where = f": {exc.filename}" if exc.filename else ""
    return f"{what}{where}" if exc.strerror or exc.filename else f"{what}: {exc}"


if __name__ == "__main__":
    sys.exit(main())
