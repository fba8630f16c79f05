"""A report from one day's file of a table run a file a day (``--leave-open``).

QA: replayed from one of the two files, a hand running across them, and any hand of the
second file (its table's configuration and seats are in the first), made a record other
than the booked one, and the report said "the log or the booking changed after the hand
was booked" (exit 0, wrong cards shown): an honest file accused of tampering. Now
``report hand`` names what the file lacks (one line, exit 2) and ``report daily`` reads
such hands from the archive; a file holding the table from its first event re-derives the
hand, as before. (A file cut inside a hand, as here, still warns of each hand it holds in
part, exit 1; a later day's file that holds its hands whole but starts the tables part way
through their chains is read from the archive without a warning: test_daily_later_day.)"""

from __future__ import annotations

from pathlib import Path

import orjson

from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

TAMPER = "the log or the booking changed after the hand was booked"


def _two_files(tmp_path: Path, faults: bool = False
               ) -> tuple[str, Path, Path, list[dict[str, object]], str]:
    """The day (clean, or with its faults: hands to review) cut in two inside a hand of
    table T001, each file run with ``--leave-open`` into one ledger: its URL, the files,
    the events, the cut hand."""
    lines = list(simulated_log(tables=2, hands=30 if not faults else 120,
                               faults=faults).lines)
    events = [orjson.loads(line) for line in lines]
    starts = [i for i, e in enumerate(events)
              if e["type"] == "hand_started" and e["table_id"] == "T001"]
    started = starts[len(starts) // 2]
    cut = started + 5  # inside the hand: five of its events in the first file
    assert all(e["hand_id"] == events[started]["hand_id"]
               for e in events[started:cut + 1] if e["table_id"] == "T001")
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    one.write_bytes(b"\n".join(lines[:cut]) + b"\n")
    two.write_bytes(b"\n".join(lines[cut:]) + b"\n")
    url = f"sqlite:///{tmp_path}/days.sqlite"
    for part in (one, two):
        assert pitwatch("adjudicate", str(part), "--leave-open", "--ledger",
                        url).code in ((0,) if not faults else (0, 1))
    return url, one, two, events, str(events[started]["hand_id"])


def _read(path: Path) -> list[dict[str, object]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def _seqs(events: list[dict[str, object]], hand_id: str) -> list[int]:
    return [int(str(e["seq"])) for e in events if e["hand_id"] == hand_id]


def test_report_hand_names_what_the_file_lacks(tmp_path: Path) -> None:
    url, one, two, events, cut = _two_files(tmp_path)
    seqs = _seqs(events, cut)
    first, last = seqs[0], seqs[-1]
    in_one = sorted({int(str(e["seq"])) for e in _read(one) if e["hand_id"] == cut})
    out = tmp_path / "r.html"
    ran = pitwatch("report", "hand", cut, "--ledger", url, "--events", str(one), "-o", str(out))
    assert_one_line_usage_error(
        ran, f"hand {cut}: the event log one.jsonl holds this hand only in part (seq "
             f"{first} to {in_one[-1]} of its seq {first} to {last}: the hand runs across "
             "logs); give a log holding the table from its first event on")
    ran = pitwatch("report", "hand", cut, "--ledger", url, "--events", str(two), "-o", str(out))
    assert_one_line_usage_error(ran, f"holds this hand only in part (seq {in_one[-1] + 1} to "
                                     f"{last} of its seq {first} to {last}")
    later = next(str(e["hand_id"]) for e in events[::-1]
                 if e["table_id"] == "T001" and e["hand_id"])
    starts = min(int(str(e["seq"])) for e in _read(two) if e["table_id"] == "T001")
    ran = pitwatch("report", "hand", later, "--ledger", url, "--events", str(two), "-o", str(out))
    assert_one_line_usage_error(
        ran, f"the event log two.jsonl starts table T001 at seq {starts}, after its first "
             "event: the hand is not re-derived from it alone")
    both = tmp_path / "both.jsonl"
    both.write_bytes(one.read_bytes() + two.read_bytes())
    for hand_id in (cut, later):
        ran = pitwatch("report", "hand", hand_id, "--ledger", url, "--events", str(both),
                       "-o", str(out))
        assert ran.code == 0, ran.stderr
        assert TAMPER not in out.read_text()
        assert "both.jsonl" in out.read_text()


def test_report_daily_reads_such_hands_from_the_archive(tmp_path: Path) -> None:
    url, _one, two, _events, _cut = _two_files(tmp_path, faults=True)
    folder = tmp_path / "out"
    folder.mkdir()
    ran = pitwatch("report", "daily", "--date", "2026-01-05", "--ledger", url, "--events",
                   str(two), "-o", str(folder / "daily.html"))
    assert ran.code == 1, ran.stderr
    copies = [p for p in folder.iterdir() if p.name != "daily.html"]
    assert copies
    assert not [p.name for p in copies if TAMPER in p.read_text()]
    warned = [line for line in ran.stderr.splitlines() if line.startswith("warning: ")]
    assert warned and all("is not (whole) in two.jsonl: its report is from the event "
                          "archive" in line for line in warned), warned
