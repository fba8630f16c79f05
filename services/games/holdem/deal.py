"""The hole-card deal: order and count (TH-1), exposed cards (TH-3), extra cards (TH-7).

``HoleDeal`` collects what happened during the deal (which card went where, which were
exposed by the dealer, which were taken back out) and ``review`` judges it once, when the
board is about to be dealt or the hand ends, because the rules describe a whole
procedure: a later exposed card is replaced only *after* the deal is completed and then
serves as the next burn, so no single event can be judged on its own.

What the rules require (rules.md):

- TH-3: the first hole card dealt exposed -> misdeal. One other hole card exposed by the
  dealer -> the deal is completed, the exposed card is replaced by the top card of the
  deck and becomes the next burn card. Two or more exposed -> misdeal.
- TH-7: one extra card to the first player after everyone has their cards -> it goes back
  and is used as the burn card. More than one extra card -> misdeal.

A card "used as the burn" is recorded as ``card_moved`` from the seat to ``burn`` (the
flop is then dealt with no fresh burn), or to ``stub`` and then burned at the flop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from services.events.contract import Severity
from services.games.betting import clockwise_after
from services.games.betting.pot_hand import Notes
from services.games.holdem.profile import HoldemProfile, HoldemSeverities


@dataclass(frozen=True)
class Exposure:
    """A hole card the dealer exposed during the deal; ``index`` is its place in the
    regular deal (0 = the first card dealt), None when it cannot be placed."""

    seat: int
    card: str | None
    index: int | None
    seq: int


@dataclass(frozen=True)
class Removal:
    """A card taken back from a seat (``card_moved`` from ``seat:<n>``)."""

    seat: int
    card: str
    to: str
    seq: int
    during_deal: bool
    # The seat was left short of its hole cards (an exposed card taken back): the next
    # card it receives is the replacement. Taking back an extra card (TH-7) leaves the
    # seat with its two cards, so a card dealt to it after that is another extra card.
    needs_replacement: bool


@dataclass(frozen=True)
class MisdealCause:
    rule: str
    reason: str


@dataclass(frozen=True)
class BurnCredit:
    """A card from the deal that must serve as the next burn card (TH-3 / TH-7).
    ``via``: ``burn`` (already in the burn pile: no fresh burn at the flop) or ``stub``
    (returned to the deck: the flop burn must be this card)."""

    rule: str
    card: str
    via: str


@dataclass
class HoleDeal:
    prof: HoldemProfile
    notes: Notes[HoldemSeverities]
    seats: Sequence[int]
    button: int
    expected: list[int] = field(init=False)
    hands: dict[int, list[str | None]] = field(init=False)
    dealt_index: dict[str, int] = field(default_factory=dict)  # card -> place in the deal
    next_index: int = 0
    first_seq: int | None = None
    phase_over: bool = False  # the deal phase (for TH-3 exposures) has ended
    exposures: list[Exposure] = field(default_factory=list)
    extras: list[tuple[int, str | None, int]] = field(default_factory=list)
    removals: list[Removal] = field(default_factory=list)
    replacements: list[tuple[int, bool]] = field(default_factory=list)  # seat, during deal
    stray: list[tuple[int, str | None, int]] = field(default_factory=list)
    order_reported: bool = False
    reviewed: bool = False
    misdeal_cause: MisdealCause | None = None
    credits: list[BurnCredit] = field(default_factory=list)
    flagged_seats: set[int] = field(default_factory=set)
    used_removals: set[int] = field(default_factory=set)  # indexes into ``removals``

    def __post_init__(self) -> None:
        self.expected = clockwise_after(self.seats, self.button) * self.prof.hole_cards
        self.hands = {seat: [] for seat in self.seats}

    @property
    def complete(self) -> bool:
        return self.next_index >= len(self.expected)

    @property
    def first_seat(self) -> int:
        return self.expected[0]

    # -------------------------------------------------------------- events

    def card(self, seat: int, card: str | None, face_up: bool, seq: int) -> None:
        """A ``card_dealt`` to a seat: a regular card of the deal, a replacement of a
        card taken back, or an extra card once everyone has their cards."""
        if self.first_seq is None:
            self.first_seq = seq
        if seat not in self.hands:
            self.notes.add("WRONG_CARD_COUNT", "TH-1", self.notes.severity.wrong_card_count,
                           f"a hole card was dealt to seat {seat}, which is not dealt in "
                           f"(seq {seq})", seat=seat)
            self.stray.append((seat, card, seq))
            return
        if self._awaits_replacement(seat) and (self.complete or seat != self._due()):
            self.replacements.append((seat, not self.complete))
        elif not self.complete:
            self._regular(seat, card, face_up, seq)
        elif self._replacement_before_removal(seat):
            self.replacements.append((seat, False))
        else:
            self.extras.append((seat, card, seq))
        self.hands[seat].append(card)

    def _due(self) -> int:
        return self.expected[self.next_index]

    def _regular(self, seat: int, card: str | None, face_up: bool, seq: int) -> None:
        due = self._due()
        if seat != due and not self.order_reported:
            self.order_reported = True
            self.notes.add("DEAL_ORDER", "TH-1", self.notes.severity.deal_order,
                           f"hole card {self.next_index + 1} went to seat {seat}; seat {due} "
                           "was due (one card at a time, clockwise from the button's left)",
                           seat=seat)
        index = self.next_index
        self.next_index += 1
        if card is not None:
            self.dealt_index[card] = index
        if face_up:
            self.exposures.append(Exposure(seat, card, index, seq))
        if self.complete and self.prof.deal_phase_ends == "last_hole_card":
            self.phase_over = True

    def _awaits_replacement(self, seat: int) -> bool:
        if not self.removals:
            return False
        removed = sum(1 for r in self.removals if r.seat == seat and r.needs_replacement)
        replaced = sum(1 for s, _ in self.replacements if s == seat)
        return removed > replaced

    def _replacement_before_removal(self, seat: int) -> bool:
        """TH-3 allows the replacement card to come before the exposed card is taken."""
        exposed_here = any(e.seat == seat and e.index != 0 for e in self.exposures)
        replaced = any(s == seat for s, _ in self.replacements)
        return exposed_here and not replaced and len(self.exposures) == 1

    def exposed(self, seat: int, card: str, seq: int) -> None:
        """A ``card_exposed`` by dealer error naming a seat's hole card."""
        if self.phase_over:
            self.notes.step("TH-3", f"seat {seat}'s {card} was exposed after the deal "
                                    f"(seq {seq}); TH-3 covers exposures during the deal",
                            seat)
            return
        if any(e.card == card for e in self.exposures):
            return  # the same card reported twice (dealt face up, then card_exposed)
        self.exposures.append(Exposure(seat, card, self.dealt_index.get(card), seq))

    def removed(self, seat: int, card: str, to: str, seq: int) -> None:
        """A ``card_moved`` from ``seat:<n>``: a correction of TH-3 or TH-7."""
        hand = self.hands.get(seat, [])
        if card in hand:
            hand.remove(card)
        elif None in hand:
            hand.remove(None)  # the card was not read at the deal
        short = len(hand) < self.prof.hole_cards
        self.removals.append(Removal(seat, card, to, seq, during_deal=not self.complete,
                                     needs_replacement=short))

    def betting_began(self) -> None:
        """The first voluntary betting action: the deal phase is over (TH-3 reading)."""
        self.phase_over = True

    # -------------------------------------------------------------- judgement

    def find_misdeal_cause(self) -> MisdealCause | None:
        """TH-3 / TH-7: does what happened during the deal require a misdeal?"""
        first = next((e for e in self.exposures if e.index == 0), None)
        if first is not None:
            return MisdealCause("TH-3", f"the first hole card dealt ({_name(first.card)} to "
                                        f"seat {first.seat}) was exposed")
        if len(self.exposures) >= 2:
            cards = ", ".join(f"{_name(e.card)} (seat {e.seat})" for e in self.exposures)
            return MisdealCause("TH-3", f"{len(self.exposures)} hole cards were exposed "
                                        f"during the deal: {cards}")
        if len(self.extras) >= 2:
            return MisdealCause("TH-7", f"{len(self.extras)} extra cards were dealt after "
                                        "everyone had their cards")
        return None

    def single_irregularity(self) -> str | None:
        """The rule of a lone irregularity the dealer fixes without a misdeal."""
        if len(self.exposures) == 1:
            return "TH-3"
        if len(self.extras) == 1:
            return "TH-7"
        return None

    def review(self, misdealt: bool) -> None:
        """Judge the deal once (before the flop, or at the end of the hand)."""
        if self.reviewed:
            return
        self.reviewed = True
        self.phase_over = True
        sev = self.notes.severity
        cause = self.misdeal_cause = self.find_misdeal_cause()
        if misdealt:
            lone = self.single_irregularity()
            if cause is None and lone is not None:
                self.notes.add("MISDEAL_NOT_REQUIRED", lone, sev.misdeal_not_required,
                               _not_required_message(lone))
            elif cause is not None:
                self.notes.step(cause.rule, f"{cause.reason}: a misdeal was required and "
                                            "was declared")
            return
        if cause is not None:
            self.notes.add("MISDEAL_REQUIRED", cause.rule, sev.misdeal_required,
                           f"{cause.reason}; {cause.rule} requires a misdeal (reshuffle and "
                           "redeal), but the hand was played on")
            return
        if len(self.exposures) == 1:
            self._review_exposure(self.exposures[0])
        if len(self.extras) == 1:
            self._review_extra(*self.extras[0])
        self._review_stray_removals()

    def _review_stray_removals(self) -> None:
        """A card taken from a seat that was neither the exposed nor the extra card."""
        rule = "TH-3" if self.exposures else "TH-7" if self.extras else "TH-1"
        for index, removal in enumerate(self.removals):
            if index in self.used_removals:
                continue
            self.notes.add("WRONG_CARD_REMOVED", rule, self.notes.severity.wrong_card_removed,
                           f"{removal.card} was taken from seat {removal.seat} (seq "
                           f"{removal.seq}) although it was neither an exposed nor an extra "
                           "card", seat=removal.seat)

    def _review_exposure(self, exposure: Exposure) -> None:
        """TH-3: complete the deal, replace the exposed card with the top card, and use
        the exposed card as the next burn."""
        sev = self.notes.severity
        seat, card = exposure.seat, exposure.card
        removal = self._removal_of(seat, card)
        if removal is None:
            self.flagged_seats.add(seat)
            self.notes.add("EXPOSED_CARD_NOT_REPLACED", "TH-3", sev.exposed_card_not_replaced,
                           f"seat {seat} kept its exposed {_name(card)}; TH-3: complete the "
                           "deal, replace the exposed card with the top card of the deck and "
                           "use the exposed card as the next burn", seat=seat)
            return
        early = removal.during_deal or any(s == seat and during for s, during in
                                           self.replacements)
        if early:
            self.notes.add("EXPOSED_CARD_REPLACED_EARLY", "TH-3",
                           sev.exposed_card_replaced_early,
                           f"seat {seat}'s exposed {removal.card} was replaced before the deal "
                           "was completed; TH-3: the deal is completed first, then the "
                           "exposed card is replaced by the top card", seat=seat)
        if not any(s == seat for s, _ in self.replacements):
            self.flagged_seats.add(seat)
            self.notes.add("EXPOSED_CARD_NOT_REPLACED", "TH-3", sev.exposed_card_not_replaced,
                           f"seat {seat}'s exposed {removal.card} was taken back but no "
                           "replacement card was dealt; TH-3: it is replaced by the top card "
                           "of the deck", seat=seat)
        self._credit("TH-3", removal, "EXPOSED_CARD_NOT_BURNED", sev.exposed_card_not_burned)
        self.notes.step("TH-3", f"seat {seat}'s exposed {removal.card}: deal completed, card "
                                f"replaced and taken to {removal.to}", seat)

    def _review_extra(self, seat: int, card: str | None, seq: int) -> None:
        """TH-7: one extra card to the first player goes back and becomes the burn."""
        sev = self.notes.severity
        removal = self._removal_of(seat, card)
        if removal is None:
            self.flagged_seats.add(seat)
            self.notes.add("EXTRA_CARD_NOT_BURNED", "TH-7", sev.extra_card_not_burned,
                           f"seat {seat} received an extra card {_name(card)} after everyone "
                           f"had their cards (seq {seq}) and kept it; TH-7: it goes back and "
                           "is used as the burn card", seat=seat)
            return
        if seat != self.first_seat:
            self.notes.step("TH-7", f"the extra card went to seat {seat}, not to the first "
                                    f"player (seat {self.first_seat}); handled as TH-7", seat)
        self._credit("TH-7", removal, "EXTRA_CARD_NOT_BURNED", sev.extra_card_not_burned)
        self.notes.step("TH-7", f"seat {seat}'s extra {removal.card} taken back to "
                                f"{removal.to} to serve as the burn card", seat)

    def _removal_of(self, seat: int, card: str | None) -> Removal | None:
        for index, removal in enumerate(self.removals):
            if index in self.used_removals:
                continue
            if removal.seat == seat and (card is None or removal.card == card):
                self.used_removals.add(index)
                return removal
        return None

    def _credit(self, rule: str, removal: Removal, code: str, severity: Severity) -> None:
        if removal.to in ("burn", "stub"):
            self.credits.append(BurnCredit(rule, removal.card, removal.to))
            return
        self.notes.add(code, rule, severity,
                       f"seat {removal.seat}'s {removal.card} was moved to {removal.to}; "
                       f"{rule}: it is used as the next burn card", seat=removal.seat)

    def check_counts(self) -> None:
        """TH-1: every seat ends the deal with exactly two hole cards (seats already
        reported by a TH-3 / TH-7 finding are not reported twice)."""
        for seat in self.seats:
            held = len(self.hands[seat])
            if held != self.prof.hole_cards and seat not in self.flagged_seats:
                self.notes.add("WRONG_CARD_COUNT", "TH-1", self.notes.severity.wrong_card_count,
                               f"seat {seat} holds {held} hole cards; each player receives "
                               f"{self.prof.hole_cards}", seat=seat,
                               amount=held - self.prof.hole_cards)


def _name(card: str | None) -> str:
    return card if card is not None else "an unread card"


def _not_required_message(rule: str) -> str:
    if rule == "TH-3":
        return ("a misdeal was declared for a single exposed hole card that was not the "
                "first card dealt; TH-3: complete the deal, replace the card with the top "
                "card and use it as the next burn")
    return ("a misdeal was declared for one extra card dealt after everyone had their "
            "cards; TH-7: the card goes back and is used as the burn card")
