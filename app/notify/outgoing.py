"""The outgoing-request policy: where the server itself may send requests.

Every request the server makes on someone's behalf (Apprise URLs a seat typed, the host's
mail server, Web Push endpoints, anything added later) runs inside :meth:`Policy.guard`.
Inside it, every socket this thread connects (or sends a datagram from) is checked on the
address it is about to reach, after DNS resolution, so a name that resolves to a private
address, a redirect to one, or an address written in decimal or hex are all caught the same
way: by a check in ``socket.socket``'s connect and sendto, which runs just before the
system call whichever library made the socket (requests, smtplib, TLS, anything in Python).

By default refused: loopback, private (RFC 1918, unique-local), link-local, CGNAT, multicast,
unspecified, reserved and documentation ranges, also when wrapped in IPv6 (IPv4-mapped,
6to4, Teredo, NAT64). ``OUTGOING_ALLOWED_HOSTS`` lists what a self-hoster lets through
(their own ntfy or Gotify on the LAN): names (their addresses, as resolved when checked),
addresses or networks.

What can be judged before sending (the scheme; a destination written as a literal private
address) is refused when a seat saves its settings, by :meth:`Policy.judge_url`.
"""

from __future__ import annotations

import _socket
import ipaddress
import re
import socket
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterable, Iterator
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

REFUSED = "refused by the server's outgoing-request policy"
FAILED = "delivery failed"

# Apprise services a person is told through, all spoken over HTTP(S). Raw TCP or UDP ones
# (irc://, syslog://, amqp://, aprs://…) only if the host adds them (OUTGOING_EXTRA_SCHEMES).
NOTIFICATION_SCHEMES = frozenset("""
    ntfy ntfys gotify gotifys discord slack tgram matrix matrixs json jsons form forms xml xmls
    pover pbul msteams workflow workflows mmost mmosts rocket rockets signal signals apprise apprises
    bark barks ifttt join pushed zulip guilded revolt line gchat wxteams webex ncloud nclouds
    nctalk nctalks mastodon mastodons toot toots bsky bluesky pushdeer pushdeers psafer psafers
    spush simplepush prowl notica noticas lametric lametrics hassio hassios whatsapp threema viber
    kook dingtalk feishu lark wecombot pushplus schan qq chanify wxpusher pjet pjets flock ryver
    twist office365 o365 opsgenie pagerduty pushy onesignal notifiarr techulus push gorush gorushs
    synology synologys misskey misskeys humhub humhubs
""".split())
# The host's own mail server (SMTP_URL) speaks SMTP: allowed for the mail channel only.
MAIL_SCHEMES = frozenset({"mailto", "mailtos"})

# Beyond ``not is_global``: ranges Python counts as global but no one should be sent to
# from a server (multicast is "global" to the ipaddress module).
_ALSO_REFUSED: tuple[Network, ...] = tuple(ipaddress.ip_network(n) for n in (
    "0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "198.18.0.0/15", "224.0.0.0/4", "240.0.0.0/4",
    "ff00::/8", "64:ff9b:1::/48", "100::/64",
))
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_TEREDO = ipaddress.ip_network("2001::/32")  # a tunnel through a relay: never a plain public host
# An IPv4 address in one of the forms inet_aton (and so getaddrinfo) accepts: 127.1,
# 2130706433, 0x7f000001, 0177.0.0.1.
_LEGACY_V4 = re.compile(r"^(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+)){0,3}$", re.IGNORECASE)


class OutgoingRefused(ConnectionError):
    """Raised inside a guarded request when its destination is not allowed (an OSError,
    so every library treats it as the connection failure it is)."""


class BadDestination(ValueError):
    """A URL refused when it is saved: the message is for the person who typed it."""


def literal_address(host: str) -> Address | None:
    """The address a host written as a literal means (any of its forms), else None."""
    host = host.strip().strip("[]").split("%", 1)[0]
    if not host:
        return None
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    if _LEGACY_V4.match(host):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


