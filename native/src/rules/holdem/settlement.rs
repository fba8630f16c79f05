//! Settling a hold'em hand whose antes are dead money (`services/games/holdem/settlement.py`,
//! TH-1, TH-9, GEN-10): the pots are built from the live chips, the dead antes join the
//! main pot, then the engine's rake and award steps run as in `settle`.

use crate::rules::betting::pots::{build_pots, Pot};
use crate::rules::betting::rake::RakePolicy;
use crate::rules::betting::settlement::{rake_and_award, Settlement};
use crate::rules::{Chips, Defer};

/// `settle_with_dead_money`: `dead` is the part of each seat's contribution that was dead
/// money (antes; in the walk's order, seats outside the hand included, as the reference sums them).
pub fn settle_with_dead_money(contributions: &[(i64, Chips)], dead: &[(i64, Chips)], folded: &[i64],
                              strengths: &[(i64, Option<i64>)], button: i64, rake: &RakePolicy<'_>,
                              stacks_left: &[(i64, Chips)]) -> Result<Settlement, Defer> {
    let mut sorted = contributions.to_vec();
    sorted.sort_unstable();
    let contenders: Vec<i64> = sorted.iter().map(|(s, _)| *s).filter(|s| !folded.contains(s)).collect();
    let dead_of = |seat: i64| dead.iter().find(|(s, _)| *s == seat).map_or(0, |(_, d)| *d);
    let live: Vec<(i64, Chips)> = sorted.iter().map(|&(s, c)| (s, c - dead_of(s))).collect();
    let build = build_pots(&live, folded, &contenders);
    let total: Chips = dead.iter().map(|(_, d)| *d).sum();
    let pots = with_dead_money(build.pots.clone(), total, &contenders);
    rake_and_award(&build, pots, &sorted, strengths, button, rake, stacks_left)
}

/// `_with_dead_money`: dead money joins the main pot (or is the only pot when nobody bet
/// live chips); with a contender all-in on its ante alone (in no layer), it is a pot of its
/// own, first, every contender eligible.
fn with_dead_money(mut pots: Vec<Pot>, dead: Chips, contenders: &[i64]) -> Vec<Pot> {
    if dead == 0 {
        return pots;
    }
    let mut everyone = contenders.to_vec();
    everyone.sort_unstable();
    if pots.is_empty() || everyone.iter().any(|s| !pots[0].eligible.contains(s)) {
        pots.insert(0, Pot { amount: dead, eligible: everyone, level: 0 });
        return pots;
    }
    pots[0].amount += dead;
    pots
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::betting::rake::{PotGameRake, PotRakeSchedule, RakeMode, Rounding};

    fn no_rake() -> PotGameRake {
        PotGameRake {
            designated_counts_button: true,
            all_charges_button: false,
            fee_from_pot: false,
            pot: PotRakeSchedule { rate_numerator: 0, rate_denominator: 100, unit: 1, rounding: Rounding::Down,
                                   minimum_pot: 0, no_flop_no_drop: true, caps: Vec::new() },
        }
    }

    /// Worked by hand: seat 2 put in 10, of which a dead ante of 2; seat 1 put in 10. The
    /// live chips are 10 and 8: a pot of 16, seat 1's last 2 uncalled and returned; the
    /// dead 2 join the main pot (18), which seat 2 wins: +8 and -8.
    #[test]
    fn a_dead_ante_joins_the_main_pot_and_is_not_returned() {
        let readings = no_rake();
        let rake = RakePolicy::posted(RakeMode::None, 0, &readings, None);
        let out = settle_with_dead_money(&[(1, 10), (2, 10)], &[(2, 2)], &[], &[(1, Some(1)), (2, Some(2))], 1,
                                         &rake, &[(1, 0), (2, 0)]).unwrap();
        assert_eq!(out.net, vec![(1, -8), (2, 8)]);
        assert_eq!(out.pots.iter().map(|p| p.amount).collect::<Vec<_>>(), vec![18]);
    }

    /// Nobody bet live chips: the dead money is the only pot, every contender eligible.
    #[test]
    fn dead_money_alone_is_a_pot() {
        let pots = with_dead_money(Vec::new(), 3, &[4, 2]);
        assert_eq!(pots, vec![Pot { amount: 3, eligible: vec![2, 4], level: 0 }]);
    }
}
