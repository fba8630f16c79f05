//! Building a ranking's tables in the core (`CardRanking::build`), the same tables
//! `services/games/evaluation/tables.py`'s `build_tables` makes with numpy.
//!
//! Why here: a process whose log holds a hold'em hand needs the standard ranking's tables
//! for the native showdowns. Building them in Python imported numpy and ran its array code
//! (with OpenBLAS's threads): about 0.26 s of CPU, a third of adjudicating the 10,000
//! Pluribus hands. The same loops in Rust take a few milliseconds. The layout (card keys,
//! rank keys, flush nibbles, rank codes) is the Python one, handed in where it is a choice
//! (`rank_keys`, the categories' order, the deck's ranks, the ace-low straight), and
//! `tests/unit/evaluation/test_native_ranking.py` compares the two builds table for table
//! for every ranking and checks the codes against the reference evaluator.

use super::ranking::{CardRanking, RankingError};

/// Bits of one suit's card count in a key (`keys.SUIT_BITS`).
const SUIT_BITS: u32 = 4;
const RANK_SHIFT: u32 = 16;
const MAX_CARDS: usize = 7;

/// The categories' values of one ranking, worst first in the standard order
/// (`Ranking.category_value` of each).
#[derive(Debug, Clone, Copy)]
pub struct Categories {
    pub high_card: u32,
    pub one_pair: u32,
    pub two_pair: u32,
    pub three_of_a_kind: u32,
    pub straight: u32,
    pub flush: u32,
    pub full_house: u32,
    pub four_of_a_kind: u32,
    pub straight_flush: u32,
}

/// What defines a ranking's tables: the deck's ranks (2..14, lowest first), each deck
/// rank's key (`keys.RANK_KEYS`, by position), the categories' values and the ranks of the
/// ace-low straight.
#[derive(Debug, Clone)]
pub struct RankingSpec {
    pub deck_ranks: Vec<u32>,
    pub rank_keys: Vec<i64>,
    pub categories: Categories,
    pub ace_low_straight: Vec<u32>,
}

/// A rank code: category, then five ranks in 4-bit slots (`rankcode.pack`).
fn pack(category: u32, ranks: &[u32]) -> i64 {
    let mut code = i64::from(category);
    for slot in 0..5 {
        code = code << 4 | i64::from(ranks.get(slot).copied().unwrap_or(0));
    }
    code
}

fn mask_of(ranks: impl IntoIterator<Item = u32>) -> u32 {
    ranks.into_iter().fold(0, |mask, rank| mask | 1 << (rank - 2))
}

/// The rank (2..14) of a mask's highest bit; 0 for an empty mask (`highest_rank_table`).
fn highest(mask: u32) -> u32 {
    if mask == 0 { 0 } else { 32 - mask.leading_zeros() + 1 }
}

/// `(top, mask)` of every straight, highest first, the ace-low one last
/// (`straight_windows`): its top is its highest non-ace rank.
fn straight_windows(spec: &RankingSpec) -> Result<Vec<(u32, u32)>, RankingError> {
    let low = *spec.deck_ranks.first()
        .ok_or_else(|| RankingError::Tables("a deck without ranks".to_string()))?;
    let mut windows: Vec<(u32, u32)> = (low + 4..=14).rev()
        .map(|top| (top, mask_of(top - 4..=top))).collect();
    let ace_low_top = spec.ace_low_straight.iter().copied().filter(|&r| r != 14).max()
        .ok_or_else(|| RankingError::Tables("an ace-low straight without low ranks".to_string()))?;
    windows.push((ace_low_top, mask_of(spec.ace_low_straight.iter().copied())));
    Ok(windows)
}

/// The top of the highest straight within `mask`, 0 without one.
fn straight_top(mask: u32, windows: &[(u32, u32)]) -> u32 {
    windows.iter().find(|&&(_, window)| mask & window == window).map_or(0, |&(top, _)| top)
}

/// Code of the best hand in one suit holding the ranks of each mask (0 below five ranks).
fn flush_codes(spec: &RankingSpec, windows: &[(u32, u32)]) -> Vec<i64> {
    let categories = spec.categories;
    (0..1u32 << 13).map(|mask| {
        if mask.count_ones() < 5 {
            return 0;
        }
        match straight_top(mask, windows) {
            0 => {
                let mut rest = mask;
                let tops: Vec<u32> = (0..5).map(|_| {
                    let rank = highest(rest);
                    rest &= !(1 << (rank - 2));
                    rank
                }).collect();
                pack(categories.flush, &tops)
            }
            top => pack(categories.straight_flush, &[top]),
        }
    }).collect()
}

