"""Dispute reports of simulated hands of every game present: content, rules, chain."""

from __future__ import annotations

import re
from typing import Any

import pytest

from services.events.contract import encode_record
from services.reports.dispute import dispute_from_log
from services.reports.render import render_html
from services.reports.replay import HandNotFound, replay_hand
from tests.profiles import PROFILES
from tests.unit.reports.logs import GAMES, first_hand, lines_of, rechain, simulated

STAMP = "2026-01-06T08:00:00Z"


def test_games_present() -> None:
    assert "russian" in GAMES


@pytest.mark.parametrize("game", GAMES)
def test_replay_gives_the_pipeline_record(game: str) -> None:
    events, records = simulated(game)
    for record in (records[0], first_hand(records, status="discrepancy")):
        replay = replay_hand(lines_of(events), record.hand_id, PROFILES)
        assert replay.record is not None
        assert encode_record(replay.record) == encode_record(record)
        assert replay.hand_input is not None and replay.outcome is not None
        assert replay.outcome.trace, "the game gives a decision path"


@pytest.mark.parametrize("game", GAMES)
def test_mispay_hand(game: str) -> None:
    events, records = simulated(game)
    record = first_hand(records, code="MISPAY")
    report = dispute_from_log(lines_of(events), record.hand_id, PROFILES, log_name="log.jsonl")
    mispay = next(f for f in record.findings if f.code == "MISPAY")
    line = next(s for s in report.seat_lines if s.who == f"seat {mispay.seat}")
    assert line.difference == mispay.amount
    assert line.rule == mispay.rule
    cited = {c.rule_id: c for c in report.rules}
    assert mispay.rule in cited
    for rule_id in ("GEN-8", "GEN-10", "SURV-9"):
        if rule_id in cited:
            assert cited[rule_id].text is not None
    for step in report.trace:
        assert step.rule in cited
    html = render_html("dispute.html", r=report, generated_at=STAMP)
    assert f"Dispute report: hand {record.hand_id}" in html
    assert mispay.message.replace("'", "&#39;") in html
    assert report.seats and all(s.player in html for s in report.seats)


@pytest.mark.parametrize("game", GAMES)
def test_timeline_and_chain_of_a_clean_hand(game: str) -> None:
    events, records = simulated(game)
    record = next(r for r in records[1:] if not any(f.rule == "SURV-9" for f in r.findings))
    report = dispute_from_log(lines_of(events), record.hand_id, PROFILES)
    assert report.timeline is not None
    assert [t.seq for t in report.timeline] == list(range(record.first_seq or 0,
                                                          (record.last_seq or 0) + 1))
    assert report.timeline[0].event_type == "hand_started"
    assert report.timeline[-1].event_type == "hand_ended"
    assert report.chain is not None and report.chain.verified
    assert report.chain.last_hash == record.last_hash
    assert report.record_hash_note == "equals the hash recomputed from the log"
    seats = {h.seat for h in report.hands if h.seat is not None}
    assert seats == {int(s) for s in record.players or {}}
    html = render_html("dispute.html", r=report, generated_at=STAMP)
    assert record.last_hash is not None
    assert "VERIFIED" in html and record.last_hash in html
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="card') >= len(seats)
    assert report.quoted_rules_note is None  # judged under the rule book's own profile


@pytest.mark.parametrize("game", GAMES)
def test_tampered_event_shows_where_the_chain_breaks(game: str) -> None:
    events, records = simulated(game)
    record = first_hand(records, code="CHAIN_BROKEN")
    finding = next(f for f in record.findings if f.code == "CHAIN_BROKEN")
    broken_seq = int(re.match(r"seq (\d+)", finding.message).group(1))  # type: ignore[union-attr]
    report = dispute_from_log(lines_of(events), record.hand_id, PROFILES)
    assert report.chain is not None and not report.chain.verified
    assert [link.seq for link in report.chain.broken] == [broken_seq]
    html = render_html("dispute.html", r=report, generated_at=STAMP)
    assert f"BROKEN at seq {broken_seq}" in html


def test_russian_hand_numbers_and_words() -> None:
    """A Russian hand: the words of the timeline and the descriptions of the final hands
    come from the events; the seat money adds up to the recorded net."""
    events, records = simulated("russian")
    record = first_hand(records, status="ok")
    report = dispute_from_log(lines_of(events), record.hand_id, PROFILES)
    assert report.game_name == "Russian Poker" and report.rule_profile == "house-v1"
    texts = [t.line.text for t in report.timeline or []]
    assert texts[0].startswith("Hand starts. Dealer ")
    assert any(re.match(r"Seat \d \(\S+\) places an Ante of \d+ chips\.", t) for t in texts)
    dealer = next(h for h in report.hands if h.holder == "dealer")
    assert dealer.description is not None and len(dealer.cards) == 5
    for money in report.seat_money:
        assert record.recorded is not None
        assert money.stack_change == record.recorded.net[str(money.seat)]
    assert report.record.status == "ok" and report.verdict.startswith("Settled correctly")


