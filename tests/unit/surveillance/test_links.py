"""Alert identity, subject, parties, related alerts and severity by stakes
(docs/surveillance.md "Alert identity, subject and links")."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import msgspec

from services.events.contract import Alert, Severity
from services.surveillance.links import MAX_RELATED, Links, graded, subject_and_parties
from services.surveillance.profile import SeverityRule

RULE = SeverityRule(raise_at_chips=1000, raise_at_p_value=1e-12)


def alert(rule: str, evidence: dict[str, Any], severity: Severity = "warning",
          table: str = "T1") -> Alert:
    return Alert(table_id=table, hand_id="h", code="X", rule=rule, severity=severity,
                 message="m", evidence={"p_value": 1e-7, **evidence})


def test_subjects_and_parties_by_rule() -> None:
    cases = {
        "SURV-2": ({"dealer": "D7", "player": "P12", "count": 5},
                   ("dealer:D7", ["dealer:D7", "player:P12"])),
        "SURV-7": ({"dealer": "D7", "player": "P1", "count": 4},
                   ("dealer:D7", ["dealer:D7", "player:P1"])),
        "SURV-3": ({"from_player": "B", "to_player": "A", "method": "fold", "count": 3},
                   ("pair:A,B", ["pair:A,B", "player:A", "player:B"])),
        "SURV-4": ({"players": ["A", "B"], "decisions": 30},
                   ("pair:A,B", ["pair:A,B", "player:A", "player:B"])),
        "SURV-5": ({"player": "P", "decision": "insurance", "decisions": 30},
                   ("player:P", ["player:P"])),
        "SURV-6": ({"player": "P", "kind": "hcf_flush", "count": 4}, ("player:P", ["player:P"])),
    }
    for rule, (evidence, expected) in cases.items():
        assert subject_and_parties(alert(rule, evidence)) == expected
    table = alert("SURV-8", {"game": "hcf", "scope": "table", "table": "T9", "kind": "mispay",
                             "count": 5})
    assert subject_and_parties(table) == ("table:T9", ["table:T9"])


def test_ids_with_separators_are_escaped_and_read_back() -> None:
    """A player id holding ':', ',' and '/' cannot split the subject: percent-escaped,
    the ids come back with unquote."""
    subject, parties = subject_and_parties(alert("SURV-4", {"players": ["a:b,c", "x/y"],
                                                            "decisions": 30}))
    assert subject == "pair:a%3Ab%2Cc,x%2Fy"
    kind, _, ids = subject.partition(":")
    assert (kind, [unquote(i) for i in ids.split(",")]) == ("pair", ["a:b,c", "x/y"])
    assert parties[1:] == ["player:a%3Ab%2Cc", "player:x%2Fy"]


def test_related_alerts_share_a_party_oldest_first() -> None:
    """A SURV-2 on D7 naming P12, then a SURV-6 on P12 (shares player:P12), then the
    SURV-8 on D7 (shares dealer:D7 with the first only), then one on another dealer."""
    links = Links(RULE)
    first = links.annotate(alert("SURV-2", {"dealer": "D7", "player": "P12", "count": 5}))
    second = links.annotate(alert("SURV-6", {"player": "P12", "kind": "hcf_flush",
                                             "count": 4}))
    third = links.annotate(alert("SURV-8", {"game": "hcf", "scope": "dealer",
                                            "dealer": "D7", "kind": "mispay", "count": 5}))
    other = links.annotate(alert("SURV-8", {"game": "hcf", "scope": "dealer",
                                            "dealer": "D8", "kind": "mispay", "count": 5}))
    assert first.related_alerts is None
    assert second.related_alerts == [first.alert_id]
    assert third.related_alerts == [first.alert_id]
    assert other.related_alerts is None
    assert third.alert_id == "SURV-8/game=hcf/scope=dealer/dealer=D7/kind=mispay/count=5"


def test_alerts_counting_the_same_findings_are_related() -> None:
    """A SURV-2 on D7 counting MISPAY findings f1, f2; then the SURV-8 on table T1 (no
    party in common) counting f2 and f3: related through f2. A SURV-8 on T2 counting
    only f4 is related to neither."""
    links = Links(RULE)
    sweet = links.annotate(msgspec.structs.replace(
        alert("SURV-2", {"dealer": "D7", "player": "P12", "count": 5}), findings=["f1", "f2"]))
    table = links.annotate(msgspec.structs.replace(
        alert("SURV-8", {"game": "hcf", "scope": "table", "table": "T1", "kind": "mispay",
                         "count": 5}), findings=["f2", "f3"]))
    other = links.annotate(msgspec.structs.replace(
        alert("SURV-8", {"game": "hcf", "scope": "table", "table": "T2", "kind": "mispay",
                         "count": 5}), findings=["f4"]))
    assert table.related_alerts == [sweet.alert_id]
    assert other.related_alerts is None


def test_related_alerts_are_capped() -> None:
    links = Links(RULE)
    for count in range(1, MAX_RELATED + 3):
        last = links.annotate(alert("SURV-2", {"dealer": "D", "player": "P", "count": count}))
    assert last.related_alerts is not None and len(last.related_alerts) == MAX_RELATED
    assert last.related_alerts[-1] == f"SURV-2/dealer=D/player=P/count={MAX_RELATED + 1}"


def test_severity_follows_chips_and_p_value() -> None:
    """Base warning: 999 chips and p 1e-7 stay warning; 1,000 chips raise it to critical;
    p 1e-12 raises it too; both on a critical base stay critical; info with both rises two
    levels."""
    def grade(severity: Severity, chips: int, p: float) -> tuple[str, list[str]]:
        level, basis = graded(alert("SURV-2", {"chips": chips, "p_value": p}, severity), RULE)
        return level, basis["raised_for"]

    assert grade("warning", 999, 1e-7) == ("warning", [])
    assert grade("warning", 1000, 1e-7) == ("critical", ["chips"])
    assert grade("warning", 0, 1e-12) == ("critical", ["p_value"])
    assert grade("critical", 5000, 1e-20) == ("critical", ["chips", "p_value"])
    assert grade("info", 5000, 1e-20) == ("critical", ["chips", "p_value"])
    assert grade("info", 1000, 1e-7) == ("warning", ["chips"])


def test_annotated_alert_carries_its_basis() -> None:
    out = Links(RULE).annotate(alert("SURV-2", {"dealer": "D", "player": "P", "count": 5,
                                                "chips": 1200}))
    assert out.severity == "critical"
    assert out.evidence is not None
    assert out.evidence["severity_basis"] == {"base": "warning", "chips_at_stake": 1200,
                                              "raised_for": ["chips"]}