/// The best non-flush code of one rank multiset (`counts[i]` cards of `deck_ranks[i]`),
/// from its groups sorted by (multiplicity, rank) descending.
fn nonflush_code(counts: &[u32], spec: &RankingSpec, windows: &[(u32, u32)]) -> i64 {
    let mut groups: Vec<(u32, u32)> = counts.iter().zip(&spec.deck_ranks)
        .filter(|(&count, _)| count > 0).map(|(&count, &rank)| (count, rank)).collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let r = |j: usize| groups.get(j).map_or(0, |g| g.1);
    let c = |j: usize| groups.get(j).map_or(0, |g| g.0);
    let present = mask_of(groups.iter().map(|g| g.1));
    let without = |ranks: &[u32]| ranks.iter().fold(present, |mask, &rank| mask & !(1 << (rank - 2)));
    let cat = spec.categories;
    let top = straight_top(present, windows);
    if c(0) == 4 {
        pack(cat.four_of_a_kind, &[r(0), highest(without(&[r(0)]))])
    } else if c(0) == 3 && c(1) >= 2 {
        pack(cat.full_house, &[r(0), r(1)])
    } else if top > 0 {
        pack(cat.straight, &[top])
    } else if c(0) == 3 {
        pack(cat.three_of_a_kind, &[r(0), r(1), r(2)])
    } else if c(0) == 2 && c(1) == 2 {
        pack(cat.two_pair, &[r(0), r(1), highest(without(&[r(0), r(1)]))])
    } else if c(0) == 2 {
        pack(cat.one_pair, &[r(0), r(1), r(2), r(3)])
    } else {
        pack(cat.high_card, &[r(0), r(1), r(2), r(3), r(4)])
    }
}

/// Every rank multiset of 5, 6 and 7 cards (each rank at most four times): its rank-key
/// sum and code, by size.
fn multiset_tables(spec: &RankingSpec, windows: &[(u32, u32)]) -> [(Vec<i64>, Vec<i64>); 3] {
    fn walk(spec: &RankingSpec, windows: &[(u32, u32)], counts: &mut Vec<u32>, size: usize,
            sum: i64, out: &mut [(Vec<i64>, Vec<i64>); 3]) {
        let rank = counts.len();
        if rank == spec.deck_ranks.len() {
            if size >= 5 {
                out[size - 5].0.push(sum);
                out[size - 5].1.push(nonflush_code(counts, spec, windows));
            }
            return;
        }
        for count in 0..=4.min(MAX_CARDS - size) {
            counts.push(count as u32);
            walk(spec, windows, counts, size + count, sum + count as i64 * spec.rank_keys[rank], out);
            counts.pop();
        }
    }
    let mut out: [(Vec<i64>, Vec<i64>); 3] = Default::default();
    walk(spec, windows, &mut Vec::with_capacity(13), 0, 0, &mut out);
    out
}

/// A card's index (`4 * (rank - 2) + suit`) and key (its rank's key above the suit
/// nibbles, one count in its suit's nibble); -1 for cards outside the deck.
fn card_keys(spec: &RankingSpec) -> Vec<i64> {
    let mut keys = vec![-1i64; 52];
    for (position, &rank) in spec.deck_ranks.iter().enumerate() {
        for suit in 0..4u32 {
            keys[(4 * (rank - 2) + suit) as usize] =
                spec.rank_keys[position] << RANK_SHIFT | 1 << (SUIT_BITS * suit);
        }
    }
    keys
}

/// The tables of one ranking, as `build_tables` lays them out: card keys (52), flush
/// codes (8,192), and for 5, 6 and 7 cards the rank-key sums with their codes.
pub type Tables = (Vec<i64>, Vec<i64>, [(Vec<i64>, Vec<i64>); 3]);

/// The tables of `spec`, checked: ranks 2..14 ascending, one key per rank.
pub fn build_tables(spec: &RankingSpec) -> Result<Tables, RankingError> {
    let ranks_ok = spec.deck_ranks.windows(2).all(|w| w[0] < w[1])
        && spec.deck_ranks.iter().all(|r| (2..=14).contains(r))
        && spec.ace_low_straight.iter().all(|r| (2..=14).contains(r))
        && spec.rank_keys.len() >= spec.deck_ranks.len()
        && spec.rank_keys.iter().all(|&k| (0..1 << 24).contains(&k));
    if !ranks_ok {
        return Err(RankingError::Tables("deck ranks must ascend within 2..14, each with a rank key".to_string()));
    }
    let windows = straight_windows(spec)?;
    Ok((card_keys(spec), flush_codes(spec, &windows), multiset_tables(spec, &windows)))
}

