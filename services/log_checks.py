"""What ``pitwatch adjudicate --ledger`` and ``pitwatch surveil --db`` read of their log
before they write anything.

Why: the ledger and the archive are append-only, so a run that would book every hand of a
table wrongly must stop before its first booking, not explain afterwards. Two operator
slips did that (QA):

* a shell without ``PITWATCH_PROFILES``: a table configured under a casino's own rule
  profile had every hand booked ``rejected`` (GEN-5 ``UNKNOWN_RULE_PROFILE``) for good, and
  a day booked before with the variable set got a critical ``LEDGER_CONFLICT`` case for
  each of its hands;
* the day before run without ``--leave-open``: the next day's run judged each table the
  archive holds as a new one (GEN-5 ``NO_CONFIGURATION``, a gap "from 0"), booked 1,257
  hands rejected and opened 1,261 cases, and only then said why.

A log that can be read twice (a regular file, compressed or not) is read here once
first, cheaply: only its ``table_configured`` lines and each table's first record are
decoded (``parse_record``, the reference's intake); the rest is searched as bytes. A
pipe is read once, by the run, and ``services.recording.RunKeeper`` stops it instead
where the same is met: before a hand of that table is booked.

``surveil --db`` keeps its run in the same database (the surveillance state, the alerts
archived, the cases opened), and the same two slips had it surveil none of a table's
hands (judged rejected) and store the state and alerts as if the day were done, saying
only afterwards that no state was kept (QA): it asks the same questions here
(``head_before_writing``) before it opens the database, and a pipe's answer is had when
its run ends, before anything is stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from services.adjudicator.embedded import BYTES_PER_CHUNK
from services.adjudicator.intake import ParsedEvent, parse_record
from services.events.contract import TableConfiguredEvent
from services.events.file_kind import first_value, kind_of
from services.events.logfile import examine, open_log, read_chunks
from services.events.wire import record_of_line
from services.games.profile import SET_PROFILES, Profiles, UnknownProfileError

# A table id as the envelope gives it (no escape in it: an id written with escapes is
# not looked up here, and the run's own check meets it).
_TABLE_ID = re.compile(rb'"table_id"\s*:\s*"([^"\\]*)"')
_CONFIGURED = b'"table_configured"'
FEW_TABLES = 4  # tables looked for one at a time, as bytes
SHOWN = 5  # tables a refusal names
# What a run refused for an unknown profile left out, and why (``refuse_unknown_profiles``).
NOTHING_BOOKED = ("nothing was booked: judged without their profile, the hands would be "
                  "booked rejected for good")
NOTHING_STORED = ("nothing was stored: judged without their profile, their hands would be "
                  "rejected and not surveilled, the day stored as surveilled")

Db = TypeVar("Db")


@dataclass
class LogHead:
    """The first record taken of each table the archive holds (its seq), and the tables
    each rule profile the log's ``table_configured`` events name is posted at, by game."""

    first_seq: dict[str, int] = field(default_factory=dict)
    # (profile, game) -> the tables configured to play that game under that profile
    games: dict[tuple[str, str], set[str]] = field(default_factory=dict)


def records_given_as_log(path: Path) -> str | None:
    """Why ``path`` cannot be a log, when it is a file of adjudication records (pitwatch
    adjudicate's output): read as events, each of its lines was rejected ("missing
    required field `type`") and the run exited 1 (QA). None: it may be a log."""
    value = first_value(path)
    if kind_of(value) != "records":
        return None
    return (f"{path} holds adjudication records (pitwatch adjudicate's output: its first "
            f"line is the record of hand {value['hand_id']!s:.60}), not a table's events: "
            "give the table's event log (`pitwatch ledger post FILE --ledger URL` books "
            "records)")


def read_head(path: Path, archived: Collection[str]) -> LogHead | None:
    """The log's ``LogHead`` (first seqs of the ``archived`` tables only), or None when it
    can be read only once (a pipe, standard input): the run then checks as it goes."""
    source = examine(path)
    if not source.rereadable:
        return None
    head = LogHead()
    wanted = {t.encode() for t in archived}
    try:
        with open_log(path) as fh:
            for lines in _whole_lines(read_chunks(fh, BYTES_PER_CHUNK, source.path)):
                _take(head, lines, wanted)
    except OSError:  # a compressed log cut short: the run books what is whole before the
        pass  # damage, and says it in one line (``services.events.logfile``)
    return head


def head_before_writing(path: Path, url: str, open_db: Callable[[], Db],
                        archived: Callable[[Db], Collection[str]], profiles: Profiles,
                        outcome: str = NOTHING_BOOKED) -> tuple[Db, LogHead | None]:
    """The database at ``url`` opened (``open_db``: created if new) and the log's head
    (``read_head``, of the tables ``archived`` names), after ``refuse_unknown_profiles``:
    a run refused there does not create a new database. A URL that cannot be one is
    left to ``open_db`` to say why, in one line."""
    from services.ledger.db import ledger_exists

    try:
        new = not ledger_exists(url)
    except Exception:
        new = False
    db = None if new else open_db()
    head = read_head(path, () if db is None else archived(db))
    if head is not None:
        refuse_unknown_profiles(head, profiles, outcome)
    return (open_db() if db is None else db), head


