//! The rule profile sections the native rules read (`gen`, `hcf`, `chinese`; `draw7a`'s
//! is `draw7a::profile`), passed in
//! from Python once (`services.adjudicator.native_runner`), and `HcfRules`: the `hcf`
//! section resolved against one table's configuration (`services/games/hcf/profile.py`,
//! `resolve_rules`). The `chinese` section needs no resolving: the table's configuration
//! only chooses the scoring (`services/games/chinese/profile.py`).

use super::{Chips, Defer, Sev};
use crate::json::Value;

/// Section `gen` (`services.games.profile.GenProfile`).
#[derive(Debug, Clone)]
pub struct GenProfile {
    pub wager_over_stack: Sev,
    pub chips_during_hand: Sev,
    pub cash_in_play: Sev,
    pub unauthorised_config: Sev,
    pub wager_outside_limits: Sev,
    pub deck_integrity: Sev,
    pub mispay: Sev,
    pub rake_error: Sev,
}

/// Section `hcf` (`services.games.hcf.profile.HcfProfile`; docs/rules/hcf.md). The
/// Literal readings are booleans named after the value that sets them.
#[derive(Debug, Clone)]
pub struct HcfProfile {
    pub cards_per_hand: i64,
    pub dp_qualify_min_cards: i64,
    pub dp_qualify_min_high: String,
    pub dp_qualify_any_high_cards: i64,
    pub raise_min_ante_multiple: i64,
    /// (min_flush_cards, max_ante_multiple) as listed
    pub raise_caps: Vec<(i64, i64)>,
    pub over_cap_raise_severity: Sev,
    /// `over_cap_raise_plays == "cap"` (else "as_placed")
    pub over_cap_plays_cap: bool,
    pub under_min_raise_severity: Sev,
    pub flush_bonus_paytable: Vec<(String, i64)>,
    pub sf_bonus_paytable: Vec<(String, i64)>,
    pub sf_ace_low: bool,
    pub sf_wraparound: bool,
    /// `bonus_cap_rounding == "largest_remainder"` (else "floor")
    pub cap_largest_remainder: bool,
    /// `bonus_settlement == "against_dp"` (else "paytable_alone")
    pub bonus_against_dp: bool,
    /// `dp_short_funds == "dead_hand"` (else "pay_to_extent")
    pub short_funds_dead_hand: bool,
    /// `bankroll_check == "gross"` (else "net")
    pub bankroll_gross: bool,
    /// `folded_wagers_join_funds == "at_fold"` (else "in_order")
    pub folded_join_at_fold: bool,
    pub dp_funds_reserve_rake: bool,
    pub dp_rake_needs_participant: bool,
    pub past_posting_severity: Sev,
    pub past_posted_wager_void: bool,
    pub wager_not_in_game_severity: Sev,
    pub stake_cover_raise_multiple: i64,
    /// GEN-2 Reading: the HCF-12 fee a seat pays is part of what the hand can require of it
    pub stake_counts_fee: bool,
    pub insufficient_stake_severity: Sev,
    pub dp_rotation_skip_severity: Sev,
    pub button_not_at_dp_severity: Sev,
    pub card_count_severity: Sev,
    pub dead_hand_settled_severity: Sev,
    pub showdown_mismatch_severity: Sev,
    pub walk_away_severity: Sev,
    pub late_decision_severity: Sev,
    pub settlement_order_severity: Sev,
}

/// One rule profile as the native rules know it; a section that did not load (or is
/// absent) is `None`, and a hand that needs it goes to the Python rules, which word the
/// error.
#[derive(Debug, Clone, Default)]
pub struct Profile {
    pub gen: Option<GenProfile>,
    pub hcf: Option<HcfProfile>,
    pub chinese: Option<ChineseProfile>,
    pub draw7a: Option<super::draw7a::profile::Draw7aProfile>,
    pub russian: Option<RussianProfile>,
    pub holdem: Option<super::holdem::profile::HoldemProfile>,
    /// The standard ranking's tables (`tables.build_tables(STANDARD)`), handed over once
    /// (at setup, or on the first hold'em hand: `NativeRules::ranking_source`) and shared
    /// by every profile: what the hold'em showdown ranks with.
    pub ranking: Option<std::sync::Arc<super::ranking::CardRanking>>,
}

