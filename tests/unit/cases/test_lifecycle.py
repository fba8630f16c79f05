"""The case life cycle as a table of (state, action) -> state or refusal, written out by
hand from docs/cases.md; and the subjects alerts and findings are filed under."""

from __future__ import annotations

import pytest

from services.cases.lifecycle import CaseRefused, CaseStatus, apply
from services.cases.subjects import Subject, alert_subject, hand_subject
from services.events.contract import Alert
from tests.unit.ledger.builders import hcf_seat1_wins

# (state before, action) -> state after; None: refused.
TABLE = {
    ("open", "assign"): "in_review",
    ("in_review", "assign"): "in_review",
    ("escalated", "assign"): "escalated",
    ("closed", "assign"): None,
    ("open", "escalate"): "escalated",
    ("in_review", "escalate"): "escalated",
    ("escalated", "escalate"): None,
    ("closed", "escalate"): None,
    ("open", "close"): "closed",
    ("in_review", "close"): "closed",
    ("escalated", "close"): "closed",
    ("closed", "close"): None,
    ("open", "note"): "open",
    ("in_review", "note"): "in_review",
    ("escalated", "note"): "escalated",
    ("closed", "note"): "closed",
    ("open", "evidence"): "open",
    ("in_review", "evidence"): "in_review",
    ("escalated", "evidence"): "escalated",
    ("closed", "evidence"): None,
}


def status(state: str) -> CaseStatus:
    closed = state == "closed"
    return CaseStatus(state, "warning", "ann" if state != "open" else None,
                      "no_issue" if closed else None, "checked" if closed else None)


@pytest.mark.parametrize(("state", "action"), sorted(TABLE))
def test_each_action_in_each_state(state: str, action: str) -> None:
    expected = TABLE[(state, action)]
    given = {"assignee": "bob", "text": "looked at the video", "outcome": "confirmed",
             "severity": "critical"}
    if expected is None:
        with pytest.raises(CaseRefused):
            apply(7, status(state), action, **given)  # type: ignore[arg-type]
        return
    after = apply(7, status(state), action, **given)  # type: ignore[arg-type]
    assert after.state == expected


def test_what_each_action_sets() -> None:
    opened = CaseStatus("open", "warning")
    assert apply(1, opened, "assign", assignee=" bob ") == CaseStatus("in_review", "warning",
                                                                       "bob")
    assert apply(1, opened, "evidence", severity="critical").severity == "critical"
    assert apply(1, CaseStatus("open", "critical"), "evidence",
                 severity="warning").severity == "critical"
    closed = apply(1, opened, "close", outcome="procedural", text="dealer retrained ")
    assert (closed.outcome, closed.reason) == ("procedural", "dealer retrained")


@pytest.mark.parametrize(("action", "given", "words"), [
    ("close", {"outcome": "guilty", "text": "x"}, "no outcome 'guilty': one of confirmed"),
    ("close", {"outcome": None, "text": "x"}, "closing needs an outcome: one of confirmed"),
    ("close", {"outcome": "confirmed", "text": " "}, "needs a reason"),
    ("note", {"text": ""}, "needs its text"),
    ("assign", {"assignee": " "}, "reviewer's name"),
])
def test_an_action_without_what_it_needs_is_refused(action: str, given: dict[str, str],
                                                    words: str) -> None:
    with pytest.raises(CaseRefused, match=words):
        apply(3, CaseStatus("open", "warning"), action, **given)  # type: ignore[arg-type]


@pytest.mark.parametrize("state", ["open", "in_review", "escalated"])
@pytest.mark.parametrize("name", ["pitwatch", "PitWatch", " PITWATCH "])
def test_no_case_is_given_to_pitwatch(state: str, name: str) -> None:
    """QA: ``cases assign 7 pitwatch`` gave the case to the name of what pitwatch does by
    itself, which no one may act under; the rule refuses it, so the console does too."""
    with pytest.raises(CaseRefused, match="'pitwatch' is the name of what pitwatch does by "
                                          "itself: assign the case to a person"):
        apply(7, status(state), "assign", assignee=name)
    assert apply(7, status(state), "assign", assignee="pitwatcher").assignee == "pitwatcher"


def alert(rule: str, **evidence: object) -> Alert:
    return Alert(table_id="T9", code="X", rule=rule, severity="warning", message="m",
                 hand_id="T9-1", evidence=dict(evidence) or None)


@pytest.mark.parametrize(("given", "key"), [
    (alert("SURV-2", dealer="D7", player="P12", count=8), "dealer:D7"),
    (alert("SURV-7", dealer="D7", player="P3", count=4), "dealer:D7"),
    (alert("SURV-8", scope="dealer", dealer="D7", game="hcf", kind="mispay", count=9),
     "dealer:D7"),
    (alert("SURV-8", scope="table", table="T4", game="hcf", kind="mispay", count=9),
     "table:T4"),
    (alert("SURV-3", from_player="P9", to_player="P2", count=3), "pair:P2,P9"),
    (alert("SURV-4", players=["P5", "P1"], decisions=30), "pair:P1,P5"),
    (alert("SURV-5", player="P6", decision="buy", decisions=40), "player:P6"),
    (alert("SURV-6", player="P6", kind="flush", count=4), "player:P6"),
    (alert("SURV-9"), "table:T9"),
    (alert("GEN-5"), "table:T9"),
    (alert("SURV-2", player="P1,x", dealer="D/1", count=5), "dealer:D%2F1"),
])
def test_alerts_are_filed_under_their_subject(given: Alert, key: str) -> None:
    assert alert_subject(given).key == key


def test_a_finding_is_about_its_hand() -> None:
    assert hand_subject(hcf_seat1_wins()) == Subject("hand", ("T1-000001",))
    assert Subject("pair", ("P1", "P,2")).key == "pair:P1,P%2C2"


def test_an_alert_that_carries_its_own_subject_is_filed_under_it() -> None:
    """Issue #24's alerts carry ``subject`` (docs/surveillance.md): it wins over the
    derivation, and reads back ids holding a comma or a colon."""
    class WithSubject(Alert, kw_only=True):  # the field as issue #24 adds it
        subject: str | None = None

    given = WithSubject(table_id="T9", code="X", rule="SURV-6", severity="warning",
                        message="m", subject="pair:P%2C1,P%3A2",
                        evidence={"player": "P6", "kind": "flush", "count": 4})
    assert alert_subject(given) == Subject("pair", ("P,1", "P:2"))
    assert alert_subject(given).key == "pair:P%2C1,P%3A2"
    odd = WithSubject(table_id="T9", code="X", rule="SURV-6", severity="warning",
                      message="m", subject="croupier:D1", evidence={"player": "P6"})
    assert alert_subject(odd) == Subject("player", ("P6",))
