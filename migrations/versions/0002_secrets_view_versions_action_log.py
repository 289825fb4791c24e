"""per-game secret, per-viewer view versions, each action's log lines

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26

- ``games.secret``: the 256-bit secret hidden draws come from (hex). ``games.seed`` stays for
  games created with a given seed (tests, deliberate replays) and becomes nullable.
- ``games.seed_given``: the game was dealt from a seed someone chose; its view says so.
- ``games.view_versions``: for each seat and the spectator, the game version at which what
  they see last changed (a private step of one seat bumps nothing the others see).
- ``actions.log``: the lines an action wrote to the game log, where full history is paged from.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: Union[str, Sequence[str], None] = "0001"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("secret", sa.String(64), nullable=True))
        batch.add_column(sa.Column("seed_given", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("view_versions", sa.JSON(), nullable=True))
        batch.alter_column("seed", existing_type=sa.Integer(), nullable=True)
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("log", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("log")
    op.execute("UPDATE games SET seed = 0 WHERE seed IS NULL")
    with op.batch_alter_table("games") as batch:
        batch.alter_column("seed", existing_type=sa.Integer(), nullable=False)
        batch.drop_column("view_versions")
        batch.drop_column("seed_given")
        batch.drop_column("secret")
