"""Ground-truth labels of injected faults (the ``--truth`` file of ``pitwatch simulate``).

A label says which hand carries which injected fault and which finding codes count as
detecting it. ``pitwatch demo`` and the end-to-end tests score the adjudicator against
these labels, so a detector that goes quiet fails a test instead of passing unnoticed.
"""

from __future__ import annotations

import msgspec


class TruthLabel(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    table_id: str
    hand_id: str
    fault: str
    codes: list[str]  # any of these finding codes in the hand's record detects the fault
    seat: int | None = None
    detail: str = ""
