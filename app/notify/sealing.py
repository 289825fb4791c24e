"""Seat links kept for messages, sealed with a key that is not in the database.

A seat's link carries its token, which the database otherwise holds only as a hash. To
put the link in its messages the server must keep it while the seat has notifications on;
it keeps it sealed (BLAKE2b in counter mode as the cipher, a keyed BLAKE2b tag), so a copy
of the database alone opens no seat. The key comes from ``NOTIFY_KEY`` or, unset, from a
key file beside the code (``NOTIFY_KEY_FILE``), made on first start.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

PREFIX = "sealed."
NONCE = 16
TAG = 16


def load_key(passphrase: str, key_file: Path) -> bytes:
    """32 bytes from the passphrase, else from the key file (made once, atomically, so
    several worker processes starting together end up with the same key)."""
    if passphrase:
        return hashlib.blake2b(passphrase.encode(), digest_size=32, person=b"keydom-notify").digest()
    try:
        return _read_key(key_file)
    except FileNotFoundError:
        pass
    try:
        draft = key_file.with_name(f".{key_file.name}.{secrets.token_hex(4)}")
        draft.write_text(secrets.token_hex(32) + "\n")
        draft.chmod(0o600)
        try:
            os.link(draft, key_file)  # fails if another process made it first: use theirs
        except FileExistsError:
            pass
        finally:
            draft.unlink()
        return _read_key(key_file)
    except (OSError, ValueError) as failure:
        raise SystemExit(f"Cannot make or read the notification key file {key_file} ({failure}); "
                         "set NOTIFY_KEY to a long random phrase instead.") from None


def _read_key(key_file: Path) -> bytes:
    return bytes.fromhex(key_file.read_text().strip())


class LinkSeal:
    def __init__(self, key: bytes) -> None:
        self._cipher_key = hashlib.blake2b(key, digest_size=32, person=b"keydom-cipher").digest()
        self._tag_key = hashlib.blake2b(key, digest_size=32, person=b"keydom-tag").digest()

    def seal(self, game_id: str, seat: int, token: str) -> str:
        nonce = secrets.token_bytes(NONCE)
        plain = token.encode()
        sealed = _xor(plain, self._stream(nonce, len(plain)))
        tag = self._tag(game_id, seat, nonce + sealed)
        return PREFIX + base64.urlsafe_b64encode(nonce + sealed + tag).decode().rstrip("=")

    def open(self, game_id: str, seat: int, text: str) -> str | None:
        """The token, or None if it was sealed with another key or for another seat."""
        if not text.startswith(PREFIX):
            return None
        raw = text[len(PREFIX):]
        try:
            blob = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
        except ValueError:
            return None
        if len(blob) <= NONCE + TAG:
            return None
        body, tag = blob[:-TAG], blob[-TAG:]
        if not hmac.compare_digest(tag, self._tag(game_id, seat, body)):
            return None
        nonce, sealed = body[:NONCE], body[NONCE:]
        return _xor(sealed, self._stream(nonce, len(sealed))).decode()

    def _stream(self, nonce: bytes, length: int) -> bytes:
        blocks = [hashlib.blake2b(nonce + i.to_bytes(4, "big"), key=self._cipher_key).digest()
                  for i in range(-(-length // 64))]
        return b"".join(blocks)[:length]

    def _tag(self, game_id: str, seat: int, body: bytes) -> bytes:
        context = f"{game_id}:{seat}:".encode()
        return hashlib.blake2b(context + body, key=self._tag_key, digest_size=TAG).digest()


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b))
