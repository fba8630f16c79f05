"""The daily table report: per table and game, per dealer, with the hands needing review.

Why computed from the booked records' movements and then reconciled: the movements are
the chips the ledger booked, so summing them per table gives the day's drop, payouts,
rake and house result; the ledger's own SQL totals (``services.ledger.queries``) are then
set beside them and must agree to the chip. The report prints that reconciliation, so a
reader sees it hold rather than being told it does.

Definitions (all integers, chips):

* drop: chips wagered on layouts plus chips bet into pots (movement kinds ``wager``,
  ``bet``), but not in a dead hand (GEN-6 / HCF-13: every wager goes back, so none was
  at risk, and counting them diluted the hold: a table of two dead hands read "Drop 40,
  Hold 0.00"). It is the ledger's one definition (``services.ledger.queries``), which
  its SQL totals and the console's floor use too; a dead hand's wagers are ``returned``,
  shown beside the drop;
* payouts: chips paid to seats out of the house or a pot (``payout``), not the refunds
  of a dead hand (``returned_paid``);
* between players: chips one seat paid another directly (Chinese Poker's points): not
  drop and not payouts, which are the chips played against the house or into a pot; a
  game that settles only between players has drop and payouts 0 by definition, and the
  report says so and shows these chips on their own;
* rake: the house's fee (``rake`` minus ``rake_refund``), by the posted rake mode;
* house bank: the house's gaming result in house-banked games (chips to the house that
  are not rake, minus chips the house paid);
* win: what the house kept, rake plus house bank;
* hold %: win / drop x 100, an exact fraction rounded half away from zero to two places.

A hand the ledger refused is counted as a hand and listed for review, but its chips are
not in the money totals: the ledger booked none. A booked hand that was later re-posted
with other content (SURV-9 ``LEDGER_CONFLICT``: the re-post is refused and kept in the
ledger's ``conflicts`` table, the booking unchanged) is listed for review too, with what
differed: the refusal leaves no other trace a reviewer would see, and opens no case.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from sqlalchemy import Connection, Engine, Row, select

from services.archive.alerts import alert_key
from services.events.contract import AdjudicationRecord, Alert, Finding, decode_record
from services.ledger.money import HandMoney
from services.ledger.money import hand_money as money_of
from services.reports.alerts import AlertLine, alert_lines, concerns
from services.reports.archived_alerts import ARCHIVED_ALERTS, concerning, union
from services.reports.day_figures import (
    IDS_PER_QUERY,
    REVIEW_STATUSES,
    OverallHold,
    hands_to_review,
    overall_hold,
    table_hold,
)
from services.reports.day_figures import tables_without_drop as count_tables_without_drop
from services.reports.dispute import GAME_NAMES, SEVERITY_ORDER
from services.reports.table_alerts import archived_of_day, of_day


@dataclass
class Totals:
    """Money and counts of a group of hands (a table, a dealer, the day)."""

    hands: int = 0
    booked: int = 0
    drop: int = 0
    payouts: int = 0
    rake: int = 0
    bank: int = 0
    findings: int = 0
    review: int = 0
    between: int = 0
    returned: int = 0
    returned_paid: int = 0
    pot_rake: int = 0  # of ``rake``, taken from the pot under a profile's pot rake

    @property
    def win(self) -> int:
        return self.rake + self.bank

    @property
    def hold(self) -> str:
        """This group's own hold; of a group of tables, see ``DailyReport.hold``."""
        return table_hold(self.win, self.drop)

    def add(self, other: Totals) -> None:
        for name in ("hands", "booked", "drop", "payouts", "rake", "bank", "findings",
                     "review", "between", "returned", "returned_paid", "pot_rake"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass(frozen=True)
class ConflictLine:
    """A re-post of a booked hand with other content, which the ledger refused (a row of
    its ``conflicts`` table). Kept whole, not only as a finding's message, so the review
    list can say which fields differ and name both versions by hash: the stored one is
    the booking, the offered one is in the ledger (``offered_json``) for whoever checks
    which of the two the table's systems really sent. The ledger keeps no time of the
    offer, so none is shown."""

    offered_sha256: str
    stored_sha256: str
    detail: str  # "fields differ: a, b", as the ledger wrote it

    def finding(self, hand_id: str) -> Finding:
        """The critical finding the ledger reported when it refused the re-post: counted
        with the day's findings by rule, as the refusals (GEN-8) are."""
        from services.ledger.posting import conflict_finding

        return conflict_finding(hand_id, self.stored_sha256, self.offered_sha256,
                                self.detail)


@dataclass(frozen=True)
class BookedHand:
    """A record as the day's report sees it: booked (chips in the ledger) or not, with
    the ledger's own findings (a refusal) and the re-posts of it the ledger refused."""

    record: AdjudicationRecord
    booked: bool = True
    ledger_findings: tuple[Finding, ...] = ()
    conflicts: tuple[ConflictLine, ...] = ()
    # From the ledger: whether it is to review (``day_figures.hands_to_review``, which the
    # floor counts too); None: a record outside the ledger (a log's).
    review: bool | None = None

    @property
    def findings(self) -> list[Finding]:
        return [*self.record.findings, *self.ledger_findings,
                *(c.finding(self.record.hand_id) for c in self.conflicts)]

    @property
    def needs_review(self) -> bool:
        """As the ledger says (``review``); a record outside it by its status, the one
        part of the ledger's rule (``day_figures.to_review``) a record alone has."""
        if self.review is not None:
            return self.review
        return self.record.status in REVIEW_STATUSES


@dataclass(frozen=True)
class FindingCount:
    rule: str
    severity: str
    code: str
    count: int


@dataclass
class TableDay:
    table_id: str
    game: str | None
    game_name: str
    totals: Totals = field(default_factory=Totals)
    rake_by_mode: dict[str, int] = field(default_factory=dict)
    pot_rake_by_mode: dict[str, int] = field(default_factory=dict)  # of it, from the pot
    findings: list[FindingCount] = field(default_factory=list)
    dealers: dict[str, Totals] = field(default_factory=dict)


@dataclass(frozen=True)
class ReviewHand:
    hand_id: str
    table_id: str
    game: str | None
    status: str
    booked: bool
    dealer_id: str | None
    ended_at: str | None
    worst: str
    codes: str
    conflicts: tuple[ConflictLine, ...] = ()


@dataclass(frozen=True)
class ReconciliationRow:
    table_id: str
    quantity: str
    report: int
    ledger: int

    @property
    def ok(self) -> bool:
        return self.report == self.ledger


@dataclass
class DailyReport:
    day: dt.date
    table: str | None
    source: str
    tables: list[TableDay] = field(default_factory=list)
    totals: Totals = field(default_factory=Totals)
    dealers: dict[str, Totals] = field(default_factory=dict)
    dealer_tables: dict[str, list[str]] = field(default_factory=dict)
    rake_by_mode: dict[str, int] = field(default_factory=dict)
    pot_rake_by_mode: dict[str, int] = field(default_factory=dict)
    findings: list[FindingCount] = field(default_factory=list)
    review: list[ReviewHand] = field(default_factory=list)
    # Of ``review``, the last this many: booked without a day, placed on this one by
    # their last archived events (``add_undated``).
    undated: int = 0
    reconciliation: list[ReconciliationRow] = field(default_factory=list)
    hand_keys: set[tuple[str, str]] = field(default_factory=set)  # (table_id, hand_id)
    # Surveillance alerts concerning the day's hands (``alert_records`` as read, for the
    # dispute reports beside this one); ``alerts_source`` None: none given.
    alerts: list[AlertLine] = field(default_factory=list)
    alert_records: list[Alert] = field(default_factory=list)
    alerts_source: str | None = None
    # Keys (``alert_key``) of the alerts raised on no hand whose event is of this day
    # (``table_alerts``), which concern the day though they name none of its hands; and
    # how many given alerts raised on no hand the archive could place on no day.
    hand_less_keys: set[str] = field(default_factory=set)
    unplaced_alerts: int = 0
    # Built from a ledger (``daily_from_ledger``): an empty ``reconciliation`` then means
    # the ledger holds no hand of the day to compare with, not that none was compared.
    from_ledger: bool = False

    def attach_alerts(self, alerts: Iterable[Alert], source: str) -> None:
        """Keep the alerts raised on or citing one of this report's hands, or raised on
        no hand by an event of its day (``place_alerts``), with those attached before
        (each once: ``archived_alerts.union``); ``source`` is named after the earlier
        ones' ("the database's archived alerts and day.jsonl")."""
        self.alert_records = union(self.alert_records, (a for a in alerts if self._ours(a)))
        self.alerts = alert_lines(self.alert_records)
        self.alerts_source = (source if self.alerts_source is None
                              else f"{self.alerts_source} and {source}")

    def place_alerts(self, engine: Engine, alerts: Iterable[Alert]) -> None:
        """Mark the alerts raised on no hand whose event the archive holds on this day
        (``table_alerts.of_day``) as this day's, before ``attach_alerts`` takes them;
        count those it holds on no day."""
        # Those the archive's alerts of the day placed already are not looked up again.
        placed, unplaced = of_day(engine, (a for a in alerts
                                           if alert_key(a) not in self.hand_less_keys),
                                  self.day, self.table)
        self.hand_less_keys.update(alert_key(a) for a in placed)
        self.unplaced_alerts += unplaced

    def _ours(self, alert: Alert) -> bool:
        """Whether ``alert`` concerns the report: raised on or citing one of its hands,
        or raised on no hand by an event of its day."""
        return concerns(alert, self.hand_keys) or alert_key(alert) in self.hand_less_keys

    @property
    def table_count(self) -> int:
        """How many tables: ``tables`` has a row per table and game, and a table that
        played two games was counted twice ("10 hand(s) at 2 table(s)" of one, QA)."""
        return len({t.table_id for t in self.tables})

    @property
    def tables_without_drop(self) -> int:
        """How many tables have a game with a win and no drop (the win ``hold`` leaves
        out): distinct tables, as ``table_count``, not rows."""
        return count_tables_without_drop((t.table_id, t.totals.win, t.totals.drop)
                                         for t in self.tables)

    @property
    def empty(self) -> bool:
        """No hand ended that day, none without a day is placed on it, and no alert raised
        on no hand is of it (cash put down after the day's last hand, QA: a day of such
        an alert alone was refused as empty, and the alert was in no day's report)."""
        return self.totals.hands == 0 and not self.undated and not self.hand_less_keys

    @property
    def hold(self) -> OverallHold:
        """All tables' hold: of the tables that have one (``day_figures.overall_hold``,
        as the floor's), not all the win over all the drop."""
        return overall_hold((t.totals.win, t.totals.drop) for t in self.tables)

    @property
    def dealer_holds(self) -> dict[str, OverallHold]:
        """Each dealer's hold over the tables they dealt that have one, as ``hold``."""
        return {dealer: overall_hold((t.dealers[dealer].win, t.dealers[dealer].drop)
                                     for t in self.tables if dealer in t.dealers)
                for dealer in self.dealers}

    @property
    def review_hand_ids(self) -> list[str]:
        return [h.hand_id for h in self.review]

    @property
    def reconciled(self) -> bool:
        return bool(self.reconciliation) and all(r.ok for r in self.reconciliation)


# ---------------------------------------------------------------- money of one hand


def hand_money(record: AdjudicationRecord) -> HandMoney:
    """Drop, payouts, rake and house-bank result of one hand, from its movements; a dead
    hand's wagers and payouts apart (``returned``, ``returned_paid``): the ledger's one
    reading (``services.ledger.money``), which the money metrics share."""
    return money_of(record.status, record.movements)


def _hand_totals(hand: BookedHand) -> Totals:
    totals = Totals(hands=1, findings=len(hand.findings), review=int(hand.needs_review))
    if hand.booked:
        money = hand_money(hand.record)
        totals.booked = 1
        totals.drop, totals.payouts = money.drop, money.payouts
        totals.rake, totals.bank = money.rake, money.bank
        totals.between = money.between
        totals.returned, totals.returned_paid = money.returned, money.returned_paid
        totals.pot_rake = money.pot_rake
    return totals


# ---------------------------------------------------------------- the report


def daily_report(
    hands: Iterable[BookedHand], day: dt.date, table: str | None, source: str
) -> DailyReport:
    """Group the day's hands per table and game and per dealer; list the hands to review."""
    report = DailyReport(day=day, table=table, source=source)
    by_table: dict[tuple[str, str | None], TableDay] = {}
    counts: dict[tuple[str, str | None], Counter[tuple[str, str, str]]] = defaultdict(Counter)
    dealer_tables: dict[str, set[str]] = defaultdict(set)
    for hand in sorted(hands, key=lambda h: (h.record.table_id, h.record.ended_at or "",
                                             h.record.hand_id)):
        r = hand.record
        report.hand_keys.add((r.table_id, r.hand_id))
        key: tuple[str, str | None] = (r.table_id, r.game)
        entry = by_table.get(key)
        if entry is None:
            entry = by_table[key] = TableDay(r.table_id, r.game,
                                             GAME_NAMES.get(r.game or "", r.game or "unknown"))
        totals = _hand_totals(hand)
        entry.totals.add(totals)
        report.totals.add(totals)
        dealer = r.dealer_id or "unknown"
        entry.dealers.setdefault(dealer, Totals()).add(totals)
        report.dealers.setdefault(dealer, Totals()).add(totals)
        dealer_tables[dealer].add(r.table_id)
        mode = r.rake_mode or "unknown"
        if totals.booked and (totals.rake or mode not in entry.rake_by_mode):
            entry.rake_by_mode[mode] = entry.rake_by_mode.get(mode, 0) + totals.rake
            report.rake_by_mode[mode] = report.rake_by_mode.get(mode, 0) + totals.rake
        if totals.booked and totals.pot_rake:  # "none ... 50" read as rake taken unposted
            entry.pot_rake_by_mode[mode] = entry.pot_rake_by_mode.get(mode, 0) + totals.pot_rake
            report.pot_rake_by_mode[mode] = (report.pot_rake_by_mode.get(mode, 0)
                                             + totals.pot_rake)
        for f in hand.findings:
            counts[key][(f.rule, f.severity, f.code)] += 1
        if hand.needs_review:
            report.review.append(_review_line(hand))
    report.tables = [by_table[k] for k in sorted(by_table, key=lambda k: (k[0], k[1] or ""))]
    overall: Counter[tuple[str, str, str]] = Counter()
    for table_key, entry in by_table.items():
        entry.findings = _finding_counts(counts[table_key])
        overall.update(counts[table_key])
    report.findings = _finding_counts(overall)
    report.dealer_tables = {d: sorted(t) for d, t in sorted(dealer_tables.items())}
    report.dealers = dict(sorted(report.dealers.items()))
    return report


def _with_findings(counted: list[FindingCount], more: Iterable[Finding]
                   ) -> list[FindingCount]:
    """``counted`` with ``more`` counted in, in the same order."""
    counts: Counter[tuple[str, str, str]] = Counter(
        {(c.rule, c.severity, c.code): c.count for c in counted})
    counts.update((f.rule, f.severity, f.code) for f in more)
    return _finding_counts(counts)


def _finding_counts(counts: Counter[tuple[str, str, str]]) -> list[FindingCount]:
    def order(item: tuple[tuple[str, str, str], int]) -> tuple[str, int, str]:
        (rule, severity, code), _ = item
        return rule, SEVERITY_ORDER.index(severity) if severity in SEVERITY_ORDER else 9, code

    return [FindingCount(rule, severity, code, n)
            for (rule, severity, code), n in sorted(counts.items(), key=order)]


def _review_line(hand: BookedHand) -> ReviewHand:
    r = hand.record
    severities = {f.severity for f in hand.findings}
    worst = next((s for s in SEVERITY_ORDER if s in severities), "none")
    codes = ", ".join(sorted({f"{f.code} ({f.rule})" for f in hand.findings}))
    return ReviewHand(r.hand_id, r.table_id, r.game, r.status, hand.booked, r.dealer_id,
                      r.ended_at, worst, codes, hand.conflicts)


def records_of_day(
    records: Iterable[AdjudicationRecord], day: dt.date, table: str | None = None
) -> list[BookedHand]:
    """Records that ended on ``day`` (UTC), optionally of one table, as booked hands."""
    prefix = day.isoformat()
    return [BookedHand(r) for r in records
            if r.ended_at is not None and r.ended_at.startswith(prefix)
            and (table is None or r.table_id == table)]


# ---------------------------------------------------------------- from the ledger


def ledger_hands(conn: Connection, day: dt.date, table: str | None,
                 review: Collection[str]) -> list[BookedHand]:
    """The day's hands as booked, with the ledger's own findings (refusals, conflicts);
    those in ``review`` (``hands_to_review``) to review."""
    from services.ledger.models import Hand

    query = select(Hand.hand_id, Hand.record_json, Hand.ledger_status).where(Hand.day == day)
    if table is not None:
        query = query.where(Hand.table_id == table)
    return _booked_hands(conn, conn.execute(query.order_by(Hand.hand_id)).all(), review)


def undated_ledger_hands(conn: Connection, day: dt.date, table: str | None,
                         review: Collection[str]) -> list[BookedHand]:
    """The hands booked without a day whose last archived events are of ``day``: a
    rejected hand's record carries no ``ended_at``, so it has no day of its own, and was
    in no day's report, though it is the kind a reviewer most needs to see."""
    from services.archive.queries import undated_hands
    from services.ledger.models import Hand

    found = undated_hands(conn, day, day, table)
    ids = sorted(hand for hands in found.values() for hand in hands)
    rows = [row for start in range(0, len(ids), IDS_PER_QUERY)
            for row in conn.execute(
                select(Hand.hand_id, Hand.record_json, Hand.ledger_status)
                .where(Hand.hand_id.in_(ids[start:start + IDS_PER_QUERY]))
                .order_by(Hand.hand_id)).all()]
    return _booked_hands(conn, rows, review)


def _booked_hands(conn: Connection, rows: Sequence[Row[str, str, str]],
                  review: Collection[str]) -> list[BookedHand]:
    """The rows' records as booked hands, each with the ledger's own findings and the
    re-posts of it the ledger refused (``conflicts``: kept apart from the findings rows,
    since the booked hand's rows never change)."""
    from services.ledger.models import Conflict, FindingRow

    extra: dict[str, list[Finding]] = defaultdict(list)
    conflicts: dict[str, list[ConflictLine]] = defaultdict(list)
    ids = [row.hand_id for row in rows]
    for start in range(0, len(ids), IDS_PER_QUERY):
        chunk = ids[start:start + IDS_PER_QUERY]
        for c in conn.execute(
                select(Conflict.hand_id, Conflict.offered_sha256, Conflict.stored_sha256,
                       Conflict.detail)
                .where(Conflict.hand_id.in_(chunk))
                .order_by(Conflict.hand_id, Conflict.offered_sha256)):
            conflicts[c.hand_id].append(
                ConflictLine(c.offered_sha256, c.stored_sha256, c.detail))
        found = conn.execute(
            select(FindingRow.hand_id, FindingRow.code, FindingRow.rule, FindingRow.severity,
                   FindingRow.seat, FindingRow.amount, FindingRow.message)
            .where(FindingRow.origin == "ledger",
                   FindingRow.hand_id.in_(chunk))
            .order_by(FindingRow.hand_id, FindingRow.ordinal))
        for f in found:
            extra[f.hand_id].append(Finding(code=f.code, rule=f.rule, severity=f.severity,
                                            seat=f.seat, amount=f.amount, message=f.message))
    return [BookedHand(decode_record(row.record_json), row.ledger_status == "posted",
                       tuple(extra.get(row.hand_id, ())),
                       tuple(conflicts.get(row.hand_id, ())), row.hand_id in review)
            for row in rows]


def reconcile(engine: Engine, report: DailyReport) -> list[ReconciliationRow]:
    """The report's per-table figures beside the ledger's own SQL totals."""
    from services.ledger.queries import rake_totals, table_day_totals

    mine: dict[str, Totals] = defaultdict(Totals)
    my_rake: dict[tuple[str, str], int] = defaultdict(int)
    for entry in report.tables:
        mine[entry.table_id].add(entry.totals)
        for mode, amount in entry.rake_by_mode.items():
            my_rake[(entry.table_id, mode)] += amount
    ledger = {t.table_id: t for t in table_day_totals(engine)
              if t.day == report.day and (report.table is None or t.table_id == report.table)}
    rows: list[ReconciliationRow] = []
    for table_id in sorted(set(mine) | set(ledger)):
        t, m = ledger.get(table_id), mine.get(table_id, Totals())
        # Drop and payouts leave dead hands out on both sides (``counts_as_drop``,
        # ``payout_posting``): compared as they are.
        for name, value, theirs in (
            ("hands", m.hands, t.hands if t else 0),
            ("drop", m.drop, t.drop if t else 0),
            ("payouts", m.payouts, t.payouts if t else 0),
            ("rake", m.rake, t.rake if t else 0),
            ("house bank", m.bank, t.house_win if t else 0),
        ):
            rows.append(ReconciliationRow(table_id, name, value, theirs))
    ledger_rake = {(r.table_id, r.mode or "unknown"): r.amount for r in rake_totals(engine)
                   if r.day == report.day
                   and (report.table is None or r.table_id == report.table)}
    for table_id, mode in sorted(set(ledger_rake) | {k for k, v in my_rake.items() if v}):
        rows.append(ReconciliationRow(table_id, f"rake, mode {mode}",
                                      my_rake.get((table_id, mode), 0),
                                      ledger_rake.get((table_id, mode), 0)))
    return rows


def daily_from_ledger(
    engine: Engine, day: dt.date, table: str | None = None, source: str = "ledger"
) -> DailyReport:
    with engine.connect() as conn:
        review = {h.hand_id for h in hands_to_review(conn, day, table)}
        report = daily_report(ledger_hands(conn, day, table, review), day, table, source)
        undated = undated_ledger_hands(conn, day, table, review)
    report.from_ledger = True
    report.reconciliation = reconcile(engine, report)
    add_undated(report, undated)
    # The alerts ``surveil --db`` archived: a day's alerts file, written again by a
    # re-run, held none of them, and the report said the day had none (QA). With them,
    # those raised on no hand by an event of the day (``table_alerts``).
    hand_less = archived_of_day(engine, day, table)
    report.hand_less_keys.update(alert_key(a) for a in hand_less)
    report.attach_alerts(union(concerning(engine, report.hand_keys), hand_less),
                         ARCHIVED_ALERTS)
    return report


def add_undated(report: DailyReport, hands: Iterable[BookedHand]) -> None:
    """Hands without a day of their own (``undated_ledger_hands``) to the hands to
    review, after the day's own, and to its table's and dealer's count of them (which
    are then the floor's, ``hands_to_review``), and their findings to the day's findings
    (section 2 and the findings columns: a SEQ_GAP that cut a hand short was in no count
    of the day, QA); not to the day's hands or money, which the ledger keeps by day (the
    reconciliation compares them)."""
    findings: dict[int, tuple[TableDay, list[Finding]]] = {}  # id(entry) -> theirs
    for hand in hands:
        r = hand.record
        if hand.needs_review:
            report.review.append(_review_line(hand))
            report.undated += 1
            entry = next((t for t in report.tables if (t.table_id, t.game)
                          == (r.table_id, r.game)), None)
            if entry is None:  # the table has no hand of its own that day
                entry = TableDay(r.table_id, r.game,
                                 GAME_NAMES.get(r.game or "", r.game or "unknown"))
                report.tables = sorted([*report.tables, entry],
                                       key=lambda t: (t.table_id, t.game or ""))
            dealer = r.dealer_id or "unknown"
            for totals in (entry.totals, report.totals,
                           entry.dealers.setdefault(dealer, Totals()),
                           report.dealers.setdefault(dealer, Totals())):
                totals.review += 1
                totals.findings += len(hand.findings)
            findings.setdefault(id(entry), (entry, []))[1].extend(hand.findings)
            if r.table_id not in report.dealer_tables.setdefault(dealer, []):
                report.dealer_tables[dealer] = sorted([*report.dealer_tables[dealer],
                                                       r.table_id])
        report.hand_keys.add((r.table_id, r.hand_id))
    for entry, theirs in findings.values():
        entry.findings = _with_findings(entry.findings, theirs)
    report.findings = _with_findings(report.findings,
                                     [f for _, theirs in findings.values() for f in theirs])
    report.dealers = dict(sorted(report.dealers.items()))
    report.dealer_tables = dict(sorted(report.dealer_tables.items()))
