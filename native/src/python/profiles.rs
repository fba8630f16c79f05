//! The rule profiles' sections as the core's rules read them, from the Python dicts
//! `Engine.use_native_rules` is given (`gen`, `hcf`, `chinese`, `draw7a`, `russian`,
//! `holdem`): each `None` when a field is missing or of another type, so the reference
//! adjudicates that game instead.
//!
//! Why a module of its own: reading a profile is a translation of the reference's
//! `services/games/profile.py` structures, apart from feeding records.

use super::*;

pub(super) fn field<'py, T: FromPyObject<'py>>(d: &Bound<'py, PyDict>, name: &str) -> Option<T> {
    d.get_item(name).ok().flatten().and_then(|v| v.extract().ok())
}

pub(super) fn sev(d: &Bound<'_, PyDict>, name: &str) -> Option<crate::rules::Sev> {
    crate::rules::Sev::parse(&field::<String>(d, name)?)
}

/// Section `gen` as the core's rules read it; None when a field is missing or wrong.
pub(super) fn gen_profile(d: &Bound<'_, PyDict>) -> Option<crate::rules::profile::GenProfile> {
    Some(crate::rules::profile::GenProfile {
        wager_over_stack: sev(d, "wager_over_stack_severity")?,
        chips_during_hand: sev(d, "chips_during_hand_severity")?,
        cash_in_play: sev(d, "cash_in_play_severity")?,
        unauthorised_config: sev(d, "unauthorised_config_severity")?,
        wager_outside_limits: sev(d, "wager_outside_limits_severity")?,
        deck_integrity: sev(d, "deck_integrity_severity")?,
        mispay: sev(d, "mispay_severity")?,
        rake_error: sev(d, "rake_error_severity")?,
    })
}

/// A Literal field that must be one of two values: whether it is the first.
pub(super) fn either(d: &Bound<'_, PyDict>, name: &str, first: &str, second: &str) -> Option<bool> {
    match field::<String>(d, name)?.as_str() {
        s if s == first => Some(true),
        s if s == second => Some(false),
        _ => None,
    }
}

pub(super) fn paytable(d: &Bound<'_, PyDict>, name: &str) -> Option<Vec<(String, i64)>> {
    let table = d.get_item(name).ok().flatten()?;
    let table = table.downcast::<PyDict>().ok()?;
    table.iter().map(|(k, v)| Some((k.extract().ok()?, v.extract().ok()?))).collect()
}

/// Section `hcf` as the core's rules read it; None when a field is missing or wrong.
pub(super) fn hcf_profile(d: &Bound<'_, PyDict>) -> Option<crate::rules::profile::HcfProfile> {
    let caps_list = d.get_item("raise_caps").ok().flatten()?;
    let caps_list = caps_list.downcast::<PyList>().ok()?;
    let mut raise_caps = Vec::new();
    for cap in caps_list.iter() {
        let cap = cap.downcast::<PyDict>().ok()?;
        raise_caps.push((field(cap, "min_flush_cards")?, field(cap, "max_ante_multiple")?));
    }
    Some(crate::rules::profile::HcfProfile {
        cards_per_hand: field(d, "cards_per_hand")?,
        dp_qualify_min_cards: field(d, "dp_qualify_min_cards")?,
        dp_qualify_min_high: field(d, "dp_qualify_min_high")?,
        dp_qualify_any_high_cards: field(d, "dp_qualify_any_high_cards")?,
        raise_min_ante_multiple: field(d, "raise_min_ante_multiple")?,
        raise_caps,
        over_cap_raise_severity: sev(d, "over_cap_raise_severity")?,
        over_cap_plays_cap: either(d, "over_cap_raise_plays", "cap", "as_placed")?,
        under_min_raise_severity: sev(d, "under_min_raise_severity")?,
        flush_bonus_paytable: paytable(d, "flush_bonus_paytable")?,
        sf_bonus_paytable: paytable(d, "sf_bonus_paytable")?,
        sf_ace_low: field(d, "sf_ace_low")?,
        sf_wraparound: field(d, "sf_wraparound")?,
        cap_largest_remainder: either(d, "bonus_cap_rounding", "largest_remainder", "floor")?,
        bonus_against_dp: either(d, "bonus_settlement", "against_dp", "paytable_alone")?,
        short_funds_dead_hand: either(d, "dp_short_funds", "dead_hand", "pay_to_extent")?,
        bankroll_gross: either(d, "bankroll_check", "gross", "net")?,
        folded_join_at_fold: either(d, "folded_wagers_join_funds", "at_fold", "in_order")?,
        dp_funds_reserve_rake: field(d, "dp_funds_reserve_rake")?,
        dp_rake_needs_participant: field(d, "dp_rake_needs_participant")?,
        past_posting_severity: sev(d, "past_posting_severity")?,
        past_posted_wager_void: field(d, "past_posted_wager_void")?,
        wager_not_in_game_severity: sev(d, "wager_not_in_game_severity")?,
        stake_cover_raise_multiple: field(d, "stake_cover_raise_multiple")?,
        stake_counts_fee: field(d, "stake_counts_fee")?,
        insufficient_stake_severity: sev(d, "insufficient_stake_severity")?,
        dp_rotation_skip_severity: sev(d, "dp_rotation_skip_severity")?,
        button_not_at_dp_severity: sev(d, "button_not_at_dp_severity")?,
        card_count_severity: sev(d, "card_count_severity")?,
        dead_hand_settled_severity: sev(d, "dead_hand_settled_severity")?,
        showdown_mismatch_severity: sev(d, "showdown_mismatch_severity")?,
        walk_away_severity: sev(d, "walk_away_severity")?,
        late_decision_severity: sev(d, "late_decision_severity")?,
        settlement_order_severity: sev(d, "settlement_order_severity")?,
    })
}

