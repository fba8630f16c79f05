//! Buying the dealer's game (RP-6), the port of `services/games/russian/dealer_game.py`:
//! who bought it, the dealer's hand after the replacement, and the findings about a
//! replacement or burn done against the rule (the settlement uses the hand as dealt).

use std::collections::BTreeSet;

use super::evaluation::{rank_of, PAYTABLE_CATEGORIES};
use super::reading::{rankable, Replacement, RussianHand};
use super::settlement::{completes, dealer_hand, DealerHand};
use super::Stop;
use crate::rules::profile::RussianProfile;
use crate::rules::{finding, Defer, RFinding};

/// `DealerGame`: the boxes whose purchase stands and the dealer's hand they face.
#[derive(Debug)]
pub struct DealerGame<'a> {
    pub buyers: Vec<i64>,
    pub bought: Option<DealerHand<'a>>,
    pub findings: Vec<RFinding>,
}

fn seats_text(seats: &[i64]) -> String {
    seats.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

/// `dealer_game`: valid purchases of the dealer's game and his hand after the replacement.
pub fn dealer_game<'a>(hand: &RussianHand<'a>, dealer: &DealerHand<'a>, playing: &BTreeSet<i64>,
                       p: &RussianProfile) -> Result<DealerGame<'a>, Stop> {
    let mut game = DealerGame { buyers: Vec::new(), bought: None, findings: Vec::new() };
    let buyers = buyers(hand, dealer, playing, &mut game, p);
    let sev = p.dealer_game_error_severity;
    if buyers.is_empty() {
        for r in &hand.replacements {
            game.findings.push(finding("REPLACEMENT_WITHOUT_BUY", "RP-6", sev, format!(
                "the dealer replaced a card at seq {} though no box bought his game", r.seq), None, None));
        }
        return Ok(game);
    }
    game.buyers = buyers.clone();
    let first = match hand.replacements.first() {
        Some(first) => first,
        None => {
            game.findings.push(finding("REPLACEMENT_MISSING", "RP-6", sev, format!(
                "seat(s) {} bought the dealer's game but no dealer_replaced_card was recorded; settled on the dealer's hand as dealt",
                seats_text(&buyers)), None, None));
            game.bought = Some(dealer.clone());
            return Ok(game);
        }
    };
    for r in &hand.replacements[1..] {
        game.findings.push(finding("SECOND_REPLACEMENT", "RP-6", sev, format!(
            "the dealer replaced a card a second time at seq {}; the game is bought once and the first replacement stands",
            r.seq), None, None));
    }
    let late = late_buys(hand, &buyers, first, p);
    game.findings.extend(late);
    let wrong = replacement_findings(&dealer.cards, first, p)?;
    game.findings.extend(wrong);
    let new_cards = new_dealer_cards(&dealer.cards, first)?;
    rankable(&new_cards, &format!("the dealer (after receiving {} at seq {})", first.received, first.seq))?;
    game.bought = Some(dealer_hand(new_cards, p)?);
    Ok(game)
}

/// `_buyers`: boxes whose first dealer's-game choice is to buy, when buying is allowed.
fn buyers(hand: &RussianHand<'_>, dealer: &DealerHand<'_>, playing: &BTreeSet<i64>, game: &mut DealerGame<'_>,
          p: &RussianProfile) -> Vec<i64> {
    let sev = p.dealer_game_error_severity;
    let mut out = Vec::new();
    for seat in hand.sorted_seats() {
        let choice = match hand.get(seat).first_step(&["buy_dealer_game", "decline_dealer_game"]) {
            Some(c) if c.action == "buy_dealer_game" => c,
            _ => continue,
        };
        if !playing.contains(&seat) {
            game.findings.push(finding("BUY_WITHOUT_BET", "RP-6", sev, format!(
                "seat {} bought the dealer's game at seq {} without playing its hand; ignored", seat, choice.seq),
                Some(seat), None));
        } else if dealer.qualifies {
            game.findings.push(finding("BUY_WHEN_DEALER_QUALIFIES", "RP-6", sev, format!(
                "seat {} bought the dealer's game at seq {} though the dealer qualifies ({}); ignored, settled under RP-7",
                seat, choice.seq, PAYTABLE_CATEGORIES[dealer.category]), Some(seat), None));
        } else {
            out.push(seat);
        }
    }
    out
}

