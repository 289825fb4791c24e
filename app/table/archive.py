"""Export and import: a game as a document that any Keydom can play again.

A game is a pure function of (title, options, secret, actions), so the document holds
exactly those, with the players' names, each action's time and the result:

    {"format": "keydom-game", "version": 1, "title", "options", "players": [names],
     "secret" (finished games only), "actions": [{"seat", "option", "at"}], "result",
     "ending" (only for a game conceded or abandoned: {"kind", "seat"?, "at"})}

The secret is the hidden order of every draw; it leaves the server only once the game is
over (a running game's export, which only its host may take, has none and so cannot be
played on elsewhere). A game dealt from a chosen seed carries ``"seed"`` instead.

Importing replays the whole document first and stores nothing unless every action
applies and the result matches; then the game, its seats and its actions go into the
database in one transaction, with new links.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import select

from app.games import UnknownTitle, get_title
from app.games.protocol import IllegalAction, lines_written, validate_options
from app.store.models import Action, Game, Seat

from .endings import ending_result
from .errors import BadRequest, Forbidden, NotFound, Unauthorized
from .hosting import name_key
from .seats import clean_name
from .service import CreatedGame, SeatLink, Table, seat_names
from .tokens import derived_token, new_game_id, new_token, same_hash, token_hash

FORMAT = "keydom-game"
FORMAT_VERSION = 1
MAX_ACTIONS = 50_000  # far beyond any real game (Keythedral's longest bot games: ~1,600)
SECRET_HEX = 64  # 256 bits


class Archive:
    def __init__(self, table: Table) -> None:
        self.table = table

    # --- Export ---
    async def export(self, game_id: str, token: str | None, *, trusted: bool = False) -> dict[str, Any]:
        """The game's document. Any seat or the host may export a finished game; only the
        host a running one (without its secret). ``trusted``: the host's command line,
        which holds the database anyway."""
        async with self.table.db.read() as session:
            game = await session.get(Game, game_id)
            if game is None:
                raise NotFound("There is no game with that id.")
            seats = (await session.execute(
                select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat))).scalars().all()
            actions = (await session.execute(
                select(Action.seat, Action.option, Action.created_at)
                .where(Action.game_id == game_id).order_by(Action.seq))).all()
        finished = game.status == "finished"
        if not trusted:
            role = _role(game, seats, token)
            if role != "host" and not finished:
                raise Forbidden("Only the host can export a game that is still being played; "
                                "every player can once it has ended.")
        document: dict[str, Any] = {
            "format": FORMAT, "version": FORMAT_VERSION, "title": game.title, "options": game.options,
            "players": [s.name for s in seats],
            "actions": [{"seat": a.seat, "option": a.option, "at": _iso(a.created_at)} for a in actions],
            "result": None,
        }
        if finished:
            if game.secret:
                document["secret"] = game.secret
            else:
                document["seed"] = game.seed
            state = get_title(game.title).load(json.loads(game.snapshot))
            result = get_title(game.title).result(state)
            document["result"] = result.as_json() if result else None
            if game.ending:  # conceded or abandoned: the table ended it, not the rules
                document["ending"] = game.ending
                document["result"] = ending_result(game.ending, seat_names([s.name for s in seats]))
        return document

    # --- Import ---
    async def import_game(self, document: Any) -> CreatedGame:
        """A new game (new links) whose state is the document's replayed; a readable
        refusal naming the first thing that does not fit, with nothing stored."""
        title, players, options, dealt_from, actions = _read(document)
        replay = _replay(title, players, options, dealt_from, actions)
        result = title.result(replay["state"])
        ending = _ending(document, len(players), ended_by_rules=result is not None)
        given = ending_result(ending, seat_names(players)) if ending else (result.as_json() if result else None)
        if document.get("result") is not None and given != document["result"]:
            raise BadRequest("The document's result is not what its actions give here: it was changed, "
                             "or it comes from a version of Keydom with other rules.")
        game_id, host_token = new_game_id(), new_token()
        links = [SeatLink(i, name, derived_token(host_token, game_id, i, 0)) for i, name in enumerate(players)]
        secret = dealt_from if "secret" in document else None
        async with self.table.db.write() as session:
            session.add(Game(
                id=game_id, title=title.TITLE.id, options=options, players=len(players),
                seed=None if secret is not None else dealt_from, seed_given=secret is None,
                secret=None if secret is None else f"{secret:064x}",
                status="finished" if result is not None or ending else "active", version=len(actions), ending=ending,
                snapshot=json.dumps(title.dump(replay["state"])),
                host_hash=token_hash(host_token), host_name=next((n for n in players if n), None),
            ))
            await session.flush()
            session.add_all(Seat(game_id=game_id, seat=link.seat, name=link.name, token_hash=token_hash(link.token),
                                 name_key=name_key(link.name) if link.name else None)
                            for link in links)
            session.add_all(Action(game_id=game_id, seq=seq, seat=action["seat"], option=action["option"],
                                   log=lines, created_at=_when(action.get("at")))
                            for seq, (action, lines) in enumerate(zip(actions, replay["lines"]), 1))
        return CreatedGame(game_id, title.TITLE.id, links, host_token)


def _role(game: Game, seats: list[Seat], token: str | None) -> str:
    if not token:
        raise Unauthorized("Send a seat's or the host's link secret as 'Authorization: Bearer <token>'.")
    digest = token_hash(token)
    if game.host_hash is not None and same_hash(game.host_hash, digest):
        return "host"
    if any(same_hash(s.token_hash, digest) for s in seats):
        return "seat"
    raise Forbidden("That token is neither a seat nor the host of this game.")


def _read(document: Any) -> tuple[Any, list[str | None], dict[str, Any], int, list[dict[str, Any]]]:
    """The document's parts, checked one by one with a sentence for the first that fails."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BadRequest(f"This is not a Keydom game export (its \"format\" is not \"{FORMAT}\").")
    if document.get("version") != FORMAT_VERSION:
        raise BadRequest(f"This export is format version {document.get('version')!r}; "
                         f"this Keydom reads version {FORMAT_VERSION}.")
    try:
        title = get_title(str(document.get("title")))
    except UnknownTitle:
        raise BadRequest(f"This Keydom has no playable title {str(document.get('title'))[:40]!r}.") from None
    spec = title.TITLE
    players = document.get("players")
    if not isinstance(players, list) or not spec.min_players <= len(players) <= spec.max_players:
        raise BadRequest(f"{spec.name} is for {spec.min_players}–{spec.max_players} players; "
                         "the export's \"players\" does not fit.")
    names = [clean_name(n) for n in players]
    taken = [name_key(n) for n in names if n]  # the table's own rule: case and spaces ignored
    if len(taken) != len(set(taken)):
        raise BadRequest("Two players in the export share a name; names must tell players apart.")
    try:
        options = validate_options(spec, document.get("options") or {}, len(names))
    except IllegalAction as refusal:
        raise BadRequest(f"The export's options do not fit: {refusal}") from None
    dealt_from = _dealt_from(document)
    actions = document.get("actions")
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise BadRequest(f"\"actions\" must be a list of at most {MAX_ACTIONS} actions.")
    for n, action in enumerate(actions, 1):
        if (not isinstance(action, dict) or not isinstance(action.get("seat"), int) or isinstance(action.get("seat"), bool)
                or not isinstance(action.get("option"), str)):
            raise BadRequest(f"Action {n} is not of the form {{\"seat\": 0, \"option\": \"…\"}}.")
    return title, names, options, dealt_from, actions


