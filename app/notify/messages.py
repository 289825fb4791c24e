"""What a message says. Every message to a seat is written from that seat's own view (the
same dict its page gets), so it can only say what that seat may know: the twin-games test
(tests/notify/test_messages.py) checks that two games differing in one secret give every
other seat the same messages.

A message is kept without the seat's link (``link_label`` says where it goes): the link,
which carries the seat's token, is put in only when it is sent (:meth:`Message.text`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games import get_title

NEWS_LINES = 6  # at most this many of the log lines a seat has not seen yet


@dataclass(frozen=True)
class Message:
    subject: str
    body: str
    link_label: str | None = None  # e.g. "Play": the seat's link follows it when sent

    def text(self, link: str | None) -> str:
        if self.link_label is None:
            return self.body
        return f"{self.body}\n{self.link_label}: {link}"


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


def news(view: dict[str, Any], seen_log: int | None) -> str:
    """The log lines written since the seat last looked (the last few, in order), from the
    lines its own view carries; empty when there are none."""
    log = list(view.get("log") or [])
    total = int(view.get("log_total") or 0)
    unseen = 3 if seen_log is None else max(0, total - seen_log)
    lines = log[-unseen:] if unseen else []
    if not lines:
        return ""
    shown = lines[-NEWS_LINES:]
    earlier = unseen - len(shown) if seen_log is not None else 0
    head = "Since you last looked:" if seen_log is not None else "Lately:"
    more = f"\n  (and {earlier} earlier line{'s' if earlier != 1 else ''} in the game's log)" if earlier > 0 else ""
    return head + more + "".join(f"\n  • {line}" for line in shown) + "\n"


def turn(view: dict[str, Any], seen_log: int | None = None) -> Message:
    title = get_title(view["title"]).TITLE.name
    me = _names(view)[view["seat"]]
    return Message(
        subject=f"Your turn — {title}",
        body=f"{me}, your game of {_game_line(view)} is waiting for you.\n{news(view, seen_log)}{awaited(view)}",
        link_label="Play",
    )


def takeback(view: dict[str, Any], seen_log: int | None = None) -> Message:
    """Another player asks to take back a move and waits for this seat's answer."""
    title = get_title(view["title"]).TITLE.name
    me = _names(view)[view["seat"]]
    request = view["takeback"]["request"]
    return Message(
        subject=f"{request['by']} asks to take back a move — {title}",
        body=(f"{me}, in your game of {_game_line(view)}, {request['by']} asks to take back their last move. "
              f"Play waits until everyone has answered.\n{news(view, seen_log)}"),
        link_label="Accept or decline",
    )


def reminder(view: dict[str, Any], hours: float, seen_log: int | None = None) -> Message:
    title = get_title(view["title"]).TITLE.name
    me = _names(view)[view["seat"]]
    waited = f"{hours:g} hour{'s' if hours != 1 else ''}"
    return Message(
        subject=f"Reminder: still your turn — {title}",
        body=(f"{me}, your game of {_game_line(view)} has been waiting for you for over {waited}.\n"
              f"{news(view, seen_log)}{awaited(view)}"),
        link_label="Play",
    )


def time_running_out(view: dict[str, Any], left: str, then: str, seen_log: int | None = None) -> Message:
    """Half of the seat's time for this decision is gone (the game's time limit): how long
    is left (e.g. "12 hours") and what happens then (e.g. "a bot plays this decision")."""
    title = get_title(view["title"]).TITLE.name
    me = _names(view)[view["seat"]]
    return Message(
        subject=f"Half your time is gone — {title}",
        body=(f"{me}, your game of {_game_line(view)} waits for your decision: {left} left. "
              f"When it runs out, {then}.\n{news(view, seen_log)}{awaited(view)}"),
        link_label="Play",
    )


def result(view: dict[str, Any], seen_log: int | None = None) -> Message:
    """The end of the game: winners and every score (public once the game is over)."""
    title = get_title(view["title"]).TITLE.name
    return Message(subject=f"Game over — {title}", body=f"{news(view, seen_log)}{outcome(view)}",
                   link_label="See the final board")


def outcome(view: dict[str, Any]) -> str:
    names = _names(view)
    res = view["result"]
    winners = [names[w] for w in res["winners"]]
    head = f"{winners[0]} wins" if len(winners) == 1 else f"Shared victory: {_and(winners)}"
    scores = ", ".join(f"{names[s['seat']]} {s['score']}" for s in sorted(res["scores"], key=lambda s: -s["score"]))
    return f"{_game_line(view)} is over. {head}. Scores: {scores}."


def host_result(view: dict[str, Any], link: str) -> Message:
    """For the host's own channel: the public result, with the spectator link (no token)."""
    title = get_title(view["title"]).TITLE.name
    return Message(subject=f"Game over — {title}", body=f"{outcome(view)}\nWatch: {link}")


def test(view: dict[str, Any]) -> Message:
    title = get_title(view["title"]).TITLE.name
    me = _names(view)[view["seat"]]
    return Message(
        subject=f"Keydom test message — {title}",
        body=f"{me}, this is how Keydom will tell you that your game of {_game_line(view)} waits for you.",
        link_label="Your seat",
    )
