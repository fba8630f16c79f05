//! Who wins each pot, and the odd chip (FCD-9, FCD-11), the port of
//! `services/games/betting/showdown.py`. Strengths are plain integers (higher wins) from
//! the game's own evaluator; a seat with none (mucked, unknown) cannot win while another
//! eligible seat has one.

use super::pots::Pot;
use super::seating::clockwise_after;
use crate::rules::{Chips, Defer, OrdMap};

/// `PotAward`: how one pot (after rake) was shared.
#[derive(Debug, Clone)]
pub struct PotAward {
    pub index: usize,
    pub amount: Chips,
    pub eligible: Vec<i64>,
    pub winners: Vec<i64>,
    pub shares: OrdMap<i64, Chips>,
}

/// `split_pot` (FCD-11): equal hands split; the odd chips one each clockwise from the
/// first winner left of the button.
pub fn split_pot(amount: Chips, winners: &[i64], button: i64) -> Result<OrdMap<i64, Chips>, Defer> {
    if winners.is_empty() {
        return Err(Defer("a pot with no winner"));
    }
    let n = winners.len() as Chips;
    let (share, odd) = (amount.div_euclid(n), amount.rem_euclid(n));
    let mut out = OrdMap::default();
    for (i, seat) in clockwise_after(winners, button).into_iter().enumerate() {
        out.set(seat, share + if (i as Chips) < odd { 1 } else { 0 });
    }
    Ok(out)
}

/// `pot_winners`: the best hands among the eligible seats (all tie if none has a strength).
/// `strengths`: by seat, None for a seat with no claim; a seat absent has none either.
pub fn pot_winners(pot: &Pot, strengths: &[(i64, Option<i64>)]) -> Vec<i64> {
    let of = |s: i64| strengths.iter().find(|(seat, _)| *seat == s).and_then(|(_, v)| *v);
    let ranked: Vec<i64> = pot.eligible.iter().copied().filter(|&s| of(s).is_some()).collect();
    if ranked.is_empty() {
        return pot.eligible.clone();
    }
    let best = ranked.iter().filter_map(|&s| of(s)).max();
    ranked.into_iter().filter(|&s| of(s) == best).collect()
}

/// `award_pots`: each pot to the best eligible hand, split with the odd-chip rule.
pub fn award_pots(pots: &[Pot], strengths: &[(i64, Option<i64>)], button: i64) -> Result<Vec<PotAward>, Defer> {
    let mut awards = Vec::with_capacity(pots.len());
    for (index, pot) in pots.iter().enumerate() {
        let winners = pot_winners(pot, strengths);
        let shares = if pot.amount != 0 { split_pot(pot.amount, &winners, button)? } else { OrdMap::default() };
        awards.push(PotAward { index, amount: pot.amount, eligible: pot.eligible.clone(), winners, shares });
    }
    Ok(awards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_odd_chip_goes_left_of_the_button() {
        assert_eq!(split_pot(7, &[1, 3], 1).unwrap().items, vec![(3, 4), (1, 3)]);
        assert!(split_pot(7, &[], 1).is_err());
    }
}
