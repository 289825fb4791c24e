"""Web Push: "notify this device" with no URL to type.

The browser subscribes (``static/push-sw.js``, a service worker) with the server's public
VAPID key and hands the server its subscription: an endpoint at its push service and two
public keys. The server encrypts each message to those keys (RFC 8291, by ``pywebpush``),
signs a VAPID claim with its private key, and posts it to the endpoint, through the
outgoing-request policy like every other outgoing request. The push service cannot read
the message, which is how the seat's link may travel in it.

The VAPID key pair is made on first start and kept like the notification key: from
``VAPID_PRIVATE_KEY`` (PEM, or the raw key in base64url) or else a key file beside the code
(``VAPID_KEY_FILE``, default ``keydom-vapid.pem``). Losing it only means every browser must
turn "notify this device" on again.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from .outgoing import FAILED, REFUSED, BadDestination, Policy

log = logging.getLogger("keydom.notify")
MAX_PER_SEAT = 5  # browsers per seat; a sixth replaces the oldest
GONE = "This browser's subscription has ended (it was turned off or expired); turn \"Notify this device\" on again."


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def load_vapid(private_key: str, key_file: Path) -> Vapid02:
    """The server's VAPID key: from the setting, else the key file (made once, atomically)."""
    if private_key.strip():
        text = private_key.strip()
        try:
            return Vapid02.from_pem(text.encode()) if "BEGIN" in text else Vapid02.from_raw(text.encode())
        except Exception:
            raise SystemExit("VAPID_PRIVATE_KEY is neither a PEM private key nor a raw one in base64url.") from None
    try:
        return Vapid02.from_pem(key_file.read_bytes())
    except FileNotFoundError:
        pass
    except Exception:
        raise SystemExit(f"The Web Push key file {key_file} is not a PEM private key; move it away to make a new one.") from None
    try:
        fresh = Vapid02()
        fresh.generate_keys()
        pem = fresh.private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                              serialization.NoEncryption())
        draft = key_file.with_name(f".{key_file.name}.{secrets.token_hex(4)}")
        draft.write_bytes(pem)
        draft.chmod(0o600)
        try:
            os.link(draft, key_file)  # another process made it first: use theirs
        except FileExistsError:
            pass
        finally:
            draft.unlink()
        return Vapid02.from_pem(key_file.read_bytes())
    except OSError as failure:
        raise SystemExit(f"Cannot make the Web Push key file {key_file} ({failure}); set VAPID_PRIVATE_KEY instead.") from None


def public_key(vapid: Vapid02) -> str:
    """The applicationServerKey a page subscribes with (uncompressed P-256 point, base64url)."""
    return b64url(vapid.public_key.public_bytes(serialization.Encoding.X962,
                                                serialization.PublicFormat.UncompressedPoint))


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def check_subscription(endpoint: str, p256dh: str, auth: str, policy: Policy) -> Subscription:
    """A subscription as a browser makes it, or BadDestination with what is wrong."""
    endpoint = endpoint.strip()
    parts = urlsplit(endpoint)
    if len(endpoint) > 1000 or not parts.hostname:
        raise BadDestination("That push subscription has no usable endpoint.")
    if parts.scheme != "https" and not (parts.scheme == "http" and policy.listed(parts.hostname)):
        raise BadDestination("A push endpoint must be an https:// address.")
    policy.judge_host(endpoint)
    try:
        key, secret = unb64url(p256dh.strip()), unb64url(auth.strip())
    except ValueError:
        raise BadDestination("That push subscription's keys are not base64url.") from None
    if len(key) != 65 or key[0] != 4 or len(secret) != 16:
        raise BadDestination("That push subscription's keys are not a P-256 public key and a 16-byte secret.")
    return Subscription(endpoint, b64url(key), b64url(secret))


def host_of(endpoint: str) -> str:
    return urlsplit(endpoint).hostname or "?"


def send_blocking(subscription: Subscription, subject: str, body: str, link: str | None, vapid: Vapid02,
                  subject_claim: str, policy: Policy, timeout: float) -> str | None:
    """One encrypted push: None when the push service took it, else what the player is told
    (GONE when the browser's subscription no longer exists: the caller forgets it)."""
    payload = json.dumps({"title": subject, "body": body, "url": link}).encode()
    with policy.guard() as guarded:
        try:
            webpush(subscription.info(), data=payload, vapid_private_key=vapid,
                    vapid_claims={"sub": subject_claim}, timeout=timeout, ttl=24 * 3600)
            return None
        except WebPushException as failure:
            status = getattr(failure.response, "status_code", None)
            if status in (404, 410):
                return GONE
            if guarded.refused:
                log.warning("a push was refused by the outgoing-request policy: %s", guarded.refused[0])
                return REFUSED
            log.warning("a push to %s failed (%s)", host_of(subscription.endpoint), status)
            return FAILED
        except Exception as failure:
            if guarded.refused:
                log.warning("a push was refused by the outgoing-request policy: %s", guarded.refused[0])
                return REFUSED
            log.warning("a push to %s failed: %s", host_of(subscription.endpoint), type(failure).__name__)
            return FAILED
