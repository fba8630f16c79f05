"""The garbage collector's thresholds for processes that book batches or run long.

Why: a ledger or archive batch decodes thousands of records into objects that live for
the whole batch (records, entries, rows, the driver's parameters), and ``pitwatch
adjudicate --ledger`` holds a whole run's records and archive segments until it books
them. With CPython's default thresholds (a young collection every 700 allocations, an
older one every 10 of those) the collector traverses those same live objects again and
again: measured at about 40% of the ledger service's CPU per hand (0.38 -> 0.22 ms with
the thresholds below, 800 HCF hands into PostgreSQL) and about 10% of ``adjudicate
--ledger`` (2,000 HCF hands into SQLite with the archive). A run without a ledger, whose
objects are short-lived, still had the collector walk everything its start-up made
(modules, profiles, the engine) at each older collection: with those frozen
(``gc.freeze``) and the thresholds below, the native engine's embedded run went from
about 244 to 220 µs an HCF hand (10,000 hands, in process, best of 3), and every
``pitwatch adjudicate`` and adjudicator worker now calls ``tune_for_batches`` too.
Nothing is left uncollected: reference counting frees a batch's objects when it ends, and
cycles are still collected, only after more allocations.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 20_000  # allocations between young collections (CPython's default: 700)
MIDDLE_THRESHOLD = 20  # young collections per middle one (default 10)
OLD_THRESHOLD = 100  # middle collections per old one (default 10)


def tune_for_batches() -> None:
    """Set the thresholds above, and move what exists now (the imported modules, the
    rule profiles, the engine) out of the collector's sight (``gc.freeze``): a process
    calls it once, after its start-up, and those objects live as long as it does, so a
    collection that walks them again finds nothing."""
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLD_THRESHOLD)
