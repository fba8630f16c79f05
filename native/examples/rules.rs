//! `cargo run --release --example rules FILE.jsonl`: the core's High Card Flush rules
//! alone, per hand, on the closed hands of a log (house-v1's values, written out here).
use std::collections::HashMap;
use std::time::Instant;

use _native::rules::adjudicate::{adjudicate_closed, Native};
use _native::rules::profile::{GenProfile, HcfProfile, Profile};
use _native::rules::Sev::{Critical as C, Warning as W};
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
        wager_not_in_game_severity: W, stake_cover_raise_multiple: 3, insufficient_stake_severity: W,
        dp_rotation_skip_severity: W, button_not_at_dp_severity: W, card_count_severity: C,
        dead_hand_settled_severity: C, showdown_mismatch_severity: C, walk_away_severity: W,
        late_decision_severity: W, settlement_order_severity: C,
    };
    Profile { gen: Some(gen), hcf: Some(hcf) }
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
            if let Native::Done(_) = adjudicate_closed(h, &profiles) {
                done += 1;
            }
        }
        let cold = t.elapsed().as_secs_f64() / hands.len() as f64 * 1e6;
        // Each hand ten times in a row: its events in cache, as when the core has just
        // decoded the hand it closed.
        let t = Instant::now();
        for h in &hands {
            for _ in 0..10 {
                let _ = adjudicate_closed(h, &profiles);
            }
        }
        let warm = t.elapsed().as_secs_f64() / (hands.len() * 10) as f64 * 1e6;
        println!("{} hands ({} adjudicated): {:.2} us/hand cold, {:.2} warm", hands.len(), done, cold, warm);
    }
}
