"""What a dispute report says when the booked record is not the one its events re-derive.

Why its own module: the cause the analyst is told to look at decides what happens next
(the profile's owner, the ledger's, or IT security), so each cause is said apart and in
the order of what the report can prove: events that do not chain first (the archive was
changed), then the same events judged otherwise (the rules or the booking changed), then
the rest.
"""

from __future__ import annotations

from services.events.contract import AdjudicationRecord
from services.reports.chain import ChainLink


def booking_differs(booked: AdjudicationRecord, derived: AdjudicationRecord | None,
                    archived: bool, broken: list[ChainLink]) -> str:
    """The report's note: ``archived``: the events are the archive's (else a log's);
    ``broken``: the hand's links that do not chain."""
    if archived and broken:
        # The events themselves were changed: that is the difference, not the rules or
        # the booking (QA: a byte changed in the archive was blamed on the profile first).
        return ("The record booked in the ledger differs from the record re-derived from "
                "the event archive, and the archive's events of this hand do not chain "
                f"(section 7: broken at seq {broken[0].seq:,}): the archive was changed after "
                "pitwatch wrote it. pitwatch verify lists the break; hand it to IT security.")
    if archived and derived is not None and same_events(derived, booked):
        return ("The record booked in the ledger differs from the record re-derived from "
                "the event archive, whose events are the booked hand's (the same seq range "
                f"and last_hash): the rules applied (the rule profile {booked.rule_profile!r} "
                "as its folder holds it now, or the pitwatch version) or the booking changed "
                "since the hand was booked. A profile edited in place gives this: a change "
                "of the posted rules is a new profile (a new name); pitwatch verify checks "
                "the booking.")
    if archived:
        return ("The record booked in the ledger differs from the record re-derived from "
                "the event archive: the log or the booking changed after the hand was "
                "booked, or the hand was booked without its table's earlier events.")
    return ("The record booked in the ledger differs from the record re-derived from the "
            "event log, whose events are the booked hand's (the same seq range and "
            "last_hash): sections 1 to 7 are the log's, the booking is beside it in section "
            "8. The rules applied (the rule profile, the pitwatch version) or the booking "
            "changed since the hand was booked; pitwatch verify checks the booking.")


def same_events(derived: AdjudicationRecord, booked: AdjudicationRecord) -> bool:
    """Whether both records were made from the same events: the same seq range, ending
    on the same hash (which chains every event before it)."""
    return (derived.last_hash is not None and derived.last_hash == booked.last_hash
            and (derived.first_seq, derived.last_seq) == (booked.first_seq, booked.last_seq))
