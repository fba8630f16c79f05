"""Find one hand in an event log and replay its table up to it.

Why replay the whole table and not just the hand's lines: the adjudication of a hand
depends on the table as it stood when the hand started (configuration, seating, stacks
after every earlier hand, the previous button), which only the table's earlier events
establish. So this drives the very runner ``pitwatch adjudicate`` and the Kafka pipeline
drive (``make_runner``: the native core, which adjudicates High Card Flush hands itself,
or the Python reference) over the hand's table, in log order, and keeps the ``HandInput``
hand assembly closed and adjudicated (``StepResult.closed_hand``). The record it yields is
therefore byte-identical to ``pitwatch adjudicate``'s, and the game's pure Python
``adjudicate`` (from the games registry) is run again on that input for the decision path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from services.adjudicator.engine import engine_name, make_runner
from services.adjudicator.intake import Rejection, parse_record
from services.adjudicator.native_runner import NativeRunner
from services.adjudicator.steps import StepResult
from services.archive.checkpoints import Checkpoint, Key
from services.archive.history import BulkHistory
from services.events.canonical import canonical_json
from services.events.contract import AdjudicationRecord, Event
from services.games.model import GameOutcome, HandInput, HandRejected
from services.games.profile import Profiles, UnknownProfileError
from services.games.registry import GAMES
from services.reports.log_tables import (
    LogFile,
    group_by_table,
    group_file_by_table,
    table_and_hand,
)


class HandNotFound(LookupError):
    """No event of the log names this hand."""


@dataclass(frozen=True)
class LoggedEvent:
    """One event of the table as it stands in the log, with its recomputed hash."""

    event: Event
    hash: str
    line: int


@dataclass
class HandReplay:
    """What the log says about one hand.

    ``events``: every event of the hand's table from the hand's first to its last event,
    in log order (table-level events that arrived meanwhile included). ``before`` /
    ``after``: the table's events just before and after that span (chain anchors).
    ``record``: the adjudication record the pipeline produces for the hand.
    ``hand_input``: the captured input (None when the hand never reached ``hand_ended``).
    ``outcome``: the game's expected side re-derived from ``hand_input``, with its trace;
    ``outcome_note`` says why it is missing when it is.
    """

    table_id: str
    hand_id: str
    events: list[LoggedEvent] = field(default_factory=list)
    before: LoggedEvent | None = None
    after: LoggedEvent | None = None
    record: AdjudicationRecord | None = None
    hand_input: HandInput | None = None
    outcome: GameOutcome | None = None
    outcome_note: str | None = None
    rejected_lines: list[str] = field(default_factory=list)
    rejected_unnamed: int = 0  # rejected lines before a checkpoint that it does not name
    history_note: str | None = None  # where the table's state before the span came from
    # The seq of the table's first event in the log when the log starts the table after
    # its first event (a later day's file), else None: the table's state before it (its
    # configuration, its seats) is in the logs before, not in this one.
    table_starts_at: int | None = None
    # (seq, hash) of the event before the hand's first when that one is in days detached
    # past retention (the replay started at the checkpoint made at that cut): ``before``
    # is then None, and the first link is checked against what ``archive detach`` kept.
    cut_before: tuple[int, str] | None = None


@dataclass(frozen=True)
class ArchivedEvents:
    """Tables' archived events, read as a replay needs them: ``bodies(table, after)``
    yields the table's bodies in arrival order (each a segment's canonical JSON lines
    joined by newlines; ``services.archive.reader``), from its first segment or from the
    one after the segment keyed ``after``. Their lines, table by table in ``tables``'
    order, are the log a replay reads; a table's history before the wanted hands is fed to
    the native core as it is read and never held (a table archives years of events), from
    ``starts[table]`` when the table has a usable checkpoint before the wanted hands."""

    tables: tuple[str, ...]
    bodies: Callable[[str, Key | None], Iterator[bytes]]
    starts: Mapping[str, Checkpoint] = field(default_factory=dict)
    # Tables whose start is the checkpoint at a retention cut: (seq, hash) of the last
    # event of their detached days, the anchor of a hand that begins the live archive.
    cut_anchors: Mapping[str, tuple[int, str]] = field(default_factory=dict)

    def lines(self) -> list[bytes]:
        """Every line, held: the reference engine's replay, which reads a log."""
        return [line for table in self.tables for body in self.bodies(table, None)
                for line in body.split(b"\n")]


