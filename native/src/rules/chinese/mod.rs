//! Chinese Poker adjudication (rules.md CP-1..12, GEN-10), the port of
//! `services/games/chinese/adjudicate.py`: each participant's hand read and judged
//! (`reading`), every pair scored (`scoring`), points turned into chips with the table
//! stakes cap and the clockwise payment order and the participation rake (`settlement`),
//! misdeals, conduct, buy-ins and payment routing (`procedure`), on the hand values of
//! `evaluation`. The decision path (`trace`) stays Python's: it is for the dispute report,
//! not the record.

pub mod evaluation;
pub mod procedure;
pub mod reading;
pub mod scoring;
pub mod settlement;

use std::collections::BTreeMap;

pub use crate::rules::hcf::procedure::Stop;
use crate::json::Value;
use crate::rules::profile::ChineseProfile;
use crate::rules::{self as r, int, Chips, Outcome};
use crate::table::{Context, DecodedEvent};
use reading::{HandReading, Status};
use scoring::PairScore;
use settlement::Settlement;

/// The rule cited for a seat's settlement when several decided it: the most specific first
/// (`SEAT_RULE_PRIORITY`, then CP-1).
const SEAT_RULE_PRIORITY: [&str; 7] = ["CP-10", "CP-8", "CP-7", "CP-6", "CP-5", "CP-4", "CP-1"];

/// `_point_value` (CP-9): every point is worth the table's posted `point_value`.
fn point_value(config: &Value<'_>) -> Result<Chips, Stop> {
    match config.get("limits").and_then(|l| l.get("point_value")).and_then(Value::as_int) {
        Some(v) if v > 0 => Ok(v as Chips),
        _ => Err(Stop::Rejected(("CP-9",
            "the table configuration posts no point_value, so points cannot be turned into chips".to_string()))),
    }
}

/// `adjudicate(hand, profile)` for Chinese Poker.
pub fn adjudicate(events: &[DecodedEvent], table: &Context, config: &Value<'_>, cp: &ChineseProfile)
                  -> Result<Outcome, Stop> {
    let point_value = point_value(config)?;
    let mut reading = reading::read_hand(events, cp)?;
    let mut findings = reading.findings.clone();
    findings.extend(procedure::conduct_findings(events, &reading, table, cp));
    findings.extend(procedure::buy_in_findings(events, &reading, table, point_value, cp)?);
    if let Some(dead) = procedure::dead_verdict(events, &reading, cp, &mut findings) {
        let mut seat_rules: BTreeMap<i64, &'static str> = reading.participants.iter().map(|&s| (s, dead.rule)).collect();
        seat_rules.extend(dead_seat_rules(events, &reading));
        return Ok(Outcome {
            net: reading.participants.iter().map(|&s| (s, 0)).collect(),
            findings,
            seat_rules,
            dead: true,
            ..Outcome::default()
        });
    }
    findings.extend(reading::judge_hands(events, &mut reading, cp)?);
    let scoring = config.get("scoring").and_then(Value::as_str);
    let mandarin = match scoring {
        Some(name) => name != "standard",
        None => cp.default_mandarin,
    };
    let pairs = scoring::score_pairs(&reading.hands, cp, mandarin);
    let live: Vec<i64> = reading.participants.iter().copied()
        .filter(|s| reading.hands.get(s).map_or(false, |h| h.status != Status::Dead)).collect();
    let (mode, fee) = crate::rules::hcf::rake_config(config);
    let mut rake = settlement::rake_due(&live, reading.button, mode, fee, cp)?;
    if cp.stake_counts_fee {
        // GEN-2 Reading: the fee is what the hand can require of a seat
        findings.extend(settlement::stake_findings(&rake, &reading.stacks, cp));
        rake = settlement::fees_within_stacks(&rake, &reading.stacks);
    }
    let settlement = settlement::settle(&pairs, &live, &reading.stacks, reading.button, point_value, &rake, cp)?;
    findings.extend(procedure::routing_findings(events, &settlement.transfers, cp));
    let mut net: BTreeMap<i64, Chips> = reading.participants.iter().map(|&s| (s, 0)).collect();
    net.extend(settlement.net.iter().map(|(s, n)| (*s, *n)));
    let mut seat_rules = seat_rules(&pairs, &settlement, &reading);
    seat_rules.extend(dead_seat_rules(events, &reading));
    Ok(Outcome {
        net,
        house: rake.values().sum(),
        rake,
        findings,
        seat_rules,
        dead: false,
        pot_rake: 0,
        price_errors: BTreeMap::new(),
        unverified: None,
        fees_from_pot: false,  // each fee from its payer's stack (HCF-12, GEN-10)
    })
}

fn rule_bit(rule: &str) -> u8 {
    SEAT_RULE_PRIORITY.iter().position(|r| *r == rule).map_or(0, |i| 1 << i)
}

/// `_seat_rules`: for each seat the rule a MISPAY should cite, the most specific that
/// touched it.
fn seat_rules(pairs: &[PairScore], settlement: &Settlement, reading: &HandReading<'_>) -> BTreeMap<i64, &'static str> {
    let mut touched: BTreeMap<i64, u8> = reading.participants.iter().map(|&s| (s, rule_bit("CP-4"))).collect();
    for pair in pairs {
        for seat in [pair.a, pair.b] {
            *touched.entry(seat).or_insert(0) |= rule_bit(pair.rule);
        }
    }
    for seat in &settlement.capped {
        *touched.entry(*seat).or_insert(0) |= rule_bit("CP-10");
    }
    for (seat, hand) in &reading.hands {
        match hand.status {
            Status::Foul => *touched.entry(*seat).or_insert(0) |= rule_bit("CP-8"),
            Status::Dead => {
                touched.insert(*seat, rule_bit("CP-1"));
            }
            _ => {}
        }
    }
    touched.into_iter().map(|(seat, bits)| {
        let at = (0..SEAT_RULE_PRIORITY.len()).find(|i| bits >> i & 1 == 1).unwrap_or(SEAT_RULE_PRIORITY.len() - 1);
        (seat, SEAT_RULE_PRIORITY[at])
    }).collect()
}

/// `_dead_seat_rules` (CP-1): a seat not dealt in that the table nonetheless paid or charged.
fn dead_seat_rules(events: &[DecodedEvent], reading: &HandReading<'_>) -> Vec<(i64, &'static str)> {
    let mut seats = std::collections::BTreeSet::new();
    for e in events.iter().filter(|e| e.type_index == r::COLLECTION) {
        seats.insert(int(&e.data, "seat"));
        if let Some(to) = r::text(&e.data, "to").strip_prefix("seat:") {
            if let Ok(seat) = to.parse::<i64>() {
                seats.insert(seat);
            }
        }
    }
    seats.into_iter().filter(|s| !reading.is_participant(*s)).map(|s| (s, "CP-1")).collect()
}
