"""A report from a log holding another hand of the booked hand's id.

QA: ``report hand T001-000008 --events s1.jsonl --ledger URL``, s1.jsonl an unrelated log
with the same table and hand ids, exited 0 with the booking's findings beside the other
log's cards and timeline, said "the log or the booking changed after the hand was
booked" and "VERIFIED" beside "last_hash DIFFERS"; a hand whose seq range lay outside the
booked one was refused as held "only in part ... the hand runs across logs", which
s1.jsonl does not do. ``report daily --events s1.jsonl`` wrote such copies without a
warning. Now the log's hand is compared with the booked record's identity (seq range and
last_hash): ``report hand`` refuses in one line naming both hashes (exit 2), ``report
daily`` reads such hands from the archive with a warning each (exit 1).

The expected seqs and hashes are taken from the raw events here, with the event contract's
own hash function, not from the report code."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from services.events.canonical import event_hash
from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import assert_one_line_usage_error, pitwatch

TAMPER = "the log or the booking changed after the hand was booked"


@lru_cache(maxsize=4)
def _log(seed: int, faults: bool) -> tuple[bytes, ...]:
    return simulated_log(tables=1, hands=40, seed=seed, faults=faults).lines


def _span(lines: tuple[bytes, ...], hand_id: str) -> tuple[int, int, str]:
    """The hand's first and last seq in the log and the hash of its last event."""
    events: list[dict[str, Any]] = [orjson.loads(line) for line in lines]
    mine = [e for e in events if e["hand_id"] == hand_id]
    return int(mine[0]["seq"]), int(mine[-1]["seq"]), event_hash(mine[-1])


def _booked(tmp_path: Path) -> tuple[str, Path, Path]:
    """The faulty day (seed 7) booked into a ledger with its archive; an unrelated clean
    log (seed 3) of the same table and hand ids."""
    booked, other = tmp_path / "day.jsonl", tmp_path / "s1.jsonl"
    booked.write_bytes(b"\n".join(_log(7, True)) + b"\n")
    other.write_bytes(b"\n".join(_log(3, False)) + b"\n")
    url = f"sqlite:///{tmp_path}/a.sqlite"
    assert pitwatch("adjudicate", str(booked), "--ledger", url).code in (0, 1)
    return url, booked, other


def _hands(lines: tuple[bytes, ...]) -> list[str]:
    return list(dict.fromkeys(str(orjson.loads(line)["hand_id"]) for line in lines
                              if orjson.loads(line)["hand_id"]))


def test_report_hand_refuses_a_log_holding_another_hand_naming_both_hashes(
        tmp_path: Path) -> None:
    url, booked, other = _booked(tmp_path)
    common = [h for h in _hands(_log(3, False)) if h in set(_hands(_log(7, True)))]
    spans = {h: (_span(_log(7, True), h), _span(_log(3, False), h)) for h in common}
    # One hand whose seq ranges overlap, one whose ranges do not (once refused as held
    # "only in part").
    overlapping = next(h for h, (b, o) in spans.items() if o[0] <= b[1] and b[0] <= o[1])
    apart = next(h for h, (b, o) in spans.items() if o[1] < b[0] or b[1] < o[0])
    out = tmp_path / "x.html"
    for hand_id in (overlapping, apart):
        (first, last, booked_hash), (lo, hi, log_hash) = spans[hand_id]
        assert booked_hash != log_hash
        ran = pitwatch("report", "hand", hand_id, "--events", str(other), "--ledger", url,
                       "-o", str(out))
        assert_one_line_usage_error(
            ran, f"hand {hand_id}: the event log s1.jsonl holds a hand {hand_id} that is not "
                 f"the booked one: its events hash otherwise (seq {lo} to {hi}, the last "
                 f"hashing {log_hash}; booked: seq {first} to {last}, last_hash "
                 f"{booked_hash}): another log, or a log changed after the hand was booked",
            "give the log the hand was booked from, or leave out --events")
        assert "only in part" not in ran.stderr
        assert not out.exists()
    # The honest case is as it was: the log the hand was booked from gives the report.
    ran = pitwatch("report", "hand", apart, "--events", str(booked), "--ledger", url,
                   "-o", str(out))
    assert ran.code == 0, ran.stderr
    assert TAMPER not in out.read_text()
    assert "VERIFIED" in out.read_text()


def test_report_daily_reads_another_logs_hands_from_the_archive_with_a_warning(
        tmp_path: Path) -> None:
    url, _booked_log, other = _booked(tmp_path)
    folder = tmp_path / "out"
    folder.mkdir()
    ran = pitwatch("report", "daily", "--date", "2026-01-05", "--table", "T001", "--ledger",
                   url, "--events", str(other), "-o", str(folder / "daily.html"))
    assert ran.code == 1, ran.stderr
    copies = [p for p in folder.iterdir() if p.name != "daily.html"]
    assert copies
    warned = [line for line in ran.stderr.splitlines() if line.startswith("warning: ")]
    # Every hand to review has a same-id hand in s1.jsonl (it holds as many hands), so
    # each copy is the archive's, and each says why.
    assert len(warned) == len(copies), ran.stderr
    assert all("that is not the booked one: its events hash otherwise" in line
               and "its report is from the event archive" in line for line in warned), warned
    for copy in copies:
        text = copy.read_text()
        assert TAMPER not in text
        assert "the event archive" in text and "s1.jsonl" not in text
