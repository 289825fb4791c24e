"""Views on the wire: fast JSON for the API and the websocket alike (they go out once per
seat per change). Below both, so neither transport imports the other."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi.responses import Response


# Like the json module, write int dict keys as strings (some views key things by seat).
OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(value: Any) -> str:
    return orjson.dumps(value, option=OPTIONS).decode()


class JSONView(Response):
    """A view dict sent as JSON without FastAPI walking it through jsonable_encoder."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=OPTIONS)


# --- Frames as changes: what a viewer's view changed since the last frame it was sent ---

DIFF_DEPTH = 6  # below this a changed value is resent whole


def view_changes(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """A frame holding only what changed from ``old`` to ``new`` (two views of one viewer):
    ``{"version", "base", "set": [[path, value], ...], "unset": [path, ...]}``. A path is a
    list of dict keys (strings) and list indexes (ints); ``apply_changes`` turns ``old``
    into ``new`` with it. Lists of one length are compared item by item, so one player's
    town changing resends that town, not every player's."""
    sets: list[list[Any]] = []
    unsets: list[list[Any]] = []
    _compare(old, new, [], sets, unsets, DIFF_DEPTH)
    return {"version": new.get("version"), "base": old.get("version"), "set": sets, "unset": unsets}


def _compare(old: Any, new: Any, path: list[Any], sets: list[list[Any]], unsets: list[list[Any]], depth: int) -> None:
    if isinstance(old, dict) and isinstance(new, dict) and depth:
        for key, value in new.items():
            name = key if isinstance(key, str) else str(key)  # JSON writes int keys as strings
            if key not in old:
                sets.append([[*path, name], value])
                continue
            before = old[key]
            if before is value or (type(before) is type(value) and before == value):
                continue
            _compare(before, value, [*path, name], sets, unsets, depth - 1)
        for key in old:
            if key not in new:
                unsets.append([*path, key if isinstance(key, str) else str(key)])
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new) and depth:
        for index, (before, value) in enumerate(zip(old, new)):
            if before is value or (type(before) is type(value) and before == value):
                continue
            _compare(before, value, [*path, index], sets, unsets, depth - 1)
    else:
        sets.append([path, new])


def apply_changes(view: dict[str, Any], frame: dict[str, Any]) -> dict[str, Any]:
    """``view`` (as parsed from JSON) brought up to date by a ``view_changes`` frame, in place."""
    for path, value in frame["set"]:
        if not path:
            return value
        parent = view
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = value
    for path in frame["unset"]:
        parent = view
        for step in path[:-1]:
            parent = parent[step]
        del parent[path[-1]]
    view["version"] = frame["version"]
    return view
