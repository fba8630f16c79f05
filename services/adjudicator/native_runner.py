"""The native runner: the per-event path in the Rust core (``services._native``).

The core splits, validates, hashes, chain-checks and assembles hands; what reaches this
module is one tuple list per record that had an outcome (most records have none), and a
closed hand with its events already built as the contract's structs. Here the hand gets
its ``TableContext``, is adjudicated by the same ``adjudicate_hand`` the reference runner
calls, and the stacks it moved go back to the core (``settle``) before the table's next
event. A record the core rejects is worded by the Python reference (``parse_record``), so
a reason never differs between the engines.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import msgspec

from services.adjudicator.carry import CarrySource
from services.adjudicator.segments import RawPart, Segment, events_of_parts
from services.adjudicator.steps import DeadLetter, EncodedRecord, EncodedRun, StepResult
from services.events import contract
from services.events.contract import Alert
from services.events.numerals import is_ascii_number
from services.events.wire import record_of_line
from services.games.chinese.profile import ChineseProfile
from services.games.draw7a.profile import Draw7aProfile
from services.games.hcf.profile import HcfProfile
from services.games.holdem.profile import HoldemProfile
from services.games.profile import GenProfile, Profiles, RuleProfile
from services.games.russian.profile import RussianProfile

if TYPE_CHECKING:
    from services.adjudicator.adjudicate import ChainInfo
    from services.games.model import HandInput, TableContext
    from services.games.registry import Game

# The Python side of this module (the reference's rules, its intake's wording, its table
# state's helpers, the games' model) is imported where it is used: a run the core's rules
# adjudicate whole never needs it, and importing it is ~40 ms of every command's start
# (issue #23 counts the whole process). Which rules the core ports is known by name until
# the games registry is loaded
# (``registry_native_games``).


class EngineUnavailable(RuntimeError):
    """The native core is not built into this installation."""


def _native() -> Any:
    try:
        from services import _native
    except ImportError as exc:
        raise EngineUnavailable(
            "the native core (services._native) is not built: run `pip install -e .` "
            "(needs Rust's cargo; `make install` gets it), or set PITWATCH_ENGINE=python"
        ) from exc
    return _native


def _reference_verdict(raw: bytes) -> tuple[str, str | None] | None:
    """The reference's decision on a record the core rejected or could not decide:
    None (accepted) or (reason, table_id)."""
    from services.adjudicator.intake import Rejection, parse_record

    parsed = parse_record(raw, "")
    if isinstance(parsed, Rejection):
        return parsed.reason, parsed.table_id
    return None


def _contract_classes() -> dict[str, type]:
    return {name: value for name, value in vars(contract).items() if isinstance(value, type)}


Outputs = list[tuple[Any, ...]]

# The games whose rules the core has (native/src/rules/), each with the module of the
# Python rules it ports (their ``adjudicate``): their hands never reach Python.
NATIVE_GAMES: dict[str, str] = {game: f"services.games.{game}.adjudicate"
                                for game in ("hcf", "chinese", "draw7a", "russian", "holdem")}
REGISTRY_MODULE = "services.adjudicator.adjudicate"


def registry_native_games() -> list[str]:
    """The games the core adjudicates: those the games registry, as ``adjudicate_hand``
    dispatches on it, runs with the very rules the core ports. A game missing from the
    registry (a build without it) or with other rules in its place (a test's, a
    plugin's) runs the registry's rules, game by game. A registry this process has not
    loaded is the one the build ships, which runs every ported game's own rules: a
    registry can only be changed by code that imported it first."""
    reference = sys.modules.get(REGISTRY_MODULE)
    if reference is None:
        return list(NATIVE_GAMES)
    games: Mapping[str, Game] = vars(reference)["GAMES"]
    return [name for name, module in NATIVE_GAMES.items()
            if name in games and _is_ported(games[name].adjudicate, module)]


def _is_ported(rules: Any, module: str) -> bool:
    """Whether ``rules`` is the ``adjudicate`` function its game's rules module defines
    (the rules the core ports), known by where it was defined: a replacement (a test's
    wrapper, a plugin's function) is defined elsewhere or under another name."""
    return (getattr(rules, "__module__", None) == module
            and getattr(rules, "__qualname__", None) == "adjudicate")


def _section(profile: RuleProfile, name: str, struct_type: type[Any]) -> dict[str, Any] | None:
    """A profile section as plain data for the core, or None when it does not load (the
    core then leaves the hands that need it to the Python rules, which word the error)."""
    try:
        data: dict[str, Any] = msgspec.to_builtins(profile.section(name, struct_type))
    except Exception:  # whatever the section's fault, the reference reports it per hand
        return None
    return data


Section = dict[str, Any] | None
Sections = tuple[Section, Section, Section, Section, Section, Section]


def native_profiles(profiles: Profiles) -> dict[str, Sections]:
    """What the core's rules read of each profile (sections ``gen``, ``hcf``, ``chinese``,
    ``draw7a``, ``russian`` and ``holdem``; ``draw7a`` and ``holdem`` with ``[rake]`` and
    ``[betting_severity]``, the betting engine's), given to it once: the rules read no file
    and look nothing up in Python per hand."""
    return {name: (_section(p, "gen", GenProfile), _section(p, "hcf", HcfProfile),
                   _section(p, "chinese", ChineseProfile),
                   _section(p, "draw7a", Draw7aProfile),
                   _section(p, "russian", RussianProfile),
                   _section(p, "holdem", HoldemProfile))
            for name, p in profiles.by_name.items()}


@dataclass(slots=True)
class KafkaOutcome:
    """A Kafka record that had an outcome: the record as it came (key, value, headers),
    and its result (``step`` None: the record has no value; ``wrong_table``: a valid event
    of another table than its key names, not applied)."""

    offset: int
    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, bytes | None]]
    step: StepResult | None
    wrong_table: str | None


