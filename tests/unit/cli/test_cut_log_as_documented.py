"""A gzip log cut in half does what the compliance guide says it does (QA).

The guide said such a file "is refused in one line naming the file (exit 2)", while
``adjudicate`` writes and books the hands read whole before the damage, then stops with
that line (README; ``services.cli._book_what_was_read``). Booking them is the right
behaviour for compliance: those hands are whole and real (nothing made up), the hand the
cut went through is not booked or closed as incomplete, and the whole file run again
books the rest once (nothing lost, nothing twice). So the guide now says what happens,
and these tests hold each of its claims against a real truncated gzip file.
"""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.unit.cli.helpers import pitwatch
from tests.unit.cli.test_compressed_logs import log_bytes

GUIDE = Path(__file__).resolve().parents[3] / "docs" / "compliance-guide.md"


def _guide() -> str:
    return " ".join(GUIDE.read_text(encoding="utf-8").split())


def test_the_guide_says_what_a_cut_log_does() -> None:
    guide = _guide()
    assert "is refused in one line naming the file (exit 2), never read as a shorter day" \
        not in guide
    for claim in (
            "One that is cut short or damaged is never read as a shorter day: `adjudicate` "
            "stops at the damage with one line naming the file (exit 2), after writing, and "
            "with `--ledger` booking, the hands read whole before it",
            "a hand still open there is neither booked nor closed as incomplete, and no "
            "table's state is kept for the next day's file",
            "run the whole copy of the file with the same ledger and it books the rest, each "
            "hand once",
            "`surveil` and the reports refuse such a file (exit 2, nothing written or "
            "stored)"):
        assert claim in guide, claim


def _rows(url: str, query: str) -> list[tuple[object, ...]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(sa.text(query))]
    finally:
        engine.dispose()


LEDGER = {  # what must be the same after the cut file then the whole one as after the whole
    "hands": "SELECT hand_id, status, ledger_status, record_sha256 FROM hands ORDER BY 1",
    "postings": "SELECT hand_id, seq, event_id, leg, account, amount FROM postings "
                "ORDER BY 1, 2, 3, 4",
    "segments": "SELECT table_id, head_seq, ordinal FROM archive_segments ORDER BY 1, 2, 3",
    "cases": "SELECT count(*) FROM cases",
    "carried": "SELECT table_id FROM table_carries ORDER BY 1",
}


