"""Pairwise points between every two participants (CP-4 .. CP-8), before chips and caps.

Every pair of live hands is scored on its own; the only cross-pair rule is the super bonus
(CP-6), which needs to know whether one player scooped (or was fouled against by) every
opponent. The result of a pair is a single net amount of points from the loser to the
winner, with the rule that decided it and a plain-words account for the trace.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

from services.games.chinese import evaluation as cp_eval
from services.games.chinese.profile import SEGMENTS, ChineseProfile, ScoringRules, Segment
from services.games.chinese.reading import SeatHand
from services.games.model import TraceStep


@dataclass(frozen=True)
class PairScore:
    """Points ``loser`` owes ``winner`` (both None with 0 points on a push).

    ``scooped``: ``winner`` took all three segments, or ``loser`` fouled (CP-8: a foul counts
    as being scooped) — the pairs the super bonus (CP-6) looks at. ``scoop_part``: the
    scoop (or foul) points inside ``points`` (replaced by the super bonus when it applies).
    ``bonus_points``: the winner's CP-5 bonus points inside ``points``; when ``rule`` is
    another rule (a foul pays the other hand's bonuses, CP-8; a super bonus, CP-6), the
    decision path cites CP-5 for them too.
    """

    a: int
    b: int
    winner: int | None
    loser: int | None
    points: int
    rule: str
    detail: str
    scooped: bool = False
    scoop_part: int = 0
    bonus_points: int = 0


@dataclass(frozen=True)
class Scoring:
    rules: ScoringRules
    segment_points: int


def score_pairs(hands: dict[int, SeatHand], cp: ChineseProfile, scoring_name: str,
                trace: list[TraceStep]) -> list[PairScore]:
    """Score every pair of live hands, then apply the super bonus (CP-6)."""
    scoring = Scoring(cp.scoring.of("standard" if scoring_name == "standard" else "mandarin"),
                      cp.segment_points)
    live = {seat: hand for seat, hand in hands.items() if hand.status != "dead"}
    pairs = [score_pair(live[a], live[b], cp, scoring) for a, b in combinations(sorted(live), 2)]
    pairs = apply_super_bonus(pairs, live, scoring, trace)
    for pair in pairs:
        trace.append(TraceStep(pair.rule, pair.detail, pair.winner))
        if pair.bonus_points and pair.rule != "CP-5":
            trace.append(TraceStep("CP-5", f"of which {pair.bonus_points} bonus point(s) for "
                                           f"seat {pair.winner}'s hand", pair.winner))
    return pairs


def score_pair(a: SeatHand, b: SeatHand, cp: ChineseProfile, scoring: Scoring) -> PairScore:
    """One pair: automatic wins first (CP-7), then fouls (CP-8), then segments (CP-4/CP-5)."""
    if a.status == "auto" or b.status == "auto":
        return _auto_pair(a, b, cp)
    if a.status == "foul" and b.status == "foul":
        return PairScore(a.seat, b.seat, None, None, 0, "CP-8",
                         f"seats {a.seat} and {b.seat} both fouled: push")
    if a.status == "foul" or b.status == "foul":
        fouler, other = (a, b) if a.status == "foul" else (b, a)
        return _foul_pair(fouler, other, scoring)
    return _segment_pair(a, b, scoring)


def _auto_pair(a: SeatHand, b: SeatHand, cp: ChineseProfile) -> PairScore:
    """CP-7: an automatic winner collects its points from every other hand (a foul
    included, CP-8); automatic winners push among themselves, but a dragon beats them."""
    if a.status == "auto" and b.status == "auto":
        a_dragon, b_dragon = a.auto_win == "dragon", b.auto_win == "dragon"
        if a_dragon == b_dragon:
            return PairScore(a.seat, b.seat, None, None, 0, "CP-7",
                             f"seats {a.seat} ({a.auto_win}) and {b.seat} ({b.auto_win}) both "
                             "hold automatic wins: push")
        winner, loser = (a, b) if a_dragon else (b, a)
    else:
        winner, loser = (a, b) if a.status == "auto" else (b, a)
    assert winner.auto_win is not None
    points = cp.auto_win_points.of(winner.auto_win)
    return PairScore(a.seat, b.seat, winner.seat, loser.seat, points, "CP-7",
                     f"seat {winner.seat} ({winner.auto_win}) collects {points} from seat "
                     f"{loser.seat} ({_label(loser)})")


def _label(hand: SeatHand) -> str:
    if hand.status == "auto":
        return str(hand.auto_win)
    return "fouled" if hand.status == "foul" else "set hand"


def hand_bonuses(hand: SeatHand, scoring: Scoring) -> list[tuple[Segment, str, int]]:
    """CP-5 bonuses the hand's segments hold (segment, category, points), all segments."""
    assert hand.ranks is not None
    out = []
    for name, rank in zip(SEGMENTS, hand.ranks, strict=True):
        category = cp_eval.category(rank)
        points = scoring.rules.bonus.of(name, category)
        if points:
            out.append((name, category, points))
    return out


def _foul_pair(fouler: SeatHand, other: SeatHand, scoring: Scoring) -> PairScore:
    """CP-8: the fouler pays the foul points (6, under either scoring: ``foul_points``) plus
    every bonus the other hand holds; the pair counts as a scoop for the super bonus."""
    bonuses = hand_bonuses(other, scoring)
    foul = scoring.rules.foul_points
    points = foul + sum(p for _, _, p in bonuses)
    return PairScore(fouler.seat if fouler.seat < other.seat else other.seat,
                     other.seat if fouler.seat < other.seat else fouler.seat,
                     other.seat, fouler.seat, points, "CP-8",
                     f"seat {fouler.seat} fouled: pays seat {other.seat} {foul}"
                     + _bonus_words(bonuses) + f" = {points}",
                     scooped=True, scoop_part=foul,
                     bonus_points=sum(p for _, _, p in bonuses))


def _bonus_words(bonuses: list[tuple[Segment, str, int]]) -> str:
    return "".join(f" + {p} ({c.replace('_', ' ')} in the {s})" for s, c, p in bonuses)


def _segment_pair(a: SeatHand, b: SeatHand, scoring: Scoring) -> PairScore:
    """CP-4 segment by segment; CP-5 scoop and bonuses for segments won."""
    assert a.ranks is not None and b.ranks is not None
    won: dict[int, list[Segment]] = {a.seat: [], b.seat: []}
    words = []
    for name, ra, rb in zip(SEGMENTS, a.ranks, b.ranks, strict=True):
        if ra == rb:
            words.append(f"{name} push")
            continue
        seg_winner = a.seat if ra > rb else b.seat
        won[seg_winner].append(name)
        words.append(f"{name} to seat {seg_winner}")
    totals: dict[int, int] = {}
    notes: dict[int, list[str]] = {}
    scoop: dict[int, int] = {}
    bonus_of: dict[int, int] = {}
    any_bonus = False
    for hand in (a, b):
        segments = won[hand.seat]
        bonuses = [(s, c, p) for s, c, p in hand_bonuses(hand, scoring) if s in segments]
        if len(segments) == len(SEGMENTS):
            scoop[hand.seat] = scoring.rules.scoop_points
            base = scoring.rules.scoop_points
            notes[hand.seat] = [f"scoop {base}"]
        else:
            base = len(segments) * scoring.segment_points
            notes[hand.seat] = [f"{len(segments)} segment(s) {base}"]
        bonus_of[hand.seat] = sum(p for _, _, p in bonuses)
        totals[hand.seat] = base + bonus_of[hand.seat]
        any_bonus = any_bonus or bool(bonuses)
        notes[hand.seat] += [_bonus_words(bonuses).strip(" +")] if bonuses else []
    net = totals[a.seat] - totals[b.seat]
    detail = (f"seat {a.seat} vs seat {b.seat}: {', '.join(words)}; seat {a.seat} "
              f"{' + '.join(notes[a.seat])} = {totals[a.seat]}, seat {b.seat} "
              f"{' + '.join(notes[b.seat])} = {totals[b.seat]}")
    mandarin_scoop = bool(scoop) and scoring.rules.scoop_points != len(SEGMENTS) * \
        scoring.segment_points
    rule = "CP-5" if mandarin_scoop or any_bonus else "CP-4"
    if net == 0:
        return PairScore(a.seat, b.seat, None, None, 0, rule, detail + ": even")
    winner, loser = (a.seat, b.seat) if net > 0 else (b.seat, a.seat)
    return PairScore(a.seat, b.seat, winner, loser, abs(net), rule,
                     detail + f": seat {loser} pays seat {winner} {abs(net)}",
                     scooped=winner in scoop, scoop_part=scoop.get(winner, 0),
                     bonus_points=bonus_of[winner])


def apply_super_bonus(pairs: list[PairScore], live: dict[int, SeatHand], scoring: Scoring,
                      trace: list[TraceStep]) -> list[PairScore]:
    """CP-6: a set hand that scoops every opponent (a foul counts as scooped, CP-8) at a
    table of ``super_bonus_players`` takes the super bonus instead of the scoop from each."""
    rules = scoring.rules
    if rules.super_bonus_points <= 0 or len(live) != rules.super_bonus_players:
        return pairs
    out = list(pairs)
    for seat, hand in sorted(live.items()):
        if hand.status != "set":
            continue
        mine = [i for i, p in enumerate(out) if seat in (p.a, p.b)]
        if not all(out[i].winner == seat and out[i].scooped for i in mine):
            continue
        trace.append(TraceStep("CP-6", f"seat {seat} scooped all {len(mine)} opponents: super "
                                       f"bonus {rules.super_bonus_points} instead of the scoop "
                                       "(or foul) points from each", seat))
        for i in mine:
            p = out[i]
            extra = rules.super_bonus_points - p.scoop_part
            out[i] = replace(p, points=p.points + extra, rule="CP-6",
                             scoop_part=rules.super_bonus_points,
                             detail=p.detail + f"; super bonus: +{extra} = {p.points + extra}")
    return out
