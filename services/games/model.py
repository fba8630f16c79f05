"""What every game adjudicator receives and returns.

A game rule module is a pure function ``adjudicate(hand: HandInput, profile: RuleProfile)
-> GameOutcome``: no IO, no clock, no randomness. ``HandInput`` carries the hand's events
(already validated, in ``seq`` order) and the table context the hand was played under;
``GameOutcome`` carries the *expected* settlement derived from cards, decisions, table
configuration and rule profile alone, the findings, and the decision path (``trace``)
the dispute report prints. The recorded side (what the table actually moved) is computed
once for every game by ``services.adjudicator.recorded``; the comparison of the two by
``services.adjudicator.adjudicate``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.events.contract import Event, Finding, Severity, TableConfigured


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    player_id: str
    stack: int


@dataclass(frozen=True)
class BuyRecord:
    """A buy of the player now in ``seat``: ``seated`` (``player_seated`` stack), ``buy_in``
    or ``short_buy`` (``chips_changed``). ``since_previous_hand``: made after the previous
    hand of the table, so judged in this hand (older ones are history only). CP-9 needs
    the history: one short buy is allowed after each full buy."""

    seat: int
    kind: str
    amount: int
    seq: int
    since_previous_hand: bool


@dataclass(frozen=True)
class TableContext:
    """The table as it stood when the hand started (built by hand assembly).

    ``previous_button`` / ``previous_designated``: of the table's previous hand (HCF-2,
    CP-12). ``designated_offers``: ``designated_player_offer`` events (seat, accepted) since
    the previous hand. ``new_seats``: seats whose player sat down since the previous hand
    (CP-12: a new player gets neither the first hand nor the button). ``buys``: every buy
    of each seated player since they sat down, in order (CP-9). ``config_authorized``:
    the configuration in force named an authorising supervisor (GEN-5).
    """

    table_id: str
    config: TableConfigured | None
    config_authorized: bool
    seated: dict[int, SeatInfo]
    dealer_id: str | None = None
    previous_button: int | None = None
    previous_designated: int | None = None
    designated_offers: tuple[tuple[int, bool], ...] = ()
    new_seats: frozenset[int] = frozenset()
    hands_played: int = 0
    buys: tuple[BuyRecord, ...] = ()


@dataclass(frozen=True)
class HandInput:
    """One hand: its events (hand events plus table-level events that arrived while the
    hand was open, e.g. ``chips_changed`` for GEN-3), in ``seq`` order."""

    table: TableContext
    hand_id: str
    events: tuple[Event, ...]


@dataclass(frozen=True)
class TraceStep:
    """One step of the decision path, for the dispute report: which rule decided what."""

    rule: str
    message: str
    seat: int | None = None


@dataclass
class GameOutcome:
    """The expected side of a hand.

    ``net``: expected stack change per seat, *after* rake (the designated player is a seat).
    ``house``: expected house net (rake taken, minus anything the house paid in a
    house-banked game). ``sum(net.values()) + house == 0`` always (GEN-8).
    ``rake``: expected rake per seat (its fee); ``pot_rake``: rake a pot rake schedule
    takes from the pot, no seat's (in ``house`` too). ``seat_rules``: the rule that
    decided each seat's settlement (cited by MISPAY findings). ``dead``: the whole hand
    is dead (GEN-6). ``unverified``: why the rules cannot say who wins what (e.g. the
    showdown cards are unknown): the findings and the rake still hold, ``net`` is empty.
    ``price_errors``: per seat, the chips it paid beyond (negative: short of) a price the
    game's rules report as a finding of their own (Russian Poker's RP-2 ``WRONG_FEE``,
    amount = paid - due); the recorded-side comparison leaves them out of the seat's
    MISPAY, so the same chips are never claimed twice. The game fills it because only the
    game knows which of its findings are prices.
    ``net_bounds``: with ``unverified``, per seat the least and the most net *before*
    rake the rules allow whatever the unknown cards are (TH-9: a folded seat wins
    nothing, a seat wins only pots it is eligible for, a pot between known hands goes to
    the best of them); a recorded result outside them is a MISPAY, though who won is not
    known. Empty: no bound (every verified hand, and the games that give none).
    ``fees_from_pot``: the fees in ``rake`` come out of the pot before it is awarded
    (GEN-10 reading ``fee_from = "pot"``), not from their payers' stacks: a seat's own
    chips are then its net as it is (no fee of its own to add back), so the comparison
    with the recorded side compares nets, and a fee not collected is a rake finding of
    the seat charged, never a MISPAY of a seat whose chips are right (QA).
    """

    net: dict[int, int]
    house: int
    rake: dict[int, int]
    findings: list[Finding] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)
    seat_rules: dict[int, str] = field(default_factory=dict)
    dead: bool = False
    pot_rake: int = 0
    unverified: str | None = None
    price_errors: dict[int, int] = field(default_factory=dict)
    net_bounds: dict[int, tuple[int, int]] = field(default_factory=dict)
    fees_from_pot: bool = False


class HandRejected(Exception):
    """The hand's events cannot be adjudicated (e.g. no ``hand_started``, no config).

    Carries the rule the events violate so the ``rejected`` record can cite it.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


def finding(
    code: str,
    rule: str,
    severity: Severity,
    message: str,
    seat: int | None = None,
    amount: int | None = None,
) -> Finding:
    """Build a finding (keyword order matches events.md)."""
    return Finding(
        code=code, rule=rule, severity=severity, seat=seat, amount=amount, message=message
    )
