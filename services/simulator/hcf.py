"""High Card Flush tables as a table system would publish them, with labelled faults.

Realistic play: seven seats, players with their own Ante size and bonus habits, a
designated player (DP) offered clockwise hand to hand with occasional declines (recorded
as ``designated_player_offer``), a sensible raise strategy (maximum raise with five or
more suited cards, 1x Ante with four, a three-card flush only Jack-high or better, some
players timid), players walking away, leaving, joining and buying in between hands,
dealer changes, occasional shuffler alarms and misdeals handled correctly, unread cards
revealed at the showdown. The rake mode rotates by table (``table_index % 3``: all,
players, designated); even tables post a per-hand bonus cap.

How this table records chips (events.md "How chips move"): every wager is a ``wager``
event; a fold's wagers are swept to the DP at once (``wager_collected``); after the DP's
hand is shown, players are settled counter-clockwise from the right of the button:
losing wagers ``wager_collected`` to the DP, winnings one ``payout`` of kind ``win``
(Ante and Raise) and one of kind ``bonus`` from the DP; the winning wagers stay on the
layout and go back at ``hand_ended``; a player the DP cannot cover (HCF-11) is left
alone (everything returns); the participation fee is taken from the stacks after
settlement (``rake_collected``), so no refund is ever needed. The DP's cards are dealt
``to: "seat"`` with the DP's seat.

The settlement here is written independently of ``services.games.hcf`` (sharing only the
card evaluation and the profile data), so the property test that clean simulated hands
adjudicate without findings cross-checks two implementations of the rules.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from services.events.stream import TableStream
from services.games.cards import RANK_VALUE, STANDARD_DECK
from services.games.hcf.evaluation import (
    dp_qualifies,
    flush_high_card,
    flush_length,
    flush_value,
    straight_flush_run,
)
from services.games.hcf.profile import HcfProfile
from services.games.profile import RuleProfile
from services.simulator.buy_in import buy_in_to
from services.simulator.truth import TruthLabel

FAULTS: dict[str, str] = {
    "mispay": "a payout recorded with the wrong amount",
    "wrong_rake": "a rake collection that differs from the posted mode and fee",
    "dead_hand_paid": "the shuffler alarms but the hand is settled as live",
    "past_posting": "a bonus wager placed after the first card, accepted and settled",
    "card_count": "a hand dealt 6 or 8 cards, not declared dead, settled as live",
    "duplicate_card": "a card dealt twice in one hand",
    "chips_mid_hand": "chips added to a stack during the hand",
    "over_cap_raise": "a raise above the HCF-4 cap accepted and settled in full",
    "dp_rotation_skip": "the designated player moves past a seat that did not decline",
    "sweetheart": "table-level SURV-2 scenario: the table's first dealer overpays the wins "
    "of the player first seated at seat 1 (never leaves while the dealer returns after "
    "each relief); on the first HCF table of the log only",
}

# Faults that are a table-level scenario, not a per-hand accident: injected on every hand
# the scenario applies to (not at ``fault_rate``), and by the log runner on one table only
# (services.simulator.run), so the other tables are the control.
TABLE_SCENARIOS: frozenset[str] = frozenset({"sweetheart"})

# Finding codes that count as detecting each fault.
DETECTED_BY: dict[str, list[str]] = {
    "mispay": ["MISPAY"],
    "wrong_rake": ["RAKE_OVER", "RAKE_UNDER"],
    "dead_hand_paid": ["DEAD_HAND_SETTLED", "MISPAY"],
    "past_posting": ["PAST_POSTING"],
    "card_count": ["CARD_COUNT"],
    "duplicate_card": ["DUPLICATE_CARD"],
    "chips_mid_hand": ["CHIPS_DURING_HAND"],
    "over_cap_raise": ["RAISE_OVER_CAP"],
    "dp_rotation_skip": ["DP_ROTATION_SKIP"],
    # Per hand the overpayment is a MISPAY; across hands SURV-2 names the dealer and the
    # player, and SURV-8 may flag the same dealer's (or table's) mispay rate.
    "sweetheart": ["MISPAY", "SWEETHEARTING", "PROCEDURE_DRIFT"],
}

SEATS = 7
ANTES = (5, 10, 25)
MIN_WAGER, MAX_WAGER = 5, 500
DP_MIN_STACK = 300
BONUS_CAP = 500
RAKE_MODES = ("all", "players", "designated")
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


class HcfTable:
    """One simulated table: its players, DP rotation and rake, hand after hand."""

    def __init__(self, stream: TableStream, rng: random.Random, index: int,
                 profile: RuleProfile) -> None:
        self.stream, self.rng, self.index = stream, rng, index
        self.profile_name = profile.name
        self.profile = profile.section("hcf", HcfProfile)
        self.mode = RAKE_MODES[index % 3]
        self.fee = 1 + index % 2
        self.cap = BONUS_CAP if index % 2 == 0 else None
        self.players: dict[int, Player] = {}
        self.dp: int | None = None
        self.dealer = f"D{index}-1"
        self.dealers = 1
        self.joined = 0
        self.hand_no = 0
        self.sweetheart: Sweetheart | None = None

    # ---------------------------------------------------------------- table level

    def open(self) -> None:
        limits: dict[str, Any] = {"min_wager": MIN_WAGER, "max_wager": MAX_WAGER}
        if self.cap is not None:
            limits["bonus_cap_per_hand"] = self.cap
        self.stream.emit("table_configured", {
            "game": "hcf", "limits": limits, "rake": {"mode": self.mode, "fee": self.fee},
            "rule_profile": self.profile_name, "authorized_by": f"supervisor-{self.index % 4 + 1}"})
        for seat in range(1, SEATS + 1):
            if seat == 1 or self.rng.random() < 0.8:
                self._seat(seat)

    def _seat(self, seat: int) -> None:
        rng = self.rng
        self.joined += 1
        ante = rng.choice(ANTES)
        player = Player(player_id=f"P{self.index}-{self.joined}",
                        stack=rng.randint(20, 120) * ante, ante=ante,
                        bonus=rng.choice((MIN_WAGER, ante)),
                        flush_rate=rng.choice((0.0, 0.3, 0.7)),
                        sf_rate=rng.choice((0.0, 0.2, 0.5)), timid=rng.random() < 0.2)
        self.players[seat] = player
        self.stream.emit("player_seated", {"seat": seat, "player_id": player.player_id,
                                           "stack": player.stack})

    def _leave(self, seat: int) -> None:
        player = self.players.pop(seat)
        self.stream.emit("player_left", {"seat": seat, "player_id": player.player_id,
                                         "stack": player.stack})

    def between_hands(self) -> None:
        """Dealer changes, players leaving, joining and buying in (never mid-hand)."""
        rng = self.rng
        self.stream.advance(rng.randint(20, 90))
        if rng.random() < 0.02:
            self.dealer = self._next_dealer()
            self.stream.emit("dealer_changed", {"dealer_id": self.dealer})
        for seat in sorted(self.players):
            if seat != self.dp and rng.random() < 0.01 and not self.is_friend(seat):
                self._leave(seat)
        for seat in range(1, SEATS + 1):
            if seat not in self.players and rng.random() < 0.05:
                self._seat(seat)
        while len(self.players) < 3:
            self._seat(min(s for s in range(1, SEATS + 1) if s not in self.players))
        for seat, player in sorted(self.players.items()):
            if player.stack < player.needs(self.fee):
                buy_in_to(self.stream, seat, player, player.needs(self.fee) * 5)

    def _next_dealer(self) -> str:
        """A new dealer; at a sweetheart table the sweetheart returns after each relief
        (dealers rotate between tables and come back), so the scenario spans the day."""
        sweet = self.sweetheart
        if sweet is not None and self.dealer != sweet.dealer:
            return sweet.dealer
        self.dealers += 1
        return f"D{self.index}-{self.dealers}"

    def is_friend(self, seat: int) -> bool:
        """The sweetheart's friend stays as long as the table runs (checked after the
        rng draw, so the draws are those of a table without the scenario)."""
        sweet = self.sweetheart
        return sweet is not None and self.players[seat].player_id == sweet.friend

    def rotate_dp(self, skip: bool) -> int | None:
        """HCF-2: offer the DP clockwise from the previous one; returns a skipped seat."""
        previous = self.dp
        seats = sorted(self.players)
        start = previous if previous is not None else 0
        ring = [s for s in seats if s > start] + [s for s in seats if s <= start]
        if previous in ring:
            ring.remove(previous)
        skipped: int | None = None
        if skip and previous is not None and ring:
            skipped = ring.pop(0)
        for seat in ring:
            accepts = self.players[seat].stack >= DP_MIN_STACK and self.rng.random() >= 0.15
            self.stream.emit("designated_player_offer", {"seat": seat, "accepted": accepts})
            if accepts:
                self.dp = seat
                return skipped
        if previous is not None and previous in self.players:
            chosen = previous
        else:
            chosen = max(ring, key=lambda s: (self.players[s].stack, -s))
        self.stream.emit("designated_player_offer", {"seat": chosen, "accepted": True})
        self.dp = chosen
        return skipped

    # ---------------------------------------------------------------- one hand

    def play_hand(self, fault: str | None) -> list[TruthLabel]:
        self.hand_no += 1
        skipped = self.rotate_dp(fault == "dp_rotation_skip")
        assert self.dp is not None
        hand = Hand(f"{self.stream.table_id}-{self.hand_no:06d}", self.dp)
        if skipped is not None:
            self._label(hand, "dp_rotation_skip", skipped,
                        f"DP moved to seat {self.dp} past seat {skipped} without an offer")
        _HandPlay(self, hand, fault).run()
        self._publish(hand)
        return hand.labels

    def _label(self, hand: Hand, fault: str, seat: int | None, detail: str) -> None:
        hand.labels.append(TruthLabel(table_id=self.stream.table_id, hand_id=hand.hand_id,
                                      fault=fault, codes=list(DETECTED_BY[fault]), seat=seat,
                                      detail=detail))

    def _publish(self, hand: Hand) -> None:
        """Emit the hand's events and move the stacks exactly as the events say."""
        layouts: dict[int, int] = {}
        left: list[int] = []
        for type_, data, table_level in hand.events:
            self.stream.emit(type_, data, hand_id=None if table_level else hand.hand_id,
                             max_ms=1500)
            seat: int = data.get("seat", 0)
            if type_ == "wager":
                self.players[seat].stack -= data["amount"]
                layouts[seat] = layouts.get(seat, 0) + data["amount"]
            elif type_ == "wager_collected":
                layouts[seat] -= data["amount"]
                self.players[hand.dp].stack += data["amount"]
            elif type_ == "payout":
                self.players[seat].stack += data["amount"]
                self.players[hand.dp].stack -= data["amount"]
            elif type_ == "rake_collected":
                self.players[seat].stack -= data["amount"]
            elif type_ == "chips_changed":
                self.players[seat].stack += data["amount"]
            elif type_ == "player_left":
                left.append(seat)
        for seat, amount in layouts.items():
            self.players[seat].stack += amount
        for seat in left:
            del self.players[seat]


