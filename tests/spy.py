"""Watching what the app does, for tests that count reads."""

from __future__ import annotations

from typing import Any


def record_calls(owner: Any, name: str) -> list[Any]:
    """Replace the async method ``name`` of ``owner`` (an instance) with one that records
    its first argument and then calls the real one; returns the list it records into."""
    calls: list[Any] = []
    real = getattr(owner, name)

    async def recorded(first: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(first)
        return await real(first, *args, **kwargs)
    setattr(owner, name, recorded)
    return calls
