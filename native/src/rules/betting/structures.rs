//! Betting structures and the per-game configuration of the betting engine, the port of
//! `services/games/betting/structures.py`: everything that differs between the pot games
//! (Five Card Draw's two rounds, Hold'em's four) is data here; the engine never names a
//! game.

use crate::rules::{Chips, Defer};

/// `Structure`: fixed limit, pot limit, no limit (`table_configured.structure`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Structure {
    Fixed,
    Pot,
    No,
}

impl Structure {
    pub fn parse(s: &str) -> Option<Structure> {
        match s {
            "fixed" => Some(Structure::Fixed),
            "pot" => Some(Structure::Pot),
            "no" => Some(Structure::No),
            _ => None,
        }
    }
}

/// `PotLimitReading` (FCD-8 pot limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PotLimitReading {
    /// "total_at_most_pot_after_call": the raiser's whole total is at most the pot after its call.
    TotalAtMostPotAfterCall,
    /// "raise_by_pot_after_call": the raise is at most the pot after the call.
    RaiseByPotAfterCall,
}

impl PotLimitReading {
    pub fn parse(s: &str) -> Option<PotLimitReading> {
        match s {
            "total_at_most_pot_after_call" => Some(PotLimitReading::TotalAtMostPotAfterCall),
            "raise_by_pot_after_call" => Some(PotLimitReading::RaiseByPotAfterCall),
            _ => None,
        }
    }
}

/// `RoundSpec`: one betting round, its bet unit and the rule its order of action cites.
#[derive(Debug, Clone)]
pub struct RoundSpec {
    pub name: &'static str,
    pub bet_unit: Chips,
    pub order_rule: &'static str,
}

/// `RuleIds`: the rules cited by violations that are not about one round's order.
#[derive(Debug, Clone, Copy)]
pub struct RuleIds {
    pub blinds: &'static str,
    pub sizes: &'static str,
    pub stakes: &'static str,
}

/// `BettingConfig`: everything the engine needs to know about a table's betting.
#[derive(Debug, Clone)]
pub struct BettingConfig {
    pub structure: Structure,
    pub rounds: Vec<RoundSpec>,
    pub small_blind: Chips,
    pub big_blind: Chips,
    pub ante: Chips,
    pub first_round_blinds: bool,
    pub max_bets_per_round: i64,
    pub big_blind_counts_as_bet: bool,
    pub pot_limit_reading: PotLimitReading,
    pub rules: RuleIds,
}

impl BettingConfig {
    /// `__post_init__`: the reference raises (an ADJUDICATION_ERROR record) where this defers.
    pub fn check(&self) -> Result<(), Defer> {
        if self.rounds.is_empty() {
            return Err(Defer("a betting configuration with no round"));
        }
        if self.small_blind.min(self.big_blind).min(self.ante) < 0 {
            return Err(Defer("a negative blind or ante"));
        }
        if self.max_bets_per_round < 1 {
            return Err(Defer("a fixed-limit cap below one bet"));
        }
        Ok(())
    }
}
