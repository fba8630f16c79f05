"""What a correct Chinese Poker table pays: the simulator's own settlement (CP-4..CP-10,
GEN-10), written from rules.md and not from the adjudicator.

WHY a second implementation: the simulator labels a fault only where the table's payments
differ from the correct ones, and clean play must adjudicate with no finding. If both
sides ran the adjudicator's scoring and settlement, a bug in them (chips = points x
point value + 1, a scoop worth 5) would move both sides alike and every simulator test
would stay green. Written apart, the adjudicator and this module must agree on every
simulated hand, so a mistake in either is a MISPAY or RAKE finding on clean play.

The shape differs from the adjudicator's on purpose: each pair is a signed number of
points (positive: the first seat wins), decided by one function per kind of pair; the
super bonus is settled while the pair is scored, from the opponents' verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Literal

from services.games.chinese.evaluation import category
from services.games.chinese.profile import AutoWin, ChineseProfile, Scoring, ScoringRules

SEGMENT_NAMES = ("front", "middle", "back")
NO_CAP = 10**12  # a table that ignores CP-10 (the simulator's injected fault)


@dataclass(frozen=True)
class Verdict:
    """How the table treats one participant's hand: set (with its three segment codes),
    fouled, or an automatic win of ``auto``."""

    seat: int
    kind: Literal["set", "foul", "auto"]
    ranks: tuple[int, int, int] | None = None
    auto: AutoWin | None = None


@dataclass(frozen=True)
class Payment:
    """``amount`` chips from ``payer`` to ``payee``, of the ``owed`` capped amount."""

    payer: int
    payee: int
    owed: int
    amount: int


@dataclass
class TableSettlement:
    net: dict[int, int]  # per participant, after rake
    rake: dict[int, int]
    transfers: list[Payment] = field(default_factory=list)


# ---------------------------------------------------------------- points (CP-4..CP-8)


def _bonus(rules: ScoringRules, segment: str, rank: int) -> int:
    """CP-5: the bonus for a segment held with the hand of code ``rank``."""
    table: dict[str, int] = getattr(rules.bonus, segment)
    return table.get(category(rank), 0)


def _all_bonuses(rules: ScoringRules, ranks: tuple[int, int, int]) -> int:
    return sum(_bonus(rules, name, rank) for name, rank in zip(SEGMENT_NAMES, ranks,
                                                              strict=True))


def _auto_points(a: Verdict, b: Verdict, cp: ChineseProfile) -> int:
    """CP-7, signed for ``a``: automatic winners push among themselves, except that a
    Dragon beats any other; against any other hand the automatic win collects its points."""
    points = cp.auto_win_points
    if a.kind == "auto" and b.kind == "auto":
        a_dragon, b_dragon = a.auto == "dragon", b.auto == "dragon"
        if a_dragon == b_dragon:
            return 0
        return points.dragon if a_dragon else -points.dragon
    if a.kind == "auto":
        assert a.auto is not None
        return points.of(a.auto)
    assert b.auto is not None
    return -points.of(b.auto)


def _scoop_or_foul_part(winner: Verdict, loser: Verdict, rules: ScoringRules) -> int:
    """The part of a scoop (or a foul, which counts as one: CP-8) the super bonus replaces."""
    return rules.foul_points if loser.kind == "foul" else rules.scoop_points


def _segment_points(a: Verdict, b: Verdict, rules: ScoringRules, per_segment: int) -> int:
    """CP-4 / CP-5 for two set hands, signed for ``a``: each segment won is
    ``per_segment`` points plus its bonus; all three won is the scoop instead."""
    assert a.ranks is not None and b.ranks is not None
    a_total = b_total = 0
    a_won = b_won = 0
    for name, ra, rb in zip(SEGMENT_NAMES, a.ranks, b.ranks, strict=True):
        if ra > rb:
            a_won += 1
            a_total += per_segment + _bonus(rules, name, ra)
        elif rb > ra:
            b_won += 1
            b_total += per_segment + _bonus(rules, name, rb)
    if a_won == 3:
        a_total += rules.scoop_points - 3 * per_segment
    if b_won == 3:
        b_total += rules.scoop_points - 3 * per_segment
    return a_total - b_total


def _scoops(a: Verdict, b: Verdict) -> bool:
    """``a`` (a set hand) won every segment against ``b``, or ``b`` fouled."""
    if a.kind != "set" or b.kind == "auto":
        return False
    if b.kind == "foul":
        return True
    assert a.ranks is not None and b.ranks is not None
    return all(ra > rb for ra, rb in zip(a.ranks, b.ranks, strict=True))


def _plain_points(a: Verdict, b: Verdict, cp: ChineseProfile, rules: ScoringRules) -> int:
    """Points of the pair before any super bonus, signed for ``a``."""
    if a.kind == "auto" or b.kind == "auto":
        return _auto_points(a, b, cp)
    if a.kind == "foul" and b.kind == "foul":
        return 0  # CP-8: two fouls push
    if b.kind == "foul":
        assert a.ranks is not None
        return rules.foul_points + _all_bonuses(rules, a.ranks)
    if a.kind == "foul":
        assert b.ranks is not None
        return -(rules.foul_points + _all_bonuses(rules, b.ranks))
    return _segment_points(a, b, rules, cp.segment_points)


def pair_points(hands: dict[int, Verdict], cp: ChineseProfile,
                scoring: Scoring) -> dict[tuple[int, int], int]:
    """(winner, loser) -> points, for every pair of participants that is not a push.

    CP-6 (Reading): a set hand that scoops every opponent at a table of exactly
    ``super_bonus_players`` takes the super bonus from each instead of the scoop (or the
    foul points), bonuses kept."""
    rules = cp.scoring.of(scoring)
    seats = sorted(hands)
    super_winners = {
        seat for seat in seats
        if rules.super_bonus_points > 0 and len(seats) == rules.super_bonus_players
        and all(_scoops(hands[seat], hands[other]) for other in seats if other != seat)
    }
    out: dict[tuple[int, int], int] = {}
    for a, b in combinations(seats, 2):
        points = _plain_points(hands[a], hands[b], cp, rules)
        for winner, loser, sign in ((a, b, 1), (b, a, -1)):
            if winner in super_winners:
                part = _scoop_or_foul_part(hands[winner], hands[loser], rules)
                points += sign * (rules.super_bonus_points - part)
        if points > 0:
            out[(a, b)] = points
        elif points < 0:
            out[(b, a)] = -points
    return out


# ---------------------------------------------------------------- chips (CP-9, CP-10, GEN-10)


def payment_order(seats: tuple[int, ...] | list[int], button: int,
                  cp: ChineseProfile) -> list[int]:
    """CP-10 Reading: clockwise, from the first seat left of the button (the button last),
    or from the button itself when the profile posts ``order_starts = "button"``."""
    first = button + 1 if cp.payments.order_starts == "left_of_button" else button
    return sorted(seats, key=lambda seat: (seat < first, seat))


def fees(participants: tuple[int, ...], button: int, mode: str, fee: int,
         cp: ChineseProfile) -> dict[int, int]:
    """GEN-10 participation rake: every participant (``all``), all but the button
    (``players``), or the button for everyone (``designated``; the role passes clockwise
    when the button seat is not dealt in)."""
    if fee == 0 or mode == "none" or not participants:
        return {}
    if mode == "all":
        return dict.fromkeys(participants, fee)
    if mode == "players":
        return {seat: fee for seat in participants if seat != button}
    payer = button if button in participants else payment_order(participants, button, cp)[0]
    charged = len(participants) - (0 if cp.rake.designated_counts_button else 1)
    return {payer: fee * charged} if charged > 0 else {}


def settle_table(hands: dict[int, Verdict], participants: tuple[int, ...],
                 stacks: dict[int, int], button: int, point_value: int,
                 rake: dict[int, int], cp: ChineseProfile,
                 scoring: Scoring, cap: bool = True
                 ) -> TableSettlement:
    """The chips: points x point value (CP-9), capped per pair by the winner's starting
    stack (CP-10, unless ``cap`` is off), the rake taken first, then each loser pays its
    winners in payment order as far as its chips go (chips it was paid count)."""
    owed: dict[tuple[int, int], int] = {}
    for (winner, loser), points in pair_points(hands, cp, scoring).items():
        limit = stacks.get(winner, 0) if cap else NO_CAP
        owed[(loser, winner)] = min(points * point_value, limit)
    chips = {seat: max(stacks.get(seat, 0) - rake.get(seat, 0), 0) for seat in participants}
    result = TableSettlement(net={seat: -rake.get(seat, 0) for seat in participants},
                             rake=dict(rake))
    order = payment_order(participants, button, cp)
    for payer in order:
        for payee in order:
            due = owed.get((payer, payee), 0)
            if due <= 0:
                continue
            paid = min(due, chips[payer])
            chips[payer] -= paid
            chips[payee] += paid
            result.net[payer] -= paid
            result.net[payee] += paid
            result.transfers.append(Payment(payer, payee, due, paid))
    return result
