//! Texas Hold'em (rules.md TH-1..9, GEN-10), the port of `services/games/holdem/adjudicate.py`:
//! the hand replayed in order (`walk`): blinds, antes and betting on the shared engine
//! (`rules::betting`, TH-1 structures: `betting`), the hole-card deal with its exposed and
//! extra cards (`deal`: TH-1, TH-3, TH-7), the board with its burns, redealt flops and
//! premature turns (`board`: TH-1, TH-4, TH-5, TH-6), the showdown (`showdown`: TH-2, TH-8,
//! TH-9, ranked on the standard tables handed over once: `rules::ranking`), and the
//! settlement with side pots, split pots, the odd chip, dead antes (`settlement`) and the
//! posted rake (GEN-10). A misdeal makes the hand dead (GEN-6). The decision path stays Python's.

pub mod betting;
pub mod board;
pub mod bounds;
pub mod deal;
pub mod profile;
pub mod settlement;
pub mod showdown;
pub mod walk;

use crate::json::Value;
use crate::rules::betting::findings::violation_findings;
use crate::rules::betting::pot_hand::{dead_outcome, opening, replay, Notes};
use crate::rules::betting::rake::{PotRakeHand, RakeMode, RakePolicy};
use crate::rules::betting::settlement::{settle, Settlement};
use crate::rules::hcf::procedure::Stop;
use crate::rules::ranking::CardRanking;
use crate::rules::{Chips, Defer, Outcome};
use crate::table::DecodedEvent;
use std::collections::BTreeMap;
use profile::HoldemProfile;
use showdown::ShowdownInput;
use walk::HandWalk;

/// `dead_antes` (TH-1 / TH-9 reading): every ante when `antes_dead_money`, else only a
/// big-blind ante (what the big blind posted in antes beyond the ante every player owes).
fn dead_antes(walk: &HandWalk<'_, '_>, config: &Value<'_>) -> Result<Vec<(i64, Chips)>, Defer> {
    if walk.prof.antes_dead_money {
        return Ok(walk.antes.iter().copied().filter(|(_, a)| *a != 0).collect());
    }
    let antes = betting::posted_antes(config);
    if antes.big_blind == 0 {
        return Ok(Vec::new());
    }
    // The reference reads the engine's big blind seat, which a table without blinds lacks.
    let seat = betting::big_blind_seat(&walk.engine).ok_or(Defer("a big-blind ante without blinds"))?;
    let posted = walk.antes.iter().find(|(s, _)| *s == seat).map_or(0, |(_, a)| *a);
    let dead = posted - antes.each.min(posted);
    Ok(if dead > 0 { vec![(seat, dead)] } else { Vec::new() })
}

/// `settle_hand`: pots to the best hands (TH-2, TH-8, TH-9), rake per the posted mode (GEN-10).
fn settle_hand(walk: &mut HandWalk<'_, '_>, config: &Value<'_>, ranking: &CardRanking) -> Result<Outcome, Stop> {
    let contenders = walk.engine.active();
    let showdown = contenders.len() > 1;
    let mut data = ShowdownInput {
        contenders: &contenders, hole: &walk.deal.hands, board: &walk.board.cards, shown: &walk.shown,
        declared_board: &walk.declared_board, seat_rules: Vec::new(), unknown: Vec::new(),
    };
    let ranks = if showdown { showdown::strengths(&mut data, walk.prof, &mut walk.notes, ranking)? } else { Vec::new() };
    let (seat_rules, unknown) = (data.seat_rules, data.unknown);
    if showdown {
        showdown::check_order(&walk.engine, &walk.shown, walk.prof, &mut walk.notes)?;
    }
    // The rake does not depend on who won: with a contender's cards unknown it is settled
    // as a split (`settle_hand`'s reading), the known strengths kept for the bounds.
    let split: Vec<(i64, Option<i64>)> = contenders.iter().map(|&s| (s, Some(0))).collect();
    let settled = if unknown.is_empty() { &ranks } else { &split };
    let (mode, fee) = crate::rules::hcf::rake_config(config);
    let mode = RakeMode::parse(mode).ok_or(Defer("a rake mode the core does not know"))?;
    let hand = PotRakeHand { players_dealt: walk.started.seats.len() as i64, past_first_round: !walk.board.cards.is_empty() };
    let rake = RakePolicy::posted(mode, fee, &walk.prof.rake, Some(hand));
    let dead = dead_antes(walk, config)?;
    let engine = &walk.engine;
    let result = if dead.is_empty() {
        settle(&engine.contributions(), &engine.folded(), settled, engine.button, &rake, &engine.stacks_left())?
    } else {
        settlement::settle_with_dead_money(&engine.contributions(), &dead, &engine.folded(), settled, engine.button,
                                           &rake, &engine.stacks_left())?
    };
    let rule_of = |seat: i64| seat_rules.iter().find(|(s, _)| *s == seat).map_or("TH-9", |(_, r)| *r);
    if !unknown.is_empty() {
        let bounds = bounds::net_bounds(&result, &engine.contributions(), &ranks, &unknown, engine.button)?;
        return Ok(cannot_verify(walk, &unknown, &result, bounds, rule_of, rake.fee_from_pot));
    }
    let mut findings = violation_findings(&engine.violations, &walk.prof.betting_severity);
    findings.extend(std::mem::take(&mut walk.notes.findings));
    Ok(Outcome {
        net: result.net.iter().copied().collect(),
        house: result.house(),
        rake: result.rake.items.iter().copied().collect(),
        pot_rake: result.pot_rake,
        findings,
        seat_rules: result.net.iter().map(|(seat, _)| (*seat, rule_of(*seat))).collect(),
        dead: false,
        price_errors: Default::default(),
        unverified: None,
        fees_from_pot: rake.fee_from_pot,
    })
}

