"""Reports read the archive: ``report hand ID --ledger URL`` and ``report daily`` find a
hand's events in the database; the report is the one ``--events FILE`` gives, word for
word, but for the name of the source."""

from __future__ import annotations

from pathlib import Path

import orjson

from services.reports.cli import ARCHIVE_NAME
from tests.unit.archive.support import simulated_log
from tests.unit.cli.helpers import pitwatch

STAMP = "2026-01-20T09:00:00Z"


def archived_day(tmp_path: Path) -> tuple[str, Path]:
    url = f"sqlite:///{tmp_path}/day.sqlite"
    log = tmp_path / "day.jsonl"
    log.write_bytes(b"\n".join(simulated_log().lines) + b"\n")
    assert pitwatch("adjudicate", str(log), "--ledger", url).code == 0
    return url, log


def sixth_hand(log: Path) -> str:
    records = [orjson.loads(line) for line in log.read_bytes().splitlines()]
    ended = [r for r in records if r["type"] == "hand_ended"]
    return str(ended[5]["hand_id"])


def test_a_hand_report_from_the_archive_is_the_one_from_the_log(tmp_path: Path) -> None:
    url, log = archived_day(tmp_path)
    hand_id = sixth_hand(log)
    from_log = pitwatch("report", "hand", hand_id, "--ledger", url, "--events", str(log),
                        "--generated-at", STAMP)
    from_archive = pitwatch("report", "hand", hand_id, "--ledger", url,
                            "--generated-at", STAMP)
    assert from_log.code == from_archive.code == 0, from_archive.stderr
    assert "The event log was not supplied" not in from_archive.stdout
    assert ARCHIVE_NAME in from_archive.stdout
    assert from_archive.stdout == from_log.stdout.replace(log.name, ARCHIVE_NAME)


def test_the_daily_report_writes_every_review_hand_from_the_archive(tmp_path: Path) -> None:
    url, log = archived_day(tmp_path)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    common = ["report", "daily", "--date", "2026-01-05", "--ledger", url, "--generated-at",
              STAMP]
    assert pitwatch(*common, "--events", str(log), "-o", str(tmp_path / "a/daily.html")
                    ).code == 0
    assert pitwatch(*common, "-o", str(tmp_path / "b/daily.html")).code == 0
    written = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(written) > 2  # the daily report and at least two hand reports
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == written
    for name in written:
        if name == "daily.html":
            continue
        a = (tmp_path / "a" / name).read_text()
        b = (tmp_path / "b" / name).read_text()
        assert b == a.replace(log.name, ARCHIVE_NAME), name


def test_no_hand_reports_beside_an_output_that_is_not_a_file(tmp_path: Path) -> None:
    """The hand reports go next to the daily report's ``-o``. ``-o /dev/null`` wrote them
    into ``/dev``; an output that is not a plain file (a device, here through a link in
    the test's folder) now gets the daily report alone, and stderr says why."""
    url, _log = archived_day(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "daily.html").symlink_to("/dev/null")
    ran = pitwatch("report", "daily", "--date", "2026-01-05", "--ledger", url,
                   "--generated-at", STAMP, "-o", str(out / "daily.html"))
    assert ran.code == 0, ran.stderr
    assert [p.name for p in out.iterdir()] == ["daily.html"]
    said = " ".join(ran.stderr.split())
    assert f"{out / 'daily.html'} is not a file: the " in said, said
    assert "hand reports the daily report links to are not written" in said, said
