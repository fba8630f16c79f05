"""How a simulated poker player (hold'em, Draw 7-A) decides once styles and patterns are
in play: the game's own choice (or its style's), then the table's patterns.

- ``soft_play``: heads-up against the partner, a bet or raise is not made (with the
  pattern's strength): a check where checking is free, else a call.
- ``fold_dumping``: a hand both are dealt in becomes a dump with the pattern's strength:
  while the taker is in, the giver bets, raises and calls until 20..40 big blinds are in
  (10..12 at a fixed-limit table, at most what its caps allow with one bet of the last
  round left to fold to: 10 at Draw 7-A, whose caps allow 12 in all), then checks where
  it can, calls the others and folds to the taker's bet; the taker raises while the giver
  builds the pot (so a fixed-limit pot grows too) and bets once the giver's chips are in.
- A dump that could not be completed (another player's raise took the cap, the giver
  never faced the taker's bet, the hand went multiway) is tried again on the next hand
  both are dealt in, so the completed dumps, not only the attempts, are the strength's
  share of the hands (before, a fixed-limit Draw 7-A "2%" completed 11 dumps in 3,000
  hands: 0.4%).
- ``showdown_dumping``: a hand both are dealt in becomes a dump with the strength: late in
  the hand (hold'em turn and river, after the draw) and heads-up, the taker, knowing the
  giver's cards, bets and raises the size of the pot whenever he holds the better hand,
  and the giver, holding the worse one, calls every bet to the end (and now and then
  bets into him); before that both stay in for small bets. (Multiway, the others' calls
  would make the giver's call cheap: that is no dump, and no evidence either.)

Without styles and patterns ``PokerPlay`` returns the game's own choice untouched, with
the same random draws, so legacy logs do not change.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from services.games.betting import LegalActions
from services.simulator.patterns import TablePatterns

Choice = tuple[str, int | None]


class PokerHandView(Protocol):
    """What the patterns read of the hand in play (an adapter over the game's hand)."""

    hand_id: str
    big_blind: int
    fixed_limit: bool  # bets of fixed size: a dump pot is built more slowly

    def player_of(self, seat: int) -> str | None: ...
    def seat_of(self, player: str) -> int | None: ...
    def live(self) -> list[int]: ...
    def invested(self, seat: int) -> int: ...
    def pot(self) -> int: ...
    def late(self) -> bool: ...  # at most one card to come (hold'em turn, after the draw)
    def fixed_room(self) -> int: ...  # fixed limit: chips one can put in, less a last bet
    def beats(self, seat: int, other: int) -> bool: ...
    def bet_kind(self, legal: LegalActions) -> str: ...


@dataclass
class _Dump:
    kind: str  # "fold_dumping" or "showdown_dumping"
    target: int  # fold dumping: chips the giver puts in before folding
    labelled: bool = False


def fixed_room(rounds: list[int], max_bets: int) -> int:
    """Fixed limit: the chips one player can put in over a hand (``max_bets`` bets of each
    round's size) less one bet of the last round, so a dump leaves the taker a bet to
    fold to. Draw 7-A (4 bets of 1 then of 2 big blinds): 12 - 2 = 10 big blinds."""
    return sum(rounds) * max_bets - rounds[-1]


def aggressive(legal: LegalActions, choice: Choice) -> bool:
    kind, amount = choice
    return kind in ("bet", "raise") or (kind == "all_in" and (amount or 0) > legal.call)


def passive(legal: LegalActions) -> Choice:
    """The check, else the call, of a decision."""
    if legal.can_check:
        return "check", None
    return ("all_in" if legal.call >= legal.stack else "call"), legal.call


class PokerPlay:
    """The table's decisions: ``adjust`` a player's own choice for the patterns."""

    def __init__(self, patterns: TablePatterns) -> None:
        self.patterns = patterns
        self.rng: random.Random = patterns.rng
        self.dump: _Dump | None = None
        self.aggressor: int | None = None  # the hand's last bettor or raiser
        self.softened: str | None = None  # hand id already labelled for soft play
        self.retry: str | None = None  # a dump kind drawn but not completed: try again

    @property
    def idle(self) -> bool:
        return not any(self.patterns.active(p) for p in
                       ("soft_play", "fold_dumping", "showdown_dumping"))

    def new_hand(self, view: PokerHandView) -> None:
        """Draw whether this hand is a dump hand (giver and taker both dealt in)."""
        if self.dump is not None and not self.dump.labelled:
            self.retry = self.dump.kind
        self.dump, self.aggressor = None, None
        giver, taker = self.patterns.player(0), self.patterns.player(1)
        if giver is None or taker is None:
            return
        seat = view.seat_of(giver)
        if seat is None or view.seat_of(taker) is None:
            return
        for kind in ("fold_dumping", "showdown_dumping"):
            if not self.patterns.active(kind):
                continue
            if self.retry == kind or self.rng.random() < self.patterns.strength(kind):
                self.retry = None
                low, high = (10, 12) if view.fixed_limit else (20, 40)
                if view.fixed_limit:  # leave the taker one bet to fold to
                    high = min(high, view.fixed_room() // view.big_blind)
                    low = min(low, high)
                self.dump = _Dump(kind, self.rng.randint(low, high) * view.big_blind)
                return

    def adjust(self, view: PokerHandView, legal: LegalActions, choice: Choice) -> Choice:
        if self.idle:
            return choice
        dumped = self._dumping(view, legal, choice) if self.dump is not None else None
        final = self._soft(view, legal, choice) if dumped is None else dumped
        if aggressive(legal, final):
            self.aggressor = legal.seat
        return final

    # ------------------------------------------------------------ soft play

    def _soft(self, view: PokerHandView, legal: LegalActions, choice: Choice) -> Choice:
        pair = (self.patterns.player(0), self.patterns.player(1))
        if not self.patterns.active("soft_play") or None in pair:
            return choice
        live = view.live()
        me = view.player_of(legal.seat)
        if len(live) != 2 or me not in pair:
            return choice
        (other,) = [s for s in live if s != legal.seat]
        if view.player_of(other) not in pair or not aggressive(legal, choice):
            return choice
        if self.rng.random() >= self.patterns.strength("soft_play"):
            return choice
        if self.softened != view.hand_id:
            self.softened = view.hand_id
            self.patterns.label("soft_play", view.hand_id, legal.seat,
                                f"seat {legal.seat} does not bet into its partner",
                                [p for p in pair if p is not None])
        return passive(legal)

    # ------------------------------------------------------------ chip dumping

    def _dumping(self, view: PokerHandView, legal: LegalActions,
                 choice: Choice) -> Choice | None:
        giver_id, taker_id = self.patterns.player(0), self.patterns.player(1)
        assert giver_id is not None and taker_id is not None and self.dump is not None
        giver, taker = view.seat_of(giver_id), view.seat_of(taker_id)
        live = view.live()
        if giver is None or taker is None or giver not in live or taker not in live:
            return None
        if legal.seat not in (giver, taker):
            return None
        if self.dump.kind == "fold_dumping":
            return self._fold_dump(view, legal, giver, taker, [giver_id, taker_id])
        return self._showdown_dump(view, legal, giver, taker, [giver_id, taker_id])

    def _fold_dump(self, view: PokerHandView, legal: LegalActions, giver: int, taker: int,
                   cast: list[str]) -> Choice:
        assert self.dump is not None
        invested = view.invested(giver)
        if legal.seat == taker:  # raises to build the pot, then bets for the fold
            if legal.can_raise and (invested >= self.dump.target or legal.call):
                return self._bet(view, legal, legal.raise_min)
            return passive(legal)
        if invested < self.dump.target:
            return self._put_in(view, legal, self.dump.target - invested)
        if legal.call and self.aggressor == taker:
            self._label(view, "fold_dumping", giver,
                        f"seat {giver} folds {invested} chips to seat {taker}", cast)
            return "fold", None
        return passive(legal)

    def _showdown_dump(self, view: PokerHandView, legal: LegalActions, giver: int,
                       taker: int, cast: list[str]) -> Choice | None:
        if not view.late():  # both stay in for small bets, to meet late in the hand
            return passive(legal) if legal.call <= 4 * view.big_blind else None
        if len(view.live()) != 2 or not view.beats(taker, giver):
            return None  # multiway, or the giver holds the better hand: play it
        if legal.seat == taker:  # a pot-sized bet: the giver's call is dear, and hopeless
            if legal.can_raise and self.rng.random() < 0.7:
                size = max(legal.raise_min, min(legal.raise_max, view.pot() + legal.call))
                return self._bet(view, legal, size)
            return passive(legal)
        if legal.call:
            self._label(view, "showdown_dumping", giver,
                        f"seat {giver} calls {legal.call} with a hand seat {taker} beats",
                        cast)
            return passive(legal)
        if legal.can_raise and self.rng.random() < 0.3:
            return self._bet(view, legal, legal.raise_min)
        return "check", None

    def _put_in(self, view: PokerHandView, legal: LegalActions, wanted: int) -> Choice:
        if legal.can_raise and wanted > legal.call:
            return self._bet(view, legal, max(legal.raise_min, min(wanted, legal.raise_max)))
        return passive(legal)

    def _bet(self, view: PokerHandView, legal: LegalActions, chips: int) -> Choice:
        if chips >= legal.stack:
            return "all_in", legal.stack
        return view.bet_kind(legal), chips

    def _label(self, view: PokerHandView, kind: str, seat: int, detail: str,
               cast: list[str]) -> None:
        assert self.dump is not None
        if not self.dump.labelled:
            self.dump.labelled = True
            self.patterns.label(kind, view.hand_id, seat, detail, cast)
