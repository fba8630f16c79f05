//! What a hold'em hand with unknown showdown cards still proves about the pots (TH-9), the
//! port of `services/games/holdem/bounds.py`: a folded seat wins nothing, a seat wins only
//! the pots it is eligible for, a pot between known hands goes to the best of them, a pot
//! with an unknown hand in it to an unknown hand or the best known one. Each seat's net
//! before rake lies between what it surely gets and that plus every uncertain pot it could
//! win: outside is a mispay whoever won; inside, the hand stays unverified (never an
//! accusation of an honest table).

use std::collections::BTreeMap;

use crate::rules::betting::pots::Pot;
use crate::rules::betting::settlement::Settlement;
use crate::rules::betting::showdown::{pot_winners, split_pot, PotAward};
use crate::rules::{Chips, Defer, OrdMap};

/// `net_bounds`: per seat of `contributions`, the least and the most net before rake TH-9
/// allows whatever the `unknown` seats hold. `result`: the hand settled (its awards'
/// amounts and eligibility do not depend on who won); `ranks`: the known hands' strengths.
/// A fee taken out of the pot is in the awards already and no seat's own chips paid it:
/// the comparison adds nothing back then (`own_fee`), so the bounds are of the net as it is.
pub fn net_bounds(result: &Settlement, contributions: &[(i64, Chips)], ranks: &[(i64, Option<i64>)],
                  unknown: &[i64], button: i64) -> Result<BTreeMap<i64, (Chips, Chips)>, Defer> {
    let mut low: BTreeMap<i64, Chips> =
        contributions.iter().map(|(s, _)| (*s, result.refunds.get(*s).copied().unwrap_or(0))).collect();
    let mut high = low.clone();
    for award in result.awards.iter().filter(|a| a.amount != 0) {
        if award.eligible.iter().any(|s| unknown.contains(s)) {
            for seat in possible_winners(&award.eligible, ranks, unknown) {
                *high.entry(seat).or_insert(0) += award.amount;
            }
        } else {
            for &(seat, share) in &known_shares(award, ranks, button)?.items {
                *low.entry(seat).or_insert(0) += share;
                *high.entry(seat).or_insert(0) += share;
            }
        }
    }
    let put = |seat: i64| contributions.iter().find(|(s, _)| *s == seat).map_or(0, |(_, c)| *c);
    let base = |seat: i64| -put(seat);
    Ok(low.iter().map(|(&seat, &lo)| (seat, (lo + base(seat), high.get(&seat).copied().unwrap_or(0) + base(seat))))
        .collect())
}

/// `known_shares`: a pot whose eligible hands are all known goes to the best of them,
/// split with the odd chip left of the button (FCD-11), exactly as when every card is known.
fn known_shares(award: &PotAward, ranks: &[(i64, Option<i64>)], button: i64) -> Result<OrdMap<i64, Chips>, Defer> {
    let pot = Pot { amount: award.amount, eligible: award.eligible.clone(), level: 0 };
    split_pot(award.amount, &pot_winners(&pot, ranks), button)
}

/// `possible_winners`: a pot's unknown hands and its best known ones; every eligible seat
/// when no known hand has a claim (a bound must never be too tight).
fn possible_winners(eligible: &[i64], ranks: &[(i64, Option<i64>)], unknown: &[i64]) -> Vec<i64> {
    let of = |s: i64| if unknown.contains(&s) { None } else { ranks.iter().find(|(seat, _)| *seat == s).and_then(|(_, r)| *r) };
    match eligible.iter().filter_map(|&s| of(s)).max() {
        None => eligible.to_vec(),
        Some(best) => eligible.iter().copied().filter(|&s| unknown.contains(&s) || of(s) == Some(best)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked by hand (QA's side-pot case): seat 2 all-in for 30 with unknown cards, seats
    /// 1 (KK, strength 2) and 3 (QQ, strength 1) in for 100. Main pot 90 (1, 2, 3), side
    /// pot 140 (1, 3). Seat 1 surely wins the side pot: 140 - 100 = +40, at most +130 with
    /// the main pot; seat 2 -30 to +60; seat 3, beaten by KK in both pots, -100.
    #[test]
    fn a_side_pot_between_known_hands_is_certain() {
        let build_pots = vec![Pot { amount: 90, eligible: vec![1, 2, 3], level: 30 },
                              Pot { amount: 140, eligible: vec![1, 3], level: 100 }];
        let awards = crate::rules::betting::showdown::award_pots(&build_pots, &[(1, Some(0)), (2, Some(0)), (3, Some(0))], 4)
            .unwrap();
        let result = Settlement { net: Vec::new(), rake: OrdMap::default(), refunds: OrdMap::default(),
                                  pots: build_pots, awards, pot_rake: 0 };
        let bounds = net_bounds(&result, &[(1, 100), (2, 30), (3, 100), (4, 0)],
                                &[(1, Some(2)), (2, None), (3, Some(1))], &[2], 4).unwrap();
        let want: BTreeMap<i64, (Chips, Chips)> =
            [(1, (40, 130)), (2, (-30, 60)), (3, (-100, -100)), (4, (0, 0))].into_iter().collect();
        assert_eq!(bounds, want);
    }
}
