//! One closed hand to its record (`services/adjudicator/adjudicate.py` for the games the
//! core adjudicates: High Card Flush, Chinese Poker, Five Card Draw 7-A, Russian Poker and Texas Hold'em): the game's expected side, the recorded side,
//! the GEN checks, the comparison (MISPAY, RAKE_*, NOT_CONSERVED), the status and the
//! record's bytes. Anything the port does not decide exactly is a `Defer` (see `rules`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::hcf::procedure::Stop;
use super::hcf;
use super::profile::{resolve, GenProfile, Profile};
use super::Outcome;
use super::record::{Record, Side};
use super::recorded::{record_hand, Account, RakeKey, RecordedHand};
use super::{finding, integrity, Chips, Defer, RFinding, Sev, MAX_SAFE};
use crate::canonical::hex;
use crate::json::Value;
use crate::table::{self, ClosedHand};

/// The record of a hand the core adjudicated, and the stacks it moved (`settle`).
#[derive(Debug, Clone)]
pub struct Adjudicated {
    pub record: Record,
    pub settle: Vec<(i64, i64)>,
}

/// What became of a closed hand in the native rules.
#[derive(Debug)]
pub enum Native {
    Done(Box<Adjudicated>),
    /// Not a game the core adjudicates (the Python rules do).
    NotNative,
    Deferred(Defer),
}

fn pre_findings(hand: &ClosedHand) -> Result<Vec<RFinding>, Defer> {
    hand.findings
        .iter()
        .map(|f| {
            let severity = match f.severity {
                table::Severity::Info => Sev::Info,
                table::Severity::Warning => Sev::Warning,
                table::Severity::Critical => Sev::Critical,
                table::Severity::CashInPlayProfile => return Err(Defer("a profile severity in a hand finding")),
            };
            Ok(finding(f.code, f.rule, severity, f.message.clone(), None, None))
        })
        .collect()
}

/// The games whose hands the core adjudicates (the registry runs exactly the rules the
/// core ports: `services.adjudicator.native_runner`); the others go to the Python rules.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Games {
    pub hcf: bool,
    pub chinese: bool,
    pub draw7a: bool,
    pub russian: bool,
    pub holdem: bool,
}

impl Games {
    /// Every game the core has rules for.
    pub const ALL: Games = Games { hcf: true, chinese: true, draw7a: true, russian: true, holdem: true };

    /// From the registry's game names (unknown names are not the core's).
    pub fn from_names<'n>(names: impl IntoIterator<Item = &'n str>) -> Games {
        let mut games = Games::default();
        for name in names {
            match name {
                "hcf" => games.hcf = true,
                "chinese" => games.chinese = true,
                "draw7a" => games.draw7a = true,
                "russian" => games.russian = true,
                "holdem" => games.holdem = true,
                _ => {}
            }
        }
        games
    }
}

/// `adjudicate_hand` for a closed hand of a game the core adjudicates (its chain info
/// in the record, as the runners give it).
pub fn adjudicate_closed(hand: &ClosedHand, profiles: &HashMap<String, Profile>, games: Games) -> Native {
    adjudicate_hand(hand, profiles, games, true)
}

/// The game a closed hand's table was configured for (what picks its rules).
pub fn hand_game(hand: &ClosedHand) -> Option<&str> {
    hand.context.config.as_ref()?.get("game")?.as_str()
}

/// `adjudicate_hand(hand, profiles, chain if with_chain else None)`.
pub fn adjudicate_hand(hand: &ClosedHand, profiles: &HashMap<String, Profile>, games: Games, with_chain: bool) -> Native {
    let config = match &hand.context.config {
        Some(c) => c,
        None => return Native::NotNative,
    };
    let done = match hand_game(hand) {
        Some("hcf") if games.hcf => adjudicate_hcf(hand, config, profiles, with_chain),
        Some("chinese") if games.chinese => adjudicate_chinese(hand, config, profiles, with_chain),
        Some("draw7a") if games.draw7a => adjudicate_draw7a(hand, config, profiles, with_chain),
        Some("russian") if games.russian => adjudicate_russian(hand, config, profiles, with_chain),
        Some("holdem") if games.holdem => adjudicate_holdem(hand, config, profiles, with_chain),
        _ => return Native::NotNative,
    };
    match done {
        Ok(done) => Native::Done(Box::new(done)),
        Err(defer) => Native::Deferred(defer),
    }
}