Events: TypeAlias = Sequence[bytes] | ArchivedEvents | LogFile


def replay_hand(lines: Events, hand_id: str, profiles: Profiles,
                engine: str | None = None) -> HandReplay:
    """Replay the hand's table through intake and hand assembly up to the hand's record,
    under ``profiles`` (the rule profiles the pipeline adjudicated with), with the engine
    ``services.adjudicator.engine`` chooses (the records are the same either way)."""
    replays = replay_hands(lines, [hand_id], profiles, engine)
    if hand_id not in replays:
        raise HandNotFound(f"no event in the log belongs to hand {hand_id!r}")
    return replays[hand_id]


def replay_hands(lines: Events, hand_ids: Iterable[str],
                 profiles: Profiles, engine: str | None = None) -> dict[str, HandReplay]:
    """Several hands with one replay per table (the daily report's hands to review).
    Hands no event of the log names are absent from the result."""
    wanted = set(hand_ids)
    if isinstance(lines, ArchivedEvents):
        if engine_name(engine) == "native":
            return _replay_archived(lines, wanted, profiles)
        lines = lines.lines()
    if isinstance(lines, LogFile):
        tables = group_file_by_table(lines, wanted)
    else:
        tables = group_by_table(lines, wanted)
    out: dict[str, HandReplay] = {}
    for table_id in sorted(set(tables.table_of.values())):
        hands = {h: HandReplay(table_id=table_id, hand_id=h)
                 for h, t in tables.table_of.items() if t == table_id}
        _replay_table(table_id, tables.lines[table_id], tables.first_wanted[table_id],
                      hands, profiles, engine)
        out.update(hands)
    return out


def _replay_table(table_id: str, table_lines: list[tuple[int, bytes]], first_wanted: int,
                  hands: dict[str, HandReplay], profiles: Profiles, engine: str | None,
                  history: BulkHistory | None = None) -> None:
    """The table's events through a runner of the chosen engine (what ``pitwatch
    adjudicate`` runs), each event's position and hash kept for the report from the
    wanted hands' span on (the native engine takes the history before it in bulk,
    ``BulkHistory``; ``history``: one that already took the table's earlier lines)."""
    # Where the log starts the table, unless a history given took the lines before.
    starts_at = _first_seq(table_lines) if history is None else None
    runner = make_runner(profiles, engine)
    logged: list[LoggedEvent] = []
    rejected: list[str] = history.rejected if history is not None else []
    start = 0
    if isinstance(runner, NativeRunner):
        start = _span_anchor(table_lines, first_wanted)
        if start > 0 or history is not None:
            history = history or BulkHistory(profiles, rejected)
            history.feed(table_lines[:start])
            runner = history.runner_for(table_id)
    for number, raw in table_lines[start:]:
        parsed = parse_record(raw, f"line {number}")
        if isinstance(parsed, Rejection):
            rejected.append(f"line {number}: {parsed.reason}")
            continue
        logged.append(LoggedEvent(parsed.event, parsed.hash, number))
        if all(h.record is not None for h in hands.values()):
            break  # one event past the last wanted hand: its successor, the chain anchor
        _take(runner.feed(raw, f"line {number}"), hands)
    for record in runner.finish().records:
        if record.hand_id in hands and hands[record.hand_id].record is None:
            hands[record.hand_id].record = record
    for replay in hands.values():
        replay.rejected_lines = rejected
        replay.table_starts_at = starts_at if starts_at is not None and starts_at > 1 else None
        if history is not None:
            replay.rejected_unnamed = history.unnamed
            replay.history_note = history.started_from
        _span(replay, logged)
        _rerun_game(replay, profiles)


