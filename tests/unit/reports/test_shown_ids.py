"""Ids from a table system's events are shown in a report as what they hold.

QA: the dispute and daily reports wrote a table id holding U+202E (RIGHT-TO-LEFT
OVERRIDE) and U+2067 (RIGHT-TO-LEFT ISOLATE) as is, so the text after it read reversed
(the console frames these reports, and their PDFs are rendered from the same HTML), while
the console's own pages and the command line showed the escapes (``\\u202e``).
"""

from __future__ import annotations

import re
from pathlib import Path

import orjson

from tests.unit.archive.support import simulated_log
from tests.unit.reports.test_report_file_names import _as_table, reports_of_day

# The event contract refuses a control character in a string (Cc: an escape, a line
# break), not the bidirectional controls (Cf); a control character that reaches the
# ledger by another way is shown escaped too (tests/unit/console/test_shown_ids.py).
TABLE = "T\u202e\u20671"  # its hands: "T\u202e\u20671-000001", ...
SHOWN = "T\\u202e\\u20671"  # as ``printable`` writes it (the CLI, the console's pages)
CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_the_daily_and_dispute_reports_show_control_characters_as_escapes(
        tmp_path: Path) -> None:
    events = _as_table([orjson.loads(line) for line in simulated_log(tables=1).lines], TABLE)
    out, _ = reports_of_day(events, tmp_path)
    daily = (out / "daily.html").read_text()
    disputes = sorted(out.glob("hand-*.html"))
    assert disputes
    for page in [out / "daily.html", *disputes]:
        text = page.read_text()
        assert CONTROLS.search(text) is None, (page.name, CONTROLS.findall(text)[:3])
    assert re.search(rf'<a href="hand-[^"]+">{re.escape(SHOWN)}-\d{{6}}</a>', daily)
    first = disputes[0].read_text()
    assert re.search(rf"<title>Dispute report: hand {re.escape(SHOWN)}-\d{{6}}</title>",
                     first), first[:400]
    assert f"Table {SHOWN} · " in first