/// The profile the table's configuration names, and its `gen` section.
fn named_profile<'p>(config: &Value<'_>, profiles: &'p HashMap<String, Profile>) -> Result<(&'p Profile, &'p GenProfile), Defer> {
    let rule_profile = config.get("rule_profile").and_then(Value::as_str).unwrap_or("");
    let profile = profiles.get(rule_profile).ok_or(Defer("a rule profile the core was not given"))?;
    let gen = profile.gen.as_ref().ok_or(Defer("a profile whose gen section did not load"))?;
    Ok((profile, gen))
}

fn adjudicate_hcf(hand: &ClosedHand, config: &Value<'_>, profiles: &HashMap<String, Profile>,
                  with_chain: bool) -> Result<Adjudicated, Defer> {
    let (profile, gen) = named_profile(config, profiles)?;
    let hcf_profile = profile.hcf.as_ref().ok_or(Defer("a profile whose hcf section did not load"))?;
    let rules = resolve(hcf_profile, gen, config)?;
    let outcome = hcf::adjudicate(&hand.events, &hand.context, config, &rules);
    finish(hand, config, "hcf", "HCF-12", gen, outcome, with_chain)
}

fn adjudicate_chinese(hand: &ClosedHand, config: &Value<'_>, profiles: &HashMap<String, Profile>,
                      with_chain: bool) -> Result<Adjudicated, Defer> {
    let (profile, gen) = named_profile(config, profiles)?;
    let cp = profile.chinese.as_ref().ok_or(Defer("a profile whose chinese section did not load"))?;
    let outcome = super::chinese::adjudicate(&hand.events, &hand.context, config, cp);
    finish(hand, config, "chinese", "GEN-10", gen, outcome, with_chain)
}

fn adjudicate_draw7a(hand: &ClosedHand, config: &Value<'_>, profiles: &HashMap<String, Profile>,
                     with_chain: bool) -> Result<Adjudicated, Defer> {
    let (profile, gen) = named_profile(config, profiles)?;
    let prof = profile.draw7a.as_ref().ok_or(Defer("a profile whose draw7a section did not load"))?;
    let outcome = super::draw7a::adjudicate(&hand.events, config, prof);
    finish(hand, config, "draw7a", "GEN-10", gen, outcome, with_chain)
}

fn adjudicate_russian(hand: &ClosedHand, config: &Value<'_>, profiles: &HashMap<String, Profile>,
                      with_chain: bool) -> Result<Adjudicated, Defer> {
    let (profile, gen) = named_profile(config, profiles)?;
    let rp = profile.russian.as_ref().ok_or(Defer("a profile whose russian section did not load"))?;
    let outcome = super::russian::adjudicate(&hand.events, config, rp, gen);
    finish(hand, config, "russian", "GEN-10", gen, outcome, with_chain)
}

fn adjudicate_holdem(hand: &ClosedHand, config: &Value<'_>, profiles: &HashMap<String, Profile>,
                     with_chain: bool) -> Result<Adjudicated, Defer> {
    let (profile, gen) = named_profile(config, profiles)?;
    let prof = profile.holdem.as_ref().ok_or(Defer("a profile whose holdem section did not load"))?;
    let ranking = profile.ranking.as_ref().ok_or(Defer("no card ranking was handed to the core"))?;
    let outcome = super::holdem::adjudicate(&hand.events, config, prof, ranking);
    finish(hand, config, "holdem", "GEN-10", gen, outcome, with_chain)
}