/// CP-5 / CP-6 / CP-8 values of one scoring (`ScoringRules`). `bonus[segment][category]`:
/// the CP-5 bonus for winning the segment (front, middle, back) with a hand of the
/// category (`chinese::evaluation::CATEGORIES` order; 0 where the table has no row).
#[derive(Debug, Clone)]
pub struct ScoringRules {
    pub scoop_points: i64,
    pub foul_points: i64,
    pub super_bonus_points: i64,
    pub super_bonus_players: i64,
    pub bonus: [[i64; 9]; 3],
}

/// Section `chinese` (`services.games.chinese.profile.ChineseProfile`; docs/rules/chinese.md).
/// The Literal readings are booleans named after the value that sets them.
#[derive(Debug, Clone)]
pub struct ChineseProfile {
    pub table_seats: i64,
    pub cards_per_hand: i64,
    pub segment_points: i64,
    /// `default_scoring == "mandarin"` (else "standard")
    pub default_mandarin: bool,
    /// CP-7, in `chinese::evaluation::AUTO_WINS` order (dragon, six_pairs, three_flushes,
    /// three_straights)
    pub auto_win_points: [i64; 4],
    pub standard: ScoringRules,
    pub mandarin: ScoringRules,
    /// `fouls.unset_hand_is_foul` (CP-8)
    pub unset_hand_is_foul: bool,
    /// `payments.order_starts == "left_of_button"` (else "button"; CP-10)
    pub order_starts_left_of_button: bool,
    /// `misdeal.exposed_cards` (CP-11)
    pub misdeal_exposed_cards: i64,
    pub uncalled_misdeal_voids_hand: bool,
    /// `buy_in.min_points`, `buy_in.short_buys_per_full_buy` (CP-9)
    pub buy_in_min_points: i64,
    pub short_buys_per_full_buy: i64,
    /// `rake.designated_counts_button` (GEN-10)
    pub designated_counts_button: bool,
    /// `rake.stake_counts_fee` (GEN-2 Reading: the GEN-10 fee is what the hand can require)
    pub stake_counts_fee: bool,
    pub severity: ChineseSeverities,
}

/// `chinese.severity`.
#[derive(Debug, Clone)]
pub struct ChineseSeverities {
    pub foul: Sev,
    pub false_auto_win: Sev,
    pub late_auto_win: Sev,
    pub hand_changed_after_opening: Sev,
    pub set_cards_not_dealt: Sev,
    pub hand_opened_early: Sev,
    pub hand_shown_early: Sev,
    pub misdeal_not_called: Sev,
    pub misdeal_without_cause: Sev,
    pub dead_seat_played: Sev,
    pub new_player_first_hand: Sev,
    pub new_player_button: Sev,
    pub buy_in_below_minimum: Sev,
    pub short_buy_not_allowed: Sev,
    pub payment_routing: Sev,
    pub insufficient_stake: Sev,
}

