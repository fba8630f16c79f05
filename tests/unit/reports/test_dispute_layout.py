"""The dispute report puts what is wrong first and the evidence after it.

Before: the findings were section 6 (about 6,000 px down an HCF report, page 7 of 10 in
the PDF); an HCF hand listed each of its 35 to 49 deals one row each before anything
else, and the cards each seat ended with were in a separate table far from the seat; no
report named the surveillance alerts that cite the hand."""

from __future__ import annotations

import re
from typing import Any

from services.events.contract import Alert
from services.reports.cards import card_text
from services.reports.dispute import dispute_from_log
from services.reports.narrate import Line
from services.reports.render import render_html
from services.reports.timeline import TimelineEntry, timeline_rows
from tests.profiles import PROFILES
from tests.unit.reports.logs import first_hand, lines_of, simulated

STAMP = "2026-01-06T08:00:00Z"


def _hcf_mispay() -> tuple[tuple[dict[str, Any], ...], str]:
    events, records = simulated("hcf")
    return events, first_hand(records, code="MISPAY").hand_id


def _html(events: tuple[dict[str, Any], ...], hand_id: str,
          alerts: list[Alert] | None = None) -> str:
    report = dispute_from_log(lines_of(events), hand_id, PROFILES, log_name="log.jsonl")
    if alerts is not None:
        report.attach_alerts(alerts, "alerts.jsonl")
    return render_html("dispute.html", r=report, generated_at=STAMP)


def _section(html: str, start: str, end: str) -> str:
    return html[html.index(start):html.index(end)]


def test_findings_come_first() -> None:
    events, hand_id = _hcf_mispay()
    html = _html(events, hand_id)
    order = [html.index(h) for h in ("<h2>1. Findings</h2>",
                                     "<h2>2. The table, the seats and their cards</h2>",
                                     "<h2>3. What happened", "<h2>4. How the rules decided",
                                     "<h2>5. Expected versus recorded", "<h2>6. Rules cited",
                                     "<h2>7. Hash-chain verification")]
    assert order == sorted(order)
    findings = _section(html, "<h2>1. Findings</h2>", "<h2>2.")
    assert "MISPAY" in findings and "HCF-" in findings


def test_findings_are_listed_most_severe_first() -> None:
    events, records = simulated("hcf")
    record = next(r for r in records
                  if {f.severity for f in r.findings} >= {"critical", "info"}
                  or {f.severity for f in r.findings} >= {"critical", "warning"})
    report = dispute_from_log(lines_of(events), record.hand_id, PROFILES)
    rank = {"critical": 0, "warning": 1, "info": 2}
    shown = [rank[f.severity] for f in report.findings_by_severity]
    assert shown == sorted(shown) and len(shown) == len(record.findings)


def test_each_seat_is_shown_beside_the_cards_it_was_dealt() -> None:
    """Expected cards straight from the log: every card_dealt to the seat, in order (HCF
    deals each seat its 7 cards and never replaces one)."""
    events, hand_id = _hcf_mispay()
    dealt: dict[int, list[str]] = {}
    players: dict[int, str] = {}
    for e in events:
        if e["hand_id"] != hand_id:
            continue
        if e["type"] == "hand_started":
            players = {s["seat"]: s["player_id"] for s in e["data"]["seats"]}
        if e["type"] == "card_dealt" and e["data"]["to"] == "seat":
            dealt.setdefault(e["data"]["seat"], []).append(e["data"]["card"])
    seats = _section(_html(events, hand_id), "<table class=\"seats\">", "<h2>3.")
    rows = re.findall(r"<tr><td class=\"num\">(\d+)</td>(.*?)</tr>", seats, re.S)
    assert {int(seat) for seat, _ in rows} == set(players)
    for seat, row in rows:
        assert players[int(seat)] in row
        assert " ".join(card_text(c) for c in dealt[int(seat)]) in row
        assert len(dealt[int(seat)]) == 7


def test_the_deal_is_one_row_naming_who_got_what() -> None:
    events, hand_id = _hcf_mispay()
    deals = [e for e in events if e["hand_id"] == hand_id and e["type"] == "card_dealt"]
    timeline = _section(_html(events, hand_id), "<table class=\"timeline\">", "<h2>4.")
    assert f"{len(deals)} cards dealt face down, one at a time (seq {deals[0]['seq']} to " \
           f"{deals[-1]['seq']})" in timeline
    assert "dealt face down to seat" not in timeline  # no deal has a row of its own
    hand_events = [e for e in events if e["hand_id"] == hand_id]
    rows = timeline.count("<tr>") - 1  # less the header
    assert rows == len(hand_events) - len(deals) + 1


def _entry(seq: int, to: str | None, ok: bool = True) -> TimelineEntry:
    return TimelineEntry(ts=f"t{seq}", seq=seq, event_type="card_dealt" if to else "wager",
                         line=Line(f"event {seq}", ("As",) if to else ()), chain_ok=ok,
                         other_hand=None, dealt_to=to)


def test_an_event_that_needs_attention_keeps_its_own_row() -> None:
    """Deals 1, 2 to A then B; 3 breaks the chain; 4, 5 to A; a wager 6; a lone deal 7."""
    rows = timeline_rows([_entry(1, "A"), _entry(2, "B"), _entry(3, "A", ok=False),
                          _entry(4, "A"), _entry(5, "A"), _entry(6, None), _entry(7, "B")])
    assert [(r.first.seq, r.last.seq, r.count) for r in rows] == [
        (1, 2, 2), (3, 3, 1), (4, 5, 2), (6, 6, 1), (7, 7, 1)]
    assert [(h.who, h.cards) for h in rows[0].holdings] == [("A", ("As",)), ("B", ("As",))]
    assert [(h.who, h.cards) for h in rows[2].holdings] == [("A", ("As", "As"))]


def test_the_alerts_that_cite_the_hand_are_named() -> None:
    events, hand_id = _hcf_mispay()
    table = next(e["table_id"] for e in events if e["hand_id"] == hand_id)
    citing = Alert(table_id=table, code="SWEETHEARTING", rule="SURV-2", severity="critical",
                   message="dealer D1: 9 of 9 mispays to player P1", hand_id="H-LATER",
                   evidence={"dealer": "D1", "player": "P1",
                             "hands": [{"table_id": table, "hand_id": hand_id, "seat": 1}]})
    raised_here = Alert(table_id=table, code="PROCEDURE_DRIFT", rule="SURV-8",
                        severity="warning", message="drift", hand_id=hand_id)
    elsewhere = Alert(table_id=table, code="SOFT_PLAY", rule="SURV-4", severity="warning",
                      message="soft", hand_id="H-OTHER",
                      evidence={"hands": [{"table_id": table, "hand_id": "H-OTHER"}]})
    section = _section(_html(events, hand_id, [citing, raised_here, elsewhere]),
                       "<h3>Surveillance alerts citing this hand</h3>", "<h2>2.")
    assert "SWEETHEARTING" in section and "dealer D1, player P1" in section
    assert "PROCEDURE_DRIFT" in section and "(this hand)" in section
    assert "SOFT_PLAY" not in section
    none = _section(_html(events, hand_id, [elsewhere]),
                    "<h3>Surveillance alerts citing this hand</h3>", "<h2>2.")
    assert "None: no alert in alerts.jsonl was raised on or cites this hand." in none
    unchecked = _section(_html(events, hand_id), "<h3>Surveillance alerts citing", "<h2>2.")
    assert "Not checked: no alerts file was given" in unchecked
