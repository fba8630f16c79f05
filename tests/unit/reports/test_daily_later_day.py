"""``report daily --events DAY-FILE`` of a later day of tables run a file a day.

QA: a log split by day (a gzipped file a day), each day run with ``adjudicate --leave-open
--ledger URL``; the second day's ``report daily --events`` warned of every hand to review
"hand X is not (whole) in 2026-01-06.jsonl.gz" (exit 1), though the file held every event
of it. The true reason, which ``report hand`` gives, is that the file starts each table
part way through its hash chain (the first day's events are not in it), so no hand of it
is re-derived from it alone. Now, when the database's archive holds the tables, those
hands are read from it with no warning and exit 0, one line saying why; when it does not
(a database kept with ``--no-archive``), or lost the hand, each hand's warning says what
the file lacks and what to give (exit 1).
"""

from __future__ import annotations

import gzip
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest
from sqlalchemy import text

from services.ledger.db import open_ledger
from services.reports.cli import safe_name
from services.simulator.run import available_faults, simulate
from tests.profiles import HOUSE
from tests.unit.cli.helpers import Ran, pitwatch

STAMP = "2026-01-07T08:00:00Z"
DAY1, DAY2 = "2026-01-05", "2026-01-06"
TABLES = ("T001", "T002")
LATE = ("the hand is not re-derived from it alone (the table's configuration and seats "
        "are in the logs before it)")


@dataclass(frozen=True)
class Days:
    folder: Path
    archived: str  # the ledger's URL, kept with the archive
    unarchived: str  # kept with --no-archive
    day2: Path
    both: Path  # the two days' files joined, in order
    events: list[dict[str, object]]  # every event of the two days

    def day2_hands(self) -> set[str]:
        return {str(e["hand_id"]) for e in self.events
                if e["hand_id"] and str(e["ts"]).startswith(DAY2)}

    def whole_in_day2(self, hand_id: str) -> bool:
        return all(str(e["ts"]).startswith(DAY2) for e in self.events
                   if e["hand_id"] == hand_id)

    def starts(self, table: str) -> int:
        """The seq at which the second day's file starts ``table``."""
        return min(int(str(e["seq"])) for e in self.events
                   if e["table_id"] == table and str(e["ts"]).startswith(DAY2))


@pytest.fixture(scope="module")
def days(tmp_path_factory: pytest.TempPathFactory) -> Days:
    """Two HCF tables from 18:00 on 2026-01-05 into 2026-01-06, every fault kind injected,
    split by the events' ``ts`` day into gzipped files, each run with ``--leave-open``
    into a ledger with the archive and one without."""
    folder = tmp_path_factory.mktemp("later_day")
    log = simulate(["hcf"], len(TABLES), 220, 7, frozenset(available_faults("hcf")),
                   fault_rate=0.1, profile=HOUSE)
    files: dict[str, list[bytes]] = {DAY1: [], DAY2: []}
    for event in log.events:
        files[str(event["ts"])[:10]].append(orjson.dumps(event) + b"\n")
    paths = {day: folder / f"{day}.jsonl.gz" for day in files}
    for day, lines in files.items():
        paths[day].write_bytes(gzip.compress(b"".join(lines)))
    both = folder / "both.jsonl.gz"
    both.write_bytes(paths[DAY1].read_bytes() + paths[DAY2].read_bytes())
    archived = f"sqlite:///{folder}/split.sqlite"
    unarchived = f"sqlite:///{folder}/no-archive.sqlite"
    for url, more in ((archived, ()), (unarchived, ("--no-archive",))):
        for day in (DAY1, DAY2):
            ran = pitwatch("adjudicate", str(paths[day]), "--leave-open", "--ledger", url,
                           *more)
            assert ran.code in (0, 1), ran.stderr
    return Days(folder, archived, unarchived, paths[DAY2], both, list(log.events))


def daily(days: Days, url: str, name: str, events: Path) -> tuple[Ran, Path]:
    out = days.folder / name
    out.mkdir()
    ran = pitwatch("report", "daily", "--date", DAY2, "--ledger", url, "--events",
                   str(events), "-o", str(out / "daily.html"), "--generated-at", STAMP,
                   columns=400)
    return ran, out


def written(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name != "daily.html")


def warnings(ran: Ran) -> list[str]:
    return [line for line in ran.stderr.splitlines() if line.startswith("warning: ")]


