"""Room leases: which server process owns each room (several processes on one database).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("code", sa.String(8), primary_key=True),
        sa.Column("owner", sa.String(40), nullable=False),
        sa.Column("url", sa.String(300), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("info", sa.Text, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("leases")
