"""``python -m tests.support.peak LIMIT OUT -- CMD ...``: run CMD under an address-space
limit of LIMIT bytes, write its peak resident memory (KiB) to the file OUT, and end as it
ended (its exit code, or the signal that killed it).

A process's peak counts the pages it shared with its parent before ``exec``: a command
forked from a test worker grown large by in-process work would report the worker's size.
This small launcher is forked instead, and forks the command from itself."""

from __future__ import annotations

import os
import resource
import signal
import sys


def main(argv: list[str]) -> None:
    limit, out, cmd = int(argv[0]), argv[1], argv[3:]
    pid = os.fork()
    if pid == 0:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        os.execvp(cmd[0], cmd)
    for sig in (signal.SIGTERM, signal.SIGINT):  # passed on to the command
        signal.signal(sig, lambda s, _f: os.kill(pid, s))
    _, status, usage = os.wait4(pid, 0)
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(str(usage.ru_maxrss))
    code = os.waitstatus_to_exitcode(status)
    if code < 0:  # killed by a signal: end the same way
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    sys.exit(code)


if __name__ == "__main__":
    main(sys.argv[1:])