impl CardRanking {
    /// The ranking `spec` defines, its tables built here (`CardRanking::new` checks them:
    /// rank keys whose sums collide are refused).
    pub fn build(spec: &RankingSpec) -> Result<CardRanking, RankingError> {
        let (keys, flush, by_size) = build_tables(spec)?;
        let [five, six, seven] = &by_size;
        CardRanking::new(&keys, &flush, [(&five.0, &five.1), (&six.0, &six.1), (&seven.0, &seven.1)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> RankingSpec {
        RankingSpec {
            deck_ranks: (2..=14).collect(),
            rank_keys: vec![0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181],
            categories: Categories { high_card: 0, one_pair: 1, two_pair: 2, three_of_a_kind: 3,
                                     straight: 4, flush: 5, full_house: 6, four_of_a_kind: 7,
                                     straight_flush: 8 },
            ace_low_straight: vec![14, 2, 3, 4, 5],
        }
    }

    /// Card index of a two-character card (`Ah`): `4 * (rank - 2) + suit`.
    fn card(text: &str) -> u8 {
        let bytes = text.as_bytes();
        let rank = b"23456789TJQKA".iter().position(|&r| r == bytes[0]).unwrap() as u8;
        let suit = b"cdhs".iter().position(|&s| s == bytes[1]).unwrap() as u8;
        4 * rank + suit
    }

    fn rank(ranking: &CardRanking, cards: &str) -> i64 {
        let cards: Vec<u8> = cards.split(' ').map(card).collect();
        i64::from(ranking.rank(&cards).unwrap())
    }

    #[test]
    fn hands_worked_out_by_hand_have_their_codes() {
        let ranking = CardRanking::build(&standard()).unwrap();
        // category << 20, then the ranks in 4-bit slots (T=10 ... A=14)
        assert_eq!(rank(&ranking, "Ah Kh Qh Jh Th 2c 3d"), 8 << 20 | 14 << 16);
        assert_eq!(rank(&ranking, "Ac 2d 3h 4s 5c 9d Kd"), 4 << 20 | 5 << 16);
        assert_eq!(rank(&ranking, "9c 9d 9h 9s Kc Kd 2h"), 7 << 20 | 9 << 16 | 13 << 12);
        assert_eq!(rank(&ranking, "9c 9d 9h Kc Kd Ks 2h"), 6 << 20 | 13 << 16 | 9 << 12);
        assert_eq!(rank(&ranking, "2h 5h 7h 9h Jh Kh 3c"),
                   5 << 20 | 13 << 16 | 11 << 12 | 9 << 8 | 7 << 4 | 5);
        assert_eq!(rank(&ranking, "4c 4d 8h 8s Qc Qd 2h"), 2 << 20 | 12 << 16 | 8 << 12 | 4 << 8);
        assert_eq!(rank(&ranking, "2c 2d 5h 8s Jc Kd Ah"),
                   1 << 20 | 2 << 16 | 14 << 12 | 13 << 8 | 11 << 4);
        assert_eq!(rank(&ranking, "2c 4d 6h 8s Tc"), 10 << 16 | 8 << 12 | 6 << 8 | 4 << 4 | 2);
    }

    #[test]
    fn a_short_deck_has_its_own_ace_low_straight_and_card_set() {
        let spec = RankingSpec { deck_ranks: (6..=14).collect(), ace_low_straight: vec![14, 6, 7, 8, 9],
                                 ..standard() };
        let ranking = CardRanking::build(&spec).unwrap();
        assert_eq!(rank(&ranking, "Ac 6d 7h 8s 9c"), 4 << 20 | 9 << 16);
        assert!(ranking.rank(&[card("2c"), card("6d"), card("7h"), card("8s"), card("9c")]).is_err());
    }

    #[test]
    fn the_table_sizes_are_the_multisets_counts() {
        let (keys, flush, by_size) = build_tables(&standard()).unwrap();
        assert_eq!((keys.len(), flush.len()), (52, 8192));
        // rank multisets of 13 ranks, each at most 4 times: 6,175 of 5, 18,395 of 6 and
        // 49,205 of 7 cards (the counts every 7-card evaluator's tables have)
        let sizes: Vec<usize> = by_size.iter().map(|t| t.0.len()).collect();
        assert_eq!(sizes, vec![6175, 18395, 49205]);
    }

    #[test]
    fn keys_that_collide_or_ranks_out_of_order_are_refused() {
        let colliding = RankingSpec { rank_keys: vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], ..standard() };
        assert!(CardRanking::build(&colliding).is_err());
        let unordered = RankingSpec { deck_ranks: vec![3, 2, 4, 5, 6], ..standard() };
        assert!(build_tables(&unordered).is_err());
        let no_low = RankingSpec { ace_low_straight: vec![14], ..standard() };
        assert!(build_tables(&no_low).is_err());
    }
}
