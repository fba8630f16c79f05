"""Faust's end of recovery, reordered so that no fetched record is silently dropped.

Why this exists: in faust-streaming 0.15.x, ``Recovery.on_recovery_completed`` (run after
every rebalance, once the changelog is read) does, in this order:

1. resume the stream partitions (the fetcher may fetch from them from now on);
2. ``await`` the seek to the committed offsets (other tasks run meanwhile);
3. ``app.flow_control.resume()``, which **clears every stream queue**.

Records the fetcher delivered between 1 and 3 sit in a queue when 3 empties it, but the
consumer has already counted them as read (its read offset moved past them) and the
broker client's position has moved past them too: they are never delivered again and
never acknowledged. Seen here under load, with two workers and one killed: the survivor
took over the dead worker's partitions and either lost a stretch of records (a hand of
that table then came out with a ``SEQ_GAP`` finding the embedded run does not have) or
lost the whole fetched backlog of those partitions and stopped adjudicating them, its
committed offset stuck at the first lost record.

The order below closes the window: the stream partitions stay paused (Faust pauses every
assigned partition when the assignment arrives) while the seek and the queue clearing
happen, and are resumed only after both; from then on nothing clears the queues until
the next rebalance, which pauses them again first. Everything else is the upstream
method unchanged. ``tests/unit/stream/test_faust_recovery.py`` pins the order; the
scale-out and kill tests in ``tests/integration/test_pipeline_faults.py`` exercise it.
"""

from __future__ import annotations

import asyncio

from faust.tables.manager import TableManager
from faust.tables.recovery import Recovery
from faust.types import TP


class SeekThenResumeRecovery(Recovery):
    """``Recovery`` whose completion seeks and clears before it resumes the streams."""

    async def on_recovery_completed(self, generation_id: int = 0) -> None:
        consumer = self.app.consumer
        self.log.info("Restore complete!")
        await self.app.on_rebalance_complete.send()
        self._set_recovery_ended()
        callback_coros = [
            asyncio.ensure_future(table.on_recovery_completed(
                self.actives_for_table[table], self.standbys_for_table[table]))
            for table in self.tables.values()
        ]
        if callback_coros:
            await asyncio.wait(callback_coros)
        assignment = consumer.assignment()
        if self.app.consumer_generation_id != generation_id:
            self.log.warning("Recovery rebalancing again app id %r param %r",
                             self.app.consumer_generation_id, generation_id)
            return
        streams: set[TP] = {tp for tp in assignment if not self._is_changelog_tp(tp)}
        if assignment:
            # Still paused: whatever the fetcher holds for these partitions is not
            # delivered, and the seek discards it.
            self.log.info("Seek stream partitions to committed offsets.")
            await self._wait(consumer.perform_seek(),
                             timeout=self.app.conf.broker_request_timeout)
        self.completed.set()
        # Clears the queues; no record of a stream partition can be in one yet.
        self.app.flow_control.resume()
        consumer.resume_partitions(streams)
        consumer.resume_flow()
        await self.app._fetcher.maybe_start()  # type: ignore[attr-defined]
        self.tables.on_actives_ready()
        if not self.app.assignor.assigned_standbys():
            self.tables.on_standbys_ready()
        self.app.on_rebalance_end()
        self.log.info("Worker ready")


class SeekThenResumeTableManager(TableManager):
    """The table manager of the adjudicator app: upstream, with the recovery above."""

    @property
    def recovery(self) -> Recovery:
        if self._recovery is None:
            self._recovery = SeekThenResumeRecovery(
                self.app, self, beacon=self.beacon, loop=self.loop)
        return self._recovery
