"""The betting state machine: blinds, rounds, order of action, legal actions, violations.

``BettingHand`` replays a hand's recorded betting actions one by one. For each it says
which rules the action broke (``Violation``), then carries on deterministically, so one
dealer error does not stop the adjudication of the rest of the hand.

How the engine carries on after an illegal action (the documented policy, see
docs/rules/betting.md): **the chips recorded are the chips put in.** An action is applied
with exactly the chips the table recorded, then:

- out of turn: the action counts for the seat that made it; the turn does not move
  (the next seat due is still found clockwise from the last seat that acted in turn), so
  one swapped pair of actions is one finding, not a cascade;
- a check facing a bet, or a call short of the amount owed: the seat stays in the hand
  with the chips it put in and is not asked again at this bet level; the pots (built
  from what each seat actually put in) then treat it like an all-in for that amount;
- an illegal bet or raise (under the minimum, over the pot, a fifth bet, not reopened):
  the new bet level is what the chips make it, and it counts as a full raise (it reopens
  the betting and counts towards the cap), as the table accepted it;
- more chips than the stack: taken; the seat is then all-in (table stakes, GEN-2);
- an action by a seat not dealt in, or the only player left folding: ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from services.games.betting.actions import (
    POST_KINDS,
    LegalActions,
    Violation,
    ViolationKind,
)
from services.games.betting.seating import blind_seats, clockwise_after, first_left_of
from services.games.betting.structures import BettingConfig

_POST_NAMES = {
    "post_small_blind": "small blind",
    "post_big_blind": "big blind",
    "post_ante": "ante",
}


@dataclass
class SeatState:
    """One seat's betting state. ``stack`` can go below zero only after an over-stack
    action (GEN-2), which the engine reports and then treats as all-in."""

    seat: int
    stack: int
    total: int = 0  # chips in the pot this hand, antes included
    in_round: int = 0  # live chips in the current round (count towards the bet level)
    folded: bool = False
    acted: bool = False  # has made a voluntary action in the current round
    acted_level: int = 0  # the bet level right after its last action this round
    reopen_mark: int = 0  # the number of full raises right after its last action

    @property
    def all_in(self) -> bool:
        return self.stack <= 0


@dataclass(frozen=True)
class OwedPost:
    """A blind or ante a seat owes before the betting (amount capped at its stack)."""

    kind: str
    seat: int
    amount: int


class RoundOverError(RuntimeError):
    """The game asked for a betting round the configuration does not have."""


class BettingHand:
    """The betting of one hand, round after round."""

    def __init__(self, config: BettingConfig, stacks: Mapping[int, int], button: int) -> None:
        if len(stacks) < 2:
            raise ValueError("a betting hand needs at least two seats")
        self.config = config
        self.button = button
        self.order: tuple[int, ...] = tuple(sorted(stacks))
        self.seats = {seat: SeatState(seat, stacks[seat]) for seat in self.order}
        self._rings: dict[int, tuple[int, ...]] = {}
        self.round_index = 0
        self.round_aggressors: list[int | None] = []
        self.violations: list[Violation] = []
        self.owed: list[OwedPost] = []
        self.missed: list[OwedPost] = []  # reported missing; a late post settles them
        self.betting_started = False
        self.closed = False
        self._reset_round()
        if config.first_round_blinds:
            self._open_with_blinds()
        elif config.ante > 0:
            self.owed = self._antes_owed()

    # ------------------------------------------------------------------ round set-up

    def _reset_round(self) -> None:
        for st in self.seats.values():
            st.in_round = 0
            st.acted = False
            st.acted_level = 0
            st.reopen_mark = 0
        self.bet_level = 0
        self.last_full_raise = 0
        self.bets = 0
        self.full_raises = 0
        self.aggressor: int | None = None
        self.anchor = self.button  # later rounds: first active left of the button acts
        self.closed = False

    def _antes_owed(self) -> list[OwedPost]:
        return [
            OwedPost("post_ante", seat, min(self.config.ante, self.seats[seat].stack))
            for seat in clockwise_after(self.order, self.button)
        ]

    def _open_with_blinds(self) -> None:
        """FCD-3/FCD-5: blinds left of the button; the big blind is the bet to call,
        a full bet in size, and (FCD-8) the first bet of the fixed-limit cap."""
        cfg = self.config
        owed = self._antes_owed() if cfg.ante > 0 else []
        after_ante = {s: self.seats[s].stack - (cfg.ante if cfg.ante > 0 else 0)
                      for s in self.order}
        sb, bb = blind_seats(self.order, self.button)
        owed.append(OwedPost("post_small_blind", sb, max(min(cfg.small_blind, after_ante[sb]), 0)))
        owed.append(OwedPost("post_big_blind", bb, max(min(cfg.big_blind, after_ante[bb]), 0)))
        self.owed = owed
        self.small_blind_seat, self.big_blind_seat = sb, bb
        self.bet_level = cfg.big_blind
        self.last_full_raise = cfg.big_blind
        self.bets = 1 if cfg.big_blind_counts_as_bet else 0
        self.anchor = bb  # FCD-5: the player left of the big blind acts first

    # ------------------------------------------------------------------ queries

    @property
    def round_spec_unit(self) -> int:
        return self.config.rounds[self.round_index].bet_unit

    @property
    def order_rule(self) -> str:
        return self.config.rounds[self.round_index].order_rule

    def pot_total(self) -> int:
        return sum(st.total for st in self.seats.values())

    def contributions(self) -> dict[int, int]:
        """Chips each seat put in the pot this hand."""
        return {seat: st.total for seat, st in self.seats.items()}

    def stacks_left(self) -> dict[int, int]:
        """Chips each seat has behind once its bets are in (never below zero)."""
        return {seat: max(st.stack, 0) for seat, st in self.seats.items()}

    def folded(self) -> frozenset[int]:
        return frozenset(seat for seat, st in self.seats.items() if st.folded)

    def active(self) -> list[int]:
        """Seats still contesting the pot (not folded), in seat order."""
        return [seat for seat in self.order if not self.seats[seat].folded]

    def hand_over(self) -> bool:
        """Only one player is left: they win without a showdown (FCD-9)."""
        left = 0
        for st in self.seats.values():  # asked after every action: stop at the second
            if not st.folded:
                left += 1
                if left > 1:
                    return False
        return True

    def _able(self) -> int:
        """Seats that can still put chips in (not folded, not all-in)."""
        able = 0
        for st in self.seats.values():
            if not st.folded and st.stack > 0:  # stack > 0: not ``all_in``
                able += 1
        return able

    def can_bet_further(self) -> bool:
        """At least two players who still have chips: a later round can have betting."""
        return self._able() >= 2

    def _raise_can_be_answered(self, st: SeatState) -> bool:
        """Some opponent still in the hand could put in more than the current bet; if
        none can, a raise could never be called and is not allowed."""
        return any(o is not st and not o.folded and o.stack > 0
                   and o.in_round + o.stack > self.bet_level for o in self.seats.values())

    def _needs_action(self, st: SeatState, able: int) -> bool:
        """``able``: how many seats can still put chips in (``st`` included)."""
        if st.folded or st.all_in:
            return False
        if st.acted and st.acted_level >= self.bet_level:
            return False
        # Nobody left who could answer a bet, and nothing owed: no decision to make.
        return not (st.in_round >= self.bet_level and able <= 1)

    def _optional_check(self, st: SeatState, kind: str, chips: int) -> bool:
        """A check by the last player who could still bet, nobody left to answer: the
        round does not wait for it (``_needs_action``), but some tables record it (the
        big blind's "option" after everyone else folded or went all-in). Accepted."""
        return (kind in ("check", "call") and chips == 0 and st.in_round >= self.bet_level
                and not (st.acted and st.acted_level >= self.bet_level)
                and self._able() <= 1)

    def _ring(self, anchor: int) -> tuple[int, ...]:
        ring = self._rings.get(anchor)
        if ring is None:
            ring = self._rings[anchor] = tuple(clockwise_after(self.order, anchor))
        return ring

    def _pending(self) -> list[int]:
        able = self._able()
        return [s for s in self.order if self._needs_action(self.seats[s], able)]

    def to_act(self) -> int | None:
        """The seat whose turn it is: the first seat clockwise from the last seat that
        acted in turn that still owes a decision; None when the round is complete."""
        if self.closed or self.hand_over():
            return None
        able = self._able()
        seats = self.seats
        bet_level = self.bet_level
        for seat in self._ring(self.anchor):
            # ``_needs_action`` inlined: this loop is the engine's hottest.
            st = seats[seat]
            if st.folded or st.stack <= 0:
                continue
            if st.acted and st.acted_level >= bet_level:
                continue
            if not (st.in_round >= bet_level and able <= 1):
                return seat
        return None

    def round_complete(self) -> bool:
        return self.to_act() is None

    def owed_posts(self) -> list[OwedPost]:
        """Blinds and antes still owed before the betting starts."""
        return list(self.owed)

    def raise_bounds(self, st: SeatState) -> tuple[int, int]:
        """(minimum, maximum) legal round total ("raise to") for a bet or raise by
        ``st``, before capping at its stack (FCD-8)."""
        cfg = self.config
        unit = self.round_spec_unit
        if cfg.structure == "fixed":
            level = self.bet_level + unit
            return level, level
        minimum = self.bet_level + max(self.last_full_raise, unit)
        if cfg.structure == "no":
            return minimum, max(minimum, st.in_round + st.stack)
        to_call = max(self.bet_level - st.in_round, 0)
        pot_after_call = self.pot_total() + to_call
        if cfg.pot_limit_reading == "total_at_most_pot_after_call":
            maximum = pot_after_call
        else:
            maximum = self.bet_level + pot_after_call
        return minimum, max(minimum, maximum)

    def raise_refusal(self, st: SeatState) -> ViolationKind | None:
        """Why ``st`` may not bet or raise now (FCD-8), or None if it may."""
        if not self._raise_can_be_answered(st):
            return "no_opponent_to_raise"
        if self.config.structure == "fixed" and self.bets >= self.config.max_bets_per_round:
            return "cap_exceeded"
        if st.acted and st.reopen_mark >= self.full_raises:
            return "not_reopened"
        return None

    def legal_actions(self) -> LegalActions | None:
        """The options of the seat to act, or None when no action is due."""
        if self.owed and not self.betting_started:
            return None
        seat = self.to_act()
        if seat is None:
            return None
        st = self.seats[seat]
        to_call = max(self.bet_level - st.in_round, 0)
        low, high = self.raise_bounds(st)
        can_raise = st.stack > to_call and self.raise_refusal(st) is None
        return LegalActions(
            seat=seat,
            stack=st.stack,
            call=min(to_call, st.stack),
            can_check=to_call == 0,
            can_raise=can_raise,
            raise_min=min(low - st.in_round, st.stack),
            raise_max=min(high - st.in_round, st.stack),
        )

    def showdown_order(self) -> list[int]:
        """FCD-9: the last bettor or raiser of the final round shows first; if nobody
        bet, the first active player left of the button; then clockwise."""
        contenders = self.active()
        if not contenders:
            return []
        last = self.aggressor  # of the current, i.e. final, round (kept when it closes)
        first = last if last in contenders else first_left_of(contenders, self.button)
        assert first is not None
        rest = [s for s in clockwise_after(contenders, first) if s != first]
        return [first, *rest]

    # ------------------------------------------------------------------ actions

    def apply(self, seat: int, kind: str, amount: int | None) -> list[Violation]:
        """Apply one recorded action (``amount`` = chips added); return what it broke."""
        chips = amount or 0
        if kind in POST_KINDS:
            found = self._post(seat, kind, chips)
        else:
            found = self._voluntary(seat, kind, chips)
        self.violations.extend(found)
        return found

    def _violation(
        self, kind: ViolationKind, rule: str, seat: int | None, message: str,
        amount: int | None = None,
    ) -> Violation:
        return Violation(kind, rule, seat, self.round_index, message, amount)

    def _put(self, st: SeatState, chips: int, live: bool = True) -> list[Violation]:
        """Move chips from the seat's stack to the pot (as recorded, even beyond it)."""
        found: list[Violation] = []
        if chips > max(st.stack, 0):
            found.append(self._violation(
                "over_stack", self.config.rules.stakes, st.seat,
                f"seat {st.seat} put in {chips} chips with {max(st.stack, 0)} behind",
                chips - max(st.stack, 0)))
        st.stack -= chips
        st.total += chips
        if live:
            st.in_round += chips
        return found

    def _post(self, seat: int, kind: str, chips: int) -> list[Violation]:
        """A blind or ante (FCD-3): the right seat, the right amount, before the betting."""
        rule = self.config.rules.blinds
        name = _POST_NAMES[kind]
        st = self.seats.get(seat)
        if st is None:
            return [self._violation("not_in_hand", rule, seat,
                                    f"seat {seat} posted a {name} but is not dealt in")]
        found: list[Violation] = []
        if self.betting_started or self.round_index > 0:
            found.append(self._violation("blind_late", rule, seat,
                                         f"seat {seat} posted a {name} after the betting began"))
        match = next((o for o in [*self.owed, *self.missed]
                      if o.kind == kind and o.seat == seat), None)
        if match is None:
            owner = next((o.seat for o in self.owed if o.kind == kind), None)
            who = f"seat {owner} owes it" if owner is not None else f"no {name} is owed"
            found.append(self._violation("blind_wrong_seat", rule, seat,
                                         f"seat {seat} posted a {name}; {who}", chips))
        else:
            (self.owed if match in self.owed else self.missed).remove(match)
            if chips != match.amount:
                found.append(self._violation(
                    "blind_wrong_amount", rule, seat,
                    f"seat {seat} posted a {name} of {chips}; {match.amount} is owed",
                    chips - match.amount))
        found += self._put(st, chips, live=kind != "post_ante")
        # A blind larger than owed was taken by the table: it is the bet to call.
        self.bet_level = max(self.bet_level, st.in_round)
        return found

    def _start_betting(self) -> list[Violation]:
        """The first voluntary action: every blind or ante still owed is missing (one of
        0 chips, a seat all-in on what it posted before, owed nothing: QA)."""
        if self.betting_started:
            return []
        self.betting_started = True
        found = [
            self._violation("blind_missing", self.config.rules.blinds, o.seat,
                            f"seat {o.seat} did not post the {_POST_NAMES[o.kind]} of "
                            f"{o.amount} before the betting", o.amount)
            for o in self.owed if o.amount
        ]
        self.missed, self.owed = self.owed, []
        return found

    def _voluntary(self, seat: int, kind: str, chips: int) -> list[Violation]:
        found = self._start_betting()
        rule = self.order_rule
        st = self.seats.get(seat)
        if st is None:
            found.append(self._violation("not_in_hand", rule, seat,
                                         f"seat {seat} acted ({kind}) but is not dealt in"))
            return found
        if self.closed:
            found.append(self._violation("out_of_turn", rule, seat,
                                         f"seat {seat} acted ({kind}) after the betting "
                                         "round closed"))
            found += self._put(st, chips, live=False)
            return found
        if st.folded or st.all_in:
            why = "has folded" if st.folded else "is all-in"
            found.append(self._violation("not_in_hand", rule, seat,
                                         f"seat {seat} acted ({kind}) but {why}"))
            found += self._put(st, chips, live=False)
            return found
        if kind == "fold" and len(self.active()) == 1:
            found.append(self._violation("last_player_folded", rule, seat,
                                         f"seat {seat} folded as the only player left; "
                                         "the fold is ignored"))
            return found
        due = self.to_act()
        if seat != due and not self._optional_check(st, kind, chips):
            expected = f"seat {due} was due" if due is not None else "no action was due"
            found.append(self._violation("out_of_turn", rule, seat,
                                         f"seat {seat} acted ({kind}) out of turn; {expected}"))
        if kind == "fold":
            found += self._fold(st, chips)
        else:
            found += self._wager(st, kind, chips)
        st.acted = True
        st.acted_level = self.bet_level
        st.reopen_mark = self.full_raises
        if seat == due:
            self.anchor = seat
        return found

    def _fold(self, st: SeatState, chips: int) -> list[Violation]:
        found: list[Violation] = []
        if chips:
            found.append(self._violation("chips_with_fold", self.config.rules.sizes, st.seat,
                                         f"seat {st.seat} folded and put in {chips} chips",
                                         chips))
            found += self._put(st, chips)
        st.folded = True
        return found

    def _wager(self, st: SeatState, kind: str, chips: int) -> list[Violation]:
        """Check, call, bet, raise or all-in, judged by the chips it adds."""
        found: list[Violation] = []
        stack_before = st.stack
        to_call = max(self.bet_level - st.in_round, 0)
        new_level = st.in_round + chips
        if kind == "all_in" and chips < stack_before:
            found.append(self._violation(
                "all_in_not_whole_stack", self.config.rules.sizes, st.seat,
                f"seat {st.seat} went all-in with {chips} of {stack_before} chips",
                chips - stack_before))
        if new_level > self.bet_level:
            found += self._aggressive(st, kind, chips, new_level, stack_before)
        else:
            found += self._passive(st, kind, chips, to_call, stack_before)
        found += self._put(st, chips)
        return found

    def _passive(
        self, st: SeatState, kind: str, chips: int, to_call: int, stack_before: int
    ) -> list[Violation]:
        """A check or call: the chips must be exactly what is owed (capped at the stack)."""
        owed = min(to_call, stack_before)
        if kind in ("bet", "raise"):
            # Even with exactly the chips owed (a bet of 0, a "raise" of the call): the
            # table recorded a bet or raise that was none (FCD-8).
            return [self._violation("not_a_raise", self.config.rules.sizes, st.seat,
                                    f"seat {st.seat} recorded a {kind} of {chips} that does "
                                    f"not go above the {owed} owed", chips - owed)]
        if chips == owed or kind == "all_in":
            return []
        if kind == "check" and chips == 0:
            return [self._violation("check_facing_bet", self.order_rule, st.seat,
                                    f"seat {st.seat} checked facing a bet of {to_call}",
                                    to_call)]
        return [self._violation("wrong_call_amount", self.config.rules.sizes, st.seat,
                                f"seat {st.seat} put in {chips} to call; {owed} was owed",
                                chips - owed)]

    def _aggressive(
        self, st: SeatState, kind: str, chips: int, new_level: int, stack_before: int
    ) -> list[Violation]:
        """A bet or raise: allowed at all, and of a legal size (FCD-8)."""
        found: list[Violation] = []
        sizes = self.config.rules.sizes
        owed = max(self.bet_level - st.in_round, 0)
        if kind in ("check", "call"):
            found.append(self._violation("wrong_call_amount", sizes, st.seat,
                                         f"seat {st.seat} recorded a {kind} of {chips}; "
                                         f"{owed} was owed", chips - owed))
        refusal = self.raise_refusal(st)
        if refusal is not None:
            found.append(self._violation(refusal, sizes, st.seat,
                                         self._refusal_message(refusal, st.seat, new_level)))
        low, high = self.raise_bounds(st)
        all_in = chips >= stack_before
        found += self._size_violations(st.seat, new_level, all_in, low, high)
        short_all_in = all_in and new_level < low
        raise_size = new_level - self.bet_level
        if not short_all_in:
            # A full bet or raise (or an illegal one the table accepted): it reopens the
            # betting and counts towards the fixed-limit cap.
            self.full_raises += 1
            self.bets += 1
            self.last_full_raise = max(self.last_full_raise, raise_size)
        self.bet_level = new_level
        self.aggressor = st.seat
        return found

    def _refusal_message(self, refusal: ViolationKind, seat: int, level: int) -> str:
        if refusal == "cap_exceeded":
            return (f"seat {seat} raised to {level} after the cap of "
                    f"{self.config.max_bets_per_round} bets this round")
        if refusal == "not_reopened":
            return (f"seat {seat} raised to {level} although only a short all-in, not a "
                    "full raise, came after its last action: the betting was not reopened")
        return (f"seat {seat} raised to {level} although no opponent could put in more "
                "than the bet (all all-in or short)")

    def _size_violations(
        self, seat: int, level: int, all_in: bool, low: int, high: int
    ) -> list[Violation]:
        structure = self.config.structure
        sizes = self.config.rules.sizes
        if structure == "fixed":
            if level > high or (level < low and not all_in):
                return [self._violation("wrong_limit_amount", sizes, seat,
                                        f"seat {seat} bet or raised to {level}; fixed limit "
                                        f"allows exactly {low} this round", level - low)]
            return []
        if structure == "pot" and level > high:
            return [self._violation("over_pot", sizes, seat,
                                    f"seat {seat} bet or raised to {level}; the pot limit "
                                    f"allowed at most {high}", level - high)]
        if level < low and not all_in:
            return [self._violation("under_minimum", sizes, seat,
                                    f"seat {seat} bet or raised to {level}; the minimum was "
                                    f"{low}", level - low)]
        return []

    def walk_away(self, seat: int) -> None:
        """GEN-7: a player who leaves the table without acting has folded (a player's
        choice, not a table error: no violation)."""
        st = self.seats.get(seat)
        if st is None or st.folded or self.hand_over():
            return
        if self.to_act() == seat:
            self.anchor = seat
        st.folded = True

    def dead_chips(self, seat: int, chips: int) -> list[Violation]:
        """Chips a seat moved into the pot by something other than a betting action:
        in the pot (the recorded chips are the chips put in), part of nobody's bet."""
        st = self.seats.get(seat)
        if st is None or chips <= 0:
            return []
        found = self._put(st, chips, live=False)
        self.violations.extend(found)
        return found

    # ------------------------------------------------------------------ rounds

    def close_round(self) -> list[Violation]:
        """End the current round (the table moved on); players still owing a decision
        are a violation of the round's order rule."""
        if self.closed:
            return []
        found = self._start_betting() if self.round_index == 0 else []
        pending = [] if self.hand_over() else self._pending()
        if pending:
            seats = ", ".join(map(str, pending))
            found.append(self._violation("round_incomplete", self.order_rule, None,
                                         f"betting round {self.round_index + 1} closed with "
                                         f"seat(s) {seats} still to act"))
        self.round_aggressors.append(self.aggressor)
        self.closed = True
        self.violations.extend(found)
        return found

    def next_round(self) -> list[Violation]:
        """Close the current round and open the next one."""
        found = self.close_round()
        if self.round_index + 1 >= len(self.config.rounds):
            raise RoundOverError(f"the configuration has {len(self.config.rounds)} rounds")
        self.round_index += 1
        self._reset_round()
        return found