/// `_late_buys` (SURV-1): a purchase decided after the dealer's new card was visible.
fn late_buys(hand: &RussianHand<'_>, buyers: &[i64], first: &Replacement<'_>, p: &RussianProfile) -> Vec<RFinding> {
    let mut out = Vec::new();
    for &seat in buyers {
        if let Some(choice) = hand.get(seat).first_step(&["buy_dealer_game"]) {
            if choice.index > first.index {
                out.push(finding("BUY_AFTER_REPLACEMENT", "SURV-1", p.late_wager_severity, format!(
                    "seat {} bought the dealer's game at seq {}, after the dealer's replacement card was dealt at seq {}",
                    seat, choice.seq, first.seq), Some(seat), None));
            }
        }
    }
    out
}

/// `new_dealer_cards`: the removed card (or, if he never held it, his highest card)
/// swapped for the card he received.
pub fn new_dealer_cards<'a>(cards: &[&'a str], replaced: &Replacement<'a>) -> Result<Vec<&'a str>, Defer> {
    let removed = if cards.contains(&replaced.removed) { replaced.removed } else { highest_card(cards)? };
    Ok(cards.iter().map(|&c| if c == removed { replaced.received } else { c }).collect())
}

/// `highest_card`: the first card of the highest rank (Python's `max`).
pub fn highest_card<'a>(cards: &[&'a str]) -> Result<&'a str, Defer> {
    let mut best: Option<(&'a str, i64)> = None;
    for &card in cards {
        let rank = rank_of(card)?;
        if best.map_or(true, |(_, r)| rank > r) {
            best = Some((card, rank));
        }
    }
    best.map(|(c, _)| c).ok_or(Defer("the highest card of no cards"))
}

/// `_completes`: `card` in place of `removed` makes Ace-King or better.
fn completes_with(cards: &[&str], removed: &str, card: &str) -> Result<bool, Stop> {
    let swapped: Vec<&str> = cards.iter().map(|&c| if c == removed { card } else { c }).collect();
    completes(&swapped)
}

/// `replacement_findings` (RP-6): the highest card replaced; same-rank draws burned
/// unless they make a hand.
fn replacement_findings(cards: &[&str], replaced: &Replacement<'_>, p: &RussianProfile) -> Result<Vec<RFinding>, Stop> {
    let sev = p.dealer_game_error_severity;
    let seq = replaced.seq;
    let mut out = Vec::new();
    let highest = highest_card(cards)?;
    if replaced.removed != highest {
        out.push(finding("REPLACED_WRONG_CARD", "RP-6", sev, format!(
            "the dealer replaced {} at seq {}; he replaces his highest card, {}", replaced.removed, seq, highest),
            None, None));
    }
    let rank = rank_of(highest)?;
    for &card in &replaced.burned {
        if rank_of(card)? != rank {
            out.push(finding("BURN_PROCEDURE", "RP-6", sev, format!(
                "the dealer burned {} at seq {}; only a card of the replaced rank is burned, and it should have been his new card",
                card, seq), None, None));
        } else if completes_with(cards, highest, card)? {
            out.push(finding("BURN_PROCEDURE", "RP-6", sev, format!(
                "the dealer burned {} at seq {} though it completes a combination; it should have been his new card",
                card, seq), None, None));
        }
    }
    let received = replaced.received;
    if rank_of(received)? == rank && !completes_with(cards, highest, received)? {
        out.push(finding("BURN_PROCEDURE", "RP-6", sev, format!(
            "the dealer kept {} at seq {}, a card of the replaced rank that completes no combination; it is burned and another drawn",
            received, seq), None, None));
    }
    Ok(out)
}
