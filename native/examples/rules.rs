//! `cargo run --release --example rules FILE.jsonl`: the core's rules (High Card Flush,
//! Chinese Poker, Five Card Draw 7-A, Russian Poker) alone, per hand, on the closed hands of a log (house-v1's values,
//! written out here).
use std::collections::HashMap;
use std::time::Instant;

use _native::rules::adjudicate::{adjudicate_closed, Games, Native};
use _native::rules::profile::{ChineseProfile, ChineseSeverities, GenProfile, HcfProfile, Profile, RussianProfile,
                              ScoringRules};
use _native::rules::betting::findings::BettingSeverities;
use _native::rules::betting::rake::{PotGameRake, PotRakeSchedule, Rounding};
use _native::rules::betting::structures::PotLimitReading;
use _native::rules::draw7a::profile::{Draw7aProfile, Draw7aSeverities};
use _native::rules::Sev::{Critical as C, Info as I, Warning as W};
use _native::table::Output;

fn house() -> Profile {
    let gen = GenProfile {
        wager_over_stack: C, chips_during_hand: C, cash_in_play: W, unauthorised_config: C,
        wager_outside_limits: W, deck_integrity: C, mispay: C, rake_error: W,
    };
    let rows = |r: &[(&str, i64)]| r.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let hcf = HcfProfile {
        cards_per_hand: 7, dp_qualify_min_cards: 3, dp_qualify_min_high: "9".into(), dp_qualify_any_high_cards: 4,
        raise_min_ante_multiple: 1, raise_caps: vec![(6, 3), (5, 2), (0, 1)], over_cap_raise_severity: W,
        over_cap_plays_cap: true, under_min_raise_severity: W,
        flush_bonus_paytable: rows(&[("7", 200), ("6", 50), ("5", 10), ("4", 2)]),
        sf_bonus_paytable: rows(&[("7", 1000), ("6", 500), ("5", 100), ("4", 60), ("3", 8)]),
        sf_ace_low: true, sf_wraparound: false, cap_largest_remainder: true, bonus_against_dp: false,
        short_funds_dead_hand: true, bankroll_gross: true, folded_join_at_fold: true, dp_funds_reserve_rake: true,
        dp_rake_needs_participant: true, past_posting_severity: C, past_posted_wager_void: true,
        wager_not_in_game_severity: W, stake_cover_raise_multiple: 3, stake_counts_fee: true,
        insufficient_stake_severity: W,
        dp_rotation_skip_severity: W, button_not_at_dp_severity: W, card_count_severity: C,
        dead_hand_settled_severity: C, showdown_mismatch_severity: C, walk_away_severity: W,
        late_decision_severity: W, settlement_order_severity: C,
    };
    Profile { gen: Some(gen), hcf: Some(hcf), chinese: Some(chinese()), draw7a: Some(draw7a()),
              russian: Some(russian()), holdem: None, ranking: None }
}

/// `chinese.toml` of house-v1 (categories: high card .. straight flush).
fn chinese() -> ChineseProfile {
    let mut mandarin = ScoringRules { scoop_points: 6, foul_points: 6, super_bonus_points: 9, super_bonus_players: 4,
                                      bonus: [[0; 9]; 3] };
    mandarin.bonus[0][3] = 3;
    mandarin.bonus[1][8] = 10;
    mandarin.bonus[1][7] = 8;
    mandarin.bonus[1][6] = 2;
    mandarin.bonus[2][8] = 5;
    mandarin.bonus[2][7] = 4;
    ChineseProfile {
        table_seats: 4, cards_per_hand: 13, segment_points: 1, default_mandarin: true,
        auto_win_points: [13, 4, 4, 4], mandarin,
        standard: ScoringRules { scoop_points: 3, foul_points: 6, super_bonus_points: 0, super_bonus_players: 4,
                                 bonus: [[0; 9]; 3] },
        unset_hand_is_foul: true, order_starts_left_of_button: true, misdeal_exposed_cards: 5,
        uncalled_misdeal_voids_hand: true, buy_in_min_points: 20, short_buys_per_full_buy: 1,
        designated_counts_button: true, stake_counts_fee: true,
        severity: ChineseSeverities {
            foul: I, false_auto_win: W, late_auto_win: W, hand_changed_after_opening: C, set_cards_not_dealt: C,
            hand_opened_early: W, hand_shown_early: W, misdeal_not_called: C, misdeal_without_cause: W,
            dead_seat_played: W, new_player_first_hand: W, new_player_button: W, buy_in_below_minimum: W,
            short_buy_not_allowed: W, payment_routing: I, insufficient_stake: W,
        },
    }
}

