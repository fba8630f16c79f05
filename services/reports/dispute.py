"""The dispute-resolution report of one hand: everything needed to check the verdict.

Why this shape: a dispute is settled by someone who was not at the table and may not know
pitwatch. So the report carries the table and who sat where; every event in words with
its cards; each final hand and its rank; the rules' decision path with the rule text it
relied on; expected against recorded per seat and per wager; every finding; and the hash
chain recomputed, so the reader can trust that the events are the ones the table sent.

Sources: the event log (everything), and/or the ledger (the record as booked: money and
findings, but no events, so no timeline, cards, decision path or chain recomputation;
the report says so). With both, the booked record is compared with the re-derived one.
With an alerts file, the surveillance alerts that cite the hand are named too.

Why the findings come first: the reader opens the report to learn what is wrong with the
hand; the evidence (seats and cards, the timeline, the money, the chain) follows it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy import Engine

from services.events.contract import (
    AdjudicationRecord,
    Alert,
    CardDealtEvent,
    Finding,
    HandEndedEvent,
    HandStartedEvent,
    TableConfiguredEvent,
    encode_record,
)
from services.games.model import TraceStep
from services.games.profile import Profiles, UnknownProfileError
from services.games.profiles import BUILTIN_PROFILE
from services.games.unknown_profiles import UNKNOWN_PROFILE_CODE, not_known_here
from services.reports.alerts import AlertLine, alerts_concerning
from services.reports.booking_differs import booking_differs
from services.reports.chain import ChainCheck, verify_chain
from services.reports.hands import FinalHand, final_hands
from services.reports.log_match import (
    LogMismatch,
    not_in_log,
    not_whole_in_log,
    starts_table_late,
)
from services.reports.narrate import Narrator
from services.reports.replay import Events, HandReplay, replay_hand, replay_hands
from services.reports.rulebook import RuleText, load_rulebook
from services.reports.settlement import SeatLine, SeatMoney, seat_lines, seat_money
from services.reports.timeline import TimelineEntry, TimelineRow, timeline_rows

if TYPE_CHECKING:
    from services.ledger.queries import StoredHand

GAME_NAMES: dict[str, str] = {
    "hcf": "High Card Flush",
    "chinese": "Chinese Poker",
    "draw7a": "Five Card Draw, 7 to Ace",
    "russian": "Russian Poker",
    "holdem": "Texas Hold'em",
}


SEVERITY_ORDER = ("critical", "warning", "info")


class HandUnavailable(LookupError):
    """Neither the log nor the ledger knows the hand."""


def not_in_ledger(hand_id: str, shown: str) -> str:
    """The message of a hand the ledger at ``shown`` (``shown_url``) does not hold, with
    what to do: ``report hand`` said only where it looked (QA); ``ledger hand`` words it
    so too."""
    return f"hand {hand_id!r} is not in the ledger at {shown}: check the hand id and the database"


class ProfileNotKnownHere(HandUnavailable, UnknownProfileError):
    """The booked hand was judged under a rule profile this process does not know (a
    casino's own, and no ``PITWATCH_PROFILES``): re-derived here it came out "unknown
    rule profile", and the report said the log or the booking changed after the hand was
    booked (QA). Refused in one line naming the variable to set; a report of the booking
    alone (no events) is still written."""


def refuse_unknown_profile(record: AdjudicationRecord, profiles: Profiles) -> None:
    """Raise ``ProfileNotKnownHere`` when ``record`` was judged under a profile that
    ``profiles`` lacks, unless it was judged "unknown rule profile" then too (the same
    outcome here)."""
    name = record.rule_profile
    if name is None or name in profiles.by_name:
        return
    if any(f.code == UNKNOWN_PROFILE_CODE for f in record.findings):
        return
    raise ProfileNotKnownHere(f"hand {record.hand_id} was "
                              f"{not_known_here({name: None}, profiles.names())}")


LEDGER_ONLY = ("this report shows the record as booked in the ledger only: the timeline, "
               "the cards, the decision path and the recomputation of the hash chain need "
               "the events")


def ledger_only_note(why: str) -> str:
    """The note atop a ledger-only report: why it has no events (a clause), then what it
    therefore lacks. Why a note per cause: "not supplied" once stood for a log given
    that lacks the hand and for an archive that lost it too, which hid both."""
    return f"{why[:1].upper()}{why[1:]}, so {LEDGER_ONLY}."


NOT_SUPPLIED = ledger_only_note("the event log was not supplied (--events FILE)")


class HandNotWholeInLog(HandUnavailable):
    """The log cannot re-derive the booked hand (``not_whole_in_log``): the message is the
    clause, ``mismatch`` the whole of it."""

    def __init__(self, mismatch: LogMismatch) -> None:
        super().__init__(mismatch.clause)
        self.mismatch = mismatch


@dataclass(frozen=True)
class CitedRule:
    rule_id: str
    text: RuleText | None


@dataclass(frozen=True)
class SeatIn:
    seat: int
    player: str
    stack: int


@dataclass(frozen=True)
class SeatRow:
    """A row of the seats table: who sat there and the hand they ended with (or a holder
    that is not a seat, the dealer or the board, with ``seat`` None)."""

    seat: SeatIn | None
    hand: FinalHand | None

    @property
    def holder(self) -> str:
        if self.seat is not None:
            return str(self.seat.seat)
        return self.hand.holder if self.hand is not None else ""


@dataclass(frozen=True)
class LedgerView:
    """How the ledger holds the hand."""

    url: str
    ledger_status: str
    record_sha256: str
    conflicts: list[str]
    matches_log: bool | None  # booked record == record re-derived from the log


@dataclass(frozen=True)
class BookedBeside:
    """One seat (or the house) of a booked record that differs from the log's: each side's
    result after rake, recorded and expected (``None``: that side has no figure)."""

    who: str
    log_recorded: int | None
    booked_recorded: int | None
    log_expected: int | None
    booked_expected: int | None

    @property
    def differs(self) -> bool:
        return (self.log_recorded, self.log_expected) != (self.booked_recorded,
                                                          self.booked_expected)


@dataclass
class DisputeReport:
    hand_id: str
    table_id: str
    record: AdjudicationRecord
    game: str | None
    game_name: str
    rule_profile: str | None
    dealer_id: str | None
    limits: str | None = None
    rake: str | None = None
    deck: int | None = None
    button: int | None = None
    designated: int | None = None
    seats: list[SeatIn] = field(default_factory=list)
    started_at: str | None = None
    # The hand's hand_ended time in its events: shown when the record carries none (a
    # rejected record has no ended_at, though the table closed the hand: QA).
    ended_in_events: str | None = None
    timeline: list[TimelineEntry] | None = None
    hands: list[FinalHand] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)
    trace_note: str | None = None
    seat_lines: list[SeatLine] = field(default_factory=list)
    seat_money: list[SeatMoney] = field(default_factory=list)
    rules: list[CitedRule] = field(default_factory=list)
    chain: ChainCheck | None = None
    record_hash_note: str | None = None
    # The record's last_hash is not the hash of the hand's last event in the log: the
    # chain section must not say VERIFIED beside it (QA).
    record_hash_differs: bool = False
    ledger: LedgerView | None = None
    # The record as booked, when it differs from the one re-derived from the log (which
    # the report shows): it is shown beside it in section 8, never mixed into it.
    booked: AdjudicationRecord | None = None

    @property
    def quoted_rules_note(self) -> str | None:
        """Section 6 quotes the rule book, which states the built-in profile's numbers and
        readings; a hand judged under another profile says so beside them (QA: "5 cards
        10, 4 cards 2" quoted for a hand whose profile paid 4 cards 3, with no word)."""
        if self.rule_profile in (None, BUILTIN_PROFILE):
            return None
        return (f"The texts below are the rule book's, whose numbers and readings are those "
                f"of the built-in profile {BUILTIN_PROFILE}. This hand was judged under "
                f"profile '{self.rule_profile}': where it posts other values, section 4 "
                "gives the ones applied.")
    log_name: str | None = None
    notes: list[str] = field(default_factory=list)
    # Surveillance alerts citing the hand; ``alerts_source`` None: no alerts file given.
    alerts: list[AlertLine] = field(default_factory=list)
    alerts_source: str | None = None

    @property
    def findings(self) -> list[Finding]:
        return self.record.findings

    @property
    def findings_by_severity(self) -> list[Finding]:
        """Critical first, then warning, then info; the record's order within each."""
        rank = {severity: i for i, severity in enumerate(SEVERITY_ORDER)}
        return sorted(self.findings, key=lambda f: rank.get(f.severity, len(rank)))

    @property
    def timeline_rows(self) -> list[TimelineRow]:
        return timeline_rows(self.timeline or [])

    @property
    def seat_rows(self) -> list[SeatRow]:
        """Every seat beside its final hand, then hands of seats not listed (a hand with
        no ``hand_started``), the dealer and the board."""
        by_seat = {h.seat: h for h in self.hands if h.seat is not None}
        rows = [SeatRow(s, by_seat.pop(s.seat, None)) for s in self.seats]
        rows += [SeatRow(None, h) for h in self.hands
                 if h.seat is None or h.seat in by_seat]
        return rows

    @property
    def booked_beside(self) -> list[BookedBeside]:
        """Per seat and the house, the log's results beside the booking's (empty when the
        booking is the log's record)."""
        if self.booked is None:
            return []
        booked = {line.who: line for line in seat_lines(self.booked, {})}
        rows: list[BookedBeside] = []
        for line in self.seat_lines:
            other = booked.pop(line.who, None)
            rows.append(BookedBeside(line.who, line.recorded_net,
                                     other.recorded_net if other else None,
                                     line.expected_net, other.expected_net if other else None))
        rows += [BookedBeside(b.who, None, b.recorded_net, None, b.expected_net)
                 for b in booked.values()]
        return rows

    @property
    def booked_findings(self) -> list[Finding]:
        return self.booked.findings if self.booked is not None else []

    def attach_alerts(self, alerts: Iterable[Alert], source: str) -> None:
        """Keep the alerts raised on or citing this hand."""
        self.alerts = alerts_concerning(alerts, {(self.table_id, self.hand_id)})
        self.alerts_source = source

    @property
    def verdict(self) -> str:
        """One sentence a reader can check against the tables below."""
        status = self.record.status
        counts = {s: sum(1 for f in self.findings if f.severity == s)
                  for s in ("critical", "warning", "info")}
        found = ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "none"
        if status == "ok":
            return ("Settled correctly: every seat's recorded result equals the result the "
                    f"posted rules give. Findings: {found}.")
        if status == "dead":
            return f"Dead hand: the rules void it and return the wagers. Findings: {found}."
        if status == "unverified":
            return ("Cannot verify who won: the record lacks what the rules need (see the "
                    "findings); the actions, the chips, the rake and each seat's result "
                    "against the pots it could win were checked and are right. "
                    f"Findings: {found}.")
        if status == "rejected":
            return ("Not adjudicated: the events do not describe a hand the rules can settle "
                    f"(see the findings). Findings: {found}.")
        return ("Discrepancy: what the table recorded differs from the posted rules, or the "
                f"procedure broke a rule. Findings: {found}.")


def dispute_from_log(
    lines: Events,
    hand_id: str,
    profiles: Profiles,
    rules: dict[str, RuleText] | None = None,
    log_name: str | None = None,
) -> DisputeReport:
    """The full report from the event log (raises ``HandNotFound``), the hand replayed
    under ``profiles``; ``HandNotWholeInLog`` when the log starts the hand's table after
    its first event (``starts_table_late``: nothing else gives the table's state)."""
    replay = replay_hand(lines, hand_id, profiles)
    late = starts_table_late(replay, log_name)
    if late is not None:
        raise HandNotWholeInLog(late)
    return dispute_from_replay(replay, rules, log_name)


def disputes_from_log(
    lines: Sequence[bytes],
    hand_ids: list[str],
    profiles: Profiles,
    rules: dict[str, RuleText] | None = None,
    log_name: str | None = None,
) -> dict[str, DisputeReport]:
    """Reports of many hands with one replay per table; hands not in the log are absent."""
    book = rules if rules is not None else load_rulebook()
    return {hand_id: dispute_from_replay(replay, book, log_name)
            for hand_id, replay in replay_hands(lines, hand_ids, profiles).items()}


def dispute_from_replay(
    replay: HandReplay, rules: dict[str, RuleText] | None = None, log_name: str | None = None
) -> DisputeReport:
    if replay.record is None:
        raise HandUnavailable(f"hand {replay.hand_id!r} has events but never produced a "
                              "record")
    report = _base(replay.record, log_name)
    _from_replay(report, replay)
    _finish(report, rules)
    return report


def dispute_from_ledger(
    engine: Engine,
    url: str,
    hand_id: str,
    profiles: Profiles,
    lines: Events | None = None,
    rules: dict[str, RuleText] | None = None,
    log_name: str | None = None,
    missing: str = NOT_SUPPLIED,
) -> DisputeReport:
    """The report from the ledger's booked record, completed from the log when given
    (raises ``HandUnavailable``, or ``HandNotFound`` when the log lacks the hand);
    without a log, ``missing`` is the note saying why (``ledger_only_note``)."""
    from services.ledger.db import shown_url
    from services.ledger.queries import stored_hand

    stored = stored_hand(engine, hand_id)
    if stored is None:
        raise HandUnavailable(not_in_ledger(hand_id, shown_url(url)))
    if lines is not None:
        refuse_unknown_profile(stored.record, profiles)
    replay = replay_hand(lines, hand_id, profiles) if lines is not None else None
    partly = not_whole_in_log(replay, stored.record, log_name) if replay is not None else None
    if partly is not None:
        raise HandNotWholeInLog(partly)
    return _ledger_report(stored, url, replay, rules, log_name, missing)


def disputes_from_ledger(
    engine: Engine,
    url: str,
    hand_ids: list[str],
    lines: Events | None,
    profiles: Profiles,
    rules: dict[str, RuleText] | None = None,
    log_name: str | None = None,
    on_hand: Callable[[str], None] | None = None,
    missing: Callable[[str, str], str | None] | None = None,
    mismatched: dict[str, LogMismatch] | None = None,
) -> dict[str, DisputeReport]:
    """The ledger reports of many hands with one replay per table (the daily report's
    copies). Hands the ledger does not hold are absent. A booked hand ``lines`` holds no
    event of, or cannot re-derive (``not_whole_in_log``, then kept in ``mismatched`` by
    hand before ``missing`` is asked), gets the ledger-only report with the note
    ``missing(hand_id, table_id)`` gives, or is absent when it gives None (the caller
    looks for its events elsewhere); by default the note says the log was not supplied
    (``lines`` None), that it lacks the hand, or why it cannot re-derive it. ``on_hand``
    is called after each hand (progress)."""
    from services.ledger.queries import stored_hand

    book = rules if rules is not None else load_rulebook()
    replays = replay_hands(lines, hand_ids, profiles) if lines is not None else {}
    reports: dict[str, DisputeReport] = {}
    for hand_id in hand_ids:
        stored = stored_hand(engine, hand_id)
        if stored is not None and lines is not None:
            refuse_unknown_profile(stored.record, profiles)
        replay = replays.get(hand_id)
        partly = (not_whole_in_log(replay, stored.record, log_name)
                  if stored is not None and replay is not None else None)
        if stored is not None and replay is not None and partly is None:
            reports[hand_id] = _ledger_report(stored, url, replay, book, log_name)
        elif stored is not None:
            if partly is not None and mismatched is not None:
                mismatched[hand_id] = partly
            note = (missing(hand_id, stored.record.table_id) if missing is not None
                    else NOT_SUPPLIED if lines is None
                    else ledger_only_note(partly.clause if partly is not None
                                          else not_in_log(log_name)))
            if note is not None:
                reports[hand_id] = _ledger_report(stored, url, None, book, log_name, note)
        if on_hand is not None:
            on_hand(hand_id)
    return reports


def _ledger_report(
    stored: StoredHand,
    url: str,
    replay: HandReplay | None,
    rules: dict[str, RuleText] | None,
    log_name: str | None,
    missing: str = NOT_SUPPLIED,
) -> DisputeReport:
    """The booked hand's report; ``missing``: the note of a report without the hand's
    events (``replay`` None), which then names no event log: it read none of the hand.

    With the events (which ``not_whole_in_log`` has held to the booked hand's), the report
    is the log's, as ``docs/reports.md`` promises: its findings, its settlement, its
    money, all from the record the log re-derives, and the booking in section 8. When the
    booking differs, it is shown there beside the log's, never mixed in: the record booked
    once gave the findings and "recorded" figures while the timeline beside them showed
    the log's payouts (QA: "paid 150 chips" above "+50 recorded, difference 0")."""
    derived = replay.record if replay is not None else None
    # From the archive (named "the event archive"), the booked record stays the report's:
    # those are the events pitwatch judged, and a hand booked without its table's state
    # (a day run without --leave-open, rejected) is reviewed as booked.
    archived = bool(log_name and log_name.startswith("the "))
    report = _base(stored.record if archived or derived is None else derived,
                   log_name if replay is not None else None)
    matches: bool | None = None
    if replay is not None and derived is not None:
        matches = encode_record(derived) == encode_record(stored.record)
        _from_replay(report, replay)
        if not matches and not archived:
            report.booked = stored.record
    else:
        report.notes.append(
            missing if replay is None else
            "The event log holds this hand's events but they never produced a record, so "
            "this report shows the record as booked in the ledger only.")
        report.seat_money = seat_money(stored.record)
    # The ledger's own findings (beyond the booked record's) belong to the booking.
    ledger_only = [f for f in stored.findings if f not in stored.record.findings]
    report.record = _with_findings(report.record, ledger_only)
    from services.ledger.db import shown_url

    report.ledger = LedgerView(shown_url(url), stored.ledger_status, stored.record_sha256,
                               stored.conflicts, matches)
    if matches is False:
        report.notes.append(booking_differs(stored.record, derived, archived,
                                            report.chain.broken if report.chain else []))
    _finish(report, rules)
    return report


def _with_findings(record: AdjudicationRecord, extra: list[Finding]) -> AdjudicationRecord:
    if not extra:
        return record
    import msgspec

    return msgspec.structs.replace(record, findings=[*record.findings, *extra])


def _base(record: AdjudicationRecord, log_name: str | None) -> DisputeReport:
    game = record.game
    return DisputeReport(
        hand_id=record.hand_id, table_id=record.table_id, record=record, game=game,
        game_name=GAME_NAMES.get(game or "", game or "unknown game"),
        rule_profile=record.rule_profile, dealer_id=record.dealer_id, log_name=log_name,
        seats=[SeatIn(int(s), p, 0) for s, p in sorted((record.players or {}).items(),
                                                       key=lambda sp: int(sp[0]))],
    )


def _from_replay(report: DisputeReport, replay: HandReplay) -> None:
    events = [logged.event for logged in replay.events]
    hand = replay.hand_input
    config = hand.table.config if hand else None
    if config is None:
        config = next((e.data for e in events if isinstance(e, TableConfiguredEvent)), None)
    if config is not None:
        limits = config.limits
        report.limits = f"{limits.min_wager} to {limits.max_wager} chips per wager"
        report.rake = f"mode {config.rake.mode}, fee {config.rake.fee}"
        report.rule_profile = report.rule_profile or config.rule_profile
    started = next((e for e in events if isinstance(e, HandStartedEvent)), None)
    if started is not None:
        d = started.data
        report.deck, report.button, report.designated = d.deck, d.button, d.designated_player
        report.dealer_id = report.dealer_id or d.dealer_id
        report.seats = [SeatIn(s.seat, s.player_id, s.stack) for s in d.seats]
        report.started_at = started.ts
    ended = next((e for e in events
                  if isinstance(e, HandEndedEvent) and e.hand_id == replay.hand_id), None)
    report.ended_in_events = ended.ts if ended is not None else None
    chain = verify_chain(replay.events, replay.before, replay.after, replay.cut_before)
    report.chain = chain
    ok_by_position = [link.ok for link in chain.links]
    narrator = Narrator()
    report.timeline = [
        TimelineEntry(ts=logged.event.ts, seq=logged.event.seq,
                      event_type=str(logged.event.__struct_config__.tag),
                      line=narrator.line(logged.event), chain_ok=ok,
                      other_hand=(logged.event.hand_id
                                  if logged.event.hand_id not in (None, replay.hand_id)
                                  else None),
                      dealt_to=(narrator.dealt_to(logged.event)
                                if isinstance(logged.event, CardDealtEvent) else None),
                      face_up=(isinstance(logged.event, CardDealtEvent)
                               and logged.event.data.face_up))
        for logged, ok in zip(replay.events, ok_by_position, strict=True)
    ]
    hand_events = [e for e in events if e.hand_id == replay.hand_id]
    report.hands = final_hands(hand_events, report.game)
    if replay.outcome is not None:
        report.trace = list(replay.outcome.trace)
    else:
        report.trace_note = replay.outcome_note
    seat_rules = replay.outcome.seat_rules if replay.outcome else {}
    report.seat_lines = seat_lines(report.record, seat_rules,
                                   replay.outcome is not None and replay.outcome.fees_from_pot)
    report.seat_money = seat_money(report.record, events)
    if report.record.last_hash is not None and chain.last_hash is not None:
        same = report.record.last_hash == chain.last_hash
        report.record_hash_differs = not same
        report.record_hash_note = (
            "equals the hash recomputed from the log" if same
            else "DIFFERS from the hash recomputed from the log")
    if replay.rejected_lines:
        count = len(replay.rejected_lines) + replay.rejected_unnamed
        report.notes.append(f"{count} line(s) of this table in the log "
                            "failed validation and are not part of the chain: "
                            + "; ".join(replay.rejected_lines[:5]))
    if replay.history_note is not None:
        report.notes.append(f"The table's state before this hand was restored from the "
                            f"{replay.history_note}, not replayed from the table's first "
                            "event; `pitwatch verify` derives every checkpoint again from "
                            "the one before it.")


def _finish(report: DisputeReport, rules: dict[str, RuleText] | None) -> None:
    if not report.seat_lines:
        report.seat_lines = seat_lines(report.record, {})
    book = rules if rules is not None else load_rulebook()
    cited: list[str] = []
    for rule_id in [*(s.rule for s in report.trace), *(f.rule for f in report.findings),
                    *(rule for s in report.seat_lines if s.rule
                      for rule in s.rule.split(", "))]:
        if rule_id and rule_id not in cited:
            cited.append(rule_id)
    report.rules = [CitedRule(rule_id, book.get(rule_id)) for rule_id in cited]
