"""What a table state read back must hold for the chain check to answer rightly.

Why a module of its own: a kept state is input (read back from a database, perhaps
hand-edited or damaged; ``services.archive.carry``), and the duplicate window's lookups
rely on what the code that wrote it guarantees: its entries in ascending seq, each seq
once (``Window._position`` binary-searches them for ``remember`` and ``forget_below``),
the missing ranges ascending and apart (``Window._range_at`` bisects them), each id's
fingerprint its CRC-32 (``Window.may_know`` answers "new" on the fingerprint alone). A
window that breaks them makes a duplicate or a seq conflict pass unseen, silently.
``check_state`` refuses such a state with one line naming what is wrong, the same words
as the native core's (``native/src/state_check.rs``) for what both engines keep, so both
refuse the same states alike; the run then says the state is not one this pitwatch reads
and starts the table new (``KeptStates._why_not``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from services.adjudicator.open_hand import unpack_events
from services.adjudicator.window import (
    CHAIN_WIDTH,
    FP_WIDTH,
    HASH_WIDTH,
    ID_WIDTH,
    SEQ_WIDTH,
    Window,
    fingerprint,
)

if TYPE_CHECKING:
    from services.adjudicator.table import TableState

_HEX_HASH = re.compile(r"[0-9a-f]{64}")


class BadTableState(ValueError):
    """A table state that breaks what the chain check relies on; the message says what."""


def check_state(state: TableState) -> None:
    """Raise ``BadTableState`` when ``state`` breaks an invariant (in the native core's
    order of checks, so a state broken twice is refused for the same reason by both)."""
    head = state.last_seq
    if not _HEX_HASH.fullmatch(state.last_hash):
        raise BadTableState("table state's chain head hash is not 64 hex digits")
    window = state.window
    _check_ranges(window)
    seqs = _window_seqs(window)
    for before, seq in zip([None, *seqs], seqs, strict=False):
        if before is not None and seq <= before:
            raise BadTableState(
                f"table state's duplicate window is out of seq order (seq {seq} after seq "
                f"{before})")
        if seq < 1 or seq > head:
            raise BadTableState(
                f"table state's duplicate window holds seq {seq}, outside 1 to its head {head}")
        if window.is_missing(seq):
            raise BadTableState(f"table state's seq {seq} is both remembered and missing")
    for first, last in window.ranges:
        if first < 1 or last >= head:
            raise BadTableState(
                f"table state's missing range {first}-{last} is not between 1 and its head "
                f"{head}")
    hand = state.open_hand
    if hand is None:
        return
    if hand.table_id != state.table_id:
        raise BadTableState(f"table state's open hand is of table {hand.table_id}")
    try:
        hand_seqs = [event.seq for event in unpack_events(hand)]
    except (ValueError, OverflowError):  # msgspec's errors are ValueErrors
        raise BadTableState("table state's open hand's events cannot be read") from None
    seen: set[int] = set()
    for seq in sorted(hand_seqs):
        if seq in seen:
            raise BadTableState(f"table state's open hand holds seq {seq} twice")
        seen.add(seq)
        if seq < 1 or seq > head:
            raise BadTableState(
                f"table state's open hand holds seq {seq}, outside 1 to its head {head}")


def _check_ranges(window: Window) -> None:
    """The missing ranges and successor hashes as written: each range first to last,
    ascending and apart (neither overlapping nor adjacent), each successor hash 32 bytes
    at a missing seq."""
    for first, last in window.ranges:
        if first > last:
            raise BadTableState("table state has a bad missing range")
    for (a, b), (c, d) in zip(window.ranges, window.ranges[1:], strict=False):
        if c <= b + 1:
            raise BadTableState(
                f"table state's missing ranges are not ascending and apart ({a}-{b} before "
                f"{c}-{d})")
    for seq, digest in sorted(window.successor_prev.items()):
        if not window.is_missing(seq):
            raise BadTableState(
                f"table state keeps a successor hash for seq {seq}, which is not missing")
        if len(digest) != HASH_WIDTH:
            raise BadTableState(
                f"table state keeps a successor hash of the wrong length (seq {seq})")


def _window_seqs(window: Window) -> list[int]:
    """The window's seqs in the order kept, once its three buffers are seen to agree (one
    entry each, ids as text, each fingerprint its id's)."""
    count = len(window.fps) // FP_WIDTH
    if (len(window.fps) != count * FP_WIDTH or len(window.ids) != count * ID_WIDTH
            or len(window.chain) != count * CHAIN_WIDTH):
        raise BadTableState("table state's duplicate window is malformed (its parts differ "
                            "in length)")
    if not window.ids.isascii():
        raise BadTableState("table state's duplicate window has an event id that is not text")
    for k in range(count):
        event_id = bytes(window.ids[k * ID_WIDTH:(k + 1) * ID_WIDTH])
        if window.fps[k * FP_WIDTH:(k + 1) * FP_WIDTH] != fingerprint(event_id):
            raise BadTableState(
                f"table state's duplicate window has an event id whose fingerprint differs "
                f"({event_id.decode()})")
    return [int.from_bytes(window.chain[at:at + SEQ_WIDTH], "big")
            for at in range(0, len(window.chain), CHAIN_WIDTH)]