def test_a_gzip_log_cut_in_half_is_what_the_guide_says(tmp_path: Path) -> None:
    """Two HCF tables, 30 hands each (60 hands), gzip, cut at half its bytes."""
    whole = gzip.compress(log_bytes())
    cut = whole[:len(whole) // 2]
    readable = zlib.decompressobj(wbits=31).decompress(cut)  # what gzip itself gives back
    read_whole = readable[:readable.rfind(b"\n") + 1].count(b'"hand_ended"')
    assert 0 < read_whole < 60
    (tmp_path / "day.jsonl.gz").write_bytes(cut)
    (tmp_path / "whole.jsonl.gz").write_bytes(whole)
    cut_url = f"sqlite:///{tmp_path / 'cut-then-whole.sqlite'}"

    ran = pitwatch("adjudicate", str(tmp_path / "day.jsonl.gz"), "--leave-open",
                   "--ledger", cut_url, columns=200)
    # Stops at the damage, one line naming the file, exit 2 ...
    assert ran.code == 2
    errors = [line for line in ran.error_lines if line.startswith("error")]
    assert errors == [f"error: gzip data ends at byte {len(cut):,} before its end marker "
                      "(the file is cut short?); the lines before it were read: take the "
                      f"rest from a whole copy of the log: {tmp_path / 'day.jsonl.gz'}"]
    # ... after writing and booking the hands read whole, and no other: none closed as
    # incomplete (rejected), no table's state kept.
    assert ran.stdout.count("\n") == read_whole
    booked = _rows(cut_url, "SELECT status, ledger_status, count(*) FROM hands "
                            "GROUP BY 1, 2 ORDER BY 1, 2")
    assert sum(int(str(n)) for _, _, n in booked) == read_whole
    assert {(status, ledger) for status, ledger, _ in booked} <= {
        ("ok", "posted"), ("discrepancy", "posted")}
    assert _rows(cut_url, LEDGER["carried"]) == []

    # surveil and the reports refuse it: exit 2, nothing written or stored.
    surveilled = pitwatch("surveil", str(tmp_path / "day.jsonl.gz"), "--out",
                          str(tmp_path / "alerts.jsonl"), "--db",
                          f"sqlite:///{tmp_path / 'surveil.sqlite'}")
    assert surveilled.code == 2 and not (tmp_path / "alerts.jsonl").exists()
    assert _rows(f"sqlite:///{tmp_path / 'surveil.sqlite'}",
                 "SELECT count(*) FROM surveillance_state") == [(0,)]
    first_hand = str(_rows(cut_url, LEDGER["hands"])[0][0])
    reported = pitwatch("report", "hand", first_hand, "--events",
                        str(tmp_path / "day.jsonl.gz"), "-o", str(tmp_path / "hand.html"))
    assert reported.code == 2 and not (tmp_path / "hand.html").exists()

    # The whole copy with the same ledger books the rest, each hand once: the ledger is
    # then the ledger of one run of the whole file.
    again = pitwatch("adjudicate", str(tmp_path / "whole.jsonl.gz"), "--leave-open",
                     "--ledger", cut_url, columns=200)
    assert again.code == 0, again.stderr
    assert f"{read_whole} duplicate, {60 - read_whole} posted" in again.stderr
    whole_url = f"sqlite:///{tmp_path / 'whole.sqlite'}"
    once = pitwatch("adjudicate", str(tmp_path / "whole.jsonl.gz"), "--leave-open",
                    "--ledger", whole_url, columns=200)
    assert once.code == 0, once.stderr
    assert len(_rows(whole_url, LEDGER["hands"])) == 60
    for name, query in LEDGER.items():
        assert _rows(cut_url, query) == _rows(whole_url, query), name


@pytest.mark.parametrize("engine", ["native", "python"])
def test_a_plain_log_cut_mid_line_is_a_cut_log_too(tmp_path: Path, engine: str) -> None:
    """QA: a plain JSONL log cut in the middle of a line (a copy stopped part way, or a
    file still being written) read its last piece as a malformed record, then closed the
    hands open there as incomplete and booked them; the whole log run again was refused
    as conflicting with them: chips and rake lost from the ledger for good. Now it stops
    as a cut gzip file does: exit 2, one line naming the file and the byte it ends at,
    the hands read whole booked and no other, and the whole log run again gives the
    ledger of one run of it. Both engines (the native core reads a plain file itself)."""
    whole = log_bytes()
    middle = len(whole) // 2
    cut = whole[:whole.index(b'"type":', middle)]  # inside a record, far from its end
    assert not cut.endswith(b"\n")
    read_whole = cut[:cut.rfind(b"\n") + 1].count(b'"hand_ended"')
    assert 0 < read_whole < 60
    (tmp_path / "day.jsonl").write_bytes(cut)
    (tmp_path / "whole.jsonl").write_bytes(whole)
    cut_url = f"sqlite:///{tmp_path / 'cut-then-whole.sqlite'}"
    ran = pitwatch("adjudicate", str(tmp_path / "day.jsonl"), "--leave-open", "--engine",
                   engine, "--ledger", cut_url, columns=200)
    assert ran.code == 2
    errors = [line for line in ran.error_lines if line.startswith("error")]
    assert errors == [f"error: the log ends at byte {len(cut)} in the middle of a line (its "
                      "last line has no newline and is no whole JSON record): it was cut "
                      "short, or is still being written; the lines before it were read and "
                      "the hands it leaves open stay open: run again on the whole log once "
                      f"it is complete: {tmp_path / 'day.jsonl'}"]
    assert "rejected line" not in ran.stderr  # the cut piece is no record refused
    assert ran.stdout.count("\n") == read_whole
    booked = _rows(cut_url, "SELECT count(*) FROM hands")
    assert booked == [(read_whole,)]
    assert _rows(cut_url, "SELECT count(*) FROM hands WHERE status = 'rejected'") == [(0,)]
    again = pitwatch("adjudicate", str(tmp_path / "whole.jsonl"), "--leave-open", "--engine",
                     engine, "--ledger", cut_url, columns=200)
    assert again.code == 0, again.stderr
    assert f"{read_whole} duplicate, {60 - read_whole} posted" in again.stderr
    whole_url = f"sqlite:///{tmp_path / 'whole.sqlite'}"
    once = pitwatch("adjudicate", str(tmp_path / "whole.jsonl"), "--leave-open", "--engine",
                    engine, "--ledger", whole_url, columns=200)
    assert once.code == 0, once.stderr
    for name, query in LEDGER.items():
        assert _rows(cut_url, query) == _rows(whole_url, query), name


@pytest.mark.parametrize("engine", ["native", "python"])
def test_a_last_line_without_a_newline_that_is_whole_is_read(tmp_path: Path,
                                                             engine: str) -> None:
    """An editor or ``printf`` often leaves the last line without its newline: a whole
    record there is read as any other (the log is not cut)."""
    whole = log_bytes()
    (tmp_path / "day.jsonl").write_bytes(whole.rstrip(b"\n"))
    ran = pitwatch("adjudicate", str(tmp_path / "day.jsonl"), "--engine", engine)
    assert ran.code == 0, ran.stderr
    assert ran.stdout.count("\n") == 60