/// `_adjudicate` after the game's rules: a rejected hand's record, or the recorded side,
/// the GEN checks, the comparison (`rake_rule`: the game's, `Game.rake_rule`) and the record.
fn finish(hand: &ClosedHand, config: &Value<'_>, game: &'static str, rake_rule: &'static str, gen: &GenProfile,
          outcome: Result<Outcome, Stop>, with_chain: bool) -> Result<Adjudicated, Defer> {
    let rule_profile = config.get("rule_profile").and_then(Value::as_str).unwrap_or("");
    let mut findings = pre_findings(hand)?;
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(Stop::Defer(d)) => return Err(d),
        Err(Stop::Rejected((rule, message))) => {
            // The GEN checks read the events alone: a hand the rules cannot settle still
            // says what its events show (`_adjudicate`).
            findings.push(finding("HAND_REJECTED", rule, Sev::Critical, message, None, None));
            findings.extend(integrity::common_findings(&hand.events, hand.context.config_authorized, gen)?);
            return rejected(hand, game, findings);
        }
    };
    let recorded = record_hand(&hand.events);
    findings.extend(integrity::common_findings(&hand.events, hand.context.config_authorized, gen)?);
    findings.extend(outcome.findings.iter().cloned());
    findings.extend(recorded.findings.iter().cloned());
    findings.extend(compare(&outcome, &recorded, rake_rule, gen));
    build(hand, config, game, rule_profile, &outcome, recorded, findings, with_chain)
}

/// `record_bound.stated_findings`: a finding amount beyond the record's bound is stated
/// at it (its sign kept), the message giving the exact number; the finding stands.
fn stated_findings(findings: Vec<RFinding>) -> Vec<RFinding> {
    findings.into_iter().map(|mut f| {
        if let Some(amount) = f.amount.filter(|a| !(-MAX_SAFE..=MAX_SAFE).contains(a)) {
            let capped = if amount > 0 { MAX_SAFE } else { -MAX_SAFE };
            f.message = format!("{} (amount {} chips: beyond the record's bound of {}, stated as {})",
                                f.message, amount, MAX_SAFE, capped);
            f.amount = Some(capped);
        }
        f
    }).collect()
}

fn rejected(hand: &ClosedHand, game: &'static str, findings: Vec<RFinding>) -> Result<Adjudicated, Defer> {
    let findings = stated_findings(findings);
    let record = Record {
        table_id: hand.table_id.clone(), hand_id: hand.hand_id.clone(), game: Some(game),
        status: "rejected", rule_profile: None, expected: None, recorded: None, findings,
        players: None, dealer_id: None, rake_mode: None, ended_at: None, first_seq: None,
        last_seq: None, last_hash: None, movements: None,
    };
    Ok(Adjudicated { record, settle: Vec::new() })
}

/// `rake_due`: the expected rake by the record's keys: each seat's fee, and `pot` for what
/// a pot rake schedule takes from the pot (GEN-10).
fn rake_due(outcome: &Outcome) -> BTreeMap<RakeKey, Chips> {
    let mut due: BTreeMap<RakeKey, Chips> =
        outcome.rake.iter().filter(|(_, a)| **a != 0).map(|(s, a)| (RakeKey::Seat(*s), *a)).collect();
    if outcome.pot_rake != 0 {
        due.insert(RakeKey::Pot, outcome.pot_rake);
    }
    due
}

/// `seat_rake`: the recorded rake per seat, rake taken from the pot with no seat named
/// matched to the seats the posted rake charges, in seat order (GEN-10 / HCF-12). Only
/// chips that went into the pot can be a seat's fee taken from it (a game without a pot:
/// the rake stays on the pot).
fn seat_rake(outcome: &Outcome, recorded: &RecordedHand) -> BTreeMap<RakeKey, Chips> {
    let mut rake: BTreeMap<RakeKey, Chips> = recorded.rake.iter().filter(|(_, a)| **a != 0).map(|(k, a)| (*k, *a)).collect();
    let mut from_pot = rake.remove(&RakeKey::Pot).unwrap_or(0);
    let held: Chips = recorded.movements.iter().filter(|m| m.to == Account::Pot).map(|m| m.amount).sum();
    let rake_beyond_pot = (from_pot - held).max(0);
    from_pot -= rake_beyond_pot;
    for (&seat, &owed) in &outcome.rake {
        let key = RakeKey::Seat(seat);
        let take = (owed - rake.get(&key).copied().unwrap_or(0)).max(0).min(from_pot);
        if take != 0 {
            *rake.entry(key).or_insert(0) += take;
            from_pot -= take;
        }
    }
    if from_pot + rake_beyond_pot != 0 {
        rake.insert(RakeKey::Pot, from_pot + rake_beyond_pot);
    }
    rake
}

