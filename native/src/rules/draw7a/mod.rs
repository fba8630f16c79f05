//! Five Card Draw, 7 to Ace (rules.md FCD-1..11, GEN-10), the port of
//! `services/games/draw7a/adjudicate.py`: the deck and players (FCD-1), blinds and betting
//! on the shared engine (`rules::betting`: FCD-3, FCD-5, FCD-7, FCD-8), the deal (FCD-4),
//! the draw and any reshuffle of the discards (FCD-6, `walk`), the showdown order (FCD-9,
//! `procedure`), the pots settled with the short-deck ranking (FCD-10, FCD-11: `showdown`,
//! `evaluation`) and the posted rake (GEN-10). The decision path (`trace`) stays Python's.

pub mod betting;
pub mod evaluation;
pub mod procedure;
pub mod profile;
pub mod showdown;
pub mod walk;

use crate::json::Value;
use crate::rules::betting::engine::BettingHand;
use crate::rules::betting::findings::violation_findings;
use crate::rules::betting::pot_hand::{dead_outcome, opening, replay};
use crate::rules::betting::rake::{PotRakeHand, RakeMode, RakePolicy};
use crate::rules::betting::settlement::settle;
use crate::rules::hcf::procedure::Stop;
use crate::rules::{Chips, Defer, Outcome};
use crate::table::DecodedEvent;
use profile::Draw7aProfile;
use walk::HandWalk;

/// `adjudicate(hand, profile)` for Five Card Draw 7-A: the expected settlement, with its findings.
pub fn adjudicate(events: &[DecodedEvent], config: &Value<'_>, prof: &Draw7aProfile) -> Result<Outcome, Stop> {
    let started = opening(events, "FCD-1")?;
    let engine_config = betting::betting_config(config, prof)?;
    let stacks: Vec<(i64, Chips)> = started.seats.iter().map(|s| (s.seat, s.stack)).collect();
    let engine = BettingHand::new(engine_config, &stacks, started.button)?;
    let mut walk = HandWalk::new(prof, started, engine);
    procedure::check_players_and_deck(&mut walk);
    for e in replay(events) {
        walk.feed(e)?;
    }
    if walk.dead_reason.is_some() {
        return Ok(dead_outcome(&walk.started, walk.notes));
    }
    walk.finish_betting()?;
    procedure::check_deal(&mut walk);
    if !walk.draw.entrants.is_empty() {
        procedure::check_draw_order(&mut walk)?;
        procedure::check_draw_recorded(&mut walk);
    }
    let contenders = walk.engine.active();
    if contenders.is_empty() {
        return Err(Stop::Defer(Defer("no contender left")));
    }
    let showdown = contenders.len() > 1;
    let ranks = if showdown { showdown::strengths(&mut walk, &contenders)? } else { Vec::new() };
    if showdown {
        procedure::check_showdown_order(&mut walk)?;
    }
    let (mode, fee) = crate::rules::hcf::rake_config(config);
    let mode = RakeMode::parse(mode).ok_or(Defer("a rake mode the core does not know"))?;
    let hand = PotRakeHand { players_dealt: walk.started.seats.len() as i64, past_first_round: walk.engine.round_index > 0 };
    let rake = RakePolicy::posted(mode, fee, &prof.rake, Some(hand));
    let engine = &walk.engine;
    let result = settle(&engine.contributions(), &engine.folded(), &ranks, engine.button, &rake, &engine.stacks_left())?;
    let rule = if showdown { "FCD-11" } else { "FCD-9" };
    let mut findings = violation_findings(&engine.violations, &prof.betting_severity);
    findings.extend(walk.notes.findings);
    Ok(Outcome {
        net: result.net.iter().copied().collect(),
        house: result.house(),
        rake: result.rake.items.iter().copied().collect(),
        pot_rake: result.pot_rake,
        findings,
        seat_rules: result.net.iter().map(|(seat, _)| (*seat, rule)).collect(),
        dead: false,
        price_errors: Default::default(),
        unverified: None,
        fees_from_pot: rake.fee_from_pot,
    })
}
