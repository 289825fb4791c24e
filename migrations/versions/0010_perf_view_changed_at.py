"""view change times: when what each viewer sees last changed

Revision ID: 0010_perf
Revises: 0009_bots
Create Date: 2026-11-26

- ``games.view_changed_at``: per seat, then the spectator, the time (seconds since the
  epoch, UTC) at which what that viewer sees last changed. A seat's "last change" in its
  games list comes from here, so another seat's private step does not move it.
  ``games.updated_at`` from now on moves only with changes everyone sees.
- ``games.view_versions`` keeps its shape (an integer per viewer) but counts each viewer's
  own changes from now on instead of naming the game version; old values carry on as counters.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0010_perf"
down_revision: Union[str, Sequence[str], None] = "0009_bots"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("view_changed_at", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("view_changed_at")
