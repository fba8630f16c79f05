"""Reading the ledger back: balances, rake, daily table totals, one hand.

Why every figure is computed from postings and rake rows (never stored totals): the
postings are the book; a total kept anywhere else could drift from it. The daily report
and the CLI call these functions and nothing else.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from dataclasses import dataclass

import msgspec
from sqlalchemy import (
    BigInteger,
    ColumnElement,
    ColumnExpressionArgument,
    Engine,
    case,
    cast,
    func,
    select,
)

from services.events.contract import AdjudicationRecord, Finding, decode_record
from services.games.unknown_profiles import UNKNOWN_PROFILE_CODE
from services.ledger.models import Account, Conflict, FindingRow, Hand, Posting, Rake

# ---------------------------------------------------------------- drop, defined once
#
# The drop is the chips wagered on layouts and bet into pots (movements ``wager`` and
# ``bet``) in hands that were played out: not in a dead hand (GEN-6 / HCF-13), whose
# every wager goes back to its player, so none was at risk; counted, they diluted the
# hold (two dead hands read "Drop 40, Hold 0.00"). The daily report (from each booked
# record's movements: ``counts_as_drop``), the console's floor and ``ledger totals``
# (from the postings: ``drop_posting``) take it from here, so the three show one drop
# for one day. It was written out in each, and only some left dead hands out (QA: the
# ledger's totals counted them after the report and the floor had stopped).

DROP_KINDS = ("wager", "bet")
NOT_PLAYED_OUT = "dead"  # the hand status whose wagers all went back


def counts_as_drop(kind: str, hand_status: str) -> bool:
    """Whether a movement of ``kind`` in a hand of ``hand_status`` is drop (its amount)."""
    return kind in DROP_KINDS and hand_status != NOT_PLAYED_OUT


def payout_posting() -> ColumnElement[bool]:
    """A payout's debit leg in a hand that was played out: a dead hand's refunds are not
    payouts, as its wagers are not drop, so that one day's drop and payouts (the report's,
    the floor's and ``ledger totals``') leave the same hands out."""
    return (Posting.kind == "payout") & (Posting.amount > 0) & (Hand.status != NOT_PLAYED_OUT)


def drop_posting() -> ColumnElement[bool]:
    """``counts_as_drop`` of a posting joined to its hand (``Hand``), in SQL: the debit
    leg (``amount > 0``: each movement's chips once; the credit leg is their negative) of
    a wager or bet in a hand that was played out."""
    return (Posting.kind.in_(DROP_KINDS) & (Posting.amount > 0)
            & (Hand.status != NOT_PLAYED_OUT))


@dataclass(frozen=True)
class AccountBalance:
    name: str
    kind: str
    balance: int
    postings: int
    table_id: str | None
    seat: int | None
    player_id: str | None


@dataclass(frozen=True)
class PlayerBalance:
    player_id: str
    balance: int


@dataclass(frozen=True)
class RakeTotal:
    """Rake net of refunds for one table, posted mode and UTC day (``None`` when the
    record carried no ``ended_at`` / ``rake_mode``)."""

    table_id: str
    mode: str | None
    day: dt.date | None
    amount: int
    hands: int


@dataclass(frozen=True)
class TableDayTotal:
    """One table's day. ``drop``: chips wagered on layouts plus bet into pots, not in a
    dead hand (``drop_posting``). ``payouts``: chips paid to seats (wins, bonuses, pots,
    refunds), not in a dead hand (``payout_posting``). ``rake``: net to the house rake
    account.
    ``house_win``: net to the house bank (house-banked games)."""

    table_id: str
    day: dt.date | None
    hands: int
    drop: int
    payouts: int
    rake: int
    house_win: int


@dataclass(frozen=True)
class HandPosting:
    event_id: str
    leg: int
    seq: int
    account: str
    amount: int
    kind: str


@dataclass(frozen=True)
class StoredHand:
    """A booked hand: the record exactly as stored, how the ledger took it, its postings,
    its findings (the record's and the ledger's) and any refused re-posts."""

    record: AdjudicationRecord
    ledger_status: str
    record_sha256: str
    postings: list[HandPosting]
    findings: list[Finding]
    conflicts: list[str]


def balances(engine: Engine, kind: str | None = None) -> list[AccountBalance]:
    """Every account's balance (sum of its postings), by name; optionally one kind.

    The postings are summed per account in one pass, then joined to the accounts: joined
    first, SQLite scanned every posting once per account (postings have no index by
    account), 93 s for a 20,000-hand ledger (1 M postings, 1,478 accounts); now 1 s."""
    per_account = (
        select(Posting.account, chips_sum(Posting.amount).label("balance"),
               func.count(Posting.amount).label("postings"))
        .group_by(Posting.account)
        .subquery()
    )
    query = (
        select(
            Account.name,
            Account.kind,
            cast(func.coalesce(per_account.c.balance, 0), BigInteger),
            func.coalesce(per_account.c.postings, 0),
            Account.table_id,
            Account.seat,
            Account.player_id,
        )
        .outerjoin(per_account, per_account.c.account == Account.name)
        .order_by(Account.name)
    )
    if kind is not None:
        query = query.where(Account.kind == kind)
    with engine.connect() as conn:
        return [AccountBalance(*row) for row in conn.execute(query)]


def player_balances(engine: Engine) -> list[PlayerBalance]:
    """Each player's net chips over everything booked, by player id."""
    return [
        PlayerBalance(account.player_id, account.balance)
        for account in balances(engine, kind="player")
        if account.player_id is not None
    ]


def rake_totals(engine: Engine) -> list[RakeTotal]:
    """Rake per table, per posted mode, per UTC day."""
    query = (
        select(
            Rake.table_id,
            Rake.mode,
            Rake.day,
            chips_sum(Rake.amount),
            func.count(func.distinct(Rake.hand_id)),
        )
        .group_by(Rake.table_id, Rake.mode, Rake.day)
        .order_by(Rake.table_id, Rake.day, Rake.mode)
    )
    with engine.connect() as conn:
        return [RakeTotal(*row) for row in conn.execute(query)]


def table_day_totals(engine: Engine) -> list[TableDayTotal]:
    """Per table and UTC day: hands booked, drop, payouts, rake and house win."""

    query = (
        select(
            Hand.table_id,
            Hand.day,
            func.count(func.distinct(Hand.hand_id)),
            _sum_where(drop_posting()),
            _sum_where(payout_posting()),
            _sum_where(Account.kind == "house_rake"),
            _sum_where(Account.kind == "house_bank"),
        )
        .outerjoin(Posting, Posting.hand_id == Hand.hand_id)
        .outerjoin(Account, Account.name == Posting.account)
        .group_by(Hand.table_id, Hand.day)
        .order_by(Hand.table_id, Hand.day)
    )
    with engine.connect() as conn:
        return [TableDayTotal(*row) for row in conn.execute(query)]


def _sum_where(condition: ColumnElement[bool]) -> ColumnElement[int]:
    """Sum of the postings' amounts that meet ``condition`` (0 when none do)."""
    return chips_sum(case((condition, Posting.amount), else_=0))


def chips_sum(amount: ColumnExpressionArgument[int]) -> ColumnElement[int]:
    """SUM as an integer on every backend: PostgreSQL sums BIGINT into NUMERIC, which the
    driver returns as ``Decimal``; chips are ``int``, never anything else."""
    return cast(func.coalesce(func.sum(amount), 0), BigInteger)


def stored_record(engine: Engine, hand_id: str) -> AdjudicationRecord | None:
    """The record as booked (byte-identical to what was posted), or None."""
    with engine.connect() as conn:
        raw = conn.execute(select(Hand.record_json).where(Hand.hand_id == hand_id)).scalar()
    return None if raw is None else decode_record(raw)


def stored_hand(engine: Engine, hand_id: str) -> StoredHand | None:
    """Everything the ledger holds about one hand, or None if it was never booked."""
    with engine.connect() as conn:
        hand = conn.execute(
            select(Hand.record_json, Hand.ledger_status, Hand.record_sha256).where(
                Hand.hand_id == hand_id
            )
        ).first()
        if hand is None:
            return None
        postings = conn.execute(
            select(
                Posting.event_id,
                Posting.leg,
                Posting.seq,
                Posting.account,
                Posting.amount,
                Posting.kind,
            )
            .where(Posting.hand_id == hand_id)
            .order_by(Posting.seq, Posting.event_id, Posting.leg)
        ).all()
        findings = conn.execute(
            select(
                FindingRow.code,
                FindingRow.rule,
                FindingRow.severity,
                FindingRow.seat,
                FindingRow.amount,
                FindingRow.message,
            )
            .where(FindingRow.hand_id == hand_id)
            .order_by(FindingRow.ordinal)
        ).all()
        conflicts = conn.execute(
            select(Conflict.offered_sha256, Conflict.detail)
            .where(Conflict.hand_id == hand_id)
            .order_by(Conflict.offered_sha256)
        ).all()
    return StoredHand(
        record=decode_record(hand.record_json),
        ledger_status=hand.ledger_status,
        record_sha256=hand.record_sha256,
        postings=[HandPosting(*row) for row in postings],
        findings=[msgspec.convert(row._asdict(), Finding) for row in findings],
        conflicts=[f"{sha[:12]}: {detail}" for sha, detail in conflicts],
    )


def judged_under_unknown(engine: Engine, known: Collection[str], first_day: dt.date | None,
                         last_day: dt.date | None, table_id: str | None = None,
                         hand_ids: Collection[str] | None = None) -> dict[str, int]:
    """The rule profiles the span's booked hands (or ``hand_ids``, of any day) were judged
    under that ``known`` lacks, with their hands: a run that re-derives them without
    those profiles (a shell without ``PITWATCH_PROFILES``) judges every such hand
    "unknown rule profile", a difference that says nothing of the log or the booking.
    Hands judged unknown when booked are left out: for them the run is the same."""
    judged_unknown = select(FindingRow.hand_id).where(FindingRow.hand_id == Hand.hand_id,
                                                      FindingRow.code == UNKNOWN_PROFILE_CODE)
    query = (select(Hand.rule_profile, func.count())
             .where(Hand.rule_profile.is_not(None), Hand.rule_profile.not_in(list(known)),
                    ~judged_unknown.exists())
             .group_by(Hand.rule_profile).order_by(Hand.rule_profile))
    if first_day is not None:
        query = query.where(Hand.day >= first_day)
    if last_day is not None:
        query = query.where(Hand.day <= last_day)
    if hand_ids is not None:
        query = query.where(Hand.hand_id.in_(sorted(hand_ids)))
    if table_id is not None:
        query = query.where(Hand.table_id == table_id)
    with engine.connect() as conn:
        return {name: count for name, count in conn.execute(query).tuples() if name}
