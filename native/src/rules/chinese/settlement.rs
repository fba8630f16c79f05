//! From pairwise points to chips, the port of `services/games/chinese/settlement.py`:
//! point value (CP-9), table stakes and the clockwise payment order (CP-10), and the
//! participation rake (GEN-10). The rake is taken before anyone is paid; each pair's
//! amount is capped by the winner's stack at the start of the hand; the losers then pay
//! one after the other, each as far as its chips go at that moment.

use std::collections::{BTreeMap, BTreeSet};

use super::scoring::PairScore;
use crate::rules::profile::ChineseProfile;
use crate::rules::{finding, mul, Chips, Defer, RFinding};

/// `Transfer`: `amount` chips from `payer` to `payee`.
#[derive(Debug, Clone)]
pub struct Transfer {
    pub payer: i64,
    pub payee: i64,
    pub amount: Chips,
}

/// `Settlement`: net per seat after rake, the payments, the seats a cap or shortfall
/// touched (CP-10).
#[derive(Debug, Default)]
pub struct Settlement {
    pub net: BTreeMap<i64, Chips>,
    pub transfers: Vec<Transfer>,
    pub capped: BTreeSet<i64>,
}

/// `clockwise_order`: seats clockwise from left of the button (or from it:
/// `payments.order_starts`).
fn clockwise_order(seats: &[i64], button: i64, cp: &ChineseProfile) -> Vec<i64> {
    let start = if cp.order_starts_left_of_button { button + 1 } else { button };
    let mut ordered = seats.to_vec();
    ordered.sort_unstable();
    let (after, before): (Vec<i64>, Vec<i64>) = ordered.into_iter().partition(|&s| s >= start);
    after.into_iter().chain(before).collect()
}

/// `rake_due` (GEN-10): `all` every participant pays the fee; `players` all but the
/// button; `designated` the button (or the first participant clockwise from it) pays it
/// for every participant (itself included per `rake.designated_counts_button`).
pub fn rake_due(participants: &[i64], button: i64, mode: &str, fee: Chips, cp: &ChineseProfile)
                -> Result<BTreeMap<i64, Chips>, Defer> {
    if mode == "none" || fee == 0 || participants.is_empty() {
        return Ok(BTreeMap::new());
    }
    match mode {
        "all" => return Ok(participants.iter().map(|&s| (s, fee)).collect()),
        "players" => return Ok(participants.iter().filter(|&&s| s != button).map(|&s| (s, fee)).collect()),
        _ => {}
    }
    let payer = if participants.contains(&button) { button } else { clockwise_order(participants, button, cp)[0] };
    let counted = participants.len() as Chips - Chips::from(!cp.designated_counts_button);
    if counted <= 0 {
        return Ok(BTreeMap::new());
    }
    Ok(std::iter::once((payer, mul(fee, counted)?)).collect())
}

/// `stake_findings` (GEN-2 with `rake.stake_counts_fee`): a Chinese Poker seat covers no
/// wager (CP-10), so what the hand can require of it is the GEN-10 fee it pays; a seat
/// that started the hand with less is INSUFFICIENT_STAKE.
pub fn stake_findings(rake: &BTreeMap<i64, Chips>, stacks: &BTreeMap<i64, Chips>, cp: &ChineseProfile) -> Vec<RFinding> {
    let mut out = Vec::new();
    for (&seat, &fee) in rake {
        let stack = stacks.get(&seat).copied().unwrap_or(0);
        if stack < fee {
            out.push(finding("INSUFFICIENT_STAKE", "GEN-2", cp.severity.insufficient_stake, format!(
                "seat {} started with {} chips but the hand can require {} (its participation fee, GEN-10)",
                seat, stack, fee), Some(seat), Some(fee - stack)));
        }
    }
    out
}

/// `fees_within_stacks` (GEN-2 Reading `rake.stake_counts_fee`): the fee expected from a
/// seat is at most its stack at `hand_started`, the chips it has when the fee falls due
/// (first, before any point is paid). The chips a fee is short are the INSUFFICIENT_STAKE
/// (GEN-2) finding's, not a RAKE_UNDER (the reference says why).
pub fn fees_within_stacks(rake: &BTreeMap<i64, Chips>, stacks: &BTreeMap<i64, Chips>) -> BTreeMap<i64, Chips> {
    rake.iter()
        .map(|(&seat, &fee)| (seat, fee.min(stacks.get(&seat).copied().unwrap_or(0).max(0))))
        .filter(|&(_, paid)| paid != 0)
        .collect()
}

/// `settle`: CP-9 point value, CP-10 caps and payment order; net per seat after rake.
pub fn settle(pairs: &[PairScore], participants: &[i64], stacks: &BTreeMap<i64, Chips>, button: i64,
              point_value: Chips, rake: &BTreeMap<i64, Chips>, cp: &ChineseProfile) -> Result<Settlement, Defer> {
    let fee = |seat: &i64| rake.get(seat).copied().unwrap_or(0);
    let mut out = Settlement {
        net: participants.iter().map(|s| (*s, -fee(s))).collect(),
        ..Settlement::default()
    };
    let owed = capped_amounts(pairs, stacks, point_value, &mut out)?;
    let order = clockwise_order(participants, button, cp);
    let mut available: BTreeMap<i64, Chips> = participants.iter()
        .map(|s| (*s, (stacks.get(s).copied().unwrap_or(0) - fee(s)).max(0))).collect();
    for &payer in &order {
        for &payee in &order {
            let due = owed.get(&(payer, payee)).copied().unwrap_or(0);
            if due == 0 {
                continue;
            }
            let paid = due.min(available.get(&payer).copied().unwrap_or(0));
            *available.entry(payer).or_insert(0) -= paid;
            *available.entry(payee).or_insert(0) += paid;
            *out.net.entry(payer).or_insert(0) -= paid;
            *out.net.entry(payee).or_insert(0) += paid;
            out.transfers.push(Transfer { payer, payee, amount: paid });
            if paid != due {
                out.capped.insert(payer);
                out.capped.insert(payee);
            }
        }
    }
    Ok(out)
}

/// `_capped_amounts`: chips = points x point value (CP-9), at most the winner's starting
/// stack (CP-10); `(loser, winner) -> chips`.
fn capped_amounts(pairs: &[PairScore], stacks: &BTreeMap<i64, Chips>, point_value: Chips, out: &mut Settlement)
                  -> Result<BTreeMap<(i64, i64), Chips>, Defer> {
    let mut owed = BTreeMap::new();
    for pair in pairs {
        let (winner, loser) = match (pair.winner, pair.loser) {
            (Some(w), Some(l)) if pair.points != 0 => (w, l),
            _ => continue,
        };
        let mut chips = mul(pair.points, point_value)?;
        let cap = stacks.get(&winner).copied().unwrap_or(0);
        if chips > cap {
            out.capped.insert(winner);
            out.capped.insert(loser);
            chips = cap;
        }
        if chips != 0 {
            owed.insert((loser, winner), chips);
        }
    }
    Ok(owed)
}
