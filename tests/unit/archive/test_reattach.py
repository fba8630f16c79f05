"""A day detached past retention, restored and attached again, is read as before, and
``pitwatch archive detach`` takes it away again (archive.md, "Retention": "restore ...,
attach them again and run `pitwatch archive detach` again").

QA (helper 78): attached again, every event of the day was a `late` break ("seq 1 is
archived after the chain was linked past it"), because the chain was anchored where the
detached day had left it, the day itself included; the checkpoints counted the day twice;
and the second detach stopped with a traceback (the day table kept the append-only
trigger its first detach gave it). PostgreSQL only: SQLite's archive has no partitions."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, text

from services.archive.verify import verify_archive
from tests.profiles import PROFILES
from tests.unit.archive.support import keep
from tests.unit.archive.test_detach_cut import _pin_now
from tests.unit.archive.test_replay_detached import DAY_ONE, DAY_TWO
from tests.unit.archive.test_verify_start import two_day_log
from tests.unit.cli.helpers import pitwatch

DAY_TABLE = "archive_segments_20260105"


def _attach_again(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.execute(text(
            f"ALTER TABLE archive_segments ATTACH PARTITION {DAY_TABLE} FOR VALUES FROM "
            f"('{DAY_ONE}') TO ('{DAY_TWO}')"))


def _attached_days(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(
            "SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            f"WHERE c.relname = '{DAY_TABLE}'")).scalar_one())


@pytest.mark.integration
def test_a_day_attached_again_verifies_clean_and_detaches_again(
        pg_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    keep(pg_engine, two_day_log())
    url = pg_engine.url.render_as_string(hide_password=False)
    _pin_now(monkeypatch)
    first = pitwatch("archive", "detach", "--db", url, columns=400)
    assert first.code == 0, first.stderr
    assert _attached_days(pg_engine) == 0

    _attach_again(pg_engine)
    assert _attached_days(pg_engine) == 1
    for span in ({}, {"first_day": DAY_ONE, "last_day": DAY_ONE},
                 {"first_day": DAY_TWO, "last_day": DAY_TWO}):
        found = verify_archive(pg_engine, profiles=PROFILES, **span)  # type: ignore[arg-type]
        assert found.archive_breaks == [], (span, found.breaks[:3])
        assert found.breaks == [], (span, found.breaks[:3])
    checked = pitwatch("verify", "--db", url, "--from", DAY_ONE.isoformat(), "--to",
                       DAY_ONE.isoformat(), columns=400)
    assert checked.code == 0, checked.stderr

    again = pitwatch("archive", "detach", "--db", url, columns=400)
    assert again.code == 0, again.stderr
    assert "Traceback" not in again.stderr
    assert f"detached {DAY_TABLE}" in again.stderr
    assert _attached_days(pg_engine) == 0
    with pg_engine.begin() as conn, pytest.raises(Exception, match=r"append-only|refuse"):
        conn.execute(text(f"DELETE FROM {DAY_TABLE}"))  # still guarded
    found = verify_archive(pg_engine, profiles=PROFILES)
    assert found.breaks == [], found.breaks[:3]