pub(super) fn sub<'py>(d: &Bound<'py, PyDict>, name: &str) -> Option<Bound<'py, PyDict>> {
    d.get_item(name).ok().flatten()?.downcast_into::<PyDict>().ok()
}

/// A CP-5 bonus table: `{segment: {category: points}}` as points by segment and category
/// index; None when a category is not the evaluator's (the reference refuses to load it).
pub(super) fn bonus_tables(d: &Bound<'_, PyDict>) -> Option<[[i64; 9]; 3]> {
    use crate::rules::chinese::evaluation::CATEGORIES;
    let mut out = [[0i64; 9]; 3];
    for (slot, segment) in out.iter_mut().zip(["front", "middle", "back"]) {
        for (category, points) in sub(d, segment)?.iter() {
            let category: String = category.extract().ok()?;
            let at = CATEGORIES.iter().position(|c| *c == category)?;
            slot[at] = points.extract().ok()?;
        }
    }
    Some(out)
}

pub(super) fn scoring_rules(d: &Bound<'_, PyDict>) -> Option<crate::rules::profile::ScoringRules> {
    Some(crate::rules::profile::ScoringRules {
        scoop_points: field(d, "scoop_points")?,
        foul_points: field(d, "foul_points")?,
        super_bonus_points: field(d, "super_bonus_points")?,
        super_bonus_players: field(d, "super_bonus_players")?,
        bonus: bonus_tables(&sub(d, "bonus")?)?,
    })
}

/// Section `chinese` as the core's rules read it (every field); None when a field is
/// missing or wrong.
pub(super) fn chinese_profile(d: &Bound<'_, PyDict>) -> Option<crate::rules::profile::ChineseProfile> {
    let wins = sub(d, "auto_win_points")?;
    let scoring = sub(d, "scoring")?;
    let (fouls, payments, misdeal) = (sub(d, "fouls")?, sub(d, "payments")?, sub(d, "misdeal")?);
    let (buy_in, rake, s) = (sub(d, "buy_in")?, sub(d, "rake")?, sub(d, "severity")?);
    Some(crate::rules::profile::ChineseProfile {
        table_seats: field(d, "table_seats")?,
        cards_per_hand: field(d, "cards_per_hand")?,
        segment_points: field(d, "segment_points")?,
        default_mandarin: either(d, "default_scoring", "mandarin", "standard")?,
        auto_win_points: [field(&wins, "dragon")?, field(&wins, "six_pairs")?, field(&wins, "three_flushes")?,
                          field(&wins, "three_straights")?],
        standard: scoring_rules(&sub(&scoring, "standard")?)?,
        mandarin: scoring_rules(&sub(&scoring, "mandarin")?)?,
        unset_hand_is_foul: field(&fouls, "unset_hand_is_foul")?,
        order_starts_left_of_button: either(&payments, "order_starts", "left_of_button", "button")?,
        misdeal_exposed_cards: field(&misdeal, "exposed_cards")?,
        uncalled_misdeal_voids_hand: field(&misdeal, "uncalled_misdeal_voids_hand")?,
        buy_in_min_points: field(&buy_in, "min_points")?,
        short_buys_per_full_buy: field(&buy_in, "short_buys_per_full_buy")?,
        designated_counts_button: field(&rake, "designated_counts_button")?,
        stake_counts_fee: field(&rake, "stake_counts_fee")?,
        severity: crate::rules::profile::ChineseSeverities {
            foul: sev(&s, "foul")?,
            false_auto_win: sev(&s, "false_auto_win")?,
            late_auto_win: sev(&s, "late_auto_win")?,
            hand_changed_after_opening: sev(&s, "hand_changed_after_opening")?,
            set_cards_not_dealt: sev(&s, "set_cards_not_dealt")?,
            hand_opened_early: sev(&s, "hand_opened_early")?,
            hand_shown_early: sev(&s, "hand_shown_early")?,
            misdeal_not_called: sev(&s, "misdeal_not_called")?,
            misdeal_without_cause: sev(&s, "misdeal_without_cause")?,
            dead_seat_played: sev(&s, "dead_seat_played")?,
            new_player_first_hand: sev(&s, "new_player_first_hand")?,
            new_player_button: sev(&s, "new_player_button")?,
            buy_in_below_minimum: sev(&s, "buy_in_below_minimum")?,
            short_buy_not_allowed: sev(&s, "short_buy_not_allowed")?,
            payment_routing: sev(&s, "payment_routing")?,
            insufficient_stake: sev(&s, "insufficient_stake")?,
        },
    })
}

