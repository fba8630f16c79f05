"""The compliance console's users, sessions and login log.

Revision ID: 0004_console_users
Revises: 0003_surveillance_profiles
Create Date: 2026-12-02

``console_logins`` is append-only like the archive and the case trail (triggers refuse
UPDATE and DELETE on SQLite; on PostgreSQL the ``pitwatch_refuse_change`` function of
0002 refuses UPDATE, DELETE and TRUNCATE). Users and sessions change (a password, a
logout) and carry no such guard.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_console_users"
down_revision: str | Sequence[str] | None = "0003_surveillance_profiles"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = "console_logins"


def upgrade() -> None:
    op.create_table(
        "console_users",
        sa.Column("username", sa.String(100), nullable=False),
        sa.Column("password_hash", sa.Text(), nullable=False),
        sa.Column("role", sa.String(32), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("disabled", sa.Boolean(), nullable=False),
        sa.CheckConstraint("role IN ('surveillance_operator', 'dispute_analyst', "
                           "'compliance_officer', 'auditor')",
                           name=op.f("ck_console_users_role")),
        sa.PrimaryKeyConstraint("username", name=op.f("pk_console_users")),
    )
    op.create_table(
        "console_sessions",
        sa.Column("token_sha256", sa.String(64), nullable=False),
        sa.Column("username", sa.String(100), nullable=False),
        sa.Column("csrf_token", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("expires_at", sa.String(40), nullable=False),
        sa.ForeignKeyConstraint(["username"], ["console_users.username"],
                                name=op.f("fk_console_sessions_username_console_users")),
        sa.PrimaryKeyConstraint("token_sha256", name=op.f("pk_console_sessions")),
    )
    op.create_index("ix_console_sessions_username", "console_sessions", ["username"])
    op.create_table(
        "console_logins",
        sa.Column("login_id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("username", sa.String(100), nullable=False),
        sa.Column("remote", sa.String(100), nullable=False),
        sa.Column("ok", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("login_id", name=op.f("pk_console_logins")),
    )
    op.create_index("ix_console_logins_username_at", "console_logins", ["username", "at"])
    op.create_index("ix_console_logins_remote_at", "console_logins", ["remote", "at"])
    if op.get_context().dialect.name == "postgresql":
        op.execute(f"""
            CREATE TRIGGER {APPEND_ONLY}_append_only BEFORE UPDATE OR DELETE OR TRUNCATE
            ON {APPEND_ONLY} FOR EACH STATEMENT EXECUTE FUNCTION pitwatch_refuse_change()
        """)
    else:
        for verb in ("UPDATE", "DELETE"):
            op.execute(f"""
                CREATE TRIGGER {APPEND_ONLY}_no_{verb.lower()} BEFORE {verb} ON {APPEND_ONLY}
                BEGIN SELECT RAISE(ABORT, 'pitwatch: {APPEND_ONLY} is append-only'); END
            """)


def downgrade() -> None:
    op.drop_table("console_logins")
    op.drop_index("ix_console_sessions_username", table_name="console_sessions")
    op.drop_table("console_sessions")
    op.drop_table("console_users")
