"""Every case is tagged with the day, game and dealer of each booked hand its evidence names.

Revision ID: 0020_case_tags_of_named_hands
Revises: 0019_console_login_lockout
Create Date: 2026-12-07

Why (QA): the case intake tags a case with the day, game and dealer of every booked hand
its evidence names (``services.cases.intake.hand_facts``, since commit 20d5512); before,
it tagged it with the hand's day only. A SURV-9 chain-break alert says only its table and
hand, so the case it opened on an older ledger had no game or dealer tag: ``cases list
--game``/``--dealer`` left it out, and ``pitwatch verify``, which holds every case's tags
to what its evidence gives now, failed a ledger that had passed it before the upgrade.

This adds the missing tags as the intake derives them: for each hand a case names
(``case_hands``: every hand of its evidence, as filed) that the ledger holds (``hands``,
posted or refused), its day (YYYY-MM-DD), its game and its dealer (the first 200
characters, as the intake files a tag), each where it is not empty and the case does not
hold it yet. A hand booked after its case took the evidence (on the pipeline) gives its
tags too, where the intake could not yet: ``verify`` allows those, and the filters are
the better for them.

Written out in SQL rather than by importing the intake, as every migration here is: a
migration is run on ledgers for years after it is written, and must do then what it did
the day it landed, against the schema of its own revision, whatever the intake's code or
the models have become since.

``case_tags`` is append-only (triggers refuse UPDATE and DELETE on both databases): rows
are only added. No audit entry is written: the tags are the queue's index of what the
evidence says, not an action on the case, and ``verify`` reads them against the evidence,
not against the trail. Downgrade leaves them: they are what a pitwatch at 0019 files too.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0020_case_tags_of_named_hands"
down_revision: str | Sequence[str] | None = "0019_console_login_lockout"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TAG_LENGTH = 200  # case_tags.value is String(200); the intake files v[:200]


def upgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    # A date as its ISO text: SQLite keeps SQLAlchemy's Date as that text already.
    day = "to_char(h.day, 'YYYY-MM-DD')" if postgresql else "h.day"
    for kind, value in (("day", day), ("game", f"substr(h.game, 1, {TAG_LENGTH})"),
                        ("dealer", f"substr(h.dealer_id, 1, {TAG_LENGTH})")):
        op.execute(f"""
            INSERT INTO case_tags (case_id, kind, value)
            SELECT DISTINCT c.case_id, '{kind}', {value}
            FROM case_hands c JOIN hands h ON h.hand_id = c.hand_id
            WHERE {value} IS NOT NULL AND {value} <> ''
              AND NOT EXISTS (SELECT 1 FROM case_tags t WHERE t.case_id = c.case_id
                              AND t.kind = '{kind}' AND t.value = {value})
        """)


def downgrade() -> None:
    """Nothing to undo: ``case_tags`` is append-only, and the tags added are what the
    intake at 0019 files for a new case."""
