//! Procedure checks of a replayed Five Card Draw 7-A hand (`services/games/draw7a/procedure.py`):
//! players and deck (FCD-1), the deal (FCD-4), the draw order and records (FCD-6), the
//! showdown order (FCD-9). Each irregularity is a finding naming its rule.

use super::betting::required_deck;
use super::profile::HAND_SIZE;
use super::walk::HandWalk;
use crate::rules::betting::seating::clockwise_after;
use crate::rules::{Chips, Defer};

fn joined(seats: &[i64]) -> String {
    seats.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
}

/// FCD-1: 2 to 5 players; 32 cards, 36 when exactly five are dealt in.
pub fn check_players_and_deck(walk: &mut HandWalk<'_, '_>) {
    let players = walk.started.seats.len() as i64;
    let prof = walk.prof;
    if !(prof.min_players <= players && players <= prof.max_players) {
        walk.notes.add("PLAYER_COUNT", "FCD-1", prof.severity.player_count, format!(
            "{} players dealt in; the game takes {} to {}", players, prof.min_players, prof.max_players),
            None, Some(players as Chips));
    }
    let required = required_deck(players, prof);
    if walk.started.deck != required {
        walk.notes.add("WRONG_DECK", "FCD-1", prof.severity.wrong_deck, format!(
            "hand_started declares a {}-card deck with {} players dealt in; FCD-1 requires {} cards",
            walk.started.deck, players, required), None, Some(walk.started.deck as Chips));
    }
}

/// FCD-4: five cards each, one at a time, clockwise starting left of the button.
pub fn check_deal(walk: &mut HandWalk<'_, '_>) {
    let seats = walk.started.seat_numbers();
    let order = clockwise_after(&seats, walk.started.button);
    let expected: Vec<i64> = (0..HAND_SIZE).flat_map(|_| order.iter().copied()).collect();
    let dealt = &walk.deal_sequence;
    let head = &dealt[..expected.len().min(dealt.len())];
    if head != expected.as_slice() && !dealt.is_empty() {
        walk.notes.add("DEAL_ORDER", "FCD-4", walk.prof.severity.deal_order, format!(
            "the cards were not dealt one at a time clockwise starting left of the button (expected seat order {}, five times)",
            joined(&order)), None, None);
    }
    for seat in seats {
        let count = walk.deal_sequence.iter().filter(|&&s| s == seat).count();
        if count != HAND_SIZE {
            walk.notes.add("WRONG_CARD_COUNT", "FCD-4", walk.prof.severity.wrong_card_count, format!(
                "seat {} was dealt {} cards; each player receives five", seat, count),
                Some(seat), Some(count as Chips - HAND_SIZE as Chips));
        }
    }
}

/// FCD-6: the draw starts with the first active player left of the button, clockwise; the
/// first seat that drew before a seat due ahead of it is reported.
pub fn check_draw_order(walk: &mut HandWalk<'_, '_>) -> Result<(), Defer> {
    let due: Vec<i64> = clockwise_after(&walk.draw.entrants, walk.started.button)
        .into_iter()
        .filter(|s| walk.draw.order.contains(s))
        .collect();
    if due.len() != walk.draw.order.len() {
        return Err(Defer("draw order lists of different lengths")); // zip(strict=True) raises
    }
    for (&drew, &expected) in walk.draw.order.iter().zip(&due) {
        if drew != expected {
            walk.notes.add("DRAW_ORDER", "FCD-6", walk.prof.severity.draw_order, format!(
                "seat {} drew before seat {}; the draw goes clockwise from the button's left", drew, expected),
                Some(drew), None);
            return Ok(());
        }
    }
    Ok(())
}

/// FCD-6: how many cards each player drew is public, so every draw is recorded.
pub fn check_draw_recorded(walk: &mut HandWalk<'_, '_>) {
    for seat in walk.draw.entrants.clone() {
        if !walk.draw.has_drawn(seat) {
            walk.notes.add("DRAW_NOT_RECORDED", "FCD-6", walk.prof.severity.draw_not_recorded, format!(
                "seat {} was in the hand at the draw but no draw or stand pat was recorded for it", seat),
                Some(seat), None);
        }
    }
}

/// FCD-9: the last bettor or raiser of the final round shows first, else the first active
/// player left of the button.
pub fn check_showdown_order(walk: &mut HandWalk<'_, '_>) -> Result<(), Defer> {
    let order = walk.engine.showdown_order()?;
    let shown: Vec<i64> = walk.showdowns.iter().map(|s| s.0).filter(|s| order.contains(s)).collect();
    if order.len() < 2 || shown.is_empty() {
        return Ok(());
    }
    if shown[0] != order[0] {
        walk.notes.add("SHOWDOWN_ORDER", "FCD-9", walk.prof.severity.showdown_order, format!(
            "seat {} showed first; seat {} had to show first", shown[0], order[0]), Some(shown[0]), None);
    }
    Ok(())
}