def refuse_unknown_profiles(head: LogHead, profiles: Profiles,
                            outcome: str = NOTHING_BOOKED) -> None:
    """``UnknownProfileError`` (exit 2, one line) when a table of the log is configured
    under a rule profile this run cannot load: each of its hands would be judged rejected
    (``outcome``: what that would have kept, for good)."""
    unknown = sorted({name for name, _ in head.games if name not in profiles.by_name})
    if unknown:
        tables = {t for (name, _), at in head.games.items() if name in unknown for t in at}
        plural = "s" if len(unknown) > 1 else ""
        raise UnknownProfileError(
            f"table(s) {_named(tables)} of this log are configured under rule profile"
            f"{plural} {', '.join(map(repr, unknown))}, which this run does not know (it "
            f"knows {', '.join(profiles.names())}): {SET_PROFILES} and run it again "
            f"({outcome})")
    _refuse_missing_sections(head, profiles, outcome)


def _refuse_missing_sections(head: LogHead, profiles: Profiles, outcome: str) -> None:
    """A known profile without the section of a game a table plays under it (a casino's
    copy of house-v1 with no ``russian.toml``): each of those hands would be judged
    rejected too. The run's own check said so only after it had created the ledger (QA)."""
    for (name, game), tables in sorted(head.games.items()):
        sections = profiles.by_name[name].sections
        if game in sections:
            continue
        raise UnknownProfileError(
            f"table(s) {_named(tables)} of this log play {game} under rule profile "
            f"{name!r}, which has no section {game!r} (its sections: "
            f"{', '.join(sorted(sections))}): add {game}.toml to the profile, or configure "
            f"the table under another one, and run it again ({outcome})")


def _named(tables: Collection[str]) -> str:
    """Up to ``SHOWN`` table ids, and how many more."""
    shown = sorted(tables)
    return ", ".join(shown[:SHOWN]) + (f" and {len(shown) - SHOWN:,} more"
                                       if len(shown) > SHOWN else "")


def _whole_lines(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """The log's bytes in pieces that end at a line's end (the last perhaps not)."""
    pending = b""
    for chunk in chunks:
        last = chunk.rfind(b"\n") + 1
        if not last:
            pending += chunk
            continue
        yield pending + chunk[:last]
        pending = chunk[last:]
    if pending:
        yield pending


def _line_at(buf: bytes, at: int) -> tuple[bytes, int]:
    """The line of ``buf`` holding offset ``at``, and the offset after it."""
    start = buf.rfind(b"\n", 0, at) + 1
    end = buf.find(b"\n", at)
    end = len(buf) if end < 0 else end + 1
    return buf[start:end], end


def _event(line: bytes) -> ParsedEvent | None:
    parsed = parse_record(record_of_line(line), "")
    return parsed if isinstance(parsed, ParsedEvent) else None


def _take(head: LogHead, buf: bytes, wanted: set[bytes]) -> None:
    """What a piece of whole lines adds: every configuration, and the first record of each
    ``wanted`` table not met before (met: taken out of ``wanted``)."""
    at = buf.find(_CONFIGURED)
    while at >= 0:
        line, end = _line_at(buf, at)
        parsed = _event(line)
        if parsed is not None and isinstance(parsed.event, TableConfiguredEvent):
            profile, game = parsed.event.data.rule_profile, parsed.event.data.game
            head.games.setdefault((profile, game), set()).add(parsed.event.table_id)
        at = buf.find(_CONFIGURED, end)
    if not wanted:
        return
    # A few tables are looked for as bytes (fast); many (an archive of years holds tables
    # closed since) by reading every table id once.
    present = (wanted & set(_TABLE_ID.findall(buf)) if len(wanted) > FEW_TABLES
               else {t for t in wanted if b'"' + t + b'"' in buf})
    for table in sorted(present):
        if _first_of(head.first_seq, buf, table):
            wanted.discard(table)


def _first_of(first_seq: dict[str, int], buf: bytes, table: bytes) -> bool:
    """The table's first record in ``buf`` the intake takes, if any (True: found)."""
    pattern = re.compile(rb'"table_id"\s*:\s*"' + re.escape(table) + rb'"')
    found = pattern.search(buf)
    while found is not None:
        line, end = _line_at(buf, found.start())
        parsed = _event(line)
        if parsed is not None and parsed.event.table_id.encode() == table:
            first_seq[parsed.event.table_id] = parsed.event.seq
            return True
        found = pattern.search(buf, end)
    return False
