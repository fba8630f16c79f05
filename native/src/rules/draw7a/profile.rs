//! Section `draw7a` of a rule profile (`services/games/draw7a/profile.py`): every number and
//! reading of FCD-1..11 as data, passed in from Python once (`native/src/python.rs`).
//! The Literal readings are booleans named after the value that sets them.

use crate::rules::betting::findings::BettingSeverities;
use crate::rules::betting::rake::PotGameRake;
use crate::rules::betting::structures::PotLimitReading;
use crate::rules::Sev;

/// FCD-4: five cards each.
pub const HAND_SIZE: usize = 5;

/// `Draw7aSeverities`: the game's own findings (the betting ones are `BettingSeverities`).
#[derive(Debug, Clone)]
pub struct Draw7aSeverities {
    pub wrong_deck: Sev,
    pub player_count: Sev,
    pub blind_after_deal: Sev,
    pub deal_order: Sev,
    pub wrong_card_count: Sev,
    pub draw_order: Sev,
    pub draw_size: Sev,
    pub discard_not_held: Sev,
    pub draw_by_inactive: Sev,
    pub draw_twice: Sev,
    pub draw_out_of_phase: Sev,
    pub draw_not_recorded: Sev,
    pub reshuffle_not_discards: Sev,
    pub early_reshuffle: Sev,
    pub showdown_order: Sev,
    pub shown_cards_mismatch: Sev,
    pub unexpected_action: Sev,
}

/// `Draw7aProfile`.
#[derive(Debug, Clone)]
pub struct Draw7aProfile {
    pub min_players: i64,
    pub max_players: i64,
    pub deck_size: i64,
    pub sixes_added_with_players: i64,
    pub small_blind_numerator: i64,
    pub small_blind_denominator: i64,
    pub big_bet_multiple: i64,
    pub max_bets_per_round: i64,
    pub big_blind_counts_as_bet: bool,
    pub pot_limit_reading: PotLimitReading,
    pub max_discard: i64,
    /// `rank_with_deck == "dealt"` (else "required"; FCD-10)
    pub rank_with_dealt_deck: bool,
    pub irregular_hand_dead: bool,
    pub rake: PotGameRake,
    pub severity: Draw7aSeverities,
    pub betting_severity: BettingSeverities,
}
