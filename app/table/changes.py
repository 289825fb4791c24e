"""What a viewer's view changed between two versions: the websocket's ``changes`` frames.

Views are built per version and never changed afterwards, so a part every viewer of a
version shares (one object, see ``Views``) has its changes worked out once per version.
"""

from __future__ import annotations

import itertools
from typing import Any

from .memo import ByIdentity

DIFF_DEPTH = 6  # below this a changed value is resent whole

Changes = tuple[list[list[Any]], list[list[Any]], list[list[Any]]]  # sets, unsets, drops
# What changed between two versions of a part every viewer of a game shares (the public
# part: one object per game version, see ``Views``): worked out once, not once per socket
# and once more for the change test. A version's frames go out within moments of its action.
_SHARED_CHANGES: ByIdentity[Changes] = ByIdentity(256)


def shared_changes(old: Any, new: Any, key: str) -> Changes:
    """(sets, unsets, drops) turning the shared part ``old`` into ``new``, with paths from the
    top of a view whose ``key`` holds the part (so every frame of the version takes the very
    lists, without writing the key into each path again); all empty when they are equal.
    Neither object may change afterwards, nor may the lists returned."""
    def work_out() -> Changes:
        changes: Changes = ([], [], [])
        if old is not new and not (type(old) is type(new) and old == new):
            _compare(old, new, [key], *changes, DIFF_DEPTH - 1)
        return changes
    return _SHARED_CHANGES.get((old, new), key, work_out)


def view_changes(old: dict[str, Any], new: dict[str, Any], shared: tuple[str, ...] = ()) -> dict[str, Any]:
    """A frame holding only what changed from ``old`` to ``new`` (two views of one viewer):
    ``{"version", "base", "set": [[path, value], ...], "unset": [path, ...]}``, and
    ``"drop": [[path, count], ...]`` when a list lost items at its start. A path is a
    list of dict keys (strings) and list indexes (ints); ``apply_changes`` turns ``old``
    into ``new`` with it. Lists of one length are compared item by item, so one player's
    town changing resends that town, not every player's (a dict where one with another
    ``id`` stood, an option or a card, is resent whole); a list that grew is compared
    item by item too, and its new items are set at the indexes past its old end (in order:
    each appends). A list of texts that moved on (the log's last lines: the oldest go, new
    ones come) is a drop of its first items, then appends. A list that shrank otherwise is
    sent whole. ``shared``: the top-level keys whose values every viewer of a version
    shares (see ``shared_changes``)."""
    sets: list[list[Any]] = []
    unsets: list[list[Any]] = []
    drops: list[list[Any]] = []
    if shared:
        old, new = dict(old), dict(new)  # only the top level is copied, to set the shared parts aside
        for key in shared:
            if key in old and key in new:
                part_sets, part_unsets, part_drops = shared_changes(old.pop(key), new.pop(key), key)
                sets += part_sets
                unsets += part_unsets
                drops += part_drops
    _compare(old, new, [], sets, unsets, drops, DIFF_DEPTH)
    frame = {"version": new.get("version"), "base": old.get("version"), "set": sets, "unset": unsets}
    if drops:
        frame["drop"] = drops
    return frame


def _compare(old: Any, new: Any, path: list[Any], sets: list[list[Any]], unsets: list[list[Any]],
             drops: list[list[Any]], depth: int) -> None:
    # Views are built of plain dicts, lists and JSON values, so the exact types are asked
    # (cheaper than isinstance, on every node of every frame); anything else is resent whole.
    # A changed value is looked into only when it is a dict or a list on both sides: any
    # other is set here, without a call per leaf (most of what changes is leaves).
    kind = type(old)
    if kind is dict and type(new) is dict and depth and old.get("id") == new.get("id"):
        # (a dict with another "id" is another thing, an option or a card: resent whole)
        get = old.get  # JSON writes int keys as strings; a new key is set (_ABSENT is no value's type)
        items = ((key if type(key) is str else str(key), get(key, _ABSENT), value) for key, value in new.items())
    elif kind is list and type(new) is list and depth and (
            (moved := _moved_on(old, new)) or len(old) <= len(new)):
        if moved:
            drops.append([path, moved])
            old = old[moved:]
        items = zip(itertools.count(), old, new)
    else:
        sets.append([path, new])
        return
    for step, before, value in items:  # a dict's values by key, a list's items by index
        if before is value:
            continue
        same = type(before)
        if same is type(value):
            if before == value:
                continue
            if same is dict or same is list:
                _compare(before, value, [*path, step], sets, unsets, drops, depth - 1)
                continue
        sets.append([[*path, step], value])
    if kind is dict:
        if not old.keys() <= new.keys():  # (one test in C for the usual case: no key went)
            unsets.extend([*path, key if type(key) is str else str(key)] for key in old if key not in new)
    elif len(new) > len(old):
        # A longer list (the log as lines are written, options): the new items, each set at
        # the index one past the end, which appends it (JavaScript's ``a[a.length] = v``).
        sets.extend([[*path, index], new[index]] for index in range(len(old), len(new)))


_ABSENT = object()


def _moved_on(old: list[Any], new: list[Any]) -> int:
    """How many texts left the start of ``old`` if ``new`` is what remains followed by
    new ones (the log's window moving on), else 0. Only lists of texts are looked at:
    telling that of other lists would cost more than it saves."""
    if not old or not new or type(new[0]) is not str or (len(old) <= len(new) and old == new[:len(old)]):
        return 0  # not texts, or only lines added
    first, start = new[0], 0
    while True:
        try:
            start = old.index(first, start + 1)
        except ValueError:
            return 0
        if len(new) >= len(old) - start and old[start:] == new[:len(old) - start]:
            return start


def apply_changes(view: dict[str, Any], frame: dict[str, Any]) -> dict[str, Any]:
    """``view`` (as parsed from JSON) brought up to date by a ``view_changes`` frame, in place."""
    for path, count in frame.get("drop", ()):  # first: the sets' indexes count after them
        parent = view
        for step in path:
            parent = parent[step]
        del parent[:count]
    for path, value in frame["set"]:
        if not path:
            return value
        parent = view
        for step in path[:-1]:
            parent = parent[step]
        if isinstance(parent, list) and path[-1] == len(parent):
            parent.append(value)
        else:
            parent[path[-1]] = value
    for path in frame["unset"]:
        parent = view
        for step in path[:-1]:
            parent = parent[step]
        del parent[path[-1]]
    view["version"] = frame["version"]
    return view
