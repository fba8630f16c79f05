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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from services.adjudicator.engine import make_runner
from services.adjudicator.intake import Rejection, parse_record
from services.adjudicator.native_runner import NativeRunner
from services.adjudicator.steps import StepResult
from services.events.contract import AdjudicationRecord, Event
from services.games.model import GameOutcome, HandInput, HandRejected
from services.games.profile import Profiles, UnknownProfileError
from services.games.registry import GAMES


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


def read_log(path: Path) -> list[bytes]:
    """The non-blank lines of a JSONL event log."""
    return [line.strip() for line in path.read_bytes().splitlines() if line.strip()]


@dataclass
class _Tables:
    """The log split by table, in one pass: each table's lines (numbered), the table of
    each wanted hand, and where each table's first line naming a wanted hand stands in
    its lines (everything before it is the table's history up to the wanted hands)."""

    lines: dict[str, list[tuple[int, bytes]]] = field(default_factory=dict)
    table_of: dict[str, str] = field(default_factory=dict)
    first_wanted: dict[str, int] = field(default_factory=dict)


def _group_by_table(lines: Sequence[bytes], hand_ids: set[str]) -> _Tables:
    out = _Tables()
    for number, line in enumerate(lines, start=1):
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if not isinstance(obj, dict) or not isinstance(obj.get("table_id"), str):
            continue
        table = obj["table_id"]
        table_lines = out.lines.setdefault(table, [])
        hand = obj.get("hand_id")
        if isinstance(hand, str) and hand in hand_ids:  # a list or object: not an id
            out.table_of.setdefault(hand, table)
            out.first_wanted.setdefault(table, len(table_lines))
        table_lines.append((number, line))
    return out


def replay_hand(lines: Sequence[bytes], hand_id: str, profiles: Profiles,
                engine: str | None = None) -> HandReplay:
    """Replay the hand's table through intake and hand assembly up to the hand's record,
    under ``profiles`` (the rule profiles the pipeline adjudicated with), with the engine
    ``services.adjudicator.engine`` chooses (the records are the same either way)."""
    replays = replay_hands(lines, [hand_id], profiles, engine)
    if hand_id not in replays:
        raise HandNotFound(f"no event in the log belongs to hand {hand_id!r}")
    return replays[hand_id]


def replay_hands(lines: Sequence[bytes], hand_ids: Iterable[str],
                 profiles: Profiles, engine: str | None = None) -> dict[str, HandReplay]:
    """Several hands with one replay per table (the daily report's hands to review).
    Hands no event of the log names are absent from the result."""
    wanted = set(hand_ids)
    tables = _group_by_table(lines, wanted)
    out: dict[str, HandReplay] = {}
    for table_id in sorted(set(tables.table_of.values())):
        hands = {h: HandReplay(table_id=table_id, hand_id=h)
                 for h, t in tables.table_of.items() if t == table_id}
        _replay_table(table_id, tables.lines[table_id], tables.first_wanted[table_id],
                      hands, profiles, engine)
        out.update(hands)
    return out


def _replay_table(table_id: str, table_lines: list[tuple[int, bytes]], first_wanted: int,
                  hands: dict[str, HandReplay], profiles: Profiles, engine: str | None
                  ) -> None:
    """The table's events through a runner of the chosen engine (what ``pitwatch
    adjudicate`` runs), each event's position and hash kept for the report from the
    wanted hands' span on (the native engine takes the history before it in bulk,
    ``_history_fed``)."""
    runner = make_runner(profiles, engine)
    logged: list[LoggedEvent] = []
    rejected: list[str] = []
    start = 0
    if isinstance(runner, NativeRunner):
        start = _span_anchor(table_lines, first_wanted)
        if start > 0:
            runner = _history_fed(table_id, table_lines[:start], profiles, rejected)
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
        _span(replay, logged)
        _rerun_game(replay, profiles)


def _span_anchor(table_lines: list[tuple[int, bytes]], first_wanted: int) -> int:
    """Where the event-by-event replay starts: at the last event the intake takes before
    the first line naming a wanted hand (the ``before`` anchor of the first hand's span),
    or at the table's first line when none comes before it."""
    for at in range(first_wanted - 1, -1, -1):
        number, raw = table_lines[at]
        if not isinstance(parse_record(raw, f"line {number}"), Rejection):
            return at
    return 0


def _history_fed(table_id: str, history: list[tuple[int, bytes]], profiles: Profiles,
                 rejected: list[str]) -> NativeRunner:
    """A native runner holding the table as it stood after ``history`` (its lines before
    the wanted hands' span), with the rejected lines among them added to ``rejected`` as
    the event-by-event replay words them.

    Why: a hand played late in a table's life (an archived table holds years of hands)
    was replayed one event at a time from the table's first event, each parsed again in
    Python for a report that shows none of them: about 25 us an event, minutes for a year
    of a table. The history goes to the core in one call per run of records instead, with
    no hand built for the caller (``closed_hands=False``), and the table's state moves to
    the runner that replays the span through the core's own export and import (the Kafka
    pipeline's restore). A line the core takes has no outcome; a line it refuses does, and
    only those are parsed again here for the reference intake's reason."""
    bulk = NativeRunner(profiles, closed_hands=False)
    values = [raw for _, raw in history]
    wheres = [f"line {number}" for number, _ in history]
    seen = -1
    for at, _ in bulk.feed_records(values, wheres):
        if at == seen:
            continue
        seen = at
        parsed = parse_record(values[at], wheres[at])
        if isinstance(parsed, Rejection):
            rejected.append(f"{wheres[at]}: {parsed.reason}")
    runner = NativeRunner(profiles)
    state = bulk.export_table(table_id)
    if state is not None:
        runner.import_table(state)
    return runner


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
