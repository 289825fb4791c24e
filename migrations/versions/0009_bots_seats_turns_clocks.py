"""bots and time limits: who plays a seat, bots' pending turns, per-decision clocks

Revision ID: 0009_bots
Revises: 0008_links
Create Date: 2026-11-26

- ``seats.bot_level``: "random" or "strong" while a bot plays the seat (made for a bot, or
  handed to one while its player is away); NULL: its player.
- ``bot_turns``: a bot seat that owes a decision, due after BOT_DELAY_SECONDS; claimed by
  one server process at a time (``claimed_by``/``claimed_until``, like notification rows).
- ``game_clocks``: a game's time limit per decision and what happens when it runs out.
- ``seat_clocks``: the running clock of a seat that owes a decision in such a game (its
  reminder and its end), claimed like ``bot_turns``.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0009_bots"
down_revision: Union[str, Sequence[str], None] = "0008_links"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(16), nullable=True))
    op.create_table(
        "bot_turns",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("mode", sa.String(16), nullable=False),  # seat | decision
        sa.Column("since", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.Float(), nullable=False),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("claimed_until", sa.Float(), nullable=True),
    )
    op.create_index("ix_bot_turns_due_at", "bot_turns", ["due_at"])
    op.create_table(
        "game_clocks",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("decision_seconds", sa.Integer(), nullable=False),
        sa.Column("on_timeout", sa.String(16), nullable=False),  # wait | bot-move | bot-seat
    )
    op.create_table(
        "seat_clocks",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("since", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("stage", sa.String(16), nullable=False),  # running | reminded | expired
        sa.Column("due_at", sa.Float(), nullable=False),  # the next thing to do: remind, then expire
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("claimed_until", sa.Float(), nullable=True),
    )
    op.create_index("ix_seat_clocks_due_at", "seat_clocks", ["due_at"])


def downgrade() -> None:
    op.drop_index("ix_seat_clocks_due_at", table_name="seat_clocks")
    op.drop_table("seat_clocks")
    op.drop_table("game_clocks")
    op.drop_index("ix_bot_turns_due_at", table_name="bot_turns")
    op.drop_table("bot_turns")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot_level")