fn mispay_message(seat: i64, got: Chips, due: Chips, rule: &str, price: Chips) -> String {
    let delta = got - due + price;
    let verb = if delta > 0 { "overpaid" } else { "underpaid" };
    if price != 0 {
        let way = if price > 0 { "over" } else { "short" };
        return format!("seat {}: recorded {:+} chips before rake, {} gives {:+}; leaving out the price paid {} {} (reported as WRONG_FEE), {} by {}",
                       seat, got, rule, due, price.abs(), way, verb, delta.abs());
    }
    format!("seat {}: recorded {:+} chips before rake, {} gives {:+}; {} by {}", seat, got, rule, due, verb, delta.abs())
}

/// MISPAY per seat beyond a wrong price the game already reported (`Outcome::price_errors`), RAKE_* per
/// rake key, NOT_CONSERVED (GEN-8) on either side.
fn compare(outcome: &Outcome, recorded: &RecordedHand, rake_rule: &'static str, gen: &GenProfile) -> Vec<RFinding> {
    let mut out = conservation(outcome, recorded);
    let rake = seat_rake(outcome, recorded);
    let seats: BTreeSet<i64> = outcome.net.keys().chain(recorded.net.keys()).copied().collect();
    for seat in seats.into_iter().filter(|_| outcome.unverified.is_none()) {  // who won is unknown
        let due = outcome.net.get(&seat).copied().unwrap_or(0) + own_fee(outcome, outcome.rake.get(&seat).copied());
        let got = recorded.net.get(&seat).copied().unwrap_or(0) + own_fee(outcome, rake.get(&RakeKey::Seat(seat)).copied());
        let price = outcome.price_errors.get(&seat).copied().unwrap_or(0);
        if got - due + price != 0 {
            let rule = outcome.seat_rules.get(&seat).copied().unwrap_or("GEN-8");
            out.push(finding("MISPAY", rule, gen.mispay, mispay_message(seat, got, due, rule, price), Some(seat),
                             Some(got - due + price)));
        }
    }
    out.extend(bound_findings(outcome, recorded, &rake, gen.mispay));
    let expected = rake_due(outcome);
    let keys: BTreeSet<RakeKey> = expected.keys().chain(rake.keys()).copied().collect();
    for key in keys {
        let due = expected.get(&key).copied().unwrap_or(0);
        let got = rake.get(&key).copied().unwrap_or(0);
        if due == got {
            continue;
        }
        let code = if got > due { "RAKE_OVER" } else { "RAKE_UNDER" };
        let (who, seat) = match key {
            RakeKey::Seat(s) => (format!("seat {}", s), Some(s)),
            RakeKey::Pot => ("the pot".to_string(), None),
        };
        out.push(finding(code, rake_rule, gen.rake_error, format!(
            "{}: rake collected {}, posted rake gives {}", who, got, due), seat, Some(got - due)));
    }
    out
}

/// `own_fee`: the part of a seat's fee its own chips paid, which its result before rake
/// adds back: all of it, or none when the posted rake takes fees out of the pot.
fn own_fee(outcome: &Outcome, fee: Option<Chips>) -> Chips {
    if outcome.fees_from_pot { 0 } else { fee.unwrap_or(0) }
}

/// `bound_misses`: an unverified hand's seats whose recorded net before rake (`rake`: the
/// recorded rake per seat, `seat_rake`) lies outside the bounds no unknown card can widen
/// (TH-9): (seat, recorded, least, most).
fn bound_misses(outcome: &Outcome, recorded: &RecordedHand, rake: &BTreeMap<RakeKey, Chips>)
                -> Vec<(i64, Chips, Chips, Chips)> {
    let bounds = match &outcome.unverified {
        Some(bounds) => bounds,
        None => return Vec::new(),
    };
    let seats: BTreeSet<i64> = bounds.keys().chain(recorded.net.keys()).copied().collect();
    seats.into_iter().filter_map(|seat| {
        let (low, high) = bounds.get(&seat).copied().unwrap_or((0, 0));
        let got = recorded.net.get(&seat).copied().unwrap_or(0) + own_fee(outcome, rake.get(&RakeKey::Seat(seat)).copied());
        (got < low || got > high).then_some((seat, got, low, high))
    }).collect()
}