def _first_seq(table_lines: list[tuple[int, bytes]]) -> int | None:
    """The seq of the table's first event the intake reads in the log (None: none)."""
    for number, raw in table_lines:
        parsed = parse_record(raw, f"line {number}")
        if not isinstance(parsed, Rejection):
            return parsed.event.seq
    return None


def _span_anchor(table_lines: list[tuple[int, bytes]], first_wanted: int) -> int:
    """Where the event-by-event replay starts: at the last event the intake takes before
    the first line naming a wanted hand (the ``before`` anchor of the first hand's span),
    or at the table's first line when none comes before it."""
    for at in range(first_wanted - 1, -1, -1):
        number, raw = table_lines[at]
        if not isinstance(parse_record(raw, f"line {number}"), Rejection):
            return at
    return 0


def _replay_archived(source: ArchivedEvents, wanted: set[str], profiles: Profiles
                     ) -> dict[str, HandReplay]:
    """``replay_hands`` over archived tables with the native engine: each table read as a
    stream (``_stream_table``), its history fed as it comes; the lines from the first
    naming a wanted hand on are held and replayed as a log's are. The archive's lines are
    canonical JSON (the writer makes them so, and ``verify`` holds every body to the hash
    it was stored with), so the canonical bytes of a hand id are in every line naming it:
    a body without them is fed unread."""
    out: dict[str, HandReplay] = {}
    missing = set(wanted)
    lines_before = 0  # the lines of the tables before: numbers run on, as in ``lines()``
    for table_id in source.tables:
        if not missing:
            break
        start = source.starts.get(table_id)
        try:
            found, lines_before = _stream_table(
                table_id, source.bodies(table_id, start.key if start else None), missing,
                profiles, lines_before, start, source.cut_anchors.get(table_id))
        except _UnusableCheckpoint:  # from the table's first event, then
            found, lines_before = _stream_table(table_id, source.bodies(table_id, None),
                                                missing, profiles, lines_before)
        out.update(found)
        missing -= found.keys()
    return out


class _UnusableCheckpoint(Exception):
    """The checkpoint cannot start this replay: its state is not one this core reads as
    the table's, or the first line naming a wanted hand came before any line the intake
    takes since it (the span's anchor lies before it). The table is read from its start."""


def _stream_table(table_id: str, bodies: Iterator[bytes], wanted: set[str],
                  profiles: Profiles, number: int, start: Checkpoint | None = None,
                  cut: tuple[int, str] | None = None) -> tuple[dict[str, HandReplay], int]:
    """One archived table whose first line is numbered ``number + 1``: bodies fed to a
    ``BulkHistory`` until one holds a line naming a wanted hand (found by the bytes the
    canonical JSON writes for it, then read as ``group_by_table`` reads a line); the
    lines not fed are kept from the last the intake takes (the span's anchor) on. Then the
    rest of the table is held and replayed. Returns the hands and the last line's number.
    ``start``: the checkpoint ``bodies`` start after (its state, lines and rejections);
    ``cut``: it is the one at a retention cut, and (seq, hash) of the detached days' last
    event anchors a hand that begins the live archive (no line the intake takes between)."""
    marks = [canonical_json({"hand_id": h})[1:-1] for h in wanted]
    history = BulkHistory(profiles, [])
    if start is not None:
        history.rejected += [f"line {number + n}: {reason}" for n, reason in
                             start.rejected_first]
        try:
            restored = history.restore(start.state, start.rejected - len(start.rejected_first),
                                       start.describe())
        except ValueError:
            raise _UnusableCheckpoint from None
        if restored != table_id:
            raise _UnusableCheckpoint
        number += start.lines
    held: list[tuple[int, bytes]] = []  # numbered lines not fed yet
    for body in bodies:
        lines = body.split(b"\n")
        numbered = list(zip(range(number + 1, number + 1 + len(lines)), lines, strict=True))
        number += len(lines)
        hit = _first_naming(lines, wanted) if any(m in body for m in marks) else None
        held += numbered
        if hit is not None:
            first_wanted = len(held) - len(lines) + hit
            anchored = _takes_one(held[:first_wanted])
            if start is not None and not anchored and cut is None:
                raise _UnusableCheckpoint
            found, number = _replay_rest(table_id, held, first_wanted, bodies, number,
                                         wanted, profiles, history)
            if cut is not None:
                for replay in found.values():
                    if replay.before is None and replay.events:
                        replay.cut_before = cut
            return found, number
        keep = _span_anchor(held, len(held))  # the last line the intake takes
        history.feed(held[:keep])
        held = held[keep:]
    return {}, number


