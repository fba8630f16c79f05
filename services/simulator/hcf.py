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

This module is the table across hands; one hand is played by ``hcf_hand``, whose
settlement is written independently of ``services.games.hcf`` (sharing only the card
evaluation and the profile data), so the property test that clean simulated hands
adjudicate without findings cross-checks two implementations of the rules.
"""

from __future__ import annotations

import random
from typing import Any

from services.events.stream import TableStream
from services.games.hcf.profile import HcfProfile
from services.games.profile import RuleProfile
from services.simulator.buy_in import buy_in_to
from services.simulator.hcf_hand import Hand, HandPlay, Player, Sweetheart
from services.simulator.options import LEGACY, TableOptions
from services.simulator.patterns import TablePatterns
from services.simulator.stacking import flush_hand
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


class HcfTable:
    """One simulated table: its players, DP rotation and rake, hand after hand."""

    def __init__(self, stream: TableStream, rng: random.Random, index: int,
                 profile: RuleProfile, options: TableOptions = LEGACY) -> None:
        self.stream, self.rng, self.index = stream, rng, index
        self.options = options
        self.patterns = TablePatterns(options, stream.table_id)
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
        self.patterns.seated(player.player_id)
        if self.patterns.active("stacked_deck") and self.joined == 1:
            player.flush_rate = 1.0  # the cheat plays the flush bonus its stacked cards win
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
        if rng.random() < 0.02 and self.options.pool is None:
            self.dealer = self._next_dealer()
            self.stream.emit("dealer_changed", {"dealer_id": self.dealer})
        elif self.options.dealer(self.stream, self.dealer) != self.dealer:  # the pool's
            self.dealer = self.options.dealer(self.stream, self.dealer)
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
        player = self.players[seat].player_id
        if self.options.patterns and player == self.patterns.player(0):
            return True  # a pattern's friend or cheat stays too
        return sweet is not None and player == sweet.friend

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
            self.label_fault(hand, "dp_rotation_skip", skipped,
                        f"DP moved to seat {self.dp} past seat {skipped} without an offer")
        self.patterns.dealing(self.dealer)
        HandPlay(self, hand, fault).run()
        seats = {s: p.player_id for s, p in self.players.items()}
        self.patterns.edit_payouts(hand.hand_id, self.dealer, seats, hand.events)
        self._publish(hand)
        return hand.labels

    def stack_deck(self, hand: Hand, cards: dict[int, list[str]],
                   flush_bonus: set[int]) -> None:
        """The ``stacked_deck`` pattern: the cheat, playing the flush bonus, is dealt a
        flush of five of its seven cards (of cards nobody else was dealt)."""
        cheat = self.patterns.player(0)
        seat = next((s for s, p in self.players.items() if p.player_id == cheat), None)
        if (seat is None or seat not in flush_bonus or len(cards.get(seat, ())) != 7
                or not self.patterns.active("stacked_deck")
                or self.patterns.rng.random() >= self.patterns.strength("stacked_deck")):
            return
        taken = [c for s, held in cards.items() if s != seat for c in held]
        stacked = flush_hand(self.patterns.rng, 7, 5, taken)
        if stacked is None:
            return
        cards[seat] = stacked
        self.patterns.label("stacked_deck", hand.hand_id, seat,
                            f"seat {seat} dealt {' '.join(cards[seat])}", [cheat or ""])

    def label_fault(self, hand: Hand, fault: str, seat: int | None, detail: str) -> None:
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
    """Emit ``hands`` hands of High Card Flush at one table; returns the injected faults
    (and the labels of the patterns it hosts).

    Faults this module does not know (the runner's stream-level ``tamper``) are not ours to
    inject and are ignored here.
    """
    table = HcfTable(stream, rng, table_index, profile, options)
    table.dealer = options.dealer(stream, table.dealer)
    if "sweetheart" in faults:
        # The table's first dealer (the pool's, with --dealers: the table's own name there
        # dealt nothing, and the scenario injected nothing, QA) and the first player
        # seated (seat 1 is always taken at opening): no draw from ``rng``, so the table
        # is otherwise the same.
        table.sweetheart = Sweetheart(table.dealer, f"P{table_index}-1")
    table.open()
    labels: list[TruthLabel] = []
    chosen = sorted(faults & (FAULTS.keys() - TABLE_SCENARIOS))
    for _ in range(hands):
        table.between_hands()
        fault = rng.choice(chosen) if chosen and rng.random() < fault_rate else None
        labels += table.play_hand(fault)
    return labels + table.patterns.labels
