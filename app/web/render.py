"""Turn a view dict into what the game templates need (no rules here)."""

from __future__ import annotations

import functools
import importlib
from typing import Any

from app.games import get_title


def game_context(view: dict[str, Any], token: str | None) -> dict[str, Any]:
    """Options split by what they point at, so the board can make those things clickable."""
    by_target: dict[str, dict[str, Any]] = {}
    buttons: list[dict[str, Any]] = []
    for option in view["options"]:
        target = option.get("target")
        if target and target not in by_target:
            by_target[target] = option
        else:
            buttons.append(option)
    names = {s["seat"]: s["name"] for s in view["seats"]}
    return {
        "view": view,
        "public": view["public"],
        "private": view["private"],
        "me": view["seat"],
        "token": token,
        "names": names,
        "by_target": by_target,
        "buttons": buttons,
        "status_line": status_line(view, names),
        "title_partial": f"titles/_{view['title']}.html",
        "title_name": get_title(view["title"]).TITLE.name,
        "content": title_content(view["title"]),
    }


@functools.cache
def title_content(title_id: str) -> dict[str, Any]:
    """A title's static tables (its ``content.content_json()``, e.g. every worker's power),
    for boards and rules pages that show more than a view carries; {} if it has none."""
    try:
        content = importlib.import_module(f"{get_title(title_id).__name__}.content")
    except ModuleNotFoundError:  # a title without a content module
        return {}
    tables = getattr(content, "content_json", None)
    return tables() if callable(tables) else {}


def status_line(view: dict[str, Any], names: dict[int, str]) -> str:
    if view["result"]:
        winners = [names[w] for w in view["result"]["winners"]]
        if len(winners) == 1:
            return f"Game over — {winners[0]} wins!"
        return "Game over — shared victory: " + ", ".join(winners) + "."
    waiting = [s for s in view["to_act"]]
    # An open seat has no player to wait for yet: say that a player must take it first.
    unseated = [f"seat {s + 1}" for s in waiting if view["seats"][s]["open"]]
    also = f" Play waits for a player to take {_and(unseated)}: the host has the invite link." if unseated else ""
    others = [names[s] for s in waiting if s != view["seat"] and not view["seats"][s]["open"]]
    if view["seat"] in waiting:
        return "Your move." + (f" Also waiting for {_and(others)}." if others else "") + also
    if others:
        return f"Waiting for {_and(others)}." + also
    return also.strip() or "Waiting…"


def _and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
