"""Adjudicate one assembled hand: dispatch to its game, compare expected with recorded.

This is the single entry point the embedded runner, the Kafka pipeline and the tests call,
so they cannot disagree. It is pure: the same ``HandInput`` under the same profiles always
gives the same record. The game is found in the typed registry (``services.games.registry``)
and its profile among those the caller passed in; nothing here reads a file.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from services.adjudicator.integrity import common_findings
from services.adjudicator.record_bound import stated_findings, unstatable
from services.adjudicator.recorded import POT, RecordedHand, record_hand
from services.events.contract import (
    AdjudicationRecord,
    Finding,
    HandEndedEvent,
    HandStartedEvent,
    Severity,
    SideResult,
)
from services.events.numerals import is_ascii_number
from services.games.model import GameOutcome, HandInput, HandRejected, finding
from services.games.profile import Profiles, RuleProfile, UnknownProfileError, gen_section
from services.games.registry import GAMES
from services.games.unknown_profiles import UNKNOWN_PROFILE_CODE

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ChainInfo:
    """Where the hand sits in the table's hash chain (for the record and reports)."""

    first_seq: int
    last_seq: int
    last_hash: str


def rejected_record(
    table_id: str, hand_id: str, findings: list[Finding], game: str | None = None
) -> AdjudicationRecord:
    """A hand whose events could not be adjudicated; the findings say why (amounts
    stated within the record's bound: ``record_bound``)."""
    return AdjudicationRecord(
        v=1,
        table_id=table_id,
        hand_id=hand_id,
        game=game,  # type: ignore[arg-type]
        status="rejected",
        rule_profile=None,
        expected=None,
        recorded=None,
        findings=stated_findings(findings),
    )


def adjudicate_hand(
    hand: HandInput,
    profiles: Profiles,
    chain: ChainInfo | None = None,
    extra_findings: list[Finding] | None = None,
) -> AdjudicationRecord:
    """Re-derive the hand, compare with what the table recorded, build the record.

    ``profiles``: the rule profiles the table's configuration may name (read once by the
    caller's bootstrap). ``extra_findings``: what intake found about the hand's events
    (SURV-9 chain breaks, configuration changed mid-hand); they count towards the status
    like any other.
    """
    pre = list(extra_findings or [])
    try:
        return _adjudicate(hand, profiles, chain, pre)
    except Exception as exc:  # one hand must never stop the table's stream
        return _unadjudicable(hand, pre, exc)


def _unadjudicable(hand: HandInput, pre: list[Finding], exc: Exception) -> AdjudicationRecord:
    """A hand whose events drove pitwatch itself into an error (a bug, or a combination of
    events no rule foresaw). Raising would stop the stream: the Faust worker would crash
    on the same ``hand_ended`` after every restart, holding up every table of its
    partition. Instead the hand is ``rejected`` with the error named, so it is reviewed
    by hand and nothing is lost; the traceback goes to the log for the engineers."""
    _log.exception("adjudication of hand %s at table %s failed", hand.hand_id,
                   hand.table.table_id)
    config = hand.table.config
    return rejected_record(
        hand.table.table_id,
        hand.hand_id,
        [*pre, finding("ADJUDICATION_ERROR", "SURV-9", "critical",
                       f"pitwatch could not adjudicate this hand ({type(exc).__name__}: "
                       f"{exc}); its events are kept and it needs review by hand")],
        config.game if config else None,
    )


