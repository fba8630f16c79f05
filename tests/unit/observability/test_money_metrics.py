"""Grafana's money is the daily report's: the same definitions (a dead hand has no drop,
no payouts and, refunded, no rake; Chinese Poker's seat-to-seat chips are not collected
by a banker), and the booked figures leave out the hands the ledger refused.

QA compared one log: HCF rake 1,232 in the metrics against 1,226 in the report and the
ledger, the drop of HCF and hold'em a hundred-odd chips apart. The numbers below are
worked out by hand from each hand's movements.
"""

from __future__ import annotations

import hashlib
import uuid
from collections import defaultdict
from pathlib import Path

import orjson
import pytest
from prometheus_client import REGISTRY, CollectorRegistry
from sqlalchemy import select

from services.events.contract import AdjudicationRecord, Movement
from services.ledger.db import open_ledger
from services.ledger.entries import build_entry
from services.ledger.models import Hand
from services.ledger.posting import prepare_entries
from services.ledger.queries import table_day_totals
from services.observability.metrics import AdjudicatorMetrics, LedgerMetrics
from services.observability.money import hand_chips
from services.observability.replay import Booking, replay
from services.pipeline.ledger_service import book_prepared
from services.simulator.run import STREAM_FAULTS, available_faults, simulate
from tests.profiles import HOUSE, PROFILES

ENDED = "2026-03-01T20:00:00.000Z"
HCF = {"game": "hcf", "rake_mode": "players"}
CHINESE = {"game": "chinese", "rake_mode": "players"}
Move = tuple[str, str, str, int]  # kind, from, to, amount


def _record(hand: str, status: str, moves: list[Move],
            game: str = "hcf") -> AdjudicationRecord:
    """A record of table T9 whose movements are ``moves``, events seq 1, 2, ..."""
    movements = [Movement(event_id=str(uuid.UUID(int=int(hand) * 100 + seq, version=4)),
                          seq=seq, from_=src, to=dst, amount=amount, kind=kind)
                 for seq, (kind, src, dst, amount) in enumerate(moves, start=1)]
    return AdjudicationRecord(
        v=1, table_id="T9", hand_id=f"T9-{hand}", game=game, status=status,  # type: ignore[arg-type]
        rule_profile="house-v1", expected=None, recorded=None, findings=[],
        players={"1": "P-ONE", "2": "P-TWO", "3": "P-THREE"}, dealer_id="D77",
        rake_mode="players", ended_at=ENDED, movements=movements, last_seq=len(moves) + 1,
        last_hash=hashlib.sha256(hand.encode()).hexdigest())


def played() -> AdjudicationRecord:
    """Seat 1 wagers 10 and wins 10 (paid by the house), seat 3 wagers 5 and loses it to
    the house; seat 1 pays 1 rake. Drop 15, payouts 10, rake 1, collected 5."""
    return _record("000001", "ok", [
        ("wager", "stack:1", "layout:1", 10),
        ("wager", "stack:3", "layout:3", 5),
        ("rake", "stack:1", "house", 1),
        ("wager_collected", "layout:3", "house", 5),
        ("payout", "house", "stack:1", 10),
        ("layout_return", "layout:1", "stack:1", 10),
    ])


def dead() -> AdjudicationRecord:
    """HCF-13: the hand is dead. Seat 1 wagered 20 and seat 3 bet 6 more, paid 2 rake:
    the rake is refunded (HCF-12, ``rake_refund``), seat 3's 6 refunded by a payout, seat
    1's wager goes back. Drop 0 (the wagers were never at risk), payouts 0 (a refund),
    rake 0 (net); before the fix: wagered 26, paid 6, raked 2."""
    return _record("000002", "dead", [
        ("wager", "stack:1", "layout:1", 20),
        ("wager", "stack:3", "layout:3", 6),
        ("rake", "stack:1", "house", 2),
        ("rake_refund", "house", "stack:1", 2),
        ("wager_collected", "layout:3", "house", 6),
        ("payout", "house", "stack:3", 6),
        ("layout_return", "layout:1", "stack:1", 20),
    ])


