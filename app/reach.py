"""Whether the links the server hands out can reach anyone else, and which of this
machine's addresses could: the host page's advice and what ``make run`` prints.

Only the machine's own interfaces are listed (psutil); nothing is sent anywhere.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import psutil

IP = ipaddress.IPv4Address | ipaddress.IPv6Address
# Bridges to containers and virtual machines on this computer: nobody else reaches them.
_INTERNAL_BRIDGES = ("docker", "br-", "veth", "virbr", "vnet", "cni", "podman", "lxcbr", "lxdbr", "flannel", "kube")
_VPN_INTERFACES = ("tailscale", "wg", "tun", "tap", "zt", "nebula", "utun", "ppp")
_CGNAT = ipaddress.ip_network("100.64.0.0/10")  # Tailscale and other overlay networks hand these out
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}
WILDCARDS = {"0.0.0.0", "::", ""}


@dataclass(frozen=True)
class Address:
    """One address of this machine that links could be made with."""

    url: str  # e.g. http://192.168.1.20:8000
    interface: str
    kind: str  # lan | vpn | public | link-local | this-machine
    label: str


@dataclass(frozen=True)
class Reach:
    """What the host page says about where its links lead."""

    root: str  # the address links are made with now
    source: str  # public_url | chosen | request
    kind: str  # this-machine | link-local | lan | vpn | public | name | elsewhere
    reaches_others: bool
    summary: str
    listens_only_here: bool  # HOST is a loopback address
    candidates: list[Address] = field(default_factory=list)


def interface_addresses() -> list[tuple[str, IP]]:
    """(interface, address) for every interface that is up, IPv4 first."""
    try:
        stats = psutil.net_if_stats()
        found = []
        for name, addrs in psutil.net_if_addrs().items():
            if name in stats and not stats[name].isup:
                continue
            for addr in addrs:
                try:
                    ip = ipaddress.ip_address(addr.address.split("%", 1)[0])
                except ValueError:  # a hardware (MAC) address
                    continue
                found.append((name, ip))
    except OSError:  # no /proc or /sys to read (a locked-down container): nothing to offer
        return []
    return sorted(found, key=lambda pair: (pair[1].version, pair[0]))


def address_kind(ip: IP, interface: str = "") -> str:
    """How far an address of this machine reaches.

    >>> address_kind(ipaddress.ip_address("127.0.0.1")), address_kind(ipaddress.ip_address("192.168.1.4"), "wlan0")
    ('this-machine', 'lan')
    >>> address_kind(ipaddress.ip_address("100.101.7.2"), "tailscale0"), address_kind(ipaddress.ip_address("172.17.0.1"), "docker0")
    ('vpn', 'this-machine')
    """
    if ip.is_loopback or ip.is_unspecified or interface.startswith(_INTERNAL_BRIDGES):
        return "this-machine"
    if ip.is_link_local:
        return "link-local"
    if interface.startswith(_VPN_INTERFACES) or (ip.version == 4 and ip in _CGNAT):
        return "vpn"
    if ip.is_private:
        return "lan"
    return "public" if ip.is_global else "this-machine"


LABELS = {"lan": "local network", "vpn": "VPN", "public": "public internet",
          "link-local": "link-local (this cable or Wi-Fi only, and it can change)", "this-machine": "this computer only"}


def candidates(scheme: str, port: int | None, listen_host: str,
               found: list[tuple[str, IP]] | None = None) -> list[Address]:
    """Addresses of this machine that another device could open links with: LAN first,
    then VPN, then public (link-local and this-machine-only ones are left out). When the
    server listens on one address only, only that one."""
    found = interface_addresses() if found is None else found
    order = {"lan": 0, "vpn": 1, "public": 2}
    picked = []
    for interface, ip in found:
        kind = address_kind(ip, interface)
        if kind not in order or (listen_host not in WILDCARDS and not is_loopback(listen_host)
                                 and str(ip) != listen_host):
            continue
        host = f"[{ip}]" if ip.version == 6 else str(ip)
        netloc = host if port in (None, 80 if scheme == "http" else 443) else f"{host}:{port}"
        picked.append(Address(f"{scheme}://{netloc}", interface, kind, f"{LABELS[kind]} ({interface})"))
    return sorted(picked, key=lambda a: order[a.kind])


def judge(root: str, source: str, listen_host: str, listen_port: int,
          found: list[tuple[str, IP]] | None = None) -> Reach:
    """Whether links made with ``root`` can open on a friend's device, and why not; and
    the addresses (with the port the server listens on) that another device could use."""
    found = interface_addresses() if found is None else found
    parts = urlsplit(root)
    host = (parts.hostname or "").lower()
    only_here = is_loopback(listen_host)
    offer = candidates(parts.scheme or "http", listen_port, listen_host, found)
    try:
        ip: IP | None = ipaddress.ip_address(host)
    except ValueError:
        ip = None
    if ip is None:
        if host in LOOPBACK_NAMES or host.endswith(".localhost"):
            kind = "this-machine"
        else:
            kind = "name"
    else:
        here = {str(a): i for i, a in found}
        kind = address_kind(ip, here[str(ip)]) if str(ip) in here else (
            "this-machine" if ip.is_loopback else "elsewhere")
    reaches = kind not in ("this-machine", "link-local") and not (only_here and kind != "name")
    return Reach(root, source, kind, reaches, _summary(kind, host, source), only_here, offer)


def _summary(kind: str, host: str, source: str) -> str:
    if source == "public_url":
        return f"Links are made with PUBLIC_URL ({host}), set by whoever runs the server."
    return {
        "this-machine": f"These links only open on this computer: {host} is the address a device gives "
                        "itself, so on a friend's phone it leads to the phone, not to this game.",
        "link-local": f"These links use {host}, a link-local address: only devices on the same cable or "
                      "Wi-Fi segment reach it, and it can change.",
        "lan": f"These links use {host}, this machine's local-network address: friends on the same network "
               "(your Wi-Fi) can open them; friends elsewhere need a VPN or a reverse proxy (see the README).",
        "vpn": f"These links use {host}, this machine's VPN address: friends on the same VPN can open them.",
        "public": f"These links use {host}, a public address of this machine: anyone on the internet who has a "
                  "link can reach it (put HTTPS in front: see the README).",
        "name": f"These links use the name {host}: they open wherever that name leads to this server.",
        "elsewhere": f"These links use {host}, which is not an address of this machine (a router or proxy "
                     "forwarding to it, presumably): they open where that address reaches.",
    }[kind]


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def friends_can_use(scheme: str, port: int, listen_host: str) -> list[str]:
    """What ``make run`` prints: one line per address another device could use."""
    if is_loopback(listen_host):
        return []
    return [f"{a.url}  ({a.label})" for a in candidates(scheme, port, listen_host)]
