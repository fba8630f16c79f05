//! Hold'em betting on the shared engine (`services/games/holdem/betting.py`): four rounds,
//! blinds, antes or both (TH-1), and the big-blind ante the engine does not know.

use super::profile::HoldemProfile;
use crate::json::Value;
use crate::rules::betting::engine::{BettingHand, OwedPost};
use crate::rules::betting::floordiv;
use crate::rules::betting::seating::blind_seats;
use crate::rules::betting::structures::{BettingConfig, RoundSpec, RuleIds, Structure};
use crate::rules::hcf::procedure::Stop;
use crate::rules::{mul, Chips, Defer};

pub const ROUND_NAMES: [&str; 4] = ["pre-flop", "flop", "turn", "river"];
pub const RULE: &str = "TH-1";

/// `Antes`: `each` from every player dealt in, `big_blind` once for the table by the big blind.
#[derive(Debug, Clone, Copy)]
pub struct Antes {
    pub each: Chips,
    pub big_blind: Chips,
}

fn limit(config: &Value<'_>, name: &str) -> Option<Chips> {
    config.get("limits")?.get(name)?.as_int().map(Chips::from)
}

/// `posted_antes` (TH-1): antes per the table configuration.
pub fn posted_antes(config: &Value<'_>) -> Antes {
    Antes { each: limit(config, "ante").unwrap_or(0), big_blind: limit(config, "big_blind_ante").unwrap_or(0) }
}

/// `betting_config` (TH-1, FCD-8 via TH-1): the posted structure, blinds, antes, bet sizes.
pub fn betting_config(config: &Value<'_>, prof: &HoldemProfile) -> Result<BettingConfig, Stop> {
    let structure = match config.get("structure").and_then(Value::as_str) {
        None => return Err(Stop::Rejected((RULE, "the table configuration posts no betting structure".to_string()))),
        Some(s) => Structure::parse(s).ok_or(Defer("a betting structure the core does not know"))?,
    };
    let min_wager = limit(config, "min_wager").ok_or(Defer("no minimum wager"))?;
    let (bb, sb_posted, small_bet) = (limit(config, "big_blind"), limit(config, "small_blind"), limit(config, "small_bet"));
    let has_blinds = bb.is_some() || sb_posted.is_some();
    let big_blind = if has_blinds { bb.or(small_bet).unwrap_or(min_wager) } else { 0 };
    let small_blind = match sb_posted {
        Some(sb) => sb,
        None => floordiv(mul(big_blind, prof.small_blind_numerator as Chips)?, prof.small_blind_denominator as Chips)?,
    };
    let small_bet = small_bet.or(if big_blind != 0 { Some(big_blind) } else { None }).unwrap_or(min_wager);
    let big_bet = match limit(config, "big_bet") {
        Some(b) => b,
        None => mul(small_bet, prof.big_bet_multiple as Chips)?,
    };
    let units = if structure == Structure::Fixed {
        [small_bet, small_bet, big_bet, big_bet]
    } else {
        let minimum = if big_blind != 0 { big_blind } else { small_bet };
        [minimum; 4]
    };
    let out = BettingConfig {
        structure,
        rounds: ROUND_NAMES.iter().zip(units).map(|(name, unit)| RoundSpec { name, bet_unit: unit, order_rule: RULE }).collect(),
        small_blind,
        big_blind,
        ante: posted_antes(config).each,
        first_round_blinds: has_blinds,
        max_bets_per_round: prof.max_bets_per_round,
        big_blind_counts_as_bet: prof.big_blind_counts_as_bet,
        pot_limit_reading: prof.pot_limit_reading,
        rules: RuleIds { blinds: RULE, sizes: RULE, stakes: "GEN-2" },
    };
    out.check()?;
    Ok(out)
}

/// The big blind's seat (`BettingHand.big_blind_seat`, set only when the first round has blinds).
pub fn big_blind_seat(engine: &BettingHand) -> Option<i64> {
    if !engine.config.first_round_blinds {
        return None;
    }
    blind_seats(&engine.order, engine.button).map(|(_, bb)| bb)
}

/// `HoldemBetting`: the shared engine plus the big-blind ante (posted first, as dead money,
/// by the big blind; the big blind itself is then capped at what the seat has left).
pub fn holdem_betting(config: BettingConfig, stacks: &[(i64, Chips)], button: i64, big_blind_ante: Chips)
                      -> Result<BettingHand, Defer> {
    let mut engine = BettingHand::new(config, stacks, button)?;
    if big_blind_ante > 0 && engine.config.first_round_blinds {
        let seat = big_blind_seat(&engine).ok_or(Defer("no big blind seat"))?;
        let stack = engine.seat(seat).map_or(0, |s| s.stack) - engine.config.ante;
        let ante = big_blind_ante.min(stack).max(0);
        let mut owed: Vec<OwedPost> = engine.owed.iter().map(|post| {
            if post.kind == "post_big_blind" && post.seat == seat {
                OwedPost { kind: post.kind, seat, amount: post.amount.min(stack - ante).max(0) }
            } else {
                *post
            }
        }).collect();
        if ante != 0 {
            owed.insert(0, OwedPost { kind: "post_ante", seat, amount: ante });
        }
        engine.owed = owed;
    }
    Ok(engine)
}
