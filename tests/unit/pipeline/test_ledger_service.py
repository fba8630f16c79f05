"""The ledger service's loop: the next batch is prepared while the previous one is booked,
up to ``in_flight`` transactions run at once, and the offsets keep their order
(services.pipeline.ledger_service.LedgerService.run).

The crash proofs against the real broker and PostgreSQL are the integration kill tests;
this pins the order the loop promises, with a consumer that hands out three batches and a
booking that holds each transaction open until it has seen what happened meanwhile."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiokafka import TopicPartition

from services.events.contract import encode_record
from services.ledger.entries import HandEntry
from services.pipeline import ledger_service
from services.pipeline.ledger_service import LedgerService, LedgerServiceSettings
from tests.unit.ledger.builders import hcf_dp_collects, hcf_seat1_wins, russian_house_hand

TOPIC = "adjudications"
RECORDS = (hcf_seat1_wins(), hcf_dp_collects(), russian_house_hand())  # a batch each
WAIT_SECONDS = 10.0


@dataclass(frozen=True)
class Message:
    topic: str
    partition: int
    offset: int
    value: bytes


class Consumer:
    """Three batches of one record each, then nothing (and the service is stopped)."""

    def __init__(self, service: LedgerService, events: list[tuple[str, int]]) -> None:
        tp = TopicPartition(TOPIC, 0)
        self.batches = [{tp: [Message(TOPIC, 0, n, encode_record(r))]}
                        for n, r in enumerate(RECORDS)]
        self.service = service
        self.events = events

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def getmany(self, timeout_ms: int, max_records: int
                      ) -> dict[TopicPartition, list[Message]]:
        await asyncio.sleep(0)  # a fetch yields to the loop, as aiokafka's does
        if self.batches:
            return self.batches.pop(0)
        self.service.stop()
        return {}

    async def commit(self, offsets: dict[TopicPartition, int]) -> None:
        (offset,) = offsets.values()
        self.events.append(("commit", offset - 1))


def test_the_next_batch_is_prepared_while_the_previous_one_is_booked_in_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One transaction in flight: each batch is booked and its offsets committed before
    the next batch's transaction starts, and the next batch is prepared meanwhile."""
    events: list[tuple[str, int]] = []
    lock = threading.Lock()
    prepared_next = [threading.Event() for _ in range(3)]
    service = LedgerService(LedgerServiceSettings(db_url=f"sqlite:///{tmp_path}/l.sqlite",
                                                  in_flight=1))
    consumer = Consumer(service, events)
    monkeypatch.setattr(service, "new_consumer", lambda: consumer)
    real_prepare = service.prepare
    offsets = {r.hand_id: n for n, r in enumerate(RECORDS)}

    def prepare(batch: ledger_service.Batch) -> ledger_service.Prepared:
        (messages,) = batch.values()
        n = messages[0].offset
        with lock:
            events.append(("prepare", n))
        if n > 0:
            prepared_next[n - 1].set()
        return real_prepare(batch)

    def book(engine: object, entries: list[HandEntry]) -> Counter[str]:
        n = offsets[entries[0].hand_id]
        with lock:
            events.append(("book start", n))
        if n < 2:  # the last batch has no next one to wait for
            assert prepared_next[n].wait(WAIT_SECONDS), f"batch {n + 1} never prepared"
        with lock:
            events.append(("book end", n))
        return Counter(posted=len(entries))

    monkeypatch.setattr(service, "prepare", prepare)
    monkeypatch.setattr(ledger_service, "book_prepared", book)
    asyncio.run(service.run())

    def at(event: tuple[str, int]) -> int:
        return events.index(event)

    assert len(events) == 12, events
    for n in range(3):
        assert at(("prepare", n)) < at(("book start", n)) < at(("book end", n)) \
            < at(("commit", n)), events
    for n in range(2):
        # The next batch's transaction starts only after this one's offsets went in ...
        assert at(("commit", n)) < at(("book start", n + 1)), events
        # ... and it was prepared before this one's transaction ended (the booking waits
        # for that: were the loop serial, it would wait in vain and fail above).
        assert at(("prepare", n + 1)) < at(("book end", n)), events
    assert service.totals["posted"] == 3


def test_two_transactions_at_once_commit_their_offsets_in_batch_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two transactions in flight (the default): batch 1's transaction starts while batch
    0's is open and ends first, yet batch 1's offsets go in only after batch 0's; batch 2's
    transaction waits for batch 0 to be done (never three at once). Were the offsets
    committed as each transaction ended, a crash after batch 1's commit would lose batch
    0's hands; were the transactions serial, batch 0 would wait in vain below."""
    events: list[tuple[str, int]] = []
    lock = threading.Lock()
    second_started = threading.Event()
    service = LedgerService(LedgerServiceSettings(db_url=f"sqlite:///{tmp_path}/l.sqlite"))
    assert service.settings.in_flight == 2
    consumer = Consumer(service, events)
    monkeypatch.setattr(service, "new_consumer", lambda: consumer)
    offsets = {r.hand_id: n for n, r in enumerate(RECORDS)}

    def book(engine: object, entries: list[HandEntry]) -> Counter[str]:
        n = offsets[entries[0].hand_id]
        with lock:
            events.append(("book start", n))
        if n == 0:
            assert second_started.wait(WAIT_SECONDS), "batch 1 never booked alongside"
        if n == 1:
            second_started.set()
        with lock:
            events.append(("book end", n))
        return Counter(posted=len(entries))

    monkeypatch.setattr(ledger_service, "book_prepared", book)
    asyncio.run(service.run())

    def at(event: tuple[str, int]) -> int:
        return events.index(event)

    assert len(events) == 9, events
    assert at(("book start", 1)) < at(("book end", 1)) < at(("book end", 0)), events
    assert at(("book end", 0)) < at(("commit", 0)) < at(("commit", 1)) < at(("commit", 2))
    assert at(("commit", 0)) < at(("book start", 2)), events
    assert service.totals["posted"] == 3


def test_no_transaction_in_flight_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"at least one transaction in flight, not 0: set "
                                         r"PITWATCH_LEDGER_IN_FLIGHT"):
        LedgerServiceSettings(in_flight=0)