def _adjudicate(
    hand: HandInput, profiles: Profiles, chain: ChainInfo | None, pre: list[Finding]
) -> AdjudicationRecord:
    table_id = hand.table.table_id
    config = hand.table.config
    if config is None:
        return rejected_record(
            table_id,
            hand.hand_id,
            [*pre, finding("NO_CONFIGURATION", "GEN-5", "critical",
                     "hand played before any table_configured event: no posted game, "
                     "limits or rake to adjudicate against")],
        )
    try:
        profile = profiles.get(config.rule_profile)
        game = GAMES.get(config.game)
        if game is None:
            return rejected_record(
                table_id, hand.hand_id,
                [*pre, finding("GAME_NOT_SUPPORTED", "GEN-5", "critical",
                         f"this pitwatch build cannot adjudicate game {config.game!r} yet")],
                config.game,
            )
        outcome = game.adjudicate(hand, profile)
    except UnknownProfileError as exc:
        return rejected_record(
            table_id, hand.hand_id,
            [*pre, finding(UNKNOWN_PROFILE_CODE, "GEN-5", "critical", str(exc))], config.game,
        )
    except HandRejected as exc:
        # The GEN checks read the events alone, not the game's reading: a hand the rules
        # cannot settle still says what its events show (chips or cash during the hand, a
        # foreign card, no authorisation); they were dropped with the hand (QA).
        return rejected_record(
            table_id, hand.hand_id,
            [*pre, finding("HAND_REJECTED", exc.rule, "critical", exc.message),
             *common_findings(hand, profile)], config.game,
        )
    recorded = record_hand(hand.events)
    findings = [*pre, *common_findings(hand, profile), *outcome.findings, *recorded.findings]
    findings += compare(outcome, recorded, game.rake_rule, profile)
    return _build_record(hand, config.game, config.rule_profile, outcome, recorded, findings,
                         chain)


def _mispay_message(seat: int, got: int, due: int, rule: str, price: int = 0) -> str:
    delta = got - due + price
    verb = "overpaid" if delta > 0 else "underpaid"
    if price:
        return (
            f"seat {seat}: recorded {got:+d} chips before rake, {rule} gives {due:+d}; "
            f"leaving out the price paid {abs(price)} {'over' if price > 0 else 'short'} "
            f"(reported as WRONG_FEE), {verb} by {abs(delta)}"
        )
    return (
        f"seat {seat}: recorded {got:+d} chips before rake, {rule} gives {due:+d}; "
        f"{verb} by {abs(delta)}"
    )


def compare(
    outcome: GameOutcome, recorded: RecordedHand, rake_rule: str, profile: RuleProfile
) -> list[Finding]:
    """MISPAY per seat whose settlement (net before the fee its own chips paid,
    ``own_fee``) differs, beyond a wrong price
    the game already reported (``GameOutcome.price_errors``: one finding per error, so the
    chips are settled once); RAKE_* per seat (and for rake taken from the pot that no
    posted fee accounts for); NOT_CONSERVED (GEN-8) when either side creates or destroys chips."""
    gen = gen_section(profile)
    out = _conservation(outcome, recorded)
    rake = seat_rake(outcome, recorded)
    seats = sorted(set(outcome.net) | set(recorded.net))
    for seat in seats if outcome.unverified is None else ():  # who won is unknown
        due = outcome.net.get(seat, 0) + own_fee(outcome, outcome.rake.get(seat, 0))
        got = recorded.net.get(seat, 0) + own_fee(outcome, rake.get(str(seat), 0))
        price = outcome.price_errors.get(seat, 0)
        if got - due + price:
            rule = outcome.seat_rules.get(seat, "GEN-8")
            out.append(
                finding("MISPAY", rule, gen.mispay_severity,
                        _mispay_message(seat, got, due, rule, price), seat=seat,
                        amount=got - due + price)
            )
    out += _bound_findings(outcome, recorded, rake, gen.mispay_severity)
    expected_rake = rake_due(outcome)
    rake_keys = sorted(set(expected_rake) | set(rake), key=_seat_key)
    for key in rake_keys:
        due = expected_rake.get(key, 0)
        got = rake.get(key, 0)
        if due == got:
            continue
        code = "RAKE_OVER" if got > due else "RAKE_UNDER"
        who = f"seat {key}" if key != POT else "the pot"
        out.append(
            finding(code, rake_rule, gen.rake_error_severity,
                    f"{who}: rake collected {got}, posted rake gives {due}",
                    seat=int(key) if key != POT else None, amount=got - due)
        )
    return out


def own_fee(outcome: GameOutcome, fee: int) -> int:
    """The part of a seat's ``fee`` that its own chips paid, which a seat's result before
    rake adds back (GEN-10): all of it when fees come from the payers' stacks (HCF-12
    and GEN-10's reading), none when the posted rake takes them out of the pot
    (``fee_from = "pot"``: the pot's winners bear them, in the net the rules give)."""
    return 0 if outcome.fees_from_pot else fee


