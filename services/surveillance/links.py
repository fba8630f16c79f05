"""What every cross-hand alert says about itself once raised: its id, its subject and
parties, the earlier alerts it belongs with, and a severity that follows the stakes.

The format is docs/surveillance.md "Alert identity, subject and links" (the case tool of
the archive groups alerts by ``subject``): ``dealer:<id>``, ``table:<id>``,
``player:<id>``, ``pair:<a>,<b>`` (a < b), ids percent-escaped as in the alert id.

``related_alerts``: the ids of earlier alerts (of this engine, state restored from the
database included) that share a party or a per-hand finding with this one, oldest
first, at most ``MAX_RELATED``: the SURV-8 review of a dealer lists the SURV-2 alerts on
that dealer; the SURV-8 of the table where a dealer overpaid a friend lists the SURV-2
(and the dealer's SURV-8) counting the same MISPAY findings; a re-alert lists the same
instance's earlier alerts.

Severity: the section's ``severity`` is the base; the alert is raised one level when the
chips it counts reach ``severity.raise_at_chips`` and one level when its p-value is at or
below ``severity.raise_at_p_value``; ``evidence.severity_basis`` says which.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import msgspec

from services.events.contract import Alert, Severity
from services.surveillance.alert_id import alert_id
from services.surveillance.profile import SeverityRule

MAX_RELATED = 50
LEVELS: tuple[Severity, ...] = ("info", "warning", "critical")


def entity(kind: str, ident: object) -> str:
    return f"{kind}:{quote(str(ident), safe='')}"


def pair(a: str, b: str) -> str:
    low, high = sorted((a, b))
    return f"pair:{quote(low, safe='')},{quote(high, safe='')}"


def subject_and_parties(alert: Alert) -> tuple[str, list[str]]:
    """The alert's subject and parties, read from its rule and evidence."""
    ev: dict[str, Any] = alert.evidence or {}
    rule = alert.rule
    if rule in ("SURV-2", "SURV-7"):
        dealer = entity("dealer", ev["dealer"])
        return dealer, [dealer, entity("player", ev["player"])]
    if rule == "SURV-8":
        subject = entity(ev["scope"], ev[ev["scope"]])
        return subject, [subject]
    if rule in ("SURV-5", "SURV-6"):
        player = entity("player", ev["player"])
        return player, [player]
    if rule == "SURV-3":
        a, b = str(ev["from_player"]), str(ev["to_player"])
    elif rule == "SURV-4":
        a, b = (str(p) for p in ev["players"])
    else:
        subject = entity("table", alert.table_id)
        return subject, [subject]
    subject = pair(a, b)
    return subject, [subject, *(entity("player", p) for p in sorted((a, b)))]


def graded(alert: Alert, rule: SeverityRule) -> tuple[Severity, dict[str, Any]]:
    """The severity for the stakes, and why (``evidence.severity_basis``)."""
    ev = alert.evidence or {}
    chips = int(ev.get("chips", 0) or 0)
    p_value = float(ev.get("p_value", 1.0))
    level = LEVELS.index(alert.severity)
    raised: list[str] = []
    if chips >= rule.raise_at_chips:
        raised.append("chips")
    if p_value <= rule.raise_at_p_value:
        raised.append("p_value")
    severity = LEVELS[min(level + len(raised), len(LEVELS) - 1)]
    return severity, {"base": alert.severity, "chips_at_stake": chips,
                      "raised_for": raised}


class Links:
    """Every alert raised so far, by party (the state behind ``related_alerts``)."""

    def __init__(self, rule: SeverityRule) -> None:
        self.rule = rule
        self.raised = 0
        self.order: dict[str, int] = {}  # alert id -> when it was raised
        self.by_party: dict[str, list[str]] = {}
        self.by_finding: dict[str, list[str]] = {}  # finding id -> alerts counting it

    def annotate(self, alert: Alert) -> Alert:
        ident = alert_id(alert)
        subject, parties = subject_and_parties(alert)
        findings = alert.findings or []
        earlier = {i for party in parties for i in self.by_party.get(party, ())}
        earlier |= {i for found in findings for i in self.by_finding.get(found, ())}
        related = sorted(earlier - {ident}, key=lambda i: self.order[i])[-MAX_RELATED:]
        severity, basis = graded(alert, self.rule)
        self.raised += 1
        self.order.setdefault(ident, self.raised)
        for index, key in [*((self.by_party, p) for p in parties),
                           *((self.by_finding, f) for f in findings)]:
            ids = index.setdefault(key, [])
            if ident not in ids:
                ids.append(ident)
        evidence = {**(alert.evidence or {}), "severity_basis": basis}
        return msgspec.structs.replace(alert, alert_id=ident, subject=subject,
                                       parties=parties, related_alerts=related or None,
                                       severity=severity, evidence=evidence)
