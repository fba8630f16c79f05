"""The board: burns and streets (TH-1), a flop redealt (TH-4, TH-5), a premature turn (TH-6).

The table records each card as it is dealt, so the board is read as *runs*: consecutive
``card_dealt`` events to the board, with the burns dealt just before them. A run is judged
when it ends (the next event of another kind), against where the hand stands: which
street is due, whether the betting round before it was complete when its first card was
dealt (``timely``), and which corrections are pending.

What the rules require (rules.md):

- TH-1: burn one card before the flop, the turn and the river; three flop cards, then one
  card each for the turn and the river, each street after a complete betting round.
- TH-4 / TH-5: a flop with more than three cards, or dealt before the pre-flop betting
  was complete, is redealt: the flop cards go back into the stub, the burn card stays,
  and a new flop is dealt without a burn (after the betting round completes).
- TH-6: a turn dealt before the flop betting was complete is set aside; the round
  completes; the dealer burns and deals the turn; after the turn betting the set-aside
  card (only it: no burns) is shuffled back into the stub and the river is dealt with no
  burn.

``Board.cards`` is what lies on the board now (dealt, minus what was moved or shuffled
away): the showdown is played on it, whatever the procedure was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from services.games.betting.pot_hand import Notes
from services.games.holdem.deal import BurnCredit
from services.games.holdem.profile import HoldemProfile, HoldemSeverities

STREET_NAMES = ("flop", "turn", "river")


@dataclass
class Run:
    """Board cards dealt one after another, with the burns dealt just before them."""

    cards: list[str | None]
    burns: list[str | None]
    timely: bool
    seq: int


@dataclass(frozen=True)
class Redeal:
    """A flop that must be redealt (TH-4 too many cards, TH-5 dealt too early)."""

    rule: str
    cards: tuple[str | None, ...]
    burns: tuple[str | None, ...]
    seq: int


@dataclass
class Board:
    prof: HoldemProfile
    notes: Notes[HoldemSeverities]
    cards: list[str | None] = field(default_factory=list)
    streets: int = 0  # streets dealt: 0 nothing yet, 1 flop, 2 turn, 3 river
    betting_street: int = 0  # the betting round the dealt board opens (0 pre-flop)
    waiting_burns: list[str | None] = field(default_factory=list)
    burn_pile: list[str | None] = field(default_factory=list)
    run: Run | None = None
    redeal: Redeal | None = None
    premature: str | None = None  # TH-6 turn card dealt too early, not yet replaced
    set_aside: list[str] = field(default_factory=list)
    th6_card: str | None = None  # set-aside card to shuffle back before the river
    th6_reshuffled: bool = False
    th6_reshuffled_early: bool = False
    returned: set[str] = field(default_factory=set)  # board cards put back into the stub
    burns_returned: list[str] = field(default_factory=list)
    credits: list[BurnCredit] = field(default_factory=list)

    # -------------------------------------------------------------- events

    def burn(self, card: str | None) -> None:
        self.waiting_burns.append(card)
        self.burn_pile.append(card)

    def card(self, card: str | None, seq: int, timely: bool) -> None:
        """A ``card_dealt`` to the board (opens a run if none is open)."""
        if self.run is None:
            self.run = Run([], self.waiting_burns, timely, seq)
            self.waiting_burns = []
        self.run.cards.append(card)
        self.cards.append(card)

    def flush(self) -> None:
        """Judge the open run, if any (``betting_street`` moves on when it dealt the next
        street after a complete betting round)."""
        run, self.run = self.run, None
        if run is None:
            return
        if self.streets == 0:
            self._flop(run)
        elif self.streets == 1:
            self._turn(run)
        elif self.streets == 2:
            self._river(run)
        else:
            self.notes.add("BOARD_CARD_COUNT", "TH-1", self.notes.severity.board_card_count,
                           f"{len(run.cards)} board card(s) dealt after the river "
                           f"(seq {run.seq})", amount=len(run.cards))

    def moved(self, card: str, source: str, target: str, seq: int) -> None:
        """A dealer's correction (``card_moved``) involving the board, the set-aside card
        or the burn pile (moves from a seat belong to the deal)."""
        if source == "board":
            self._take_off_board(card)
            if target == "set_aside":
                self.set_aside.append(card)
            elif target == "stub":
                self.returned.add(card)
            elif target == "burn":
                self.burn_pile.append(card)
        elif source == "set_aside" and target == "stub":
            self._set_aside_returned(card)
        elif source == "burn" and target == "stub":
            self._burn_returned(card, seq)

    def dealt_set_aside(self, card: str | None, seq: int, timely: bool) -> None:
        """A card dealt straight to ``set_aside``: a premature turn the dealer set aside
        at once (TH-6)."""
        if card is None:
            return
        if self.streets == 1 and not timely and self.premature is None:
            self.premature = card
            # TH-6: the burn dealt just before it was this premature turn's burn; it
            # stays burned and the turn dealt after the round has its own burn.
            self.waiting_burns = []
        self.set_aside.append(card)

    def reshuffled(self, cards: Sequence[str], seq: int, round_complete: bool) -> None:
        """``stub_reshuffled``: flop cards going back (TH-5) or the set-aside turn card
        going back before the river (TH-6)."""
        for card in cards:
            if card in self.set_aside:
                self._set_aside_returned(card, round_complete)
            elif card in self.cards:
                self._take_off_board(card)
                self.returned.add(card)
            elif card in self.burn_pile:
                self._burn_returned(card, seq)

    def pending(self) -> bool:
        """A flop to redeal or a premature turn is waiting for the dealer's correction."""
        return self.redeal is not None or self.premature is not None

    def resumed(self, round_complete: bool) -> None:
        """Betting goes on. If the round before it is complete and a flop to redeal or a
        premature turn is still on the board, the dealer kept it (and the betting is on
        that street)."""
        if not round_complete:
            return
        if self.redeal is not None and self._on_board(self.redeal):
            self._flop_kept(self.redeal)
        elif self.premature is not None and self.premature in self.cards:
            self._premature_turn_kept()

    def finish(self, contested: bool) -> None:
        """End of the hand: a redeal or set-aside still pending means the dealer kept it,
        unless nobody was left to play that board (everyone else folded)."""
        if not contested:
            if self.pending():
                self.notes.step("TH-5" if self.redeal is not None else "TH-6",
                                "the hand ended before the correction was due")
            return
        if self.redeal is not None and self._on_board(self.redeal):
            self._flop_kept(self.redeal)
        if self.premature is not None and self.premature in self.cards:
            self._premature_turn_kept()

    def _on_board(self, redeal: Redeal) -> bool:
        """At least a flop's worth of the cards to redeal still lies on the board."""
        return sum(1 for c in redeal.cards if c in self.cards) >= self.prof.flop_cards

    # -------------------------------------------------------------- streets

    def _flop(self, run: Run) -> None:
        if self.redeal is not None:
            self._redealt_flop(run)
            return
        self._check_flop_burn(run)
        if not run.timely:
            self._start_redeal("TH-5", run, "was dealt before the pre-flop betting was "
                                            "complete")
        elif len(run.cards) > self.prof.flop_cards:
            self._start_redeal("TH-4", run, f"had {len(run.cards)} cards")
        else:
            self._check_count(run, self.prof.flop_cards, "flop")
            self._dealt(1, run.timely)

    def _check_flop_burn(self, run: Run) -> None:
        """TH-1, or TH-3 / TH-7 when a card from the deal already serves as the burn."""
        credit = self.credits[0] if self.credits else None
        if credit is None:
            self._check_burns(run, 1, "TH-1", "flop")
            return
        code = "EXPOSED_CARD_NOT_BURNED" if credit.rule == "TH-3" else "EXTRA_CARD_NOT_BURNED"
        severity = (self.notes.severity.exposed_card_not_burned if credit.rule == "TH-3"
                    else self.notes.severity.extra_card_not_burned)
        if credit.via == "burn" and run.burns:
            self.notes.add(code, credit.rule, severity,
                           f"{credit.card} from the deal was already the burn card, but "
                           f"{len(run.burns)} more card(s) were burned before the flop "
                           f"(seq {run.seq}); {credit.rule}: no fresh burn, so every flop "
                           "card moved by one")
        elif credit.via == "stub":
            burned = run.burns[0] if run.burns else None
            if len(run.burns) != 1 or burned not in (None, credit.card):
                self.notes.add(code, credit.rule, severity,
                               f"{credit.card} went back to the deck to be the burn card, but "
                               f"the flop burn was {_cards(run.burns)} (seq {run.seq}); "
                               f"{credit.rule}: it is used as the burn card")

    def _start_redeal(self, rule: str, run: Run, why: str) -> None:
        self.redeal = Redeal(rule, tuple(run.cards), tuple(run.burns), run.seq)
        self.notes.step(rule, f"the flop {_cards(run.cards)} {why} (seq {run.seq}): it must "
                              "go back into the stub and be redealt without a burn (TH-5)")

    def _redealt_flop(self, run: Run) -> None:
        """TH-5: the old flop went back into the stub, the burn stayed, a new flop is
        dealt without burning, after a complete betting round."""
        redeal = self.redeal
        assert redeal is not None
        if self._redeal_kept_on(run):
            self._turn(run)
            return
        sev = self.notes.severity
        elsewhere = [c for c in redeal.cards if c is not None and c not in self.returned]
        if elsewhere:
            self.notes.add("REDEAL_NOT_RESHUFFLED", "TH-5", sev.redeal_not_reshuffled,
                           f"flop cards {' '.join(elsewhere)} did not go back into the stub "
                           f"before the flop was redealt (seq {run.seq}); TH-5: the flop "
                           "cards are shuffled back into the stub")
        self._check_burns(run, 0, "TH-5", "redealt flop")
        self.redeal = None
        if not run.timely:
            self._start_redeal("TH-5", run, "was redealt before the pre-flop betting was "
                                            "complete")
        elif len(run.cards) > self.prof.flop_cards:
            self._start_redeal("TH-4", run, f"was redealt with {len(run.cards)} cards")
        else:
            self._check_count(run, self.prof.flop_cards, "redealt flop")
            self.notes.step("TH-5", f"flop redealt: {_cards(run.cards)}")
            self._dealt(1, run.timely)

    def _redeal_kept_on(self, run: Run) -> bool:
        """The new run came on top of a flop still lying on the board: it was kept."""
        redeal = self.redeal
        assert redeal is not None
        if not self._on_board(redeal):
            return False
        self._flop_kept(redeal)
        return True

    def _flop_kept(self, redeal: Redeal) -> None:
        why = ("had more than three cards" if redeal.rule == "TH-4"
               else "was dealt before the pre-flop betting was complete")
        self.notes.add("FLOP_NOT_REDEALT", redeal.rule, self.notes.severity.flop_not_redealt,
                       f"the flop {_cards(redeal.cards)} {why} (seq {redeal.seq}) and was "
                       f"played; {'TH-4 / ' if redeal.rule == 'TH-4' else ''}TH-5: the flop "
                       "cards go back into the stub, the burn stays, and a new flop is dealt "
                       "without a burn")
        self.redeal = None
        self._dealt(1, True)

    def _turn(self, run: Run) -> None:
        if self.premature is not None:
            self._replacement_turn(run)
            return
        self._check_burns(run, 1, "TH-1", "turn")
        self._check_count(run, 1, "turn")
        if run.timely or run.cards[0] is None:
            self._dealt(2, run.timely)
            return
        self.premature = run.cards[0]
        self.notes.step("TH-6", f"turn {run.cards[0]} dealt before the flop betting was "
                                f"complete (seq {run.seq}): it must be set aside")

    def _replacement_turn(self, run: Run) -> None:
        """TH-6: the premature card was set aside, the round completed, burn and deal."""
        card = self.premature
        if card in self.cards and card not in run.cards:
            self._premature_turn_kept()
            self._river(run)
            return
        if card not in self.set_aside:
            self.notes.add("PREMATURE_TURN_NOT_SET_ASIDE", "TH-6",
                           self.notes.severity.premature_turn_not_set_aside,
                           f"the premature turn {card} was not set aside before the turn was "
                           f"dealt again (seq {run.seq}); TH-6: it is set aside until the turn "
                           "betting is over, then shuffled back into the stub")
        self._check_burns(run, 1, "TH-6", "turn after the premature turn")
        self._check_count(run, 1, "turn")
        if not run.timely and run.cards[0] is not None:
            self.premature = run.cards[0]
            return
        self.th6_card, self.premature = card, None
        self.notes.step("TH-6", f"premature turn {card} set aside; turn dealt after a burn: "
                                f"{_cards(run.cards)}")
        self._dealt(2, run.timely)

    def _premature_turn_kept(self) -> None:
        self.notes.add("PREMATURE_TURN_NOT_SET_ASIDE", "TH-6",
                       self.notes.severity.premature_turn_not_set_aside,
                       f"the turn {self.premature} was dealt before the flop betting was "
                       "complete and stayed in play; TH-6: set it aside, complete the round, "
                       "burn and deal the turn, shuffle the set-aside card back before the "
                       "river")
        self.premature = None
        self._dealt(2, True)

    def _river(self, run: Run) -> None:
        if self.th6_card is not None:
            self._check_th6_reshuffle(run)
            self._check_burns(run, 0, "TH-6", "river after a premature turn")
        else:
            self._check_burns(run, 1, "TH-1", "river")
        self._check_count(run, 1, "river")
        if not run.timely:
            self.notes.add("BOARD_DEALT_EARLY", "TH-1", self.notes.severity.board_dealt_early,
                           f"the river was dealt before the turn betting was complete "
                           f"(seq {run.seq}); each street follows a complete betting round")
        self._dealt(3, run.timely)

    def _check_th6_reshuffle(self, run: Run) -> None:
        sev = self.notes.severity
        card = self.th6_card
        if not self.th6_reshuffled:
            self.notes.add("SET_ASIDE_NOT_RESHUFFLED", "TH-6", sev.set_aside_not_reshuffled,
                           f"the set-aside {card} was not shuffled back into the stub before "
                           f"the river (seq {run.seq}); TH-6: after the turn betting the dealer "
                           "reshuffles it into the stub, cuts, and deals the river")
        elif self.th6_reshuffled_early:
            self.notes.add("SET_ASIDE_NOT_RESHUFFLED", "TH-6", sev.set_aside_not_reshuffled,
                           f"the set-aside {card} was shuffled back before the turn betting "
                           "was complete; TH-6: it goes back only after that round")
        self.th6_card = None

    # -------------------------------------------------------------- checks and moves

    def _dealt(self, street: int, timely: bool) -> None:
        """``street`` is on the board; its betting opens now if the round before it was
        complete (otherwise when the betting of the round before is over)."""
        self.streets = street
        if timely:
            self.betting_street = max(self.betting_street, street)

    def _check_burns(self, run: Run, due: int, rule: str, street: str) -> None:
        made = len(run.burns)
        sev = self.notes.severity
        if made < due:
            self.notes.add("MISSING_BURN", rule, sev.missing_burn,
                           f"the {street} (seq {run.seq}) was dealt without a burn; {rule}: "
                           "burn one card first", amount=made - due)
        elif made > due:
            why = "no burn is due" if due == 0 else f"{due} burn is due"
            self.notes.add("EXTRA_BURN", rule, sev.extra_burn,
                           f"{made} card(s) burned before the {street} (seq {run.seq}); "
                           f"{rule}: {why}", amount=made - due)

    def _check_count(self, run: Run, due: int, street: str) -> None:
        if len(run.cards) != due:
            self.notes.add("BOARD_CARD_COUNT", "TH-1", self.notes.severity.board_card_count,
                           f"the {street} (seq {run.seq}) was dealt with {len(run.cards)} "
                           f"card(s); it has {due}", amount=len(run.cards) - due)

    def _take_off_board(self, card: str) -> None:
        if card in self.cards:
            self.cards.remove(card)

    def _set_aside_returned(self, card: str, round_complete: bool = True) -> None:
        if card in self.set_aside:
            self.set_aside.remove(card)
        if card == self.th6_card:
            self.th6_reshuffled = True
            self.th6_reshuffled_early = not round_complete
        elif card == self.premature:
            self.notes.add("SET_ASIDE_NOT_RESHUFFLED", "TH-6",
                           self.notes.severity.set_aside_not_reshuffled,
                           f"the premature turn {card} went back into the stub before the "
                           "turn was dealt again; TH-6: it stays aside until the turn "
                           "betting is over")
            self.th6_reshuffled_early = True

    def _burn_returned(self, card: str, seq: int) -> None:
        if card in self.burn_pile:
            self.burn_pile.remove(card)
        self.burns_returned.append(card)
        rule = "TH-5" if self.redeal is not None else "TH-6" if (
            self.th6_card is not None or self.premature is not None) else None
        if rule is None:
            return
        self.notes.add("BURN_NOT_KEPT", rule, self.notes.severity.burn_not_kept,
                       f"burn card {card} went back into the stub (seq {seq}); {rule}: burn "
                       "cards stay out")


def _cards(cards: Sequence[str | None]) -> str:
    return " ".join(c if c is not None else "??" for c in cards) or "(none)"
