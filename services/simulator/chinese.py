"""Chinese Poker table simulator (``pitwatch simulate --game chinese``).

Plays realistic hands on a four-seat table: players buy in (20 to 60 points), re-buy or
short-buy when low, come and go (a new player never takes the button or the first hand),
receive 13 cards each from one shuffled deck (dead hands for empty seats), set them the
way a sensible player does (best five in the back, best five of the rest in the middle)
and sometimes foul, declare automatic wins when the cards make one (most of the time),
and the table settles point payments clockwise from the button with the house rake.

Faults are injected at ``fault_rate`` per hand, each labelled with the finding codes that
count as detecting it. A fault is only labelled when it really changes what the table
recorded (e.g. ignoring a stack cap that did not bind changes nothing, so it is not
injected in that hand). The table's correct settlement is the simulator's own
(``chinese_settlement``, written from rules.md apart from the adjudicator's), so clean
play adjudicating with no finding is evidence that both are right, not that one piece of
code agrees with itself.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from services.events.stream import TableStream
from services.games.cards import STANDARD_DECK
from services.games.chinese import evaluation as cp_eval
from services.games.chinese.profile import AutoWin, ChineseProfile, Scoring, chinese_profile
from services.games.chinese.reading import may_hold_auto_win
from services.games.evaluation import fast
from services.games.profile import RuleProfile
from services.simulator.chinese_options import edit_transfers
from services.simulator.chinese_settlement import (
    Payment,
    TableSettlement,
    Verdict,
    fees,
    payment_order,
    settle_table,
)
from services.simulator.options import LEGACY, TableOptions
from services.simulator.patterns import TablePatterns
from services.simulator.truth import TruthLabel

FAULTS: dict[str, str] = {
    "mispaid_points": "one point payment between two seats is off by one point value",
    "wrong_rake": "one seat's rake differs from the posted fee (or rake taken at a no-rake "
                  "table)",
    "foul_not_penalised": "a hand set in the wrong order is settled as if it were valid",
    "false_autowin_paid": "a player declares an automatic win its cards do not make and "
                          "is paid for it",
    "stack_cap_ignored": "a winner is paid more from an opponent than its own starting stack",
    "hand_opened_early": "a hand is opened before the last player has set",
    "misdeal_not_called": "the dealer exposes five cards of a hand and play goes on",
    "new_player_on_button": "a player who just sat down is given the button",
    "buy_in_below_minimum": "a new player sits down with less than 20 points in chips",
    "chips_added_during_hand": "a player adds chips to the table during a hand",
}

SEATS = (1, 2, 3, 4)
AUTO_KINDS: tuple[AutoWin, ...] = ("dragon", "six_pairs", "three_flushes", "three_straights")
RAKE_MODES = ("all", "players", "designated", "none")
POINT_VALUES = (1, 2, 5, 10, 25)
AUTO_DECLARE_RATE = 0.85
NATURAL_FOUL_RATE = 0.02
NATURAL_MISDEAL_RATE = 0.004
LEAVE_RATE = 0.02
ARRIVAL_RATE = 0.15
LOW_STACK_POINTS = 3


@dataclass
class Player:
    player_id: str
    stack: int
    short_buy_allowed: bool = False


@dataclass
class Table:
    table_id: str
    point_value: int
    rake_mode: str
    fee: int
    scoring: Scoring
    cp: ChineseProfile
    seats: dict[int, Player] = field(default_factory=dict)
    button: int | None = None
    hand_no: int = 0
    players_created: int = 0
    new_seats: set[int] = field(default_factory=set)
    options: TableOptions = LEGACY
    patterns: TablePatterns | None = None
    dealer: str = ""

    @property
    def minimum(self) -> int:
        return self.cp.buy_in.min_points * self.point_value


@dataclass
class SeatPlay:
    """What one participant does in a hand, and what the table believes of it."""

    seat: int
    cards: list[str]
    setting: tuple[list[str], list[str], list[str]] | None = None
    declared: AutoWin | None = None
    table_view: Verdict | None = None


@dataclass
class HandPlan:
    """The fault chosen for a hand (if any) and what the injection did."""

    fault: str | None
    seat: int | None = None
    injected: bool = False
    detail: str = ""


def simulate_table(stream: TableStream, hands: int, rng: random.Random,
                   faults: frozenset[str], fault_rate: float,
                   table_index: int, profile: RuleProfile,
                   options: TableOptions = LEGACY) -> list[TruthLabel]:
    """Emit ``table_configured``, the seating, then ``hands`` hands; return truth labels
    (the patterns' too)."""
    cp = chinese_profile(profile)
    point_value = rng.choice(POINT_VALUES)
    mode = RAKE_MODES[table_index % len(RAKE_MODES)]
    table = Table(stream.table_id, point_value, mode,
                  0 if mode == "none" else max(1, point_value // 2),
                  "standard" if table_index % 5 == 4 else "mandarin", cp, options=options,
                  patterns=TablePatterns(options, stream.table_id))
    stream.emit("table_configured", {
        "game": "chinese",
        "limits": {"min_wager": point_value, "max_wager": 100 * point_value,
                   "point_value": point_value},
        "scoring": table.scoring,
        "rake": {"mode": table.rake_mode, "fee": table.fee},
        "rule_profile": profile.name,
        "authorized_by": f"supervisor-{table_index % 3 + 1}",
    })
    for seat in rng.sample(SEATS, rng.randint(2, 4)):
        _seat_player(stream, table, rng, seat, rng.randint(20, 60) * point_value)
    labels: list[TruthLabel] = []
    fault_names = sorted(faults & set(FAULTS))
    pending: str | None = None
    for _ in range(hands):
        fault = rng.choice(fault_names) if fault_names and rng.random() < fault_rate else None
        plan = HandPlan(pending or fault)
        _between_hands(stream, table, rng, plan)
        hand_id = _play_hand(stream, table, rng, plan)
        if plan.injected and plan.fault is not None:
            labels.append(TruthLabel(table_id=table.table_id, hand_id=hand_id, fault=plan.fault,
                                     codes=FAULT_CODES[plan.fault], seat=plan.seat,
                                     detail=plan.detail))
        # A fault the hand gave no occasion for (no cap bound, nobody fouled...) waits for
        # the next hand that does, so every chosen fault is eventually injected.
        pending = None if plan.injected else plan.fault
        stream.advance(rng.randint(20, 90))
    return labels + (table.patterns.labels if table.patterns else [])


FAULT_CODES: dict[str, list[str]] = {
    "mispaid_points": ["MISPAY"],
    "wrong_rake": ["RAKE_OVER", "RAKE_UNDER"],
    "foul_not_penalised": ["MISPAY"],
    "false_autowin_paid": ["FALSE_AUTO_WIN_DECLARATION", "MISPAY"],
    "stack_cap_ignored": ["MISPAY"],
    "hand_opened_early": ["HAND_OPENED_EARLY"],
    "misdeal_not_called": ["MISDEAL_NOT_CALLED"],
    "new_player_on_button": ["NEW_PLAYER_ON_BUTTON"],
    "buy_in_below_minimum": ["BUY_IN_BELOW_MINIMUM"],
    "chips_added_during_hand": ["CHIPS_DURING_HAND"],
}


# ---------------------------------------------------------------- seating and buys


def _seat_player(stream: TableStream, table: Table, rng: random.Random, seat: int,
                 stack: int) -> None:
    table.players_created += 1
    player = Player(f"{table.table_id}-P{table.players_created:03d}", stack,
                    short_buy_allowed=stack >= table.minimum)
    table.seats[seat] = player
    table.new_seats.add(seat)
    if table.patterns is not None:
        table.patterns.seated(player.player_id)
    stream.emit("player_seated", {"seat": seat, "player_id": player.player_id, "stack": stack})


def _low(table: Table, player: Player) -> bool:
    """Too few chips to play on: under ``LOW_STACK_POINTS`` points, or under four fees.
    Players do play on short stacks, which is where the CP-10 cap matters."""
    return player.stack < max(LOW_STACK_POINTS * table.point_value, 4 * table.fee + 1)


def _between_hands(stream: TableStream, table: Table, rng: random.Random,
                   plan: HandPlan) -> None:
    """Re-buys (CP-9), departures and arrivals (CP-12), and the next button."""
    table.new_seats = set()
    for seat in sorted(table.seats):
        player = table.seats[seat]
        must_stay = len(table.seats) <= 2
        if _low(table, player):
            if must_stay or rng.random() < 0.7:
                _rebuy(stream, table, rng, seat, player)
            else:
                _leave(stream, table, seat)
        elif not must_stay and rng.random() < LEAVE_RATE:
            _leave(stream, table, seat)
    table.button = _next_button(table)
    _arrivals(stream, table, rng, plan)


def _rebuy(stream: TableStream, table: Table, rng: random.Random, seat: int,
           player: Player) -> None:
    """CP-9: a full buy of 20+ points, or the one short buy allowed after a full buy."""
    if player.short_buy_allowed and rng.random() < 0.3:
        amount = rng.randint(10, table.cp.buy_in.min_points - 1) * table.point_value
        kind = "short_buy"
        player.short_buy_allowed = False
    else:
        amount = rng.randint(table.cp.buy_in.min_points, 40) * table.point_value
        kind = "buy_in"
        player.short_buy_allowed = True
    player.stack += amount
    stream.emit("chips_changed", {"seat": seat, "amount": amount, "kind": kind})


def _leave(stream: TableStream, table: Table, seat: int) -> None:
    player = table.seats.pop(seat)
    stream.emit("player_left", {"seat": seat, "player_id": player.player_id,
                                "stack": player.stack})


def _next_button(table: Table) -> int:
    """Clockwise to the next occupied seat (new players were not seated yet)."""
    occupied = sorted(table.seats)
    if table.button is None:
        return occupied[0]
    after = [s for s in occupied if s > table.button]
    return after[0] if after else occupied[0]


def _arrivals(stream: TableStream, table: Table, rng: random.Random, plan: HandPlan) -> None:
    """CP-12: a new player sits where it gets neither the button nor the first hand."""
    assert table.button is not None
    empty = [s for s in SEATS if s not in table.seats]
    first_hand = table.button % len(SEATS) + 1
    allowed = [s for s in empty if s != first_hand]
    if plan.fault == "new_player_on_button" and empty and table.hand_no > 0:
        seat = rng.choice(empty)
        _seat_player(stream, table, rng, seat, rng.randint(20, 60) * table.point_value)
        table.button = seat
        plan.injected, plan.seat = True, seat
        plan.detail = f"seat {seat} sat down and was given the button"
        return
    wanted = plan.fault == "buy_in_below_minimum" or rng.random() < ARRIVAL_RATE
    if not allowed or not wanted:
        return
    seat = rng.choice(allowed)
    if plan.fault == "buy_in_below_minimum":
        stack = rng.randint(10, table.cp.buy_in.min_points - 1) * table.point_value
        plan.injected, plan.seat = True, seat
        plan.detail = f"seat {seat} sat down with {stack} chips (minimum {table.minimum})"
    else:
        stack = rng.randint(20, 60) * table.point_value
    _seat_player(stream, table, rng, seat, stack)


# ---------------------------------------------------------------- setting hands


def set_hand(cards: list[str]) -> tuple[list[str], list[str], list[str]]:
    """A sensible setting: the best five in the back, the best five of the remaining eight
    in the middle, the last three in front. Always valid (a hand that contains another
    ranks at least as high)."""
    index = {fast.CARD_INDEX[c]: c for c in cards}
    back = max(combinations(index, 5), key=lambda five: fast.eval5(*five))
    rest = [i for i in index if i not in back]
    middle = max(combinations(rest, 5), key=lambda five: fast.eval5(*five))
    front = [i for i in rest if i not in middle]
    return ([index[i] for i in front], [index[i] for i in middle], [index[i] for i in back])


def _fouled(setting: tuple[list[str], list[str], list[str]]
            ) -> tuple[list[str], list[str], list[str]] | None:
    """The same cards with middle and back swapped: a foul when the back is stronger."""
    front, middle, back = setting
    if cp_eval.segment_rank(back) > cp_eval.segment_rank(middle):
        return front, back, middle
    return None


def _verdict(seat: int, setting: tuple[list[str], list[str], list[str]]) -> Verdict:
    """The correct verdict on a set hand (CP-2 / CP-8)."""
    ranks = tuple(cp_eval.segment_rank(part) for part in setting)
    if ranks[0] > ranks[1] or ranks[1] > ranks[2]:
        return Verdict(seat, "foul")
    return Verdict(seat, "set", ranks=(ranks[0], ranks[1], ranks[2]))


def _plays(table: Table, deal: dict[int, list[str]], rng: random.Random,
           plan: HandPlan) -> dict[int, SeatPlay]:
    plays: dict[int, SeatPlay] = {}
    for seat in sorted(table.seats):
        play = SeatPlay(seat, deal[seat])
        made = cp_eval.auto_wins(play.cards) if may_hold_auto_win(play.cards) else set()
        if made and rng.random() < AUTO_DECLARE_RATE:
            best: AutoWin = max((k for k in AUTO_KINDS if k in made),
                                key=table.cp.auto_win_points.of)
            play.declared = best
            play.table_view = Verdict(seat, "auto", auto=play.declared)
            play.setting = set_hand(play.cards) if rng.random() < 0.5 else None
        else:
            play.setting = set_hand(play.cards)
            if rng.random() < NATURAL_FOUL_RATE:
                play.setting = _fouled(play.setting) or play.setting
            play.table_view = _verdict(seat, play.setting)
        plays[seat] = play
    _inject_hand_faults(plays, table, rng, plan)
    return plays


def _inject_hand_faults(plays: dict[int, SeatPlay], table: Table, rng: random.Random,
                        plan: HandPlan) -> None:
    """Faults in the hand itself: a false automatic win paid, a foul settled as valid."""
    ordinary = [p for p in plays.values() if p.declared is None]
    if not ordinary:
        return
    victim = rng.choice(ordinary)
    if plan.fault == "false_autowin_paid":
        kind = rng.choice(AUTO_KINDS[1:])
        if kind in cp_eval.auto_wins(victim.cards):
            return
        victim.declared = kind
        victim.table_view = Verdict(victim.seat, "auto", auto=victim.declared)
        plan.injected, plan.seat = True, victim.seat
        plan.detail = f"seat {victim.seat} declared {kind} without it and was paid"
    elif plan.fault == "foul_not_penalised" and victim.setting is not None:
        fouled = _fouled(victim.setting)
        if fouled is None:
            return
        victim.setting = fouled
        ranks = tuple(cp_eval.segment_rank(part) for part in fouled)
        victim.table_view = Verdict(victim.seat, "set", ranks=(ranks[0], ranks[1], ranks[2]))
        plan.seat = victim.seat
        plan.detail = f"seat {victim.seat} set its middle above its back; settled as valid"


# ---------------------------------------------------------------- one hand


def _play_hand(stream: TableStream, table: Table, rng: random.Random, plan: HandPlan) -> str:
    table.hand_no += 1
    hand_id = f"{table.table_id}-{table.hand_no:06d}"
    assert table.button is not None
    button = table.button
    stacks = {seat: p.stack for seat, p in sorted(table.seats.items())}

    def emit(type_: str, data: dict[str, Any]) -> None:
        stream.emit(type_, data, hand_id=hand_id, max_ms=1500)

    table.dealer = table.options.dealer(stream, f"{table.table_id}-D1")
    if table.patterns is not None:
        table.patterns.dealing(table.dealer)
    emit("hand_started", {
        "button": button, "designated_player": None, "dealer_id": table.dealer,
        "deck": 52,
        "seats": [{"seat": s, "player_id": table.seats[s].player_id, "stack": stacks[s]}
                  for s in stacks]})
    deal = _deal(emit, rng, button)
    if rng.random() < NATURAL_MISDEAL_RATE:
        _expose_five(emit, rng, deal, list(stacks))
        emit("misdeal", {"reason": "dealer exposed five cards of a hand"})
        emit("hand_ended", {})
        plan.injected = False
        return hand_id
    if plan.fault == "misdeal_not_called":
        plan.seat = _expose_five(emit, rng, deal, list(stacks))
        plan.injected = True
        plan.detail = f"five of seat {plan.seat}'s cards exposed; hand played on"
    plays = _plays(table, deal, rng, plan)
    added = _emit_setting(emit, stream, table, rng, plays, button, plan)
    settlement = _table_settlement(table, plays, stacks, button, plan)
    _emit_settlement(emit, table, rng, settlement, stacks, plan)
    emit("hand_ended", {})
    for seat, change in _recorded_nets(settlement).items():
        table.seats[seat].stack = stacks[seat] + change + added.get(seat, 0)
    return hand_id


def _deal(emit: Any, rng: random.Random, button: int) -> dict[int, list[str]]:
    """CP-1: one deck, 13 cards to each of the four seats, one at a time, clockwise from
    the seat left of the button; the hands of empty seats are dealt and dead."""
    deck = list(STANDARD_DECK)
    rng.shuffle(deck)
    order = [(button + i) % len(SEATS) + 1 for i in range(len(SEATS))]
    deal: dict[int, list[str]] = {seat: [] for seat in SEATS}
    for i, card in enumerate(deck):
        seat = order[i % len(SEATS)]
        deal[seat].append(card)
        emit("card_dealt", {"to": "seat", "seat": seat, "card": card, "face_up": False})
    return deal


def _expose_five(emit: Any, rng: random.Random, deal: dict[int, list[str]],
                 participants: list[int]) -> int:
    seat = rng.choice(participants)
    for card in rng.sample(deal[seat], 5):
        emit("card_exposed", {"seat": seat, "card": card, "cause": "dealer_error"})
    return seat


def _emit_setting(emit: Any, stream: TableStream, table: Table, rng: random.Random,
                  plays: dict[int, SeatPlay], button: int, plan: HandPlan) -> dict[int, int]:
    """Players set (in whatever order they finish), declare, then the hands are opened."""
    order = list(plays)
    rng.shuffle(order)
    opened_early: int | None = None
    if plan.fault == "hand_opened_early" and len(order) >= 2:
        opened_early = order[0]
    added: dict[int, int] = {}
    for index, seat in enumerate(order):
        play = plays[seat]
        if opened_early is not None and index == len(order) - 1:
            emit("showdown", {"seat": opened_early, "cards": _shown(plays[opened_early])})
            plan.injected, plan.seat = True, opened_early
            plan.detail = f"seat {opened_early} opened before seat {seat} had set"
        if play.setting is not None:
            front, middle, back = play.setting
            emit("hand_set", {"seat": seat, "front": front, "middle": middle, "back": back})
        if play.declared is not None:
            emit("auto_win_declared", {"seat": seat, "kind": play.declared})
    if plan.fault == "chips_added_during_hand":
        seat = rng.choice(order)
        amount = 10 * table.point_value
        stream.emit("chips_changed", {"seat": seat, "amount": amount, "kind": "add"})
        added[seat] = amount
        plan.injected, plan.seat = True, seat
        plan.detail = f"seat {seat} added {amount} chips during the hand"
    for seat in payment_order(tuple(plays), button, table.cp):
        if seat != opened_early:
            emit("showdown", {"seat": seat, "cards": _shown(plays[seat])})
    return added


def _shown(play: SeatPlay) -> list[str]:
    if play.setting is None:
        return list(play.cards)
    return [c for part in play.setting for c in part]


def _table_settlement(table: Table, plays: dict[int, SeatPlay], stacks: dict[int, int],
                      button: int, plan: HandPlan) -> TableSettlement:
    """What the table pays: the correct settlement of the table's view of the hands, with
    the cap ignored when that is the injected fault."""
    hands = {seat: play.table_view for seat, play in plays.items() if play.table_view}
    participants = tuple(sorted(plays))
    rake = fees(participants, button, table.rake_mode, table.fee, table.cp)
    scoring = table.scoring

    def settled(view: dict[int, Verdict], cap: bool = True) -> TableSettlement:
        return settle_table(view, participants, stacks, button, table.point_value, rake,
                            table.cp, scoring, cap)

    correct = settled(hands)
    if plan.fault == "foul_not_penalised" and plan.seat is not None:
        truth = settled({**hands, plan.seat: Verdict(plan.seat, "foul")})
        plan.injected = truth.net != correct.net
    if plan.fault == "stack_cap_ignored":
        uncapped = settled(hands, cap=False)
        if uncapped.net != correct.net:
            plan.injected = True
            plan.detail = "a winner was paid beyond its starting stack"
            return uncapped
    return correct


def _emit_settlement(emit: Any, table: Table, rng: random.Random, settlement: TableSettlement,
                     stacks: dict[int, int], plan: HandPlan) -> None:
    """Rake first (a participation fee), then the point payments in payment order."""
    rake = dict(settlement.rake)
    if plan.fault == "wrong_rake":
        seat = rng.choice(sorted(rake) or sorted(stacks))
        due = rake.get(seat, 0)
        rake[seat] = due - 1 if due > 1 and rng.random() < 0.5 else due + 1
        plan.injected, plan.seat = True, seat
        plan.detail = f"seat {seat} raked {rake[seat]} instead of {due}"
    for seat, amount in sorted(rake.items()):
        if amount:
            emit("rake_collected", {"seat": seat, "amount": amount, "from": "stack"})
    settlement.rake = rake
    edit_transfers(table, settlement)
    paid = [t for t in settlement.transfers if t.amount > 0]
    wrong = rng.randrange(len(paid)) if plan.fault == "mispaid_points" and paid else None
    for index, transfer in enumerate(paid):
        amount = transfer.amount
        if index == wrong:
            amount = amount - table.point_value if amount > table.point_value \
                and rng.random() < 0.5 else amount + table.point_value
            plan.injected, plan.seat = True, transfer.payer
            plan.detail = (f"seat {transfer.payer} paid seat {transfer.payee} {amount} "
                           f"instead of {transfer.amount}")
            settlement.transfers[settlement.transfers.index(transfer)] = Payment(
                transfer.payer, transfer.payee, transfer.owed, amount)
        emit("collection", {"seat": transfer.payer, "amount": amount,
                            "to": f"seat:{transfer.payee}", "kind": "points"})


def _recorded_nets(settlement: TableSettlement) -> dict[int, int]:
    """Stack changes from what was emitted (rake and payments as recorded)."""
    nets = {seat: 0 for seat in settlement.net}
    for seat, amount in settlement.rake.items():
        nets[seat] = nets.get(seat, 0) - amount
    for t in settlement.transfers:
        nets[t.payer] -= t.amount
        nets[t.payee] += t.amount
    return nets


__all__ = ["FAULTS", "set_hand", "simulate_table"]