def _takes_one(lines: list[tuple[int, bytes]]) -> bool:
    """Whether the intake takes any of these lines (held lines start at the last one it
    took, so the first says it when it is not the only one)."""
    return any(not isinstance(parse_record(raw, f"line {n}"), Rejection) for n, raw in lines)


def _replay_rest(table_id: str, held: list[tuple[int, bytes]], first_wanted: int,
                 bodies: Iterator[bytes], number: int, wanted: set[str], profiles: Profiles,
                 history: BulkHistory) -> tuple[dict[str, HandReplay], int]:
    """The table from the held lines on: read whole, the wanted hands it names found as
    ``group_by_table`` finds them, replayed with the history already fed."""
    for body in bodies:
        lines = body.split(b"\n")
        held += zip(range(number + 1, number + 1 + len(lines)), lines, strict=True)
        number += len(lines)
    named = group_by_table([raw for _, raw in held[first_wanted:]], wanted)
    hands = {h: HandReplay(table_id=table_id, hand_id=h)
             for h, t in named.table_of.items() if t == table_id}
    _replay_table(table_id, held, first_wanted, hands, profiles, "native", history)
    return hands, number


def _first_naming(lines: list[bytes], wanted: set[str]) -> int | None:
    """The position of the first line naming a wanted hand (as ``group_by_table`` reads
    it), or None."""
    for at, line in enumerate(lines):
        parsed = table_and_hand(line)
        if parsed is not None and isinstance(parsed[1], str) and parsed[1] in wanted:
            return at
    return None


def _take(out: StepResult, hands: dict[str, HandReplay]) -> None:
    """Keep the record (and the hand it closed) of each wanted hand."""
    closed = out.closed_hand
    for record in out.records:
        replay = hands.get(record.hand_id)
        if replay is None or replay.record is not None:
            continue
        replay.record = record
        if closed is not None and closed.hand_id == record.hand_id:
            replay.hand_input = closed


def _span(replay: HandReplay, logged: list[LoggedEvent]) -> None:
    """The hand's events: from its first to its last event in log order."""
    positions = [i for i, e in enumerate(logged) if e.event.hand_id == replay.hand_id]
    if not positions:
        return
    first, last = positions[0], positions[-1]
    replay.events = logged[first:last + 1]
    replay.before = logged[first - 1] if first > 0 else None
    replay.after = logged[last + 1] if last + 1 < len(logged) else None


def _rerun_game(replay: HandReplay, profiles: Profiles) -> None:
    """The game's pure ``adjudicate`` again, for its trace (the decision path)."""
    hand = replay.hand_input
    if hand is None or hand.table.config is None:
        replay.outcome_note = ("the hand never reached hand_ended in a state pitwatch could "
                               "adjudicate, so no decision path exists; see the findings")
        return
    config = hand.table.config
    game = GAMES.get(config.game)
    if game is None:
        replay.outcome_note = f"unknown game {config.game!r}"
        return
    try:
        replay.outcome = game.adjudicate(hand, profiles.get(config.rule_profile))
    except UnknownProfileError as exc:
        replay.outcome_note = str(exc)
    except HandRejected as exc:
        replay.outcome_note = f"{exc.rule}: {exc.message}"
