//! High Card Flush adjudication (rules.md HCF-1..14, GEN-2/5/6/7 as they apply to HCF),
//! the port of `services/games/hcf/adjudicate.py`: the expected side of one hand from its
//! cards, decisions, the table's configuration and the rule profile alone, its HCF
//! findings, and the rule that decided each seat (cited by a MISPAY). The decision path
//! (`trace`) stays Python's: it is for the dispute report, not the record.

pub mod order;
pub mod procedure;
pub mod reading;
pub mod settlement;

use std::collections::BTreeMap;

use procedure::{dp_table_stakes, known_cards, require_cards, rotation_findings, seat_play, table_stakes,
                voided_wagers, wagers_in_action, whole_hand_dead, SeatPlay, Stop, Voided};
use reading::{read_facts, HandFacts, RecordedSeat};
use settlement::{dp_rake_reserve, fees_within_stacks, player_fee, settle, settlement_order, SeatSettlement, Settlement};

use crate::json::Value;
use crate::rules::profile::HcfRules;
use crate::rules::{finding, Chips, RFinding, Sev};
use crate::table::{Context, DecodedEvent};

pub use crate::rules::Outcome;

fn limits(config: &Value<'_>) -> (Chips, Chips) {
    let l = config.get("limits");
    let get = |key| l.and_then(|l| l.get(key)).and_then(Value::as_int).unwrap_or(0) as Chips;
    (get("min_wager"), get("max_wager"))
}

/// The posted rake: (mode, fee).
pub fn rake_config<'c>(config: &'c Value<'_>) -> (&'c str, Chips) {
    let r = config.get("rake");
    let mode = r.and_then(|r| r.get("mode")).and_then(Value::as_str).unwrap_or("none");
    let fee = r.and_then(|r| r.get("fee")).and_then(Value::as_int).unwrap_or(0) as Chips;
    (mode, fee)
}

/// `adjudicate(hand, profile)` for High Card Flush.
pub fn adjudicate(events: &[DecodedEvent], table: &Context, config: &Value<'_>, rules: &HcfRules<'_>)
                  -> Result<Outcome, Stop> {
    let facts = read_facts(events).map_err(Stop::Rejected)?;
    let mut found = Vec::new();
    rotation_findings(&facts, table, rules, &mut found);
    let in_action = wagers_in_action(&facts, rules, limits(config), &mut found);
    if let Some(rule) = whole_hand_dead(&facts, &in_action, rules, &mut found) {
        return Ok(dead_outcome(&facts, rule, rules, found));
    }
    let with_ante: Vec<i64> = in_action.items.iter().filter(|(_, a)| a.ante != 0).map(|(s, _)| *s).collect();
    let order = settlement_order(&with_ante, facts.dp);
    let mut plays: Vec<SeatPlay> = Vec::with_capacity(order.len());
    let counts_fee = rules.p.stake_counts_fee; // GEN-2 Reading: the fee is required too
    let rake = rake_config(config);
    let fee = if counts_fee { player_fee(rake) } else { 0 };
    for &seat in &order {
        let amounts = in_action.get(seat).cloned().unwrap_or_default();
        table_stakes(seat, facts.stacks.get(seat).copied().unwrap_or(0), &amounts, rules, &mut found, fee)?;
        plays.push(seat_play(seat, &amounts, &facts, rules, &mut found)?);
    }
    let dp_stack = facts.stacks.get(facts.dp).copied().unwrap_or(0);
    if counts_fee {
        let dp_fee = dp_rake_reserve(plays.len(), rake, rules.p.dp_rake_needs_participant)?;
        dp_table_stakes(facts.dp, dp_stack, dp_fee, rules, &mut found);
    }
    let mut dp_cards = None;
    if plays.iter().any(|p| !p.folded) {
        dp_cards = Some(require_cards(known_cards(&facts, facts.dp, rules, &mut found), "the designated player")?);
    }
    let settle_in = |ordered: &[SeatPlay]| settle(ordered, facts.dp, dp_stack, dp_cards.as_deref(), rules, rake);
    let mut result = settle_in(&plays)?;
    if counts_fee {
        result.rake = fees_within_stacks(&result.rake, &result.seats, facts.dp, result.dp_delta, &facts.stacks, rules,
                                         &mut found);
    }
    let mut net: BTreeMap<i64, Chips> = BTreeMap::new();
    for seat in facts.stacks.keys().chain(facts.wagers.keys()) {
        net.insert(seat, 0);
    }
    for s in &result.seats {
        net.insert(s.seat, s.delta);
    }
    net.insert(facts.dp, result.dp_delta);
    for &(seat, fee) in &result.rake.items {
        *net.entry(seat).or_insert(0) -= fee;
    }
    let mut seat_rules = seat_rules(&facts, &result.seats, result.bonus_capped, rules);
    if let Some(wrong) = order::table_order(&plays, &result, &facts.recorded, &settle_in)? {
        found.push(order::order_finding(&wrong, &plays, rules.p.settlement_order_severity));
        for &seat in wrong.seats.iter().chain(std::iter::once(&facts.dp)) {
            seat_rules.insert(seat, "HCF-11");
        }
    }
    let Settlement { rake: due, .. } = result;
    Ok(Outcome {
        net,
        house: due.items.iter().map(|(_, fee)| fee).sum(),
        rake: due.items.into_iter().collect(),
        findings: found,
        seat_rules,
        dead: false,
        pot_rake: 0,
        price_errors: BTreeMap::new(),
        unverified: None,
        fees_from_pot: false,  // each fee from its payer's stack (HCF-12, GEN-10)
    })
}

