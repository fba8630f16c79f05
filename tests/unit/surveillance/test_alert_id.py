"""Alert ids (the Kafka key of each SURV alert): rule, instance and count, readable and
unambiguous."""

from __future__ import annotations

from typing import Any

import pytest

from services.events.contract import Alert
from services.surveillance.alert_id import UnidentifiableAlert, alert_id


def alert(rule: str, evidence: dict[str, Any] | None) -> Alert:
    return Alert(table_id="T1", code="X", rule=rule, severity="warning", message="m",
                 hand_id="T1-000001", evidence=evidence)


def test_ids_per_rule() -> None:
    """Each rule's instance fields, in the order the rule names them, then its count."""
    assert alert_id(alert("SURV-2", {"dealer": "D1", "player": "P2", "count": 8,
                                     "p_value": 1e-9})) == "SURV-2/dealer=D1/player=P2/count=8"
    assert alert_id(alert("SURV-3", {"from_player": "A", "to_player": "B", "count": 3})) == (
        "SURV-3/from_player=A/to_player=B/count=3")
    assert alert_id(alert("SURV-4", {"players": ["A", "B"], "decisions": 31})) == (
        "SURV-4/players=A,B/decisions=31")
    assert alert_id(alert("SURV-5", {"player": "A", "decision": "insurance",
                                     "decisions": 50})) == (
        "SURV-5/player=A/decision=insurance/decisions=50")
    assert alert_id(alert("SURV-6", {"player": "A", "kind": "hcf_flush", "count": 4})) == (
        "SURV-6/player=A/kind=hcf_flush/count=4")
    assert alert_id(alert("SURV-7", {"dealer": "D", "player": "A", "count": 4})) == (
        "SURV-7/dealer=D/player=A/count=4")
    assert alert_id(alert("SURV-8", {"game": "hcf", "scope": "table", "table": "T1",
                                     "kind": "misdeal", "count": 5})) == (
        "SURV-8/game=hcf/scope=table/table=T1/kind=misdeal/count=5")


def test_the_same_instance_at_another_count_is_another_alert() -> None:
    first = alert_id(alert("SURV-2", {"dealer": "D1", "player": "P2", "count": 8}))
    second = alert_id(alert("SURV-2", {"dealer": "D1", "player": "P2", "count": 16}))
    assert first != second


def test_separators_in_names_are_escaped() -> None:
    """Player "a/b" with dealer "c" and player "b" with dealer "c/a"... would collide if
    values were pasted raw; percent-escaping keeps them apart."""
    one = alert_id(alert("SURV-2", {"dealer": "c", "player": "a/player=b", "count": 5}))
    two = alert_id(alert("SURV-2", {"dealer": "c/player=a", "player": "b", "count": 5}))
    assert one == "SURV-2/dealer=c/player=a%2Fplayer%3Db/count=5"
    assert one != two


def test_an_alert_without_evidence_has_no_id() -> None:
    with pytest.raises(UnidentifiableAlert):
        alert_id(alert("SURV-9", None))
    with pytest.raises(UnidentifiableAlert):
        alert_id(alert("SURV-2", None))
