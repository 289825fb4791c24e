"""Connections that cannot hold the server hostage.

uvicorn has a keep-alive timeout between requests but none while a request arrives, and its
concurrency cap answers 503 to everybody once one client fills it. So every HTTP connection
goes through ``ConnectionGuard``:

- a client address may hold at most ``connections_per_address`` connections that have not
  become websockets (websockets have their own cap in ``app.api.ws``); the next one gets a
  429 and is closed before any of it is read;
- a request must arrive whole (headers and body) within ``request_timeout`` seconds of its
  first byte (of the connection, for the first request), or the connection gets a 408 and
  is closed: a slow-loris client cannot keep sockets open by trickling bytes.

Reverse proxies named in FORWARDED_ALLOW_IPS are exempt from the per-address cap: they
carry many clients' connections, and limiting slow clients is then the proxy's job.
"""

from __future__ import annotations

import asyncio
import ipaddress
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
    """The per-address table of open HTTP connections of one server process."""

    def __init__(self, settings: Settings) -> None:
        self.per_address = settings.connections_per_address
        self.request_timeout = settings.request_timeout
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


class GuardedConnection:
    """Mixed into uvicorn's HTTP protocols (see the module docstring)."""

    settings: Settings | None = None  # tests set their own; the server reads the environment

    def _guard(self) -> ConnectionGuard:
        state: Any = self.server_state  # type: ignore[attr-defined]
        guard = getattr(state, "keydom_guard", None)
        if guard is None:
            guard = state.keydom_guard = ConnectionGuard(self.settings or get_settings())
        return guard

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        self._peer_host: str | None = peer[0] if isinstance(peer, tuple) else None
        self._deadline: asyncio.TimerHandle | None = None
        self._admitted = self._guard().admit(self, self._peer_host)
        if not self._admitted:
            transport.write(TOO_MANY)
            transport.close()
            return
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._admitted:
            return
        self._disarm()
        self._guard().release(self, self._peer_host)
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        if not self._admitted:
            return  # refused: the 429 is on its way and the socket closing
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
            timeout = self._guard().request_timeout
            self._deadline = self.loop.call_later(timeout, self._too_slow)  # type: ignore[attr-defined]

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

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
