"""What an embedded run keeps in the database: the hands booked in the ledger, every event
and alert in the archive, and the cases its findings and alerts open.

``pitwatch adjudicate --ledger URL`` keeps a run this way as it goes (``RunKeeper``, a
batch of hands at a time) and ``pitwatch demo`` when it ends (``keep_run``); the Kafka
pipeline does the same through its services (the ledger service books, the archive
service archives and opens cases). Order: the ledger first (a case's evidence hands are
found by their booked day), then the archive, then the cases, in one transaction
(``keep_together``: a batch of hands at a time for ``RunKeeper``); each step is
idempotent, so a run kept twice keeps nothing twice, and a run stopped part way
keeps, when run again, only what it had not.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from services.adjudicator.carry import CarryFrom, StateReader, TableCarry
from services.adjudicator.segments import Segment
from services.archive.carry import (
    CarryResult,
    KeptStates,
    archived_tables,
    keep_carries,
    kept_states_from,
    refuse_other_engines,
)
from services.archive.segment import PackedSegment, pack_parts
from services.archive.writer import ArchiveResult, archive_run, write_archive
from services.cases.audit import now_utc
from services.cases.intake import IntakeResult, evidence_of, open_cases, take_evidence
from services.events.contract import AdjudicationRecord, Alert
from services.exits import Refused
from services.games.profile import UnknownProfileError
from services.games.unknown_profiles import UNKNOWN_PROFILE_CODE
from services.ledger.db import shown_url, write_transaction
from services.ledger.posting import PostResult, PostTally, post_many
from services.log_checks import NOTHING_STORED


@dataclass
class ArchiveCollector:
    """Packs each segment as the run hands it out (compressed, about a quarter of the
    canonical bytes), so a long run does not hold every event's JSON in memory."""

    packed: list[PackedSegment] = field(default_factory=list)
    heads: dict[str, int] = field(default_factory=dict)  # each table's highest seq packed

    def add(self, segments: Iterable[Segment]) -> None:
        for segment in segments:
            parts = pack_parts(segment)
            self.packed += parts
            for part in parts:
                if part.last_seq is not None and part.last_seq > self.heads.get(
                        part.table_id, 0):
                    self.heads[part.table_id] = part.last_seq


@dataclass(frozen=True)
class Kept:
    posted: PostTally
    archived: ArchiveResult | None
    cases: IntakeResult | None
    carried: CarryResult | None = None  # ``RunKeeper``: the tables' states taken and kept


def keep_run(engine: Engine, records: Sequence[AdjudicationRecord], alerts: Sequence[Alert],
             segments: Sequence[PackedSegment] | None) -> Kept:
    """Book ``records``; with ``segments`` (None: archiving off), archive them and the
    alerts, and open the cases: all in one transaction (``keep_together``)."""
    if segments is None:
        return Kept(PostTally.of(post_many(engine, records)), None, None)
    posted, archived, cases = keep_together(engine, records, segments, alerts)
    return Kept(PostTally.of(posted), archived, cases)


ATTEMPTS = 3  # a transaction whose case intake raced another writer runs again


def keep_together(engine: Engine, records: Sequence[AdjudicationRecord],
                  segments: Sequence[PackedSegment], alerts: Sequence[Alert]
                  ) -> tuple[list[PostResult], ArchiveResult, IntakeResult]:
    """Book ``records``, archive ``segments`` and ``alerts``, and open the cases of the
    records' findings and the alerts, in one transaction. So every commit leaves the
    database as verify holds it: a break the stream had is archived with the alert that
    reported it (kept to the end of the run, it read as a change to the archive while the
    run went on or after it was stopped: QA, ``altered`` breaks "at intake: no"); a booked
    hand's events are archived and its findings are in a case (committed one after the
    other, a run stopped between left hands "booked past the archive's last event" and
    findings in no case). The ledger books in savepoints (``post_many`` through a session
    that joins this transaction: a hand the database refuses is booked alone, as ever).
    The transaction runs again if another writer opened a case of the same subject
    meanwhile; nothing of it stayed, so it books the same."""
    items = evidence_of(records, alerts)
    for attempt in range(ATTEMPTS):
        try:
            with write_transaction(engine) as conn:
                with Session(bind=conn, join_transaction_mode="create_savepoint") as session:
                    posted = post_many(session, records)
                archived = write_archive(conn, segments, alerts)
                cases = take_evidence(conn, items, now_utc())
            return posted, archived, cases
        except IntegrityError:
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


KEEP_HANDS = 2_000  # records a ``RunKeeper`` holds before it keeps them


