"""Simulated Russian Poker tables: realistic play, and dealer errors with truth labels.

Boxes play a sensible strategy (keep made hands, exchange around pairs and Ace-King, buy
a sixth card to a four-flush or to improve two pair and trips, play pairs and Ace-King with
a good kicker, insure some trips-or-better hands, buy the dealer's game with strong
hands). The table records every chip as a house-banked table does: wagers go to the
layout, losing wagers are collected to the house, winnings are paid by the house, prices
are collections to the house, and the layout goes back to the player at ``hand_ended``.

The settlement here is written independently of ``services.games.russian`` on purpose:
the simulator is the table the adjudicator audits, so a mistake shared by both would hide
itself. Injected faults change what the table does or records in one hand and label it
with the finding codes that detect it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from services.events.stream import TableStream
from services.games.cards import STANDARD_DECK, rank_of, suit_of
from services.games.evaluation.standard import best_five
from services.games.profile import RuleProfile
from services.games.russian.evaluation import (
    compare,
    paytable_category,
    two_combinations,
)
from services.games.russian.profile import PAYTABLE_CATEGORIES
from services.simulator.buy_in import buy_in_to
from services.simulator.options import LEGACY, TableOptions
from services.simulator.russian_options import (
    Cheat,
    RussianExtras,
    extras_for,
    finish_hand,
    start_hand,
)
from services.simulator.truth import TruthLabel

FAULTS: dict[str, str] = {
    "mispay": "a winning box is paid one Ante too much or too little (MISPAY)",
    "paid_when_dealer_qualified_and_won": "a box that lost to a qualifying dealer is paid "
    "as if it had won (MISPAY)",
    "insurance_paid_wrongly": "insurance paid though the dealer qualifies (MISPAY)",
    "ante_not_paid": "the dealer does not qualify and a declining box's Ante is collected "
    "instead of paid (MISPAY)",
    "wrong_fee": "a sixth card or an exchange priced at 2x Ante (WRONG_FEE, RP-2)",
    "draw_before_all_decided": "a box is served before a later box has decided "
    "(DRAW_BEFORE_ALL_DECIDED, RP-2)",
    "draw_out_of_order": "two boxes served in the wrong order (DRAW_OUT_OF_ORDER, RP-2)",
    "one_card_exchange": "a box exchanges a single card (EXCHANGE_ONE_CARD, RP-2)",
    "second_exchange": "a box is sold a second exchange (SECOND_DRAW, RP-2)",
    "late_wager": "a winning box doubles its Bet after the dealer's cards are turned and is "
    "paid on it (LATE_WAGER, SURV-1)",
    "late_insurance": "insurance placed after insurance closed (LATE_INSURANCE, RP-4)",
    "wrong_burn": "buying the dealer's game: the dealer burns a card of another rank "
    "(BURN_PROCEDURE, RP-6)",
    "rake_taken": "rake taken at the house-banked table (RAKE_OVER, GEN-10)",
}

ANTES = (5, 10, 25)
PLAYERS_PER_TABLE = (3, 7)
SEATS = 7
TOP_UP_BELOW = 30  # in Antes: a player with fewer chips buys in again between hands
BUY_IN = 120  # in Antes
DECK_RESERVE = 8  # cards kept back from the draws (second exchange, dealer's replacement)
PAYTABLE = {
    "royal_flush": 100, "straight_flush": 50, "four_of_a_kind": 20, "full_house": 7,
    "flush": 5, "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "one_pair": 1,
    "ace_king": 1,
}

EventSpec = tuple[str, dict[str, Any]]


def _strength(category: str) -> int:
    """Smaller is better (the paytable's order)."""
    return PAYTABLE_CATEGORIES.index(category)


def _best(cards: list[str]) -> tuple[str, ...]:
    return best_five(cards)[1]


def _category(cards: list[str]) -> str:
    return paytable_category(_best(cards))


# ---------------------------------------------------------------- player strategy


@dataclass
class Box:
    seat: int
    player_id: str
    ante: int
    cards: list[str] = field(default_factory=list)
    decision: str = "stand"  # stand, fold, buy, exchange
    discards: list[str] = field(default_factory=list)
    plays: bool = False
    insurance: int = 0
    buys_game: bool = False


def _by_rank(cards: list[str]) -> list[str]:
    return sorted(cards, key=rank_of)


def _four_flush(cards: list[str]) -> bool:
    suits = [suit_of(c) for c in cards]
    return max(suits.count(s) for s in set(suits)) == 4


def draw_decision(cards: list[str], rng: random.Random) -> tuple[str, list[str]]:
    """RP-2 choice on the first five cards: (decision, cards to give back)."""
    category = paytable_category(cards)
    if _strength(category) <= _strength("straight"):
        return "stand", []
    if category in ("three_of_a_kind", "two_pair"):
        return ("buy", []) if rng.random() < 0.3 else ("stand", [])
    if category == "one_pair":
        ranks = [rank_of(c) for c in cards]
        pair = max(r for r in ranks if ranks.count(r) == 2)
        if pair >= 10 and rng.random() < 0.5:
            return "stand", []
        return "exchange", [c for c in cards if rank_of(c) != pair]
    if _four_flush(cards):
        return "buy", []
    if category == "ace_king":
        if rng.random() < 0.4:
            return "stand", []
        return "exchange", [c for c in cards if rank_of(c) not in (13, 14)]
    if rng.random() < 0.35:
        return "fold", []
    if rng.random() < 0.3:
        return "exchange", list(cards)
    return "exchange", _by_rank(cards)[:3]


def plays_hand(cards: list[str]) -> bool:
    """RP-3: pairs and better play; Ace-King plays with a jack or better beside it."""
    five = _best(cards)
    category = paytable_category(five)
    if _strength(category) <= _strength("one_pair"):
        return True
    if category == "ace_king":
        return sorted((rank_of(c) for c in five), reverse=True)[2] >= 11
    return False


# ---------------------------------------------------------------- one hand


class HandRun:
    """One hand as the dealer runs it; ``fault`` is applied where it fits, if it does."""

    def __init__(self, boxes: list[Box], rng: random.Random, fault: str | None) -> None:
        self.boxes = boxes
        self.rng = rng
        self.fault = fault
        self.applied: tuple[int | None, str] | None = None
        self.events: list[EventSpec] = []
        self.deck = list(STANDARD_DECK)
        rng.shuffle(self.deck)
        self.dealer: list[str] = []
        self.late_insurer: Box | None = None
        self.cheat: Cheat | None = None  # a box shown the dealer's cards (a pattern)

    def sees(self, box: Box) -> Cheat | None:
        return self.cheat if self.cheat is not None and self.cheat.box is box else None

    def emit(self, type_: str, **data: Any) -> None:
        self.events.append((type_, data))

    def mark(self, seat: int | None, detail: str) -> None:
        self.applied = (seat, detail)

    def wants(self, fault: str) -> bool:
        return self.fault == fault and self.applied is None

    def run(self) -> None:
        for box in self.boxes:
            self.emit("wager", seat=box.seat, kind="ante", amount=box.ante)
        self._deal()
        self._draw_phase()
        self._play_phase()
        self._dealer_phase()

    def _deal(self) -> None:
        """RP-1: one card at a time, boxes then the dealer; the dealer's fifth face up."""
        for round_ in range(5):
            for box in self.boxes:
                card = self.deck.pop()
                box.cards.append(card)
                self.emit("card_dealt", to="seat", seat=box.seat, card=card, face_up=False)
            card = self.deck.pop()
            self.dealer.append(card)
            self.emit("card_dealt", to="dealer", card=card, face_up=round_ == 4)

    def _draw_phase(self) -> None:
        """RP-2: every box decides, then the dealer serves first box to last."""
        decisions: list[tuple[Box, EventSpec]] = []
        # Cards left for draws, keeping some for a second exchange and the dealer's
        # replacement and burns: a box that cannot be served keeps its cards.
        budget = len(self.deck) - DECK_RESERVE
        for box in self.boxes:
            box.decision, box.discards = draw_decision(box.cards, self.rng)
            needed = 1 if box.decision == "buy" else len(box.discards)
            if needed > budget:
                box.decision, box.discards = "stand", []
            budget -= 0 if box.decision in ("stand", "fold") else needed
            decisions.append((box, self._decision_event(box)))
        drawing = [box for box in self.boxes if box.decision in ("buy", "exchange")]
        self._fault_one_card_exchange(drawing)
        late = self._fault_late_decision(decisions, drawing)
        for box, spec in decisions:
            if box is not late:
                self.events.append(spec)
        served = self._serving_order(drawing)
        for number, box in enumerate(served):
            self._serve(box)
            if number == 0 and late is not None:
                self.events.append(next(s for b, s in decisions if b is late))
        self._fault_second_exchange(drawing)

    def _decision_event(self, box: Box) -> EventSpec:
        if box.decision in ("stand", "fold"):
            return ("action", {"seat": box.seat, "action": box.decision})
        price = box.ante
        if self.wants("wrong_fee"):
            price = 2 * box.ante
            self.mark(box.seat, f"{box.decision} priced {price}, the price is {box.ante}")
        kind = "buy_card" if box.decision == "buy" else "exchange"
        return ("collection", {"seat": box.seat, "amount": price, "to": "house", "kind": kind})

    def _fault_one_card_exchange(self, drawing: list[Box]) -> None:
        if not self.wants("one_card_exchange"):
            return
        box = next((b for b in drawing if b.decision == "exchange" and len(b.discards) >= 2),
                   None)
        if box is not None:
            box.discards = box.discards[:1]
            self.mark(box.seat, f"exchanged one card, {box.discards[0]}")

    def _fault_late_decision(
        self, decisions: list[tuple[Box, EventSpec]], drawing: list[Box]
    ) -> Box | None:
        """A later box announces its decision only after the first box was served."""
        if not self.wants("draw_before_all_decided") or not drawing:
            return None
        first = drawing[0]
        # A late fold reads as the play decision of RP-3, so the late box keeps or draws.
        later = [b for b, _ in decisions if b.seat > first.seat and b.decision != "fold"]
        if not later:
            return None
        box = later[-1]
        self.mark(box.seat, f"seat {first.seat} served before seat {box.seat} decided")
        return box

    def _serving_order(self, drawing: list[Box]) -> list[Box]:
        order = list(drawing)
        if self.wants("draw_out_of_order") and len(order) >= 2:
            order[0], order[1] = order[1], order[0]
            self.mark(order[0].seat, f"seat {order[0].seat} served before seat {order[1].seat}")
        return order

    def _serve(self, box: Box) -> None:
        count = 1 if box.decision == "buy" else len(box.discards)
        received = [self.deck.pop() for _ in range(count)]
        discarded = [] if box.decision == "buy" else list(box.discards)
        for card in discarded:
            box.cards.remove(card)
        box.cards += received
        self.emit("draw", seat=box.seat, discarded=discarded, received=received)

    def _fault_second_exchange(self, drawing: list[Box]) -> None:
        if not self.wants("second_exchange"):
            return
        box = next((b for b in drawing if b.decision == "exchange"), None)
        if box is None:
            return
        box.discards = _by_rank(box.cards)[:2]
        self.emit("collection", seat=box.seat, amount=box.ante, to="house", kind="exchange")
        self._serve(box)
        self.mark(box.seat, "a second exchange of two cards")

    def _play_phase(self) -> None:
        """RP-3 play or fold; RP-4 insurance on some trips-or-better hands."""
        for box in self.boxes:
            if box.decision == "fold":
                continue
            cheat = self.sees(box)
            box.plays = cheat.plays() if cheat else plays_hand(box.cards)
            if box.plays:
                self.emit("action", seat=box.seat, action="play")
                self.emit("wager", seat=box.seat, kind="bet", amount=2 * box.ante)
            else:
                self.emit("action", seat=box.seat, action="fold")
        insured = []
        for box in self.boxes:
            if box.plays:
                box.insurance = self._insurance(box)
                if box.insurance:
                    insured.append(box)
        held_back = insured[0] if insured and self.wants("late_insurance") else None
        for box in insured:
            if box is not held_back:
                self.emit("wager", seat=box.seat, kind="insurance", amount=box.insurance)
        self.late_insurer = held_back

    def _insurance(self, box: Box) -> int:
        if (cheat := self.sees(box)) is not None:
            return box.ante * 2 if cheat.insures() else 0
        category = _category(box.cards)
        if _strength(category) <= _strength("three_of_a_kind") and self.rng.random() < 0.35:
            return box.ante * self.rng.randint(1, 4)
        if category == "two_pair" and self.rng.random() < 0.03:
            return box.ante  # a wrong bet: returned (RP-4)
        return 0

    def _dealer_phase(self) -> None:
        self.emit("showdown", seat="dealer", cards=list(self.dealer))
        self._fault_late_insurance()
        qualifies = paytable_category(self.dealer) != "nothing"
        playing = [box for box in self.boxes if box.plays]
        bought: list[str] | None = None
        if not qualifies and playing:
            for box in playing:
                cheat = self.sees(box)
                box.buys_game = cheat.buys() if cheat else (
                    _strength(_category(box.cards)) <= _strength("two_pair")
                    and self.rng.random() < 0.5)
                action = "buy_dealer_game" if box.buys_game else "decline_dealer_game"
                self.emit("action", seat=box.seat, action=action)
                if box.buys_game:
                    self.emit("wager_collected", seat=box.seat, kind="ante", amount=box.ante,
                              to="house")
            if any(box.buys_game for box in playing):
                bought = self._replace_dealer_card()
        for box in self.boxes:
            Settle(self, box, qualifies, bought).run()
        if self.wants("rake_taken") and self.boxes:
            box = self.rng.choice(self.boxes)
            self.emit("rake_collected", seat=box.seat, amount=1, **{"from": "stack"})
            self.mark(box.seat, "rake of 1 taken")

    def _fault_late_insurance(self) -> None:
        box = self.late_insurer
        if box is not None:
            self.emit("wager", seat=box.seat, kind="insurance", amount=box.insurance)
            self.mark(box.seat, "insurance placed after the dealer's cards were turned")

    def _replace_dealer_card(self) -> list[str]:
        """RP-6: the highest card out, the next card in; same rank burned unless it makes
        a combination."""
        removed = max(self.dealer, key=rank_of)
        rest = [c for c in self.dealer if c != removed]
        burned: list[str] = []
        if self.wants("wrong_burn") and rank_of(self.deck[-1]) != rank_of(removed):
            burned.append(self.deck.pop())
            self.mark(None, f"burned {burned[0]}, not of the replaced rank")
        received = self.deck.pop()
        while (rank_of(received) == rank_of(removed)
               and paytable_category([*rest, received]) == "nothing"):
            burned.append(received)
            received = self.deck.pop()
        self.emit("dealer_replaced_card", removed=removed, received=received, burned=burned)
        return [*rest, received]


class Settle:
    """Records one box's settlement as the table does (RP-4..RP-8)."""

    def __init__(self, run: HandRun, box: Box, qualifies: bool, bought: list[str] | None):
        self.hand = run
        self.box = box
        self.qualifies = qualifies
        self.bought = bought

    def collect(self, kind: str, amount: int) -> None:
        self.hand.emit("wager_collected", seat=self.box.seat, kind=kind, amount=amount,
                       to="house")

    def pay(self, amount: int, kind: str = "win") -> None:
        self.hand.emit("payout", seat=self.box.seat, amount=amount, source="house", kind=kind)

    def insured(self) -> bool:
        """Valid insurance: trips or better (a weaker hand's insurance stays, returned)."""
        return (self.box.insurance > 0
                and _strength(_category(self.box.cards)) <= _strength("three_of_a_kind"))

    def run(self) -> None:
        box = self.box
        if not box.plays:
            self.collect("ante", box.ante)
        elif self.qualifies:
            self._showdown(self.hand.dealer, ante_at_risk=box.ante)
            self._insurance_loses()
        elif box.buys_game:
            assert self.bought is not None
            if paytable_category(self.bought) != "nothing":
                self._showdown(self.bought, ante_at_risk=0)
            self._insurance_loses()
        else:
            self._ante_paid()

    def _ante_paid(self) -> None:
        if self.hand.wants("ante_not_paid"):
            self.collect("ante", self.box.ante)
            self.hand.mark(self.box.seat, "Ante collected though the dealer did not qualify")
        else:
            self.pay(self.box.ante)
        if self.insured():
            self.pay(self.box.insurance, "insurance")

    def _insurance_loses(self) -> None:
        if not self.insured():
            return
        if self.qualifies and self.hand.wants("insurance_paid_wrongly"):
            self.pay(self.box.insurance, "insurance")
            self.hand.mark(self.box.seat, "insurance paid though the dealer qualifies")
        else:
            self.collect("insurance", self.box.insurance)

    def _odds(self) -> int:
        cards = self.box.cards
        if len(cards) == 6:
            best, second = two_combinations(cards)
            extra = PAYTABLE[paytable_category(second)] if second is not None else 0
            return PAYTABLE[paytable_category(best)] + extra
        return PAYTABLE[paytable_category(cards)]

    def _showdown(self, dealer: list[str], ante_at_risk: int) -> None:
        box = self.box
        outcome = compare(_best(box.cards), dealer)
        bet = 2 * box.ante
        if outcome < 0:
            if self.qualifies and self.hand.wants("paid_when_dealer_qualified_and_won"):
                self.pay(bet)
                self.hand.mark(box.seat, "paid a Bet that lost to the dealer")
                return
            if ante_at_risk:
                self.collect("ante", ante_at_risk)
            self.collect("bet", bet)
        elif outcome > 0:
            self._pay_win(bet)

    def _pay_win(self, bet: int) -> None:
        box = self.box
        win = bet * self._odds()
        if self.qualifies and self.hand.wants("late_wager"):
            self.hand.emit("wager", seat=box.seat, kind="bet", amount=bet)
            self.hand.mark(box.seat, f"Bet doubled to {2 * bet} after the dealer's cards")
            win *= 2
        elif self.hand.wants("mispay"):
            delta = box.ante if self.hand.rng.random() < 0.5 or win <= box.ante else -box.ante
            win += delta
            self.hand.mark(box.seat, f"paid {win}, {delta:+d} off")
        self.pay(win)


# ---------------------------------------------------------------- the table


FAULT_CODES: dict[str, list[str]] = {
    "mispay": ["MISPAY"],
    "paid_when_dealer_qualified_and_won": ["MISPAY"],
    "insurance_paid_wrongly": ["MISPAY"],
    "ante_not_paid": ["MISPAY"],
    "wrong_fee": ["WRONG_FEE"],
    "draw_before_all_decided": ["DRAW_BEFORE_ALL_DECIDED"],
    "draw_out_of_order": ["DRAW_OUT_OF_ORDER"],
    "one_card_exchange": ["EXCHANGE_ONE_CARD"],
    "second_exchange": ["SECOND_DRAW"],
    "late_wager": ["LATE_WAGER"],
    "late_insurance": ["LATE_INSURANCE"],
    "wrong_burn": ["BURN_PROCEDURE"],
    "rake_taken": ["RAKE_OVER"],
}


@dataclass
class Player:
    seat: int
    player_id: str
    stack: int


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
    """``hands`` hands of one Russian Poker table; returns the injected faults' labels
    (and those of the patterns it hosts)."""
    ante = ANTES[table_index % len(ANTES)]
    stream.emit("table_configured", {
        "game": "russian",
        "limits": {"min_wager": ante, "max_wager": ante * 20},
        "rake": {"mode": "none", "fee": 0},
        "rule_profile": profile.name,
        "authorized_by": f"supervisor-{table_index % 3 + 1}",
    })
    count = options.players or rng.randint(*PLAYERS_PER_TABLE)
    players = [Player(seat, f"{stream.table_id}-P{seat}", ante * BUY_IN)
               for seat in sorted(rng.sample(range(1, SEATS + 1), count))]
    for p in players:
        stream.emit("player_seated", {"seat": p.seat, "player_id": p.player_id,
                                      "stack": p.stack})
    usable = sorted(faults & set(FAULTS))
    labels: list[TruthLabel] = []
    extras = extras_for(options, stream.table_id, [p.player_id for p in players])
    for number in range(1, hands + 1):
        _top_up(stream, players, ante)
        fault = rng.choice(usable) if usable and rng.random() < fault_rate else None
        hand_id = f"{stream.table_id}-{number:06d}"
        # The table's own dealer without a floor pool, one per table as draw7a's (every
        # Russian table once had "dealer-1" at the same time: one person to the reports).
        dealer = options.dealer(stream, f"dealer-{table_index + 1}-1")
        applied = _play_hand(stream, hand_id, players, ante, rng, fault, dealer, extras)
        if fault is not None and applied is not None:
            labels.append(TruthLabel(table_id=stream.table_id, hand_id=hand_id, fault=fault,
                                     codes=FAULT_CODES[fault], seat=applied[0],
                                     detail=applied[1]))
        stream.advance(rng.randint(5, 40))
    return labels + (extras.patterns.labels if extras else [])


def _top_up(stream: TableStream, players: list[Player], ante: int) -> None:
    for p in players:
        if p.stack < ante * TOP_UP_BELOW:
            buy_in_to(stream, p.seat, p, ante * BUY_IN)


def _play_hand(
    stream: TableStream,
    hand_id: str,
    players: list[Player],
    ante: int,
    rng: random.Random,
    fault: str | None,
    dealer: str = "dealer-1",
    extras: RussianExtras | None = None,
) -> tuple[int | None, str] | None:
    """Emit one hand; returns (seat, detail) of the fault if it was injected."""
    boxes = [Box(p.seat, p.player_id, ante) for p in players]
    run = HandRun(boxes, rng, fault)
    run.cheat = start_hand(extras, run, hand_id, dealer)
    run.run()
    finish_hand(extras, hand_id, dealer, {p.seat: p.player_id for p in players}, run.events)
    stream.emit("hand_started", {
        "button": players[0].seat, "designated_player": None, "dealer_id": dealer,
        "seats": [{"seat": p.seat, "player_id": p.player_id, "stack": p.stack}
                  for p in players],
        "deck": 52,
    }, hand_id=hand_id)
    for type_, data in run.events:
        stream.emit(type_, data, hand_id=hand_id)
    stream.emit("hand_ended", {}, hand_id=hand_id)
    _book(players, run.events)
    return run.applied


def _book(players: list[Player], events: list[EventSpec]) -> None:
    """Players' stacks after the hand, from the chips the table moved."""
    by_seat = {p.seat: p for p in players}
    for type_, data in events:
        delta = _stack_change(type_, data)
        if delta and data.get("seat") in by_seat:
            by_seat[data["seat"]].stack += delta


def _stack_change(type_: str, data: dict[str, Any]) -> int:
    """Net stack change: wagers come back unless collected, so only the rest counts."""
    amount: int = data.get("amount", 0)
    changes: dict[str, Callable[[], int]] = {
        "wager_collected": lambda: -amount,
        "payout": lambda: amount,
        "collection": lambda: -amount,
        "rake_collected": lambda: -amount,
    }
    change = changes.get(type_)
    return change() if change is not None else 0
