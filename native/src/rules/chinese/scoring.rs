//! Pairwise points between every two live hands (CP-4 .. CP-8), the port of
//! `services/games/chinese/scoring.py`: automatic wins first (CP-7), then fouls (CP-8),
//! then segment by segment with the scoop and bonuses (CP-4, CP-5); the super bonus (CP-6)
//! is the one rule across pairs. The reference's plain-words `detail` is for its decision
//! path only, which stays Python's.

use std::collections::BTreeMap;

use super::evaluation::{category, DRAGON};
use super::reading::{SeatHand, Status};
use crate::rules::profile::{ChineseProfile, ScoringRules};
use crate::rules::Chips;

/// `PairScore`: points `loser` owes `winner` (both None with 0 points on a push).
#[derive(Debug, Clone)]
pub struct PairScore {
    pub a: i64,
    pub b: i64,
    pub winner: Option<i64>,
    pub loser: Option<i64>,
    pub points: Chips,
    pub rule: &'static str,
    pub scooped: bool,
    pub scoop_part: Chips,
}

struct Scoring<'p> {
    rules: &'p ScoringRules,
    segment_points: Chips,
}

/// `score_pairs`: every pair of live hands, then the super bonus (CP-6). `mandarin`:
/// the table's scoring (or the profile's default) is not "standard".
pub fn score_pairs(hands: &BTreeMap<i64, SeatHand>, cp: &ChineseProfile, mandarin: bool) -> Vec<PairScore> {
    let scoring = Scoring {
        rules: if mandarin { &cp.mandarin } else { &cp.standard },
        segment_points: cp.segment_points as Chips,
    };
    let live: Vec<&SeatHand> = hands.values().filter(|h| h.status != Status::Dead).collect();
    let mut pairs = Vec::new();
    for (i, a) in live.iter().enumerate() {
        for b in &live[i + 1..] {
            pairs.push(score_pair(a, b, cp, &scoring));
        }
    }
    apply_super_bonus(pairs, &live, &scoring)
}

fn score_pair(a: &SeatHand, b: &SeatHand, cp: &ChineseProfile, scoring: &Scoring<'_>) -> PairScore {
    if a.status == Status::Auto || b.status == Status::Auto {
        return auto_pair(a, b, cp);
    }
    match (a.status == Status::Foul, b.status == Status::Foul) {
        (true, true) => push(a, b, "CP-8"),
        (true, false) => foul_pair(a, b, scoring),
        (false, true) => foul_pair(b, a, scoring),
        (false, false) => segment_pair(a, b, scoring),
    }
}

fn push(a: &SeatHand, b: &SeatHand, rule: &'static str) -> PairScore {
    PairScore { a: a.seat, b: b.seat, winner: None, loser: None, points: 0, rule, scooped: false, scoop_part: 0 }
}

/// `_auto_pair` (CP-7): an automatic winner collects from every other hand; automatic
/// winners push among themselves, but a dragon beats them.
fn auto_pair(a: &SeatHand, b: &SeatHand, cp: &ChineseProfile) -> PairScore {
    let (winner, loser) = if a.status == Status::Auto && b.status == Status::Auto {
        let (a_dragon, b_dragon) = (a.auto_win == Some(DRAGON), b.auto_win == Some(DRAGON));
        if a_dragon == b_dragon {
            return push(a, b, "CP-7");
        }
        if a_dragon { (a, b) } else { (b, a) }
    } else if a.status == Status::Auto {
        (a, b)
    } else {
        (b, a)
    };
    let points = winner.auto_win.map_or(0, |k| cp.auto_win_points[k as usize]) as Chips;
    PairScore { a: a.seat, b: b.seat, winner: Some(winner.seat), loser: Some(loser.seat), points, rule: "CP-7",
                scooped: false, scoop_part: 0 }
}

/// `hand_bonuses`: the CP-5 bonus points of each segment of a set hand (0 where none).
fn hand_bonuses(hand: &SeatHand, scoring: &Scoring<'_>) -> [Chips; 3] {
    let mut out = [0; 3];
    if let Some(ranks) = hand.ranks {
        for (segment, rank) in ranks.iter().enumerate() {
            out[segment] = scoring.rules.bonus[segment][category(*rank)] as Chips;
        }
    }
    out
}

