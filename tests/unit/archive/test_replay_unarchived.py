"""Booked hands of tables the archive never held (booked with ``--no-archive``, or by
``pitwatch ledger post``) have no events to replay: ``pitwatch replay`` listed each as
differing ("the archive's events never close this hand", exit 1: QA). A span of only such
hands is a usage error naming them; beside archived tables, they are left out with a
note, and the archived hands are compared as before."""

from __future__ import annotations

from pathlib import Path

import orjson

from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

DAY = ["--from", "2026-01-05", "--to", "2026-01-05"]


def _day(tmp_path: Path) -> Path:
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log(tables=2, hands=20, faults=False).lines) + b"\n")
    return log


def test_a_span_of_hands_never_archived_is_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/booked.sqlite"
    assert pitwatch("adjudicate", str(_day(tmp_path)), "--no-archive", "--ledger",
                    url).code == 0
    ran = pitwatch("replay", "--db", url, *DAY)
    assert_one_line_usage_error(
        ran, "40 booked hand(s) of the span are at tables the archive never held (T001, "
             "T002): booked without their events (--no-archive, or pitwatch ledger post), "
             "they cannot be replayed")


def test_beside_archived_tables_they_are_left_out_with_a_note(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/mixed.sqlite"
    log = _day(tmp_path)
    assert pitwatch("adjudicate", str(log), "--ledger", url).code == 0
    records = [orjson.loads(line) for line in pitwatch("adjudicate", str(log)).stdout
               .splitlines()][:3]
    posted = tmp_path / "posted.jsonl"
    posted.write_bytes(b"".join(orjson.dumps(
        {**r, "table_id": "T9", "hand_id": f"T9-{n}", "last_hash": f"{n:064x}"}) + b"\n"
        for n, r in enumerate(records)))
    assert pitwatch("ledger", "post", str(posted), "--db", url).code == 0
    ran = pitwatch("replay", "--db", url, *DAY)
    assert ran.code == 0, ran.stderr
    said = ran.stderr.splitlines()
    assert ("note: 3 booked hand(s) of the span are at tables the archive never held (T9): "
            "booked without their events") in said[0], said
    assert "replayed 40 hand(s) of 2 table(s)" in said[-1] and said[-1].endswith("0 differ")
