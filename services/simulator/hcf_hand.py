"""One High Card Flush hand at a simulated table, faults included: the wagers, the deal
(with the shuffler alarms, misdeals and injected card faults), the players' decisions,
the settlement counter-clockwise from the right of the button (written from rules.md apart
from ``services.games.hcf``), the rake, and the faults recorded into the settlement.

The table across hands (seating, the DP's rotation, dealers, publishing the events) is
``services.simulator.hcf``; a ``Hand``'s events are published there once this module
has played it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from services.games.cards import RANK_VALUE, STANDARD_DECK
from services.games.hcf.evaluation import (
    dp_qualifies,
    flush_high_card,
    flush_length,
    flush_value,
    straight_flush_run,
)
from services.games.hcf.profile import HcfProfile
from services.simulator.truth import TruthLabel

_RING = 1000
SWEETHEART_RATE = 0.5  # share of the friend's wins the sweetheart dealer overpays


@dataclass(frozen=True)
class Sweetheart:
    """SURV-2 scenario: ``dealer`` overpays ``friend``'s wins by up to one Ante."""

    dealer: str
    friend: str


@dataclass
class Player:
    player_id: str
    stack: int
    ante: int
    bonus: int  # size of a bonus wager
    flush_rate: float  # how often the Flush bonus is played
    sf_rate: float
    timid: bool  # raises only 1x Ante whatever the flush

    def needs(self, fee: int) -> int:
        """GEN-2: Ante, both bonuses, a 3x raise and the fee."""
        return 4 * self.ante + 2 * self.bonus + fee


@dataclass
class Hand:
    """The events of one hand before they are published (faults edit them here)."""

    hand_id: str
    dp: int
    events: list[tuple[str, dict[str, Any], bool]] = field(default_factory=list)
    labels: list[TruthLabel] = field(default_factory=list)

    def add(self, type_: str, data: dict[str, Any], table_level: bool = False) -> None:
        self.events.append((type_, data, table_level))


@dataclass
class PlayerHand:
    seat: int
    ante: int
    flush_bonus: int = 0
    sf_bonus: int = 0
    raised: int = 0
    folded: bool = False
    walked: bool = False


class TableView(Protocol):
    """What a hand needs of its table (``services.simulator.hcf.HcfTable``)."""

    rng: random.Random
    profile: HcfProfile
    players: dict[int, Player]
    dealer: str
    mode: str
    fee: int
    cap: int | None
    sweetheart: Sweetheart | None

    def is_friend(self, seat: int) -> bool: ...
    def label_fault(self, hand: Hand, fault: str, seat: int | None, detail: str) -> None: ...
    def stack_deck(self, hand: Hand, cards: dict[int, list[str]],
                   flush_bonus: set[int]) -> None: ...


