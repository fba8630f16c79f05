//! Five Card Draw 7-A betting on the shared engine (`services/games/draw7a/betting.py`): the
//! deck the player count requires (FCD-1), the blinds (FCD-3) and the bet sizes of the two
//! rounds (FCD-5, FCD-7, FCD-8).

use super::profile::Draw7aProfile;
use crate::json::Value;
use crate::rules::betting::floordiv;
use crate::rules::betting::structures::{BettingConfig, RoundSpec, RuleIds, Structure};
use crate::rules::hcf::procedure::Stop;
use crate::rules::{mul, Chips, Defer};

/// `required_deck` (FCD-1): 32 cards; the four sixes are added when exactly five are dealt in.
pub fn required_deck(players: i64, prof: &Draw7aProfile) -> i64 {
    if players == prof.sixes_added_with_players { prof.deck_size + 4 } else { prof.deck_size }
}

fn limit(config: &Value<'_>, name: &str) -> Option<Chips> {
    config.get("limits")?.get(name)?.as_int().map(Chips::from)
}

/// `betting_config` (FCD-3, FCD-8): the table's posted structure, blinds and bet sizes.
pub fn betting_config(config: &Value<'_>, prof: &Draw7aProfile) -> Result<BettingConfig, Stop> {
    let structure = match config.get("structure").and_then(Value::as_str) {
        None => return Err(Stop::Rejected(("FCD-2", "the table configuration posts no betting structure".to_string()))),
        Some(s) => Structure::parse(s).ok_or(Defer("a betting structure the core does not know"))?,
    };
    let big_blind = limit(config, "big_blind").or_else(|| limit(config, "small_bet")).or_else(|| limit(config, "min_wager"))
        .ok_or(Defer("no minimum wager"))?;
    let small_blind = match limit(config, "small_blind") {
        Some(sb) => sb,
        None => floordiv(mul(big_blind, prof.small_blind_numerator as Chips)?, prof.small_blind_denominator as Chips)?,
    };
    let small_bet = limit(config, "small_bet").unwrap_or(big_blind);
    let big_bet = match limit(config, "big_bet") {
        Some(b) => b,
        None => mul(small_bet, prof.big_bet_multiple as Chips)?,
    };
    let (before, after) = if structure == Structure::Fixed { (small_bet, big_bet) } else { (big_blind, big_blind) };
    let out = BettingConfig {
        structure,
        rounds: vec![
            RoundSpec { name: "before the draw", bet_unit: before, order_rule: "FCD-5" },
            RoundSpec { name: "after the draw", bet_unit: after, order_rule: "FCD-7" },
        ],
        small_blind,
        big_blind,
        ante: 0,
        first_round_blinds: true,
        max_bets_per_round: prof.max_bets_per_round,
        big_blind_counts_as_bet: prof.big_blind_counts_as_bet,
        pot_limit_reading: prof.pot_limit_reading,
        rules: RuleIds { blinds: "FCD-3", sizes: "FCD-8", stakes: "GEN-2" },
    };
    out.check()?;
    Ok(out)
}