def is_internal(address: Address) -> bool:
    """True for any address that is not a plain public one (see the module's list)."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_v4(address)
        if embedded is not None:  # the IPv4 address inside is where the packets go
            return is_internal(embedded) or address in _TEREDO
    if not address.is_global or address.is_multicast or address.is_unspecified or address.is_reserved:
        return True
    return any(address in network for network in _ALSO_REFUSED if network.version == address.version)


def _embedded_v4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if int(address) >> 32 == 0:  # IPv4-compatible ::a.b.c.d (deprecated, still routed by some)
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


@dataclass
class Policy:
    """What outgoing requests may reach. ``allowed``: names, addresses or networks let
    through although internal; ``extra_schemes``: Apprise services allowed beyond the
    notification ones."""

    allowed: Iterable[str] = ()
    extra_schemes: Iterable[str] = ()
    name_ttl: float = 60.0  # how long an allowed name's resolved addresses are trusted
    _networks: list[Network] = field(init=False, default_factory=list)
    _names: list[str] = field(init=False, default_factory=list)
    _resolved: dict[str, tuple[float, set[Address]]] = field(init=False, default_factory=dict)
    _schemes: frozenset[str] = field(init=False, default=frozenset())

    def __post_init__(self) -> None:
        for entry in (e.strip().lower() for e in self.allowed):
            if not entry:
                continue
            try:
                self._networks.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
                continue
            except ValueError:
                pass
            literal = literal_address(entry)
            if literal is not None:
                self._networks.append(ipaddress.ip_network(literal))
            elif re.fullmatch(r"[a-z0-9_.-]+", entry) and not entry.startswith("."):
                self._names.append(entry.rstrip("."))
            else:
                raise ValueError(f"'{entry}' is not a host name, an address or a network (like 192.168.1.0/24).")
        self._schemes = NOTIFICATION_SCHEMES | {s.strip().lower().rstrip(":/") for s in self.extra_schemes if s.strip()}

    # --- Judging ---
    def allows(self, address: Address) -> bool:
        if not is_internal(address):
            return True
        if any(address in n for n in self._networks if n.version == address.version):
            return True
        return any(address in self._addresses_of(name) for name in self._names)

    def allows_name(self, host: str) -> bool:
        return host.lower().rstrip(".") in self._names

    def listed(self, host: str) -> bool:
        """The host named this name, or an internal address it lets through, in its list
        (a service on its own network, which may speak plain http)."""
        literal = literal_address(host)
        if literal is not None:
            return is_internal(literal) and self.allows(literal)
        return self.allows_name(host)

    def _addresses_of(self, name: str) -> set[Address]:
        now = time.monotonic()
        cached = self._resolved.get(name)
        if cached and now - cached[0] < self.name_ttl:
            return cached[1]
        try:
            found = {ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in socket.getaddrinfo(name, None)}
        except OSError:
            found = set()
        self._resolved[name] = (now, found)
        return found

    def allows_scheme(self, scheme: str, mail: bool = False) -> bool:
        scheme = scheme.lower()
        return scheme in self._schemes or (mail and scheme in MAIL_SCHEMES)

    def judge_url(self, url: str, mail: bool = False) -> None:
        """Refuse now what is refused anyway: a literal internal address, a scheme not allowed."""
        self.judge_host(url)
        self.judge_scheme(url, mail)

    def judge_scheme(self, url: str, mail: bool = False) -> None:
        scheme = url.partition("://")[0]
        if not self.allows_scheme(scheme, mail):
            raise BadDestination(
                f"'{scheme}://' is not allowed on this server: it sends notifications through web services "
                "(ntfy, Gotify, Discord, Matrix, json:// webhooks…). Its host can allow more with OUTGOING_EXTRA_SCHEMES.")

    def judge_host(self, url: str) -> None:
        try:
            host = urlsplit("http://" + url.partition("://")[2]).hostname or ""
        except ValueError:
            host = ""
        literal = literal_address(host)
        if literal is not None and not self.allows(literal):
            raise BadDestination(
                f"{host} is an address on the server's own network ({_kind(literal)}); this server does not send "
                "requests there. Use an address on the internet, or ask the host to add it to OUTGOING_ALLOWED_HOSTS.")

    # --- Guarding ---
    @contextmanager
    def guard(self) -> Iterator[Guarded]:
        """Every connection this thread makes inside is checked; ``.refused`` tells afterwards
        whether one was stopped (the caller says so instead of the library's error)."""
        _install_hook()
        outer = getattr(_local, "active", None)
        active = Guarded(self)
        _local.active = active
        try:
            yield active
        finally:
            _local.active = outer


@dataclass
class Guarded:
    policy: Policy
    refused: list[str] = field(default_factory=list)  # what was stopped, for the host's log


def _kind(address: Address) -> str:
    if isinstance(address, ipaddress.IPv6Address) and _embedded_v4(address) is not None:
        return "an IPv4 address wrapped in IPv6"
    for test, name in (("is_loopback", "loopback"), ("is_unspecified", "unspecified"), ("is_link_local", "link-local"),
                       ("is_multicast", "multicast"), ("is_private", "private")):
        if getattr(address, test):
            return name
    return "not a public address"


# --- The check on every socket (installed once; it looks only at guarded threads) ---
# ``socket.socket`` is a Python class over the C socket: its connect, connect_ex, sendto
# and sendmsg are replaced by versions that check the address first when the calling
# thread is inside a guard (TLS sockets, smtplib, urllib3 and everything built on them go
# through these). Elsewhere they cost one thread-local lookup. (Python's audit hook for
# ``socket.connect`` would see the same calls, but it is called for every audited event
# of the process, ~700 per game action, at ~1 µs each.)
_local = threading.local()
_install_lock = threading.Lock()
_installed = False


def _install_hook() -> None:
    global _installed
    with _install_lock:
        if _installed:
            return
        plain = socket.socket

        def connect(self: socket.socket, address: object) -> None:
            _check(self, address)
            return _C_CONNECT(self, address)

        def connect_ex(self: socket.socket, address: object) -> int:
            _check(self, address)
            return _C_CONNECT_EX(self, address)

        def sendto(self: socket.socket, data: bytes, *rest: object) -> int:
            _check(self, rest[-1])
            return _C_SENDTO(self, data, *rest)

        def sendmsg(self: socket.socket, buffers: object, ancdata: object = (), flags: int = 0,
                    address: object = None) -> int:
            if address is not None:
                _check(self, address)
            return _C_SENDMSG(self, buffers, ancdata, flags, *(() if address is None else (address,)))

        plain.connect = connect  # type: ignore[method-assign]
        plain.connect_ex = connect_ex  # type: ignore[method-assign]
        plain.sendto = sendto  # type: ignore[method-assign]
        plain.sendmsg = sendmsg  # type: ignore[method-assign]
        _installed = True


_C_CONNECT = _socket.socket.connect
_C_CONNECT_EX = _socket.socket.connect_ex
_C_SENDTO = _socket.socket.sendto
_C_SENDMSG = _socket.socket.sendmsg


def _check(sock: socket.socket, address: object) -> None:
    active: Guarded | None = getattr(_local, "active", None)
    if active is None:
        return
    if sock.family not in (socket.AF_INET, socket.AF_INET6) or not isinstance(address, tuple):
        active.refused.append(f"a non-internet socket ({address!r})")
        raise OutgoingRefused(REFUSED)
    host = str(address[0]).split("%", 1)[0]
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        # A name handed straight to connect() would be resolved again inside it, unseen:
        # every library we use resolves first, so this only stops a way around the check.
        active.refused.append(f"an unresolved name ({host})")
        raise OutgoingRefused(REFUSED) from None
    if not active.policy.allows(ip):
        active.refused.append(f"{ip} ({_kind(ip)})")
        raise OutgoingRefused(REFUSED)