def refused() -> AdjudicationRecord:
    """Seat 2 wagers 7 and the house collects 6 of it: the layout is left with 1 chip, so
    the ledger refuses the hand (GEN-8, LEDGER_REFUSED) and books none of its chips.
    Adjudicated: drop 7, collected 6."""
    return _record("000003", "discrepancy", [
        ("wager", "stack:2", "layout:2", 7),
        ("wager_collected", "layout:2", "house", 6),
    ])


def _value(registry: CollectorRegistry, name: str, labels: dict[str, str]) -> float:
    value = registry.get_sample_value(name, labels)
    assert value is not None, f"no sample {name}{labels}"
    return value


def test_a_dead_hand_has_no_drop_payouts_or_rake() -> None:
    registry = CollectorRegistry()
    metrics = AdjudicatorMetrics(registry)
    for record in (played(), dead()):
        metrics.observe_record(record, now=0.0)
    assert _value(registry, "pitwatch_wagered_chips_total", HCF) == 15
    assert _value(registry, "pitwatch_paid_chips_total", HCF) == 10
    assert _value(registry, "pitwatch_raked_chips_total", HCF) == 1
    assert _value(registry, "pitwatch_collected_chips_total", HCF) == 5 + 6


def test_chinese_poker_chips_between_players_are_not_collected_by_a_banker() -> None:
    """Seats 2 and 3 pay seat 1 30 and 12 points (``collection`` stack to stack); seat 1
    pays 2 rake. Between players 42, collected 0, drop 0, rake 2."""
    registry = CollectorRegistry()
    AdjudicatorMetrics(registry).observe_record(_record("000004", "ok", [
        ("collection", "stack:2", "stack:1", 30),
        ("collection", "stack:3", "stack:1", 12),
        ("rake", "stack:1", "house", 2),
    ], game="chinese"), now=0.0)
    assert _value(registry, "pitwatch_between_players_chips_total", CHINESE) == 42
    assert _value(registry, "pitwatch_collected_chips_total", CHINESE) == 0
    assert _value(registry, "pitwatch_wagered_chips_total", CHINESE) == 0
    assert _value(registry, "pitwatch_raked_chips_total", CHINESE) == 2


BOOKED = ("pitwatch_ledger_drop_chips_total", "pitwatch_ledger_payout_chips_total",
          "pitwatch_ledger_rake_chips_total")


def test_the_ledger_service_exports_the_money_it_booked(tmp_path: Path) -> None:
    """Batch 1: the played, the dead and the refused hand; batch 2: the played hand again
    (a duplicate). Booked: the played hand's drop 15, payouts 10, rake 1, and nothing of
    the dead hand (played out: none) nor of the refused one (not booked); what
    ``ledger totals`` says too. The adjudicated figures count the refused hand's 7."""
    engine = open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite'}")

    def booked() -> list[float]:
        return [REGISTRY.get_sample_value(name, HCF) or 0.0 for name in BOOKED]

    before = booked()
    statuses = book_prepared(engine, prepare_entries([played(), dead(), refused()]))
    assert statuses == {"posted": 2, "refused": 1}
    assert book_prepared(engine, prepare_entries([played()])) == {"duplicate": 1}
    after = booked()
    assert [b - a for a, b in zip(before, after, strict=True)] == [15, 10, 1]
    [totals] = table_day_totals(engine)
    assert (totals.drop, totals.payouts, totals.rake) == (15, 10, 1)

    live = CollectorRegistry()
    metrics = AdjudicatorMetrics(live)
    for record in (played(), dead(), refused()):
        metrics.observe_record(record, now=0.0)
    assert _value(live, "pitwatch_wagered_chips_total", HCF) == 15 + 7


def test_the_replays_booking_is_the_ledgers(tmp_path: Path) -> None:
    """The replay books by the ledger's own write (``Booking``): the refused hand books
    no chips, the played hand offered again (another batch) is booked once."""
    registry = CollectorRegistry()
    engine = open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite'}")
    book = Booking(LedgerMetrics(registry), engine, batch=3)
    book.add([played(), dead()])
    assert _value(registry, "pitwatch_ledger_hands_total", {"status": "posted"}) == 0
    book.add([refused()])  # the third record: the batch is posted
    book.add([played()])
    book.flush()
    assert [_value(registry, name, HCF) for name in BOOKED] == [15, 10, 1]
    assert _value(registry, "pitwatch_ledger_hands_total", {"status": "posted"}) == 2
    assert _value(registry, "pitwatch_ledger_hands_total", {"status": "refused"}) == 1
    assert _value(registry, "pitwatch_ledger_hands_total", {"status": "duplicate"}) == 1