/// `_foul_pair` (CP-8): the fouler pays the foul points plus every bonus the other hand
/// holds; the pair counts as a scoop for the super bonus.
fn foul_pair(fouler: &SeatHand, other: &SeatHand, scoring: &Scoring<'_>) -> PairScore {
    let foul = scoring.rules.foul_points as Chips;
    let points = foul + hand_bonuses(other, scoring).iter().sum::<Chips>();
    PairScore { a: fouler.seat.min(other.seat), b: fouler.seat.max(other.seat), winner: Some(other.seat),
                loser: Some(fouler.seat), points, rule: "CP-8", scooped: true, scoop_part: foul }
}

/// `_segment_pair` (CP-4 segment by segment; CP-5 scoop and bonuses for segments won).
fn segment_pair(a: &SeatHand, b: &SeatHand, scoring: &Scoring<'_>) -> PairScore {
    let (ra, rb) = (a.ranks.unwrap_or_default(), b.ranks.unwrap_or_default());
    let mut won = [[false; 3]; 2];
    for segment in 0..3 {
        if ra[segment] != rb[segment] {
            won[usize::from(ra[segment] <= rb[segment])][segment] = true;
        }
    }
    let scoop_points = scoring.rules.scoop_points as Chips;
    let mut totals = [0 as Chips; 2];
    let mut scoop: [Option<Chips>; 2] = [None, None];
    let mut any_bonus = false;
    for (i, hand) in [a, b].into_iter().enumerate() {
        let bonuses = hand_bonuses(hand, scoring);
        let count = won[i].iter().filter(|&&w| w).count();
        let base = if count == 3 {
            scoop[i] = Some(scoop_points);
            scoop_points
        } else {
            count as Chips * scoring.segment_points
        };
        let bonus: Vec<Chips> = (0..3).filter(|&s| won[i][s] && bonuses[s] != 0).map(|s| bonuses[s]).collect();
        any_bonus |= !bonus.is_empty();
        totals[i] = base + bonus.iter().sum::<Chips>();
    }
    let net = totals[0] - totals[1];
    let mandarin_scoop = scoop.iter().any(Option::is_some) && scoop_points != 3 * scoring.segment_points;
    let rule = if mandarin_scoop || any_bonus { "CP-5" } else { "CP-4" };
    if net == 0 {
        return push(a, b, rule);
    }
    let (w, winner, loser) = if net > 0 { (0, a.seat, b.seat) } else { (1, b.seat, a.seat) };
    PairScore { a: a.seat, b: b.seat, winner: Some(winner), loser: Some(loser), points: net.abs(), rule,
                scooped: scoop[w].is_some(), scoop_part: scoop[w].unwrap_or(0) }
}

/// `apply_super_bonus` (CP-6): a set hand that scoops every opponent (a foul counts as
/// scooped) at a table of `super_bonus_players` takes the super bonus instead of the scoop
/// (or foul) points from each.
fn apply_super_bonus(mut pairs: Vec<PairScore>, live: &[&SeatHand], scoring: &Scoring<'_>) -> Vec<PairScore> {
    let rules = scoring.rules;
    if rules.super_bonus_points <= 0 || live.len() as i64 != rules.super_bonus_players {
        return pairs;
    }
    let bonus = rules.super_bonus_points as Chips;
    for hand in live.iter().filter(|h| h.status == Status::Set) {
        let seat = hand.seat;
        let mine = |p: &PairScore| p.a == seat || p.b == seat;
        if !pairs.iter().filter(|p| mine(p)).all(|p| p.winner == Some(seat) && p.scooped) {
            continue;
        }
        for p in pairs.iter_mut().filter(|p| mine(p)) {
            p.points += bonus - p.scoop_part;
            p.rule = "CP-6";
            p.scoop_part = bonus;
        }
    }
    pairs
}
