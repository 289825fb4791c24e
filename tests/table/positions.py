"""Games in the database at a position made by the rule tests' helpers."""

from __future__ import annotations

import json

from sqlalchemy import update

from app.games import get_title
from app.store.db import Database
from app.table.service import GAMES


async def install(url: str, game_id: str, state: object, title_id: str) -> None:
    """Put ``state`` in place of a stored game's state (the processes that serve it must
    start afterwards, or they keep the game they cached)."""
    db = Database(url)
    try:
        async with db.write() as session:
            await session.execute(update(GAMES).where(GAMES.c.id == game_id)
                                  .values(snapshot=json.dumps(get_title(title_id).dump(state))))
    finally:
        await db.dispose()
