"""The title registry: which titles exist and how to load their rules.

Each playable title is a package ``app/games/<title>/`` implementing
``app.games.protocol.Title``. Titles still being built are listed so the home page and
``GET /api/titles`` can show them, marked unavailable.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any, cast

from .protocol import Title


@dataclass(frozen=True)
class Listing:
    id: str
    name: str
    min_players: int
    max_players: int
    module: str | None  # None: not playable yet


LISTINGS: tuple[Listing, ...] = (
    Listing("tiny-towns", "Tiny Towns", 1, 6, "app.games.tiny_towns"),
    Listing("keythedral", "Keythedral", 2, 5, "app.games.keythedral"),
    Listing("key-harvest", "Key Harvest", 2, 4, "app.games.key_harvest"),
    Listing("keyper", "Keyper", 2, 4, "app.games.keyper"),
    Listing("key-flow", "Key Flow", 2, 6, "app.games.key_flow"),
)
_BY_ID = {listing.id: listing for listing in LISTINGS}


class UnknownTitle(KeyError):
    pass


_LOADED: dict[str, Title] = {}  # title id -> its rules module, once imported


def get_title(title_id: str) -> Title:
    """The rules module of a playable title; UnknownTitle otherwise. Asked several times per
    action (applying it, each viewer's view): importlib's lookup each time cost more than
    a dict's."""
    title = _LOADED.get(title_id)
    if title is not None:
        return title
    listing = _BY_ID.get(title_id)
    if listing is None or listing.module is None:
        raise UnknownTitle(title_id)
    module: ModuleType = importlib.import_module(listing.module)
    title = _LOADED[title_id] = cast(Title, module)
    return title


def is_playable(title_id: str) -> bool:
    listing = _BY_ID.get(title_id)
    return bool(listing and listing.module)


def titles_json() -> list[dict[str, Any]]:
    """The public list of titles, playable ones with their options."""
    out = []
    for listing in LISTINGS:
        if listing.module:
            entry = get_title(listing.id).TITLE.as_json()
            entry["available"] = True
        else:
            entry = {
                "id": listing.id,
                "name": listing.name,
                "min_players": listing.min_players,
                "max_players": listing.max_players,
                "available": False,
                "options": [],
            }
        out.append(entry)
    return out
