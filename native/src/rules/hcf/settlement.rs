//! High Card Flush settlement (`services/games/hcf/settlement.py`): DP qualification
//! (HCF-7), comparisons (HCF-6/7), bonuses by paytable (HCF-8/9, HCF-10 readings), the
//! bonus cap (HCF-10), the DP's bankroll in HCF-5 order (HCF-11) and the rake (HCF-12).

use std::cmp::Ordering;

use super::procedure::SeatPlay;
use crate::rules::evaluation::{dp_qualifies, flush_length, flush_value, straight_flush_strength, suit_masks};
use crate::rules::profile::HcfRules;
use crate::rules::{finding, mul, Chips, Defer, OrdMap, RFinding};

const SEAT_RING: i64 = 1000; // larger than any seat number: (dp - seat) % ring orders seats

/// Wagers collected from one seat by kind (0: none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Collected {
    pub ante: Chips,
    pub raise: Chips,
    pub flush_bonus: Chips,
    pub sf_bonus: Chips,
}

impl Collected {
    pub fn total(&self) -> Chips {
        self.ante + self.raise + self.flush_bonus + self.sf_bonus
    }
}

/// One player's expected settlement, split like the table records it.
#[derive(Debug, Clone)]
pub struct SeatSettlement {
    pub seat: i64,
    /// the rule that decided the Ante/Raise part (HCF-7, HCF-4, GEN-7, HCF-11)
    pub rule: &'static str,
    /// stack change before rake
    pub delta: Chips,
    pub win_paid: Chips,
    pub bonus_paid: Chips,
    pub collected: Collected,
    pub flush_win: Chips,
    pub sf_win: Chips,
    /// a participant for HCF-12
    pub counted: bool,
    /// HCF-11
    pub dead: bool,
    /// its bonuses were forfeited (HCF-4 / GEN-7), never paid
    pub folded: bool,
}

