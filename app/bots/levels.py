"""How a bot chooses, from its seat's view alone.

Every level gets the seat's view (the very dict a player's page or the API gets for that
seat: public fields, the seat's own private screen, its options) and a random source of its
own, never the game's state or secret. "random" draws uniformly among the listed options
(never "cancel" while anything else is listed). "strong" is the title's own view-based bot
(``choose_from_view`` in ``app/games/<title>/bot.py``) where the title has one; elsewhere
it plays like "random".
"""

from __future__ import annotations

import importlib
import logging
import random
from typing import Any, Callable, Protocol, Sequence, TypeVar

from app.games import LISTINGS

T = TypeVar("T")
log = logging.getLogger(__name__)
LEVELS = ("random", "strong")


class Chance(Protocol):
    def randrange(self, n: int) -> int: ...
    def choice(self, items: Sequence[T]) -> T: ...


ViewBot = Callable[[dict[str, Any], list[dict[str, Any]], Chance], str]


def own_rng() -> random.Random:
    """A bot's randomness: the machine's, unrelated to the game's secret."""
    return random.Random(random.SystemRandom().getrandbits(64))


def choose(level: str, view: dict[str, Any], rng: Chance) -> str:
    """One option id from ``view["options"]``."""
    offered = view.get("options") or []
    if not offered:
        raise ValueError("this seat has nothing to choose")
    if level == "strong":
        strong = view_bot(view["title"])
        if strong is not None:
            try:
                chosen = strong(view, offered, rng)
            except Exception:  # a strong bot's bug must not stall its seat: it plays randomly
                log.exception("strong bot of %s failed; playing a random option", view.get("title"))
                chosen = None
            if any(o["id"] == chosen for o in offered):
                return chosen
    return random_choice([o["id"] for o in offered], rng)


def random_choice(ids: list[str], rng: Chance) -> str:
    onward = [i for i in ids if i != "cancel"] or ids
    return rng.choice(onward)


def view_bot(title_id: str) -> ViewBot | None:
    """The title's view-based bot, if its package has one."""
    listing = next((entry for entry in LISTINGS if entry.id == title_id), None)
    if listing is None or listing.module is None:
        return None
    try:
        module = importlib.import_module(f"{listing.module}.bot")
    except ImportError:
        return None
    return getattr(module, "choose_from_view", None)


def strong_titles() -> list[str]:
    """The titles whose strong level is their own view-based bot (the rest play randomly)."""
    return [entry.id for entry in LISTINGS if entry.module and view_bot(entry.id) is not None]
