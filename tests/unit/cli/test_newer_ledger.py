"""A ledger a newer pitwatch wrote (a schema revision this one does not know) is refused
in one line by the commands that write, as by those that read, and left as it was.

QA (2026-12-07): ``adjudicate --ledger``, ``surveil --db`` and ``ledger post`` on such a
ledger printed Alembic's traceback ("Can't locate revision identified by ...") and exited
1: opening a ledger to write tried to upgrade it before asking whether it knew the
revision. The reading commands already refused it (exit 2).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text

from services.ledger.db import LedgerUnavailable, upgrade_to_head
from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

FUTURE = "0099_future_thing"  # no pitwatch migration is called this


def _stamped(url: str) -> list[str]:
    probe = create_engine(url)
    try:
        with probe.connect() as conn:
            return list(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())
    finally:
        probe.dispose()


def test_commands_that_write_refuse_a_newer_ledger_and_leave_it(engine: Engine, db_url: str,
                                                                tmp_path: Path) -> None:
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(tables=1, hands=10, faults=False).lines) + b"\n")
    made = pitwatch("adjudicate", str(log), "--ledger", db_url)
    assert made.code == 0, made.stderr
    records = tmp_path / "day.adj"
    records.write_text(made.stdout)
    assert records.read_text().startswith("{")
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": FUTURE})
        hands = conn.execute(text("SELECT count(*) FROM hands")).scalar_one()
    commands = [("adjudicate", str(log), "--ledger", db_url),
                ("surveil", str(log), "--db", db_url),
                ("ledger", "post", str(records), "--db", db_url),
                ("verify", "--db", db_url)]  # a reading command, as it already was
    for command in commands:
        ran = pitwatch(*command)
        assert_one_line_usage_error(ran, f"schema revision {FUTURE}", "newer pitwatch")
        assert _stamped(db_url) == [FUTURE], command
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM hands")).scalar_one() == hands
    with pytest.raises(LedgerUnavailable, match=f"schema revision {FUTURE}"):
        upgrade_to_head(engine)  # whoever calls it, as the services' open_ledger does
    assert _stamped(db_url) == [FUTURE]


def test_the_services_refuse_a_newer_ledger_in_one_line(engine: Engine, db_url: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve ledger`` and ``serve archive`` open the ledger to write once their topics
    are there (taken as there: this test needs no broker); ``serve console`` reads it."""
    from services.pipeline import archive_service, ledger_service

    async def topics_there(*_: object) -> None:
        return None

    for module in (ledger_service, archive_service):
        monkeypatch.setattr(module, "require_topics", topics_there)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": FUTURE})
    for service in ("ledger", "archive", "console"):
        ran = pitwatch("serve", service, "--db", db_url)
        assert_one_line_usage_error(ran, f"schema revision {FUTURE}", "newer pitwatch")
        assert _stamped(db_url) == [FUTURE], service
