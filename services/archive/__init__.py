"""The event archive: every event a table sent, kept append-only in the database and
re-verifiable for years (``docs/archive.md``).

- ``segment``: a table's segment as stored and as sent on Kafka (compressed canonical JSON
  and the columns that index it);
- ``writer``: writing segments and alerts, idempotent by event;
- ``reader``: a table's archived events back, in arrival order (reports, replay);
- ``verify``: every hash chain re-checked, each break reported;
- ``replay``: archived hands re-adjudicated and compared with their stored records;
- ``partitions``: PostgreSQL's day partitions, and detaching the days past retention;
- ``queries``: what the console and the CLI ask of the archive (hands, days, tables).
"""
