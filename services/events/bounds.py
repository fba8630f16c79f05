"""Every bound the v1 contract and the per-table state put on input, in one place.

Why one module: a bound is part of the contract (docs/events.md, "Bounds"), so the
schema (``contract``), intake (``services.adjudicator.intake``), the per-table state
(``services.adjudicator.table`` and ``chain``) and any second implementation (the native
core) must read the same number. Each bound says why it has its value; the reason a
record is refused for exceeding it is in docs/events.md ("Why a record is refused").

The values are chosen so that no record a table system can legitimately send comes near
them: they exist to keep one hostile record from costing unbounded time or memory, not to
police plausible data.
"""

from __future__ import annotations

from typing import Final

# ---------------------------------------------------------------- one record (intake)

# Bytes of one record (a JSONL line as read, without its ``\n`` or ``\r\n`` and before
# the whitespace around the record is stripped: ``services.events.wire.record_of_line``;
# or a Kafka value). The largest valid record (a ``table_configured`` with full paytables)
# is a few tens of KB.
MAX_RECORD_BYTES: Final = 1_000_000

# Nesting of JSON objects and arrays; the record itself is depth 1. The deepest value the
# contract has is depth 4 (``$.data.seats[i]``, ``$.data.paytables.<table>``); the bound
# leaves room for optional fields and is checked on the raw bytes, before any parser runs
# (a parser recursing into 1,000 levels is what stopped whole runs, issue #19).
MAX_NESTING_DEPTH: Final = 8

# Identifiers and names (``table_id``, ``hand_id``, ``source``, player and dealer ids,
# ``rule_profile``, ``authorized_by``): 1 to 200 characters.
MAX_NAME_LENGTH: Final = 200

# Free text a dealer or device writes (``reason``, ``detail``).
MAX_TEXT_LENGTH: Final = 1_000

# Seat numbers run 1..MAX_SEATS, and ``hand_started.seats`` lists at most MAX_SEATS seats.
MAX_SEATS: Final = 64

# Cards in one list (``draw``, ``showdown``, ``stub_reshuffled``, ``hand_set`` segments,
# ``dealer_replaced_card.burned``): at most a whole deck.
MAX_CARDS_PER_LIST: Final = 52

# ``table_configured.paytables``: at most this many paytables, of at most this many rows,
# each name (paytable or row) 1 to MAX_PAYTABLE_KEY_LENGTH characters.
MAX_PAYTABLES: Final = 32
MAX_PAYTABLE_ROWS: Final = 64
MAX_PAYTABLE_KEY_LENGTH: Final = 64

# Integers stay inside the IEEE-754 safe range, where RFC 8785 canonical JSON is exact
# (amounts, ``seq``).
MAX_SAFE_INTEGER: Final = 2**53 - 1

# ---------------------------------------------------------------- per table (state)

# Events in one hand; a hand that grows past it is closed as INCOMPLETE_HAND (SURV-9).
# Chain findings held by the hand count against the same bound.
MAX_HAND_EVENTS: Final = 4_000

# The duplicate window: a table remembers (seq, event_id, hash) of every event applied
# since the start of its previous hand (so a redelivery of anything in the current or the
# previous hand is recognised exactly), and never more than this many events (two hands
# of MAX_HAND_EVENTS plus the events between them); beyond it the lowest seqs go first.
MAX_REMEMBERED_EVENTS: Final = 8_192

# Ranges of sequence numbers gaps skipped that the table still expects to arrive late
# (REORDERED). A gap is one range (first..last) whatever its length, so a forged jump to
# seq 2**53 - 1 does not make the table forget the genuine seqs it skipped (they would be
# STALE_EVENT and never applied); each late arrival inside a range splits it. Past the
# bound the lowest ranges are forgotten: a hostile log of many jumps costs bounded memory.
MAX_MISSING_RANGES: Final = 64

# Chain findings detected outside any hand, held until the table's next hand starts.
MAX_HELD_FINDINGS: Final = 64

# Designated-player offers remembered between two hands (HCF-2); the latest are kept.
MAX_OFFERS: Final = 64

# CP-9 buy history kept per seated player.
MAX_BUYS_PER_SEAT: Final = 16