class HandPlay:
    """The course of one hand at the table, faults included."""

    def __init__(self, table: TableView, hand: Hand, fault: str | None) -> None:
        self.t, self.hand, self.fault, self.rng = table, hand, fault, table.rng
        self.dp = hand.dp
        dp = self.dp
        # Clockwise from the left of the button (the DP): wagers, deal and decisions.
        self.clockwise = sorted((s for s in table.players if s != dp),
                                key=lambda s: (s - dp) % _RING)
        self.players: dict[int, PlayerHand] = {}
        self.cards: dict[int, list[str]] = {}
        self.dp_stack = table.players[dp].stack

    def label(self, fault: str, seat: int | None, detail: str) -> None:
        self.t.label_fault(self.hand, fault, seat, detail)

    def run(self) -> None:
        t, hand = self.t, self.hand
        hand.add("hand_started", {
            "button": self.dp, "designated_player": self.dp, "dealer_id": t.dealer,
            "seats": [{"seat": s, "player_id": p.player_id, "stack": p.stack}
                      for s, p in sorted(t.players.items())],
            "deck": 52})
        self.place_wagers()
        if not self.deal():
            hand.add("hand_ended", {})
            return
        self.decide()
        if self.fault == "chips_mid_hand":
            seat = self.rng.choice(self.clockwise)
            hand.add("chips_changed", {"seat": seat, "amount": 100, "kind": "add"},
                     table_level=True)
            self.label("chips_mid_hand", seat, "100 chips added during the hand")
        counted = self.settle()
        self.take_rake(counted)
        self.mutate_settlement()
        self.sweeten()
        hand.add("hand_ended", {})

    # ------------------------------------------------------------ wagers and deal

    def place_wagers(self) -> None:
        rng = self.rng
        for seat in self.clockwise:
            player = self.t.players[seat]
            ph = PlayerHand(seat, player.ante)
            self.hand.add("wager", {"seat": seat, "kind": "ante", "amount": player.ante})
            if rng.random() < player.flush_rate:
                ph.flush_bonus = player.bonus
                self.hand.add("wager", {"seat": seat, "kind": "flush_bonus",
                                        "amount": player.bonus})
            if rng.random() < player.sf_rate:
                ph.sf_bonus = player.bonus
                self.hand.add("wager", {"seat": seat, "kind": "sf_bonus",
                                        "amount": player.bonus})
            self.players[seat] = ph

    def deal(self) -> bool:
        """Seven rounds clockwise from the left of the button; False when the hand died."""
        rng, hand = self.rng, self.hand
        deck = list(STANDARD_DECK)
        rng.shuffle(deck)
        order = [*self.clockwise, self.dp]
        counts = dict.fromkeys(order, 7)
        fault = self.fault
        honest_misdeal = fault is None and rng.random() < 0.002
        honest_alarm = fault is None and not honest_misdeal and rng.random() < 0.003
        wrong = rng.choice(order)
        if fault == "card_count" or honest_misdeal:
            counts[wrong] = rng.choice((6, 8))
        self.cards = {s: [deck.pop() for _ in range(counts[s])] for s in order}
        self.t.stack_deck(hand, self.cards, {s for s, p in self.players.items() if p.flush_bonus})
        if fault == "duplicate_card":
            victim = order[-1] if len(order) > 1 else order[0]
            self.cards[victim][3] = self.cards[order[0]][0]
            self.label("duplicate_card", victim,
                       f"{self.cards[order[0]][0]} dealt to seat {order[0]} and {victim}")
        alarm_round = rng.randint(1, 6) if honest_alarm or fault == "dead_hand_paid" else None
        for rnd in range(8):
            if rnd == alarm_round:
                hand.add("shuffler_alarm", {"detail": "red light during the deal"})
                if honest_alarm:
                    return False
            if rnd == 1 and fault == "past_posting":
                self.past_post()
            for seat in order:
                if rnd < len(self.cards[seat]):
                    card: str | None = self.cards[seat][rnd]
                    if (fault != "duplicate_card" and rng.random() < 0.002):
                        card = None  # dealt but the shoe did not read it
                    hand.add("card_dealt", {"to": "seat", "seat": seat, "card": card,
                                            "face_up": False})
        if fault == "dead_hand_paid":
            self.label("dead_hand_paid", None, "shuffler alarm, hand settled as live")
        if honest_misdeal:
            hand.add("misdeal", {"reason": f"seat {wrong} received {counts[wrong]} cards"})
            return False
        if fault == "card_count":
            self.label("card_count", wrong, f"seat {wrong} dealt {counts[wrong]} cards")
        return True

    def past_post(self) -> None:
        """A player slips a bonus wager in after the first card (and the table accepts)."""
        seat = self.rng.choice(self.clockwise)
        ph, player = self.players[seat], self.t.players[seat]
        amount = player.bonus
        if player.stack - (player.needs(self.t.fee)) < amount:
            return
        if ph.flush_bonus == 0:
            ph.flush_bonus, kind = amount, "flush_bonus"
        else:
            ph.sf_bonus, kind = ph.sf_bonus + amount, "sf_bonus"
        self.hand.add("wager", {"seat": seat, "kind": kind, "amount": amount})
        self.label("past_posting", seat, f"{kind} {amount} after the first card")

    # ------------------------------------------------------------ decisions

    def raise_for(self, ph: PlayerHand, player: Player) -> int:
        """Sensible strategy: max raise with 5+ suited cards, 1x with four, 3-card flushes
        only Jack-high or better; timid players never raise more than 1x."""
        value = flush_value(self.cards[ph.seat])
        length = flush_length(value)
        if length >= 6:
            multiple = 3
        elif length == 5:
            multiple = 2
        elif length == 4 or (length == 3 and flush_high_card(value) >= 11):
            multiple = 1
        else:
            return 0
        if player.timid:
            multiple = 1
        if self.fault == "over_cap_raise" and length in (4, 5) and not any(
                lb.fault == "over_cap_raise" for lb in self.hand.labels):
            over = (length - 2) * ph.ante  # one Ante above the cap of 1x / 2x
            self.label("over_cap_raise", ph.seat, f"raise {over} with a {length}-card flush")
            return over
        return multiple * ph.ante

    def decide(self) -> None:
        hand, rng = self.hand, self.rng
        for seat in self.clockwise:
            ph, player = self.players[seat], self.t.players[seat]
            if rng.random() < 0.005 and not self.t.is_friend(seat):
                ph.folded = ph.walked = True
                hand.add("player_left", {"seat": seat, "player_id": player.player_id,
                                         "stack": player.stack - self._on_layout(ph)},
                         table_level=True)
                self._sweep(ph)
                continue
            amount = self.raise_for(ph, player)
            if amount == 0:
                ph.folded = True
                hand.add("action", {"seat": seat, "action": "fold"})
                self._sweep(ph)
            else:
                ph.raised = amount
                hand.add("action", {"seat": seat, "action": "raise"})
                hand.add("wager", {"seat": seat, "kind": "raise", "amount": amount})

    @staticmethod
    def _on_layout(ph: PlayerHand) -> int:
        return ph.ante + ph.flush_bonus + ph.sf_bonus + ph.raised

    def _sweep(self, ph: PlayerHand) -> None:
        """A fold's Ante and bonuses go to the DP at once."""
        for kind, amount in (("ante", ph.ante), ("flush_bonus", ph.flush_bonus),
                             ("sf_bonus", ph.sf_bonus)):
            if amount:
                self.hand.add("wager_collected", {"seat": ph.seat, "kind": kind,
                                                  "amount": amount, "to": "designated"})

    # ------------------------------------------------------------ settlement

    def settle(self) -> list[int]:
        """Compare, pay and collect counter-clockwise from the right of the button.

        Returns the seats counted for the rake (every Ante not dead for its player).
        """
        prof = self.t.profile
        live = [ph for ph in self.players.values() if not ph.folded]
        ccw = sorted(self.players, key=lambda s: (self.dp - s) % _RING)
        if not live:
            return ccw
        hand = self.hand
        hand.add("showdown", {"seat": self.dp, "cards": self.cards[self.dp]})
        for ph in sorted(live, key=lambda p: (p.seat - self.dp) % _RING):
            hand.add("showdown", {"seat": ph.seat, "cards": self.cards[ph.seat]})
        dp_value = flush_value(self.cards[self.dp])
        qualifies = dp_qualifies(dp_value, prof.dp_qualify_min_cards,
                                 RANK_VALUE[prof.dp_qualify_min_high],
                                 prof.dp_qualify_any_high_cards)
        bonuses = self._capped_bonuses(live)
        funds = self.dp_stack - self._rake_reserve() + sum(
            self._on_layout(ph) for ph in self.players.values() if ph.folded)
        counted: list[int] = []
        for seat in ccw:
            ph = self.players[seat]
            if ph.folded:
                counted.append(seat)
                continue
            value = flush_value(self.cards[seat])
            if not qualifies:
                main = ph.ante
            elif value == dp_value:
                main = 0
            else:
                main = (ph.ante + ph.raised) * (1 if value > dp_value else -1)
            flush_win, sf_win = bonuses.get(seat, (0, 0))
            wins = max(main, 0) + flush_win + sf_win
            losing = []
            if main < 0:
                losing += [("ante", ph.ante), ("raise", ph.raised)]
            if ph.flush_bonus and not flush_win:
                losing.append(("flush_bonus", ph.flush_bonus))
            if ph.sf_bonus and not sf_win:
                losing.append(("sf_bonus", ph.sf_bonus))
            if wins > funds:
                continue  # HCF-11: dead for this player, everything stays and returns
            counted.append(seat)
            for kind, amount in losing:
                hand.add("wager_collected", {"seat": seat, "kind": kind, "amount": amount,
                                             "to": "designated"})
            if main > 0:
                hand.add("payout", {"seat": seat, "amount": main, "source": "designated",
                                    "kind": "win"})
            if flush_win + sf_win:
                hand.add("payout", {"seat": seat, "amount": flush_win + sf_win,
                                    "source": "designated", "kind": "bonus"})
            funds += sum(a for _, a in losing) - wins
        return counted

    def _rake_reserve(self) -> int:
        if self.t.mode == "designated":
            return self.t.fee * len(self.players)
        return self.t.fee if self.t.mode == "all" and self.players else 0

    def _capped_bonuses(self, live: list[PlayerHand]) -> dict[int, tuple[int, int]]:
        """Paytable wins, cut pro rata to the table's cap (largest remainders)."""
        prof = self.t.profile
        flush_table = {int(k): v for k, v in prof.flush_bonus_paytable.items()}
        sf_table = {int(k): v for k, v in prof.sf_bonus_paytable.items()}
        raw: list[tuple[int, int, int]] = []  # (settlement position, 0 flush / 1 sf, win)
        for ph in sorted(live, key=lambda p: (self.dp - p.seat) % _RING):
            cards = self.cards[ph.seat]
            length = min(flush_length(flush_value(cards)), 7)
            run = min(straight_flush_run(cards), 7)
            pos = (self.dp - ph.seat) % _RING
            if ph.flush_bonus and length in flush_table:
                raw.append((pos, 0, ph.flush_bonus * flush_table[length]))
            if ph.sf_bonus and run in sf_table:
                raw.append((pos, 1, ph.sf_bonus * sf_table[run]))
        total = sum(w for _, _, w in raw)
        cap = self.t.cap
        paid = {(p, k): w for p, k, w in raw}
        if cap is not None and total > cap:
            paid = {(p, k): w * cap // total for p, k, w in raw}
            rest = cap - sum(paid.values())
            for p, k, _ in sorted(raw, key=lambda r: (-(r[2] * cap % total), r[0], r[1]))[:rest]:
                paid[(p, k)] += 1
        out: dict[int, tuple[int, int]] = {}
        for (pos, kind), win in paid.items():
            seat = next(s for s in self.players if (self.dp - s) % _RING == pos)
            f, s = out.get(seat, (0, 0))
            out[seat] = (f + win, s) if kind == 0 else (f, s + win)
        return out

    def take_rake(self, counted: list[int]) -> None:
        fee, mode = self.t.fee, self.t.mode
        if mode == "designated" and counted:
            self.hand.add("rake_collected", {"seat": self.dp, "amount": fee * len(counted),
                                             "from": "stack"})
            return
        payers = list(counted)
        if mode == "all" and counted:
            payers.append(self.dp)
        for seat in payers:
            self.hand.add("rake_collected", {"seat": seat, "amount": fee, "from": "stack"})

    # ------------------------------------------------------------ recorded wrongly

    def mutate_settlement(self) -> None:
        events, rng = self.hand.events, self.rng
        if self.fault == "mispay":
            payouts = [i for i, e in enumerate(events) if e[0] == "payout"]
            if not payouts:
                return
            i = rng.choice(payouts)
            data = dict(events[i][1])
            delta = rng.randint(1, max(1, data["amount"] // 2))
            data["amount"] += -delta if rng.random() < 0.5 and data["amount"] > delta else delta
            events[i] = ("payout", data, False)
            self.label("mispay", data["seat"], f"payout changed to {data['amount']}")
        elif self.fault == "wrong_rake":
            rakes = [i for i, e in enumerate(events) if e[0] == "rake_collected"]
            if not rakes:
                seat = rng.choice(self.clockwise)
                events.append(("rake_collected", {"seat": seat, "amount": self.t.fee,
                                                  "from": "stack"}, False))
                self.label("wrong_rake", seat, "rake taken in a hand with no participant")
                return
            i = rng.choice(rakes)
            data = dict(events[i][1])
            if rng.random() < 0.5:
                data["amount"] += 1
                events[i] = ("rake_collected", data, False)
            elif data["amount"] > 1:
                data["amount"] -= 1
                events[i] = ("rake_collected", data, False)
            else:
                del events[i]
            self.label("wrong_rake", data["seat"], "rake amount changed")

    def sweeten(self) -> None:
        """SURV-2 scenario: the sweetheart dealer overpays the friend's win payout.

        Only in hands with no other injected fault, so each label explains one thing (a
        ``mispay`` fault on the same payout could cancel the overpayment out).
        """
        sweet = self.t.sweetheart
        if sweet is None or self.fault is not None or self.t.dealer != sweet.dealer:
            return
        events = self.hand.events
        wins = [i for i, (type_, data, _) in enumerate(events)
                if type_ == "payout" and data["kind"] == "win"
                and self.t.is_friend(data["seat"])]
        if not wins or self.rng.random() >= SWEETHEART_RATE:
            return
        i = wins[0]
        data = dict(events[i][1])
        extra = self.rng.randint(1, self.players[data["seat"]].ante)
        data["amount"] += extra
        events[i] = ("payout", data, False)
        self.label("sweetheart", data["seat"],
                   f"dealer {sweet.dealer} overpays {sweet.friend}'s win by {extra}")
