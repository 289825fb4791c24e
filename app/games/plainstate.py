"""Saving and copying a title's state when it is a ``Game`` dataclass holding ``players``
(a list of ``Player`` dataclasses), a ``log`` (a GameLog) and otherwise plain JSON values.

Copying plain JSON by hand is much faster than ``copy.deepcopy``, and every action copies
the game once, so this matters for playouts and for the server alike.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from .gamelog import GameLog

G = TypeVar("G")
_SPECIAL = ("players", "log")


def plain(value: Any) -> Any:
    """A copy of plain JSON data (dicts, lists and immutable leaves)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def dump_game(g: Any) -> dict[str, Any]:
    raw = {k: plain(v) for k, v in vars(g).items() if k not in _SPECIAL}
    raw["players"] = [plain(vars(p)) for p in g.players]
    raw["log"] = g.log.dump()
    return raw


def load_game(game: Callable[..., G], player: Callable[..., Any], raw: dict[str, Any]) -> G:
    """The game back from ``dump_game``; a snapshot from before the log was trimmed loads too."""
    rest = {k: plain(v) for k, v in raw.items() if k not in _SPECIAL}
    return game(players=[player(**plain(p)) for p in raw["players"]], log=GameLog.load(raw.get("log", [])), **rest)


def clone_game(g: G) -> G:
    """An independent copy: what ``apply`` changes, leaving the given game untouched."""
    rest = {k: plain(v) for k, v in vars(g).items() if k not in _SPECIAL}
    players = [type(p)(**plain(vars(p))) for p in g.players]  # type: ignore[attr-defined]
    log = GameLog(g.log.recent, g.log.total)  # type: ignore[attr-defined]
    return type(g)(players=players, log=log, **rest)
