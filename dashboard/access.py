"""Who may use the dashboard: a secret token when it listens beyond this machine.

``dsq dashboard`` binds to 127.0.0.1, where only this machine's users reach it. With a
``--host`` that is not a loopback address, anyone who reaches the port could launch
batches, write into the data folder and start engines, so the dashboard then requires a
token (``--token``, ``$DSQ_DASHBOARD_TOKEN``, or one generated at start and printed in
the address, :mod:`sim.commands.dashboard`), as Jupyter does; the server reads it from
:data:`TOKEN_VAR`.

:class:`TokenGate` (ASGI middleware of the server) lets a request through when it carries
the token in its query (``?token=...``: a page or download is then redirected to the same
address without it, with the token kept in a cookie of this port), in that cookie, or in
an ``Authorization: token ...`` header. Every other request, pages, the app's websocket,
downloads and media, is refused (403); only the health check stays open.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

TOKEN_VAR = "DSQ_DASHBOARD_TOKEN"
PARAM = "token"
OPEN_PATHS = ("/_stcore/health", "/healthz")  # answer "ok": nothing to protect

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def cookie_name(port: int | None) -> str:
    """The cookie that keeps the token (one per port: cookies are not kept by port)."""
    return f"dsq_token_{port or 0}"


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


class TokenGate:
    """ASGI middleware: only requests carrying ``token`` pass (see the module docstring);
    no token: every request passes."""

    def __init__(self, app: ASGIApp, token: str | None = None) -> None:
        self.app = app
        self.token = token or None

    def _valid(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())  # type: ignore[union-attr]

    async def __call__(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        if (
            self.token is None
            or scope["type"] not in ("http", "websocket")
            or scope.get("path") in OPEN_PATHS
        ):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        port = (scope.get("server") or (None, None))[1]
        name = cookie_name(port)
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = [v for k, v in query if k == PARAM]
        if given and self._valid(given[-1]) and scope["type"] == "http":
            rest = urlencode([(k, v) for k, v in query if k != PARAM])
            path = scope.get("raw_path") or quote(scope.get("path", "/")).encode()
            where = path.decode("latin-1") + (f"?{rest}" if rest else "")
            await _answer(send, 303, "", [
                ("location", where),
                ("set-cookie", f"{name}={self.token}; Path=/; HttpOnly; SameSite=Strict"),
            ])  # fmt: skip
            return
        cookies = SimpleCookie()
        try:
            cookies.load(headers.get("cookie", ""))
        except Exception:  # noqa: BLE001 - a malformed cookie header is no token
            cookies = SimpleCookie()
        auth = headers.get("authorization", "")
        if (name in cookies and self._valid(cookies[name].value)) or (
            auth.lower().startswith("token ") and self._valid(auth[6:].strip())
        ):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await _answer(send, 403, REFUSED)


REFUSED = (
    "This dashboard needs its access token: open the address `dsq dashboard` printed "
    "(it ends in ?token=...), or ask whoever started it.\n"
)


async def _answer(
    send: Send,
    status: int,
    body: str,
    headers: list[tuple[str, str]] | None = None,
) -> None:
    data = body.encode("utf-8")
    raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers or []]
    raw.append((b"content-type", b"text/plain; charset=utf-8"))
    raw.append((b"content-length", str(len(data)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": data})
