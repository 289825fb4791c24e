"""What a message says. Every message to a seat is written from that seat's own view (the
same dict its page gets), so it can only say what that seat may know."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games import get_title


@dataclass(frozen=True)
class Message:
    subject: str
    body: str


def _names(view: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["name"] for s in view["seats"]}


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _game_line(view: dict[str, Any]) -> str:
    title = get_title(view["title"]).TITLE.name
    players = _and(list(_names(view).values()))
    return f"{title} (game {view['id']}, with {players})"


def awaited(view: dict[str, Any]) -> str:
    """What the game waits for, from this seat's side: whose move, and how many choices."""
    names = _names(view)
    me = view["seat"]
    others = [names[s] for s in view["to_act"] if s != me]
    line = "It is your move" + (f"; also waiting for {_and(others)}" if others else "") + "."
    count = len(view["options"])
    if count:
        line += f" You have {count} choice{'s' if count != 1 else ''} to pick from."
    return line


def turn(view: dict[str, Any], link: str) -> Message:
    title = get_title(view["title"]).TITLE.name
    me = _names(view)[view["seat"]]
    return Message(
        subject=f"Your turn — {title}",
        body=f"{me}, your game of {_game_line(view)} is waiting for you.\n{awaited(view)}\nPlay: {link}",
    )


def reminder(view: dict[str, Any], link: str, hours: float) -> Message:
    title = get_title(view["title"]).TITLE.name
    me = _names(view)[view["seat"]]
    waited = f"{hours:g} hour{'s' if hours != 1 else ''}"
    return Message(
        subject=f"Reminder: still your turn — {title}",
        body=(f"{me}, your game of {_game_line(view)} has been waiting for you for over {waited}.\n"
              f"{awaited(view)}\nPlay: {link}"),
    )


def result(view: dict[str, Any], link: str) -> Message:
    """The end of the game: winners and every score (public once the game is over)."""
    title = get_title(view["title"]).TITLE.name
    return Message(subject=f"Game over — {title}", body=f"{outcome(view)}\nSee the final board: {link}")


def outcome(view: dict[str, Any]) -> str:
    names = _names(view)
    res = view["result"]
    winners = [names[w] for w in res["winners"]]
    head = f"{winners[0]} wins" if len(winners) == 1 else f"Shared victory: {_and(winners)}"
    scores = ", ".join(f"{names[s['seat']]} {s['score']}" for s in sorted(res["scores"], key=lambda s: -s["score"]))
    return f"{_game_line(view)} is over. {head}. Scores: {scores}."


def host_result(view: dict[str, Any], link: str) -> Message:
    """For the host's own channel: the public result, with the spectator link."""
    title = get_title(view["title"]).TITLE.name
    return Message(subject=f"Game over — {title}", body=f"{outcome(view)}\nWatch: {link}")


def test(view: dict[str, Any], link: str) -> Message:
    title = get_title(view["title"]).TITLE.name
    me = _names(view)[view["seat"]]
    return Message(
        subject=f"Keydom test message — {title}",
        body=(f"{me}, this is how Keydom will tell you that your game of {_game_line(view)} "
              f"waits for you.\nYour seat: {link}"),
    )
