"""``dsq dashboard``: run the Streamlit app on a data folder (127.0.0.1 by default).

It runs ``dashboard/server.py``: the app and its route that streams a whole selection of
games in one file (:mod:`dashboard.server`).

The server is a child process (``streamlit run``); the signals that stop ``dsq dashboard``
stop it too (:func:`serve`).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import ctypes.util
import ipaddress
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from engine.errors import DsqError
from sim.commands._common import add_data_arg, int_in, positive_int
from sim.storage.paths import existing_data_dir, project_root, sample_unnamed

APP = project_root() / "dashboard" / "server.py"
LIMIT_FLAGS = {
    "max_games": "DSQ_DASHBOARD_MAX_GAMES",
    "max_depth": "DSQ_DASHBOARD_MAX_DEPTH",
    "max_playouts": "DSQ_DASHBOARD_MAX_PLAYOUTS",
    "max_workers": "DSQ_DASHBOARD_MAX_WORKERS",
    "max_running": "DSQ_DASHBOARD_MAX_RUNNING",
    "max_hours": "DSQ_DASHBOARD_MAX_HOURS",
}


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``dashboard`` command."""
    p = sub.add_parser(
        "dashboard",
        help="browse statistics, compare rules and bots, launch batches, replay games",
        description="Run the Streamlit dashboard on a data folder. It binds to 127.0.0.1 "
        "unless --host says otherwise; on any other address it requires a token (printed "
        "in its address, kept in a cookie; see docs/dashboard-access.md); batches launched "
        "from the browser are bounded by the --max-* settings and write only inside the "
        "data folder.",
    )
    add_data_arg(p)
    p.add_argument("--port", type=int_in(1, 65535), default=8501, help="port (8501)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (127.0.0.1)")
    p.add_argument(
        "--token",
        help="the secret a browser must present (default: $DSQ_DASHBOARD_TOKEN; for a "
        "--host that is not a loopback address, one is generated and printed in the address)",
    )
    p.add_argument("--no-browser", action="store_true", help="do not open a browser tab")
    p.add_argument("--max-games", type=positive_int, help="most games per launched batch (20000)")
    p.add_argument(
        "--max-depth", type=int_in(1, 60), help="deepest alpha-beta a launch may use (6)"
    )
    p.add_argument(
        "--max-playouts", type=int_in(1, 10**8), help="most MCTS playouts per move (20000)"
    )
    p.add_argument(
        "--max-workers", type=int_in(1, 1024), help="most workers per launch (CPU count)"
    )
    p.add_argument(
        "--max-running", type=int_in(1, 1000), help="most launched batches running at once (4)"
    )
    p.add_argument(
        "--max-hours",
        type=int_in(1, 24 * 365),
        help="work budget of a launched batch in hours: longer requests are refused, and a "
        "batch still running after that long is stopped, resumable (24)",
    )
    p.add_argument(
        "--engines",
        metavar="FILE",
        help="engine registry for engine bots (default: $DSQ_ENGINES, else DATA/engines.toml)",
    )
    p.set_defaults(func=run)


