"""Turn a view dict into what the game templates need (no rules here)."""

from __future__ import annotations

import functools
import importlib
import re
from typing import Any, Callable

import jinja2

from app.games import get_title
from app.table.memo import ByIdentity


# What a template's ``x.name`` finds on a dict or on None without looking at its items:
# their methods and other attributes (``by_target.get``, ``public.items``).
_DICT_ATTRIBUTES = frozenset(dir(dict))
_NONE_ATTRIBUTES = frozenset(dir(None))


class ViewEnvironment(jinja2.Environment):
    """The pages' templates read views, which are plain dicts: ``p.town``, ``private.pending``,
    thousands of times a page. Jinja looks for an attribute first and takes the item only
    after the ``AttributeError``, an exception per read (a sixth of drawing a page). A dict
    has no attributes but its class's, so for any other name the item is what Jinja would
    find: it is looked up at once. Reads of None (``private.x`` for a spectator) are
    undefined at once, as Jinja would make them after two exceptions."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        kind = type(obj)
        if kind is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        if obj is None and attribute not in _NONE_ATTRIBUTES:
            return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


PLAYER_NUMBER = re.compile(r"\b([Pp]layer|[Ss]eat) (\d+)\b")  # "Seat 2 starts", "player 2's store"
SEAT_REF = re.compile(r"\{seat(\d+)\}")  # the log's way of naming a seat, used in prompts too


def namer(names: dict[int, str]) -> Callable[[str], str]:
    """Rules know seats by number ("Seat 2 starts", "{seat1}"); a page names the people playing.

    >>> namer({0: "Ann", 1: "Bob"})("Seat 2 starts; {seat0} invites you; player 1's store")
    "Bob starts; Ann invites you; Ann's store"
    """
    def named(text: str) -> str:
        def name(match: re.Match[str]) -> str:
            seat = int(match.group(2)) - 1
            return names.get(seat, match.group(0))
        text = SEAT_REF.sub(lambda m: names.get(int(m.group(1)), m.group(0)), text)
        return PLAYER_NUMBER.sub(name, text)
    return named


def game_context(view: dict[str, Any], token: str | None) -> dict[str, Any]:
    """Options split by what they point at, so the board can make those things clickable;
    the ones that point at nothing are the action bar's buttons."""
    by_target: dict[str, dict[str, Any]] = {}
    buttons: list[dict[str, Any]] = []
    names = {s["seat"]: s["name"] for s in view["seats"]}
    named = namer(names)
    view = dict(view, options=[dict(o, label=named(o["label"])) for o in view["options"]])
    if view.get("private") and view["private"].get("prompt"):
        view["private"] = dict(view["private"], prompt=named(view["private"]["prompt"]))
    for option in view["options"]:
        target = option.get("target")
        if not target:
            buttons.append(option)
        elif target not in by_target:
            by_target[target] = option
        # A targeted choice the board does not draw (a second choice on one target, say)
        # still reaches the player: the bar's copy of it shows (game.js).
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
        "tab_title": tab_title(view, names),
        "title_partial": f"titles/_{view['title']}.html",
        "title_name": get_title(view["title"]).TITLE.name,
        "content": title_content(view["title"]),
        "named": named,
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


def tab_title(view: dict[str, Any], names: dict[int, str]) -> str:
    """The browser tab names the game and who plays it, so a player with several games
    open can tell the tabs apart ("Tiny Towns: Ann, Bob — Keydom")."""
    return f"{get_title(view['title']).TITLE.name}: {', '.join(names[s] for s in sorted(names))} — Keydom"


def status_line(view: dict[str, Any], names: dict[int, str]) -> str:
    if view["result"] and view["result"].get("ended") == "abandoned":  # app/table/endings.py
        return "Game over — the host ended it as abandoned."
    if view["result"] and len(view["result"]["scores"]) == 1:
        # Solo: nobody to beat; the score (and the title's rating, in its note) is the news.
        own = view["result"]["scores"][0]
        rating = f" ({own['note']})" if own.get("note") else ""
        return f"Game over — {names[own['seat']]} scored {own['score']} VP{rating}."
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


# Drawn parts of boards, per view part and the few page facts they also show. A view's
# parts that did not change between versions are the very same objects (the titles'
# views remember them, see app/games/tiny_towns/view.py), so a board redrawn after an
# action draws again only what the action changed.
_DRAWN: ByIdentity[Any] = ByIdentity(4096)


def drawn_once(part: object, facts: tuple[Any, ...], draw: Callable[..., Any], *args: Any) -> Any:
    """``draw(*args)`` (a template macro), remembered for this view ``part`` and ``facts``:
    ``facts`` must name everything else the drawing shows (a seat's own choices and screen
    too, where it shows them: see ``frozen``), so that it depends on nothing else."""
    return _DRAWN.get((part,), facts, lambda: draw(*args))


def frozen(value: Any) -> Any:
    """A part of a view as a fact for ``drawn_once``: its lists and dicts as tuples, all the way down."""
    kind = type(value)
    if kind is dict:
        return tuple((key, frozen(item)) for key, item in value.items())
    if kind is list or kind is tuple:
        return tuple(frozen(item) for item in value)
    return value


@functools.lru_cache(maxsize=4096, typed=True)  # typed: 34 and 34.0 are written differently
def hex_points(cx: float, cy: float, s: float, h: float) -> str:
    """The six corners of a flat-topped hexagon (centre, half-width, height) as an SVG
    ``points`` list: the same text a template's arithmetic would write (``str`` of each
    number), worked out once per hexagon instead of once per space of every page."""
    return (f"{cx - s},{cy} {cx - s / 2},{cy - h / 2} {cx + s / 2},{cy - h / 2} "
            f"{cx + s},{cy} {cx + s / 2},{cy + h / 2} {cx - s / 2},{cy + h / 2}")