/// `_bound_findings`: MISPAY for each seat `bound_misses` gives, by the chips beyond the bound.
fn bound_findings(outcome: &Outcome, recorded: &RecordedHand, rake: &BTreeMap<RakeKey, Chips>, severity: Sev)
                  -> Vec<RFinding> {
    bound_misses(outcome, recorded, rake).into_iter().map(|(seat, got, low, high)| {
        let rule = outcome.seat_rules.get(&seat).copied().unwrap_or("TH-9");
        let delta = if got > high { got - high } else { got - low };
        let due = if low == high { format!("{:+}", low) } else { format!("between {:+} and {:+}", low, high) };
        let verb = if delta > 0 { "overpaid" } else { "underpaid" };
        finding("MISPAY", rule, severity, format!(
            "seat {}: recorded {:+} chips before rake; whatever the unknown showdown cards, {} gives {} (the pots it is eligible for and can win); {} by at least {}",
            seat, got, rule, due, verb, delta.abs()), Some(seat), Some(delta))
    }).collect()
}

/// GEN-8: the values of `net` sum to zero with the house, on both sides.
fn conservation(outcome: &Outcome, recorded: &RecordedHand) -> Vec<RFinding> {
    let mut out = Vec::new();
    let expected_sum: Chips = outcome.net.values().sum::<Chips>() + outcome.house;
    if expected_sum != 0 && outcome.unverified.is_none() {
        out.push(finding("NOT_CONSERVED", "GEN-8", Sev::Critical, format!(
            "expected settlement sums to {:+} chips over seats and house, not zero: the game's settlement is wrong, the hand needs review by hand",
            expected_sum), None, Some(expected_sum)));
    }
    let recorded_sum: Chips = recorded.net.values().sum::<Chips>() + recorded.house;
    if recorded_sum != 0 && !recorded.findings.iter().any(|f| f.rule == "GEN-8") {
        out.push(finding("NOT_CONSERVED", "GEN-8", Sev::Critical, format!(
            "recorded movements sum to {:+} chips over seats and house, not zero", recorded_sum),
            None, Some(recorded_sum)));
    }
    out
}

/// `record_status`: `ok` only when recorded equals expected and no finding is above
/// info; `dead` the same for a dead hand; `unverified` when who won cannot be said and
/// nothing that can be checked (actions, chips, rake, each seat's bounds) is wrong.
fn status(outcome: &Outcome, recorded: &RecordedHand, findings: &[RFinding]) -> &'static str {
    let serious = findings.iter().any(|f| f.severity != Sev::Info);
    if outcome.unverified.is_some() {
        let rake = seat_rake(outcome, recorded);
        let wrong = serious || rake != rake_due(outcome) || !bound_misses(outcome, recorded, &rake).is_empty();
        return if wrong { "discrepancy" } else { "unverified" };
    }
    let seats: BTreeSet<i64> = outcome.net.keys().chain(recorded.net.keys()).copied().collect();
    let nets_agree = seats.iter().all(|s| outcome.net.get(s).copied().unwrap_or(0) == recorded.net.get(s).copied().unwrap_or(0));
    let agree = nets_agree && outcome.house == recorded.house && seat_rake(outcome, recorded) == rake_due(outcome);
    if serious || !agree {
        "discrepancy"
    } else if outcome.dead {
        "dead"
    } else {
        "ok"
    }
}

fn bounded(v: Chips, min: Chips) -> Result<Chips, Defer> {
    if (min..=MAX_SAFE).contains(&v) {
        Ok(v)
    } else {
        Err(Defer("a record value beyond the contract's bound"))
    }
}