def test_unknown_hand() -> None:
    events, _records = simulated("russian")
    with pytest.raises(HandNotFound):
        dispute_from_log(lines_of(events), "no-such-hand", PROFILES)


def test_player_and_dealer_ids_are_escaped() -> None:
    """A player id and a dealer id carrying markup reach the HTML only escaped."""
    evil_player = '<script>alert("p")</script>'
    evil_dealer = "<img src=x onerror=alert(1)>"
    events, _ = simulated("russian", hands=6, faulty=False, tables=1)

    def edit(event: dict[str, Any]) -> None:
        data = event["data"]
        if data.get("player_id") == "T001-P1":
            data["player_id"] = evil_player
        for seat in data.get("seats", []):
            if seat["player_id"] == "T001-P1":
                seat["player_id"] = evil_player
        if "dealer_id" in data:
            data["dealer_id"] = evil_dealer

    edited = rechain(events, edit)
    report = dispute_from_log(lines_of(edited), "T001-000002", PROFILES)
    assert report.seats[0].player == evil_player
    html = render_html("dispute.html", r=report, generated_at=STAMP)
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;alert(&#34;p&#34;)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_html_is_deterministic() -> None:
    events, records = simulated("russian")
    hand_id = first_hand(records, status="discrepancy").hand_id
    one = render_html("dispute.html", r=dispute_from_log(lines_of(events), hand_id, PROFILES),
                      generated_at=STAMP)
    two = render_html("dispute.html", r=dispute_from_log(lines_of(events), hand_id, PROFILES),
                      generated_at=STAMP)
    assert one == two and STAMP in one


def test_many_hands_in_one_replay_equal_one_by_one() -> None:
    """The daily report replays each table once for all its hands to review."""
    from services.reports.dispute import disputes_from_log

    events, records = simulated("russian")
    wanted = [r.hand_id for r in records if r.status == "discrepancy"][:4] + ["missing"]
    many = disputes_from_log(lines_of(events), wanted, PROFILES)
    assert sorted(many) == sorted(wanted[:-1])
    for hand_id, report in many.items():
        alone = dispute_from_log(lines_of(events), hand_id, PROFILES)
        assert render_html("dispute.html", r=report, generated_at=STAMP) == render_html(
            "dispute.html", r=alone, generated_at=STAMP)


def test_paid_flush_bonus_cites_hcf8_in_the_decision_path() -> None:
    """Issue #20: a dispute report's decision path names every rule that decided an amount.
    DP seat 1 (9-5-2 hearts, qualifies); seat 2 antes 10, raises 20 on a five-card club
    flush (HCF-4 allows 2x), and wagers a Flush bonus 5: Ante and Raise win 30 (HCF-7), the
    bonus pays 10 to 1 = 50 (HCF-8)."""
    import random

    from services.events.stream import TableStream
    from tests.unit.hcf.scenario import config

    stream = TableStream("T9", random.Random(9))
    stream.emit("table_configured", config())
    for seat in (1, 2):
        stream.emit("player_seated", {"seat": seat, "player_id": f"P{seat}", "stack": 500})
    dp, clubs = "9h 5h 2h 7c 4c 3d 6s", "Kc Jc 9c 8c 6c Ah Kh"
    hand = [("hand_started", {"button": 1, "designated_player": 1, "dealer_id": "D1",
                              "seats": [{"seat": 1, "player_id": "P1", "stack": 500},
                                        {"seat": 2, "player_id": "P2", "stack": 500}],
                              "deck": 52}),
            ("wager", {"seat": 2, "kind": "ante", "amount": 10}),
            ("wager", {"seat": 2, "kind": "flush_bonus", "amount": 5})]
    for i in range(7):
        hand += [("card_dealt", {"to": "seat", "seat": s, "card": c.split()[i],
                                 "face_up": False}) for s, c in ((2, clubs), (1, dp))]
    hand += [("action", {"seat": 2, "action": "raise"}),
             ("wager", {"seat": 2, "kind": "raise", "amount": 20}),
             ("showdown", {"seat": 1, "cards": dp.split()}),
             ("showdown", {"seat": 2, "cards": clubs.split()}),
             ("payout", {"seat": 2, "amount": 30, "source": "designated", "kind": "win"}),
             ("payout", {"seat": 2, "amount": 50, "source": "designated", "kind": "bonus"}),
             ("hand_ended", {})]
    for type_, data in hand:
        stream.emit(type_, data, hand_id="T9-000001")
    report = dispute_from_log(lines_of(stream.events), "T9-000001", PROFILES)
    assert report.record.status == "ok", report.record.findings
    assert ("HCF-8", "Flush bonus 5: 5-card flush pays 10 to 1 = 50") in [
        (s.rule, s.message) for s in report.trace]
    assert {"HCF-7", "HCF-8"} <= {r.rule_id for r in report.rules}
