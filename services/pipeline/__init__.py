"""Everything that touches Kafka: the adjudicator worker, topics, the producer, the
per-batch step, the ledger and surveillance services, the broker-side watch, the
monitoring hooks and the ``serve`` / ``produce`` / ``topics`` commands.

The domain packages below (events, games, adjudicator, ledger, surveillance, reports)
import no Kafka library; this package drives their pure functions.
"""