def _ending(document: dict[str, Any], seats: int, ended_by_rules: bool) -> dict[str, Any] | None:
    """The document's ``ending`` (a game conceded or abandoned), checked; None if it has none."""
    ending = document.get("ending")
    if ending is None:
        return None
    kind = ending.get("kind") if isinstance(ending, dict) else None
    seat = ending.get("seat") if isinstance(ending, dict) else None
    if kind == "abandoned":
        kept: dict[str, Any] = {"kind": kind}
    elif kind == "conceded" and isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats:
        kept = {"kind": kind, "seat": seat}
    else:
        raise BadRequest('"ending" must be {"kind": "abandoned"} or {"kind": "conceded", "seat": <a seat number>}.')
    if ended_by_rules:
        raise BadRequest("The document says the game was conceded or abandoned, but its actions play it to the end.")
    if isinstance(ending.get("at"), str):
        kept["at"] = ending["at"][:40]
    return kept


def _dealt_from(document: dict[str, Any]) -> int:
    if "secret" in document:
        secret = document["secret"]
        if not isinstance(secret, str) or len(secret) != SECRET_HEX or any(c not in "0123456789abcdef" for c in secret):
            raise BadRequest("The export's \"secret\" must be 64 hexadecimal digits.")
        return int(secret, 16)
    if isinstance(document.get("seed"), int) and not isinstance(document.get("seed"), bool):
        return int(document["seed"])
    raise BadRequest("This export holds no secret: it was taken while the game was still being played, so its "
                     "hidden draws cannot be dealt again. Export it once the game has ended.")


def _replay(title: Any, players: list[str | None], options: dict[str, Any], dealt_from: int,
            actions: list[dict[str, Any]]) -> dict[str, Any]:
    state = title.setup(len(players), options, dealt_from)
    lines: list[list[str]] = []
    for n, action in enumerate(actions, 1):
        seat, option = action["seat"], action["option"]
        if not 0 <= seat < len(players) or players[seat] is None:
            raise BadRequest(f"Action {n} is by seat {seat + 1}, which has no player in this export.")
        if title.result(state) is not None:
            raise BadRequest(f"Action {n} comes after the game had already ended.")
        try:
            before, state = state, title.apply(state, seat, option)
        except IllegalAction as refusal:
            raise BadRequest(f"Action {n} ({players[seat]}: {option!r}) does not apply: {refusal}") from None
        lines.append(lines_written(before, state))
    return {"state": state, "lines": lines}


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:  # SQLite hands back naive times; they were written in UTC
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.isoformat()


def _when(text: Any) -> datetime:
    """An action's time as exported (kept, so the log's times survive); now if absent or odd."""
    if isinstance(text, str):
        try:
            moment = datetime.fromisoformat(text)
            return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
        except ValueError:
            pass
    return datetime.now(timezone.utc)
