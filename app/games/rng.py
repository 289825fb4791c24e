"""The game's random number generator: keyed by a secret, its whole state one short string.

Game code never touches ``random``: every draw comes from an ``Rng`` kept in the game
state, so replaying the action log from the seed rebuilds the state exactly.

Why a keyed hash and not a fast small generator: public draws (the start player, a field
laid face up) are outputs of the same stream as hidden ones (the order of a face-down
pile). With a small generator, anyone who sees the public start of a game can try every
seed, or solve for the state, and read the hidden order. Here each output is
BLAKE2b(key, counter): knowing any number of outputs tells nothing about the others, and
the key has 256 bits, so a game created with a server-made secret cannot be searched.
"""

from __future__ import annotations

import hashlib
from typing import Sequence, TypeVar

T = TypeVar("T")
_U64 = 1 << 64


def key_for(seed: int) -> bytes:
    """The 256-bit key of a seed. Any non-negative int is a seed: a server-made secret
    of 256 bits, or a small number given on purpose for tests and replays."""
    if seed < 0:
        raise ValueError("a seed is a non-negative whole number")
    raw = seed.to_bytes(max(1, (seed.bit_length() + 7) // 8), "big")
    return hashlib.sha256(b"keydom-rng\0" + raw).digest()


class Rng:
    """A counter-mode generator keyed by the game's secret.

    ``Rng(seed)`` starts a stream; ``Rng(rng.state)`` resumes one exactly where it was.

    >>> a, b = Rng(7), Rng(7)
    >>> [a.randrange(100) for _ in range(3)] == [b.randrange(100) for _ in range(3)]
    True
    >>> c = Rng(a.state); c.randrange(10**9) == a.randrange(10**9)
    True
    """

    def __init__(self, seed_or_state: int | str) -> None:
        if isinstance(seed_or_state, str):
            key_hex, _, counter = seed_or_state.partition(":")
            self._key, self._counter = bytes.fromhex(key_hex), int(counter)
        else:
            self._key, self._counter = key_for(seed_or_state), 0
        self._keyed: "hashlib._Hash | bool" = False  # True after one draw, a hasher from the second (next_u64)

    @property
    def state(self) -> str:
        """The whole generator as JSON-friendly text (server-side only: it holds the key)."""
        return f"{self._key.hex()}:{self._counter}"

    def next_u64(self) -> int:
        self._counter += 1
        keyed = self._keyed
        if keyed is False or keyed is True:
            if keyed is False:  # many Rngs the rules make draw once: no hasher kept for that
                self._keyed = True
                digest = hashlib.blake2b(self._counter.to_bytes(8, "big"), key=self._key, digest_size=8).digest()
                return int.from_bytes(digest, "big")
            # BLAKE2b takes its key as a first block of its own: a copy of a hasher that has
            # taken it gives the same digest as a keyed hasher made anew, for half the work
            keyed = self._keyed = hashlib.blake2b(key=self._key, digest_size=8)
        h = keyed.copy()
        h.update(self._counter.to_bytes(8, "big"))
        return int.from_bytes(h.digest(), "big")

    def randrange(self, n: int) -> int:
        """Uniform in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("randrange needs n > 0")
        limit = _U64 - (_U64 % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher–Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randrange(len(items))]
