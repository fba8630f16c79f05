"""Whether a log given with ``--events`` holds the booked hand's events, whole and from
the table's start: what a dispute report may re-derive a booked hand from.

Why apart from the report: it decides whether a report is written at all (``report
hand`` refuses a log that cannot re-derive the hand; ``report daily`` reads such hands from
the archive), and every way a log fell short once made a report that accused an honest
file of tampering (QA): the rule is one function, ``not_whole_in_log``.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.events.contract import (
    AdjudicationRecord,
    HandEndedEvent,
    HandStartedEvent,
    encode_record,
)
from services.reports.replay import HandReplay


@dataclass(frozen=True)
class LogMismatch:
    """Why a log cannot give the booked hand's report: ``clause`` says it (for a note or an
    error line); ``other_hand``: the log's hand is not the booked hand's events (another
    log, or one changed after booking), else the log holds them but lacks what re-derives
    them (part of the hand, or the table's start)."""

    clause: str
    other_hand: bool
    next_step: str | None = None  # the advice, when not a log's given beside a booking

    @property
    def advice(self) -> str:
        """What to do, for the error line of ``report hand``."""
        if self.next_step is not None:
            return self.next_step
        if self.other_hand:
            return ("give the log the hand was booked from, or leave out --events to read "
                    "it from the event archive")
        return ("give a log holding the table from its first event on (the days' files in "
                "one), or leave out --events to read it from the event archive")


def the_log(log_name: str | None) -> str:
    """How a clause names where the events came from: "the event log NAME", or the
    archive by its own name ("the event archive")."""
    if log_name and log_name.startswith("the "):
        return log_name
    return f"the event log {log_name}" if log_name else "the event log"


def not_whole_in_log(replay: HandReplay, record: AdjudicationRecord, log_name: str | None
                     ) -> LogMismatch | None:
    """Why the log cannot re-derive the booked hand, or None. Replayed from one day's file
    of a table run a file a day (``--leave-open``), a hand that began in the file before,
    or any hand of a file that starts the table after its first event (its configuration
    and seats are in the files before), made a record other than the booked one, and the
    report said the log or the booking had been changed: an honest file accused of
    tampering (QA). So did a log of another day holding a hand of the same id: its cards
    and timeline beside the booking's findings, "VERIFIED" beside a differing last_hash
    (QA). Hence, in this order: a log holding the hand unfinished (no ``hand_started`` or
    no ``hand_ended``) inside the booked seq range, its last event the booked one when it
    holds it, holds it in part; a log whose hand's seq range or last event's hash is not
    the booked record's holds another hand (the hash of the last event chains every event
    of the table up to it); a log holding the booked events but starting the table late
    lacks its start. A log holding the table from its first event and the booked hand's
    events re-derives it; a record that differs then is news."""
    first, last, booked_hash = record.first_seq, record.last_seq, record.last_hash
    hand = [e for e in replay.events if e.event.hand_id == record.hand_id]
    where = the_log(log_name)
    if hand and first is not None and last is not None:
        lo, hi = min(e.event.seq for e in hand), max(e.event.seq for e in hand)
        last_hash = [e.hash for e in hand if e.event.seq == hi][-1]
        unfinished = not (any(isinstance(e.event, HandStartedEvent) for e in hand)
                          and any(isinstance(e.event, HandEndedEvent) for e in hand))
        same_end = hi < last or booked_hash in (None, last_hash)
        if unfinished and first <= lo and hi <= last and same_end and (lo, hi) != (first, last):
            return LogMismatch(
                f"{where} holds this hand only in part (seq {lo} to {hi} of "
                f"its seq {first} to {last}: the hand runs across logs)", other_hand=False)
        if (lo, hi) != (first, last) or booked_hash not in (None, last_hash):
            return LogMismatch(
                f"{where} holds a hand {record.hand_id} that is not the booked "
                f"one: its events hash otherwise (seq {lo} to {hi}, the last hashing "
                f"{last_hash}; booked: seq {first} to {last}, last_hash "
                f"{booked_hash or 'not recorded'}): another log, or a log changed after the "
                "hand was booked", other_hand=True)
    starts = replay.table_starts_at
    if starts is not None and (replay.record is None or
                               encode_record(replay.record) != encode_record(record)):
        return LogMismatch(_starts_late(where, record.table_id, starts), other_hand=False)
    return None


# What to give instead of a log that starts the table late, when no ledger was given.
WHOLE_TABLE = ("give the table's log from its first event on (its days' files joined in "
               "one, in order), or leave out --events and give --ledger URL of the ledger "
               "that booked the hand, to read it from the database's event archive")


def starts_table_late(replay: HandReplay, log_name: str | None) -> LogMismatch | None:
    """Why a log given alone (no ledger, no archive's checkpoint) cannot give the hand's
    report: it starts the hand's table after its first event (a later day's file), so the
    table's configuration, seats and stacks before the file are not in it, and no booking
    tells a record made without them from the hand's. Replayed so, a hand the whole log
    judges a sweetheart overpay (MISPAY) was reported "rejected", its one finding
    NO_CONFIGURATION "hand played before any table_configured event", the chain
    "VERIFIED", exit 0, and the report never said the file starts the table at seq
    14108 (QA). Hence: refused, whatever record the replay made."""
    starts = replay.table_starts_at
    if starts is None:
        return None
    return LogMismatch(_starts_late(the_log(log_name), replay.table_id, starts),
                       other_hand=False, next_step=WHOLE_TABLE)


def _starts_late(where: str, table_id: str, starts: int) -> str:
    return (f"{where} starts table {table_id} at seq {starts}, after its first event: the "
            "hand is not re-derived from it alone (the table's configuration and seats "
            "are in the logs before it)")


def not_in_log(log_name: str | None) -> str:
    """The clause for a booked hand the given log holds no event of."""
    named = f" {log_name}" if log_name else ""
    return f"the event log{named} holds no event of this hand"
