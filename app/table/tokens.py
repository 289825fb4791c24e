"""Seat tokens: long random secrets handed out once, stored only as a hash."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

TOKEN_BYTES = 24  # 192 bits
TOKEN_LENGTH = 32  # characters of a seat or host link secret (24 bytes, URL-safe base64)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def derived_token(host_token: str, game_id: str, seat: int, generation: int) -> str:
    """A seat's link secret, derived from the host link's secret (HMAC-SHA-256, cut to the
    length of a random token): the server keeps only hashes of both, and whoever holds the
    host link can work every seat's link out again. A replaced link is the next generation."""
    message = f"keydom seat link|{game_id}|{seat}|{generation}".encode()
    mac = hmac.new(host_token.encode("utf-8", "surrogatepass"), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:TOKEN_BYTES]).decode().rstrip("=")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_game_id() -> str:
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"  # no look-alikes: l/1, o/0
    return "".join(secrets.choice(alphabet) for _ in range(10))


def same_hash(a: str, b: str) -> bool:
    return secrets.compare_digest(a.encode(), b.encode())
