"""A cup's ranking rule, chosen when it is made (issue 38): `ranking` (points, money, best, drop), `ranking_n` (the
best N rounds counted, or the worst N dropped), `rate` (minor units a point: its tables' stake), `currency`, and
what goes to its `pot` (none, or kontras). Adding columns with a default is a plain ALTER on both databases: no
table is copied (0005_circles.py says why that matters); the cups made before rank by the sum of points.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

COLUMNS = (("ranking", sa.String(8), "points"), ("ranking_n", sa.Integer(), "0"), ("rate", sa.Integer(), "0"),
           ("currency", sa.String(8), "EUR"), ("pot", sa.String(8), "none"))


def upgrade() -> None:
    for name, kind, default in COLUMNS:
        op.add_column("tournaments", sa.Column(name, kind, nullable=False, server_default=default))


def downgrade() -> None:
    for name, _kind, _default in reversed(COLUMNS):
        op.drop_column("tournaments", name)
