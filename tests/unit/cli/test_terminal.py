"""What the commands show on the terminal: progress counted in events and hands with a
rate and the time left (it counted bytes), and counts named so that two different
things never share a name (the demo said "alerts (SURV-*) 4" and then "surveillance: 6
alert(s)"), and why hands were refused (it said "3 refused")."""

from __future__ import annotations

import io
from pathlib import Path

import msgspec
from rich.console import Console

from services.adjudicator.steps import EncodedRecord
from services.events.contract import Alert, Finding
from services.ledger.cli import posting_summary
from services.ledger.posting import PostResult, PostStatus, PostTally
from services.terminal import (
    LogProgress,
    RecordTally,
    count_lines,
    progress_bar,
    summary_table,
    surveillance_table,
)
from tests.unit.ledger.builders import hcf_seat1_wins


def _terminal() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, force_terminal=True, width=160, color_system=None), buffer


def _text(console: Console, renderable: object) -> str:
    with console.capture() as captured:
        console.print(renderable)
    return " ".join(captured.get().split())


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_bar_counts_events_with_rate_and_time_left() -> None:
    """20 events done at 5 s, 20 more at 10 s: 4 events/s (Rich measures between
    samples); 60 of 100 left, so 15 s left (0:00:15)."""
    console, _ = _terminal()
    clock = Clock()
    progress = progress_bar(console, get_time=clock)
    task = progress.add_task("adjudicating log.jsonl", total=100, unit="events",
                             note="3 hands")
    clock.now = 5.0
    progress.update(task, advance=20)
    clock.now = 10.0
    progress.update(task, advance=20)
    shown = _text(console, progress.get_renderable())
    assert "adjudicating log.jsonl" in shown
    assert "40/100 events" in shown and "3 hands" in shown
    assert "4 events/s" in shown
    assert "time left 0:00:15" in shown
    assert "bytes" not in shown and "kB" not in shown


def test_bar_is_not_drawn_off_a_terminal() -> None:
    plain = Console(file=io.StringIO(), force_terminal=False)
    assert progress_bar(plain).disable


def test_log_progress_counts_the_lines_and_hand_ends_of_a_stream() -> None:
    """A log read as a stream (compressed, a pipe): its pieces pass through unchanged,
    four events counted, two of them hand_ended (with or without a space after ':')."""
    console, _ = _terminal()
    progress = progress_bar(console)
    task = progress.add_task("x", total=4, unit="events", note="")
    bar = LogProgress(progress, task)
    pieces = [b'{"type":"hand_started"}\n{"type": "hand_ended"}\n', b'{"type":"wager"}\n',
              b'{"type":"hand_ended"}\n']
    assert list(bar.chunks(iter(pieces))) == pieces
    assert progress.tasks[0].completed == 4
    assert progress.tasks[0].fields["note"] == "2 hands"


def test_log_progress_advances_by_a_counted_buffer_on_a_terminal() -> None:
    """The native core's reader counts a buffer's lines and hand ends; the bar adds them."""
    console, _ = _terminal()
    progress = progress_bar(console)
    task = progress.add_task("x", total=4, unit="events", note="")
    bar = LogProgress(progress, task)
    assert bar.visible
    bar.counted(3, 2)
    bar.counted(1, 0)
    assert progress.tasks[0].completed == 4
    assert progress.tasks[0].fields["note"] == "2 hands"


def test_log_progress_is_not_visible_off_a_terminal() -> None:
    """Off a terminal the bar is not drawn, so nobody asks the reader to count for it."""
    progress = progress_bar(Console(file=io.StringIO(), force_terminal=False))
    task = progress.add_task("x", total=None, unit="events", note="0 hands")
    assert not LogProgress(progress, task).visible


def test_a_tally_counts_records_and_encoded_records_alike() -> None:
    """Hands by status and findings by rule, code and severity, hand-counted."""
    clean = hcf_seat1_wins()
    flagged = msgspec.structs.replace(clean, hand_id="H2", status="discrepancy", findings=[
        Finding(code="MISPAY", rule="HCF-7", severity="critical", seat=1, amount=5, message="m"),
        Finding(code="MISPAY", rule="HCF-7", severity="critical", seat=2, amount=5, message="m"),
        Finding(code="WRONG_RAKE", rule="HCF-11", severity="warning", seat=None, amount=None, message="r")])
    from_structs = RecordTally.of([clean, flagged])
    from_encoded = RecordTally()
    from_encoded.add_encoded([EncodedRecord.of(clean), EncodedRecord.of(flagged)])
    for tally in (from_structs, from_encoded):
        assert tally.hands == 2
        assert tally.status == {"ok": 1, "discrepancy": 1}
        assert tally.findings == {("HCF-7", "MISPAY", "critical"): 2,
                                  ("HCF-11", "WRONG_RAKE", "warning"): 1}
        assert tally.any_findings and not tally.any_rejected


def test_count_lines(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    for text, lines in ((b"", 0), (b"a\n", 1), (b"a\nb\n", 2), (b"a\nb\nc", 3)):
        path.write_bytes(text)
        assert count_lines(path) == lines


def test_the_two_kinds_of_alert_have_different_names() -> None:
    console, _ = _terminal()
    summary = _text(console, summary_table([hcf_seat1_wins()], 4, 0))
    assert "table alerts (SURV-9 chain, GEN-4/GEN-5 between hands) │ 4" in summary
    assert "SURV-*" not in summary
    alert = Alert(table_id="T1", code="SWEETHEARTING", rule="SURV-2", severity="critical",
                  message="m", hand_id="T1-000001")
    title = _text(console, surveillance_table([alert] * 6, 3000))
    assert "cross-hand surveillance (SURV-2..8): 6 alert(s) over 3,000 hands" in title


def test_refused_hands_say_why() -> None:
    refusal = Finding(code="LEDGER_REFUSED", rule="GEN-8", severity="critical", seat=None,
                      amount=None, message="hand T2-7 not booked: layouts not empty at hand "
                                           "end: layout:T2:3 nets -1")
    results = [PostResult("T2-1", "posted", 5), PostResult("T2-7", "refused",
                                                           findings=(refusal,))]
    lines = posting_summary("sqlite:///l.sqlite", PostTally.of(results))
    assert lines[0] == "ledger sqlite:///l.sqlite: 1 posted, 1 refused"
    assert lines[1].startswith("  1 hand(s) not booked: ")
    assert "do not balance or a copy of a booked hand (GEN-8)" in lines[1]
    assert lines[2].strip() == ("hand T2-7 not booked: layouts not empty at hand end: "
                                "layout:T2:3 nets -1 (GEN-8 LEDGER_REFUSED)")


def test_hands_not_booked_are_the_refused_and_the_conflicting() -> None:
    """``adjudicate --ledger`` exits 1 and the summary counts on this one number."""
    statuses: list[PostStatus] = ["posted", "refused", "conflict", "conflict", "duplicate",
                                  "posted"]
    tally = PostTally.of(PostResult(f"T1-{i}", s, 1) for i, s in enumerate(statuses))
    assert tally.not_booked == 3
    assert PostTally.of([PostResult("T1-1", "posted", 1)]).not_booked == 0
