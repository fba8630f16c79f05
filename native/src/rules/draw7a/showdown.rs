//! The showdown of a Five Card Draw 7-A hand (`services/games/draw7a/showdown.py`): each
//! contender's cards (cards speak, FCD-9) and their short-deck strength with the deck the
//! ranking applies to (FCD-10). The settlement's words stay Python's (the dispute report).

use super::betting::required_deck;
use super::evaluation::best_rank;
use super::profile::HAND_SIZE;
use super::walk::HandWalk;
use crate::rules::hcf::procedure::Stop;

fn in_deck(card: &str, deck: i64) -> bool {
    let b = card.as_bytes();
    let lowest = if deck == 32 { b'7' } else { b'6' };
    b.len() == 2 && b"6789TJQKA".contains(&b[0]) && (b[0] != b'6' || lowest == b'6') && b"cdhs".contains(&b[1])
}

/// `ranking_deck` (FCD-10): the deck whose ranking applies; cards not of the chosen deck
/// are ranked with the 36-card deck.
pub fn ranking_deck(walk: &HandWalk<'_, '_>, cards: &[&str]) -> i64 {
    let players = walk.started.seats.len() as i64;
    let chosen = if walk.prof.rank_with_dealt_deck { walk.started.deck } else { required_deck(players, walk.prof) };
    if (chosen == 32 || chosen == 36) && cards.iter().all(|c| in_deck(c, chosen)) {
        return chosen;
    }
    36
}

/// `final_hand`: the seat's cards at showdown: what was dealt and drawn (cards speak); the
/// shown cards only when the deal was not read, and only when they fit what was read (else
/// None, and why not). A mismatch with a hand read whole is reported.
pub fn final_hand<'e>(walk: &mut HandWalk<'e, '_>, seat: i64) -> (Option<Vec<&'e str>>, Option<String>) {
    let tracked: Vec<Option<&'e str>> = walk.hand(seat).cloned().unwrap_or_default();
    let shown: Option<Vec<&'e str>> = walk.showdowns.iter()
        .find(|(s, cards, _)| *s == seat && cards.as_ref().map_or(false, |c| !c.is_empty()))
        .and_then(|(_, cards, _)| cards.clone());
    let known: Vec<&'e str> = tracked.iter().flatten().copied().collect();
    let all_read = !tracked.is_empty() && known.len() == tracked.len();
    if let Some(shown) = &shown {
        let (mut a, mut b) = (shown.clone(), known.clone());
        a.sort_unstable();
        b.sort_unstable();
        if all_read && a != b {
            walk.notes.add("SHOWN_CARDS_MISMATCH", "FCD-9", walk.prof.severity.shown_cards_mismatch, format!(
                "seat {} showed {} but was dealt and drew {}; the cards dealt speak", seat, shown.join(" "), known.join(" ")),
                Some(seat), None);
        }
    }
    if all_read {
        return (Some(known), None);
    }
    match shown {
        None => (None, None),
        Some(shown) => match unfitting(walk, seat, &shown, &known, tracked.len()) {
            Some(problem) => (None, Some(problem)),
            None => (Some(shown), None),
        },
    }
}

/// `_unfitting` (FCD-9, GEN-1): why cards shown for a hand not read whole cannot stand for
/// it, or None (they replaced the hand unchecked: a switched, added or foreign card was
/// hidden by leaving one card unread).
fn unfitting(walk: &HandWalk<'_, '_>, seat: i64, shown: &[&str], known: &[&str], held: usize) -> Option<String> {
    let lacking: Vec<&str> = known.iter().copied().filter(|c| !shown.contains(c)).collect();
    if !lacking.is_empty() {
        return Some(format!("they lack the card(s) read: {}", lacking.join(" ")));
    }
    if held > 0 && shown.len() != held { // (nothing dealt recorded: WRONG_CARD_COUNT's)
        return Some(format!("they are {} cards for the {} it held", shown.len(), held));
    }
    if let Some(twice) = shown.iter().enumerate().find(|(i, c)| shown[..*i].contains(c)).map(|(_, c)| c) {
        return Some(format!("they hold {} twice", twice));
    }
    for card in shown {
        let elsewhere = walk.hands.iter()
            .filter(|(s, cards)| *s != seat && cards.contains(&Some(*card)))
            .map(|(s, _)| *s)
            .min();
        if let Some(other) = elsewhere {
            return Some(format!("{} was read at seat {}", card, other));
        }
    }
    let deck = walk.started.deck;
    if deck == 32 || deck == 36 {
        if let Some(foreign) = shown.iter().find(|c| !in_deck(c, deck)) {
            return Some(format!("the {}-card deck holds no {}", deck, foreign));
        }
    }
    None
}

/// `strengths` (FCD-10): the short-deck rank code per contender, None when it cannot win
/// (mucked, or with `irregular_hand_dead` not holding exactly five cards).
pub fn strengths(walk: &mut HandWalk<'_, '_>, contenders: &[i64]) -> Result<Vec<(i64, Option<i64>)>, Stop> {
    let mucked: Vec<i64> = walk.showdowns.iter().filter(|s| s.2).map(|s| s.0).collect();
    let mut out = Vec::with_capacity(contenders.len());
    for &seat in contenders {
        let (cards, unfitting) = final_hand(walk, seat);
        if mucked.contains(&seat) {
            out.push((seat, None));
            continue;
        }
        let cards = cards.ok_or_else(|| {
            let why = match &unfitting {
                Some(problem) => format!("the cards it showed cannot stand for them: {}", problem),
                None => "not shown".to_string(),
            };
            Stop::Rejected(("FCD-9", format!(
                "seat {} reached the showdown but its cards are unknown (not read at the deal, {})", seat, why)))
        })?;
        if cards.len() != HAND_SIZE && (walk.prof.irregular_hand_dead || cards.len() < 5 || cards.len() > 7) {
            out.push((seat, None));
            continue;
        }
        let deck = ranking_deck(walk, &cards);
        match best_rank(&cards, deck) {
            Ok(code) => out.push((seat, Some(code))),
            Err(why) => return Err(Stop::Rejected(("GEN-1", format!("seat {}: {}", seat, why)))),
        }
    }
    Ok(out)
}
