//! Section `holdem` of a rule profile (`services/games/holdem/profile.py`): every number and
//! reading of TH-1..9 as data, passed in from Python once (`native/src/python.rs`).
//! The Literal readings are booleans named after the value that sets them.

use crate::rules::betting::findings::BettingSeverities;
use crate::rules::betting::rake::PotGameRake;
use crate::rules::betting::structures::PotLimitReading;
use crate::rules::Sev;

/// `HoldemSeverities`: the game's own findings (the betting ones are `BettingSeverities`).
#[derive(Debug, Clone)]
pub struct HoldemSeverities {
    pub wrong_deck: Sev,
    pub deal_order: Sev,
    pub wrong_card_count: Sev,
    pub blind_after_deal: Sev,
    pub missing_burn: Sev,
    pub extra_burn: Sev,
    pub board_card_count: Sev,
    pub board_dealt_early: Sev,
    pub unexpected_action: Sev,
    pub misdeal_required: Sev,
    pub misdeal_not_required: Sev,
    pub exposed_card_not_replaced: Sev,
    pub exposed_card_replaced_early: Sev,
    pub exposed_card_not_burned: Sev,
    pub flop_not_redealt: Sev,
    pub redeal_not_reshuffled: Sev,
    pub burn_not_kept: Sev,
    pub premature_turn_not_set_aside: Sev,
    pub set_aside_not_reshuffled: Sev,
    pub extra_card_not_burned: Sev,
    pub showdown_order: Sev,
    pub shown_cards_mismatch: Sev,
    pub board_declared_late: Sev,
    pub wrong_card_removed: Sev,
    pub card_to_dealer: Sev,
    pub showdown_unknown: Sev,
}

/// `HoldemProfile`.
#[derive(Debug, Clone)]
pub struct HoldemProfile {
    pub hole_cards: i64,
    pub flop_cards: i64,
    pub board_cards: i64,
    pub deck_size: i64,
    pub small_blind_numerator: i64,
    pub small_blind_denominator: i64,
    pub big_bet_multiple: i64,
    pub max_bets_per_round: i64,
    pub big_blind_counts_as_bet: bool,
    pub pot_limit_reading: PotLimitReading,
    /// `undeclared_misdeal_settlement == "dead"` (else "as_played"; TH-3 / TH-7)
    pub undeclared_misdeal_dead: bool,
    /// `deal_phase_ends == "last_hole_card"` (else "first_action"; TH-3)
    pub deal_phase_ends_last_hole_card: bool,
    pub irregular_hand_dead: bool,
    /// `unshown_contender == "no_claim"` (else "cards_speak"; TH-9)
    pub unshown_no_claim: bool,
    pub antes_dead_money: bool,
    /// `unfinished_board_pot == "reject"` (else "split"; TH-1)
    pub unfinished_board_reject: bool,
    pub rake: PotGameRake,
    pub severity: HoldemSeverities,
    pub betting_severity: BettingSeverities,
}
