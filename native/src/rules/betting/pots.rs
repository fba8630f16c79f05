//! Main pot, side pots and uncalled bets from what each seat put in (FCD-11), the port of
//! `services/games/betting/pots.py`: a layer per contribution level, adjacent layers with
//! the same eligible seats merged, a layer one seat reached returned to it (FCD-9), a layer
//! nobody eligible can win joined to the nearest pot below (else above).

use crate::rules::{Chips, OrdMap};

/// `Pot`: `amount` chips winnable by the `eligible` seats (seat order), up to `level`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pot {
    pub amount: Chips,
    pub eligible: Vec<i64>,
    pub level: Chips,
}

/// `PotBuild`: the pots, main pot first, and the uncalled chips returned per seat.
#[derive(Debug, Clone)]
pub struct PotBuild {
    pub pots: Vec<Pot>,
    pub refunds: OrdMap<i64, Chips>,
}

/// `build_pots(contributions, folded, contenders)`.
pub fn build_pots(contributions: &[(i64, Chips)], folded: &[i64], contenders: &[i64]) -> PotBuild {
    let (layers, refunds) = layers(contributions, folded);
    let mut pots = attach_orphans(merge_equal_neighbours(layers));
    if let Some(last) = pots.last_mut() {
        if last.eligible.is_empty() {
            let mut fallback: Vec<i64> = contenders.to_vec();
            if fallback.is_empty() {
                fallback = contributions.iter().filter(|(_, c)| *c > 0).map(|(s, _)| *s).collect();
            }
            fallback.sort_unstable();
            last.eligible = fallback;
        }
    }
    PotBuild { pots, refunds }
}

fn layers(contributions: &[(i64, Chips)], folded: &[i64]) -> (Vec<Pot>, OrdMap<i64, Chips>) {
    let mut levels: Vec<Chips> = contributions.iter().map(|(_, c)| *c).filter(|c| *c > 0).collect();
    levels.sort_unstable();
    levels.dedup();
    let mut out = Vec::new();
    let mut refunds: OrdMap<i64, Chips> = OrdMap::default();
    let mut previous = 0;
    for level in levels {
        let mut reached: Vec<i64> = contributions.iter().filter(|(_, c)| *c >= level).map(|(s, _)| *s).collect();
        reached.sort_unstable();
        let amount = (level - previous) * reached.len() as Chips;
        if reached.len() == 1 {
            *refunds.slot(reached[0], || 0) += amount; // FCD-9: uncalled, returned
        } else {
            let eligible = reached.into_iter().filter(|s| !folded.contains(s)).collect();
            out.push(Pot { amount, eligible, level });
        }
        previous = level;
    }
    (out, refunds)
}

fn merge_equal_neighbours(layers: Vec<Pot>) -> Vec<Pot> {
    let mut merged: Vec<Pot> = Vec::new();
    for layer in layers {
        match merged.last_mut() {
            Some(last) if last.eligible == layer.eligible => {
                last.amount += layer.amount;
                last.level = layer.level;
            }
            _ => merged.push(layer),
        }
    }
    merged
}

/// Layers with no eligible seat join the nearest pot below (else above).
fn attach_orphans(pots: Vec<Pot>) -> Vec<Pot> {
    let last_level = pots.last().map_or(0, |p| p.level);
    let mut out: Vec<Pot> = Vec::new();
    let mut carried = 0;
    for pot in pots {
        if pot.eligible.is_empty() {
            match out.last_mut() {
                Some(last) => {
                    last.amount += pot.amount;
                    last.level = pot.level;
                }
                None => carried += pot.amount,
            }
            continue;
        }
        out.push(Pot { amount: pot.amount + carried, eligible: pot.eligible, level: pot.level });
        carried = 0;
    }
    if carried != 0 {
        out.push(Pot { amount: carried, eligible: Vec::new(), level: last_level });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_pots_and_an_uncalled_bet() {
        let build = build_pots(&[(1, 50), (2, 100), (3, 300)], &[], &[1, 2, 3]);
        assert_eq!(build.pots, vec![
            Pot { amount: 150, eligible: vec![1, 2, 3], level: 50 },
            Pot { amount: 100, eligible: vec![2, 3], level: 100 },
        ]);
        assert_eq!(build.refunds.items, vec![(3, 200)]);
    }
}
