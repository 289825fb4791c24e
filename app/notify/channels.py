"""Channels: checking what a seat typed, naming a channel, turning it into an Apprise URL.

A seat's channel is stored as typed: an Apprise URL, or ``email:<address>`` for its
e-mail address, which becomes a URL only when sending (the host's SMTP_URL with the
address as recipient), so the host's SMTP password is never copied into the database.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import apprise

from app.table.errors import TableError

from .outgoing import BadDestination, Policy

MAX_URLS = 5
MAX_URL_LENGTH = 1000
EMAIL_PREFIX = "email:"
PUSH_PREFIX = "push:"  # a Web Push subscription of the seat (its id in notify_push)
_EMAIL = re.compile(r"^[^@\s<>()\[\],;:\"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$")
# Apprise plugins that pop up on the server's own desktop: no use to a player far away.
_LOCAL_SCHEMES = {"dbus", "kde", "qt", "glib", "gnome", "macosx", "windows", "syslog", "rsyslog"}
ASSET = apprise.AppriseAsset(storage_mode=apprise.PersistentStoreMode.MEMORY)


class BadChannel(TableError):
    """A malformed address or URL: 422, and nothing is stored."""

    status = 422


def check_email(address: str | None, smtp_url: str) -> str | None:
    if address is None or not address.strip():
        return None
    address = address.strip()
    if len(address) > 254 or not _EMAIL.match(address):
        raise BadChannel(f"'{_short(address)}' is not an e-mail address (it should look like ann@example.org).")
    if not smtp_url:
        raise BadChannel("This server does not send e-mail (its host has not set SMTP_URL); "
                         "use a notification URL such as ntfys://ntfy.sh/your-topic instead.")
    return address


def check_urls(urls: list[str], policy: Policy) -> list[str]:
    """The URLs as typed (trimmed, without repeats), each one Apprise understands and the
    outgoing-request policy does not refuse already."""
    if len(urls) > MAX_URLS:
        raise BadChannel(f"At most {MAX_URLS} notification URLs per seat; you sent {len(urls)}.")
    kept: list[str] = []
    for raw in urls:
        url = raw.strip()
        if not url or url in kept:
            continue
        check_url(url, policy)
        kept.append(url)
    return kept


def check_url(url: str, policy: Policy) -> None:
    if len(url) > MAX_URL_LENGTH:
        raise BadChannel(f"A notification URL can be at most {MAX_URL_LENGTH} characters.")
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if not scheme:
        raise BadChannel(f"'{_short(url)}' is not a notification URL: it needs a service in front, "
                         "like ntfys://ntfy.sh/your-topic or json://example.org/hook.")
    if scheme in _LOCAL_SCHEMES:
        raise BadChannel(f"'{scheme}://' would show a message on the server's own screen, not yours; "
                         "choose a service that reaches you, like ntfy or e-mail.")
    if scheme in {"mailto", "mailtos"}:
        raise BadChannel("For e-mail, type your address in the e-mail field instead of a mailto:// URL.")
    try:
        policy.judge_host(url)
        if apprise.Apprise.instantiate(url, asset=ASSET, suppress_exceptions=True) is None:
            raise BadChannel(f"'{_short(url)}' is not a notification URL Keydom understands: check the "
                             f"service name ('{scheme}://') and the parts after it against the Apprise list of services.")
        policy.judge_scheme(url)
    except BadDestination as refusal:
        raise BadChannel(str(refusal)) from None


def reachable(url: str) -> bool:
    """Apprise can make a sender of this URL (says nothing of the network)."""
    return apprise.Apprise.instantiate(url, asset=ASSET, suppress_exceptions=True) is not None


def email_channel(address: str) -> str:
    return EMAIL_PREFIX + address


def push_channel(push_id: int) -> str:
    return f"{PUSH_PREFIX}{push_id}"


def apprise_url(channel: str, smtp_url: str) -> str:
    """What Apprise is given for a stored channel."""
    if not channel.startswith(EMAIL_PREFIX):
        return channel
    if not smtp_url:
        raise BadChannel("The host has turned e-mail off (SMTP_URL is no longer set).")
    parts = urlsplit(smtp_url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k.lower() != "to"]
    query.append(("to", channel[len(EMAIL_PREFIX):]))
    return urlunsplit(parts._replace(query=urlencode(query)))


def service_name(channel: str) -> str:
    """A name a player recognises: "e-mail", "ntfy", "Discord", "JSON"…"""
    if channel.startswith(EMAIL_PREFIX):
        return "e-mail"
    if channel.startswith(PUSH_PREFIX):
        return "push"
    plugin = apprise.Apprise.instantiate(channel, asset=ASSET, suppress_exceptions=True)
    return str(getattr(plugin, "service_name", None) or channel.split("://", 1)[0])


def shown(channel: str) -> str:
    """A channel as its seat typed it (the seat may see its own URLs)."""
    if channel.startswith(PUSH_PREFIX):
        return f"browser {channel[len(PUSH_PREFIX):]}"
    return channel[len(EMAIL_PREFIX):] if channel.startswith(EMAIL_PREFIX) else channel


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:60] + "…"
