//! What the pot games share around the betting engine (`services/games/betting/pot_hand.py`):
//! opening a hand (GEN-5 and the game's deal rule), replaying its events up to `hand_ended`,
//! the findings collected on the way (`Notes`; the decision path stays Python's, it is the
//! dispute report's, not the record's) and the dead hand (GEN-6).

use std::collections::BTreeMap;

use crate::json::Value;
use crate::rules::hcf::procedure::Stop;
use crate::rules::{finding, int, Chips, Defer, Outcome, RFinding, Sev, HAND_ENDED, HAND_STARTED};
use crate::table::DecodedEvent;

/// `Notes`: the findings collected while a hand is replayed.
#[derive(Debug, Clone, Default)]
pub struct Notes {
    pub findings: Vec<RFinding>,
}

impl Notes {
    pub fn add(&mut self, code: &'static str, rule: &'static str, severity: Sev, message: String,
               seat: Option<i64>, amount: Option<Chips>) {
        self.findings.push(finding(code, rule, severity, message, seat, amount));
    }
}

/// One seat of `hand_started`.
#[derive(Debug, Clone, Copy)]
pub struct SeatIn {
    pub seat: i64,
    pub stack: Chips,
}

/// The parts of `hand_started` a pot game reads.
#[derive(Debug, Clone)]
pub struct Started {
    pub button: i64,
    pub deck: i64,
    /// As listed (a seat twice is a deferral: `opening`).
    pub seats: Vec<SeatIn>,
}

impl Started {
    pub fn seat_numbers(&self) -> Vec<i64> {
        self.seats.iter().map(|s| s.seat).collect()
    }
}

/// `opening(hand, rule)`: the hand's `hand_started`; rejected (citing the game's deal
/// `rule`) without one or with fewer than two players. The configuration is the caller's
/// (a hand without one is not the core's).
pub fn opening(events: &[DecodedEvent], rule: &'static str) -> Result<Started, Stop> {
    let started = events
        .iter()
        .find(|e| e.type_index == HAND_STARTED)
        .ok_or_else(|| Stop::Rejected((rule, "the hand has no hand_started event".to_string())))?;
    let d = &started.data;
    let seats: Vec<SeatIn> = match d.get("seats") {
        Some(Value::Array(items)) => items.iter().map(|s| SeatIn { seat: int(s, "seat"), stack: int(s, "stack") as Chips }).collect(),
        _ => Vec::new(),
    };
    if seats.len() < 2 {
        return Err(Stop::Rejected((rule, format!("{} player(s) dealt in; a pot needs at least two", seats.len()))));
    }
    let mut numbers: Vec<i64> = seats.iter().map(|s| s.seat).collect();
    numbers.sort_unstable();
    numbers.dedup();
    if numbers.len() != seats.len() {
        return Err(Stop::Defer(Defer("a seat dealt in twice")));
    }
    Ok(Started { button: int(d, "button"), deck: int(d, "deck"), seats })
}

/// `replay`: the hand's events up to its `hand_ended` (later table-level events are the table's).
pub fn replay(events: &[DecodedEvent]) -> impl Iterator<Item = &DecodedEvent> + '_ {
    events.iter().take_while(|e| e.type_index != HAND_ENDED)
}

/// `dead_outcome` (GEN-6): a dead hand or misdeal returns every wager; nothing is paid or raked.
pub fn dead_outcome(started: &Started, notes: Notes) -> Outcome {
    let net: BTreeMap<i64, Chips> = started.seats.iter().map(|s| (s.seat, 0)).collect();
    let seat_rules = started.seats.iter().map(|s| (s.seat, "GEN-6")).collect();
    Outcome { net, findings: notes.findings, seat_rules, dead: true, ..Outcome::default() }
}
