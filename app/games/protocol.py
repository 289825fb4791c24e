"""The protocol every title implements.

A game is a pure, deterministic function of (title, options, seed, list of actions).
Each title is a package under ``app/games/<title>/`` whose ``__init__`` exposes a
module-level ``TITLE`` (a :class:`TitleSpec`) and the functions below. The table code
only ever talks to a title through :class:`Title`, so every title is driven the same way
by the web pages, the API, bots, fuzzers and tests.

State is whatever the title likes internally; ``dump``/``load`` turn it into plain JSON
(dicts, lists, str, int, bool, None) for the database and back, exactly.

The log: a title keeps its game log, which every seat and spectator sees, as a
:class:`~app.games.gamelog.GameLog` at ``state.log`` (recent lines and a count of all of
them, so the state does not grow with the game). The table stores the lines each action
wrote (:func:`lines_written`) beside the action, and pages older history from there; a
view carries only the last ``VIEW_LOG`` lines and ``log_total``, the number of lines ever
written (so line ``log_total`` is the newest, numbered from 1).
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from threading import get_ident
from typing import Any, Callable, Iterator, Protocol, Sequence, TypeVar

from app.games.gamelog import GameLog

Seat = int
State = Any
JSON = Any
P = TypeVar("P")
VIEW_LOG = 50  # log lines a view carries; the rest is paged from the table on request


class IllegalAction(Exception):
    """A refused choice. The message is shown to the player as it is."""


@dataclass(frozen=True)
class Option:
    """One legal choice for one seat.

    ``id`` is what the client sends back. ``label`` is what a button says.
    ``kind`` groups choices for the page (e.g. "place", "build", "name").
    ``target`` names the thing on the board the choice is about (e.g. "cell:1,2"),
    so the page can highlight it and make it clickable.
    """

    id: str
    label: str
    kind: str = ""
    target: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "kind": self.kind, "target": self.target}


@dataclass(frozen=True)
class SeatScore:
    seat: Seat
    score: int
    breakdown: dict[str, int] = field(default_factory=dict)  # label -> points
    tiebreak: tuple[int, ...] = ()  # higher is better, compared after score
    note: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "score": self.score,
            "breakdown": dict(self.breakdown),
            "tiebreak": list(self.tiebreak),
            "note": self.note,
        }


@dataclass(frozen=True)
class Result:
    """The end of a game: every seat's score and the winner(s)."""

    scores: list[SeatScore]
    winners: list[Seat]
    reason: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "scores": [s.as_json() for s in self.scores],
            "winners": list(self.winners),
            "reason": self.reason,
        }


def winners_by_score(scores: list[SeatScore]) -> list[Seat]:
    """Highest score wins; ties are broken by ``tiebreak`` tuples; what is still tied shares."""
    if not scores:
        return []
    best = max((s.score, s.tiebreak) for s in scores)
    return [s.seat for s in scores if (s.score, s.tiebreak) == best]


@dataclass(frozen=True)
class OptionSpec:
    """One game option a host can set when creating a game (drives the form and validation).

    ``kind`` is "bool" or "choice". For "choice", ``choices`` is a list of (value, label).
    """

    key: str
    label: str
    kind: str
    default: Any
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""
    players: tuple[int, int] | None = None  # only offered for this player range


@dataclass(frozen=True)
class TitleSpec:
    id: str
    name: str
    min_players: int
    max_players: int
    blurb: str
    option_specs: tuple[OptionSpec, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "blurb": self.blurb,
            "options": [
                {
                    "key": o.key,
                    "label": o.label,
                    "kind": o.kind,
                    "default": o.default,
                    "choices": [list(c) for c in o.choices],
                    "help": o.help,
                    "players": list(o.players) if o.players else None,
                }
                for o in self.option_specs
            ],
        }


class Title(Protocol):
    """What ``app/games/<title>/__init__.py`` provides."""

    TITLE: TitleSpec

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        """A fresh game. Raises IllegalAction for an impossible player count or option."""

    def to_act(self, state: State) -> frozenset[Seat]:
        """Seats that owe a decision now; several at once is normal; empty when over."""

    def options(self, state: State, seat: Seat) -> list[Option]:
        """Every legal choice for ``seat`` now, in a stable order (empty if none)."""

    def apply(self, state: State, seat: Seat, option_id: str) -> State:
        """A new state after ``seat`` takes ``option_id``; never mutates ``state``.

        Raises IllegalAction if the option is not currently offered to that seat.
        """

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """``{"public": {...}, "private": {...} | None, "log": [str, ...], "log_total": int}``
        (build it with :func:`seat_view`).

        ``private`` holds only that seat's hidden things; spectators (None) get None.
        """

    def result(self, state: State) -> Result | None:
        """Scores and winners once the game is over, else None."""

    def undoable(self, before: State, seat: Seat, option_id: str, after: State) -> bool:
        """Whether ``seat`` may take this step back at once while nobody has acted since:
        it drew no randomness and showed the seat nothing that was hidden from it (a card
        drawn, a face-down tile turned, the others' secret choices revealed together).
        Steps that end the game never qualify (the table checks that itself)."""

    def dump(self, state: State) -> JSON:
        """Plain JSON for the snapshot."""

    def load(self, raw: JSON) -> State:
        """The state back from ``dump``'s output."""


# While set (see ``shared_public_parts``): per state (by its players list), the public
# part, log lines and log total already built for one viewer.
_SHARED: ContextVar[dict[int, tuple[object, tuple[dict[str, Any], list[str], int]]] | None] = ContextVar(
    "shared_public_parts", default=None)


