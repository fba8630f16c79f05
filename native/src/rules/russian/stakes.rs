//! Which of a box's chips are in action, and which are void (RP-3, RP-4, SURV-1): the port
//! of `services/games/russian/stakes.py`. A late Ante, a second Bet or a Bet after the
//! dealer's cards are turned, an insurance after "insurance closed" do not play;
//! insurance on a hand below the posted category is returned, outside its limits returned
//! or cut. The settlement only ever sees valid stakes.

use super::evaluation::{at_least, best_five, line_of};
use super::reading::{rankable, Placed, RussianHand, SeatBox};
use super::Stop;
use crate::rules::profile::RussianProfile;
use crate::rules::{finding, mul, Chips, RFinding};

/// `BoxStakes`: a box's chips in action; the `late_*` amounts are void. `fold_rule` is
/// None for a box that plays, else the rule its fold falls under.
#[derive(Debug, Clone)]
pub struct BoxStakes {
    pub seat: i64,
    pub ante: Chips,
    pub bet: Chips,
    pub insurance: Chips,
    pub late_ante: Chips,
    pub late_bet: Chips,
    pub late_insurance: Chips,
    pub fold_rule: Option<&'static str>,
}

impl BoxStakes {
    pub fn plays(&self) -> bool {
        self.fold_rule.is_none()
    }
}

/// `StakesReport` (the decision path stays Python's).
#[derive(Debug, Clone)]
pub struct StakesReport {
    pub stakes: BoxStakes,
    pub findings: Vec<RFinding>,
}

/// `box_stakes`: the valid Ante, Bet and insurance of the box and the findings about the rest.
/// `late_counts`: as if every chip SURV-1 finds late had been placed in time (the reading
/// `kept_if_losing` settles a box that does not play on them when that loses more).
pub fn box_stakes(hand: &RussianHand<'_>, b: &SeatBox<'_>, cards: Option<&[&str]>, royal_odds: Chips,
                  p: &RussianProfile, late_counts: bool) -> Result<StakesReport, Stop> {
    let mut findings = Vec::new();
    let (ante, late_ante) = ante(hand, b, &mut findings, p, late_counts);
    let (bet, late_bet, fold_rule) = bet(hand, b, ante, &mut findings, p, late_counts)?;
    let (insurance, late_insurance) = insurance(hand, b, ante, bet, fold_rule.is_none(), cards, royal_odds,
                                                &mut findings, p, late_counts)?;
    foreign_wagers(b, &mut findings, p);
    Ok(StakesReport {
        stakes: BoxStakes { seat: b.seat, ante, bet, insurance, late_ante, late_bet, late_insurance, fold_rule },
        findings,
    })
}

fn late(placed: &Placed<'_>, seat: i64, what: &str, when: &str, p: &RussianProfile, code: &'static str,
        rule: &'static str) -> RFinding {
    let does = if p.late_kept_if_losing { "the house keeps it if it loses and pays nothing on it" }
               else { "it does not play" };
    finding(code, rule, p.late_wager_severity, format!(
        "seat {}: {} of {} placed at seq {}, {}; {}", seat, what, placed.amount, placed.seq, when, does),
        Some(seat), Some(placed.amount))
}

/// SURV-1: the Ante plays only if it was down before the first card was dealt and before
/// the dealer's cards were turned.
fn ante(hand: &RussianHand<'_>, b: &SeatBox<'_>, findings: &mut Vec<RFinding>, p: &RussianProfile,
        late_counts: bool) -> (Chips, Chips) {
    let (mut valid, mut late_sum) = (0, 0);
    for placed in &b.antes {
        match if late_counts { None } else { ante_too_late(hand, placed) } {
            Some(when) => {
                late_sum += placed.amount;
                findings.push(late(placed, b.seat, "an Ante", when, p, "LATE_WAGER", "SURV-1"));
            }
            None => valid += placed.amount,
        }
    }
    (valid, late_sum)
}

fn ante_too_late(hand: &RussianHand<'_>, placed: &Placed<'_>) -> Option<&'static str> {
    if hand.first_card_at.map_or(false, |at| placed.index > at) {
        return Some("after the first card was dealt");
    }
    if hand.dealer_turned_at.map_or(false, |at| placed.index > at) {
        return Some("after the dealer's cards were turned");
    }
    None
}

