"""Surveillance alerts (SURV-2..8) for the daily report, read from an alerts JSONL file.

Why a file and not the ledger: alerts are not chips, the ledger books none of them; the
surveillance run writes them as JSON lines (``pitwatch surveil --out``, the demo's
``alerts.jsonl``, or a dump of the ``alerts`` topic), one ``Alert`` per line, evidence
included.

Which alerts concern a day (and a table): those raised on, or citing as evidence, one of
the hands the report covers. A cross-hand alert has no date of its own; its hands do. So
an alert whose evidence spans two days appears in both days' reports, and an alert about
another table's hands does not appear in a one-table report.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from services.events.contract import Alert
from services.events.logfile import open_log

# Who or what an alert is about, in the order a reader names it (evidence keys).
SUBJECT_KEYS = (("dealer", "dealer"), ("table", "table"), ("player", "player"),
                ("from_player", "from"), ("to_player", "to"), ("players", "players"),
                ("kind", "kind"))


@dataclass(frozen=True)
class CitedHand:
    table_id: str
    hand_id: str
    seat: int | None
    amount: int | None


@dataclass(frozen=True)
class AlertLine:
    """One alert as the report prints it."""

    table_id: str
    hand_id: str | None  # the hand on which the pattern crossed its threshold
    rule: str
    code: str
    severity: str
    subject: str
    message: str
    count: str
    statistic: str
    p_value: str
    threshold: str
    hands: tuple[CitedHand, ...]


def read_alerts(path: Path) -> list[Alert]:
    """Every alert of a JSONL file (blank lines skipped; a bad line is an error)."""
    decoder = msgspec.json.Decoder(Alert)
    with open_log(path) as fh:
        return [decoder.decode(line) for line in fh.read().splitlines() if line.strip()]


def cited_hands(alert: Alert) -> tuple[CitedHand, ...]:
    out: list[CitedHand] = []
    for ref in (alert.evidence or {}).get("hands", []):
        seat, amount = ref.get("seat"), ref.get("amount")
        out.append(CitedHand(str(ref["table_id"]), str(ref["hand_id"]),
                             seat if isinstance(seat, int) else None,
                             amount if isinstance(amount, int) else None))
    return tuple(out)


def subject(evidence: Mapping[str, Any]) -> str:
    """"dealer D1, player P7"; "table T3, kind mispay"; "players A, B"."""
    parts = []
    for key, name in SUBJECT_KEYS:
        value = evidence.get(key)
        if value is None:
            continue
        text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        parts.append(f"{name} {text}")
    return ", ".join(parts) or "–"


def _number(value: Any, spec: str) -> str:
    return format(value, spec) if isinstance(value, int | float) else "–"


def alert_line(alert: Alert) -> AlertLine:
    ev = alert.evidence or {}
    return AlertLine(
        table_id=alert.table_id, hand_id=alert.hand_id, rule=alert.rule, code=alert.code,
        severity=alert.severity, subject=subject(ev), message=alert.message,
        count=str(ev["count"]) if "count" in ev else "–",
        statistic=str(ev.get("statistic", "–")),
        p_value=_number(ev.get("p_value"), ".2e"),
        threshold=_number(ev.get("threshold"), "g"),
        hands=cited_hands(alert))


def alerts_concerning(alerts: Iterable[Alert],
                      hands: set[tuple[str, str]]) -> list[AlertLine]:
    """The alerts raised on or citing one of ``hands`` ((table_id, hand_id) pairs), in
    table, rule and hand order."""
    lines = []
    for alert in alerts:
        named = {(h.table_id, h.hand_id) for h in cited_hands(alert)}
        if alert.hand_id is not None:
            named.add((alert.table_id, alert.hand_id))
        if named & hands:
            lines.append(alert_line(alert))
    return sorted(lines, key=lambda a: (a.table_id, a.rule, a.hand_id or "", a.code,
                                        a.subject))
