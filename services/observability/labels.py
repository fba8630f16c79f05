"""Label values for pitwatch's metrics: every one from a small, known set.

Why this module exists: a Prometheus label value becomes a time series of its own, kept
for weeks. A value taken from a player id or a hand id would put personal data into the
monitoring system (privacy: architecture.md, "No player identifier in metric labels") and
create one series per player or per hand (cardinality: the server falls over). So every
label value is one of:

- a closed vocabulary decided here (reason classes, finding categories, statuses, games,
  rake modes, severities), with ``other``/``unknown`` for anything outside it;
- an identifier of the floor's own equipment or staff — a table id, a dealer's employee
  id — which is bounded by the size of the casino, and is still capped here
  (``BoundedValues``) so that a table system sending garbage ids cannot flood the server.

Player ids and hand ids never reach a label: the code that observes records reads only the
fields named above, and ``floor_id_label`` refuses a table or dealer id that equals one of
the hand's player ids (a table system that puts a player id in the wrong field must not
leak it).
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from typing import Final, get_args

from services.events.contract import GameName, HandStatus, RakeMode, Severity

OTHER: Final = "other"
UNKNOWN: Final = "unknown"
REDACTED: Final = "redacted"

GAMES: Final = frozenset(get_args(GameName))
RAKE_MODES: Final = frozenset(get_args(RakeMode))
SEVERITIES: Final = frozenset(get_args(Severity))
HAND_STATUSES: Final = frozenset(get_args(HandStatus))

# Why a record was not applied. DLQ reasons come as free text from intake (``parse_record``),
# hand assembly (``apply_event``) and the stream step; the class is read from how the text
# starts. Chain rejections (duplicates, conflicts) are not dead-lettered: they are alerts,
# and their class comes from the alert code (``CHAIN_REJECTION_CLASSES``).
REASON_PREFIXES: Final[tuple[tuple[str, str], ...]] = (
    ("malformed JSON", "malformed"),
    ("repeated key:", "malformed"),
    ("control character:", "malformed"),
    ("nesting:", "oversize"),
    ("empty record", "malformed"),
    ("schema:", "schema"),
    ("cannot canonicalise", "schema"),
    ("record of ", "oversize"),
    ("record key ", "key"),
    ("event seq ", "orphan"),
)
CHAIN_REJECTION_CLASSES: Final[dict[str, str]] = {
    "DUPLICATE_EVENT": "duplicate",
    # Older than the duplicate window: most likely a late redelivery (not verifiable).
    "STALE_EVENT": "duplicate",
    "EVENT_ID_CONFLICT": "chain",
    "SEQ_CONFLICT": "chain",
}
REASON_CLASSES: Final = frozenset(
    {cls for _, cls in REASON_PREFIXES} | set(CHAIN_REJECTION_CLASSES.values()) | {OTHER}
)

# SURV-9 codes that mean the hash chain or the sequence of a table's events is broken.
CHAIN_FAILURE_CODES: Final = frozenset(
    {"CHAIN_BROKEN", "SEQ_GAP", "SEQ_CONFLICT", "EVENT_ID_CONFLICT", "REORDERED"}
)

# Findings about the money of a hand (the expected-vs-recorded comparison and the
# recorded side's own checks, services/adjudicator/adjudicate.py and recorded.py).
SETTLEMENT_CODES: Final = frozenset(
    {"MISPAY", "RAKE_OVER", "RAKE_UNDER", "POT_NOT_EMPTY", "POT_OVERDRAWN", "LAYOUT_OVERDRAWN",
     "UNRESOLVABLE_MOVEMENT"}
)
# Rules about the integrity of the stream, the deck, the wagers, the chips and the
# configuration (SURV-9 stream, GEN-1 deck, SURV-1 past-posting and late wagers, GEN-3
# chips during a hand, GEN-4 cash, GEN-5 configuration).
INTEGRITY_RULES: Final = frozenset({"SURV-9", "GEN-1", "SURV-1", "GEN-3", "GEN-4", "GEN-5"})
# Integrity codes that cite a game's own rule: a wager placed after the first card
# (PAST_POSTING, HCF-3; after an outcome it cites SURV-1), a deck other than the game's
# (WRONG_DECK: FCD-1, RP-1, TH-9), and cards shown or turned that are not the cards dealt
# (SHOWN_CARDS_MISMATCH: FCD-9, TH-9; CARDS_SWITCHED and DEALER_CARDS_SWITCHED: RP-10),
# which is what HCF's SHOWDOWN_MISMATCH is under GEN-1. All are critical in house-v1 and
# the compliance guide sends them to video review and security: what the integrity
# dashboard is for, not how the game was dealt. (Until 2026-12-07 the switched cards
# counted as procedure because their rule is the game's own.)
INTEGRITY_CODES: Final = frozenset({"PAST_POSTING", "WRONG_DECK", "SHOWN_CARDS_MISMATCH",
                                    "CARDS_SWITCHED", "DEALER_CARDS_SWITCHED"})
FINDING_CATEGORIES: Final = frozenset({"settlement", "integrity", "procedure"})

LEDGER_STATUSES: Final = frozenset({"posted", "duplicate", "conflict", "refused",
                                    "undecodable"})
# A ledger write fails as a whole (``error``: the transaction raised) or for one hand.
LEDGER_FAILURE_REASONS: Final = frozenset({"error", "conflict", "refused", "undecodable"})

# The cross-hand surveillance service (services/surveillance): each SURV rule it raises
# and the one alert code that rule uses. A fixed set: tests/unit/observability/
# test_surveillance_metrics.py checks it against services/surveillance, so a new rule or
# code there fails a test here instead of landing silently in ``other``.
SURVEILLANCE_CODES: Final[dict[str, str]] = {
    "SURV-2": "SWEETHEARTING",
    "SURV-3": "CHIP_DUMPING",
    "SURV-4": "SOFT_PLAY",
    "SURV-5": "INFORMATION_SHARING",
    "SURV-6": "IMPROBABLE_RESULTS",
    "SURV-7": "EXPOSURE_CONCENTRATION",
    "SURV-8": "PROCEDURE_DRIFT",
}
SURVEILLANCE_RULES: Final = frozenset(SURVEILLANCE_CODES)
SURVEILLANCE_CODE_SET: Final = frozenset(SURVEILLANCE_CODES.values())
# Why the surveillance service let a record of table-events go without surveilling it:
# ``malformed`` (no value, not JSON), ``schema`` (JSON but not an event envelope: no valid
# ts or table_id), ``rejected`` (an event the embedded adjudication dead-lettered).
SURVEILLANCE_SKIP_REASONS: Final = frozenset({"malformed", "schema", "rejected"})
# Alerts produced while the service replays table-events up to where it ended at start
# (mostly the same alerts again, same ids) or after it caught up (new ones).
SURVEILLANCE_PHASES: Final = frozenset({"replay", "live"})
# Why a SURV-8 / SURV-5 review ran: every ``review_every`` hands, or at a clean stop.
REVIEW_TRIGGERS: Final = frozenset({"periodic", "shutdown"})

MAX_TABLES: Final = 2000
MAX_DEALERS: Final = 5000
MAX_PARTITIONS: Final = 1024


def reason_class(reason: str) -> str:
    """The class of a dead-letter reason (``malformed``, ``schema``, ``orphan`` ...)."""
    for prefix, cls in REASON_PREFIXES:
        if reason.startswith(prefix):
            return cls
    return OTHER


def finding_category(code: str, rule: str) -> str:
    """``settlement`` (money of the hand), ``integrity`` (stream, deck, wagers placed late,
    chips, config) or ``procedure`` (how the game was dealt and played: everything else)."""
    if code in SETTLEMENT_CODES:
        return "settlement"
    if rule in INTEGRITY_RULES or code in INTEGRITY_CODES:
        return "integrity"
    return "procedure"


def closed(value: str | None, vocabulary: Collection[str]) -> str:
    """``value`` if it is in ``vocabulary``, else ``unknown``."""
    return value if value is not None and value in vocabulary else UNKNOWN


def known_or_other(value: str | None, vocabulary: Collection[str]) -> str:
    """``value`` if it is in ``vocabulary``, else ``other``: a value that is present but
    outside a fixed set (a surveillance rule or code added without updating this module)."""
    return value if value is not None and value in vocabulary else OTHER


class BoundedValues:
    """Admits the first ``limit`` distinct values of a label; later ones read ``other``.

    Table ids and dealer ids are bounded by the floor, but they come from the table
    systems: a misconfigured system sending a fresh id per event must cost one extra
    series, not millions. Thread-safe (the metrics server reads from another thread and
    services may observe from worker threads).
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    def __call__(self, value: str | None) -> str:
        if not value:
            return UNKNOWN
        if value in self._seen:
            return value
        with self._lock:
            if len(self._seen) < self.limit:
                self._seen.add(value)
                return value
        return OTHER


def floor_id_label(value: str | None, player_ids: Collection[str],
                   bounded: BoundedValues) -> str:
    """A table id or a dealer's employee id as a label, unless it is one of the hand's
    player ids (then ``redacted``: a table system wrote a player id in the wrong field)."""
    if value is not None and value in player_ids:
        return REDACTED
    return bounded(value)