@dataclass(slots=True)
class KafkaBatchFed:
    """What ``NativeRunner.feed_kafka_batch`` did with one batch: the records with an
    outcome, in offset order; per table, the offset of the last record fed; the records
    skipped as replays; and every record read at or above the offset asked for."""

    outcomes: list[KafkaOutcome] = field(default_factory=list)
    last_fed: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    consumed: int = 0


class NativeRunner:
    """``feed(raw, where) -> StepResult`` and ``finish()``, as the reference runner; plus
    whole batches (``feed_lines``, ``feed_buffer``, ``feed_records``) in one call each
    and one table's state as bytes (``export_table`` / ``import_table``). ``archive``: the
    core cuts the event archive's segments (``StepResult.archive``), as the reference's
    table state does."""

    def __init__(self, profiles: Profiles, archive: bool = False, closed_hands: bool = True,
                 native_rules: bool = True) -> None:
        """``archive``: the core cuts the event archive's segments (a copy of every event's
        canonical JSON, so only when asked). ``closed_hands``: give each adjudicated hand
        back as ``StepResult.closed_hand`` (surveillance and reports need its events; the
        adjudicating paths do not, and skip building them). ``native_rules``: High Card
        Flush, Chinese Poker, Five Card Draw 7-A, Russian Poker and Texas Hold'em hands are
        adjudicated by the core's rules, each game only while the registry runs the
        reference's rules for it (the Python rules are the reference and decide the rest)."""
        self.profiles = profiles
        self.closed_hands = closed_hands
        self._engine = _native().Engine(_contract_classes(), _reference_verdict, archive)
        # The games registry says which games this build adjudicates and with what rules:
        # the core's take a game only when the registry runs the rules they port.
        games = registry_native_games() if native_rules else []
        if games:
            # The standard ranking's tables (hold'em's showdown) are built once, on the
            # core's first hold'em hand (in the core: a few milliseconds), which a run of
            # other games never pays.
            source = _native_ranking if "holdem" in games else None
            self._engine.use_native_rules(native_profiles(profiles), closed_hands, games,
                                          ranking_source=source)
        self.next_line = 1  # after ``feed_buffer``: the number of the line that follows
        self.encoded = False  # records as ``StepResult.encoded`` (``encode_records``)

    def encode_records(self) -> None:
        """From now on, every record comes as an ``EncodedRecord`` in
        ``StepResult.encoded`` (the core's as their bytes, written in Rust; the Python
        side's encoded here), not as a struct in ``StepResult.records``: for callers that
        only write records and count them."""
        self.encoded = True
        self._engine.encode_records(True)

    # ------------------------------------------------------------ feeding

    def feed(self, raw: bytes, where: str) -> StepResult:
        outcome = self._engine.feed(raw)
        if outcome is None:
            return StepResult()
        table_id, outputs = outcome
        return self._step(table_id, outputs, raw, where)

    def feed_keyed(self, raw: bytes, key: bytes, where: str) -> tuple[StepResult, str | None]:
        """A Kafka record that must be of the table its key names. Returns the result and,
        for a valid record of another table (not applied), that table's id, so the caller
        words the refusal as its topic requires."""
        outcome = self._engine.feed_keyed(raw, key)
        if outcome is None:
            return StepResult(), None
        table_id, outputs = outcome
        if outputs and outputs[0][0] == "wrong_key":
            return StepResult(), table_id
        return self._step(table_id, outputs, raw, where), None

    def feed_keyed_records(self, values: list[bytes], keys: list[bytes | None],
                           where: Callable[[int], str]
                           ) -> Iterator[tuple[int, StepResult, str | None]]:
        """Kafka records, each of the table its key names, in one call per run of records
        up to a closed hand: ``(index, result, wrong table)`` of each that had an outcome
        (``where(index)`` names a record's position, asked only for those)."""
        index, count = 0, len(values)
        while index < count:
            index, steps = self._engine.feed_many_keyed(values, keys, index)
            for at, table_id, outputs in steps:
                if outputs and outputs[0][0] == "wrong_key":
                    yield at, StepResult(), table_id
                else:
                    yield at, self._step(table_id, outputs, values[at], where(at)), None

    def feed_kafka_batch(self, buf: bytes, start: int, end: int, skip_below: int, until: int,
                         applied: Mapping[str, int], where: Callable[[int], str]
                         ) -> KafkaBatchFed:
        """The records of one Kafka record batch, ``buf[start:end]`` (format 2,
        uncompressed; its CRC checked), at offsets from ``skip_below`` up to ``until``
        (excluded), split and fed by the core as ``feed_keyed_records`` feeds a list; a
        record at or below its table's offset in ``applied`` is counted as replayed, not
        fed. Only the records with an outcome cross into Python (``where(offset)`` names
        one's position). Raises ``ValueError`` for a batch that is not well formed, before
        any of its records is fed."""
        fed = KafkaBatchFed()
        resume: int | None = 0  # byte position in the batch's records
        while resume is not None:
            resume, steps, tables, replayed, consumed = self._engine.feed_kafka_batch(
                buf, start, end, resume, skip_below, until, applied)
            fed.last_fed.update(tables)
            fed.replayed += replayed
            fed.consumed += consumed
            for offset, key, value, headers, table_id, outputs in steps:
                if outputs is None:
                    step, wrong_table = None, None
                elif outputs and outputs[0][0] == "wrong_key":
                    step, wrong_table = StepResult(), table_id
                else:
                    step = self._step(table_id, outputs, value or b"", where(offset))
                    wrong_table = None
                fed.outcomes.append(KafkaOutcome(offset, key, value, headers, step, wrong_table))
        return fed

    def feed_lines(self, lines: list[bytes], first_line: int = 1) -> Iterator[StepResult]:
        """Lines of a file (``lines[i]`` is line ``first_line + i``; each line's record
        taken as ``services.events.wire.record_of_line`` takes it, blank ones skipped):
        the results of the records that had any, in order."""
        index, count = 0, len(lines)
        while index < count:
            index, steps = self._engine.feed_many(lines, index, True)
            for at, table_id, outputs in steps:
                yield self._step(table_id, outputs, record_of_line(lines[at]),
                                 f"line {first_line + at}")

    def feed_records(self, values: Sequence[bytes], wheres: Sequence[str]
                     ) -> Iterator[tuple[int, StepResult]]:
        """Kafka record values as delivered (not stripped): ``(index, result)`` of each
        that had an outcome."""
        items = list(values)
        index, count = 0, len(items)
        while index < count:
            index, steps = self._engine.feed_many(items, index, False)
            for at, table_id, outputs in steps:
                yield at, self._step(table_id, outputs, items[at], wheres[at])

    def feed_buffer(self, buf: bytes, first_line: int = 1, start: int = 0,
                    end: int | None = None) -> Iterator[StepResult]:
        """Whole lines of a file in one buffer, or in ``buf[start:end]`` (no copy made),
        the first of them numbered ``first_line`` (the core splits them)."""
        stop = len(buf) if end is None else end
        pos, line = start, first_line
        while pos < stop:  # the core returns at a hand the Python rules settle first
            (pos, line), steps = self._engine.feed_buffer(buf, pos, line, stop)
            for number, table_id, outputs, at, to in steps:
                yield self._step(table_id, outputs, buf[at:to], f"line {number}")
        self.next_line = line

    def feed_path(self, path: str, chunk: int,
                  on_read: Callable[[int, int], None] | None = None,
                  runs: bool = False) -> Iterator[StepResult]:
        """Every line of the file at ``path``, read by the core in buffers of ``chunk``
        bytes it keeps (``native/src/logfile.rs``: no Python object per buffer, its pages
        touched once). ``on_read(lines, hands)``: what each read brought, for a progress
        bar (counted only when asked). With ``runs`` (and ``encode_records``), the records
        of hands with no other outcome come as ``StepResult.encoded_run``s, a buffer's
        worth at a time, in order with the other steps. A file that cannot be opened or
        read raises ``OSError``."""
        log = _native().LogFile(path, chunk, on_read is not None)
        feed_log = self._engine.feed_log
        while not log.done:
            read, steps, run = feed_log(log, runs)
            if read and on_read is not None:
                on_read(*log.take_counts())
            if run is not None:
                yield StepResult(encoded_run=EncodedRun(*run))
            for number, table_id, outputs, raw in steps:
                yield self._step(table_id, outputs, raw, f"line {number}")

    def finish(self) -> StepResult:
        """Close hands left open at end of input (reported as rejected, never dropped)."""
        result = StepResult()
        for table_id, outputs in self._engine.finish():
            step = self._step(table_id, outputs, b"", "end of input")
            result.records += step.records
            result.encoded += step.encoded
            result.archive += step.archive
        return result

    # ------------------------------------------------------------ state

    def export_table(self, table_id: str) -> bytes | None:
        """One table's state (None: unknown table); ``import_table`` restores it."""
        state: bytes | None = self._engine.export_table(table_id)
        return state

    def import_table(self, raw: bytes) -> str:
        """Restore a table from ``export_table``; returns its id."""
        table_id: str = self._engine.import_table(raw)
        return table_id

    def drop_table(self, table_id: str) -> None:
        self._engine.drop_table(table_id)

    def carry_from(self, source: CarrySource | None) -> None:
        """A table this runner has no state of continues, on its first record taken, from
        the state ``source(table_id, seq)`` returns (``export_table``'s bytes; None: the
        table is new). Bytes that do not import start the table new: ``source`` checks
        them first (``import_table`` on a runner of its own)."""
        self._engine.carry_from(source)

    def chain_head(self, table_id: str) -> tuple[int, str, int] | None:
        """The table's last event taken in seq order (its seq and hash, hex), and how many
        events it has taken in all (the archive's count of them)."""
        head: tuple[int, str, int] | None = self._engine.chain_head(table_id)
        return head

    def missing_seqs(self, table_id: str) -> list[tuple[int, int]] | None:
        """The seqs a gap skipped that have not arrived, as (first, last) ranges, as the
        reference's window keeps them; None: the table is unknown."""
        missing: list[tuple[int, int]] | None = self._engine.missing_seqs(table_id)
        return missing

    def table_ids(self) -> list[str]:
        ids: list[str] = self._engine.table_ids()
        return ids

    def open_hands(self) -> int:
        count: int = self._engine.open_hands()
        return count

    def adjudicate_hand(self, hand: HandInput, chain: ChainInfo | None = None,
                        extra_findings: list[contract.Finding] | None = None
                        ) -> tuple[contract.AdjudicationRecord | None, str | None]:
        """One whole hand by the core's rules (what ``adjudicate_hand`` gives for it), or
        ``(None, why not)`` for a hand they leave to the Python rules (another game, a
        value they defer on). For callers holding a ``HandInput`` rather than a stream:
        the differential tests, a report's replay."""
        findings = list(extra_findings or [])
        if any(f.seat is not None or f.amount is not None for f in findings):
            return None, "intake findings carry no seat or amount"
        table = hand.table
        config = msgspec.json.encode(table.config) if table.config is not None else None
        context = (config, table.config_authorized, table.previous_designated,
                   list(table.designated_offers), table.dealer_id, sorted(table.new_seats),
                   table.hands_played,
                   [(b.seat, b.kind, b.amount, b.seq, b.since_previous_hand) for b in table.buys])
        chain_info = (None if chain is None else
                      (chain.first_seq, chain.last_seq, bytes.fromhex(chain.last_hash)))
        result: tuple[contract.AdjudicationRecord | None, str | None] = (
            self._engine.adjudicate_hand(
                table.table_id, hand.hand_id, [msgspec.json.encode(e) for e in hand.events],
                context, chain_info, [(f.code, f.rule, f.severity, f.message) for f in findings]))
        return result

    def native_rules_stats(self) -> tuple[int, int, int, str | None]:
        """(hands the core's rules adjudicated, deferred to Python, panics caught, why the
        last deferred one was)."""
        stats: tuple[int, int, int, str | None] = self._engine.native_rules_stats()
        return stats

    # ------------------------------------------------------------ outcomes

    def _step(self, table_id: str | None, outputs: Outputs, raw: bytes, where: str
              ) -> StepResult:
        result = StepResult()
        for item in outputs:
            kind = item[0]
            if kind == "alert":
                result.alerts.append(_alert(table_id or "", item, self.profiles))
            elif kind == "dlq":
                result.dead_letters.append(DeadLetter(where, item[1], raw, table_id))
            elif kind == "outside":
                result.outside_hand.extend(_findings([item[1]]))
            elif kind == "segment":  # packed by the core (native/src/segment_pack.rs)
                _, hand_id, head_seq, ordinal, packed = item
                parts = [RawPart(*part) for part in packed]
                result.archive.append(Segment(table_id or "", hand_id, head_seq, ordinal,
                                              make=partial(events_of_parts, parts),
                                              parts=parts))
            elif kind == "encoded":  # adjudicated by the core's rules, as its bytes
                _, hand_id, status, findings, json = item
                result.encoded.append(EncodedRecord(hand_id, status, findings, json))
            elif kind == "record":  # adjudicated by the core's rules, stacks settled
                _, record, hand = item
                self._add(result, record)
                if hand is not None:
                    result.closed_hand = self._hand_input(table_id or "", hand)
            elif kind == "rejected":
                from services.adjudicator.adjudicate import rejected_record

                _, hand_id, findings, game = item
                self._add(result,
                          rejected_record(table_id or "", hand_id, _findings(findings), game))
            else:
                hand_input, record = self._adjudicate(table_id or "", item)
                self._add(result, record)
                result.closed_hand = hand_input
        return result

    def _add(self, result: StepResult, record: contract.AdjudicationRecord) -> None:
        """A record the Python side made goes where the core's go (see ``encode_records``),
        so the step's records stay in the order their hands ended."""
        if self.encoded:
            result.encoded.append(EncodedRecord.of(record))
        else:
            result.records.append(record)

    @staticmethod
    def _hand_input(table_id: str, item: tuple[Any, ...]) -> HandInput:
        from services.games.model import HandInput

        _, hand_id, events, context, _, _ = item
        return HandInput(table=_context(table_id, context), hand_id=hand_id, events=events)

    def _adjudicate(self, table_id: str, item: tuple[Any, ...]
                    ) -> tuple[HandInput, contract.AdjudicationRecord]:
        from services.adjudicator.adjudicate import ChainInfo, adjudicate_hand

        _, _, _, _, (first_seq, last_seq, last_hash), findings = item
        hand = self._hand_input(table_id, item)
        record = adjudicate_hand(hand, self.profiles, ChainInfo(first_seq, last_seq, last_hash),
                                 extra_findings=_findings(findings))
        if record.recorded is not None:
            self._engine.settle(table_id, [(int(key), net) for key, net
                                           in record.recorded.net.items() if is_ascii_number(key)])
        return hand, record