TOKEN_VAR = "DSQ_DASHBOARD_TOKEN"  # dashboard.access.TOKEN_VAR: the server reads it
MAX_TOKEN = 200


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address to bind) is reachable from this machine only."""
    if host.strip().lower() in ("localhost", "localhost.", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


def access_token(host: str, given: str | None) -> str | None:
    """The token the server requires: ``given`` (``--token``, else ``$DSQ_DASHBOARD_TOKEN``),
    checked; else, for a host that is not a loopback address, a fresh one (192 random bits);
    else None (no token, as on 127.0.0.1)."""
    token = given if given is not None else os.environ.get(TOKEN_VAR) or None
    if token is None:
        return None if is_loopback(host) else secrets.token_urlsafe(24)
    if not 8 <= len(token) <= MAX_TOKEN:
        raise DsqError(f"--token must have 8 to {MAX_TOKEN} characters, got {len(token)}")
    if not all(33 <= ord(c) < 127 for c in token) or any(c in token for c in ";,\"'\\"):
        raise DsqError("--token must be printable ASCII without spaces, quotes, ';' or ','")
    return token


def _check_port(host: str, port: int) -> None:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        raise DsqError(f"--host {host!r} is not an address this machine can bind") from None
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        try:
            s.bind(addr)
        except OSError as exc:
            raise DsqError(
                f"cannot listen on {host}:{port} ({exc.strerror or exc}); try another --port"
            ) from None


def command(
    args: argparse.Namespace, data_dir: Path, token: str | None = None
) -> tuple[list[str], dict[str, str]]:
    """The ``streamlit run`` command line and environment for these arguments (``token``:
    the one the server requires)."""
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(APP),
        "--server.address", args.host,
        "--server.port", str(args.port),
        # Always headless: Streamlit's own first-run prompt (an e-mail address on stdin)
        # would otherwise hold the server; dsq opens the browser tab itself.
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
        "--client.toolbarMode", "minimal",
    ]  # fmt: skip
    env = dict(os.environ)
    env["DSQ_DATA"] = str(data_dir)
    env.pop(TOKEN_VAR, None)
    if token is not None:
        env[TOKEN_VAR] = token
    if getattr(args, "engines", None):  # the app and the batches it launches read it
        env["DSQ_ENGINES"] = str(Path(args.engines).expanduser().resolve())
    root = str(project_root())
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    for attr, var in LIMIT_FLAGS.items():
        value = getattr(args, attr, None)
        if value is not None:
            env[var] = str(value)
    return cmd, env


def run(args: argparse.Namespace) -> int:
    """Run ``dsq dashboard`` (blocks until the server stops)."""
    data_dir = existing_data_dir(args.data).resolve()
    token = access_token(args.host, getattr(args, "token", None))
    _check_port(args.host, args.port)
    if getattr(args, "engines", None):
        # lazy: start-up time (engine registry and client: only when an engine is used)
        from sim.external.registry import load_registry

        load_registry(args.engines)  # a bad registry is one clear error here, not in the app
    cmd, env = command(args, data_dir, token)
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{args.port}" + (f"/?token={token}" if token else "")
    print(f"dsq dashboard: {url} on {data_dir}", file=sys.stderr)
    if token and not is_loopback(args.host):
        print(
            "dsq dashboard: listening beyond this machine: only browsers that opened the "
            "address above (with its token) get in",
            file=sys.stderr,
        )
    if sample_unnamed(args.data):
        print(
            "dsq dashboard: this is the bundled sample; games launched or saved in the "
            "browser join it (dsq dashboard --data DIR keeps yours apart)",
            file=sys.stderr,
        )
    return serve(cmd, env, None if args.no_browser else url)


FORWARDED = ("SIGTERM", "SIGINT", "SIGHUP")
STOP_SECONDS = 15.0  # after a forwarded signal, how long the server has to stop


def serve(cmd: list[str], env: dict[str, str], browser_url: str | None = None) -> int:
    """Run the server ``cmd`` as a child process until it exits; return its exit code, or 0
    when it stopped because ``dsq dashboard`` was asked to stop.

    SIGTERM, SIGINT and SIGHUP sent to this process are passed on to the server, and this
    process waits for it to stop (SIGKILL after :data:`STOP_SECONDS`), so stopping ``dsq
    dashboard`` by its pid never leaves a server holding the port. On Linux the server is
    also sent SIGTERM by the kernel if this process dies without a chance to forward
    (``kill -9``). With ``browser_url`` a browser tab is opened once the server answers.
    """
    received: list[int] = []
    children: list[subprocess.Popen] = []

    def forward(signum: int, frame: object) -> None:
        received.append(signum)
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                child.send_signal(signum)

    signums = [getattr(signal, name) for name in FORWARDED if hasattr(signal, name)]
    previous = {sig: signal.signal(sig, forward) for sig in signums}
    try:
        proc = subprocess.Popen(
            cmd, env=env, stdin=subprocess.DEVNULL, preexec_fn=_terminate_with_parent
        )
        children.append(proc)
        if received:  # a signal came while the child was being started
            forward(received[-1], None)
        if browser_url:
            threading.Thread(
                target=_open_browser_when_ready, args=(browser_url,), daemon=True
            ).start()
        deadline: float | None = None
        while True:
            try:
                code = proc.wait(timeout=0.2)
                break
            except subprocess.TimeoutExpired:
                if received and deadline is None:
                    deadline = time.monotonic() + STOP_SECONDS
                if deadline is not None and time.monotonic() > deadline:
                    proc.kill()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0 if received else code


def _terminate_with_parent() -> None:
    """In the child, before it runs the server: ask the Linux kernel to send it SIGTERM
    when its parent dies (best effort; elsewhere nothing)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):
        pass


PR_SET_PDEATHSIG = 1


def _open_browser_when_ready(url: str, timeout: float = 60.0) -> None:
    """Open ``url`` in the desktop's browser once the server answers (never a text-mode
    browser in the terminal: only where a graphical session is present)."""
    graphical = sys.platform in ("darwin", "win32") or any(
        os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY")
    )
    if not graphical:
        return
    # lazy: start-up time (urllib loads http and ssl: only to open the browser)
    import urllib.request
    import webbrowser

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            health = url.split("/?", 1)[0] + "/_stcore/health"  # without the token
            with urllib.request.urlopen(health, timeout=2) as response:
                if response.status == 200:
                    webbrowser.open(url)
                    return
        except OSError:
            pass
        time.sleep(0.5)
