//! Russian Poker hand values (RP-5, RP-7, RP-8), the port of
//! `services/games/russian/evaluation.py`: the paytable line of five cards, the dealer's
//! qualification, the showdown comparison and the two-combination search of six cards, on
//! the standard rank codes (`chinese::evaluation::rank5`, the same codes as the reference's
//! `standard.rank5`).

use crate::rules::chinese::evaluation::{category, rank5};
use crate::rules::Defer;

/// RP-7 paytable lines, best first (`PAYTABLE_CATEGORIES`): a line's strength is its index.
pub const PAYTABLE_CATEGORIES: [&str; 11] = [
    "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
    "three_of_a_kind", "two_pair", "one_pair", "ace_king", "nothing",
];
pub const ROYAL_FLUSH: usize = 0;
pub const ACE_KING: usize = 9;
pub const NOTHING: usize = 10;

/// The paytable line of a rank code (`paytable_category`): a royal flush is a straight
/// flush to the ace; "ace_king" a high-card hand holding an ace and a king (its two
/// highest ranks, the five being distinct), "nothing" any other high-card hand.
pub fn line_of(code: i64) -> usize {
    let top = (code >> 16) & 0xF;
    let next = (code >> 12) & 0xF;
    match category(code) {
        8 if top == 14 => ROYAL_FLUSH,
        0 if top == 14 && next == 13 => ACE_KING,
        0 => NOTHING,
        // straight_flush (8) .. one_pair (1) are the lines 1 .. 8
        c => 9 - c,
    }
}

/// `paytable_category(cards5)` as the line's index.
pub fn paytable_category(cards5: &[&str]) -> Result<usize, Defer> {
    Ok(line_of(rank5(cards5)?))
}

/// `at_least(category, floor)` (profile.py): `category` is `floor` or better.
pub fn at_least(category: usize, floor: usize) -> bool {
    category <= floor
}

/// `compare`: 1 if the player's five beat the dealer's, -1 if they lose, 0 if identical.
pub fn compare(player: i64, dealer: i64) -> i64 {
    (player > dealer) as i64 - (player < dealer) as i64
}

/// The rank codes of every five-card subset of `cards`, in `itertools.combinations` order.
fn subsets(cards: &[&str]) -> Result<Vec<i64>, Defer> {
    let n = cards.len();
    if n < 5 {
        return Err(Defer("fewer than five cards to rank"));
    }
    let mut out = Vec::new();
    let mut idx: [usize; 5] = [0, 1, 2, 3, 4];
    let mut five = [""; 5];
    loop {
        for (slot, &i) in five.iter_mut().zip(idx.iter()) {
            *slot = cards[i];
        }
        out.push(rank5(&five)?);
        // the rightmost index that can still move right
        let mut i = 5;
        while i > 0 && idx[i - 1] == i - 1 + n - 5 {
            i -= 1;
        }
        if i == 0 {
            return Ok(out);
        }
        i -= 1;
        idx[i] += 1;
        for j in i + 1..5 {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// `standard.best_five(cards)[0]`: the rank code of the best five of 5 to 7 cards.
pub fn best_five(cards: &[&str]) -> Result<i64, Defer> {
    if !(5..=7).contains(&cards.len()) {
        return Err(Defer("best five of other than 5 to 7 cards"));
    }
    subsets(cards)?.into_iter().max().ok_or(Defer("no five-card subset"))
}

/// `two_combinations(cards6)` (RP-8): the rank codes of the best five and of the best other
/// five (None when that one is below Ace-King). Subsets tie by input order, so the second
/// is the next code in descending order (which may equal the first).
pub fn two_combinations(cards6: &[&str]) -> Result<(i64, Option<i64>), Defer> {
    if cards6.len() != 6 {
        return Err(Defer("two combinations of other than six cards"));
    }
    let mut codes = subsets(cards6)?;
    codes.sort_unstable_by(|a, b| b.cmp(a));
    let (best, second) = (codes[0], codes[1]);
    Ok((best, if line_of(second) == NOTHING { None } else { Some(second) }))
}

/// Rank of a wire card, 2..14 (`cards.rank_of`).
pub fn rank_of(card: &str) -> Result<i64, Defer> {
    crate::rules::chinese::evaluation::card(card).map(|(r, _)| r as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(cards: &str) -> &'static str {
        let cards: Vec<&str> = cards.split(' ').collect();
        PAYTABLE_CATEGORIES[paytable_category(&cards).unwrap()]
    }

    #[test]
    fn paytable_lines_by_hand() {
        assert_eq!(line("Tc Jc Qc Kc Ac"), "royal_flush");
        assert_eq!(line("9c Tc Jc Qc Kc"), "straight_flush");
        assert_eq!(line("Ac 2c 3c 4c 5c"), "straight_flush");
        assert_eq!(line("2c 2d 2h 2s 3c"), "four_of_a_kind");
        assert_eq!(line("2c 2d 2h 3s 3c"), "full_house");
        assert_eq!(line("2c 5c 7c 9c Jc"), "flush");
        assert_eq!(line("Ac 2d 3h 4s 5c"), "straight");
        assert_eq!(line("2c 2d 2h 4s 5c"), "three_of_a_kind");
        assert_eq!(line("2c 2d 4h 4s 5c"), "two_pair");
        assert_eq!(line("2c 2d 4h 7s 5c"), "one_pair");
        assert_eq!(line("Ac Kd 4h 7s 5c"), "ace_king");
        assert_eq!(line("Ac Qd 4h 7s 5c"), "nothing");
    }

    #[test]
    fn subsets_follow_combinations_order() {
        let cards: Vec<&str> = "2c 3d 4h 5s 7c 9d".split(' ').collect();
        assert_eq!(subsets(&cards).unwrap().len(), 6);
        let seven: Vec<&str> = "2c 3d 4h 5s 7c 9d Jh".split(' ').collect();
        assert_eq!(subsets(&seven).unwrap().len(), 21);
        // A-2-3-4-5 plus a six: the best is the six-high straight, the second the wheel.
        let six: Vec<&str> = "Ac 2d 3h 4s 5c 6d".split(' ').collect();
        let (best, second) = two_combinations(&six).unwrap();
        assert!(best > second.unwrap());
        assert_eq!(line_of(second.unwrap()), 5);
    }
}
