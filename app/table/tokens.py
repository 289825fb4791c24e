"""Seat tokens: long random secrets handed out once, stored only as a hash."""

from __future__ import annotations

import hashlib
import secrets

TOKEN_BYTES = 24  # 192 bits


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_game_id() -> str:
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"  # no look-alikes: l/1, o/0
    return "".join(secrets.choice(alphabet) for _ in range(10))


def same_hash(a: str, b: str) -> bool:
    return secrets.compare_digest(a.encode(), b.encode())