class RunKeeper:
    """Keeps an embedded run in the database as it goes, ``hands`` records at a time: the
    hands are booked, the segments cut so far archived, the records' cases opened.

    Why: kept when the run ended, the run held every record and packed segment until then,
    852 MB for 20,000 HCF hands (42 kB a hand), so ``pitwatch adjudicate --ledger`` could
    not book a long log at all. Now it holds one batch. Each alert (a few a table-day) is
    archived and taken into a case with the first batch that archives the event it is
    about (``_due``), in that batch's transaction (``keep_together``): kept to the
    end of the run, a tampering the stream brought read, while the run went on or after
    it was stopped, as a change to the archive (QA); held until then, its hand is booked,
    and a case files its hands under their booked days. Each step is idempotent, so a run
    stopped part way and run again keeps nothing twice; a run's records, segments and
    cases are the same as when kept at the end."""

    def __init__(self, engine: Engine, archive: bool, hands: int = KEEP_HANDS) -> None:
        self._engine = engine
        self._hands = hands
        self._segments = ArchiveCollector() if archive else None
        self._records: list[AdjudicationRecord] = []
        self._alerts: list[Alert] = []
        self._posted = PostTally()
        self._archived = ArchiveResult() if archive else None
        self._cases = IntakeResult() if archive else None
        self._carried = CarryResult()
        self._carries: tuple[str, list[TableCarry]] | None = None  # ``carry``

    def refuse_other_engines(self, engine: str) -> None:
        """``KeptByAnotherEngine`` when a table's latest kept state is another engine's:
        asked before the run opens its outputs (``services.archive.carry``)."""
        refuse_other_engines(self._engine, engine)

    def states_for(self, engine: str, read: StateReader) -> KeptStates:
        """The run's carry source: a table it meets continues from the state an earlier
        run kept for it (``services.archive.carry``). Raises ``KeptByAnotherEngine``
        first when a table's latest state is another engine's."""
        refuse_other_engines(self._engine, engine)
        return kept_states_from(self._engine, self._carried)(engine, read)

    def archived_tables(self) -> dict[str, int]:
        """The tables the archive holds, with the highest seq of each."""
        return archived_tables(self._engine)

    def refuse_unlinked(self, first_seq: dict[str, int], engine: str, read: StateReader
                        ) -> None:
        """``Refused`` before the run reads a line (its log read beforehand: ``first_seq``,
        each archived table's first seq in it) when a table goes on from the archive's
        chain and no state kept fits it (``services.log_checks``)."""
        refuse_unlinked(self._engine, first_seq, engine, read, ADJUDICATE)

    def carry(self, engine: str, carries: list[TableCarry]) -> None:
        """The tables' states at the end of a log that goes on, kept when the run's last
        hands are (``finish``): a run stopped before keeps none, and the next log then
        continues from the state kept before this one (its gap reported)."""
        self._carries = (engine, carries)

    @property
    def archives(self) -> bool:
        """Events and alerts go to the archive too (``--archive``)."""
        return self._segments is not None

    def add(self, records: Sequence[AdjudicationRecord], alerts: Sequence[Alert],
            segments: Iterable[Segment]) -> None:
        """A step's records, alerts and closed segments; a full batch is kept now.
        ``Refused`` first, and nothing of the step taken, when the run met a table it
        would book wrongly (``_refuse_wrong``)."""
        self._refuse_wrong(records)
        self._records += records
        self._alerts += alerts
        if self._segments is not None:
            self._segments.add(segments)
        if len(self._records) >= self._hands:
            self._keep_batch()

    def finish(self) -> Kept:
        """Keep what is left, the alerts held till now among it (``_due``)."""
        self._refuse_wrong(())
        self._keep_batch(last=True)
        if self._carries is not None:
            engine, carries = self._carries
            at = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
            self._carried.kept, self._carried.already = keep_carries(
                self._engine, engine, carries, at)
        return Kept(self._posted, self._archived, self._cases, self._carried)

    def _refuse_wrong(self, records: Sequence[AdjudicationRecord]) -> None:
        """Stop a run read as it comes (a pipe; a file is checked before it is read:
        ``services.log_checks``) before it books a hand judged without what it needs:
        a table met part way through the archive's chain with no state kept for it (its
        hands would all be rejected, NO_CONFIGURATION), or a hand judged under a rule
        profile this run cannot load. The hands of other tables booked before are judged
        as they should be; the run given again repeats nothing."""
        booked = self._posted.counts.total()
        if self._carried.unlinked:
            raise Refused(not_continued(self._carried.unlinked, booked))
        for record in records:
            if record.status != "rejected":
                continue
            for finding in record.findings:
                if finding.code == UNKNOWN_PROFILE_CODE:
                    raise UnknownProfileError(
                        f"table {record.table_id}: {finding.message}; "
                        + _booked_before(booked, "its hands"))

    def _keep_batch(self, last: bool = False) -> None:
        records, self._records = self._records, []
        if self._segments is None or self._archived is None or self._cases is None:
            self._posted.add(post_many(self._engine, records))
            return
        segments, self._segments.packed = self._segments.packed, []
        alerts = self._alerts if last else self._due(self._segments.heads)
        if segments or records or alerts:
            posted, archived, cases = keep_together(self._engine, records, segments, alerts)
            self._posted.add(posted)
            self._archived.add(archived)
            self._cases.add(cases)

    def _due(self, heads: dict[str, int]) -> list[Alert]:
        """The alerts held that this batch archives with its segments (the rest held):
        each one of no seq, or of a seq its table's segments have reached (``heads``: the
        highest seq packed). Why not all: an alert about an event of a hand still open
        would open a case before the hand is booked, with no day to file it under; its
        event is archived with the hand, and the alert then."""
        due: list[Alert] = []
        held: list[Alert] = []
        for alert in self._alerts:
            if alert.seq is None or alert.seq <= heads.get(alert.table_id, 0):
                due.append(alert)
            else:
                held.append(alert)
        self._alerts = held
        return due


