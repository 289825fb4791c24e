"""The game's log in words, kept short in the state.

A game can run to thousands of actions; if its state kept every log line, every view,
frame and snapshot would grow with it and each action would cost more than the last.
So the state keeps only the most recent lines and a count of every line ever written.
The table stores each action's new lines beside the action (``lines_since``), which is
where the full history is paged from.

>>> log = GameLog(keep=2)
>>> for word in ("one", "two", "three"):
...     log.append(word)
>>> list(log), log.total
(['two', 'three'], 3)
>>> log.lines_since(1)
['two', 'three']
"""

from __future__ import annotations

from typing import Any, Iterator

KEEP = 60  # lines a state keeps; more than any one action writes


class GameLog:
    """Append-only: ``total`` counts every line; ``recent`` holds the last ``keep``."""

    __slots__ = ("recent", "total", "keep")

    def __init__(self, recent: list[str] | None = None, total: int | None = None, keep: int = KEEP) -> None:
        self.recent = list(recent or [])
        self.total = len(self.recent) if total is None else total
        self.keep = keep

    def append(self, line: str) -> None:
        self.recent.append(line)
        self.total += 1
        if len(self.recent) > self.keep:
            del self.recent[: len(self.recent) - self.keep]

    def extend(self, lines: list[str]) -> None:
        for line in lines:
            self.append(line)

    def lines_since(self, total_before: int) -> list[str]:
        """The lines written after the log held ``total_before`` lines (as many as are kept)."""
        new = self.total - total_before
        return self.recent[-new:] if new > 0 else []

    def __iter__(self) -> Iterator[str]:
        return iter(self.recent)

    def __len__(self) -> int:
        return len(self.recent)

    def __getitem__(self, index: Any) -> Any:
        return self.recent[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameLog) and (self.recent, self.total) == (other.recent, other.total)

    def __repr__(self) -> str:
        return f"GameLog(total={self.total}, recent={self.recent[-3:]!r}…)"

    def __deepcopy__(self, memo: dict[int, Any]) -> "GameLog":
        return GameLog(self.recent, self.total, self.keep)

    def dump(self) -> dict[str, Any]:
        return {"total": self.total, "recent": list(self.recent)}

    @classmethod
    def load(cls, raw: Any) -> "GameLog":
        """From ``dump``; a plain list (a snapshot written before the log was trimmed) also loads."""
        if isinstance(raw, list):
            log = cls(total=0)
            log.extend(raw)
            return log
        return cls(raw["recent"], raw["total"])