def test_the_day_file_gives_way_to_the_archive_without_a_warning(days: Days) -> None:
    ran, out = daily(days, days.archived, "archived", days.day2)
    assert ran.code == 0, ran.stderr
    assert warnings(ran) == []
    copies = written(out)
    assert len(copies) >= 2  # hands to review, for the test to mean it
    assert (f"{len(copies)} of them are from the event archive, which holds table(s) "
            f"T001, T002 from the first event on: {DAY2}.jsonl.gz holds those hands' events "
            "but cannot re-derive them alone (it starts the tables part way through their "
            "hash chains, the earlier days' events being in the files before it, or holds "
            "a hand only in part)") in ran.stderr.splitlines()
    # each copy is the report `report hand ID --ledger URL` writes, from the archive
    for name in copies:
        hand_id = name.removeprefix("hand-").removesuffix(".html")
        assert hand_id in days.day2_hands()
        alone = pitwatch("report", "hand", hand_id, "--ledger", days.archived,
                         "--generated-at", STAMP)
        assert alone.code == 0, alone.stderr
        assert (out / name).read_text() == alone.stdout, hand_id
        assert "the event archive" in alone.stdout


def test_report_hand_names_the_same_reason(days: Days) -> None:
    hand_id = next(h for h in sorted(days.day2_hands()) if days.whole_in_day2(h))
    table = hand_id.split("-")[0]
    ran = pitwatch("report", "hand", hand_id, "--ledger", days.archived, "--events",
                   str(days.day2), "-o", str(days.folder / "one.html"), columns=400)
    assert ran.code == 2
    assert ran.stderr.splitlines() == [
        f"error: hand {hand_id}: the event log {DAY2}.jsonl.gz starts table {table} at seq "
        f"{days.starts(table)}, after its first event: {LATE}; give a log holding the "
        "table from its first event on (the days' files in one), or leave out --events to "
        "read it from the event archive"]


def test_without_an_archive_each_hand_says_what_the_file_lacks(days: Days) -> None:
    ran, out = daily(days, days.unarchived, "unarchived", days.day2)
    assert ran.code == 1, ran.stderr
    said = warnings(ran)
    copies = written(out)
    assert len(said) == len(copies) >= 2
    whole = [name.removeprefix("hand-").removesuffix(".html") for name in copies
             if days.whole_in_day2(name.removeprefix("hand-").removesuffix(".html"))]
    assert whole  # hands that began on the second day, for the test to mean it
    for hand_id in whole:
        table = hand_id.split("-")[0]
        assert (f"warning: hand {hand_id}: the event log {DAY2}.jsonl.gz starts table "
                f"{table} at seq {days.starts(table)}, after its first event: {LATE}, and "
                f"the database holds no archive of table {table}: its report shows the "
                "booking only (give the table's days' files joined in one, in order, with "
                "--events)") in said
        copy = (out / safe_name(hand_id)).read_text()
        assert (f"starts table {table} at seq {days.starts(table)}, after its first event: "
                f"the hand is not re-derived from it alone (the table&#39;s configuration "
                f"and seats are in the logs before it), and the database holds no archive "
                f"of table {table}, so this report shows the record as booked in the "
                "ledger only") in copy
    assert not [line for line in said if "not (whole)" in line or "in neither" in line]


def test_the_days_joined_in_one_file_re_derive_every_hand(days: Days) -> None:
    ran, out = daily(days, days.unarchived, "joined", days.both)
    assert ran.code == 0, ran.stderr
    assert warnings(ran) == []
    for name in written(out):
        assert "<th>Event log</th>" in (out / name).read_text()
        assert "both.jsonl.gz" in (out / name).read_text()


def test_a_hand_the_archive_lost_is_warned_of_with_the_file_s_reason(days: Days) -> None:
    """The archive holds the tables but lost one hand's events: that hand's warning names
    what the file lacks and the archive's loss; exit 1."""
    first = daily(days, days.archived, "before-loss", days.day2)[1]
    ids = [name.removeprefix("hand-").removesuffix(".html") for name in written(first)]
    lost = next(h for h in reversed(ids) if days.whole_in_day2(h))  # a table's last
    table = lost.split("-")[0]
    copy = days.folder / "lost.sqlite"
    with sqlite3.connect(days.archived.removeprefix("sqlite:///")) as source, \
            sqlite3.connect(copy) as target:
        source.backup(target)  # with what the WAL holds
    url = f"sqlite:///{copy}"
    engine = open_ledger(url)
    with engine.begin() as conn:
        conn.execute(text("DROP TRIGGER IF EXISTS archive_segments_no_delete"))
        conn.execute(text("DELETE FROM archive_segments WHERE hand_id = :h"), {"h": lost})
    engine.dispose()
    ran, out = daily(days, url, "lost", days.day2)
    assert ran.code == 1, ran.stderr
    assert warnings(ran) == [
        f"warning: hand {lost}: the event log {DAY2}.jsonl.gz starts table {table} at seq "
        f"{days.starts(table)}, after its first event: {LATE}; and the event archive holds "
        "no event of this hand, though the ledger booked it and the archive holds table "
        f"{table}'s events (removed from the archive, or not archived yet: run `pitwatch "
        "verify`): its report shows the booking only"]
    assert "; and the event archive holds no event of this hand" in (out / safe_name(lost)
                                                                 ).read_text()