/// `betting_severity` (`BettingSeverities`): every violation kind's severity, by name.
pub(super) fn betting_severities(d: &Bound<'_, PyDict>) -> Option<crate::rules::betting::findings::BettingSeverities> {
    use crate::rules::betting::actions::ViolationKind;
    let mut out = [crate::rules::Sev::Info; 19];
    for (slot, kind) in out.iter_mut().zip(ViolationKind::SEVERED.iter()) {
        *slot = sev(d, kind.name())?;
    }
    Some(crate::rules::betting::findings::BettingSeverities(out))
}

/// `[rake]` of a pot game (`PotGameRake`, with its `[rake.pot]` schedule).
pub(super) fn pot_game_rake(d: &Bound<'_, PyDict>) -> Option<crate::rules::betting::rake::PotGameRake> {
    use crate::rules::betting::rake::{PotGameRake, PotRakeSchedule, Rounding};
    let pot = sub(d, "pot")?;
    let caps_list = pot.get_item("caps").ok().flatten()?;
    let caps_list = caps_list.downcast::<PyList>().ok()?;
    let mut caps = Vec::new();
    for row in caps_list.iter() {
        let row = row.downcast::<PyDict>().ok()?;
        caps.push((field(row, "min_players")?, field(row, "cap")?));
    }
    Some(PotGameRake {
        designated_counts_button: field(d, "designated_counts_button")?,
        all_charges_button: field(d, "all_charges_button")?,
        fee_from_pot: either(d, "fee_from", "pot", "stack")?,
        pot: PotRakeSchedule {
            rate_numerator: field(&pot, "rate_numerator")?,
            rate_denominator: field(&pot, "rate_denominator")?,
            unit: field(&pot, "unit")?,
            rounding: Rounding::parse(&field::<String>(&pot, "rounding")?)?,
            minimum_pot: field(&pot, "minimum_pot")?,
            no_flop_no_drop: field(&pot, "no_flop_no_drop")?,
            caps,
        },
    })
}