GAMES = ["hcf", "chinese", "draw7a", "russian", "holdem"]


@pytest.fixture(scope="module")
def faulty_log() -> list[bytes]:
    """Five tables of 40 hands with every fault at 10 %: seed 3 has a dead HCF hand with
    wagers and refused hands of HCF, draw7a and hold'em (QA's log in small)."""
    faults = frozenset(f for g in GAMES for f in available_faults(g)) | frozenset(STREAM_FAULTS)
    log = simulate(GAMES, tables=5, hands=40, seed=3, faults=faults, fault_rate=0.1,
                   profile=HOUSE)
    return [orjson.dumps(e) for e in log.events]


def test_replayed_metrics_agree_with_ledger_totals(faulty_log: list[bytes],
                                                   tmp_path: Path) -> None:
    """QA's comparison, per game: the replay's booked drop, payouts and rake equal what
    ``ledger totals`` sums after booking the same records; the adjudicated figures are
    the same definitions over every hand, refused ones included."""
    registry = CollectorRegistry()
    records: list[AdjudicationRecord] = []

    class Recording(AdjudicatorMetrics):
        def observe_record(self, record: object, now: float | None = None) -> None:
            records.append(record)  # type: ignore[arg-type]
            super().observe_record(record, now)  # type: ignore[arg-type]

    engine = open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite'}")
    replay(faulty_log, Recording(registry), PROFILES,
           booking=Booking(LedgerMetrics(registry), engine))
    dead_hands = [r for r in records if r.status == "dead"
                  and any(m.kind == "wager" for m in r.movements or [])]
    refused_hands = [r for r in records if build_entry(r).refusal is not None]
    assert dead_hands and refused_hands

    with engine.connect() as conn:
        game_of = {table: game for table, game in conn.execute(select(Hand.table_id, Hand.game))}
    ledger: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for t in table_day_totals(engine):
        sums = ledger[game_of[t.table_id] or "unknown"]
        sums[0], sums[1], sums[2] = sums[0] + t.drop, sums[1] + t.payouts, sums[2] + t.rake

    def per_game(name: str) -> dict[str, int]:
        out: dict[str, int] = defaultdict(int)
        for family in registry.collect():
            for sample in family.samples:
                if sample.name == name:
                    out[sample.labels["game"]] += int(sample.value)
        return out

    metric = [per_game(name) for name in BOOKED]
    for game in GAMES:
        assert [m[game] for m in metric] == ledger[game], game
    live = per_game("pitwatch_wagered_chips_total")
    for game in GAMES:
        assert live[game] == sum(hand_chips(r.status, r.movements).drop
                                 for r in records if r.game == game)
    assert sum(live.values()) > sum(metric[0].values())  # the refused hands' drop


def test_the_pipelines_record_view_reads_where_chips_went() -> None:
    """On the pipeline the adjudicator's metrics read a lighter view of each record
    (services/pipeline/monitoring.py); it must carry a movement's ends, or Chinese
    Poker's points would be counted as collected by a banker."""
    from services.events.contract import encode_record
    from services.pipeline.monitoring import observe_adjudicator_batch
    from tests.unit.pipeline.test_monitoring import Out, Topics

    registry = CollectorRegistry()
    topics = Topics()
    record = _record("000005", "ok", [("collection", "stack:2", "stack:1", 30),
                                      ("rake", "stack:1", "house", 2)], game="chinese")
    observe_adjudicator_batch([Out(topics.adjudications, encode_record(record)),
                               Out(topics.adjudications, encode_record(dead()))], topics,
                              consumed=2, now=0.0, metrics=AdjudicatorMetrics(registry))
    assert _value(registry, "pitwatch_between_players_chips_total", CHINESE) == 30
    assert _value(registry, "pitwatch_collected_chips_total", CHINESE) == 0
    assert _value(registry, "pitwatch_raked_chips_total", CHINESE) == 2
    assert _value(registry, "pitwatch_wagered_chips_total", HCF) == 0
    assert _value(registry, "pitwatch_raked_chips_total", HCF) == 0
