"""One dispute-report file per hand: ``safe_name`` is one-to-one.

QA: each character of a hand id outside ``[A-Za-z0-9._-]`` became ``_``, so the hands of
tables ``A<1>`` and ``A_1_`` shared one file: ``report daily -o DIR/daily.html`` said
"wrote 82 dispute report(s)" and left 41, and the row of ``A<1>-000004`` linked to the
report of ``A_1_-000004``. An id of safe characters keeps its name; any other adds ``~``
and 16 hex digits of its SHA-256 (the digests below are ``printf %s ID | sha256sum``'s).
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import orjson
import pytest

from services.events.canonical import GENESIS_HASH, event_hash
from services.reports.cli import safe_name
from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import pitwatch
from tests.unit.reports.test_from_archive import STAMP


@pytest.mark.parametrize(("hand_id", "name"), [
    ("T001-000004", "hand-T001-000004.html"),  # today's names unchanged
    ("A_1_-000004", "hand-A_1_-000004.html"),
    ("A<1>-000004", "hand-A_1_-000004~f00324dea1748cf4.html"),
    ("A>1<-000004", "hand-A_1_-000004~5ad2e35b81e24ab7.html"),
    ("../etc/passwd", "hand-.._etc_passwd~7fef78f53440346c.html"),
    ("Tisch é-1", "hand-Tisch__-1~3b192e55916170eb.html"),
])
def test_a_hand_id_gives_its_own_file_name(hand_id: str, name: str) -> None:
    assert safe_name(hand_id) == name


def test_no_id_takes_the_name_with_a_digest_of_another() -> None:
    """``~`` is in no kept name: the id spelled as another's name with its digest is not
    kept as it is, so it cannot overwrite that hand's report."""
    other = safe_name("A<1>-000004")
    posing = other.removeprefix("hand-").removesuffix(".html")
    assert safe_name(posing) != other
    names = {safe_name(h) for h in ("A<1>", "A>1<", "A_1_", "A 1 ", "A~1~", "A_1_~", posing)}
    assert len(names) == 7


def _as_table(events: list[dict[str, Any]], table: str) -> list[dict[str, Any]]:
    """Table T001's events as table ``table`` sent them (its own ids and hash chain)."""
    def renamed(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: renamed(v) for k, v in value.items()}
        if isinstance(value, list):
            return [renamed(v) for v in value]
        if isinstance(value, str) and (value == "T001" or value.startswith("T001-")):
            return table + value[4:]
        return value

    out, last = [], GENESIS_HASH
    for event in events:
        moved = renamed(event)
        moved["event_id"] = str(uuid.uuid5(uuid.NAMESPACE_URL, table + event["event_id"]))
        moved["prev_hash"] = last
        last = event_hash(moved)
        out.append(moved)
    return out


def reports_of_day(events: list[dict[str, Any]], folder: Path) -> tuple[Path, str]:
    """The folder ``report daily -o`` wrote the day's reports to (daily.html and a
    hand-*.html per hand to review), ``events`` adjudicated into a ledger first, and what
    the command said on stderr."""
    log = folder / "day.jsonl"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in events))
    url = f"sqlite:///{folder}/day.sqlite"
    pitwatch("adjudicate", str(log), "--ledger", url)  # exit 1: the injected faults
    out = folder / "out"
    out.mkdir()
    ran = pitwatch("report", "daily", "--date", "2026-01-05", "--ledger", url, "--events",
                   str(log), "-o", str(out / "daily.html"), "--generated-at", STAMP)
    assert ran.code == 0, ran.stderr
    return out, ran.stderr


def test_two_tables_whose_ids_read_alike_get_a_report_each(tmp_path: Path) -> None:
    t001 = [orjson.loads(line) for line in simulated_log(tables=1).lines]
    events = sorted(_as_table(t001, "A<1>") + _as_table(t001, "A_1_"),
                    key=lambda e: (e["ts"], e["table_id"]))
    out, said = reports_of_day(events, tmp_path)
    page = (out / "daily.html").read_text()
    links = re.findall(r'<tr><td class="id"><a href="([^"]+)">([^<]+)</a>', page)
    angled = [(href, shown) for href, shown in links if shown.startswith("A&lt;1&gt;-")]
    assert angled and len(links) == 2 * len(angled)  # the same hands at both tables
    written = re.search(r"wrote (\d+) dispute report\(s\)", said)
    assert written is not None and int(written.group(1)) == len(links)
    assert len(list(out.glob("hand-*.html"))) == len(links)
    for href, shown in links:
        hand = shown.replace("&lt;", "<").replace("&gt;", ">")
        assert href == safe_name(hand)
        title = f"<title>Dispute report: hand {shown}</title>"
        assert title in (out / href).read_text(), href
    first = angled[0][0]
    assert re.fullmatch(r"hand-A_1_-\d{6}~[0-9a-f]{16}\.html", first), first
