//! HCF-5 as the table applied it (`services/games/hcf/order.py`): when the recorded
//! results differ from the rules' and the DP could not have covered every winner, the
//! live players are settled again in the other orders (at most `MAX_PLAYERS`); one that
//! reproduces exactly what the table recorded is a SETTLEMENT_ORDER finding.

use super::procedure::SeatPlay;
use super::reading::RecordedSeat;
use super::settlement::Settlement;
use crate::rules::{finding, int_list, Chips, Defer, OrdMap, RFinding, Sev};

pub const MAX_PLAYERS: usize = 7; // 7! = 5,040 settlements at most, and only in dispute

/// The order the table's results correspond to, and the seats it settled wrongly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableOrder {
    pub order: Vec<i64>,
    pub seats: Vec<i64>,
}

/// The seat's recorded result before rake, as the settlement's `delta` counts it.
pub fn recorded_delta(rec: Option<&RecordedSeat>) -> Chips {
    rec.map_or(0, |r| r.win_paid + r.bonus_paid + r.other_paid - r.collected.total())
}

/// The next permutation in lexicographic order (false after the last), so that the
/// orders are tried in `itertools.permutations`' order.
fn next_permutation(p: &mut [usize]) -> bool {
    if p.len() < 2 {
        return false;
    }
    let mut i = p.len() - 1;
    while i > 0 && p[i - 1] >= p[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = p.len() - 1;
    while p[j] <= p[i - 1] {
        j -= 1;
    }
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

/// `table_order`: the other order whose settlement is exactly what the table recorded.
pub fn table_order(plays: &[SeatPlay], expected: &Settlement, recorded: &OrdMap<i64, RecordedSeat>,
                   settle_in: &dyn Fn(&[SeatPlay]) -> Result<Settlement, Defer>) -> Result<Option<TableOrder>, Defer> {
    let got = |seat: i64| recorded_delta(recorded.get(seat));
    let wrong: Vec<i64> = expected.seats.iter().filter(|s| got(s.seat) != s.delta).map(|s| s.seat).collect();
    let live: Vec<usize> = plays.iter().enumerate().filter(|(_, p)| !p.folded).map(|(i, _)| i).collect();
    if wrong.is_empty() || expected.winnings <= expected.funds_at_start || live.len() > MAX_PLAYERS {
        return Ok(None);
    }
    let mut perm: Vec<usize> = (0..live.len()).collect();
    while next_permutation(&mut perm) {
        // folded players keep their places (their wagers are swept)
        let mut ordered: Vec<SeatPlay> = plays.to_vec();
        for (place, &pick) in live.iter().zip(perm.iter()) {
            ordered[*place] = plays[live[pick]].clone();
        }
        let alt = settle_in(&ordered)?;
        if alt.seats.iter().all(|s| s.delta == got(s.seat)) {
            let order = perm.iter().map(|&pick| plays[live[pick]].seat).collect();
            return Ok(Some(TableOrder { order, seats: wrong }));
        }
    }
    Ok(None)
}

/// SETTLEMENT_ORDER (HCF-5): the order the table's results correspond to.
pub fn order_finding(found: &TableOrder, plays: &[SeatPlay], severity: Sev) -> RFinding {
    let seats: Vec<String> = found.seats.iter().map(|s| s.to_string()).collect();
    let hcf5: Vec<i64> = plays.iter().filter(|p| !p.folded).map(|p| p.seat).collect();
    finding("SETTLEMENT_ORDER", "HCF-5", severity, format!(
        "the table's results are the settlement of the players in the order {}, not HCF-5's {} \
         (counter-clockwise from the right of the button); in that order the DP's funds (HCF-11) \
         gave seat(s) {} the wrong result",
        int_list(&found.order), int_list(&hcf5), seats.join(", ")), None, None)
}

#[cfg(test)]
mod tests {
    use super::next_permutation;

    #[test]
    fn permutations_come_in_itertools_order() {
        let mut p = vec![0, 1, 2];
        let mut seen = vec![p.clone()];
        while next_permutation(&mut p) {
            seen.push(p.clone());
        }
        assert_eq!(seen, vec![vec![0, 1, 2], vec![0, 2, 1], vec![1, 0, 2], vec![1, 2, 0], vec![2, 0, 1], vec![2, 1, 0]]);
    }
}