def bound_misses(outcome: GameOutcome, recorded: RecordedHand,
                 rake: dict[str, int]) -> list[tuple[int, int, int, int]]:
    """An unverified hand's seats whose recorded net before rake (``rake``: the recorded
    rake per seat, ``seat_rake``) lies outside ``outcome.net_bounds``: (seat, recorded,
    least, most). Who won is unknown, but no unknown card can make such a result right
    (TH-9: a folded seat paid, a seat paid a pot it is not in, a known pot paid wrong)."""
    if outcome.unverified is None or not outcome.net_bounds:
        return []
    out = []
    for seat in sorted(set(outcome.net_bounds) | set(recorded.net)):
        low, high = outcome.net_bounds.get(seat, (0, 0))
        got = recorded.net.get(seat, 0) + own_fee(outcome, rake.get(str(seat), 0))
        if not low <= got <= high:
            out.append((seat, got, low, high))
    return out


def _bound_message(seat: int, got: int, low: int, high: int, rule: str, delta: int) -> str:
    due = f"{low:+d}" if low == high else f"between {low:+d} and {high:+d}"
    verb = "overpaid" if delta > 0 else "underpaid"
    return (f"seat {seat}: recorded {got:+d} chips before rake; whatever the unknown "
            f"showdown cards, {rule} gives {due} (the pots it is eligible for and can "
            f"win); {verb} by at least {abs(delta)}")


def _bound_findings(outcome: GameOutcome, recorded: RecordedHand, rake: dict[str, int],
                    severity: Severity) -> list[Finding]:
    """MISPAY for each seat ``bound_misses`` gives, by the chips beyond the bound."""
    out = []
    for seat, got, low, high in bound_misses(outcome, recorded, rake):
        rule = outcome.seat_rules.get(seat, "TH-9")
        delta = got - high if got > high else got - low  # the chips beyond the bound
        out.append(finding("MISPAY", rule, severity,
                           _bound_message(seat, got, low, high, rule, delta), seat=seat,
                           amount=delta))
    return out


def rake_due(outcome: GameOutcome) -> dict[str, int]:
    """The expected rake by the record's keys: each seat's fee, and ``pot`` for what a pot
    rake schedule takes from the pot (GEN-10)."""
    due = {str(seat): amount for seat, amount in outcome.rake.items() if amount}
    if outcome.pot_rake:
        due[POT] = outcome.pot_rake
    return due


def seat_rake(outcome: GameOutcome, recorded: RecordedHand) -> dict[str, int]:
    """The recorded rake per seat, with rake taken from the pot with no seat named.

    events.md: ``rake_collected.seat`` is null when the rake is taken from the pot. Such
    chips are matched to the seats the posted rake charges (GEN-10 / HCF-12), in seat
    order, up to what each still owes after the rake recorded against it by name; only
    what no seat owes stays on the ``pot`` key (and is RAKE_OVER). Without this a pot
    raked exactly as posted, but recorded the way the contract allows, would show a
    RAKE_OVER on the pot, a RAKE_UNDER and a MISPAY on the seat that owed it.

    Only chips that went into the pot can be a seat's fee taken from it: at a game
    without a pot (Chinese Poker, GEN-10) a pot rake was counted as the seats' fees, and
    each seat's result "before rake" shown with a fee it never paid, a MISPAY of a
    number that never happened (QA). What the pot never held stays on ``pot``.
    """
    rake = {key: amount for key, amount in recorded.rake.items() if amount}
    from_pot = rake.pop(POT, 0)
    held = sum(m.amount for m in recorded.movements if m.to == POT)
    rake_beyond_pot = max(from_pot - held, 0)
    from_pot -= rake_beyond_pot
    for seat, owed in sorted(outcome.rake.items()):
        key = str(seat)
        take = min(max(owed - rake.get(key, 0), 0), from_pot)
        if take:
            rake[key] = rake.get(key, 0) + take
            from_pot -= take
    if from_pot + rake_beyond_pot:
        rake[POT] = from_pot + rake_beyond_pot
    return rake