/// Section `draw7a` as the core's rules read it (every field); None when a field is
/// missing or wrong.
pub(super) fn draw7a_profile(d: &Bound<'_, PyDict>) -> Option<crate::rules::draw7a::profile::Draw7aProfile> {
    use crate::rules::betting::structures::PotLimitReading;
    let s = sub(d, "severity")?;
    Some(crate::rules::draw7a::profile::Draw7aProfile {
        min_players: field(d, "min_players")?,
        max_players: field(d, "max_players")?,
        deck_size: field(d, "deck_size")?,
        sixes_added_with_players: field(d, "sixes_added_with_players")?,
        small_blind_numerator: field(d, "small_blind_numerator")?,
        small_blind_denominator: field(d, "small_blind_denominator")?,
        big_bet_multiple: field(d, "big_bet_multiple")?,
        max_bets_per_round: field(d, "max_bets_per_round")?,
        big_blind_counts_as_bet: field(d, "big_blind_counts_as_bet")?,
        pot_limit_reading: PotLimitReading::parse(&field::<String>(d, "pot_limit_reading")?)?,
        max_discard: field(d, "max_discard")?,
        rank_with_dealt_deck: either(d, "rank_with_deck", "dealt", "required")?,
        irregular_hand_dead: field(d, "irregular_hand_dead")?,
        rake: pot_game_rake(&sub(d, "rake")?)?,
        severity: crate::rules::draw7a::profile::Draw7aSeverities {
            wrong_deck: sev(&s, "wrong_deck")?,
            player_count: sev(&s, "player_count")?,
            blind_after_deal: sev(&s, "blind_after_deal")?,
            deal_order: sev(&s, "deal_order")?,
            wrong_card_count: sev(&s, "wrong_card_count")?,
            draw_order: sev(&s, "draw_order")?,
            draw_size: sev(&s, "draw_size")?,
            discard_not_held: sev(&s, "discard_not_held")?,
            draw_by_inactive: sev(&s, "draw_by_inactive")?,
            draw_twice: sev(&s, "draw_twice")?,
            draw_out_of_phase: sev(&s, "draw_out_of_phase")?,
            draw_not_recorded: sev(&s, "draw_not_recorded")?,
            reshuffle_not_discards: sev(&s, "reshuffle_not_discards")?,
            early_reshuffle: sev(&s, "early_reshuffle")?,
            showdown_order: sev(&s, "showdown_order")?,
            shown_cards_mismatch: sev(&s, "shown_cards_mismatch")?,
            unexpected_action: sev(&s, "unexpected_action")?,
        },
        betting_severity: betting_severities(&sub(d, "betting_severity")?)?,
    })
}

/// A paytable line's name as its index (`russian::evaluation::PAYTABLE_CATEGORIES`).
pub(super) fn russian_category(d: &Bound<'_, PyDict>, name: &str) -> Option<usize> {
    let category = field::<String>(d, name)?;
    crate::rules::russian::evaluation::PAYTABLE_CATEGORIES.iter().position(|c| *c == category)
}

/// Section `russian` as the core's rules read it (every field); None when a field is
/// missing or wrong.
pub(super) fn russian_profile(d: &Bound<'_, PyDict>) -> Option<crate::rules::profile::RussianProfile> {
    use crate::rules::russian::evaluation::PAYTABLE_CATEGORIES;
    let mut paytable = [0i64; 11];
    for (row, odds) in sub(d, "paytable")?.iter() {
        let row: String = row.extract().ok()?;
        paytable[PAYTABLE_CATEGORIES.iter().position(|c| *c == row)?] = odds.extract().ok()?;
    }
    Some(crate::rules::profile::RussianProfile {
        deck_size: field(d, "deck_size")?,
        cards_per_box: field(d, "cards_per_box")?,
        dealer_cards: field(d, "dealer_cards")?,
        buy_card_price_antes: field(d, "buy_card_price_antes")?,
        exchange_price_antes: field(d, "exchange_price_antes")?,
        exchange_min_cards: field(d, "exchange_min_cards")?,
        exchange_max_cards: field(d, "exchange_max_cards")?,
        draws_per_box: field(d, "draws_per_box")?,
        serving_left_of_button: either(d, "serving_order", "left_of_button", "ascending_seat")?,
        bet_antes: field(d, "bet_antes")?,
        wrong_bet_excess_returned: either(d, "wrong_bet_settlement", "excess_returned", "as_placed")?,
        insurance_min_category: russian_category(d, "insurance_min_category")?,
        insurance_min_antes: field(d, "insurance_min_antes")?,
        insurance_max_royal_numerator: field(d, "insurance_max_royal_numerator")?,
        insurance_max_royal_denominator: field::<i64>(d, "insurance_max_royal_denominator").filter(|&v| v > 0)?,
        insurance_odds: field(d, "insurance_odds")?,
        insurance_lost_when_game_bought: either(d, "insurance_when_game_bought", "loses", "final_dealer_hand")?,
        insurance_below_minimum_returned: either(d, "insurance_below_minimum", "returned", "as_placed")?,
        insurance_above_maximum_cut: either(d, "insurance_above_maximum", "cut_to_maximum", "as_placed")?,
        dealer_min_category: russian_category(d, "dealer_min_category")?,
        ante_odds_dealer_not_qualifying: field(d, "ante_odds_dealer_not_qualifying")?,
        buy_dealer_game_price_antes: field(d, "buy_dealer_game_price_antes")?,
        pay_two_combinations: field(d, "pay_two_combinations")?,
        second_combination_min_category: russian_category(d, "second_combination_min_category")?,
        late_kept_if_losing: either(d, "late_wager_settlement", "kept_if_losing", "void")?,
        deal_error_severity: sev(d, "deal_error_severity")?,
        draw_procedure_severity: sev(d, "draw_procedure_severity")?,
        fee_error_severity: sev(d, "fee_error_severity")?,
        bet_error_severity: sev(d, "bet_error_severity")?,
        insurance_error_severity: sev(d, "insurance_error_severity")?,
        dealer_game_error_severity: sev(d, "dealer_game_error_severity")?,
        late_wager_severity: sev(d, "late_wager_severity")?,
        cards_after_bet_severity: sev(d, "cards_after_bet_severity")?,
        bonus_order_severity: sev(d, "bonus_order_severity")?,
        paytable_config_severity: sev(d, "paytable_config_severity")?,
        banker_error_severity: sev(d, "banker_error_severity")?,
        insufficient_stake_severity: sev(d, "insufficient_stake_severity")?,
        paytable,
    })
}