class _HandPlay:
    """The course of one hand at the table, faults included."""

    def __init__(self, table: HcfTable, hand: Hand, fault: str | None) -> None:
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
        self.t._label(self.hand, fault, seat, detail)

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


def simulate_table(
    stream: TableStream,
    hands: int,
    rng: random.Random,
    faults: frozenset[str],
    fault_rate: float,
    table_index: int,
    profile: RuleProfile,
) -> list[TruthLabel]:
    """Emit ``hands`` hands of High Card Flush at one table; returns the injected faults.

    Faults this module does not know (the runner's stream-level ``tamper``) are not ours to
    inject and are ignored here.
    """
    table = HcfTable(stream, rng, table_index, profile)
    if "sweetheart" in faults:
        # The table's first dealer and the first player seated (seat 1 is always taken
        # at opening): no draw from ``rng``, so the table is otherwise the same.
        table.sweetheart = Sweetheart(f"D{table_index}-1", f"P{table_index}-1")
    table.open()
    labels: list[TruthLabel] = []
    chosen = sorted(faults & (FAULTS.keys() - TABLE_SCENARIOS))
    for _ in range(hands):
        table.between_hands()
        fault = rng.choice(chosen) if chosen and rng.random() < fault_rate else None
        labels += table.play_hand(fault)
    return labels
