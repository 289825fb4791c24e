"""Connections that cannot hold the server hostage.

uvicorn has a keep-alive timeout between requests but none while a request arrives, and its
concurrency cap answers 503 to everybody once one client fills it. So every HTTP connection
goes through ``ConnectionGuard``:

- a client address may hold at most ``connections_per_address`` connections that have not
  become websockets (websockets have their own cap in ``app.api.ws``); the next one gets a
  429 and is closed before any of it is read;
- a request must arrive whole (headers and body) within ``request_timeout`` seconds of its
  first byte (of the connection, for the first request), or the connection gets a 408 and
  is closed: a slow-loris client cannot keep sockets open by trickling bytes;
- a request's head (request line and headers) may be at most ``max_header_bytes`` long,
  counted as it arrives, whichever parser runs: a longer one gets 431 and the connection
  closes before the parser has buffered more (the count of headers is checked in
  ``app.main`` once they are parsed);
- ``max_connections`` is shared fairly. Many addresses together (cheap with IPv6) could
  fill it with requests that never finish; so when it is full, a newcomer is admitted in
  place of a connection that is only waiting: first a request still arriving, from the
  address holding the most connections, oldest first; then an idle kept-alive
  connection. Only when every connection is busy (a request being answered, a websocket)
  does the newcomer get 503. Slow clients lose their place; normal ones keep being served.

Reverse proxies named in FORWARDED_ALLOW_IPS are exempt from the per-address cap: they
carry many clients' connections, and limiting slow clients is then the proxy's job.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from app.settings import Settings, get_settings

try:  # the fast parser, when installed (uvicorn[standard] brings it)
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

Address = str


class TrustedProxies:
    """FORWARDED_ALLOW_IPS: addresses and networks, "*" for all, "" for none.

    >>> TrustedProxies("127.0.0.1, 10.0.0.0/8").trusts("10.1.2.3")
    True
    >>> TrustedProxies("").trusts("127.0.0.1")
    False
    """

    def __init__(self, spec: str) -> None:
        items = [item.strip() for item in spec.split(",") if item.strip()]
        self.everyone = "*" in items
        self.networks = []
        for item in items:
            if item != "*":
                try:
                    self.networks.append(ipaddress.ip_network(item, strict=False))
                except ValueError:
                    raise SystemExit(f"FORWARDED_ALLOW_IPS: {item!r} is not an address or network.") from None

    def trusts(self, host: str) -> bool:
        if self.everyone:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in net for net in self.networks)


def address_key(host: str) -> Address:
    """What counts as one client: an IPv4 address, or an IPv6 /64 (one home network gets a
    whole /64, so counting single IPv6 addresses would let one client be thousands).

    >>> address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9")
    True
    >>> address_key("192.0.2.7")
    '192.0.2.7'
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{host}/64", strict=False))
    return str(address)


def plain_response(status: str, message: str) -> bytes:
    body = message.encode()
    return (f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
            f"content-length: {len(body)}\r\n\r\n").encode() + body


class ConnectionGuard:
    """The per-address table of open HTTP connections of one server process, and the
    fair share of its total (see the module docstring)."""

    def __init__(self, settings: Settings) -> None:
        self.per_address = settings.connections_per_address
        self.max_connections = settings.max_connections
        self.request_timeout = settings.request_timeout
        self.max_header_bytes = settings.max_header_bytes
        self.proxies = TrustedProxies(settings.forwarded_allow_ips)
        self.open: dict[Address, set[object]] = {}

    def admit(self, connection: object, host: str | None) -> bool:
        if host is None or self.proxies.trusts(host):
            return True
        key = address_key(host)
        held = self.open.setdefault(key, set())
        if len(held) >= self.per_address:
            if not held:
                del self.open[key]
            return False
        held.add(connection)
        return True

    def make_room(self, connections: set[Any], newcomer: object) -> bool:
        """Whether ``newcomer`` may stay: yes while the total is under the cap, else only
        if a waiting connection gives up its place (closed here)."""
        if len(connections) < self.max_connections:
            return True
        victim = self._slowest(connections, newcomer)
        if victim is None:
            return False
        victim.shed()
        return True

    def _slowest(self, connections: set[Any], newcomer: object) -> Any:
        arriving, idle = [], []
        for connection in connections:
            if connection is newcomer or not isinstance(connection, GuardedConnection) or connection.shedding:
                continue
            state = connection.waiting_for()
            if state == "request":
                arriving.append(connection)
            elif state == "idle":
                idle.append(connection)
        if arriving:
            # From the address that holds the most, its request that has waited longest.
            return max(arriving, key=lambda c: (self.held_by(c.peer_key), -c.waiting_since))
        if idle:
            return min(idle, key=lambda c: c.waiting_since)
        return None

    def held_by(self, key: Address | None) -> int:
        return len(self.open.get(key, ())) if key is not None else 0

    def release(self, connection: object, host: str | None) -> None:
        if host is None:
            return
        key = address_key(host)
        held = self.open.get(key)
        if held is not None:
            held.discard(connection)
            if not held:
                del self.open[key]

    def connection_count(self) -> int:
        return sum(len(held) for held in self.open.values())


TOO_MANY = plain_response("429 Too Many Requests",
                          "Too many open connections from your address; close some tabs and try again.")
TOO_SLOW = plain_response("408 Request Timeout", "The request took too long to arrive; please send it again.")
TOO_BUSY = plain_response("503 Service Unavailable",
                          "The server is holding as many connections as it can; please try again in a moment.")
HEAD_TOO_LARGE = plain_response("431 Request Header Fields Too Large",
                                "The request's headers are too large; this server takes at most a few kilobytes.")
