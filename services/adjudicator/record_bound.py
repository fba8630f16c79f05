"""The record contract's integer bound, applied when a record is built.

Why: every integer of an adjudication record is within +/- 2^53 - 1 (``MAX_SAFE_INTEGER``,
events.md: RFC 8785 writes integers exactly only up to it), and the ledger refuses a
record beyond it. Events within their own contract can still make the rules compute more:
a shortfall of a stack of 2^53 - 1 against an Ante of 2^52 and a raise of three Antes
(GEN-2), a bonus paid at odds, a sum of many payouts. Such a hand was recorded with the
out-of-contract integer, so the ledger refused the very record the adjudicator made (QA,
helper 68). Decided per kind of value:

* a finding's ``amount`` is the size of what it reports, and the finding stands whatever
  its size: the amount is stated at the bound (its sign kept) and the message says the
  exact number (text has no bound), so nothing is hidden and the record stays readable;
* a settlement that cannot be stated (a net, a rake or a movement beyond the bound: the
  chips themselves, not a description of them) cannot be booked or checked for GEN-8
  conservation, so the hand is ``rejected`` with a critical ``HAND_REJECTED`` (GEN-8)
  saying which side and how many chips, and its other findings kept; it goes to review.

The native core states finding amounts the same way; a settlement beyond the bound it
hands to these rules (docs/native.md, deferrals), so both engines give the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable

from services.events.bounds import MAX_SAFE_INTEGER
from services.events.contract import Finding, Movement, SideResult
from services.games.model import finding

UNSTATABLE_CODE = "HAND_REJECTED"
UNSTATABLE_RULE = "GEN-8"


def stated_findings(findings: Iterable[Finding]) -> list[Finding]:
    """The findings with each amount beyond the bound stated at it, the message saying so."""
    return [_stated(f) for f in findings]


def _stated(f: Finding) -> Finding:
    amount = f.amount
    if amount is None or -MAX_SAFE_INTEGER <= amount <= MAX_SAFE_INTEGER:
        return f
    capped = MAX_SAFE_INTEGER if amount > 0 else -MAX_SAFE_INTEGER
    return finding(f.code, f.rule, f.severity,
                   f"{f.message} (amount {amount} chips: beyond the record's bound of "
                   f"{MAX_SAFE_INTEGER}, stated as {capped})", seat=f.seat, amount=capped)


def unstatable(expected: SideResult | None, recorded: SideResult,
               movements: list[Movement]) -> Finding | None:
    """``HAND_REJECTED`` (GEN-8) when a value of the settlement is beyond the bound: the
    first side that has one (expected, recorded, then the movements) and its largest
    value by size, or None when the whole settlement can be stated. A movement is the
    sum of one layout's chips at ``hand_ended`` too (``record_hand``): three wagers of
    2^52 return as one movement of 3 x 2^52."""
    parts: list[tuple[str, list[int]]] = [
        ("expected settlement", _side_values(expected)),
        ("recorded settlement", _side_values(recorded)),
        ("recorded movements", [m.amount for m in movements]),
    ]
    for what, values in parts:
        beyond = [v for v in values if not -MAX_SAFE_INTEGER <= v <= MAX_SAFE_INTEGER]
        if beyond:
            largest = max(abs(v) for v in beyond)
            return finding(
                UNSTATABLE_CODE, UNSTATABLE_RULE, "critical",
                f"the {what}: {largest} chips, beyond the {MAX_SAFE_INTEGER} an adjudication "
                "record can state; the hand cannot be booked or its conservation checked: "
                "its events are kept and it needs review by hand")
    return None


def _side_values(side: SideResult | None) -> list[int]:
    if side is None:
        return []
    return [*side.net.values(), *side.rake.values()]
