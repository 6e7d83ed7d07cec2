"""Who gets into a real ``dsq dashboard``: bound to 0.0.0.0 (reached by the tests only on
127.0.0.1), it requires the token it printed, from a second client without it (refused:
pages, the app's websocket, downloads, media) and with it (served, in Chromium too);
on 127.0.0.1 it stays open. Streamed downloads beyond the bound are a 503 with
``Retry-After``."""

from __future__ import annotations

import http.client
import re
import socket
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.browser import chromium, copy_sample, new_tab, wait_idle
from tests.support.procs import wait_for
from tests.support.server import dashboard_server

pytestmark = pytest.mark.browser

WS_HEADERS = {
    "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
}  # fmt: skip


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_sample(tmp_path_factory.mktemp("access") / "data")


@pytest.fixture(scope="module")
def exposed(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A dashboard bound to 0.0.0.0: its URL on 127.0.0.1 and the token it printed."""
    log = tmp_path_factory.mktemp("access-log") / "dashboard.log"
    with dashboard_server(data_dir, log, host="0.0.0.0") as url:
        printed = log.read_text(encoding="utf-8", errors="replace")
        found = re.search(r"http://0\.0\.0\.0:\d+/\?token=([A-Za-z0-9_-]+) ", printed)
        assert found, printed
        yield url, found.group(1)


def get(url: str, path: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    """One GET from a client of its own (no cookie jar): the response, body read."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    conn.request("GET", path, headers=headers or {})
    res = conn.getresponse()
    res.body = res.read()  # type: ignore[attr-defined]
    conn.close()
    return res


PROTECTED = ["/", "/dsq/games.csv", "/dsq/games.parquet?rules=standard", "/media/x.csv",
             "/_stcore/host-config", "/_stcore/stream"]  # fmt: skip


def test_without_the_token_nothing_is_served(exposed: tuple[str, str]) -> None:
    url, token = exposed
    for path in PROTECTED:
        assert get(url, path).status == 403, path
    assert get(url, "/_stcore/stream", WS_HEADERS).status == 403  # the app's websocket
    for wrong in (token + "x", token[:-1], ""):
        assert get(url, f"/?token={wrong}").status == 403
        assert get(url, "/dsq/games.csv", {"Cookie": f"dsq_token_0={token}"}).status == 403
    assert b"needs its access token" in get(url, "/").body  # type: ignore[attr-defined]
    assert get(url, "/_stcore/health").status == 200


def test_with_the_token_everything_is_served(exposed: tuple[str, str]) -> None:
    url, token = exposed
    port = urllib.parse.urlsplit(url).port
    first = get(url, f"/dsq/games.jsonl?min_plies=1&token={token}")
    assert first.status == 303
    assert first.getheader("Location") == "/dsq/games.jsonl?min_plies=1"  # the token dropped
    cookie = first.getheader("Set-Cookie", "")
    assert cookie.startswith(f"dsq_token_{port}={token};") and "HttpOnly" in cookie
    kept = {"Cookie": f"dsq_token_{port}={token}"}
    assert get(url, "/", kept).status == 200
    served = get(url, "/dsq/games.jsonl?min_plies=1", kept)
    assert served.status == 200 and served.body.count(b"\n") > 0  # type: ignore[attr-defined]
    assert get(url, "/dsq/games.csv", {"Authorization": f"token {token}"}).status == 200


def test_a_browser_with_the_printed_address_gets_the_app(exposed: tuple[str, str]) -> None:
    url, token = exposed
    with chromium() as browser:
        tab = new_tab(browser)
        tab.goto(f"{url}/?token={token}")
        wait_idle(tab)
        assert "token" not in tab.url
        tab.locator("[data-testid='stSidebar']").wait_for(timeout=120_000)  # the app runs
        tab.reload()  # the cookie alone lets it in again
        wait_idle(tab)
        tab.locator("[data-testid='stSidebar']").wait_for(timeout=120_000)
        tab.context.close()
        other = new_tab(browser)  # another browser context: no cookie
        other.goto(url)
        assert "needs its access token" in other.content()
        other.context.close()


def test_loopback_stays_open_and_downloads_are_bounded(data_dir: Path, tmp_path: Path) -> None:
    with dashboard_server(data_dir, tmp_path / "log", DSQ_DASHBOARD_MAX_DOWNLOADS="1") as url:
        assert get(url, "/").status == 200  # no token on 127.0.0.1
        parts = urllib.parse.urlsplit(url)
        held = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        held.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # reads little: it holds
        held.connect((parts.hostname, parts.port))
        try:
            held.sendall(b"GET /dsq/games.jsonl HTTP/1.1\r\nHost: x\r\n\r\n")
            head = b""
            while b"\r\n\r\n" not in head:
                head += held.recv(4096)
            assert head.startswith(b"HTTP/1.1 200"), head[:200]
            busy = get(url, "/dsq/games.csv")
            assert busy.status == 503 and busy.getheader("Retry-After") == "10"
            assert b"downloads are under way" in busy.body  # type: ignore[attr-defined]
        finally:
            held.close()  # the client goes away: its slot is given back
        wait_for(lambda: get(url, "/dsq/games.csv").status == 200, "the download slot back")
