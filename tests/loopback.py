"""A raw asyncio HTTP/1.1 server on loopback addresses, run in a thread, for tests and benches.

Handlers write bytes themselves, so a test can reset a connection mid-header, trickle a body
or stream gigabytes. Each route is `async def handler(req, w) -> bool` (True keeps the
connection alive). The server counts requests per path and what was in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Self

__all__ = ["LoopbackServer", "Request", "respond"]


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    host: str  # the local address the client connected to
    n: int = 0  # how many times this path was asked before (0 = first)
    body: bytes = b""


Handler = Callable[[Request, asyncio.StreamWriter], Awaitable[bool]]


async def respond(
    w: asyncio.StreamWriter,
    status: int,
    body: bytes = b"",
    headers: Mapping[str, str] | None = None,
    req: Request | None = None,
    delay: float = 0.0,
) -> bool:
    if delay:
        await asyncio.sleep(delay)
    hs = {"Content-Length": str(len(body)), "Content-Type": "text/html; charset=utf-8"}
    hs.update(headers or {})
    head = f"HTTP/1.1 {status} X\r\n" + "".join(f"{k}: {v}\r\n" for k, v in hs.items()) + "\r\n"
    w.write(head.encode("latin-1"))
    if not (req is not None and req.method == "HEAD"):
        w.write(body)
    await w.drain()
    return True


@dataclass
class LoopbackServer:
    routes: Mapping[str, Handler] | Callable[[Request], Handler | None]
    hosts: Iterable[str] = ("127.0.0.1",)
    ssl_context: ssl.SSLContext | None = None
    port: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    methods: Counter[tuple[str, str]] = field(default_factory=Counter)
    in_flight: int = 0
    max_in_flight: int = 0
    per_host_max: Counter[str] = field(default_factory=Counter)
    log: list[tuple[float, str, str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.hosts = list(self.hosts)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._lock = threading.Lock()
        self._host_now: Counter[str] = Counter()

    # --- lifecycle -------------------------------------------------------------------------
    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        if not self.port:
            with socket.socket() as s:
                s.bind((self.hosts[0], 0))
                self.port = s.getsockname()[1]
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("loopback server did not start")

    def stop(self) -> None:
        if self._loop and self._stop:
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(10)

    def url(self, path: str, host: str | None = None, scheme: str | None = None) -> str:
        scheme = scheme or ("https" if self.ssl_context else "http")
        return f"{scheme}://{host or self.hosts[0]}:{self.port}{path}"

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        server = await asyncio.start_server(
            self._conn,
            host=self.hosts,
            port=self.port,
            ssl=self.ssl_context,
            backlog=4096,
            reuse_address=True,
        )
        self._ready.set()
        async with server:
            await self._stop.wait()
            server.close()

    # --- connections -----------------------------------------------------------------------
    async def _conn(self, r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        local = w.get_extra_info("sockname")[0]
        try:
            while True:
                try:
                    raw = await r.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
                    return
                lines = raw.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                headers = {}
                for ln in lines[1:]:
                    if ":" in ln:
                        k, v = ln.split(":", 1)
                        headers[k.strip().lower()] = v.strip()
                body = b""
                if int(headers.get("content-length", "0") or 0):
                    body = await r.readexactly(int(headers["content-length"]))
                with self._lock:
                    n = self.counts[path]
                    self.counts[path] += 1
                    self.methods[(method, path)] += 1
                    self.in_flight += 1
                    self.max_in_flight = max(self.max_in_flight, self.in_flight)
                    self._host_now[local] += 1
                    self.per_host_max[local] = max(self.per_host_max[local], self._host_now[local])
                    self.log.append((time.monotonic(), local, method, path))
                req = Request(method, path, headers, local, n, body)
                handler = self._route(path)
                try:
                    if handler is None:
                        keep = await respond(w, 404, b"no route", req=req)
                    else:
                        keep = await handler(req, w)
                finally:
                    with self._lock:
                        self.in_flight -= 1
                        self._host_now[local] -= 1
                if not keep or headers.get("connection", "").lower() == "close":
                    return
        except (ConnectionError, asyncio.CancelledError):
            return
        finally:
            with contextlib.suppress(OSError, RuntimeError):  # peer gone, or the loop closing
                w.close()

    def _route(self, path: str) -> Handler | None:
        if callable(self.routes) and not isinstance(self.routes, Mapping):
            return self.routes(Request("", path, {}, ""))
        bare = path.split("?", 1)[0]
        return self.routes.get(bare)  # type: ignore[union-attr]
