"""takebacks: undo by policy and takebacks with consent

Revision ID: 0012_takebacks
Revises: 0011_social
Create Date: 2026-11-26

- ``games.takeback``: what each seat may take back now (its last action, whether it may be
  undone at once, whether it saw another seat act since) and the open request, written with
  every action so that no extra read is needed (app/table/takeback.py). None for games
  stored before: their seats may take back from their next action on.
- ``takebacks``: each undo and each request for a takeback (who, which action, the answers,
  how it ended).
- ``taken_back_actions``: the actions a takeback removed from the game, kept as they were.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0012_takebacks"
down_revision: Union[str, Sequence[str], None] = "0011_social"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("takeback", sa.JSON(), nullable=True))
    op.create_table(
        "takebacks",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action_seq", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("answers", sa.JSON(), nullable=True),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("settled_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "taken_back_actions",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("option", sa.String(120), nullable=False),
        sa.Column("log", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("takeback_id", sa.Integer(), sa.ForeignKey("takebacks.id", ondelete="CASCADE"), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("taken_back_actions")
    op.drop_table("takebacks")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("takeback")
