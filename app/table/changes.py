"""What a viewer's view changed between two versions: the websocket's ``changes`` frames.

Views are built per version and never changed afterwards, so a part every viewer of a
version shares (one object, see ``Views``) has its changes worked out once per version.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

DIFF_DEPTH = 6  # below this a changed value is resent whole

# What changed between two versions of a part every viewer of a game shares (the public
# part: one object per game version, see ``Views``): worked out once, not once per socket
# and once more for the change test. Keyed by the two objects' ids; the entry keeps both
# objects, so an id is not reused while it is here.
_SHARED_CHANGES: OrderedDict[tuple[int, int], tuple[Any, Any, list[list[Any]], list[list[Any]]]] = OrderedDict()
KEEP_SHARED_CHANGES = 256  # a version's frames go out within moments of its action


def shared_changes(old: Any, new: Any) -> tuple[list[list[Any]], list[list[Any]]]:
    """(sets, unsets) turning the shared part ``old`` into ``new``, paths relative to the
    part; both empty when they are equal. Neither object may change afterwards."""
    key = (id(old), id(new))
    kept = _SHARED_CHANGES.get(key)
    if kept is not None and kept[0] is old and kept[1] is new:
        return kept[2], kept[3]
    sets: list[list[Any]] = []
    unsets: list[list[Any]] = []
    if old is not new and not (type(old) is type(new) and old == new):
        _compare(old, new, [], sets, unsets, DIFF_DEPTH - 1)
    _SHARED_CHANGES[key] = (old, new, sets, unsets)
    while len(_SHARED_CHANGES) > KEEP_SHARED_CHANGES:
        _SHARED_CHANGES.popitem(last=False)
    return sets, unsets


def view_changes(old: dict[str, Any], new: dict[str, Any], shared: tuple[str, ...] = ()) -> dict[str, Any]:
    """A frame holding only what changed from ``old`` to ``new`` (two views of one viewer):
    ``{"version", "base", "set": [[path, value], ...], "unset": [path, ...]}``. A path is a
    list of dict keys (strings) and list indexes (ints); ``apply_changes`` turns ``old``
    into ``new`` with it. Lists of one length are compared item by item, so one player's
    town changing resends that town, not every player's. ``shared``: top-level keys whose
    values every viewer of a version shares (see ``shared_changes``)."""
    sets: list[list[Any]] = []
    unsets: list[list[Any]] = []
    if shared:
        old, new = dict(old), dict(new)  # only the top level is copied, to set the shared parts aside
        for key in shared:
            if key in old and key in new:
                part_sets, part_unsets = shared_changes(old.pop(key), new.pop(key))
                sets.extend([[key, *path], value] for path, value in part_sets)
                unsets.extend([key, *path] for path in part_unsets)
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
