"""``pitwatch surveil --db`` refused, as ``adjudicate --ledger`` is, before it stores a run
it would surveil wrongly (QA).

* The day before adjudicated without ``--leave-open``: ``surveil DAY2 --db`` judged each
  table the archive holds as new (NO_CONFIGURATION, its hands rejected and never
  surveilled), stored the surveillance state and archived the alerts as if the day were
  done, and only then said "no state was kept".
* A shell without ``PITWATCH_PROFILES``: a table configured under the casino's own
  profile had its hands rejected, not surveilled, and the state stored without them.

Each is now one line, exit 2, the database as it was (no surveillance state, alert or
case), from a file (read beforehand, ``services.log_checks``) and from a pipe (refused
when its run ends, before anything is stored).
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine

from tests.unit.archive.test_unknown_profile_later import CASINO, casino_log, casino_profiles
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch
from tests.unit.cli.refusals import ENGINES, database, piped, two_days
from tests.unit.ledger.dbread import rows

ADVICE = "cat DAY1 DAY2 | pitwatch surveil - --leave-open --db URL"


@pytest.fixture
def ledger(engine: Engine, db_url: str) -> str:
    """``db_url``, its ledger made (the SQLite file's folder too)."""
    return db_url


@pytest.fixture
def days(tmp_path: Path) -> tuple[Path, Path]:
    return two_days(tmp_path)


# ---------------------------------------------------------------- no state kept


@pytest.mark.parametrize("engine_name", ENGINES)
def test_a_day_after_one_adjudicated_without_leave_open_is_refused_before_storing(
        days: tuple[Path, Path], ledger: str, engine_name: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Day 1 adjudicated into the database without ``--leave-open``, then ``surveil`` of
    day 2: one line naming the tables and what to do, exit 2, no surveillance state,
    alert or case stored (it stored them, then said no state was kept), from a file and
    from a pipe."""
    monkeypatch.setenv("PITWATCH_ENGINE", engine_name)
    day1, day2 = days
    assert pitwatch("adjudicate", str(day1), "--ledger", ledger).code == 1  # hand cut
    before = database(ledger)
    assert before["surveillance_state"] == []
    ran = pitwatch("surveil", str(day2), "--db", ledger, columns=1000)
    assert_one_line_usage_error(ran, "T001 (this log starts at its seq",
                                "T002 (this log starts at its seq",
                                "no state was kept for them", "--leave-open",
                                "nothing was stored", ADVICE)
    assert database(ledger) == before
    ran = piped("surveil", gzip.decompress(day2.read_bytes()), "--db", ledger, engine=engine_name)
    assert_one_line_usage_error(ran, "no state was kept for them", "nothing was stored",
                                ADVICE)
    assert database(ledger) == before


def test_the_days_given_together_as_advised_are_surveilled(
        days: tuple[Path, Path], tmp_path: Path) -> None:
    """The refusal's advice works on the same database: both days in one run, every
    table's hands surveilled from its configuration, the state stored."""
    day1, day2 = days
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    pitwatch("adjudicate", str(day1), "--ledger", url)
    assert pitwatch("surveil", str(day2), "--db", url).code == 2
    both = gzip.decompress(day1.read_bytes()) + gzip.decompress(day2.read_bytes())
    ran = piped("surveil", both, "--leave-open", "--db", url)
    assert ran.code == 0, ran.stderr
    assert "no state was kept" not in ran.stderr and "rejected" not in ran.stderr
    db = create_engine(url)
    assert rows(db, "SELECT COUNT(*) FROM surveillance_state")[0][0] > 0
    db.dispose()


def test_a_day_surveilled_into_a_database_without_its_archive_is_not_refused(
        days: tuple[Path, Path], tmp_path: Path) -> None:
    """Not this slip: a database that never archived the tables (``surveil`` alone)
    surveils the day as before."""
    ran = pitwatch("surveil", str(days[1]), "--db", f"sqlite:///{tmp_path}/s.sqlite")
    assert ran.code == 1, ran.stderr  # its first hands lack their configuration
    assert "no state was kept" not in ran.stderr


# ---------------------------------------------------------------- PITWATCH_PROFILES


def test_a_table_under_a_profile_this_run_lacks_is_not_surveilled_into_the_database(
        tmp_path: Path, ledger: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A day booked with ``PITWATCH_PROFILES`` set, surveilled in a shell without it:
    one line naming the profile and the variable, exit 2, the database as it was (from a
    file and from a pipe); a new database is not created for it."""
    log = casino_log(tmp_path / "day.jsonl")
    monkeypatch.setenv("PITWATCH_PROFILES", str(casino_profiles(tmp_path)))
    assert pitwatch("adjudicate", str(log), "--ledger", ledger).code == 0
    monkeypatch.delenv("PITWATCH_PROFILES")
    before = database(ledger)
    ran = pitwatch("surveil", str(log), "--db", ledger, columns=1000)
    assert_one_line_usage_error(ran, repr(CASINO), "PITWATCH_PROFILES", "nothing was stored")
    assert database(ledger) == before
    ran = piped("surveil", log.read_bytes(), "--db", ledger)  # met as it is read, refused at its end
    assert_one_line_usage_error(ran, repr(CASINO), "PITWATCH_PROFILES", "nothing was stored")
    assert database(ledger) == before
    ran = pitwatch("surveil", str(log), "--db", f"sqlite:///{tmp_path}/new.sqlite")
    assert_one_line_usage_error(ran, repr(CASINO), "PITWATCH_PROFILES")
    assert not (tmp_path / "new.sqlite").exists()