/// Section `russian` (`services.games.russian.profile.RussianProfile`;
/// docs/rules/russian.md). Categories are indices in
/// `russian::evaluation::PAYTABLE_CATEGORIES`; the Literal readings are booleans named
/// after the value that sets them.
#[derive(Debug, Clone)]
pub struct RussianProfile {
    pub deck_size: i64,
    pub cards_per_box: i64,
    pub dealer_cards: i64,
    pub buy_card_price_antes: i64,
    pub exchange_price_antes: i64,
    pub exchange_min_cards: i64,
    pub exchange_max_cards: i64,
    pub draws_per_box: i64,
    /// `serving_order == "left_of_button"` (else "ascending_seat")
    pub serving_left_of_button: bool,
    pub bet_antes: i64,
    /// `wrong_bet_settlement == "excess_returned"` (else "as_placed")
    pub wrong_bet_excess_returned: bool,
    pub insurance_min_category: usize,
    pub insurance_min_antes: i64,
    pub insurance_max_royal_numerator: i64,
    pub insurance_max_royal_denominator: i64,
    pub insurance_odds: i64,
    /// `insurance_when_game_bought == "loses"` (else "final_dealer_hand")
    pub insurance_lost_when_game_bought: bool,
    /// `insurance_below_minimum == "returned"` (else "as_placed")
    pub insurance_below_minimum_returned: bool,
    /// `insurance_above_maximum == "cut_to_maximum"` (else "as_placed")
    pub insurance_above_maximum_cut: bool,
    pub dealer_min_category: usize,
    pub ante_odds_dealer_not_qualifying: i64,
    pub buy_dealer_game_price_antes: i64,
    pub pay_two_combinations: bool,
    pub second_combination_min_category: usize,
    /// `late_wager_settlement == "kept_if_losing"` (else "void")
    pub late_kept_if_losing: bool,
    pub deal_error_severity: Sev,
    pub draw_procedure_severity: Sev,
    pub fee_error_severity: Sev,
    pub bet_error_severity: Sev,
    pub insurance_error_severity: Sev,
    pub dealer_game_error_severity: Sev,
    pub late_wager_severity: Sev,
    pub cards_after_bet_severity: Sev,
    pub bonus_order_severity: Sev,
    pub paytable_config_severity: Sev,
    pub banker_error_severity: Sev,
    pub insufficient_stake_severity: Sev,
    /// RP-7 odds by paytable line (0 where the profile posts no row: "nothing")
    pub paytable: [i64; 11],
}

/// The profile as it applies at one table (`HcfRules`).
#[derive(Debug, Clone)]
pub struct HcfRules<'p> {
    pub p: &'p HcfProfile,
    pub dp_min_high_rank: i64,
    /// indexed by flush length: the odds of the highest paytable row reached (HCF-8)
    pub flush_odds: [Chips; 15],
    /// indexed by straight-flush run length (HCF-9)
    pub sf_odds: [Chips; 15],
    /// (min_flush_cards, max_ante_multiple), longest first (HCF-4)
    pub caps: Vec<(i64, i64)>,
    pub bonus_cap: Option<Chips>,
    /// GEN-5 wager outside the posted limits (section `gen`)
    pub limits_severity: Sev,
}

impl<'p> HcfRules<'p> {
    /// HCF-4: the largest Raise allowed for a flush of `flush_cards` cards.
    pub fn raise_cap(&self, flush_cards: i64, ante: Chips) -> Result<Chips, Defer> {
        for &(min_cards, multiple) in &self.caps {
            if flush_cards >= min_cards {
                return super::mul(multiple as Chips, ante);
            }
        }
        Ok(0)
    }
}

/// Python's `int(key)` for the keys it is sure of: an optional sign and ASCII digits.
/// The longest flush there is: one suit of the 52-card deck (HCF-1).
const SUIT_CARDS: i64 = 13;

fn paytable_key(key: &str, longest: i64) -> Result<i64, Defer> {
    // As the reference reads a key (`_paytable`): a length written one way only ("7", not
    // "07", "+7" or " 7"), 1 to the longest flush a hand holds. Anything else defers, and
    // the reference rejects the hand (GEN-5) in its own words.
    let plain = matches!(key.as_bytes(), [b'1'..=b'9', rest @ ..]
                         if rest.len() <= 1 && rest.iter().all(u8::is_ascii_digit));
    if !plain {
        return Err(Defer("a paytable key that is not a length"));
    }
    let length = key.parse::<i64>().map_err(|_| Defer("a paytable key that is not a length"))?;
    if length > longest {
        return Err(Defer("a paytable key longer than a hand's flush"));
    }
    Ok(length)
}