impl SeatSettlement {
    fn new(seat: i64, rule: &'static str) -> Self {
        SeatSettlement {
            seat, rule, delta: 0, win_paid: 0, bonus_paid: 0, collected: Collected::default(),
            flush_win: 0, sf_win: 0, counted: true, dead: false, folded: false,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Settlement {
    /// in the order settled
    pub seats: Vec<SeatSettlement>,
    pub dp_delta: Chips,
    pub rake: OrdMap<i64, Chips>,
    pub bonus_capped: bool,
    /// the DP's funds when the first player is settled (HCF-11)
    pub funds_at_start: Chips,
    /// what the players who beat the DP or won a bonus would be paid in full
    pub winnings: Chips,
}

/// HCF-5: from the player to the right of the button (the DP), counter-clockwise.
pub fn settlement_order(seats: &[i64], dp: i64) -> Vec<i64> {
    let mut out: Vec<i64> = seats.iter().copied().filter(|&s| s != dp).collect();
    out.sort_by_key(|&s| (dp - s).rem_euclid(SEAT_RING));
    out
}

/// The DP's hand as the comparisons need it.
#[derive(Debug, Clone, Copy)]
struct DpHand {
    value: u32,
    qualifies: bool,
    sf_strength: i64,
}

/// A live player's outcome before the cap and the bankroll.
#[derive(Debug, Clone)]
struct Live {
    ante_raise: Chips,
    flush_win: Chips,
    sf_win: Chips,
    flush_push: bool,
    sf_push: bool,
}

/// HCF-7 (Ante/Raise against the DP) and HCF-8/9/10 (bonuses).
fn compare(play: &SeatPlay, dp: DpHand, rules: &HcfRules<'_>) -> Result<Live, Defer> {
    let (ante, raised, value) = (play.ante, play.raise_in_action, play.value);
    let ante_raise = if !dp.qualifies {
        ante
    } else if value > dp.value {
        ante + raised
    } else if value < dp.value {
        -(ante + raised)
    } else {
        0
    };
    let mut live = Live { ante_raise, flush_win: 0, sf_win: 0, flush_push: false, sf_push: false };
    let p = rules.p;
    let strength = if play.sf_bonus != 0 {
        straight_flush_strength(&play.masks, p.sf_ace_low, p.sf_wraparound)
    } else {
        0
    };
    if play.flush_bonus != 0 {
        live.flush_win = mul(play.flush_bonus, rules.flush_odds[flush_length(value) as usize])?;
    }
    if play.sf_bonus != 0 {
        live.sf_win = mul(play.sf_bonus, rules.sf_odds[(strength >> 4) as usize])?;
    }
    if p.bonus_against_dp {
        // HCF-10, reading `against_dp`: a paying bonus wins only when the player's flush
        // (or run) beats the DP's; equal pushes; worse loses.
        if live.flush_win != 0 {
            let (win, push) = against(live.flush_win, value as i64, dp.value as i64);
            live.flush_win = win;
            live.flush_push = push;
        }
        if live.sf_win != 0 {
            let (win, push) = against(live.sf_win, strength, dp.sf_strength);
            live.sf_win = win;
            live.sf_push = push;
        }
    }
    Ok(live)
}

fn against(win: Chips, mine: i64, theirs: i64) -> (Chips, bool) {
    match mine.cmp(&theirs) {
        Ordering::Greater => (win, false),
        Ordering::Equal => (0, true),
        Ordering::Less => (0, false),
    }
}

/// HCF-10: winning bonus wagers scaled down pro rata to total the cap; integer chips,
/// each share floored, with `largest_remainder` the chips left over one each to the
/// largest remainders (earlier in settlement order first, flush before straight flush).
fn apply_bonus_cap(lives: &mut [Live], cap: Option<Chips>, largest_remainder: bool) -> Result<bool, Defer> {
    let mut wins: Vec<(usize, u8, Chips)> = Vec::new();
    for (i, live) in lives.iter().enumerate() {
        for (k, w) in [(0u8, live.flush_win), (1u8, live.sf_win)] {
            if w > 0 {
                wins.push((i, k, w));
            }
        }
    }
    let total: Chips = wins.iter().map(|w| w.2).sum();
    let cap = match cap {
        Some(cap) if total > cap => cap,
        _ => return Ok(false),
    };
    let mut shares: Vec<(usize, u8, Chips)> = Vec::with_capacity(wins.len());
    for &(i, k, w) in &wins {
        shares.push((i, k, mul(w, cap)?.div_euclid(total)));
    }
    if largest_remainder {
        let left = cap - shares.iter().map(|s| s.2).sum::<Chips>();
        let mut by_remainder: Vec<(Chips, usize, u8)> = Vec::with_capacity(wins.len());
        for &(i, k, w) in &wins {
            by_remainder.push((-mul(w, cap)?.rem_euclid(total), i, k));
        }
        by_remainder.sort_unstable();
        let take = if left > 0 { left.min(by_remainder.len() as Chips) as usize } else { 0 };
        for &(_, i, k) in &by_remainder[..take] {
            if let Some(s) = shares.iter_mut().find(|s| s.0 == i && s.1 == k) {
                s.2 += 1;
            }
        }
    }
    for (i, k, share) in shares {
        if k == 0 {
            lives[i].flush_win = share;
        } else {
            lives[i].sf_win = share;
        }
    }
    Ok(true)
}

fn folded(play: &SeatPlay) -> SeatSettlement {
    let mut out = SeatSettlement::new(play.seat, play.fold_rule);
    out.folded = true;
    out.collected.ante = play.ante;
    out.collected.flush_bonus = play.flush_bonus;
    out.collected.sf_bonus = play.sf_bonus;
    out.delta = -(play.ante + play.flush_bonus + play.sf_bonus);
    out
}

fn live_settlement(play: &SeatPlay, live: &Live) -> SeatSettlement {
    let rule = if play.over_cap { "HCF-4" } else { "HCF-7" };
    let mut out = SeatSettlement::new(play.seat, rule);
    out.flush_win = live.flush_win;
    out.sf_win = live.sf_win;
    match live.ante_raise.cmp(&0) {
        Ordering::Greater => out.win_paid = live.ante_raise,
        Ordering::Less => {
            out.collected.ante = play.ante;
            out.collected.raise = play.raise_in_action;
        }
        Ordering::Equal => {}
    }
    out.bonus_paid = live.flush_win + live.sf_win;
    if play.flush_bonus != 0 && live.flush_win == 0 && !live.flush_push {
        out.collected.flush_bonus = play.flush_bonus;
    }
    if play.sf_bonus != 0 && live.sf_win == 0 && !live.sf_push {
        out.collected.sf_bonus = play.sf_bonus;
    }
    out
}

/// Settle the players (in the order given: HCF-5's unless `hcf::order` asks for another)
/// against the designated player.
pub fn settle(plays: &[SeatPlay], dp: i64, dp_stack: Chips, dp_cards: Option<&[&str]>, rules: &HcfRules<'_>,
              rake: (&str, Chips)) -> Result<Settlement, Defer> {
    let p = rules.p;
    let live_plays: Vec<&SeatPlay> = plays.iter().filter(|pl| !pl.folded).collect();
    let mut dp_hand = DpHand { value: 0, qualifies: false, sf_strength: 0 };
    if !live_plays.is_empty() {
        let masks = suit_masks(dp_cards.ok_or(Defer("no DP cards for a live hand"))?)?;
        let value = flush_value(&masks);
        dp_hand = DpHand {
            value,
            qualifies: dp_qualifies(value, p.dp_qualify_min_cards, rules.dp_min_high_rank, p.dp_qualify_any_high_cards),
            // the DP's run matters only when bonuses are judged against the DP (HCF-10)
            sf_strength: if p.bonus_against_dp { straight_flush_strength(&masks, p.sf_ace_low, p.sf_wraparound) } else { 0 },
        };
    }
    let mut lives = Vec::with_capacity(live_plays.len());
    for play in &live_plays {
        lives.push(compare(play, dp_hand, rules)?);
    }
    let capped = apply_bonus_cap(&mut lives, rules.bonus_cap, p.cap_largest_remainder)?;
    let mut funds = dp_stack;
    if p.dp_funds_reserve_rake {
        funds -= dp_rake_reserve(plays.len(), rake, p.dp_rake_needs_participant)?;
    }
    if p.folded_join_at_fold {
        funds += plays.iter().filter(|pl| pl.folded).map(|pl| pl.ante + pl.bonuses()).sum::<Chips>();
    }
    let funds_at_start = funds;
    let winnings = lives.iter().map(|l| l.ante_raise.max(0) + l.flush_win + l.sf_win).sum();
    let mut seats = Vec::with_capacity(plays.len());
    let mut next_live = 0;
    for play in plays {
        let result = if play.folded {
            let result = folded(play);
            if !p.folded_join_at_fold {
                funds -= result.delta;
            }
            result
        } else {
            let live = &lives[next_live];
            next_live += 1;
            let mut result = live_settlement(play, live);
            funds = bankroll(&mut result, funds, rules);
            result
        };
        seats.push(result);
    }
    let rake_due = rake_per_seat(&seats, dp, rake, p.dp_rake_needs_participant)?;
    let dp_delta = -seats.iter().map(|s| s.delta).sum::<Chips>();
    Ok(Settlement { seats, dp_delta, rake: rake_due, bonus_capped: capped, funds_at_start, winnings })
}

/// HCF-11: pay the player from the DP's funds; returns the funds after this player.
fn bankroll(result: &mut SeatSettlement, funds: Chips, rules: &HcfRules<'_>) -> Chips {
    let p = rules.p;
    let wins = result.win_paid + result.bonus_paid;
    let losses = result.collected.total();
    let available = if p.bankroll_gross { funds } else { funds + losses };
    // A player with no winnings is never short-funded, even when the rake reserve leaves
    // the DP's funds below zero: there is nothing to pay them.
    if wins > available.max(0) && p.short_funds_dead_hand {
        result.rule = "HCF-11";
        result.dead = true;
        result.counted = false;
        result.delta = 0;
        result.win_paid = 0;
        result.bonus_paid = 0;
        result.flush_win = 0;
        result.sf_win = 0;
        result.collected = Collected::default();
        return funds;
    }
    let paid = wins.min(available).max(0);
    if paid < wins {
        result.rule = "HCF-11";
        // pay_to_extent: the player receives what the DP has; Ante/Raise first.
        result.win_paid = result.win_paid.min(paid);
        result.bonus_paid = paid - result.win_paid;
    }
    result.delta = paid - losses;
    funds - paid + losses
}

/// The most rake the DP can owe in a hand with `players` Antes (HCF-12).
pub fn dp_rake_reserve(players: usize, (mode, fee): (&str, Chips), dp_needs_participant: bool) -> Result<Chips, Defer> {
    Ok(match mode {
        "designated" => mul(fee, players as Chips)?,
        "all" if players > 0 || !dp_needs_participant => fee,
        _ => 0,
    })
}

/// HCF-12: participants are players with an Ante in a hand not dead for them.
pub fn rake_per_seat(seats: &[SeatSettlement], dp: i64, (mode, fee): (&str, Chips),
                     dp_needs_participant: bool) -> Result<OrdMap<i64, Chips>, Defer> {
    let counted: Vec<i64> = seats.iter().filter(|s| s.counted).map(|s| s.seat).collect();
    let mut due: OrdMap<i64, Chips> = OrdMap::default();
    match mode {
        "all" => {
            for &seat in &counted {
                due.set(seat, fee);
            }
            if !counted.is_empty() || !dp_needs_participant {
                due.set(dp, fee);
            }
        }
        "players" => {
            for &seat in &counted {
                due.set(seat, fee);
            }
        }
        "designated" => due.set(dp, mul(fee, counted.len() as Chips)?),
        _ => {}
    }
    due.items.retain(|(_, amount)| *amount != 0);
    Ok(due)
}

/// `player_fee`: the HCF-12 fee a player with an Ante pays (`all` and `players` modes).
pub fn player_fee((mode, fee): (&str, Chips)) -> Chips {
    if mode == "all" || mode == "players" { fee } else { 0 }
}

/// `fees_within_stacks` (GEN-2 Reading `stake_counts_fee`): the HCF-12 fee expected from a
/// seat is at most what it holds when the fee falls due, at the end of the hand once it is
/// settled (whether a player is a participant is known only then, HCF-11): its stack at
/// `hand_started` plus its settlement, the DP's plus `dp_delta`. The chips a fee is short
/// are a GEN-2 finding's, not a RAKE_UNDER (the reference says why): a seat the stake
/// checks did not flag gets its INSUFFICIENT_STAKE here.
pub fn fees_within_stacks(due: &OrdMap<i64, Chips>, seats: &[SeatSettlement], dp: i64, dp_delta: Chips,
                          stacks: &OrdMap<i64, Chips>, rules: &HcfRules<'_>, found: &mut Vec<RFinding>)
                          -> OrdMap<i64, Chips> {
    let holds = |seat: i64| {
        let stack = stacks.get(seat).copied().unwrap_or(0);
        if seat == dp {
            return stack + dp_delta;
        }
        stack + seats.iter().find(|s| s.seat == seat).map_or(0, |s| s.delta)
    };
    let flagged: Vec<i64> = found.iter().filter(|f| f.code == "INSUFFICIENT_STAKE").filter_map(|f| f.seat).collect();
    let mut out = OrdMap::default();
    for &(seat, fee) in &due.items {
        let held = holds(seat).max(0);
        let paid = fee.min(held);
        if paid < fee && !flagged.contains(&seat) {
            found.push(finding("INSUFFICIENT_STAKE", "GEN-2", rules.p.insufficient_stake_severity, format!(
                "seat {} started with {} chips and holds {} once settled: short of its participation fee of {} (HCF-12) by {}; the hand required more of it than it had",
                seat, stacks.get(seat).copied().unwrap_or(0), held, fee, fee - paid), Some(seat), Some(fee - paid)));
        }
        if paid != 0 {
            out.set(seat, paid);
        }
    }
    out
}
