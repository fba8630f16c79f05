"""The alerts the database archived (``archive_alerts``) that concern some hands: the
daily report's section 5 from ``--ledger`` alone, and what ``surveil --db`` writes again
to ``--out`` for hands an earlier run counted (``raised_before``).

Why from the database: ``surveil --db`` archives its alerts there (and opens cases from
them), while its ``--out`` file holds only what that run raised. A day surveilled again
raises nothing new (its hands were counted), so the day's file, written again, was empty,
and a daily report given it said "no alert concerns this day's hands" of a day with 9
(QA). The archive holds them all, each once (by its key, ``services.archive.alerts``).

Which rows are read: those raised on one of the hands (by the archive's index on
``hand_id``), and every cross-hand alert (SURV-2..8), since one raised on a later hand
may cite these as evidence; the selection is then ``alerts.concerns``, the one the
``--alerts FILE`` path makes. Cross-hand alerts are few (a pattern crossing its
threshold: a handful a day), so reading them all costs less than a join would save.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from sqlalchemy import Engine, select

from services.archive.alerts import alert_key
from services.events.contract import Alert, decode_alert
from services.ledger.archive_tables import ArchiveAlert
from services.reports.alerts import concerns
from services.reports.day_figures import IDS_PER_QUERY
from services.surveillance.alert_id import SUBJECTS

ARCHIVED_ALERTS = "the database's archived alerts"  # the source a report names
CROSS_HAND_RULES = tuple(sorted(SUBJECTS))  # SURV-2..8: what ``surveil`` raises


def raised_on(engine: Engine, hands: Collection[tuple[str, str]],
              rules: Collection[str] | None = None) -> list[Alert]:
    """The archived alerts raised on one of ``hands`` ((table_id, hand_id) pairs), of
    ``rules`` only when given, in key order."""
    keys = set(hands)
    ids = sorted({hand_id for _, hand_id in keys})
    found: dict[str, str] = {}
    with engine.connect() as conn:
        for start in range(0, len(ids), IDS_PER_QUERY):
            query = (select(ArchiveAlert.alert_id, ArchiveAlert.table_id,
                            ArchiveAlert.hand_id, ArchiveAlert.alert_json)
                     .where(ArchiveAlert.hand_id.in_(ids[start:start + IDS_PER_QUERY])))
            if rules is not None:
                query = query.where(ArchiveAlert.rule.in_(sorted(rules)))
            for row in conn.execute(query):
                if (row.table_id, row.hand_id) in keys:
                    found[row.alert_id] = row.alert_json
    return [decode_alert(found[k]) for k in sorted(found)]


def concerning(engine: Engine, hands: set[tuple[str, str]]) -> list[Alert]:
    """The archived alerts raised on or citing one of ``hands``, in key order."""
    with engine.connect() as conn:
        cross = conn.execute(select(ArchiveAlert.alert_json)
                             .where(ArchiveAlert.rule.in_(CROSS_HAND_RULES))).scalars().all()
    candidates = [*raised_on(engine, hands), *map(decode_alert, cross)]
    return union([a for a in candidates if concerns(a, hands)])


def union(*lists: Iterable[Alert]) -> list[Alert]:
    """The alerts of all ``lists``, each once (by its archive key: an alert in both the
    database and a file is the same alert), in key order."""
    out: dict[str, Alert] = {}
    for alerts in lists:
        for alert in alerts:
            out.setdefault(alert_key(alert), alert)
    return [out[k] for k in sorted(out)]


def raised_before(engine: Engine, repeated: Collection[tuple[str, str]],
                  raised: Iterable[Alert]) -> list[Alert]:
    """The cross-hand alerts (SURV-2..8) the database holds raised on ``repeated``
    (hands an earlier ``surveil --db`` run counted, which this one did not count again),
    but not among ``raised`` (this run's): what the run would have raised again.

    Why ``surveil --db`` writes them again to ``--out``: the guide's routine writes a
    day's alerts to ``alerts/DAY.jsonl``; a day surveilled again raised nothing, and its
    file, overwritten with nothing, no longer held the day's alerts (QA). Written again,
    the file is the day's whatever the run: the alerts are the same (by key) as the
    database holds, not new ones (no case is opened twice)."""
    new = {alert_key(a) for a in raised}
    return [a for a in raised_on(engine, repeated, CROSS_HAND_RULES)
            if alert_key(a) not in new]