def refuse_unlinked(db: Engine, first_seq: dict[str, int], engine: str, read: StateReader,
                    run: RefusedRun) -> None:
    """``Refused`` (``not_continued``, in ``run``'s words) when a table goes on from the
    archive's chain (``first_seq``: each archived table's first seq in the log, read
    before the run reads a line) and no state kept fits it: asked of the kept states as
    the run will ask them (``kept_states_from``), nothing of their answer kept."""
    probe = CarryResult()
    states = kept_states_from(db, probe)(engine, read)
    for table, seq in sorted(first_seq.items()):
        states(table, seq)
    if probe.unlinked:
        raise Refused(not_continued(probe.unlinked, 0, run))


def archive_summary(url: str, kept: Kept) -> list[str]:
    """What archiving did, in words (stderr of the commands)."""
    if kept.archived is None or kept.cases is None:
        return []
    a, c = kept.archived, kept.cases
    lines = [f"archive {shown_url(url)}: {a.segments + a.trimmed:,} segment(s) archived"
             + (f" ({a.trimmed:,} without events already held)" if a.trimmed else "")
             + (f", {a.repeats:,} already archived" if a.repeats else "")
             + f"; {a.alerts:,} alert(s)"
             + (f", {a.alert_repeats:,} already archived" if a.alert_repeats else "")]
    if a.conflicts:
        lines.append(f"  {a.conflicts:,} event(s) offered again with other bytes: the "
                     "archived ones are kept, the others are in archive_conflicts (SURV-9)")
    lines.append(f"cases: {c.opened:,} opened, {c.joined:,} joined an open case"
                 + (f", {c.repeats:,} already taken" if c.repeats else "")
                 + " (pitwatch cases list)")
    return lines


CONTINUED_SHOWN = 5  # tables a summary names among those continued from a kept state


def _booked_before(booked: int, what: str) -> str:
    """What a refused run left out of the ledger: everything, or ``what`` (the hands of the
    tables it refused) after ``booked`` hands of other tables."""
    if not booked:
        return f"nothing was booked ({what} would have been booked rejected for good)"
    return (f"{what} were not booked (only the {booked:,} hand(s) of other tables read "
            "before, judged as they should be; run again, they are not booked twice)")


@dataclass(frozen=True)
class RefusedRun:
    """How ``not_continued`` words a refused run: the run that works (the logs given
    together), and what the refused one left out (None: the ledger's hands,
    ``_booked_before``)."""

    command: str
    left_out: str | None = None


ADJUDICATE = RefusedRun("pitwatch adjudicate - --leave-open --ledger URL")
SURVEIL = RefusedRun("pitwatch surveil - --leave-open --db URL",
                     "nothing was stored (their hands, judged as new tables, would have "
                     "been rejected and not surveilled, the day stored as surveilled)")


def not_continued(unlinked: Sequence[tuple[str, int, int]], booked: int,
                  run: RefusedRun = ADJUDICATE) -> str:
    """The one line of a run refused because tables go on from the archive's chains with
    no state kept for them (``CarryResult.unlinked``)."""
    shown = "; ".join(f"{table} (this log starts at its seq {seq:,}, the archive holds it "
                      f"through seq {archived:,})"
                      for table, seq, archived in sorted(unlinked)[:CONTINUED_SHOWN])
    more = len(unlinked) - CONTINUED_SHOWN
    return (f"table(s) {shown}" + (f" and {more:,} more" if more > 0 else "")
            + ": no state was kept for them at the end of the log before (run without "
            "--leave-open), so this log cannot go on from it; "
            + (run.left_out or _booked_before(booked, "their hands, judged as new tables,"))
            + ": give the logs from the tables' first together, in order, in one run "
            f"(cat DAY1 DAY2 | {run.command}; "
            "docs/compliance-guide.md, \"A table's days, one file a day\")")


