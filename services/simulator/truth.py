"""Ground-truth labels of injected faults (the ``--truth`` file of ``pitwatch simulate``).

A label says which hand carries which injected fault and which finding codes count as
detecting it. ``pitwatch demo`` and the end-to-end tests score the adjudicator against
these labels, so a detector that goes quiet fails a test instead of passing unnoticed.

An injected cheating pattern (``services.simulator.patterns``: soft play, chip dumping,
sweethearting ...) labels every hand it acted in the same way, with the alert codes that
detect it in ``codes`` and three more fields: ``players`` (who takes part: the pair of
a soft-play pair, giver then taker of chip dumping, the friend of a sweetheart dealer),
``dealer`` (a sweetheart or drifting dealer) and ``strength`` (the pattern's strength as
given to ``pitwatch simulate --pattern``), so a benchmark can score an alert by whether it
names the right people, not only the right hands.
"""

from __future__ import annotations

from typing import Any

import msgspec


class TruthLabel(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    table_id: str
    hand_id: str
    fault: str
    codes: list[str]  # any of these finding codes in the hand's record detects the fault
    seat: int | None = None
    detail: str = ""
    # Injected patterns only (absent from a fault's line, see ``encode_label``):
    players: list[str] | None = None
    dealer: str | None = None
    strength: float | None = None


_PATTERN_FIELDS = ("players", "dealer", "strength")


def encode_label(label: TruthLabel) -> bytes:
    """One line of the truth file. The pattern fields are left out when they are not set,
    so a fault's label is the same bytes as before patterns existed (the other fields are
    always written, as they always were)."""
    body: dict[str, Any] = msgspec.to_builtins(label)
    for name in _PATTERN_FIELDS:
        if body.get(name) is None:
            body.pop(name, None)
    return msgspec.json.encode(body)
