//! Five Card Draw 7-A short-deck ranking (FCD-10), 32- or 36-card deck, the port of
//! `services/games/draw7a/evaluation.py` (on `services/games/evaluation/reference.py`'s
//! definitions): royal flush > straight flush > four of a kind > flush > full house >
//! straight > three of a kind > two pair > pair > high card; the ace also plays low below
//! the deck's lowest card (A-7-8-9-T with 32 cards, A-6-7-8-9 with 36). The codes are the
//! reference's rank codes (`rankcode.pack`); only their order matters to the record.

/// Category values, worst first (`_SHORT_CATEGORIES`).
const STRAIGHT: i64 = 4;
const FULL_HOUSE: i64 = 5;
const FLUSH: i64 = 6;
const FOUR_OF_A_KIND: i64 = 7;
const STRAIGHT_FLUSH: i64 = 8;

/// The card's rank value 2..14 and suit index, if it is a card of the `deck_size` deck.
fn card_of(card: &str, deck_size: i64) -> Option<(i64, u8)> {
    let b = card.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let rank = crate::rules::evaluation::rank_value(b[0])?;
    let suit = match b[1] {
        b'c' => 0,
        b'd' => 1,
        b'h' => 2,
        b's' => 3,
        _ => return None,
    };
    let lowest = match deck_size {
        32 => 7,
        36 => 6,
        _ => return None,
    };
    if rank < lowest {
        return None;
    }
    Some((rank, suit))
}

/// `rankcode.pack`
fn pack(category: i64, ranks: &[i64]) -> i64 {
    let mut code = category;
    for index in 0..5 {
        code = (code << 4) | ranks.get(index).copied().unwrap_or(0);
    }
    code
}

/// `reference.rank5` of five valid distinct cards (rank, suit).
fn rank5(cards: &[(i64, u8); 5], deck_size: i64) -> i64 {
    let mut counts = [0u8; 15];
    for &(rank, _) in cards {
        counts[rank as usize] += 1;
    }
    let is_flush = cards.iter().all(|c| c.1 == cards[0].1);
    // Ranks grouped by multiplicity, then by rank, most significant first.
    let mut groups: Vec<(u8, i64)> = (2..15).filter(|&r| counts[r] > 0).map(|r| (counts[r], r as i64)).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let ordered: Vec<i64> = groups.iter().map(|g| g.1).collect();
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let top = if groups.len() == 5 {
        let low = if deck_size == 32 { 7 } else { 6 };
        let ace_low = counts[14] == 1 && (low..low + 4).all(|r| counts[r as usize] == 1);
        let (max, min) = (ordered[0], ordered[4]);
        if ace_low {
            Some(low + 3)
        } else if max - min == 4 {
            Some(max)
        } else {
            None
        }
    } else {
        None
    };
    match (top, is_flush, shape.as_slice()) {
        (Some(t), true, _) => pack(STRAIGHT_FLUSH, &[t]),
        (_, _, [4, 1]) => pack(FOUR_OF_A_KIND, &ordered),
        (_, _, [3, 2]) => pack(FULL_HOUSE, &ordered),
        (_, true, _) => pack(FLUSH, &ordered),
        (Some(t), _, _) => pack(STRAIGHT, &[t]),
        (_, _, [3, 1, 1]) => pack(3, &ordered),
        (_, _, [2, 2, 1]) => pack(2, &ordered),
        (_, _, [2, 1, 1, 1]) => pack(1, &ordered),
        _ => pack(0, &ordered),
    }
}

/// Python's `repr` of a list of card strings.
fn repr_list(cards: &[&str]) -> String {
    let parts: Vec<String> = cards.iter().map(|c| format!("'{}'", c)).collect();
    format!("[{}]", parts.join(", "))
}

/// `best_rank(cards, deck_size)` (the fast evaluator's `rank_cards`): the rank code of the
/// best five of 5-7 cards, or the words of its `ValueError`.
pub fn best_rank(cards: &[&str], deck_size: i64) -> Result<i64, String> {
    let parsed: Option<Vec<(i64, u8)>> = cards.iter().map(|c| card_of(c, deck_size)).collect();
    let parsed = match parsed {
        Some(p) if (5..=7).contains(&p.len()) => p,
        _ => return Err(format!("expected 5-7 cards of the {}-card deck, got {}", deck_size, repr_list(cards))),
    };
    for (i, c) in cards.iter().enumerate() {
        if cards[..i].contains(c) {
            return Err(format!("duplicate card in {}", repr_list(cards)));
        }
    }
    let n = parsed.len();
    let mut best = -1;
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    for e in d + 1..n {
                        let five = [parsed[a], parsed[b], parsed[c], parsed[d], parsed[e]];
                        best = best.max(rank5(&five, deck_size));
                    }
                }
            }
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(cards: &str, deck: i64) -> i64 {
        best_rank(&cards.split(' ').collect::<Vec<_>>(), deck).unwrap()
    }

    #[test]
    fn the_short_deck_order() {
        let flush = rank("7h 9h Jh Kh Ah", 32);
        let full = rank("Ac Ad As Kc Kd", 32);
        assert!(flush > full);
        let ace_low = rank("Ac 7d 8s 9c Td", 32);
        let seven_high = rank("7c 8d 9s Tc Jd", 32);
        assert!(seven_high > ace_low && ace_low > rank("Ac Ad Kc Qd Js", 32) && ace_low >> 20 == STRAIGHT);
        assert_eq!(rank("Ac 6d 7s 8c 9d", 36) >> 20, STRAIGHT);
        assert_eq!(rank("Ac 6d 7s 8c 9d 9c Kd", 36), rank("Ac 6d 7s 8c 9d", 36));
        assert_eq!(best_rank(&["6c", "7c", "8c", "9c", "Tc"], 32),
                   Err("expected 5-7 cards of the 32-card deck, got ['6c', '7c', '8c', '9c', 'Tc']".to_string()));
        assert_eq!(best_rank(&["7c", "7c", "8c", "9c", "Tc"], 32),
                   Err("duplicate card in ['7c', '7c', '8c', '9c', 'Tc']".to_string()));
    }
}