/// `_paytable` then `odds_by_length` (HCF-8/9 notes: "only the highest qualifying hand is
/// paid").
fn odds_by_length(rows: &[(&str, i64)], longest: i64) -> Result<[Chips; 15], Defer> {
    let mut table: Vec<(i64, i64)> = Vec::with_capacity(rows.len());
    for &(key, odds) in rows {
        let length = paytable_key(key, longest)?;
        match table.iter_mut().find(|(k, _)| *k == length) {
            Some(slot) => slot.1 = odds,
            None => table.push((length, odds)),
        }
    }
    let mut out = [0 as Chips; 15];
    for (length, slot) in out.iter_mut().enumerate() {
        let best = table.iter().filter(|(k, _)| *k <= length as i64).max_by_key(|(k, _)| *k);
        *slot = best.map_or(0, |&(_, odds)| odds as Chips);
    }
    Ok(out)
}

fn owned_rows(rows: &[(String, i64)]) -> Vec<(&str, i64)> {
    rows.iter().map(|(k, v)| (k.as_str(), *v)).collect()
}

/// A table's posted paytable override (`table_configured.paytables[name]`), if any.
fn override_rows<'c>(config: &'c Value<'_>, name: &str) -> Option<Vec<(&'c str, i64)>> {
    match config.get("paytables")?.get(name)? {
        Value::Object(entries) => {
            Some(entries.iter().map(|(k, v)| (k.as_ref(), v.as_int().unwrap_or(0))).collect())
        }
        _ => None,
    }
}

/// `resolve_rules(profile, config)`.
pub fn resolve<'p>(hcf: &'p HcfProfile, gen: &GenProfile, config: &Value<'_>) -> Result<HcfRules<'p>, Defer> {
    let flush = override_rows(config, "flush_bonus").unwrap_or_else(|| owned_rows(&hcf.flush_bonus_paytable));
    let sf = override_rows(config, "sf_bonus").unwrap_or_else(|| owned_rows(&hcf.sf_bonus_paytable));
    let longest = hcf.cards_per_hand.min(SUIT_CARDS);
    let mut caps = hcf.raise_caps.clone();
    caps.sort_unstable_by(|a, b| b.cmp(a));
    let high = hcf.dp_qualify_min_high.as_bytes();
    let dp_min_high_rank = match high {
        [r] => super::evaluation::rank_value(*r),
        _ => None,
    }
    .ok_or(Defer("a dp_qualify_min_high that is not a rank"))?;
    let bonus_cap = config.get("limits").and_then(|l| l.get("bonus_cap_per_hand")).and_then(Value::as_int);
    Ok(HcfRules {
        p: hcf,
        dp_min_high_rank,
        flush_odds: odds_by_length(&flush, longest)?,
        sf_odds: odds_by_length(&sf, longest)?,
        caps,
        bonus_cap: bonus_cap.map(|c| c as Chips),
        limits_severity: gen.wager_outside_limits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odds_are_those_of_the_highest_row_reached() {
        let odds = odds_by_length(&[("7", 200), ("6", 50), ("5", 10), ("4", 2)], 7).unwrap();
        assert_eq!(&odds[..8], &[0, 0, 0, 0, 2, 10, 50, 200]);
        assert_eq!(odds[14], 200);
    }

    #[test]
    fn a_key_that_is_not_a_plain_length_defers_to_the_reference() {
        for key in ["three", " 3", "+3", "03", "0", "-5", "8", "100", "\u{0665}"] {
            assert!(odds_by_length(&[(key, 1)], 7).is_err(), "{key:?}");
        }
        assert_eq!(odds_by_length(&[("13", 1)], 13).unwrap()[13], 1);
    }
}