def _conservation(outcome: GameOutcome, recorded: RecordedHand) -> list[Finding]:
    """GEN-8: the values of ``net`` sum to zero with the house, on both sides.

    The expected side breaking it is a fault of the game's settlement, reported so the
    hand is never ``ok``. The recorded side only breaks it with chips left in the pot or
    collected beyond a layout, which ``record_hand`` already reports (GEN-8 findings); it
    is reported here only when nothing explains it.
    """
    out: list[Finding] = []
    expected_sum = sum(outcome.net.values()) + outcome.house
    if expected_sum and outcome.unverified is None:
        out.append(finding(
            "NOT_CONSERVED", "GEN-8", "critical",
            f"expected settlement sums to {expected_sum:+d} chips over seats and house, "
            "not zero: the game's settlement is wrong, the hand needs review by hand",
            amount=expected_sum))
    recorded_sum = sum(recorded.net.values()) + recorded.house
    if recorded_sum and not any(f.rule == "GEN-8" for f in recorded.findings):
        out.append(finding(
            "NOT_CONSERVED", "GEN-8", "critical",
            f"recorded movements sum to {recorded_sum:+d} chips over seats and house, "
            "not zero", amount=recorded_sum))
    return out


def sides_agree(outcome: GameOutcome, recorded: RecordedHand) -> bool:
    """Recorded equals expected: every seat's net, the house, and each seat's rake."""
    seats = set(outcome.net) | set(recorded.net)
    if any(outcome.net.get(s, 0) != recorded.net.get(s, 0) for s in seats):
        return False
    if outcome.house != recorded.house:
        return False
    return seat_rake(outcome, recorded) == rake_due(outcome)


def _seat_key(key: str) -> tuple[int, str]:
    return (int(key), "") if is_ascii_number(key) else (10**6, key)


def record_status(outcome: GameOutcome, recorded: RecordedHand, findings: list[Finding]) -> str:
    """events.md: ``ok`` only when recorded equals expected AND no finding is above info;
    ``dead`` the same for a dead hand / misdeal (GEN-6: correctly handled). A profile may
    post mispays or rake errors at severity info; the hand is still a discrepancy.
    ``unverified``: the rules cannot say who wins (showdown cards unknown), and nothing
    that can be checked (actions, chips, rake, each seat's bounds) is wrong."""
    serious = any(f.severity != "info" for f in findings)
    if outcome.unverified is not None:
        rake = seat_rake(outcome, recorded)
        rake_right = rake == rake_due(outcome)
        if serious or not rake_right or bound_misses(outcome, recorded, rake):
            return "discrepancy"
        return "unverified"
    if serious or not sides_agree(outcome, recorded):
        return "discrepancy"
    return "dead" if outcome.dead else "ok"


def _side(net: dict[int, int], house: int, rake: dict[str, int]) -> SideResult:
    out = {str(seat): value for seat, value in sorted(net.items())}
    out["house"] = house
    paid = {k: rake[k] for k in sorted(rake, key=_seat_key) if rake[k]}
    return SideResult(net=out, rake=paid)


def _build_record(
    hand: HandInput,
    game: str,
    rule_profile: str,
    outcome: GameOutcome,
    recorded: RecordedHand,
    findings: list[Finding],
    chain: ChainInfo | None,
) -> AdjudicationRecord:
    """The record; ``rejected`` when its settlement is beyond what a record can state
    (``record_bound``: GEN-8 cannot be checked, the ledger could not book it)."""
    expected = None if outcome.unverified is not None else _side(
        outcome.net, outcome.house, rake_due(outcome))
    recorded_side = _side(recorded.net, recorded.house, recorded.rake)
    beyond = unstatable(expected, recorded_side, recorded.movements)
    if beyond is not None:
        return rejected_record(hand.table.table_id, hand.hand_id, [*findings, beyond], game)
    started = next((e for e in hand.events if isinstance(e, HandStartedEvent)), None)
    ended = next((e for e in hand.events if isinstance(e, HandEndedEvent)), None)
    config = hand.table.config
    return AdjudicationRecord(
        v=1,
        table_id=hand.table.table_id,
        hand_id=hand.hand_id,
        game=game,  # type: ignore[arg-type]
        status=record_status(outcome, recorded, findings),  # type: ignore[arg-type]
        rule_profile=rule_profile,
        expected=expected,
        recorded=recorded_side,
        findings=stated_findings(findings),
        players=(
            {str(s.seat): s.player_id for s in started.data.seats} if started else None
        ),
        dealer_id=started.data.dealer_id if started else hand.table.dealer_id,
        rake_mode=config.rake.mode if config else None,
        ended_at=ended.ts if ended else None,
        first_seq=chain.first_seq if chain else None,
        last_seq=chain.last_seq if chain else None,
        last_hash=chain.last_hash if chain else None,
        movements=recorded.movements,
    )
