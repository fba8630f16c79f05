"""What the book already holds for a batch's hands: the look-ups the booking plan
(``services.ledger.posting``) makes before it writes anything.

Why apart: the plan decides, for every record of a batch, whether it is new, a repeat, a
changed re-post or a copy of a booked hand, from these few reads; the writes are the
plan's. On PostgreSQL a batch's keys go as ONE array parameter, so a statement's text is
the same for every batch: an IN list renders a placeholder per key, and psycopg parses
each new statement text in Python before sending it (its cache is keyed by the text):
with batches of 150 hands, the stored-hash look-up and the accounts' insert cost the
service about 35 µs of CPU a hand that way, an eighth of its CPU.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import Connection, select, text

from services.ledger.entries import REFUSED_CODE
from services.ledger.models import FindingRow, Hand, HandEnd

_STORED_HASHES_PG = text(
    "SELECT hand_id, record_sha256, ledger_status FROM hands "
    "WHERE hand_id = ANY(CAST(:ids AS text[]))")


class Stored(NamedTuple):
    """A booked hand's record hash, and whether the ledger refused it."""

    sha256: str
    refused: bool  # stored as refused: no chips booked (GEN-8)


def stored_hashes(conn: Connection, hand_ids: set[str]) -> dict[str, Stored]:
    """What the book holds of these hands (those it holds)."""
    if conn.dialect.name == "postgresql":
        rows = conn.execute(_STORED_HASHES_PG, {"ids": sorted(hand_ids)})
    else:
        rows = conn.execute(select(Hand.hand_id, Hand.record_sha256, Hand.ledger_status)
                            .where(Hand.hand_id.in_(sorted(hand_ids))))
    return {hand_id: Stored(sha, status == "refused") for hand_id, sha, status in rows}


_HANDS_ENDING_AT_PG = text(
    "SELECT last_hash, hand_id FROM hand_ends WHERE last_hash = ANY(CAST(:ends AS text[]))")
_SQLITE_ENDS_PER_QUERY = 5_000  # well under SQLite's 32,766 bound parameters


def hands_ending_at(conn: Connection, ends: set[str]) -> dict[str, str]:
    """The booked hand that ends at each of these events (by hash), if any."""
    if not ends:
        return {}
    keys = sorted(ends)
    if conn.dialect.name == "postgresql":
        found = conn.execute(_HANDS_ENDING_AT_PG, {"ends": keys})
        return {last: hand for last, hand in found}
    owners: dict[str, str] = {}
    for start in range(0, len(keys), _SQLITE_ENDS_PER_QUERY):
        chunk = keys[start:start + _SQLITE_ENDS_PER_QUERY]
        found = conn.execute(select(HandEnd.last_hash, HandEnd.hand_id)
                             .where(HandEnd.last_hash.in_(chunk)))
        owners.update((last, hand) for last, hand in found)
    return owners


def stored_json(conn: Connection, hand_id: str) -> str:
    return conn.execute(select(Hand.record_json).where(Hand.hand_id == hand_id)).scalar_one()


def refusal_reasons(conn: Connection, hand_ids: set[str]) -> dict[str, str]:
    """The ledger's refusal message kept with each of these refused hands."""
    rows = conn.execute(select(FindingRow.hand_id, FindingRow.message).where(
        FindingRow.hand_id.in_(sorted(hand_ids)), FindingRow.origin == "ledger",
        FindingRow.code == REFUSED_CODE).order_by(FindingRow.hand_id, FindingRow.ordinal))
    reasons: dict[str, str] = {}
    for hand_id, message in rows:
        reasons.setdefault(hand_id, message)
    return reasons
