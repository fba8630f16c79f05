"""Committing a consumed batch once its effects are stored: the last step of the ledger's
and the archive's at-least-once loop (write in one transaction, then commit offsets).

A commit that fails is not an error of the batch: its records come again and the writers'
unique source ids make them duplicates, so the failure is logged and the loop goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Protocol

from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.errors import KafkaError

from services.pipeline.failpoints import failpoint


class HasOffset(Protocol):
    @property
    def offset(self) -> int: ...


def next_offsets(batch: Mapping[TopicPartition, Sequence[HasOffset]]
                 ) -> dict[TopicPartition, int]:
    """The offsets to commit once ``batch`` is stored: one past the last of each."""
    return {tp: messages[-1].offset + 1 for tp, messages in batch.items() if messages}


async def commit_batch(consumer: AIOKafkaConsumer,
                       batch: Mapping[TopicPartition, Sequence[HasOffset]],
                       log: logging.Logger) -> None:
    """Commit ``batch``'s offsets (failpoint ``committed`` after); a failed commit is
    logged: the batch will be re-delivered and stored as duplicates."""
    try:
        await consumer.commit(next_offsets(batch))
        failpoint("committed")
    except KafkaError as exc:
        log.warning("offset commit failed (%r); the batch will be re-delivered", exc)
