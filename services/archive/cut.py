"""Checkpoints at a retention cut: each table's state after its last event in the days
``pitwatch archive detach`` is about to detach.

Why: after a detach, a table's live archive starts part way through its chain, and the
table as it stood there (configuration, seats, stacks, the chain's window) is only in the
detached days. ``pitwatch archive checkpoint`` stores a state every 100,000 lines, so the
last one before the cut usually lies inside a detached day, where it cannot be used (the
events after it are cold): every hand from the table's first live event to its next
checkpoint was reportable from the booking only, and ``pitwatch replay`` refused the
table altogether (QA). A checkpoint made at the cut itself (after the table's last
archived segment of the detached days) is continued by the first live event: reports and
replay start there.

Making one replays what is being detached since the table's last usable checkpoint (or
from its first event), through the same ``Walk`` the nightly checkpoints use, so ``pitwatch
verify`` derives the checkpoints after it from it as it derives any other.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlalchemy import Connection, Engine, func, select, tuple_

from services.archive.checkpoints import (
    TRIES,
    Checkpoint,
    Key,
    Walk,
    checkpoints_of,
    insert_checkpoints,
    readable,
    why_not_usable,
)
from services.archive.partitions import detached_tables
from services.archive.reader import DamagedRow, segment_bodies
from services.games.profile import Profiles
from services.ledger.archive_tables import ArchiveSegment


@dataclass(frozen=True)
class CutPlan:
    """One table's checkpoint at the cut: its last segment in the days detached
    (``key``, on ``day``), the usable checkpoint to walk from (None: its first segment),
    and the archived lines that walk replays. ``why_not``: it cannot be made (the
    table's earlier days are detached and no checkpoint holds), and ``already``: a
    usable checkpoint sits at the cut already (a repeat)."""

    table_id: str
    key: Key
    day: dt.date
    start: Checkpoint | None
    lines: int
    already: bool = False
    why_not: str | None = None


@dataclass
class CutMade:
    """What ``make_cut_checkpoints`` did: checkpoints made, lines replayed, and the tables
    whose checkpoint could not be made, each with why (``failed``: the detach must not
    go on, their later hands would silently become booking-only)."""

    made: int = 0
    lines: int = 0
    failed: list[str] = field(default_factory=list)  # "table T: why": detach refused
    # Tables whose re-derivability was lost before this detach (their earlier days
    # detached with no cut checkpoint) or that hold nothing to keep: said, not refused.
    noted: list[str] = field(default_factory=list)


def plan_cut(engine: Engine, profiles: Profiles, days: list[dt.date]) -> list[CutPlan]:
    """Each table with segments in ``days``: where its cut checkpoint goes and what making
    it costs (read only: the dry run says it)."""
    s = ArchiveSegment
    plans = []
    with engine.connect() as conn:
        tables = conn.execute(select(s.table_id).distinct().where(s.day.in_(days))
                              .order_by(s.table_id)).scalars().all()
        for table in tables:
            last = conn.execute(select(s.head_seq, s.ordinal, s.day).where(
                s.table_id == table, s.day.in_(days))
                .order_by(s.head_seq.desc(), s.ordinal.desc()).limit(1)).one()
            plans.append(_plan(conn, profiles, table, (last.head_seq, last.ordinal),
                               last.day))
    return plans


def _plan(conn: Connection, profiles: Profiles, table: str, key: Key, day: dt.date
          ) -> CutPlan:
    start = None
    below = (key[0], key[1] + 1)  # keys up to the cut's own
    for checkpoint in list(checkpoints_of(conn, table, below, latest_first=True,
                                          limit=TRIES)):
        if why_not_usable(conn, checkpoint) is None and readable(profiles, checkpoint):
            start = checkpoint
            break
    if start is not None and start.key == key:
        return CutPlan(table, key, day, start, 0, already=True)
    if start is None and detached_tables(conn, table):
        return CutPlan(table, key, day, None, 0, why_not=(
            "its earlier days were detached with no checkpoint at their cut (by an older "
            "pitwatch), so its state there cannot be derived; its later hands were "
            "booking-only already"))
    s = ArchiveSegment
    query = select(func.coalesce(func.sum(s.events), 0)).where(
        s.table_id == table, tuple_(s.head_seq, s.ordinal) <= tuple_(*key))
    if start is not None:
        query = query.where(tuple_(s.head_seq, s.ordinal) > tuple_(*start.key))
    return CutPlan(table, key, day, start, int(conn.execute(query).scalar_one()))


def make_cut_checkpoints(engine: Engine, plans: list[CutPlan], profiles: Profiles, at: str
                         ) -> CutMade:
    """The planned checkpoints, made and stored (a table already checkpointed at its cut
    is passed by; one that cannot be made goes to ``failed`` or ``noted``, with why).
    Nothing is stored when one failed: the detach is refused, and a repeat plans again."""
    done = CutMade()
    rows: list[Checkpoint] = []
    for plan in plans:
        if plan.already:
            continue
        if plan.why_not is not None:
            done.noted.append(f"table {plan.table_id}: {plan.why_not}")
            continue
        walk = Walk.start(plan.table_id, profiles, plan.start)
        try:
            with engine.connect() as conn:
                for _, _, _, hand_id, body in segment_bodies(
                        conn, plan.table_id, plan.start.key if plan.start else None,
                        plan.key):
                    walk.take(hand_id, body)
        except DamagedRow as exc:
            done.failed.append(f"table {plan.table_id}: {exc} (`pitwatch verify` lists it)")
            continue
        made = walk.checkpoint(plan.key[0], plan.key[1], plan.day, at)
        if made is None:
            done.noted.append(f"table {plan.table_id}: the intake took no line of it, so "
                              "it has no state to keep")
            continue
        rows.append(made)
        done.lines += walk.lines - (plan.start.lines if plan.start else 0)
    if not done.failed:
        insert_checkpoints(engine, rows)
        done.made = len(rows)
    return done