/// `cannot_verify` (TH-9): a contender's cards are unknown, so who won cannot be said and
/// no seat's result is expected; the actions, the chips, the rake (settled as a split) and
/// each seat's result against `bounds` (`bounds::net_bounds`) are still checked.
fn cannot_verify(walk: &mut HandWalk<'_, '_>, unknown: &[i64], result: &Settlement,
                 bounds: BTreeMap<i64, (Chips, Chips)>, rule_of: impl Fn(i64) -> &'static str,
                 fees_from_pot: bool) -> Outcome {
    let seats = unknown.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    walk.notes.add("SHOWDOWN_UNKNOWN", "TH-9", walk.prof.severity.showdown_unknown, format!(
        "cannot verify who won: the showdown cards of seat(s) {} are unknown (not read at the deal, not shown); \
         the actions, the chips, the rake and each seat's result against the pots it can win are checked", seats),
        None, None);
    let mut findings = violation_findings(&walk.engine.violations, &walk.prof.betting_severity);
    findings.extend(std::mem::take(&mut walk.notes.findings));
    Outcome {
        net: BTreeMap::new(),
        house: result.house(),
        rake: result.rake.items.iter().copied().collect(),
        pot_rake: result.pot_rake,
        findings,
        seat_rules: bounds.keys().map(|&seat| (seat, rule_of(seat))).collect(),
        dead: false,
        price_errors: Default::default(),
        unverified: Some(bounds),
        fees_from_pot,
    }
}

/// `adjudicate(hand, profile)` for Texas Hold'em: the expected settlement, with its findings.
pub fn adjudicate(events: &[DecodedEvent], config: &Value<'_>, prof: &HoldemProfile, ranking: &CardRanking)
                  -> Result<Outcome, Stop> {
    let started = opening(events, "TH-1")?;
    let engine_config = betting::betting_config(config, prof)?;
    let stacks: Vec<(i64, Chips)> = started.seats.iter().map(|s| (s.seat, s.stack)).collect();
    let antes = betting::posted_antes(config);
    let engine = betting::holdem_betting(engine_config, &stacks, started.button, antes.big_blind)?;
    let mut notes = Notes::default();
    if started.deck != prof.deck_size {
        notes.add("WRONG_DECK", "TH-9", prof.severity.wrong_deck, format!(
            "hand_started declares a {}-card deck; hold'em is dealt from one standard {}-card deck",
            started.deck, prof.deck_size), None, Some(started.deck as Chips));
    }
    let mut walk = HandWalk::new(prof, started, engine, notes);
    for e in replay(events) {
        walk.feed(e)?;
    }
    walk.finish()?;
    if walk.dead {
        return Ok(dead_outcome(&walk.started, walk.notes));
    }
    if walk.deal.misdeal_cause.is_some() && prof.undeclared_misdeal_dead {
        return Ok(dead_outcome(&walk.started, walk.notes));
    }
    settle_hand(&mut walk, config, ranking)
}
