"""Each participant's hand as the events tell it: cards, setting, declaration, foul (CP-1, CP-2,
CP-7, CP-8, CP-12).

Why a module of its own: scoring (``scoring``) must only ever see a finished
verdict per seat (a set hand with its segment ranks, an automatic winner, or a foul), so
the rules about *which* setting or declaration counts live in exactly one place. The
verdicts depend on each seat's own events and on when the hands were opened, never on the
order in which different seats' events arrived.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from services.events.contract import (
    AutoWinDeclaredEvent,
    CardDealtEvent,
    Event,
    Finding,
    HandSetEvent,
    HandStartedEvent,
    ShowdownEvent,
)
from services.games.cards import rank_of, suit_of
from services.games.chinese import evaluation as cp_eval
from services.games.chinese.profile import SEGMENTS, AutoWin, ChineseProfile
from services.games.model import HandRejected, TraceStep, finding

Status = Literal["set", "auto", "foul", "dead"]
SEGMENT_SIZES = {"front": 3, "middle": 5, "back": 5}  # CP-2


@dataclass(frozen=True)
class Setting:
    """A hand as set: front (3), middle (5), back (5) — sizes as recorded, maybe wrong."""

    front: tuple[str, ...]
    middle: tuple[str, ...]
    back: tuple[str, ...]
    seq: int

    def segment(self, name: str) -> tuple[str, ...]:
        cards: tuple[str, ...] = getattr(self, name)
        return cards

    def cards(self) -> list[str]:
        return [*self.front, *self.middle, *self.back]


@dataclass(frozen=True)
class SeatHand:
    """The verdict on one participant's hand, which is all scoring needs.

    ``ranks``: segment rank codes (front, middle, back) of a correctly set hand, else None.
    ``auto_win``: the declared automatic win the cards make, when ``status == "auto"``.
    """

    seat: int
    status: Status
    ranks: tuple[int, int, int] | None = None
    auto_win: AutoWin | None = None
    reason: str = ""


@dataclass
class HandReading:
    """What the events say about the deal and the hands (before any scoring)."""

    started: HandStartedEvent
    participants: tuple[int, ...]
    stacks: dict[int, int]
    dealt: dict[int, list[str | None]]
    opened_seq: int | None
    opener: int | None
    settings: dict[int, Setting]
    first_setting_seq: dict[int, int]
    declarations: dict[int, list[tuple[AutoWin, int]]]
    hands: dict[int, SeatHand] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)


def read_hand(events: tuple[Event, ...], cp: ChineseProfile) -> HandReading:
    """Collect dealt cards, settings and declarations (``judge_hands`` then judges them)."""
    starts = [e for e in events if isinstance(e, HandStartedEvent)]
    if not starts:
        raise HandRejected("CP-1", "the hand has no hand_started event: no seats, no button")
    if len(starts) > 1:
        raise HandRejected("CP-1", f"the hand has {len(starts)} hand_started events (seq "
                                   f"{', '.join(str(e.seq) for e in starts)}): who was dealt "
                                   "in, with what stack, is contradictory")
    started = starts[0]
    participants = tuple(sorted(s.seat for s in started.data.seats))
    _check_seating(started, participants, cp)
    opening = next((e for e in events if isinstance(e, ShowdownEvent)), None)
    opened_seq = opening.seq if opening is not None else None
    opener = opening.data.seat if opening is not None and isinstance(opening.data.seat, int) \
        else None
    reading = HandReading(
        started=started,
        participants=participants,
        stacks={s.seat: s.stack for s in started.data.seats},
        dealt=_dealt_cards(events),
        opened_seq=opened_seq,
        opener=opener,
        settings={},
        first_setting_seq={},
        declarations={},
    )
    _collect_settings(events, reading, cp)
    _collect_declarations(events, reading, cp)
    reading.trace.append(
        TraceStep("CP-1", f"seats dealt in: {', '.join(map(str, participants))}; hands of "
                          "the other seats are dead")
    )
    return reading


def _check_seating(started: HandStartedEvent, participants: tuple[int, ...],
                   cp: ChineseProfile) -> None:
    """CP-1: the table's seats are 1..``table_seats`` (one 52-card deck, 13 cards a seat).
    A seat listed twice (two stacks for one seat: no CP-10 cap can be derived), a seat or
    a button outside the table cannot be adjudicated."""
    seats = range(1, cp.table_seats + 1)
    twice = sorted({s for s in participants if participants.count(s) > 1})
    if twice:
        raise HandRejected("CP-1", f"hand_started lists seat {', '.join(map(str, twice))} more "
                                   "than once: its starting stack is contradictory")
    outside = [s for s in participants if s not in seats]
    if outside:
        raise HandRejected("CP-1", f"hand_started deals in seat {', '.join(map(str, outside))}"
                                   f", not one of the table's {cp.table_seats} seats")
    if started.data.button not in seats:
        raise HandRejected("CP-1", f"the button is on seat {started.data.button}, not one of "
                                   f"the table's {cp.table_seats} seats")


def judge_hands(events: tuple[Event, ...], reading: HandReading,
                cp: ChineseProfile) -> list[Finding]:
    """Give every participant its verdict (set, automatic winner, foul or dead); returns
    the findings the judging made (fouls, false declarations, switched cards)."""
    start = len(reading.findings)
    for seat in reading.participants:
        reading.hands[seat] = _judge_seat(seat, events, reading, cp)
    return reading.findings[start:]


def _dealt_cards(events: tuple[Event, ...]) -> dict[int, list[str | None]]:
    dealt: dict[int, list[str | None]] = {}
    for event in events:
        if isinstance(event, CardDealtEvent) and event.data.to == "seat" \
                and event.data.seat is not None:
            dealt.setdefault(event.data.seat, []).append(event.data.card)
    return dealt


def _before_opening(reading: HandReading, seq: int) -> bool:
    return reading.opened_seq is None or seq < reading.opened_seq


def _collect_settings(events: tuple[Event, ...], reading: HandReading,
                      cp: ChineseProfile) -> None:
    """CP-12: a setting made before the hands were opened counts (the last one); a first
    setting made after the opening still counts (the opener is at fault, HAND_OPENED_EARLY),
    but a change to an earlier setting after the opening is ignored."""
    for event in events:
        if not isinstance(event, HandSetEvent):
            continue
        d = event.data
        setting = Setting(tuple(d.front), tuple(d.middle), tuple(d.back), event.seq)
        if d.seat not in reading.participants:
            reading.findings.append(
                finding("DEAD_SEAT_PLAYED", "CP-1", cp.severity.dead_seat_played,
                        f"seat {d.seat} is not dealt in, yet a hand was set for it (seq "
                        f"{event.seq}); a dead hand takes no part in scoring", seat=d.seat)
            )
            continue
        if d.seat in reading.settings and not _before_opening(reading, event.seq):
            reading.findings.append(
                finding("HAND_CHANGED_AFTER_OPENING", "CP-12",
                        cp.severity.hand_changed_after_opening,
                        f"seat {d.seat} re-set its hand at seq {event.seq}, after the hands "
                        f"were opened (seq {reading.opened_seq}); the earlier setting counts",
                        seat=d.seat)
            )
            continue
        reading.settings[d.seat] = setting
        reading.first_setting_seq.setdefault(d.seat, event.seq)


def _collect_declarations(events: tuple[Event, ...], reading: HandReading,
                          cp: ChineseProfile) -> None:
    """CP-7: a declaration counts only before the hands are opened."""
    for event in events:
        if not isinstance(event, AutoWinDeclaredEvent):
            continue
        d = event.data
        if d.seat not in reading.participants:
            reading.findings.append(
                finding("DEAD_SEAT_PLAYED", "CP-1", cp.severity.dead_seat_played,
                        f"seat {d.seat} is not dealt in, yet declared {d.kind} (seq "
                        f"{event.seq}); a dead hand takes no part in scoring", seat=d.seat)
            )
            continue
        if not _before_opening(reading, event.seq):
            reading.findings.append(
                finding("LATE_AUTO_WIN_DECLARATION", "CP-7", cp.severity.late_auto_win,
                        f"seat {d.seat} declared {d.kind} at seq {event.seq}, after the hands "
                        f"were opened (seq {reading.opened_seq}); the hand plays as set",
                        seat=d.seat)
            )
            continue
        reading.declarations.setdefault(d.seat, []).append((d.kind, event.seq))


def thirteen_cards(seat: int, events: tuple[Event, ...], reading: HandReading,
                   cp: ChineseProfile) -> list[str] | None:
    """The seat's 13 cards: as dealt when the shoe read them all, else as set, else as
    shown at the opening; None when no record gives all of them."""
    dealt = reading.dealt.get(seat, [])
    known = [c for c in dealt if c is not None]
    if len(known) == cp.cards_per_hand and len(dealt) == cp.cards_per_hand:
        return known
    setting = reading.settings.get(seat)
    if setting is not None and len(setting.cards()) == cp.cards_per_hand:
        return setting.cards()
    for event in events:
        if isinstance(event, ShowdownEvent) and event.data.seat == seat and event.data.cards \
                and len(event.data.cards) == cp.cards_per_hand:
            return list(event.data.cards)
    return None


def _judge_seat(seat: int, events: tuple[Event, ...], reading: HandReading,
                cp: ChineseProfile) -> SeatHand:
    setting = reading.settings.get(seat)
    if setting is not None:
        _check_set_cards(seat, setting, reading, cp)
    declared = reading.declarations.get(seat, [])
    if declared:
        verdict = _judge_declaration(seat, declared, events, reading, cp)
        if verdict is not None:
            return verdict
    if setting is None:
        return _unset(seat, reading, cp)
    return _judge_setting(seat, setting, events, reading, cp)


def _check_set_cards(seat: int, setting: Setting, reading: HandReading,
                     cp: ChineseProfile) -> None:
    """The cards set must be the cards dealt to the seat (when the shoe read them). A card
    dealt once and set twice is "set more often than dealt", not "set but not dealt": it
    was dealt (QA)."""
    dealt = reading.dealt.get(seat, [])
    if not dealt or any(c is None for c in dealt):
        return
    if Counter(setting.cards()) != Counter(c for c in dealt if c is not None):
        missing = sorted((Counter(c for c in dealt if c) - Counter(setting.cards())).elements())
        extra = sorted((Counter(setting.cards()) - Counter(c for c in dealt if c)).elements())
        reading.findings.append(
            finding("SET_CARDS_NOT_DEALT", "GEN-1", cp.severity.set_cards_not_dealt,
                    f"seat {seat} set other cards than it was dealt (set more often than "
                    f"dealt: {' '.join(extra) or '-'}; dealt but not set: "
                    f"{' '.join(missing) or '-'}): a card was switched or set twice", seat=seat)
        )


def _judge_declaration(seat: int, declared: list[tuple[AutoWin, int]],
                       events: tuple[Event, ...], reading: HandReading,
                       cp: ChineseProfile) -> SeatHand | None:
    """CP-7: the best declared automatic win the cards make counts; a declaration the cards
    do not make is a foul (CP-8) unless another declaration of the seat holds."""
    cards = thirteen_cards(seat, events, reading, cp)
    if cards is None:
        raise HandRejected("CP-7", f"seat {seat} declared an automatic win but no event "
                                   "records its 13 cards, so the declaration cannot be checked")
    made = _auto_wins_made(cards)
    valid = [kind for kind, _ in declared if kind in made]
    false = [kind for kind, _ in declared if kind not in made]
    for kind in false:
        reading.findings.append(
            finding("FALSE_AUTO_WIN_DECLARATION", "CP-8", cp.severity.false_auto_win,
                    f"seat {seat} declared {kind} but its cards ({' '.join(cards)}) do not make "
                    "it" + ("" if valid else "; the hand is fouled"), seat=seat)
        )
    if valid:
        best = max(valid, key=cp.auto_win_points.of)
        reading.trace.append(TraceStep("CP-7", f"seat {seat} declared {best} before the hands "
                                               "were opened, and the cards make it", seat))
        return SeatHand(seat, "auto", auto_win=best, reason=f"declared {best}")
    reason = f"false automatic win declaration ({', '.join(false)})"
    reading.trace.append(TraceStep("CP-8", f"seat {seat}: {reason}, a foul", seat))
    return SeatHand(seat, "foul", reason=reason)


def _auto_wins_made(cards: list[str]) -> set[str]:
    if len(set(cards)) != len(cards) or not may_hold_auto_win(cards):
        return set()
    return cp_eval.auto_wins(cards)


def may_hold_auto_win(cards: list[str]) -> bool:
    """A fast screen for CP-7 automatic wins, so the evaluator's full search (``auto_wins``,
    tens of milliseconds) runs only on the few hands that pass it (about 1 in 50).

    Dragon and six pairs are rank counts; three flushes needs every suit count to be a sum
    of segment sizes (0, 3, 5, 8, 10, 13); three straights needs the ranks to peel into
    runs of 3, 5 and 5 (the lowest card always starts a run), the ace low or high.
    """
    ranks = Counter(rank_of(c) for c in cards)
    if len(ranks) == len(cards) or sum(n // 2 for n in ranks.values()) >= 6:
        return True
    if all(n in _SEGMENT_SUMS for n in Counter(suit_of(c) for c in cards).values()):
        return True
    aces = ranks.get(14, 0)
    for low_aces in range(aces + 1):
        counts = [ranks.get(r, 0) for r in range(15)]
        counts[1], counts[14] = low_aces, aces - low_aces
        if _peels_into_runs(counts, (3, 5, 5)):
            return True
    return False


_SEGMENT_SUMS = frozenset({0, 3, 5, 8, 10, 13})


def _peels_into_runs(counts: list[int], lengths: tuple[int, ...]) -> bool:
    """``counts[r]`` cards of rank r (1 = low ace .. 14 = high ace) split exactly into runs
    of the given lengths."""
    low = next((r for r in range(1, 15) if counts[r]), None)
    if low is None or not lengths:
        return low is None and not lengths
    for length in sorted(set(lengths)):
        run = range(low, low + length)
        if run[-1] > 14 or not all(counts[r] for r in run):
            continue
        for r in run:
            counts[r] -= 1
        rest = list(lengths)
        rest.remove(length)
        found = _peels_into_runs(counts, tuple(rest))
        for r in run:
            counts[r] += 1
        if found:
            return True
    return False


def _unset(seat: int, reading: HandReading, cp: ChineseProfile) -> SeatHand:
    """CP-8 reading (``fouls.unset_hand_is_foul``): a hand neither set nor validly declared
    before the opening is fouled; with the reading off it is dead (takes no part)."""
    reason = "hand never set (nor an automatic win validly declared)"
    if cp.fouls.unset_hand_is_foul:
        _trace_foul(seat, reason, reading, cp)
        return SeatHand(seat, "foul", reason=reason)
    reading.trace.append(TraceStep("CP-1", f"seat {seat}: {reason}; the hand is dead", seat))
    return SeatHand(seat, "dead", reason=reason)


def _judge_setting(seat: int, setting: Setting, events: tuple[Event, ...],
                   reading: HandReading, cp: ChineseProfile) -> SeatHand:
    """CP-2 / CP-8: wrong segment sizes or a weaker segment behind a stronger one foul."""
    wrong = [f"{name} has {len(setting.segment(name))} cards (needs {size})"
             for name, size in SEGMENT_SIZES.items() if len(setting.segment(name)) != size]
    if len(set(setting.cards())) != len(setting.cards()):
        wrong.append("a card is set twice")
    if wrong:
        reason = "; ".join(wrong)
        _trace_foul(seat, reason, reading, cp)
        return SeatHand(seat, "foul", reason=reason)
    front, middle, back = (cp_eval.segment_rank(setting.segment(name)) for name in SEGMENTS)
    shown = ", ".join(f"{name} {' '.join(setting.segment(name))} "
                      f"({cp_eval.describe(rank)})"
                      for name, rank in zip(SEGMENTS, (front, middle, back), strict=True))
    if middle > back or front > middle:
        order = "middle beats back" if middle > back else "front beats middle"
        reason = f"segments in the wrong order: {order} ({shown})"
        _trace_foul(seat, reason, reading, cp)
        return SeatHand(seat, "foul", reason=reason)
    cards = thirteen_cards(seat, events, reading, cp)
    if cards is not None and _auto_wins_made(cards):
        made = ", ".join(sorted(_auto_wins_made(cards)))
        reading.trace.append(TraceStep("CP-7", f"seat {seat} holds {made} but did not declare "
                                               "it in time: the hand plays as set", seat))
    reading.trace.append(TraceStep("CP-2", f"seat {seat} set {shown}", seat))
    return SeatHand(seat, "set", ranks=(front, middle, back))


def _trace_foul(seat: int, reason: str, reading: HandReading, cp: ChineseProfile) -> None:
    reading.trace.append(TraceStep("CP-8", f"seat {seat} fouled: {reason}", seat))
    reading.findings.append(
        finding("FOULED_HAND", "CP-8", cp.severity.foul, f"seat {seat} fouled: {reason}",
                seat=seat)
    )
