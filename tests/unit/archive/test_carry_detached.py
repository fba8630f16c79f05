"""``pitwatch verify`` derives the kept table states of a table whose first days are
detached (QA: once a day was detached, verify derived no kept state and a forged one,
hash and all, passed clean, exit 0; only ``replay`` found the 19 hands judged under it).

Three days run one by one with ``--leave-open`` (each day's kept state the next run goes
on from), the first detached past retention. The state kept after day one is the first
past the detached day: taken as kept. The state kept after day two is derived from it,
as day two's run made it: imported, then fed day two's archived events; the state kept
after day three from that one (day three ends between hands: nothing waits). A forged
day-two state differs, and so does the day-three state its run went on from it.
PostgreSQL only: SQLite's archive has no partitions to detach."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest
from sqlalchemy import Engine, text

from services.adjudicator.table import decode_state, encode_state
from services.archive.partitions import detach_days
from services.archive.verify import VerifyReport, verify_archive
from tests.profiles import PROFILES
from tests.unit.archive.support import simulated_log
from tests.unit.archive.test_carry import run_day
from tests.unit.archive.test_verify_start import events_of, rechained

DAYS = (dt.date(2026, 1, 5), dt.date(2026, 1, 6), dt.date(2026, 1, 7))


def three_day_log() -> list[bytes]:
    """The clean simulated day with each table's hands 15 to 28 moved a day later and
    its hands from the 29th on two days later (the same clock time)."""
    events = events_of(simulated_log(faults=False).lines)
    started: dict[str, int] = {}
    shift: dict[int, int] = {}
    for position, event in enumerate(events):
        table = event["table_id"]
        if event["type"] == "hand_started":
            started[table] = started.get(table, 0) + 1
        hands = started.get(table, 0)
        shift[position] = 2 if hands >= 29 else 1 if hands >= 15 else 0

    def later(position: int, event: dict[str, Any]) -> None:
        day = DAYS[shift[position]].isoformat()
        event["ts"] = day + event["ts"][len(day):]

    return rechained(events, later)


def _day_files(folder: Path) -> list[Path]:
    by_day: dict[str, list[bytes]] = {d.isoformat(): [] for d in DAYS}
    for line in three_day_log():
        by_day[orjson.loads(line)["ts"][:10]].append(line)
    paths = []
    for n, day in enumerate(DAYS, start=1):
        path = folder / f"day{n}.jsonl"
        path.write_bytes(b"".join(line + b"\n" for line in by_day[day.isoformat()]))
        paths.append(path)
    return paths


def _forge_newest_state(db: Engine, table_id: str) -> None:
    """The table's newest kept state with its rake fee doubled and its SHA-256 rewritten,
    by someone who can switch the guards off (as ``test_carry``'s forgery)."""
    with db.begin() as conn:
        row = conn.execute(text("SELECT last_seq, state FROM table_carries WHERE table_id = "
                                ":t ORDER BY last_seq DESC LIMIT 1"), {"t": table_id}).one()
        state = decode_state(bytes(row.state))
        assert state.config is not None
        rake = msgspec.structs.replace(state.config.rake, fee=state.config.rake.fee * 2 + 1)
        forged = encode_state(msgspec.structs.replace(
            state, config=msgspec.structs.replace(state.config, rake=rake)))
        conn.execute(text("ALTER TABLE table_carries DISABLE TRIGGER USER"))
        conn.execute(text("UPDATE table_carries SET state = :s, state_sha256 = :h "
                          "WHERE table_id = :t AND last_seq = :q"),
                     {"s": forged, "h": hashlib.sha256(forged).hexdigest(), "t": table_id,
                      "q": row.last_seq})
        conn.execute(text("ALTER TABLE table_carries ENABLE TRIGGER USER"))


def _run_three_days(db: Engine, folder: Path, forge: str | None) -> VerifyReport:
    days = _day_files(folder)
    run_day(days[0], db, "python", leave_open=True)
    run_day(days[1], db, "python", leave_open=True)
    if forge is not None:
        _forge_newest_state(db, forge)
    run_day(days[2], db, "python", leave_open=True)
    assert detach_days(db, [DAYS[0]], "2033-01-08T09:00:00Z")
    return verify_archive(db, profiles=PROFILES)


@pytest.mark.integration
def test_after_a_detach_the_states_past_it_are_derived(pg_engine: Engine,
                                                       tmp_path: Path) -> None:
    report = _run_three_days(pg_engine, tmp_path, forge=None)
    assert report.breaks == []
    assert report.kept_states == 6  # days two and three, each of the three tables
    taken = [n for n in report.notes if "the first past its detached days, is taken as kept"
             in n]
    assert len(taken) == 3, report.notes


@pytest.mark.integration
def test_a_forged_state_past_a_detach_is_a_carry_break(pg_engine: Engine,
                                                        tmp_path: Path) -> None:
    report = _run_three_days(pg_engine, tmp_path, forge="T001")
    assert [(b.table_id, b.kind) for b in report.breaks] == [("T001", "carry")] * 2
    assert all("differs from the state its archived events give" in b.message
               for b in report.breaks)
    assert report.kept_states == 4  # the other two tables' states of days two and three
