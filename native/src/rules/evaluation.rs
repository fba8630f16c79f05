//! High Card Flush hand values (HCF-6, HCF-7, HCF-9) on rank bitmasks, as
//! `services/games/hcf/evaluation.py`: a suit's cards are one integer with bit `r` set for
//! each rank `r` (2..14, ace high), a flush value is `length << 16 | rank_mask` (a longer
//! flush wins, equal lengths compare highest card first), a straight-flush strength is
//! `run << 4 | top rank`.

use super::Defer;

const LENGTH_SHIFT: u32 = 16;
const RANK_MASK: u32 = (1 << LENGTH_SHIFT) - 1;
const ACE: i64 = 14;
const ACE_BIT: u32 = 1 << ACE;
const ACE_LOW_BIT: u32 = 1 << 1;

/// Rank value 2..14 of a rank character (`services.games.cards.RANK_VALUE`).
pub fn rank_value(rank: u8) -> Option<i64> {
    b"23456789TJQKA".iter().position(|&r| r == rank).map(|i| i as i64 + 2)
}

/// (suit index in c d h s, rank bit) of a card such as `"As"`.
fn card_bits(card: &str) -> Option<(usize, u32)> {
    let b = card.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let rank = rank_value(b[0])?;
    let suit = b"cdhs".iter().position(|&s| s == b[1])?;
    Some((suit, 1 << rank))
}

/// Rank bitmask per suit (c d h s).
pub fn suit_masks(cards: &[&str]) -> Result<[u32; 4], Defer> {
    let mut masks = [0u32; 4];
    for card in cards {
        let (suit, bit) = card_bits(card).ok_or(Defer("a card the evaluator does not know"))?;
        masks[suit] |= bit;
    }
    Ok(masks)
}

/// HCF-6: the best flush among the suits (longest, then highest cards).
pub fn flush_value(masks: &[u32; 4]) -> u32 {
    masks.iter().map(|&m| m.count_ones() << LENGTH_SHIFT | m).max().unwrap_or(0)
}

/// Number of cards in the flush a value describes.
pub fn flush_length(value: u32) -> u32 {
    value >> LENGTH_SHIFT
}

/// Rank of the flush's highest card (0 for an empty hand).
pub fn flush_high_card(value: u32) -> i64 {
    let mask = value & RANK_MASK;
    if mask == 0 {
        0
    } else {
        31 - mask.leading_zeros() as i64
    }
}

/// HCF-7: at least `min_cards` suited cards with the highest at least `min_high_rank`; a
/// flush of `any_high_cards` or more qualifies whatever its ranks.
pub fn dp_qualifies(value: u32, min_cards: i64, min_high_rank: i64, any_high_cards: i64) -> bool {
    let length = flush_length(value) as i64;
    if length >= any_high_cards {
        return true;
    }
    length >= min_cards && flush_high_card(value) >= min_high_rank
}

/// Longest run of consecutive set bits, and the bit index at the top of the highest such
/// run (Python's `bit_length() - 1`: -1 for an empty mask).
fn run_and_top(mut mask: u64) -> (i64, i64) {
    let (mut run, mut tops) = (0i64, 0u64);
    while mask != 0 {
        tops = mask;
        mask &= mask << 1;
        run += 1;
    }
    (run, 63 - tops.leading_zeros() as i64)
}

/// HCF-9 run as one comparable int: `length << 4 | top rank` of the best run (A-2-3 tops
/// at 3 when the ace plays low; K-A-2 tops at 2 with wrap-around).
pub fn straight_flush_strength(masks: &[u32; 4], ace_low: bool, wraparound: bool) -> i64 {
    let mut best = 0i64;
    for &mask in masks {
        if mask == 0 {
            continue;
        }
        let (run, top) = if wraparound {
            // Ranks 2..14 as bits 0..12, repeated once so a run can cross from A to 2.
            let base = (mask >> 2) as u64;
            let (run, top_bit) = run_and_top(base | base << 13);
            if run >= 13 {
                (13, ACE)
            } else {
                (run, top_bit.rem_euclid(13) + 2)
            }
        } else {
            let mut m = mask;
            if ace_low && m & ACE_BIT != 0 {
                m |= ACE_LOW_BIT;
            }
            run_and_top(m as u64)
        };
        best = best.max(run << 4 | top);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(cards: &[&str]) -> u32 {
        flush_value(&suit_masks(cards).unwrap())
    }

    #[test]
    fn a_longer_flush_beats_higher_cards() {
        assert!(value(&["2c", "3c", "4c", "5c"]) > value(&["As", "Ks", "Qs"]));
        assert_eq!(flush_length(value(&["2c", "3c", "4c", "Ah"])), 3);
        assert_eq!(flush_high_card(value(&["2c", "9c", "4c", "Ah"])), 9);
    }

    #[test]
    fn nine_high_three_card_flush_qualifies() {
        assert!(dp_qualifies(value(&["9d", "4d", "2d"]), 3, 9, 4));
        assert!(!dp_qualifies(value(&["8d", "4d", "2d"]), 3, 9, 4));
        assert!(dp_qualifies(value(&["5d", "4d", "2d", "3d"]), 3, 9, 4));
    }

    #[test]
    fn straight_flush_runs_follow_the_readings() {
        let masks = suit_masks(&["Ah", "2h", "3h", "9c"]).unwrap();
        assert_eq!(straight_flush_strength(&masks, true, false), 3 << 4 | 3);
        assert_eq!(straight_flush_strength(&masks, false, false), 2 << 4 | 3);
        let corner = suit_masks(&["Kh", "Ah", "2h"]).unwrap();
        assert_eq!(straight_flush_strength(&corner, false, true), 3 << 4 | 2);
        assert_eq!(straight_flush_strength(&corner, false, false) >> 4, 2);
    }
}