/// `_side`: net by seat plus `house`, the rake that is not zero.
fn side(net: &BTreeMap<i64, Chips>, house: Chips, rake: &BTreeMap<RakeKey, Chips>) -> Result<Side, Defer> {
    let mut out = Side::default();
    for (seat, value) in net {
        out.net.push((seat.to_string(), bounded(*value, -MAX_SAFE)?));
    }
    out.net.push(("house".to_string(), bounded(house, -MAX_SAFE)?));
    for (key, value) in rake {
        if *value != 0 {
            out.rake.push((key.name(), bounded(*value, 0)?));
        }
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn build(hand: &ClosedHand, config: &Value<'_>, game: &'static str, rule_profile: &str, outcome: &Outcome,
         recorded: RecordedHand, findings: Vec<RFinding>, with_chain: bool) -> Result<Adjudicated, Defer> {
    if recorded.movements.iter().any(|m| !(1..=MAX_SAFE).contains(&m.amount)) {
        return Err(Defer("a movement beyond the contract's bound"));
    }
    let started = hand.events.iter().find(|e| e.type_index == super::HAND_STARTED);
    let ended = hand.events.iter().find(|e| e.type_index == super::HAND_ENDED);
    let players = started.map(|s| {
        let mut players: BTreeMap<i64, String> = BTreeMap::new();
        if let Some(Value::Array(seats)) = s.data.get("seats") {
            for seat in seats {
                players.insert(super::int(seat, "seat"), super::text(seat, "player_id").to_string());
            }
        }
        players.into_iter().map(|(seat, player)| (seat.to_string(), player)).collect()
    });
    let dealer_id = match started {
        Some(s) => s.data.get("dealer_id").and_then(Value::as_str).map(str::to_string),
        None => hand.context.dealer_id.clone(),
    };
    let expected = side(&outcome.net, outcome.house, &rake_due(outcome))?;
    let recorded_side = side(&recorded.net, recorded.house, &recorded.rake)?;
    let settle = recorded.net.iter().map(|(seat, net)| (*seat, *net as i64)).collect();
    let status = status(outcome, &recorded, &findings);
    let findings = stated_findings(findings);
    let record = Record {
        table_id: hand.table_id.clone(),
        hand_id: hand.hand_id.clone(),
        game: Some(game),
        status,
        rule_profile: Some(rule_profile.to_string()),
        expected: Some(expected).filter(|_| outcome.unverified.is_none()),
        recorded: Some(recorded_side),
        findings,
        players,
        dealer_id,
        rake_mode: config.get("rake").and_then(|r| r.get("mode")).and_then(Value::as_str).map(str::to_string),
        ended_at: ended.map(|e| e.ts.to_string()),
        first_seq: Some(hand.first_seq).filter(|_| with_chain),
        last_seq: Some(hand.last_seq).filter(|_| with_chain),
        last_hash: Some(hex(&hand.last_hash)).filter(|_| with_chain),
        movements: Some(recorded.movements),
    };
    Ok(Adjudicated { record, settle })
}

/// A hand given as its records (the contract's JSON of each event, in order), for callers
/// that hold a hand rather than a stream (the differential tests, a report's replay).
/// None when a record is not valid v1.
pub fn closed_hand_from_records(table_id: &str, hand_id: &str, records: &[&[u8]], context: table::Context,
                                chain: Option<(i64, i64, [u8; 32])>, findings: Vec<table::Finding>) -> Option<ClosedHand> {
    let mut scratch = Vec::new();
    let mut events = Vec::with_capacity(records.len());
    for raw in records {
        let tree = crate::intake::parse(raw)?;
        let env = match crate::intake::accept(&tree, &mut scratch) {
            crate::intake::Intake::Accepted { envelope, .. } => envelope,
            crate::intake::Intake::Rejected => return None,
        };
        events.push(table::DecodedEvent {
            type_index: env.type_index,
            seq: env.seq,
            event_id: env.id.clone(),
            ts: crate::timestamp::Timestamp::from(env.ts),
            prev_hash: env.prev_hash,
            prev_newline: env.prev_hash_newline,
            table_id: Some(env.table_id.to_string()),
            hand_id: Some(env.hand_id.map(str::to_string)),
            source: Some(env.source.to_string()),
            data: env.body.clone().into_owned(),
        });
    }
    let (first_seq, last_seq, last_hash) = chain.unwrap_or((0, 0, [0; 32]));
    Some(ClosedHand {
        table_id: table_id.to_string(),
        hand_id: hand_id.to_string(),
        source: String::new(),
        events,
        context,
        first_seq,
        last_seq,
        last_hash,
        findings,
    })
}