def carry_summary(carried: CarryResult | None) -> list[str]:
    """What a run did with the tables' kept states, in words (stderr of ``adjudicate`` and
    ``surveil``)."""
    if carried is None:
        return []
    lines = []
    if carried.continued:
        named = "; ".join(f"{table} after seq {seq:,}"
                          for table, seq in carried.continued[:CONTINUED_SHOWN])
        more = len(carried.continued) - CONTINUED_SHOWN
        lines.append(f"{len(carried.continued):,} table(s) went on from the state kept at "
                     f"the end of an earlier log: {named}"
                     + (f"; and {more:,} more" if more > 0 else ""))
    lines += carried.refused
    for table, seq, archived in carried.unlinked[:CONTINUED_SHOWN]:
        lines.append(f"table {table}: this log starts at its seq {seq:,}, and the archive "
                     f"holds it through seq {archived:,}, but no state was kept for it "
                     "before: its hands here are judged as a new table's; run each day "
                     "with --leave-open, or give the days together")
    if len(carried.unlinked) > CONTINUED_SHOWN:
        lines.append(f"... and {len(carried.unlinked) - CONTINUED_SHOWN:,} more table(s) "
                     "the same way")
    if carried.kept or carried.already:
        lines.append(f"the state of {carried.kept + carried.already:,} table(s) kept for "
                     "the log that goes on"
                     + (f" ({carried.already:,} kept already)" if carried.already else ""))
    return lines


def surveil_carry(db: Engine, first_seq: dict[str, int] | None, carried: CarryResult
                  ) -> CarryFrom:
    """``surveil --db``'s carry source: a table part way through its chain goes on from
    the state ``adjudicate --leave-open --ledger`` kept (read, never kept: ``carried``
    says what was taken). With ``first_seq`` (its log read beforehand,
    ``services.log_checks``), the run is refused as ``adjudicate``'s is, before it reads a
    line, when a table goes on from the archive's chain with no state kept that fits it
    (``refuse_unlinked``, in ``surveil``'s words)."""
    def carry_from(engine: str, read: StateReader) -> KeptStates:
        if first_seq is not None:
            refuse_unlinked(db, first_seq, engine, read, SURVEIL)
        return kept_states_from(db, carried)(engine, read)

    return carry_from


def refuse_surveil_met(carried: CarryResult, unknown_profile: tuple[str, str] | None
                       ) -> None:
    """``surveil --db`` of a log read once (a pipe; a file is checked before it is read:
    ``services.log_checks``), refused when its run met a table judged without its rule
    profile (``unknown_profile``: the table and the finding's message) or one that goes
    on from the archive's chain with no state kept for it: before its state, alerts and
    cases are stored (nothing is stored as it goes), as ``RunKeeper._refuse_wrong``
    refuses ``adjudicate``'s."""
    if unknown_profile is not None:
        table, message = unknown_profile
        raise UnknownProfileError(f"table {table}: {message}; {NOTHING_STORED}")
    if carried.unlinked:
        raise Refused(not_continued(carried.unlinked, 0, SURVEIL))


def keep_alerts(engine: Engine, alerts: Sequence[Alert]) -> list[str]:
    """``surveil --db``: its SURV-2..8 alerts archived and taken into cases, as ``demo``
    and ``serve archive`` take them; what was done, in words. The guide's daily routine is
    ``adjudicate --ledger``, then ``surveil --db``: the cross-hand alerts (a dealer
    overpaying one player, chips dumped between two) reached only the alerts file, never
    the cases queue or the console (QA). Both writes know what they hold (an alert by its
    id, a case's evidence by its source), so a log surveilled again adds nothing."""
    if not alerts:
        return []
    archived = archive_run(engine, [], alerts)
    cases = open_cases(engine, [], alerts)
    return [f"alerts: {archived.alerts:,} archived"
            + (f", {archived.alert_repeats:,} already archived" if archived.alert_repeats
               else "")
            + f"; cases: {cases.opened:,} opened, {cases.joined:,} joined an open case"
            + (f", {cases.repeats:,} already taken" if cases.repeats else "")
            + " (pitwatch cases list)"]