/// Section `holdem` as the core's rules read it (every field); None when a field is
/// missing or wrong.
pub(super) fn holdem_profile(d: &Bound<'_, PyDict>) -> Option<crate::rules::holdem::profile::HoldemProfile> {
    use crate::rules::betting::structures::PotLimitReading;
    let s = sub(d, "severity")?;
    Some(crate::rules::holdem::profile::HoldemProfile {
        hole_cards: field(d, "hole_cards")?,
        flop_cards: field(d, "flop_cards")?,
        board_cards: field(d, "board_cards")?,
        deck_size: field(d, "deck_size")?,
        small_blind_numerator: field(d, "small_blind_numerator")?,
        small_blind_denominator: field(d, "small_blind_denominator")?,
        big_bet_multiple: field(d, "big_bet_multiple")?,
        max_bets_per_round: field(d, "max_bets_per_round")?,
        big_blind_counts_as_bet: field(d, "big_blind_counts_as_bet")?,
        pot_limit_reading: PotLimitReading::parse(&field::<String>(d, "pot_limit_reading")?)?,
        undeclared_misdeal_dead: either(d, "undeclared_misdeal_settlement", "dead", "as_played")?,
        deal_phase_ends_last_hole_card: either(d, "deal_phase_ends", "last_hole_card", "first_action")?,
        irregular_hand_dead: field(d, "irregular_hand_dead")?,
        unshown_no_claim: either(d, "unshown_contender", "no_claim", "cards_speak")?,
        antes_dead_money: field(d, "antes_dead_money")?,
        unfinished_board_reject: either(d, "unfinished_board_pot", "reject", "split")?,
        rake: pot_game_rake(&sub(d, "rake")?)?,
        severity: crate::rules::holdem::profile::HoldemSeverities {
            wrong_deck: sev(&s, "wrong_deck")?,
            deal_order: sev(&s, "deal_order")?,
            wrong_card_count: sev(&s, "wrong_card_count")?,
            blind_after_deal: sev(&s, "blind_after_deal")?,
            missing_burn: sev(&s, "missing_burn")?,
            extra_burn: sev(&s, "extra_burn")?,
            board_card_count: sev(&s, "board_card_count")?,
            board_dealt_early: sev(&s, "board_dealt_early")?,
            unexpected_action: sev(&s, "unexpected_action")?,
            misdeal_required: sev(&s, "misdeal_required")?,
            misdeal_not_required: sev(&s, "misdeal_not_required")?,
            exposed_card_not_replaced: sev(&s, "exposed_card_not_replaced")?,
            exposed_card_replaced_early: sev(&s, "exposed_card_replaced_early")?,
            exposed_card_not_burned: sev(&s, "exposed_card_not_burned")?,
            flop_not_redealt: sev(&s, "flop_not_redealt")?,
            redeal_not_reshuffled: sev(&s, "redeal_not_reshuffled")?,
            burn_not_kept: sev(&s, "burn_not_kept")?,
            premature_turn_not_set_aside: sev(&s, "premature_turn_not_set_aside")?,
            set_aside_not_reshuffled: sev(&s, "set_aside_not_reshuffled")?,
            extra_card_not_burned: sev(&s, "extra_card_not_burned")?,
            showdown_order: sev(&s, "showdown_order")?,
            shown_cards_mismatch: sev(&s, "shown_cards_mismatch")?,
            board_declared_late: sev(&s, "board_declared_late")?,
            wrong_card_removed: sev(&s, "wrong_card_removed")?,
            card_to_dealer: sev(&s, "card_to_dealer")?,
            showdown_unknown: sev(&s, "showdown_unknown")?,
        },
        betting_severity: betting_severities(&sub(d, "betting_severity")?)?,
    })
}
