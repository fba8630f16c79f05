"""Five Card Draw 7-A tables as a table system would publish them, with labelled faults.

Realistic play: two to five players per table (non-adjacent seat numbers on some
tables), the button moving clockwise, blinds, the deal one card at a time from the
button's left, two betting rounds played by players with their own looseness and
aggression, a draw that keeps pairs and made hands (standing pat recorded either as an
empty ``draw`` or an action ``stand``), the stub running out and the discards reshuffled
(``stub_reshuffled``) when the draw needs more cards than are left, showdowns in FCD-9
order where a beaten player mucks unless someone is all-in, rebuys between hands and
occasional dealer changes. The structure rotates by table (``table_index % 3``: fixed,
pot, no limit) and so does the rake mode (``table_index % 4``: all, players, designated,
none), so a handful of tables covers every combination.

How this table records chips (events.md "How chips move"): blinds and every bet are
``action`` events with the chips added; at the end the uncalled part of the last bet goes
back as ``payout`` kind ``refund`` from ``pot``; each pot share is a ``payout`` kind
``pot`` from ``pot``. The rake follows the profile's GEN-10 reading (``[rake] fee_from``):
from each paying seat's own stack after the pots are paid (house-v1), or from the pot
before they are; one ``rake_collected`` per paying seat (``seat`` set, ``from`` the
source). The pot is always emptied.

The table software uses the betting engine to know whose turn it is and what is legal
(as a dealer terminal would), but the settlement (``draw7a_settlement``: uncalled bet,
side pots peeled from the lowest live stake, rake, odd chip) is written independently of
``services.games.betting``, sharing only the card evaluation and the profile data, so the
test that clean simulated hands adjudicate without findings cross-checks two
implementations.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from services.events.contract import TableConfigured
from services.events.stream import TableStream
from services.games.betting import BettingHand, LegalActions
from services.games.cards import RANK_VALUE, SHORT_DECK_32, SHORT_DECK_36, suit_of
from services.games.draw7a import evaluation as short_deck
from services.games.draw7a.betting import betting_config, required_deck
from services.games.draw7a.profile import SECTION, Draw7aProfile
from services.games.profile import RuleProfile
from services.simulator.buy_in import buy_in_to
from services.simulator.draw7a_options import (
    Draw7aExtras,
    adjust,
    extras_for,
    finish_hand,
    pool_dealer,
    start_hand,
)
from services.simulator.draw7a_settlement import (
    PostedRake,
    PotShare,
    Spec,
    TablePlan,
    clockwise_from_button,
    plan_events,
    settle_as_table,
)
from services.simulator.options import LEGACY, TableOptions
from services.simulator.truth import TruthLabel

FAULTS: dict[str, str] = {
    "wrong_pot_award": "a contested pot paid whole to an eligible player who did not win it",
    "wrong_side_pot": "the side pots merged into the main pot and paid to the best hand, "
                      "although it was all-in for less and not eligible for them",
    "illegal_raise_accepted": "an illegal bet or raise accepted (under the minimum in no "
                              "limit, over the pot in pot limit, not one bet unit in fixed "
                              "limit)",
    "wrong_deck": "the deck does not match the players dealt in (32 cards with five, 36 "
                  "with fewer)",
    "mispay": "a pot share paid a few chips more or less than due",
    "wrong_rake": "one more fee of rake taken than the posted mode gives",
}

# Finding codes that count as detecting each fault.
DETECTED_BY: dict[str, list[str]] = {
    "wrong_pot_award": ["MISPAY"],
    "wrong_side_pot": ["MISPAY"],
    "illegal_raise_accepted": ["UNDER_MINIMUM", "OVER_POT", "WRONG_LIMIT_AMOUNT",
                               "CAP_EXCEEDED"],
    "wrong_deck": ["WRONG_DECK"],
    "mispay": ["MISPAY"],
    "wrong_rake": ["RAKE_OVER"],
}

STRUCTURES = ("fixed", "pot", "no")
RAKE_MODES = ("all", "players", "designated", "none")
SEAT_LAYOUTS: tuple[tuple[int, ...], ...] = (
    (1, 2, 3, 4, 5), (1, 3, 4, 6), (2, 3, 5), (1, 2, 4, 5, 6), (3, 5), (1, 2, 3, 4))
BIG_BLINDS = (4, 10, 20)
RAKE_FEE = 1
BUY_IN_BIG_BLINDS = (15, 120)  # a (re)buy is between these many big blinds
REBUY_BELOW_BIG_BLINDS = 6
SHORT_STACK_BIG_BLINDS = 12  # below this a raise is all the player has (or the limit)
STAND_ACTION_RATE = 0.2  # how often standing pat is recorded as an action "stand"


@dataclass
class Player:
    player_id: str
    stack: int
    looseness: float  # 0.5 tight .. 1.5 loose: scales the urge to continue
    aggression: float  # 0.5 passive .. 1.5 aggressive: scales bets and raises


@dataclass
class HandLog:
    """The events of one hand before they are published (faults edit them here)."""

    hand_id: str
    events: list[Spec] = field(default_factory=list)
    labels: list[TruthLabel] = field(default_factory=list)

    def add(self, type_: str, data: dict[str, Any]) -> None:
        self.events.append((type_, data))


# ---------------------------------------------------------------- play


def category_of(cards: Sequence[str], deck: int) -> int:
    """Category index 0 (high card) .. 8 (straight flush) of a five-card hand."""
    return short_deck.rank5(cards, deck) >> 20


def choose_discards(cards: list[str], deck: int, rng: random.Random) -> list[str]:
    """Keep made hands; keep four to a flush; keep pairs and trips; else the high cards."""
    if category_of(cards, deck) >= 4:  # straight or better: stand pat
        return []
    suits: dict[str, list[str]] = {}
    for card in cards:
        suits.setdefault(suit_of(card), []).append(card)
    four_flush = next((v for v in suits.values() if len(v) == 4), None)
    if four_flush is not None and rng.random() < 0.8:
        return [c for c in cards if c not in four_flush]
    counts: dict[str, int] = {}
    for card in cards:
        counts[card[0]] = counts.get(card[0], 0) + 1
    keep = [c for c in cards if counts[c[0]] >= 2]
    if not keep:
        by_rank = sorted(cards, key=lambda c: RANK_VALUE[c[0]], reverse=True)
        keep = by_rank[: rng.choice((1, 2, 2))]
    return [c for c in cards if c not in keep]


class Draw7aTable:
    """One simulated table: players, button, structure and rake, hand after hand."""

    def __init__(self, stream: TableStream, rng: random.Random, faults: frozenset[str],
                 fault_rate: float, table_index: int, profile: RuleProfile,
                 options: TableOptions = LEGACY) -> None:
        self.options = options
        self.extras: Draw7aExtras | None = None  # styles and patterns, when asked for
        self.stream = stream
        self.rng = rng
        self.faults = sorted(f for f in faults if f in FAULTS)
        self.fault_rate = fault_rate
        self.structure = STRUCTURES[table_index % len(STRUCTURES)]
        self.rake_mode = RAKE_MODES[table_index % len(RAKE_MODES)]
        self.big_blind = BIG_BLINDS[table_index % len(BIG_BLINDS)]
        self.seats = SEAT_LAYOUTS[table_index % len(SEAT_LAYOUTS)]
        self.profile_name = profile.name
        self.prof = profile.section(SECTION, Draw7aProfile)
        self.players: dict[int, Player] = {}
        self.pending_fault: str | None = None
        self.button = self.seats[-1]
        self.dealer = f"dealer-{table_index + 1}-1"
        self.config_body = self._config_body()
        self.betting = betting_config(
            msgspec.convert(self.config_body, TableConfigured), self.prof)

    def _config_body(self) -> dict[str, Any]:
        bb = self.big_blind
        return {
            "game": "draw7a",
            "limits": {"min_wager": bb, "max_wager": bb * 500, "small_blind": bb // 2,
                       "big_blind": bb, "small_bet": bb, "big_bet": 2 * bb},
            "structure": self.structure,
            "rake": {"mode": self.rake_mode, "fee": RAKE_FEE if self.rake_mode != "none"
                     else 0},
            "rule_profile": self.profile_name,
            "authorized_by": "supervisor-7",
        }

    # ------------------------------------------------------------ table events

    def open_table(self) -> None:
        self.stream.emit("table_configured", self.config_body)
        self.dealer = pool_dealer(self, self.dealer)
        self.stream.emit("dealer_changed", {"dealer_id": self.dealer})
        for seat in self.seats:
            player = Player(
                player_id=f"{self.stream.table_id}-P{seat}-{self.rng.randrange(10**6):06d}",
                stack=self.big_blind * self.rng.randint(*BUY_IN_BIG_BLINDS),
                looseness=self.rng.uniform(0.5, 1.5),
                aggression=self.rng.uniform(0.5, 1.5),
            )
            self.players[seat] = player
            self.stream.emit("player_seated", {"seat": seat, "player_id": player.player_id,
                                               "stack": player.stack})
        self.extras = extras_for(self.options, self)

    def between_hands(self, number: int) -> None:
        self.stream.advance(self.rng.randint(5, 40))
        if number % 60 == 59 and self.options.pool is None:
            self.dealer = f"{self.dealer.rsplit('-', 1)[0]}-{number // 60 + 2}"
            self.stream.emit("dealer_changed", {"dealer_id": self.dealer})
        elif pool_dealer(self, self.dealer) != self.dealer:  # the floor's rotation
            self.dealer = pool_dealer(self, self.dealer)
            self.stream.emit("dealer_changed", {"dealer_id": self.dealer})
        for seat, player in self.players.items():
            if player.stack < self.big_blind * REBUY_BELOW_BIG_BLINDS:
                target = self.big_blind * self.rng.randint(*BUY_IN_BIG_BLINDS)
                buy_in_to(self.stream, seat, player, target)

    # ------------------------------------------------------------ one hand

    def play_hand(self, number: int) -> list[TruthLabel]:
        self.between_hands(number)
        self.button = clockwise_from_button(self.seats, self.button)[0]
        if self.pending_fault is None and self.faults and self.rng.random() < self.fault_rate:
            self.pending_fault = self.rng.choice(self.faults)
        log = HandLog(f"{self.stream.table_id}-{number + 1:06d}")
        HandPlay(self, log, self.pending_fault).run()
        if log.labels:
            self.pending_fault = None  # injected; a fault the hand had no room for waits
        finish_hand(self, log.hand_id, log.events,
                    {s: self.players[s].player_id for s in self.seats})
        for type_, data in log.events:
            self.stream.emit(type_, data, hand_id=log.hand_id, max_ms=2500)
        self._update_stacks(log)
        return log.labels

    def _update_stacks(self, log: HandLog) -> None:
        """Stacks move exactly as the recorded events moved them (faults included)."""
        for type_, data in log.events:
            if type_ == "action" and data.get("amount"):
                self.players[data["seat"]].stack -= data["amount"]
            elif type_ == "payout":
                self.players[data["seat"]].stack += data["amount"]
            elif type_ == "rake_collected" and data["from"] == "stack":
                self.players[data["seat"]].stack -= data["amount"]

    def label(self, log: HandLog, fault: str, seat: int | None, detail: str) -> None:
        log.labels.append(TruthLabel(table_id=self.stream.table_id, hand_id=log.hand_id,
                                     fault=fault, codes=DETECTED_BY[fault], seat=seat,
                                     detail=detail))


class HandPlay:
    """Deals, bets, draws and settles one hand into a ``HandLog``."""

    def __init__(self, table: Draw7aTable, log: HandLog, fault: str | None) -> None:
        self.table = table
        self.rng = table.rng
        self.log = log
        self.fault = fault
        self.seats = list(table.seats)
        self.button = table.button
        self.engine = BettingHand(table.betting,
                                  {s: table.players[s].stack for s in self.seats},
                                  self.button)
        self.deck_size = required_deck(len(self.seats), table.prof)
        self.hands: dict[int, list[str]] = {}
        self.stub: list[str] = []
        self.discards: list[str] = []
        self.illegal_done = False

    def run(self) -> None:
        start_hand(self)
        self.start()
        self.betting_round()
        if not self.engine.hand_over():
            self.draw()
            self.engine.next_round()
            self.betting_round()
        self.engine.close_round()
        self.settle()
        self.log.add("hand_ended", {})

    # ------------------------------------------------------------ deal

    def start(self) -> None:
        table = self.table
        if self.fault == "wrong_deck":
            self.deck_size = 32 if self.deck_size == 36 else 36
            table.label(self.log, "wrong_deck", None,
                        f"{len(self.seats)} players dealt from a {self.deck_size}-card deck")
        self.log.add("hand_started", {
            "button": self.button, "designated_player": None, "dealer_id": table.dealer,
            "seats": [{"seat": s, "player_id": table.players[s].player_id,
                       "stack": table.players[s].stack} for s in self.seats],
            "deck": self.deck_size})
        for owed in self.engine.owed_posts():
            self.engine.apply(owed.seat, owed.kind, owed.amount)
            self.log.add("action", {"seat": owed.seat, "action": owed.kind,
                                    "amount": owed.amount})
        deck = list(SHORT_DECK_36 if self.deck_size == 36 else SHORT_DECK_32)
        self.rng.shuffle(deck)
        order = clockwise_from_button(self.seats, self.button)
        for _ in range(5):
            for seat in order:
                card = deck.pop()
                self.hands.setdefault(seat, []).append(card)
                self.log.add("card_dealt", {"to": "seat", "seat": seat, "card": card,
                                            "face_up": False})
        self.stub = deck

    # ------------------------------------------------------------ betting

    def betting_round(self) -> None:
        while (legal := self.engine.legal_actions()) is not None:
            kind, amount = self.decide(legal)
            self.engine.apply(legal.seat, kind, amount)
            data: dict[str, Any] = {"seat": legal.seat, "action": kind}
            if amount is not None:
                data["amount"] = amount
            self.log.add("action", data)

    def decide(self, legal: LegalActions) -> tuple[str, int | None]:
        return adjust(self, legal, self.own_decision(legal))

    def own_decision(self, legal: LegalActions) -> tuple[str, int | None]:
        if self.fault == "illegal_raise_accepted" and not self.illegal_done:
            illegal = self.illegal_raise(legal)
            if illegal is not None:
                return illegal
        player = self.table.players[legal.seat]
        strength = category_of(self.hands[legal.seat], self.deck_size)
        aggressive = legal.can_raise and self.rng.random() < min(
            0.08 + 0.09 * strength, 0.65) * player.aggression
        if aggressive:
            return self.raise_choice(legal)
        if legal.can_check:
            return "check", None
        fold_odds = {0: 0.5, 1: 0.25, 2: 0.1}.get(strength, 0.03) / player.looseness
        if self.rng.random() < fold_odds:
            return "fold", None
        return ("all_in" if legal.call == legal.stack else "call"), legal.call

    def raise_choice(self, legal: LegalActions) -> tuple[str, int]:
        """Mostly modest sizes; a short stack (or now and then anyone) moves all in."""
        low, high = legal.raise_min, legal.raise_max
        short = legal.stack < self.table.big_blind * SHORT_STACK_BIG_BLINDS
        if self.table.structure == "no" and not short and self.rng.random() > 0.06:
            high = min(high, max(low, low * 3))
        elif short:
            low = high
        amount = self.rng.randint(low, high)
        if amount == legal.stack:
            return "all_in", amount
        return ("raise" if self.engine.bet_level > 0 else "bet"), amount

    def illegal_raise(self, legal: LegalActions) -> tuple[str, int] | None:
        """The fault: a raise the rules forbid, which the table accepts (FCD-8)."""
        if not legal.can_raise:
            return None
        structure = self.table.structure
        if structure == "no":
            amount = legal.raise_min - 1
            ok = legal.raise_min < legal.stack and amount > legal.call
        elif structure == "pot":
            amount = legal.raise_max + 1
            ok = amount <= legal.stack
        else:
            amount = legal.raise_min + 1
            ok = amount <= legal.stack
        if not ok:
            return None
        self.illegal_done = True
        self.table.label(self.log, "illegal_raise_accepted", legal.seat,
                         f"{structure} limit: seat {legal.seat} put in {amount} "
                         f"(legal {legal.raise_min}..{legal.raise_max})")
        verb = "raise" if self.engine.bet_level > 0 else "bet"
        return ("all_in" if amount == legal.stack else verb), amount

    # ------------------------------------------------------------ draw (FCD-6)

    def draw(self) -> None:
        for seat in clockwise_from_button(self.engine.active(), self.button):
            discard = choose_discards(self.hands[seat], self.deck_size, self.rng)
            discard = discard[: len(self.stub) + len(self.discards)]
            if not discard and self.rng.random() < STAND_ACTION_RATE:
                self.log.add("action", {"seat": seat, "action": "stand"})
                continue
            received = self.take_from_stub(len(discard))
            for card in discard:
                self.hands[seat].remove(card)
            self.hands[seat].extend(received)
            self.log.add("draw", {"seat": seat, "discarded": discard, "received": received})
            self.discards.extend(discard)

    def take_from_stub(self, count: int) -> list[str]:
        """The stub first; when it runs out, the earlier discards are reshuffled."""
        taken = [self.stub.pop() for _ in range(min(count, len(self.stub)))]
        if len(taken) < count:
            self.log.add("stub_reshuffled", {"cards": list(self.discards),
                                             "reason": "stub exhausted"})
            cards = list(self.discards)
            self.rng.shuffle(cards)
            self.stub, self.discards = cards, []
            taken += [self.stub.pop() for _ in range(count - len(taken))]
        return taken

    # ------------------------------------------------------------ showdown and pots

    def showdown(self, contenders: list[int], everyone_shows: bool) -> dict[int, int]:
        """FCD-9 order; a player beaten by a hand already shown mucks (unless all show)."""
        shown: dict[int, int] = {}
        best = -1
        for seat in self.engine.showdown_order():
            rank = short_deck.rank5(self.hands[seat], self.deck_size)
            if everyone_shows or rank >= best:
                shown[seat] = rank
                best = max(best, rank)
                self.log.add("showdown", {"seat": seat, "cards": list(self.hands[seat])})
            else:
                self.log.add("showdown", {"seat": seat, "mucked": True})
        return shown

    def settle(self) -> None:
        contributions = self.engine.contributions()
        contenders = self.engine.active()
        someone_all_in = any(self.engine.seats[s].all_in for s in contenders)
        shown = (self.showdown(contenders, someone_all_in) if len(contenders) > 1
                 else {contenders[0]: 0})
        table = self.table
        readings = table.prof.rake
        posted = PostedRake(table.rake_mode, RAKE_FEE if table.rake_mode != "none" else 0,
                            readings.designated_counts_button, readings.fee_from,
                            readings.all_charges_button)
        behind = {seat: st.stack for seat, st in self.engine.seats.items()}
        plan = settle_as_table(contributions, contenders, shown, self.button, posted, behind)
        payouts = self.apply_settlement_fault(plan.pots, plan.shares, shown, plan.rake,
                                              plan.fee_from)
        plan = TablePlan(plan.refund_seat, plan.refund, plan.rake, plan.pots, [payouts],
                         plan.fee_from)
        self.log.events += plan_events(plan)

    # ------------------------------------------------------------ settlement faults

    def apply_settlement_fault(self, pots: list[PotShare], shares: list[list[tuple[int, int]]],
                               shown: dict[int, int], rake: dict[int, int],
                               fee_from: str) -> list[tuple[int, int]]:
        table, log = self.table, self.log
        flat = [pair for pot_shares in shares for pair in pot_shares]
        if self.fault == "wrong_pot_award":
            for pot, pot_shares in zip(pots, shares, strict=True):
                winners = {s for s, _ in pot_shares}
                losers = [s for s in pot.eligible if s not in winners]
                if pot.amount > 0 and losers:
                    wrong = self.rng.choice(losers)
                    table.label(log, "wrong_pot_award", wrong,
                                f"pot of {pot.amount} paid to seat {wrong}")
                    others = [pair for other in shares if other is not pot_shares
                              for pair in other]
                    return [*others, (wrong, pot.amount)]
        if self.fault == "wrong_side_pot" and len(pots) > 1:
            best = max(shown, key=lambda s: shown[s]) if shown else None
            if best is not None and any(best not in p.eligible and p.amount for p in pots):
                total = sum(p.amount for p in pots)
                table.label(log, "wrong_side_pot", best,
                            f"all {len(pots)} pots ({total}) paid to seat {best}")
                return [(best, total)]
        if self.fault == "mispay":
            paid = [i for i, (_, amount) in enumerate(flat) if amount > 1]
            if paid:
                i = self.rng.choice(paid)
                seat, amount = flat[i]
                delta = self.rng.choice((-1, 1)) * self.rng.randint(1, min(amount - 1,
                                                                        self.table.big_blind))
                flat[i] = (seat, amount + delta)
                table.label(log, "mispay", seat, f"seat {seat} paid {amount + delta} "
                                                 f"instead of {amount}")
        if self.fault == "wrong_rake":
            paid = [i for i, (_, amount) in enumerate(flat) if amount > RAKE_FEE]
            if paid:
                i = paid[0]
                seat, amount = flat[i]
                if fee_from == "pot":  # the extra fee comes out of the seat's share
                    flat[i] = (seat, amount - RAKE_FEE)
                rake[seat] = rake.get(seat, 0) + RAKE_FEE
                table.label(log, "wrong_rake", seat,
                            f"seat {seat} charged {RAKE_FEE} rake too much")
        return flat


def simulate_table(
    stream: TableStream,
    hands: int,
    rng: random.Random,
    faults: frozenset[str],
    fault_rate: float,
    table_index: int,
    profile: RuleProfile,
    options: TableOptions = LEGACY,
) -> list[TruthLabel]:
    """One Five Card Draw 7-A table: configuration, seating, then ``hands`` hands."""
    table = Draw7aTable(stream, rng, faults, fault_rate, table_index, profile, options)
    table.open_table()
    labels: list[TruthLabel] = []
    for number in range(hands):
        labels += table.play_hand(number)
    return labels + (table.extras.patterns.labels if table.extras else [])