/// `draw7a.toml` of house-v1.
fn draw7a() -> Draw7aProfile {
    let b = [W, C, W, C, C, W, W, C, C, C, C, C, W, C, C, C, W, I, C];
    Draw7aProfile {
        min_players: 2, max_players: 5, deck_size: 32, sixes_added_with_players: 5, small_blind_numerator: 1,
        small_blind_denominator: 2, big_bet_multiple: 2, max_bets_per_round: 4, big_blind_counts_as_bet: true,
        pot_limit_reading: PotLimitReading::RaiseByPotAfterCall, max_discard: 5, rank_with_dealt_deck: true,
        irregular_hand_dead: true,
        rake: PotGameRake {
            designated_counts_button: true, all_charges_button: false, fee_from_pot: false,
            pot: PotRakeSchedule { rate_numerator: 0, rate_denominator: 100, unit: 1, rounding: Rounding::Down,
                                   minimum_pot: 0, no_flop_no_drop: true, caps: Vec::new() },
        },
        severity: Draw7aSeverities {
            wrong_deck: C, player_count: C, blind_after_deal: W, deal_order: W, wrong_card_count: C, draw_order: W,
            draw_size: C, discard_not_held: C, draw_by_inactive: C, draw_twice: C, draw_out_of_phase: W,
            draw_not_recorded: W, reshuffle_not_discards: C, early_reshuffle: W, showdown_order: I,
            shown_cards_mismatch: C, unexpected_action: W,
        },
        betting_severity: BettingSeverities(b),
    }
}

/// `russian.toml` of house-v1 (categories: indices of royal flush .. nothing).
fn russian() -> RussianProfile {
    RussianProfile {
        deck_size: 52, cards_per_box: 5, dealer_cards: 5, buy_card_price_antes: 1, exchange_price_antes: 1,
        exchange_min_cards: 2, exchange_max_cards: 5, draws_per_box: 1, serving_left_of_button: false,
        bet_antes: 2, wrong_bet_excess_returned: false, insurance_min_category: 6, insurance_min_antes: 1,
        insurance_max_royal_numerator: 1, insurance_max_royal_denominator: 2, insurance_odds: 1,
        insurance_lost_when_game_bought: true, insurance_below_minimum_returned: true,
        insurance_above_maximum_cut: true, dealer_min_category: 9, ante_odds_dealer_not_qualifying: 1,
        buy_dealer_game_price_antes: 1, pay_two_combinations: true, second_combination_min_category: 9,
        late_kept_if_losing: false, deal_error_severity: W, draw_procedure_severity: W, fee_error_severity: W,
        bet_error_severity: W, insurance_error_severity: W, dealer_game_error_severity: W, late_wager_severity: C,
        cards_after_bet_severity: C, bonus_order_severity: W, paytable_config_severity: W, banker_error_severity: C,
        insufficient_stake_severity: W, paytable: [100, 50, 20, 7, 5, 4, 3, 2, 1, 1, 0],
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: rules FILE.jsonl");
    let data = std::fs::read(path).expect("read");
    let mut core = _native::Core::new();
    let mut hands = Vec::new();
    for line in data.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        if let _native::Processed::Applied { outputs, .. } = core.process(line, &mut |_| true) {
            for o in outputs {
                if let Output::Closed(h) = o {
                    hands.push(h);
                }
            }
        }
    }
    let mut profiles = HashMap::new();
    profiles.insert("house-v1".to_string(), house());
    for _ in 0..3 {
        let t = Instant::now();
        let mut done = 0;
        for h in &hands {
            if let Native::Done(_) = adjudicate_closed(h, &profiles, Games::ALL) {
                done += 1;
            }
        }
        let cold = t.elapsed().as_secs_f64() / hands.len() as f64 * 1e6;
        // Each hand ten times in a row: its events in cache, as when the core has just
        // decoded the hand it closed.
        let t = Instant::now();
        for h in &hands {
            for _ in 0..10 {
                let _ = adjudicate_closed(h, &profiles, Games::ALL);
            }
        }
        let warm = t.elapsed().as_secs_f64() / (hands.len() * 10) as f64 * 1e6;
        println!("{} hands ({} adjudicated): {:.2} us/hand cold, {:.2} warm", hands.len(), done, cold, warm);
    }
}