/// RP-3: the first Bet placed in time is the Bet; any other Bet chips are void.
fn bet(hand: &RussianHand<'_>, b: &SeatBox<'_>, ante: Chips, findings: &mut Vec<RFinding>, p: &RussianProfile,
       late_counts: bool) -> Result<(Chips, Chips, Option<&'static str>), Stop> {
    let mut late_sum = 0;
    let mut first: Option<&Placed<'_>> = None;
    for placed in &b.bets {
        match bet_problem(hand, b, placed, first, ante, p, late_counts) {
            None => first = Some(placed),
            Some(problem) => {
                late_sum += placed.amount;
                findings.push(problem);
            }
        }
    }
    let first = match first {
        Some(first) => first,
        None => {
            if let Some(play) = b.first_step(&["play"]) {
                if b.bets.is_empty() {
                    findings.push(finding("BET_MISSING", "RP-3", p.bet_error_severity, format!(
                        "seat {} played at seq {} but placed no Bet; a box without a Bet has folded and loses its Ante",
                        b.seat, play.seq), Some(b.seat), None));
                }
            }
            return Ok((0, late_sum, Some(fold_rule(hand, b))));
        }
    };
    let valid = bet_checks(b, first, ante, findings, p)?;
    Ok((valid, late_sum, None))
}

fn bet_problem(hand: &RussianHand<'_>, b: &SeatBox<'_>, placed: &Placed<'_>, first: Option<&Placed<'_>>,
               ante: Chips, p: &RussianProfile, late_counts: bool) -> Option<RFinding> {
    let seat = b.seat;
    if !late_counts && hand.dealer_turned_at.map_or(false, |at| placed.index > at) {
        return Some(late(placed, seat, "a Bet", "after the dealer's cards were turned", p, "LATE_WAGER", "SURV-1"));
    }
    if let Some(first) = first {
        return Some(late(placed, seat, "another Bet", &format!("after the Bet at seq {}", first.seq), p,
                         "WAGER_CHANGED_AFTER_BET", "SURV-1"));
    }
    if let Some(fold) = b.first_step(&["fold"]) {
        if fold.index < placed.index {
            return Some(finding("BET_AFTER_FOLD", "RP-3", p.bet_error_severity, format!(
                "seat {}: Bet of {} at seq {} after the box folded at seq {}; the folded box does not play",
                seat, placed.amount, placed.seq, fold.seq), Some(seat), Some(placed.amount)));
        }
    }
    if ante == 0 {
        return Some(finding("BET_WITHOUT_ANTE", "RP-3", p.bet_error_severity, format!(
            "seat {}: Bet of {} at seq {} with no Ante in action; the box was not in the hand",
            seat, placed.amount, placed.seq), Some(seat), Some(placed.amount)));
    }
    None
}

/// RP-3: Bet = 2x Ante (a wrong Bet plays as placed, or cut to 2x Ante when the profile
/// returns the excess); a fold after the Bet changes nothing.
fn bet_checks(b: &SeatBox<'_>, first: &Placed<'_>, ante: Chips, findings: &mut Vec<RFinding>,
              p: &RussianProfile) -> Result<Chips, Stop> {
    let due = mul(ante, p.bet_antes as Chips)?;
    let mut in_action = first.amount;
    if first.amount != due {
        let cut = p.wrong_bet_excess_returned && first.amount > due;
        in_action = if cut { due } else { first.amount };
        let how = if cut {
            format!("{} returned, {} in action", first.amount - due, due)
        } else {
            "settled on the Bet as placed".to_string()
        };
        findings.push(finding("WRONG_BET", "RP-3", p.bet_error_severity, format!(
            "seat {}: Bet of {} at seq {}; the Bet is {}x the Ante of {} = {}; {}",
            b.seat, first.amount, first.seq, p.bet_antes, ante, due, how), Some(b.seat), Some(first.amount - due)));
    }
    if let Some(fold) = b.steps.iter().find(|s| s.action == "fold" && s.index > first.index) {
        findings.push(finding("FOLD_AFTER_BET", "RP-3", p.bet_error_severity, format!(
            "seat {}: fold at seq {} after the Bet at seq {}; a box that has bet plays its hand",
            b.seat, fold.seq, first.seq), Some(b.seat), None));
    }
    Ok(in_action)
}

