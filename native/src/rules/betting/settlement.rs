//! Settle a pot game (`services/games/betting/settlement.py`): uncalled bets back (FCD-9),
//! the GEN-10 rake (from the pot before the award, or from the stacks after it), the pots
//! to the best eligible hands with the odd-chip rule (FCD-11), each seat's net after rake.

use super::pots::{build_pots, Pot, PotBuild};
use super::rake::{cap_at_stacks, cap_charges, pot_rake, rake_charges, take_from_pots, RakePolicy};
use super::showdown::{award_pots, PotAward};
use crate::rules::{Chips, Defer, OrdMap};

/// `Settlement`: `net` per seat after rake (seat order); `rake`: each seat's fee;
/// `pot_rake`: what the schedule took from the pot (no seat's).
#[derive(Debug, Clone)]
pub struct Settlement {
    pub net: Vec<(i64, Chips)>,
    pub rake: OrdMap<i64, Chips>,
    pub refunds: OrdMap<i64, Chips>,
    pub pots: Vec<Pot>,
    pub awards: Vec<PotAward>,
    pub pot_rake: Chips,
}

impl Settlement {
    pub fn house(&self) -> Chips {
        self.rake.items.iter().map(|(_, a)| *a).sum::<Chips>() + self.pot_rake
    }
}

/// `settle(contributions, folded, strengths, button, rake, stacks_left)`; `contributions`
/// and `stacks_left` by seat.
pub fn settle(contributions: &[(i64, Chips)], folded: &[i64], strengths: &[(i64, Option<i64>)], button: i64,
              rake: &RakePolicy<'_>, stacks_left: &[(i64, Chips)]) -> Result<Settlement, Defer> {
    let mut sorted = contributions.to_vec();
    sorted.sort_unstable();
    let contenders: Vec<i64> = sorted.iter().map(|(s, _)| *s).filter(|s| !folded.contains(s)).collect();
    let build = build_pots(&sorted, folded, &contenders);
    let pots = build.pots.clone();
    rake_and_award(&build, pots, &sorted, strengths, button, rake, stacks_left)
}

/// `rake_and_award`: the steps after the pots are built.
pub fn rake_and_award(build: &PotBuild, pots: Vec<Pot>, contributions: &[(i64, Chips)], strengths: &[(i64, Option<i64>)],
                      button: i64, rake: &RakePolicy<'_>, stacks_left: &[(i64, Chips)]) -> Result<Settlement, Defer> {
    let seats: Vec<i64> = contributions.iter().map(|(s, _)| *s).collect();
    let participants: Vec<i64> = contributions.iter().filter(|(_, c)| *c > 0).map(|(s, _)| *s).collect();
    let schedule = pot_rake(rake, pots.iter().map(|p| p.amount).sum())?;
    let mut raked = take_from_pots(&pots, schedule)?;
    let mut charges = rake_charges(rake, &participants, &seats, button)?;
    if rake.fee_from_pot {
        charges = cap_charges(&charges, raked.iter().map(|p| p.amount).sum(), button);
        raked = take_from_pots(&raked, charges.items.iter().map(|(_, c)| *c).sum())?;
    }
    let awards = award_pots(&raked, strengths, button)?;
    let mut net: Vec<(i64, Chips)> = contributions
        .iter()
        .map(|&(seat, put)| {
            let won: Chips = awards.iter().map(|a| a.shares.get(seat).copied().unwrap_or(0)).sum();
            (seat, won + build.refunds.get(seat).copied().unwrap_or(0) - put)
        })
        .collect();
    if !rake.fee_from_pot && !charges.items.is_empty() {
        let mut holding = OrdMap::default();
        for (&(seat, n), &(_, put)) in net.iter().zip(contributions) {
            let left = stacks_left.iter().find(|(s, _)| *s == seat).map_or(0, |(_, l)| *l);
            holding.set(seat, left + n + put);
        }
        charges = cap_at_stacks(&charges, &holding);
        for (seat, n) in net.iter_mut() {
            *n -= charges.get(*seat).copied().unwrap_or(0);
        }
    }
    Ok(Settlement { net, rake: charges, refunds: build.refunds.clone(), pots, awards, pot_rake: schedule })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::betting::rake::{PotGameRake, PotRakeSchedule, RakeMode, Rounding};

    fn readings(all_charges_button: bool, fee_from_pot: bool) -> PotGameRake {
        PotGameRake {
            designated_counts_button: true, all_charges_button, fee_from_pot,
            pot: PotRakeSchedule { rate_numerator: 0, rate_denominator: 100, unit: 1, rounding: Rounding::Down,
                                   minimum_pot: 0, no_flop_no_drop: true, caps: Vec::new() },
        }
    }

    fn settled(all_charges_button: bool, fee_from_pot: bool) -> Settlement {
        let readings = readings(all_charges_button, fee_from_pot);
        let rake = RakePolicy::posted(RakeMode::All, 1, &readings, None);
        settle(&[(1, 4), (2, 4), (3, 0)], &[3], &[(1, Some(2)), (2, Some(1))], 3, &rake,
               &[(1, 96), (2, 96), (3, 100)]).unwrap()
    }

    /// GEN-10 reading `all_charges_button`, mode `all`, fee 1, worked by hand. Seats 1
    /// and 2 put in 4 each, seat 3 (the button) folded with nothing in; seat 1 wins the
    /// pot of 8. From the stacks, false: seat 1 +4 - 1 = +3, seat 2 -4 - 1 = -5, seat 3
    /// 0, house 2; true: seat 3 pays 1 from its 100 as well, -1, house 3. From the pot,
    /// true: 8 - 3 = 5 to seat 1, +1; seat 2 -4; seat 3 0 (its fee came out of the pot,
    /// booked to it); house 3; 1 - 4 + 0 + 3 = 0.
    #[test]
    fn all_mode_charges_a_button_with_nothing_in_only_under_the_literal_reading() {
        let out = settled(false, false);
        assert_eq!(out.net, vec![(1, 3), (2, -5), (3, 0)]);
        assert_eq!(out.rake.items, vec![(1, 1), (2, 1)]);
        assert_eq!(out.house(), 2);
        let out = settled(true, false);
        assert_eq!(out.net, vec![(1, 3), (2, -5), (3, -1)]);
        assert_eq!(out.rake.items, vec![(1, 1), (2, 1), (3, 1)]);
        assert_eq!(out.house(), 3);
        let out = settled(true, true);
        assert_eq!(out.net, vec![(1, 1), (2, -4), (3, 0)]);
        assert_eq!(out.rake.items, vec![(1, 1), (2, 1), (3, 1)]);
        assert_eq!(out.house(), 3);
    }
}
