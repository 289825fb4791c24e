"""Results remembered per object, by identity, for parts of views that never change once built.

A view's parts are shared between versions and viewers as the very same objects (see
``Views``), so what is worked out from them (a frame's changes, a drawn board, a log with
names written in) can be kept per object instead of compared or rebuilt. Each entry keeps
its objects, so their ids cannot be reused while it is here; the oldest entries go first
(the first made, not the least used: a part is asked for within moments of being built).
"""

from __future__ import annotations

from operator import is_
from typing import Any, Callable, Generic, TypeVar

T = TypeVar("T")


class ByIdentity(Generic[T]):
    """``size`` results, each for a tuple of objects (by identity) and a hashable ``extra``."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: dict[tuple[tuple[int, ...], Any], tuple[tuple[object, ...], T]] = {}

    def get(self, objects: tuple[object, ...], extra: Any, make: Callable[[], T]) -> T:
        """The result kept for these very objects and ``extra``, else ``make()`` (then kept)."""
        key = (tuple(map(id, objects)), extra)
        kept = self._kept.get(key)
        if kept is not None and all(map(is_, kept[0], objects)):  # in C: no generator per call
            return kept[1]
        made = make()
        self._kept[key] = (objects, made)
        if len(self._kept) > self.size:
            del self._kept[next(iter(self._kept))]  # the oldest
        return made

    def clear(self) -> None:
        self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)
