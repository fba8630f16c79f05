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


def _group_by_table(
    lines: Sequence[bytes], hand_ids: set[str]
) -> tuple[dict[str, list[tuple[int, bytes]]], dict[str, str]]:
    """Each table's lines (numbered) and the table of each wanted hand, in one pass."""
    by_table: dict[str, list[tuple[int, bytes]]] = {}
    table_of: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if not isinstance(obj, dict) or not isinstance(obj.get("table_id"), str):
            continue
        table = obj["table_id"]
        by_table.setdefault(table, []).append((number, line))
        hand = obj.get("hand_id")
        if hand in hand_ids and hand not in table_of:
            table_of[hand] = table
    return by_table, table_of


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
    by_table, table_of = _group_by_table(lines, wanted)
    out: dict[str, HandReplay] = {}
    for table_id in sorted(set(table_of.values())):
        hands = {h: HandReplay(table_id=table_id, hand_id=h)
                 for h, t in table_of.items() if t == table_id}
        _replay_table(by_table[table_id], hands, profiles, engine)
        out.update(hands)
    return out


def _replay_table(table_lines: list[tuple[int, bytes]], hands: dict[str, HandReplay],
                  profiles: Profiles, engine: str | None) -> None:
    """The table's events through a runner of the chosen engine (what ``pitwatch
    adjudicate`` runs), each event's position and hash kept for the report."""
    runner = make_runner(profiles, engine)
    logged: list[LoggedEvent] = []
    rejected: list[str] = []
    for number, raw in table_lines:
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