/// GEN-6: every wager returned, nothing paid, no rake.
fn dead_outcome(facts: &HandFacts<'_>, rule: &'static str, rules: &HcfRules<'_>, mut found: Vec<RFinding>) -> Outcome {
    if facts.settled_anything || facts.kept_rake() > 0 {
        found.push(finding("DEAD_HAND_SETTLED", rule, rules.p.dead_hand_settled_severity,
            "the hand is dead (every wager goes back, nothing is paid, no rake) but the table collected, paid or raked chips in it"
                .to_string(), None, None));
    }
    let reasons: Vec<String> = facts.dead_events.iter().map(|(kind, why, _)| format!("{}: {}", kind, why)).collect();
    let reasons = if reasons.is_empty() { "card count discrepancy".to_string() } else { reasons.join("; ") };
    found.push(finding("DEAD_HAND", rule, Sev::Info, format!("dead hand ({})", reasons), None, None));
    let mut out = Outcome { findings: found, dead: true, ..Outcome::default() };
    for seat in facts.stacks.keys().chain(facts.wagers.keys()) {
        out.net.insert(seat, 0);
        out.seat_rules.insert(seat, rule);
    }
    out
}

/// The rule of the first part of the seat's settlement the table recorded differently:
/// a part whose wager was void is decided by the rule that voided it, a folded seat's
/// bonuses by its fold's (`_mismatch_rule` of the reference).
fn mismatch_rule(s: &SeatSettlement, rec: Option<&RecordedSeat>, capped: bool, void: Voided) -> Option<&'static str> {
    let empty = RecordedSeat::default();
    let rec = rec.unwrap_or(&empty);
    let (got, due) = (&rec.collected, &s.collected);
    if rec.win_paid != s.win_paid || rec.other_paid != 0 || got.ante != due.ante || got.raise != due.raise {
        return Some(void.raise.unwrap_or(s.rule));
    }
    let live = !s.folded && (s.rule == "HCF-7" || s.rule == "HCF-4");
    if got.flush_bonus != due.flush_bonus {
        return Some(void.flush_bonus.unwrap_or(if live { "HCF-8" } else { s.rule }));
    }
    if got.sf_bonus != due.sf_bonus {
        return Some(void.sf_bonus.unwrap_or(if live { "HCF-9" } else { s.rule }));
    }
    if rec.bonus_paid != s.bonus_paid {
        if let Some(voided) = void.flush_bonus.or(void.sf_bonus) {
            return Some(voided);
        }
        if !live {
            return Some(s.rule);
        }
        if capped {
            return Some("HCF-10");
        }
        return Some(if s.sf_win != 0 && s.flush_win == 0 { "HCF-9" } else { "HCF-8" });
    }
    None
}

/// Which rule decided each seat; for the DP, the rule of the first player (in HCF-5
/// order) the table settled differently, since every player's mispay is also the DP's.
fn seat_rules(facts: &HandFacts<'_>, seats: &[SeatSettlement], capped: bool, rules: &HcfRules<'_>) -> BTreeMap<i64, &'static str> {
    let mut out = BTreeMap::new();
    let mut dp_rule = None;
    for s in seats {
        let wrong = mismatch_rule(s, facts.recorded.get(s.seat), capped, voided_wagers(facts, s.seat, rules));
        out.insert(s.seat, wrong.unwrap_or(s.rule));
        if wrong.is_some() && dp_rule.is_none() {
            dp_rule = wrong;
        }
    }
    let dp_rule = dp_rule.unwrap_or(if seats.iter().any(|s| s.dead) { "HCF-11" } else { "HCF-7" });
    out.insert(facts.dp, dp_rule);
    out
}
