"""Simulated Texas Hold'em tables: realistic play, dealing irregularities, truth labels.

Players act on the shared betting engine's legal options with a simple strength-based
strategy (fold weak hands to bets, call and raise good ones, bluff now and then), in
no-limit, pot-limit or fixed-limit games with blinds (and antes at some tables), and the
table records every chip as a pot table does: posts and bets into the pot, the rake taken
from the pot per the posted mode (GEN-10), uncalled bets refunded, pots paid out.

Dealing irregularities happen now and then (``IRREGULARITY_RATE``) and the dealer
handles them *correctly* (TH-3: a later exposed card replaced and burned, a first or
second exposed card a misdeal; TH-4/TH-5: a four-card or premature flop redealt; TH-6: a
premature turn set aside and reshuffled; TH-7: an extra card burned, two extra cards a
misdeal): those hands carry no label and must come out ``ok`` (or ``dead`` after a
misdeal). Injected faults are irregularities handled *incorrectly*, or settlement errors;
each is labelled with the finding codes that detect it.

The settlement (side pots, odd chip, rake: ``holdem_settlement``) is written independently
of the game module on purpose: the simulator is the table the adjudicator audits, so a mistake
shared by both would hide itself. The legal betting options come from the shared
engine, which the adjudicator uses to judge betting.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from services.events.contract import TableConfigured, event_from_builtins
from services.events.stream import TableStream
from services.games.betting import BettingHand, clockwise_after
from services.games.cards import STANDARD_DECK
from services.games.evaluation.standard import best_rank
from services.games.holdem.betting import betting_config
from services.games.holdem.profile import SECTION, HoldemProfile
from services.games.profile import RuleProfile
from services.simulator.buy_in import buy_in_to
from services.simulator.holdem_options import (
    HoldemExtras,
    decide,
    extras_for,
    finish_hand,
    start_hand,
)
from services.simulator.holdem_settlement import settle_independently
from services.simulator.holdem_strategy import hole_strength, made_strength
from services.simulator.options import LEGACY, TableOptions
from services.simulator.truth import TruthLabel

FAULTS: dict[str, str] = {
    "first_card_exposed_played_on": "the first hole card dealt is exposed and the hand is "
    "played on (MISDEAL_REQUIRED, TH-3)",
    "two_exposed_played_on": "two hole cards exposed and the hand is played on "
    "(MISDEAL_REQUIRED, TH-3)",
    "exposed_card_kept": "a later exposed hole card stays with the player "
    "(EXPOSED_CARD_NOT_REPLACED, TH-3)",
    "exposed_card_fresh_burn": "the exposed card is replaced but another card is burned "
    "before the flop (EXPOSED_CARD_NOT_BURNED, TH-3)",
    "unneeded_misdeal": "a misdeal is declared for one later exposed card "
    "(MISDEAL_NOT_REQUIRED, TH-3)",
    "four_card_flop_kept": "a four-card flop: the extra card is put back and the flop "
    "played (FLOP_NOT_REDEALT, TH-4)",
    "premature_flop_kept": "the flop dealt before the pre-flop betting was complete is "
    "played (FLOP_NOT_REDEALT, TH-5)",
    "redeal_with_burn": "a flop is redealt after a fresh burn (EXTRA_BURN, TH-5)",
    "premature_turn_kept": "a premature turn card stays as the turn "
    "(PREMATURE_TURN_NOT_SET_ASIDE, TH-6)",
    "river_burned_after_premature_turn": "the river is burned after a premature turn "
    "(EXTRA_BURN, TH-6)",
    "set_aside_not_reshuffled": "the set-aside turn card is not shuffled back before the "
    "river (SET_ASIDE_NOT_RESHUFFLED, TH-6)",
    "extra_card_kept": "the first player keeps an extra hole card "
    "(EXTRA_CARD_NOT_BURNED, TH-7)",
    "missing_burn": "the turn is dealt without a burn (MISSING_BURN, TH-1)",
    "mispay": "a pot winner is paid one chip too many or too few (MISPAY)",
    "odd_chip_wrong": "a split pot's odd chip goes to the wrong winner (MISPAY, TH-9)",
    "side_pot_to_best_hand": "every pot, side pots included, goes to the best hand "
    "(MISPAY, TH-9)",
    "misdeal_blinds_kept": "after a misdeal the big blind is not returned (MISPAY, GEN-6)",
    "rake_over": "one chip more rake than posted (RAKE_OVER, GEN-10)",
}

FAULT_CODES: dict[str, list[str]] = {
    "first_card_exposed_played_on": ["MISDEAL_REQUIRED"],
    "two_exposed_played_on": ["MISDEAL_REQUIRED"],
    "exposed_card_kept": ["EXPOSED_CARD_NOT_REPLACED"],
    "exposed_card_fresh_burn": ["EXPOSED_CARD_NOT_BURNED"],
    "unneeded_misdeal": ["MISDEAL_NOT_REQUIRED"],
    "four_card_flop_kept": ["FLOP_NOT_REDEALT"],
    "premature_flop_kept": ["FLOP_NOT_REDEALT"],
    "redeal_with_burn": ["EXTRA_BURN"],
    "premature_turn_kept": ["PREMATURE_TURN_NOT_SET_ASIDE"],
    "river_burned_after_premature_turn": ["EXTRA_BURN"],
    "set_aside_not_reshuffled": ["SET_ASIDE_NOT_RESHUFFLED"],
    "extra_card_kept": ["EXTRA_CARD_NOT_BURNED"],
    "missing_burn": ["MISSING_BURN"],
    "mispay": ["MISPAY"],
    "odd_chip_wrong": ["MISPAY"],
    "side_pot_to_best_hand": ["MISPAY"],
    "misdeal_blinds_kept": ["MISPAY"],
    "rake_over": ["RAKE_OVER"],
}

# The irregularity each dealing fault mishandles (settlement faults need none).
FAULT_IRREGULARITY: dict[str, str] = {
    "first_card_exposed_played_on": "first_card_exposed",
    "two_exposed_played_on": "two_exposed",
    "exposed_card_kept": "exposed_card",
    "exposed_card_fresh_burn": "exposed_card",
    "unneeded_misdeal": "exposed_card",
    "four_card_flop_kept": "four_card_flop",
    "premature_flop_kept": "premature_flop",
    "redeal_with_burn": "four_card_flop",
    "premature_turn_kept": "premature_turn",
    "river_burned_after_premature_turn": "premature_turn",
    "set_aside_not_reshuffled": "premature_turn",
    "extra_card_kept": "extra_card",
    "misdeal_blinds_kept": "first_card_exposed",
}

IRREGULARITIES = ("first_card_exposed", "two_exposed", "exposed_card", "four_card_flop",
                  "premature_flop", "premature_turn", "extra_card", "two_extra_cards")
IRREGULARITY_RATE = 0.04  # hands with a dealing irregularity handled correctly

STRUCTURES = ("no", "fixed", "pot")
BLINDS = ((1, 2), (5, 10), (25, 50))
RAKE_MODES = ("none", "all", "players", "designated")
SEATS = 9
PLAYERS_PER_TABLE = (2, 8)
BUY_IN = 100  # in big blinds
TOP_UP_BELOW = 20  # in big blinds

EventSpec = tuple[str, dict[str, Any]]


@dataclass
class Player:
    seat: int
    player_id: str
    stack: int


@dataclass
class Table:
    stream: TableStream
    config: TableConfigured
    players: list[Player]
    prof: HoldemProfile
    button: int = 0
    options: TableOptions = LEGACY
    extras: HoldemExtras | None = None  # styles and patterns, when asked for
    # The table's own dealer when the floor has no dealer pool: one per table, as draw7a's
    # (``dealer-<table>-1``). Every hold'em table once had "dealer-1" at the same time,
    # which the daily report's dealers and SURV-8's dealer scope read as one person (QA).
    dealer: str = "dealer-1"


# ---------------------------------------------------------------- one hand


class HandRun:
    """One hand as the dealer runs it; ``irregularity`` happens where it fits, handled
    correctly unless ``fault`` says how it goes wrong."""

    def __init__(self, table: Table, rng: random.Random, irregularity: str | None,
                 fault: str | None) -> None:
        self.table = table
        self.rng = rng
        self.irregularity = irregularity
        self.fault = fault
        self.applied: tuple[int | None, str] | None = None
        self.events: list[EventSpec] = []
        self.deck = list(STANDARD_DECK)
        rng.shuffle(self.deck)
        self.players = [p for p in table.players if p.stack > 0]
        self.seats = [p.seat for p in self.players]
        self.button = table.button
        stacks = {p.seat: p.stack for p in self.players}
        self.engine = BettingHand(betting_config(table.config, table.prof), stacks, self.button)
        self.hole: dict[int, list[str]] = {s: [] for s in self.seats}
        self.board: list[str] = []
        self.flop_burn_due = True
        self.dead = False
        self.posted: dict[int, int] = {}
        self.pending_flop: list[str] | None = None  # TH-5: dealt too early, to redeal
        self.turn_kept = False  # TH-6 fault: the premature turn stayed as the turn
        self.set_aside: str | None = None  # TH-6: the premature turn card set aside
        self.exposed_burned: tuple[int, str] | None = None  # TH-3: card used as the burn
        self.actions_in = [0, 0, 0, 0]  # betting actions per street
        self.hand_id = ""

    # -------------------------------------------------------------- recording

    def emit(self, type_: str, **data: Any) -> None:
        self.events.append((type_, data))

    def act(self, seat: int, kind: str, chips: int) -> None:
        data: dict[str, Any] = {"seat": seat, "action": kind}
        if chips:
            data["amount"] = chips
        self.events.append(("action", data))
        self.engine.apply(seat, kind, chips or None)

    def dealt(self, to: str, card: str, seat: int | None = None, face_up: bool = False) -> None:
        data: dict[str, Any] = {"to": to, "card": card, "face_up": face_up}
        if seat is not None:
            data["seat"] = seat
        self.events.append(("card_dealt", data))

    def mark(self, seat: int | None, detail: str) -> None:
        self.applied = (seat, detail)

    def wants(self, fault: str) -> bool:
        return self.fault == fault and self.applied is None

    def happens(self, irregularity: str) -> bool:
        return self.irregularity == irregularity

    # -------------------------------------------------------------- the hand

    def run(self) -> None:
        self._post()
        self._deal()
        if self.dead:
            return
        for street in range(4):
            if street:
                self._deal_street(street)
            self._betting(street)
            if self.engine.hand_over():
                break
            if street < 3:
                self.engine.next_round()
        self._showdown_and_pay()

    def _post(self) -> None:
        """TH-1: antes, then the blinds (the engine says who owes what)."""
        for post in self.engine.owed_posts():
            self.act(post.seat, post.kind, post.amount)
            self.posted[post.seat] = self.posted.get(post.seat, 0) + post.amount

    def _deal(self) -> None:
        """Two cards each, one at a time, clockwise from the button's left; TH-3/TH-7
        irregularities happen here."""
        order = clockwise_after(self.seats, self.button)
        exposed = self._exposed_indexes(len(order) * 2)
        for index in range(len(order) * 2):
            seat = order[index % len(order)]
            card = self.deck.pop()
            self.hole[seat].append(card)
            self.dealt("seat", card, seat, face_up=index in exposed)
        if exposed:
            self._after_exposure(order, exposed)
        elif self.happens("extra_card") or self.happens("two_extra_cards"):
            self._extra_cards(order)

    def _exposed_indexes(self, count: int) -> set[int]:
        if self.happens("first_card_exposed"):
            return {0}
        if self.happens("two_exposed"):
            return set(self.rng.sample(range(1, count), 2))
        if self.happens("exposed_card"):
            return {self.rng.randrange(1, count)}
        return set()

    def _after_exposure(self, order: list[int], exposed: set[int]) -> None:
        """TH-3: first or two exposed: misdeal; one later card: replace and burn it."""
        if 0 in exposed or len(exposed) >= 2:
            wrong = "first_card_exposed_played_on" if 0 in exposed else "two_exposed_played_on"
            if self.wants(wrong):
                self.mark(order[0], "hand played on after a misdeal was required")
                return
            self._misdeal("exposed hole cards")
            return
        index = next(iter(exposed))
        seat = order[index % len(order)]
        card = self.hole[seat][index // len(order)]
        if self.wants("unneeded_misdeal"):
            self.mark(seat, f"misdeal for the single exposed {card}")
            self._misdeal("exposed card")
            return
        if self.wants("exposed_card_kept"):
            self.mark(seat, f"seat {seat} kept the exposed {card}")
            return
        self.hole[seat].remove(card)
        self.emit("card_moved", card=card, **{"from": f"seat:{seat}"}, to="burn")
        replacement = self.deck.pop()
        self.hole[seat].append(replacement)
        self.dealt("seat", replacement, seat)
        self.flop_burn_due = False
        self.exposed_burned = (seat, card)

    def _extra_cards(self, order: list[int]) -> None:
        """TH-7: one extra card to the first player becomes the burn; two: misdeal."""
        first = order[0]
        extra = self.deck.pop()
        self.dealt("seat", extra, first)
        if self.happens("two_extra_cards"):
            self.dealt("seat", self.deck.pop(), order[1 % len(order)])
            self._misdeal("two extra cards dealt")
            return
        if self.wants("extra_card_kept"):
            self.mark(first, f"seat {first} kept the extra {extra}")
            self.hole[first].append(extra)
            return
        self.emit("card_moved", card=extra, **{"from": f"seat:{first}"}, to="burn")
        self.flop_burn_due = False

    def _misdeal(self, reason: str) -> None:
        """GEN-6: the hand is dead, every post goes back."""
        self.dead = True
        self.emit("misdeal", reason=reason)
        for seat, amount in sorted(self.posted.items()):
            if self.wants("misdeal_blinds_kept") and amount == max(self.posted.values()):
                self.mark(seat, f"seat {seat}'s {amount} not returned after the misdeal")
                self.emit("rake_collected", seat=None, amount=amount, **{"from": "pot"})
                continue
            self.emit("payout", seat=seat, amount=amount, source="pot", kind="refund")

    # -------------------------------------------------------------- board

    def _burn(self) -> None:
        self.dealt("burn", self.deck.pop())

    def _deal_street(self, street: int) -> None:
        if street == 1:
            self._flop()
        elif street == 2:
            if self.turn_kept:
                self.mark(None, f"premature turn {self.board[3]} kept as the turn")
                return
            if self.wants("missing_burn") and self.actions_in[1]:
                # Only after flop betting: with no action between them, a flop and a
                # turn without a burn read as one four-card flop (TH-4).
                self.mark(None, "turn dealt without a burn")
            else:
                self._burn()
            self._board(1)
        else:
            self._river()

    def _board(self, count: int) -> list[str]:
        cards = [self.deck.pop() for _ in range(count)]
        for card in cards:
            self.dealt("board", card, face_up=True)
        self.board += cards
        return cards

    def _flop(self) -> None:
        if self.pending_flop is not None:
            self._deal_pending_flop(self.pending_flop)
            return
        if self.exposed_burned is not None and self.wants("exposed_card_fresh_burn"):
            seat, card = self.exposed_burned
            self.mark(seat, f"{card} burned, and another burn at the flop")
            self.flop_burn_due = True
        if self.flop_burn_due:
            self._burn()
        if self.happens("four_card_flop"):
            cards = self._board(4)
            if self.wants("four_card_flop_kept"):
                self.mark(None, f"{cards[3]} put back, the flop played")
                self._return_to_stub([cards[3]], reshuffle=False)
                return
            self._redeal(cards)
            return
        self._board(3)

    def _redeal(self, cards: list[str]) -> None:
        """TH-5: the flop cards back into the stub, the burn stays, a new flop with no
        burn."""
        self._return_to_stub(cards, reshuffle=True)
        if self.wants("redeal_with_burn"):
            self.mark(None, "a burn before the redealt flop")
            self._burn()
        self._board(3)

    def _return_to_stub(self, cards: list[str], reshuffle: bool) -> None:
        """The cards are taken off the board into the stub (and the stub shuffled: only
        cards nobody holds any more can be reshuffled, GEN-1)."""
        for card in cards:
            self.board.remove(card)
            self.emit("card_moved", card=card, **{"from": "board"}, to="stub")
        if reshuffle:
            self.emit("stub_reshuffled", cards=list(cards), reason="flop redealt")
        self.deck += cards
        self.rng.shuffle(self.deck)

    def _river(self) -> None:
        if self.set_aside is not None:
            # Only after turn betting: with no action and no reshuffle between them, the
            # turn and an unburned river read as one two-card turn (TH-1).
            if self.wants("set_aside_not_reshuffled") and self.actions_in[2]:
                self.mark(None, f"set-aside {self.set_aside} not reshuffled")
            else:
                self.emit("stub_reshuffled", cards=[self.set_aside], reason="TH-6")
                self.deck.append(self.set_aside)
                self.rng.shuffle(self.deck)
            if self.wants("river_burned_after_premature_turn"):
                self.mark(None, "river burned after a premature turn")
                self._burn()
        else:
            self._burn()
        self._board(1)

    # -------------------------------------------------------------- betting

    def _betting(self, street: int) -> None:
        acted = 0
        while True:
            options = self.engine.legal_actions()
            if options is None:
                break
            if acted and self._premature(street):
                continue
            strength = (hole_strength(self.hole[options.seat]) if street == 0 else
                        made_strength(self.hole[options.seat], self.board))
            kind, chips = decide(self, options, min(strength, 1.0))
            self.act(options.seat, kind, chips)
            acted += 1
        self.actions_in[street] = acted

    def _premature(self, street: int) -> bool:
        """A street dealt before the betting round is over (TH-5, TH-6); True if it
        happened now (the round then goes on)."""
        if street == 0 and self.happens("premature_flop") and not self.board:
            if self.flop_burn_due:
                self._burn()
            self.pending_flop = self._board(3)
            self.irregularity = None
            return True
        if street == 1 and self.happens("premature_turn") and len(self.board) == 3:
            self._burn()
            card = self._board(1)[0]
            self.irregularity = None
            if self.wants("premature_turn_kept"):
                self.turn_kept = True  # labelled once the turn is played (_deal_street)
                return True
            self.board.remove(card)
            self.emit("card_moved", card=card, **{"from": "board"}, to="set_aside")
            self.set_aside = card
            return True
        return False

    def _deal_pending_flop(self, cards: list[str]) -> None:
        """After a premature flop: redeal it (or keep it, as a fault)."""
        self.pending_flop = None
        if self.wants("premature_flop_kept"):
            self.mark(None, "premature flop played")
            return
        self._redeal(cards)

    # -------------------------------------------------------------- settlement

    def _showdown_and_pay(self) -> None:
        contenders = self.engine.active()
        if len(contenders) > 1:
            self._show(contenders)
        contributions = self.engine.contributions()
        folded = self.engine.folded()
        ranks = {s: best_rank([*self.hole[s], *self.board]) for s in contenders
                 if len(contenders) > 1 and len(self.hole[s]) == 2}
        fee_from = self.table.prof.rake.fee_from
        behind = {seat: st.stack for seat, st in self.engine.seats.items()}
        pay = settle_independently(contributions, folded, ranks, self.button,
                                   self.table.config, fee_from, behind, self.rng, self,
                                   self.table.prof.rake.all_charges_button)
        if fee_from == "pot":  # GEN-10: a fee from the pot comes off the top
            self._emit_rake(pay.rake, fee_from)
        for seat, amount in sorted(pay.refunds.items()):
            self.emit("payout", seat=seat, amount=amount, source="pot", kind="refund")
        for seat, amount in sorted(pay.won.items()):
            if amount > 0:
                self.emit("payout", seat=seat, amount=amount, source="pot", kind="pot")
        if fee_from == "stack":  # a participation fee from the payer's own chips, after
            self._emit_rake(pay.rake, fee_from)

    def _emit_rake(self, rake: dict[int, int], fee_from: str) -> None:
        for seat, amount in rake.items():
            self.emit("rake_collected", seat=seat, amount=amount, **{"from": fee_from})

    def _show(self, contenders: list[int]) -> None:
        """TH-9: the last aggressor first (else left of the button), then clockwise;
        everyone shows (cards speak)."""
        order = self.engine.showdown_order()
        for seat in order:
            if seat in contenders:
                self.emit("showdown", seat=seat, cards=list(self.hole[seat]))


# ---------------------------------------------------------------- the table


def table_configuration(table_index: int, profile_name: str) -> dict[str, Any]:
    structure = STRUCTURES[table_index % len(STRUCTURES)]
    small, big = BLINDS[table_index % len(BLINDS)]
    limits: dict[str, Any] = {"min_wager": big, "max_wager": big * 400, "small_blind": small,
                              "big_blind": big}
    if structure == "fixed":
        limits.update(small_bet=big, big_bet=2 * big)
    if table_index % 5 == 4:
        limits["ante"] = max(small // 2, 1)
    mode = RAKE_MODES[table_index % len(RAKE_MODES)]
    return {"game": "holdem", "limits": limits, "structure": structure,
            "rake": {"mode": mode, "fee": 0 if mode == "none" else 1},
            "rule_profile": profile_name, "authorized_by": f"supervisor-{table_index % 3 + 1}"}


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
    """``hands`` hands of one hold'em table; returns the injected faults' labels (and
    those of the patterns it hosts)."""
    raw = stream.emit("table_configured", table_configuration(table_index, profile.name))
    config = event_from_builtins(raw).data
    assert isinstance(config, TableConfigured)
    big = config.limits.big_blind or 2
    count = options.players or rng.randint(*PLAYERS_PER_TABLE)
    players = [Player(seat, f"{stream.table_id}-P{seat}", big * BUY_IN)
               for seat in sorted(rng.sample(range(1, SEATS + 1), count))]
    for p in players:
        stream.emit("player_seated", {"seat": p.seat, "player_id": p.player_id,
                                      "stack": p.stack})
    prof = profile.section(SECTION, HoldemProfile)
    table = Table(stream, config, players, prof, button=players[0].seat, options=options,
                  extras=extras_for(options, stream.table_id,
                                    [(p.seat, p.player_id) for p in players]),
                  dealer=f"dealer-{table_index + 1}-1")
    usable = sorted(faults & set(FAULTS))
    labels: list[TruthLabel] = []
    for number in range(1, hands + 1):
        _top_up(stream, players, big)
        fault = rng.choice(usable) if usable and rng.random() < fault_rate else None
        irregularity = FAULT_IRREGULARITY.get(fault or "") or (
            rng.choice(IRREGULARITIES) if rng.random() < IRREGULARITY_RATE else None)
        hand_id = f"{stream.table_id}-{number:06d}"
        applied = _play_hand(table, hand_id, rng, irregularity, fault)
        if fault is not None and applied is not None:
            labels.append(TruthLabel(table_id=stream.table_id, hand_id=hand_id, fault=fault,
                                     codes=FAULT_CODES[fault], seat=applied[0],
                                     detail=applied[1]))
        seats = [p.seat for p in players]
        table.button = clockwise_after(seats, table.button)[0]
        stream.advance(rng.randint(5, 40))
    return labels + (table.extras.patterns.labels if table.extras else [])


def _top_up(stream: TableStream, players: list[Player], big_blind: int) -> None:
    for p in players:
        if p.stack < big_blind * TOP_UP_BELOW:
            buy_in_to(stream, p.seat, p, big_blind * BUY_IN)


def _play_hand(table: Table, hand_id: str, rng: random.Random, irregularity: str | None,
               fault: str | None) -> tuple[int | None, str] | None:
    run = HandRun(table, rng, irregularity, fault)
    run.hand_id = hand_id
    stream = table.stream
    dealer = table.options.dealer(stream, table.dealer)
    start_hand(run, dealer)
    run.run()
    finish_hand(run, dealer)
    stream.emit("hand_started", {
        "button": table.button, "designated_player": None, "dealer_id": dealer,
        "seats": [{"seat": p.seat, "player_id": p.player_id, "stack": p.stack}
                  for p in run.players],
        "deck": 52,
    }, hand_id=hand_id)
    for type_, data in run.events:
        stream.emit(type_, data, hand_id=hand_id)
    stream.emit("hand_ended", {}, hand_id=hand_id)
    _book(table.players, run.events)
    return run.applied


def _book(players: list[Player], events: list[EventSpec]) -> None:
    """Stacks after the hand, from the chips the table moved."""
    by_seat = {p.seat: p for p in players}
    for type_, data in events:
        seat = data.get("seat")
        if seat not in by_seat:
            continue
        if type_ == "action":
            by_seat[seat].stack -= data.get("amount", 0)
        elif type_ == "payout":
            by_seat[seat].stack += data["amount"]
        elif type_ == "rake_collected" and data["from"] == "stack":
            by_seat[seat].stack -= data["amount"]
