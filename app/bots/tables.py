"""The bots' and clocks' tables (migration 0009_bots), as SQLAlchemy Core tables.

Kept out of ``app.store.models`` on purpose: nothing else reads them."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

# A bot seat that owes a decision: due after the delay; one process claims it at a time.
TURNS = sa.Table(
    "bot_turns", metadata,
    sa.Column("game_id", sa.String(16), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("mode", sa.String(16), nullable=False),  # seat: a bot plays it | decision: one move for an absent player
    sa.Column("since", sa.Integer, nullable=False),  # the game version it was scheduled at
    sa.Column("due_at", sa.Float, nullable=False),
    sa.Column("claimed_by", sa.String(32)),
    sa.Column("claimed_until", sa.Float),
)

# A game's time limit per decision, and what happens when a seat runs out of it.
GAME_CLOCKS = sa.Table(
    "game_clocks", metadata,
    sa.Column("game_id", sa.String(16), primary_key=True),
    sa.Column("decision_seconds", sa.Integer, nullable=False),
    sa.Column("on_timeout", sa.String(16), nullable=False),  # wait | bot-move | bot-seat
)

# The clock of a seat that owes a decision in a game with a time limit.
SEAT_CLOCKS = sa.Table(
    "seat_clocks", metadata,
    sa.Column("game_id", sa.String(16), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("since", sa.Integer, nullable=False),  # the game version the decision began at
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Column("stage", sa.String(16), nullable=False),  # running | reminded | expired
    sa.Column("due_at", sa.Float, nullable=False),  # the next step: the reminder, then the end
    sa.Column("claimed_by", sa.String(32)),
    sa.Column("claimed_until", sa.Float),
)
