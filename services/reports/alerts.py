"""Surveillance alerts (SURV-2..8) for the daily report, read from an alerts JSONL file
or from the database's event archive.

Alerts are not chips, the ledger books none of them; the surveillance run writes them as
JSON lines (``pitwatch surveil --out``, the demo's ``alerts.jsonl``, or a dump of the
``alerts`` topic), one ``Alert`` per line, evidence included, and ``surveil --db`` (as
``serve archive``) also archives them in the database (``archive_alerts``,
``services.reports.archived_alerts`` reads them back).

Which alerts concern a day (and a table): those raised on, or citing as evidence, one of
the hands the report covers. A cross-hand alert has no date of its own; its hands do. So
an alert whose evidence spans two days appears in both days' reports, and an alert about
another table's hands does not appear in a one-table report. An alert raised on no hand
(GEN-4 cash between hands, GEN-5 configuration, SURV-9 outside a hand) names no hand: it
concerns the day of the event that raised it (``services.reports.table_alerts``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.events.contract import Alert, decode_alert
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
    seq: int | None = None  # of the event that raised it (an alert on no hand: shown)

    @property
    def has_statistic(self) -> bool:
        """Whether the alert tests a count against chance (SURV-2..SURV-8); a SURV-9
        chain alert has no count, p-value or threshold, and shows no empty cells for
        them."""
        return self.p_value != "–" or self.count != "–"


# What each statistic the surveillance writes means, in words; the formula follows them
# (evidence names in it are the alert's evidence fields). Longest first: a prefix match.
STATISTIC_WORDS = (
    ("P(X >= count), X ~ Binomial(dealer_events, expected_share)",
     "The probability of a count at least this high if each of the dealer's events "
     "(dealer_events) went to this player only at the player's expected share "
     "(expected_share): a binomial probability."),
    ("P(X >= count), X ~ Binomial(floor_count, hands_dealt / floor_hands)",
     "The probability of a count at least this high if the floor's events (floor_count) "
     "fell here only in proportion to the hands dealt here (hands_dealt out of "
     "floor_hands): a binomial probability."),
    ("P(X >= count), X ~ Binomial(trials, true_probability)",
     "The probability of at least this many such hands in this many chances (trials) "
     "when each has the hand's true probability (true_probability): a binomial "
     "probability."),
    ("P(T <= ",
     "The probability of this few aggressive decisions or fewer if each decision were "
     "made at random among comparable situations (the strata): a sum of hypergeometric "
     "counts."),
    ("P(T >= ",
     "The probability of a count at least this high if the decisions fell at random "
     "among comparable situations (the strata): a sum of hypergeometric counts."),
)


def statistic_words(statistic: str) -> str:
    """The statistic in plain words, then its formula ("In symbols: ..."); a statistic
    this report does not know is shown as written."""
    for start, words in STATISTIC_WORDS:
        if statistic.startswith(start):
            return f"{words} In symbols: {statistic}"
    return statistic


def read_alerts(path: Path) -> list[Alert]:
    """Every alert of a JSONL file (blank lines skipped; a bad line is an error)."""
    with open_log(path) as fh:
        return [decode_alert(line) for line in fh.read().splitlines() if line.strip()]


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
        statistic=statistic_words(str(ev.get("statistic", "–"))),
        # As the alert's message writes them (``p = 1.23e-09 <= 6.8e-08``), so that each
        # number reads the same in both places (the threshold was "6.75475e-08" here).
        p_value=_number(ev.get("p_value"), ".2e"),
        threshold=_number(ev.get("threshold"), ".2g"),
        hands=cited_hands(alert), seq=alert.seq)


def alerts_concerning(alerts: Iterable[Alert],
                      hands: set[tuple[str, str]]) -> list[AlertLine]:
    """The alerts raised on or citing one of ``hands`` ((table_id, hand_id) pairs), in
    table, rule and hand order."""
    return alert_lines(alert for alert in alerts if concerns(alert, hands))


def alert_lines(alerts: Iterable[Alert]) -> list[AlertLine]:
    """``alerts`` as the report prints them, in table, rule and hand order (alerts
    otherwise alike by the seq of their event)."""
    lines = [alert_line(alert) for alert in alerts]
    return sorted(lines, key=lambda a: (a.table_id, a.rule, a.hand_id or "", a.code,
                                        a.subject, -1 if a.seq is None else a.seq))


def concerns(alert: Alert, hands: set[tuple[str, str]]) -> bool:
    """Whether ``alert`` was raised on, or cites as evidence, one of ``hands``."""
    named = {(h.table_id, h.hand_id) for h in cited_hands(alert)}
    if alert.hand_id is not None:
        named.add((alert.table_id, alert.hand_id))
    return bool(named & hands)
