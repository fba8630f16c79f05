"""The dispute report's timeline: every event of the hand, the deal folded into one row.

Why fold the deal: an HCF hand deals 7 cards to each of up to 7 seats, one event per
card; listed one per row, the deal filled pages before the first wager that mattered.
A run of consecutive ``card_dealt`` events is one row that says who received which
cards, in order; each seat's hand also stands beside the seat in the seats table. An
event that needs attention on its own (its hash link is broken, or it belongs to another
hand) always keeps its own row, and the hash-chain section still lists every event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from services.reports.narrate import Line


@dataclass(frozen=True)
class TimelineEntry:
    ts: str
    seq: int
    event_type: str
    line: Line
    chain_ok: bool
    other_hand: str | None  # an event of another hand that arrived inside this one
    dealt_to: str | None = None  # card_dealt: who received the card, in words
    face_up: bool = False


@dataclass(frozen=True)
class Holding:
    """The cards one receiver got during a run of the deal, in the order dealt."""

    who: str
    cards: tuple[str | None, ...]


@dataclass(frozen=True)
class TimelineRow:
    """One row of the timeline: a single event, or a run of the deal (``holdings``)."""

    first: TimelineEntry
    last: TimelineEntry
    count: int = 1
    holdings: tuple[Holding, ...] = field(default_factory=tuple)
    face: str = ""

    @property
    def is_deal(self) -> bool:
        return self.count > 1

    @property
    def deal_text(self) -> str:
        return (f"{self.count} cards dealt {self.face}, one at a time (seq {self.first.seq} "
                f"to {self.last.seq}):")


def _face(faces: set[bool]) -> str:
    if faces == {True}:
        return "face up"
    if faces == {False}:
        return "face down"
    return "face up and face down"


def _foldable(entry: TimelineEntry) -> bool:
    return entry.dealt_to is not None and entry.chain_ok and entry.other_hand is None


def timeline_rows(entries: Sequence[TimelineEntry]) -> list[TimelineRow]:
    """The entries as rows, each run of two or more foldable deals as one row."""
    rows: list[TimelineRow] = []
    run: list[TimelineEntry] = []
    for entry in entries:
        if _foldable(entry):
            run.append(entry)
            continue
        rows += _run_rows(run)
        run = []
        rows.append(TimelineRow(entry, entry))
    rows += _run_rows(run)
    return rows


def _run_rows(run: list[TimelineEntry]) -> list[TimelineRow]:
    if not run:
        return []
    if len(run) == 1:
        return [TimelineRow(run[0], run[0])]
    received: dict[str, list[str | None]] = {}
    for entry in run:
        assert entry.dealt_to is not None
        received.setdefault(entry.dealt_to, []).extend(entry.line.cards)
    return [TimelineRow(run[0], run[-1], len(run),
                        tuple(Holding(who, tuple(cards)) for who, cards in received.items()),
                        _face({entry.face_up for entry in run}))]
