"""Two operator slips that booked a table's hands wrongly for good, in an append-only
ledger, refused before anything is booked (QA).

* A later ``adjudicate --ledger`` in a shell without ``PITWATCH_PROFILES``: every hand of
  a table configured under the casino's own profile was booked rejected (GEN-5
  ``UNKNOWN_RULE_PROFILE``) or refused as a changed re-post, a critical LEDGER_CONFLICT
  case each, and no line named the variable.
* The day before run without ``--leave-open``: the next day's run judged each table the
  archive holds as new (NO_CONFIGURATION), booked and opened cases for all of it, and only
  then said "no state was kept".

Each is now one line, exit 2, the database as it was: from a file (read beforehand,
``services.log_checks``) and from a pipe (``services.recording.RunKeeper``), on both
engines and both databases.
"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import Engine, create_engine

from services.exits import Refused
from services.ledger.db import open_ledger
from services.log_checks import read_head
from services.log_run import run_file
from services.recording import RunKeeper
from tests.profiles import PROFILES
from tests.unit.archive.test_carry import simulated_clean_log
from tests.unit.archive.test_unknown_profile_later import CASINO, casino_log, casino_profiles
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch
from tests.unit.cli.refusals import ENGINES, database, piped, two_days
from tests.unit.ledger.dbread import rows
from tests.unit.reports.logs import rechain


@pytest.fixture
def ledger(engine: Engine, db_url: str) -> str:
    """``db_url``, its ledger made (the SQLite file's folder too)."""
    return db_url


# ---------------------------------------------------------------- PITWATCH_PROFILES


@pytest.fixture
def casino_day(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ledger: str) -> Path:
    """A day of tables under the casino's profile, booked with ``PITWATCH_PROFILES`` set;
    then the variable is gone, as in a shell opened later."""
    log = casino_log(tmp_path / "day.jsonl")
    monkeypatch.setenv("PITWATCH_PROFILES", str(casino_profiles(tmp_path)))
    assert pitwatch("adjudicate", str(log), "--ledger", ledger).code == 0
    monkeypatch.delenv("PITWATCH_PROFILES")
    return log


@pytest.mark.parametrize("engine_name", ENGINES)
def test_a_table_under_a_profile_this_run_lacks_is_not_booked(
        casino_day: Path, ledger: str, engine_name: str) -> None:
    """From a file, compressed or not, and from a pipe: one line naming the profile and
    the variable, exit 2, the database as it was (it got 121 conflicts and 54 critical
    cases)."""
    before = database(ledger)
    packed = casino_day.with_suffix(".jsonl.gz")
    packed.write_bytes(gzip.compress(casino_day.read_bytes()))
    for log in (casino_day, packed):
        ran = pitwatch("adjudicate", str(log), "--engine", engine_name, "--ledger", ledger)
        assert_one_line_usage_error(ran, repr(CASINO), "PITWATCH_PROFILES",
                                    "nothing was booked")
    ran = piped("adjudicate", casino_day.read_bytes(), "--engine", engine_name, "--ledger", ledger)
    assert_one_line_usage_error(ran, repr(CASINO), "PITWATCH_PROFILES", "nothing was booked")
    assert database(ledger) == before


def test_a_new_ledger_is_not_created_for_a_run_it_refuses(tmp_path: Path) -> None:
    log = casino_log(tmp_path / "day.jsonl", tables=2)
    ran = pitwatch("adjudicate", str(log), "--ledger", f"sqlite:///{tmp_path}/new.sqlite")
    assert_one_line_usage_error(ran, repr(CASINO), "PITWATCH_PROFILES")
    assert not (tmp_path / "new.sqlite").exists()


def test_a_profile_without_the_section_of_a_tables_game_is_refused_before_the_ledger(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The casino's copy of house-v1 lacks ``hcf.toml`` and the log's tables play HCF
    under it: every hand would be judged rejected. The run said so only after it had
    created the ledger, left behind empty with every table, which later commands took for
    a real one (QA). Now ``adjudicate --ledger`` and ``surveil --db`` refuse in one line
    and create nothing."""
    log = casino_log(tmp_path / "day.jsonl", tables=2)
    folder = casino_profiles(tmp_path)
    (folder / CASINO / "hcf.toml").unlink()
    monkeypatch.setenv("PITWATCH_PROFILES", str(folder))
    said = (f"table(s) T001, T002 of this log play hcf under rule profile {CASINO!r}, which "
            "has no section 'hcf' (its sections: chinese, draw7a, gen, holdem, russian, "
            "surveillance): add hcf.toml to the profile, or configure the table under "
            "another one, and run it again")
    ran = pitwatch("adjudicate", str(log), "--ledger", f"sqlite:///{tmp_path}/new.sqlite")
    assert_one_line_usage_error(ran, said, "nothing was booked")
    ran = pitwatch("surveil", str(log), "--db", f"sqlite:///{tmp_path}/new.sqlite")
    assert_one_line_usage_error(ran, said, "nothing was stored")
    assert not (tmp_path / "new.sqlite").exists()


def test_without_a_ledger_the_finding_names_the_variable(tmp_path: Path) -> None:
    """Records to stdout only: each hand's UNKNOWN_RULE_PROFILE finding says what to set
    (it said "built-in profiles: house-v1"), the same bytes from both engines."""
    log = casino_log(tmp_path / "day.jsonl", tables=2)
    outputs = [pitwatch("adjudicate", str(log), "--engine", e) for e in ENGINES]
    assert outputs[0].stdout == outputs[1].stdout
    records = [orjson.loads(line) for line in outputs[0].stdout.splitlines()]
    assert records and all(r["status"] == "rejected" for r in records)
    assert {f["message"] for r in records for f in r["findings"]} == {
        f"unknown rule profile {CASINO!r} (this run knows house-v1): set PITWATCH_PROFILES "
        "to the folder of the casino's own profiles and run it again"}
    assert all(o.code == 1 for o in outputs)


# ---------------------------------------------------------------- no state kept


@pytest.fixture
def days(tmp_path: Path) -> tuple[Path, Path]:
    return two_days(tmp_path)


@pytest.mark.parametrize("engine_name", ENGINES)
def test_a_day_after_one_run_without_leave_open_is_refused_before_booking(
        days: tuple[Path, Path], ledger: str, engine_name: str) -> None:
    """Day 1 without ``--leave-open``, then day 2: one line naming each table, where the
    log starts it and how far the archive holds it, and what to do; exit 2; nothing
    booked, archived, opened or kept (from a file and from a pipe)."""
    day1, day2 = days
    first = pitwatch("adjudicate", str(day1), "--engine", engine_name, "--ledger", ledger)
    assert first.code == 1  # the hand open at its end closed as incomplete: rejected
    before = database(ledger)
    ran = pitwatch("adjudicate", str(day2), "--leave-open", "--engine", engine_name,
                   "--ledger", ledger)
    assert_one_line_usage_error(ran, "T001 (this log starts at its seq",
                                "no state was kept for them", "--leave-open",
                                "nothing was booked",
                                "cat DAY1 DAY2 | pitwatch adjudicate - --leave-open")
    assert database(ledger) == before
    ran = piped("adjudicate", gzip.decompress(day2.read_bytes()), "--leave-open", "--engine", engine_name,
                "--ledger", ledger)
    assert_one_line_usage_error(ran, "no state was kept for them", "nothing was booked")
    assert database(ledger) == before


@pytest.mark.parametrize(("command", "option"), [("adjudicate", "--ledger"),
                                               ("surveil", "--db")])
def test_the_refusal_says_where_each_table_starts_and_how_far_it_is_archived(
        days: tuple[Path, Path], tmp_path: Path, command: str, option: str) -> None:
    day1, day2 = days
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    pitwatch("adjudicate", str(day1), "--ledger", url)
    head = read_head(day2, ["T001", "T002"])
    assert head is not None and set(head.first_seq) == {"T001", "T002"}
    db = create_engine(url)
    with db.connect() as conn:
        archived = {str(t): int(s) for t, s in conn.exec_driver_sql(
            "SELECT table_id, last_seq FROM archive_tables")}
    db.dispose()
    line = pitwatch(command, str(day2), option, url, columns=1000).error_lines[0]
    for table, seq in head.first_seq.items():
        assert seq == archived[table] + 1
        assert (f"{table} (this log starts at its seq {seq:,}, the archive holds it through "
                f"seq {archived[table]:,})") in line


def test_the_days_given_together_as_advised_book_the_rest(
        days: tuple[Path, Path], tmp_path: Path) -> None:
    """The refusal's (and the guide's) advice works on the same database: the days given
    together, in order, book day 2 and keep the states; only the hand across midnight,
    booked incomplete by day 1's run, stays so (its complete record a LEDGER_CONFLICT);
    ``verify`` finds no break."""
    day1, day2 = days
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    pitwatch("adjudicate", str(day1), "--ledger", url)
    assert pitwatch("adjudicate", str(day2), "--leave-open", "--ledger", url).code == 2
    both = gzip.decompress(day1.read_bytes()) + gzip.decompress(day2.read_bytes())
    ran = piped("adjudicate", both, "--leave-open", "--ledger", url)
    assert ran.code == 1, ran.stderr  # the conflicts: the hands booked incomplete on day 1
    assert "NO_CONFIGURATION" not in ran.stderr
    assert "2 conflict" in ran.stderr, ran.stderr
    verified = pitwatch("verify", "--db", url, columns=300)
    assert verified.code == 0, verified.stderr


def test_a_new_database_is_not_refused(days: tuple[Path, Path], tmp_path: Path) -> None:
    """A day's file into a database that never held its tables is not this slip: it is
    judged as before (new tables), not refused."""
    ran = pitwatch("adjudicate", str(days[1]), "--ledger", f"sqlite:///{tmp_path}/n.sqlite")
    assert ran.code == 1
    assert "NO_CONFIGURATION" in ran.stderr


def test_a_log_read_beforehand_finds_first_records_the_intake_takes(tmp_path: Path) -> None:
    """``read_head``: a table's first record is the first line the intake takes (a
    malformed line naming it is passed over), read through gzip; a pipe is not read."""
    lines = list(simulated_clean_log())
    bad = b'{"table_id":"T002","seq":999,"broken":'
    path = tmp_path / "log.jsonl.gz"
    path.write_bytes(gzip.compress(b"\n".join([bad, *lines]) + b"\n"))
    head = read_head(path, ["T002", "T404"])
    assert head is not None
    assert head.first_seq == {"T002": 1}
    assert head.games == {("house-v1", "hcf"): {"T001", "T002"}}


def test_a_table_met_after_a_booked_batch_stops_the_run_before_its_hands(
        days: tuple[Path, Path], tmp_path: Path) -> None:
    """Read as it comes (no look beforehand), a log whose first table is new and whose
    second goes on from the archive with no state kept: the new table's hands booked in
    batches before are kept (judged as they should be), the run stops at the second
    table's first record, and the line says how many were booked; none of its hands.
    (The reference engine hands out each record's results as it goes; the native core a
    buffer's, 4 MB, so on this short log it meets the second table before any batch.)"""
    day1, day2 = days
    url = f"sqlite:///{tmp_path}/ledger.sqlite"
    pitwatch("adjudicate", str(day1), "--ledger", url)

    def renamed(event: dict[str, Any]) -> None:
        event["table_id"] = "T009"
        if event["hand_id"] is not None:
            event["hand_id"] = "T009-" + str(event["hand_id"])

    new_table = [orjson.dumps(e) for e in rechain(
        [orjson.loads(line) for line in simulated_clean_log()
         if orjson.loads(line)["table_id"] == "T001"], renamed)]
    later = [line for line in gzip.decompress(day2.read_bytes()).splitlines()
             if b'"T002"' in line]
    log = tmp_path / "mixed.jsonl"
    log.write_bytes(b"\n".join([*new_table, *later]) + b"\n")
    db = open_ledger(url)
    before = {t: n for t, n in rows(db, "SELECT table_id, COUNT(*) FROM hands GROUP BY 1")}
    keeper = RunKeeper(db, archive=True, hands=7)
    with pytest.raises(Refused) as refused, (tmp_path / "out.jsonl").open("wb") as out:
        run_file(log, PROFILES, out, "python", keeper, leave_open=True)  # no ``head``
    after = {t: n for t, n in rows(db, "SELECT table_id, COUNT(*) FROM hands GROUP BY 1")}
    db.dispose()
    assert after["T002"] == before["T002"]  # none of its hands
    assert after["T009"] > 0
    assert ("T002 (this log starts at its seq" in str(refused.value)
            and f"were not booked (only the {after['T009']:,} hand(s) of other tables"
            in str(refused.value)), str(refused.value)