/// `_fold_rule`: why a box without a Bet lost its Ante.
fn fold_rule(hand: &RussianHand<'_>, b: &SeatBox<'_>) -> &'static str {
    let fold = match b.first_step(&["fold"]) {
        Some(fold) => fold,
        None => return if b.left_at.is_some() { "GEN-7" } else { "RP-3" },
    };
    // RP-2's moment ends with the first card served to any box, or failing a draw, the
    // first play: a fold after that is the play decision of RP-3.
    let decision_ended = hand.boxes.items.iter()
        .flat_map(|(_, other)| other.steps.iter().filter(|s| s.action == "play").map(|s| s.index)
            .chain(other.draws.iter().map(|d| d.index)))
        .min();
    if b.draws.is_empty() && decision_ended.map_or(true, |at| fold.index < at) {
        "RP-2"
    } else {
        "RP-3"
    }
}

/// RP-4: insurance placed before "insurance closed", on a playing box with the posted
/// category or better, within its limits; otherwise returned.
#[allow(clippy::too_many_arguments)]
fn insurance(hand: &RussianHand<'_>, b: &SeatBox<'_>, ante: Chips, bet: Chips, plays: bool,
             cards: Option<&[&str]>, royal_odds: Chips, findings: &mut Vec<RFinding>, p: &RussianProfile,
             late_counts: bool) -> Result<(Chips, Chips), Stop> {
    let (mut in_time, mut late_sum) = (0, 0);
    for placed in &b.insurances {
        if !late_counts && hand.dealer_turned_at.map_or(false, |at| placed.index > at) {
            late_sum += placed.amount;
            findings.push(late(placed, b.seat, "an insurance", "after insurance closed (the dealer's cards were turned)",
                               p, "LATE_INSURANCE", "RP-4"));
        } else {
            in_time += placed.amount;
        }
    }
    if in_time == 0 {
        return Ok((0, late_sum));
    }
    let cards = match cards {
        Some(cards) if plays && (5..=7).contains(&cards.len()) => cards,
        _ => return Ok((0, late_sum)),
    };
    rankable(cards, &format!("seat {}", b.seat))?;
    let category = line_of(best_five(cards)?);
    if !at_least(category, p.insurance_min_category) {
        return Ok((0, late_sum));
    }
    Ok((insurance_limits(b.seat, in_time, ante, bet, royal_odds, findings, p)?, late_sum))
}

fn insurance_limits(seat: i64, amount: Chips, ante: Chips, bet: Chips, royal_odds: Chips,
                    findings: &mut Vec<RFinding>, p: &RussianProfile) -> Result<Chips, Stop> {
    let low = mul(ante, p.insurance_min_antes as Chips)?;
    let high = mul(mul(bet, royal_odds)?, p.insurance_max_royal_numerator as Chips)?
        .div_euclid(p.insurance_max_royal_denominator as Chips);
    if amount < low {
        let returned = p.insurance_below_minimum_returned;
        findings.push(finding("INSURANCE_OUT_OF_LIMITS", "RP-4", p.insurance_error_severity, format!(
            "seat {}: insurance of {} is below the minimum of {} ({}x Ante); {}", seat, amount, low,
            p.insurance_min_antes, if returned { "returned" } else { "settled as placed" }),
            Some(seat), Some(amount - low)));
        return Ok(if returned { 0 } else { amount });
    }
    if amount > high {
        let cut = p.insurance_above_maximum_cut;
        let how = if cut { format!("{} returned", amount - high) } else { "settled as placed".to_string() };
        findings.push(finding("INSURANCE_OUT_OF_LIMITS", "RP-4", p.insurance_error_severity, format!(
            "seat {}: insurance of {} is above the maximum of {} (half the royal payout on a Bet of {}); {}",
            seat, amount, high, bet, how), Some(seat), Some(amount - high)));
        return Ok(if cut { high } else { amount });
    }
    Ok(amount)
}

fn foreign_wagers(b: &SeatBox<'_>, findings: &mut Vec<RFinding>, p: &RussianProfile) {
    for placed in &b.foreign {
        findings.push(finding("FOREIGN_WAGER", "GEN-5", p.bet_error_severity, format!(
            "seat {}: a {} wager of {} at seq {} is no Russian Poker wager; it does not play",
            b.seat, placed.kind, placed.amount, placed.seq), Some(b.seat), Some(placed.amount)));
    }
}