SHED = plain_response("503 Service Unavailable",
                      "The server needed this connection for someone else while the request was still arriving; "
                      "please send it again.")
END_OF_HEAD = b"\r\n\r\n"


class GuardedConnection:
    """Mixed into uvicorn's HTTP protocols (see the module docstring)."""

    settings: Settings | None = None  # tests set their own; the server reads the environment

    def _guard(self) -> ConnectionGuard:
        state: Any = self.server_state  # type: ignore[attr-defined]
        guard = getattr(state, "keydom_guard", None)
        if guard is None:
            guard = state.keydom_guard = ConnectionGuard(self.settings or get_settings())
        return guard

    shedding = False
    waiting_since = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        self._peer_host: str | None = peer[0] if isinstance(peer, tuple) else None
        self.peer_key = address_key(self._peer_host) if self._peer_host is not None else None
        self._deadline: asyncio.TimerHandle | None = None
        self._head_bytes = 0  # of the request head arriving now
        self._head_tail = b""  # its last bytes, in case the blank line is split between reads
        guard = self._guard()
        self._admitted = guard.admit(self, self._peer_host)
        if not self._admitted:
            transport.write(TOO_MANY)
            transport.close()
            return
        if not guard.make_room(self.server_state.connections, self):  # type: ignore[attr-defined]
            guard.release(self, self._peer_host)
            self._admitted = False
            transport.write(TOO_BUSY)
            transport.close()
            return
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def waiting_for(self) -> str:
        """"request" while a request is arriving (or none has begun on a new connection),
        "idle" between requests on a kept-alive connection, "busy" while one is answered."""
        if self._deadline is not None:
            return "request"
        cycle = self.cycle  # type: ignore[attr-defined]
        if cycle is None or cycle.response_complete:
            return "idle"
        return "busy"

    def shed(self) -> None:
        """Give this connection's place to a newcomer (see the module docstring)."""
        arriving = self.waiting_for() == "request"
        self.shedding = True
        self._disarm()
        transport: asyncio.Transport = self.transport  # type: ignore[attr-defined]
        if not transport.is_closing():
            if arriving:
                transport.write(SHED)
            transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._admitted:
            return
        self._disarm()
        self._guard().release(self, self._peer_host)
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        if not self._admitted or self.shedding:
            return  # refused or given up: its answer is on its way and the socket closing
        if self._head_too_large(data):
            self.shedding = True
            self._disarm()
            self.transport.write(HEAD_TOO_LARGE)  # type: ignore[attr-defined]
            self.transport.close()  # type: ignore[attr-defined]
            return
        super().data_received(data)  # type: ignore[misc]
        if not self._admitted:
            return  # upgraded to a websocket
        cycle = self.cycle  # type: ignore[attr-defined]
        if cycle is None or cycle.response_complete:
            self._arm()  # bytes of a request whose headers are not complete yet
        elif cycle.more_body:
            self._arm()  # headers complete, the body still arriving
        else:
            self._disarm()

    def _head_too_large(self, data: bytes) -> bool:
        """Count the bytes of a request head as they arrive (before the parser sees them),
        up to the blank line that ends it; the body that may follow is not counted."""
        cycle = self.cycle  # type: ignore[attr-defined]
        if cycle is not None and not cycle.response_complete:
            return False  # a request is being answered: these are its body's bytes
        seen = self._head_tail + data
        end = seen.find(END_OF_HEAD)
        if end >= 0:
            head = self._head_bytes + end + len(END_OF_HEAD) - len(self._head_tail)
            self._head_bytes, self._head_tail = 0, b""
            return head > self._guard().max_header_bytes
        self._head_bytes += len(data)
        self._head_tail = seen[-3:]
        return self._head_bytes > self._guard().max_header_bytes

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        cycle = self.cycle  # type: ignore[attr-defined]
        if self._admitted and cycle is not None and not cycle.response_complete and cycle.more_body:
            self._arm()  # a pipelined request whose body is still arriving

    def handle_websocket_upgrade(self, *args: Any) -> None:
        # From here on the socket is a websocket: its own cap and keep-alive pings apply.
        self._disarm()
        self._guard().release(self, self._peer_host)
        self._admitted = False
        super().handle_websocket_upgrade(*args)  # type: ignore[misc]

    def _arm(self) -> None:
        if self._deadline is None:
            # Not loop.time(): uvloop's is cached per iteration, to the millisecond.
            self.waiting_since = time.monotonic()
            timeout = self._guard().request_timeout
            self._deadline = self.loop.call_later(timeout, self._too_slow)  # type: ignore[attr-defined]

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.waiting_since = time.monotonic()  # idle from now, if it is

    def _too_slow(self) -> None:
        self._deadline = None
        transport: asyncio.Transport = self.transport  # type: ignore[attr-defined]
        if transport.is_closing():
            return
        cycle = self.cycle  # type: ignore[attr-defined]
        if cycle is None or cycle.response_complete:
            transport.write(TOO_SLOW)  # nothing else is being written on this connection
        transport.close()  # a body still trickling in: the app sees the client leave


class GuardedH11Protocol(GuardedConnection, H11Protocol):
    pass


if HttpToolsProtocol is not None:
    class GuardedHttpToolsProtocol(GuardedConnection, HttpToolsProtocol):
        pass


def guarded_protocol(kind: str = "auto") -> type:
    """The uvicorn ``http`` protocol class for "auto", "httptools" or "h11"."""
    if kind in ("auto", "httptools") and HttpToolsProtocol is not None:
        return GuardedHttpToolsProtocol
    return GuardedH11Protocol
