"""When a console user's password was last set, and which login tries were refused unchecked.

Revision ID: 0019_console_login_lockout
Revises: 0018_table_carries_by_taken
Create Date: 2026-12-07

Why (QA): the login limit counted every row of ``console_logins`` not ``ok`` in the last
15 minutes, and a try refused by the limit (429, its password not checked) was such a row:
one try every few minutes kept any name locked for good, and a new password, which the
429 page advises, did not lift it. ``console_logins.limited`` marks the second row a
refused try now adds (the log is append-only: its first row, written before the limit was
read, cannot be changed), which takes it back out of the count, as a login's ``ok`` row
does. ``console_users.password_set_at`` is when ``pitwatch users add`` last set the
user's password (and role, and enabled it): failures for the name before it no longer
count. Existing users get their ``created_at``; existing rows are no refused tries.

Columns are added in place (``ALTER TABLE ... ADD COLUMN``): the append-only triggers of
``console_logins`` stay as they are, and no row is updated there.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019_console_login_lockout"
down_revision: str | Sequence[str] | None = "0018_table_carries_by_taken"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    postgresql = op.get_context().dialect.name == "postgresql"
    # Text compares bytewise on PostgreSQL, as every text column since 0011.
    stamp_type = sa.String(40, collation="C") if postgresql else sa.String(40)
    op.add_column("console_users", sa.Column("password_set_at", stamp_type, nullable=True))
    op.execute("UPDATE console_users SET password_set_at = created_at")
    op.add_column("console_logins", sa.Column("limited", sa.Boolean(), nullable=False,
                                              server_default=sa.false()))


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.drop_column("console_logins", "limited")
        op.drop_column("console_users", "password_set_at")
        return
    # SQLite (3.35 and later) drops a column in place; a batch rebuild would lose the
    # append-only triggers.
    op.execute("ALTER TABLE console_logins DROP COLUMN limited")
    op.execute("ALTER TABLE console_users DROP COLUMN password_set_at")