@contextmanager
def shared_public_parts(kept: dict[int, Any] | None = None) -> Iterator[None]:
    """Inside this block ``seat_view`` builds the parts every viewer sees alike (the public
    part and the log) once per state and hands the same objects to each viewer. For code
    that builds every viewer's view of a state and changes none of them (the table); outside
    it every view is built afresh. ``kept``: a dict from an earlier block, so views built
    later (one per viewer, when each is asked for) share what the first one built."""
    token = _SHARED.set({} if kept is None else kept)
    try:
        yield
    finally:
        _SHARED.reset(token)


def seat_view(players: Sequence[P], seat: Seat | None, public: Callable[[], dict[str, Any]],
              private: Callable[[P], dict[str, Any]], log: GameLog) -> dict[str, Any]:
    """The envelope every title's ``view`` returns: the public parts, the seat's own
    screen (None for spectators and for seats that do not exist), the last ``VIEW_LOG``
    lines of the log and how many lines it has in all."""
    own = players[seat] if seat is not None and 0 <= seat < len(players) else None
    shared = _SHARED.get()
    if shared is None:
        common = _common_parts(public, log)
    else:
        kept = shared.get(id(players))
        if kept is None or kept[0] is not players:  # the list is kept, so its id is not reused
            kept = shared[id(players)] = (players, _common_parts(public, log))
        common = kept[1]
    return {"public": common[0], "private": private(own) if own is not None else None,
            "log": common[1], "log_total": common[2]}


def _common_parts(public: Callable[[], dict[str, Any]], log: GameLog) -> tuple[dict[str, Any], list[str], int]:
    recent = log.recent if isinstance(log, GameLog) else list(log)  # a plain list: a test's hand-made state
    return public(), recent[-VIEW_LOG:], getattr(log, "total", len(recent))


def lines_written(before: State, after: State) -> list[str]:
    """The log lines one action wrote (every title keeps ``state.log`` as a GameLog)."""
    return after.log.lines_since(before.log.total)


class ListedOnce:
    """A title's ``options``, listed by a caller that next applies one of them to that very
    game object, unchanged in between (a bot lists, picks and applies): the title's
    ``apply`` then checks the choice against that list (``offered``) instead of listing
    again, so a decision lists its options once. Taken at most once.

    One slot for every thread, stamped with the thread that listed: a thread that finds
    another's listing (or none) lists afresh, so sharing it is safe, and cheaper per
    decision than a ``threading.local``."""

    __slots__ = ("_options", "_last")

    def __init__(self, options: Callable[[Any, Seat], list[Option]]) -> None:
        self._options = options
        self._last: tuple[int, Any, Seat, list[Option]] | None = None

    def listed(self, state: Any, seat: Seat) -> list[Option]:
        out = self._options(state, seat)
        self._last = (get_ident(), state, seat, out)
        return out

    def offered(self, state: Any, seat: Seat) -> Callable[[], list[Option]]:
        """For ``check_choice``: the list kept for this game object and seat, else a fresh one."""
        last, self._last = self._last, None
        if last is not None and last[1] is state and last[2] == seat and last[0] == get_ident():
            kept = last[3]
            return lambda: kept
        return lambda: self._options(state, seat)


def check_choice(seat: object, seats: int, over: bool, acting: frozenset[Seat],
                 offered: Callable[[], Sequence[Option] | bool], option_id: object) -> None:
    """The refusals every title's ``apply`` starts with: a real seat, a running game, that
    seat's turn to choose, and one of the options listed for it right now. ``offered``
    gives those options, or (a title that checks a choice without building its labelled
    options) whether its listing holds ``option_id``; asked only once the rest passed."""
    if not isinstance(seat, int) or not 0 <= seat < seats:
        raise IllegalAction(f"There is no seat {seat!r} in this game.")
    if over:
        raise IllegalAction("The game is over.")
    if seat not in acting:
        raise IllegalAction(f"Seat {seat + 1} has nothing to choose right now.")
    if isinstance(option_id, str):
        listed = offered()
        if listed is True:
            return
        for option in listed or ():  # a walk that stops at the choice: no set of every id made
            if option.id == option_id:
                return
    raise IllegalAction(f"'{str(option_id)[:60]}' is not one of seat {seat + 1}'s choices right now.")


def validate_options(spec: TitleSpec, given: dict[str, Any] | None, players: int) -> dict[str, Any]:
    """Fill defaults and refuse unknown keys or bad values with a readable message."""
    given = dict(given or {})
    known = {o.key: o for o in spec.option_specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise IllegalAction(f"Unknown option(s) for {spec.name}: {', '.join(unknown)}.")
    out: dict[str, Any] = {}
    for key, o in known.items():
        value = given.get(key, o.default)
        if o.kind == "bool":
            if not isinstance(value, bool):
                raise IllegalAction(f"Option '{o.label}' must be true or false.")
        elif o.kind == "choice":
            values = [c[0] for c in o.choices]
            if value not in values:
                raise IllegalAction(f"Option '{o.label}' must be one of: {', '.join(values)}.")
        if o.players and value != o.default and not o.players[0] <= players <= o.players[1]:
            low, high = o.players
            raise IllegalAction(f"Option '{o.label}' is for {low}–{high} players.")
        out[key] = value
    return out


def keeps_secrets(before: State, after: State, *hidden: str) -> bool:
    """No randomness was drawn (the RNG state every title keeps at ``state.rng`` did not
    move) and none of the named hidden parts of the state (face-down piles, a bag, the
    count of reveals) changed: the usual test of a step a title lets a seat take back."""
    return before.rng == after.rng and all(getattr(before, name) == getattr(after, name) for name in hidden)


Checker = Callable[[State], None]