def _alert(table_id: str, item: tuple[Any, ...], profiles: Profiles) -> Alert:
    _, (code, rule, severity, message, seq), (event_id, hand_id, rule_profile) = item
    if severity is None:  # GEN-4 between hands: the table's profile posts the severity
        from services.adjudicator.table import cash_in_play_severity

        severity = cash_in_play_severity(rule_profile, profiles)
    return Alert(table_id=table_id, code=code, rule=rule, severity=severity, message=message,
                 seq=seq, event_id=event_id, hand_id=hand_id)


def _findings(items: list[tuple[str, str, str, str]]) -> list[contract.Finding]:
    from services.games.model import finding

    return [finding(code, rule, severity, message)  # type: ignore[arg-type]
            for code, rule, severity, message in items]


def _context(table_id: str, c: tuple[Any, ...]) -> TableContext:
    """The table as the core holds it, for the Python rules: the hands the core hands
    over only (its model is imported here, not at start-up: its frozen dataclasses cost
    every run of the command a few milliseconds)."""
    from services.games.model import BuyRecord, SeatInfo, TableContext

    (config, authorized, seated, dealer_id, previous_button, previous_designated, offers,
     new_seats, hands_played, buys) = c
    return TableContext(
        table_id=table_id,
        config=config,
        config_authorized=authorized,
        seated={seat: SeatInfo(seat, player_id, stack) for seat, player_id, stack in seated},
        dealer_id=dealer_id,
        previous_button=previous_button,
        previous_designated=previous_designated,
        designated_offers=tuple(offers),
        new_seats=frozenset(new_seats),
        hands_played=hands_played,
        buys=tuple(BuyRecord(seat, kind, amount, seq, since_previous_hand=since)
                   for seat, kind, amount, seq, since in buys),
    )


def _native_ranking() -> Any:
    """The standard ranking for the core's hold'em showdowns (its tables built by the
    core, ``CardRanking.build``, on the first hold'em hand only)."""
    from services.games.evaluation.native import native_ranking

    return native_ranking()
