//! Best-five rank codes of 5 to 7 cards by key sums, the scheme of
//! `services/games/evaluation/tables.py` and `fast.py`: every card has a key whose low 16
//! bits count its suit (one nibble a suit, started at 3 so that bit 3 of a nibble is set
//! exactly when the suit holds five cards or more) and whose high bits hold a rank key
//! chosen so that every rank multiset of up to seven cards has its own sum. A hand's value
//! is then one table lookup: by the rank sum when no suit holds five cards, by the flush
//! suit's 13-bit rank mask when one does.
//!
//! The tables are the ones Python's `build_tables` makes for a ranking (standard or a short
//! deck), handed over once (`CardRanking::new`), so a code here is the reference fast
//! path's code by construction; `tests/unit/evaluation/test_native_ranking.py` checks it
//! against `services.games.evaluation.reference` on every 5-card hand and on random 6- and
//! 7-card hands. Why a native copy: one Python call into it costs less than the Python
//! single-call evaluator's seven list reads and a dict lookup (issue #23's evaluator row,
//! `benchmarks/bench_evaluator.py`), and the native hold'em rules rank in Rust.

/// Added to a hand's key sum once: each suit nibble then starts at 3 (`keys.FLUSH_OFFSET`).
const FLUSH_OFFSET: u64 = 0x3333;
/// Bit 3 of each suit nibble: set when that suit holds five cards or more (`FLUSH_BITS`).
const FLUSH_BITS: u64 = 0x8888;
/// The rank key sits above the 16 suit-count bits (`keys.RANK_SHIFT`).
const RANK_SHIFT: u32 = 16;
/// Rank masks of one suit: 13 bits, bit `rank - 2`.
const FLUSH_MASKS: usize = 1 << 13;
const DECK: usize = 52;

/// Why a ranking's tables or a hand were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RankingError {
    /// The tables handed over do not have the layout `build_tables` gives.
    Tables(String),
    /// The cards are not 5 to 7 distinct cards of this ranking's deck.
    Hand(String),
}

impl std::fmt::Display for RankingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RankingError::Tables(why) | RankingError::Hand(why) => f.write_str(why),
        }
    }
}

/// Non-flush codes of one hand size by rank-key sum: open addressing on a power-of-two
/// table (a std `HashMap`'s SipHash would cost more than the rest of the evaluation).
#[derive(Debug, Clone)]
struct SumTable {
    /// `(sum + 1, code)`; a first member of 0 is an empty slot.
    slots: Vec<(u32, u32)>,
    shift: u32,
}

impl SumTable {
    fn new(sums: &[i64], codes: &[i64]) -> Result<SumTable, RankingError> {
        if sums.len() != codes.len() || sums.is_empty() {
            return Err(RankingError::Tables("sums and codes differ in length".to_string()));
        }
        let bits = (usize::BITS - (2 * sums.len() - 1).leading_zeros()).max(4);
        let mut table = SumTable { slots: vec![(0, 0); 1 << bits], shift: 32 - bits };
        for (&sum, &code) in sums.iter().zip(codes) {
            let key = u32::try_from(sum).ok().filter(|&s| s < u32::MAX);
            let code = u32::try_from(code).ok();
            match (key, code) {
                (Some(key), Some(code)) if table.insert(key, code) => {}
                _ => return Err(RankingError::Tables(format!("bad or repeated sum {sum}"))),
            }
        }
        Ok(table)
    }

    fn slot(&self, sum: u32) -> usize {
        (sum.wrapping_mul(0x9E37_79B9) >> self.shift) as usize
    }

    /// False when the sum is already there (the rank keys would then not name multisets).
    fn insert(&mut self, sum: u32, code: u32) -> bool {
        let mask = self.slots.len() - 1;
        let mut at = self.slot(sum);
        loop {
            match self.slots[at].0 {
                0 => {
                    self.slots[at] = (sum + 1, code);
                    return true;
                }
                stored if stored == sum + 1 => return false,
                _ => at = (at + 1) & mask,
            }
        }
    }

    #[inline]
    fn get(&self, sum: u32) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut at = self.slot(sum);
        loop {
            let (stored, code) = self.slots[at];
            if stored == sum.wrapping_add(1) {
                return Some(code);
            }
            if stored == 0 {
                return None;
            }
            at = (at + 1) & mask;
        }
    }
}

/// One ranking's tables (`tables.Tables`): card keys, flush codes, non-flush codes for 5,
/// 6 and 7 cards.
#[derive(Debug, Clone)]
pub struct CardRanking {
    /// Key of each card index (`4 * (rank - 2) + suit`); `None` outside the deck.
    keys: [Option<u64>; DECK],
    /// Code of the best flush or straight flush of a suit's rank mask (0 below 5 ranks).
    flush: Vec<u32>,
    /// Non-flush codes for 5, 6 and 7 cards.
    sums: [SumTable; 3],
}

impl CardRanking {
    /// The tables as `build_tables` gives them: `card_keys` (52, -1 outside the deck),
    /// `flush_codes` (8,192) and, for each of 5, 6 and 7 cards, the rank-key sums with the
    /// code of each.
    pub fn new(card_keys: &[i64], flush_codes: &[i64], by_size: [(&[i64], &[i64]); 3])
        -> Result<CardRanking, RankingError> {
        if card_keys.len() != DECK || flush_codes.len() != FLUSH_MASKS {
            return Err(RankingError::Tables("expected 52 card keys and 8192 flush codes".to_string()));
        }
        let mut keys = [None; DECK];
        for (slot, &key) in keys.iter_mut().zip(card_keys) {
            if key >= 0 {
                *slot = Some(key as u64);
            } else if key != -1 {
                return Err(RankingError::Tables(format!("bad card key {key}")));
            }
        }
        let flush = flush_codes.iter().map(|&c| u32::try_from(c))
            .collect::<Result<Vec<u32>, _>>()
            .map_err(|_| RankingError::Tables("bad flush code".to_string()))?;
        let [five, six, seven] = by_size;
        let sums = [SumTable::new(five.0, five.1)?, SumTable::new(six.0, six.1)?,
                    SumTable::new(seven.0, seven.1)?];
        Ok(CardRanking { keys, flush, sums })
    }

    /// The best-five rank code of `cards` (card indices), 5 to 7 distinct cards of the deck.
    #[inline]
    pub fn rank(&self, cards: &[u8]) -> Result<u32, RankingError> {
        if !(5..=7).contains(&cards.len()) {
            return Err(RankingError::Hand(format!("expected 5-7 cards, got {}", cards.len())));
        }
        let mut total = FLUSH_OFFSET;
        let mut seen = 0u64;
        for &card in cards {
            let key = self.keys.get(card as usize).copied().flatten()
                .ok_or_else(|| RankingError::Hand(format!("card index {card} is not in this deck")))?;
            if seen & (1 << card) != 0 {
                return Err(RankingError::Hand(format!("card index {card} twice")));
            }
            seen |= 1 << card;
            total += key;
        }
        let flushed = total & FLUSH_BITS;
        if flushed != 0 {
            // At most one suit can hold five of seven cards: its nibble's bit 3 says which.
            let suit = u64::from(flushed.trailing_zeros() / 4);
            let mask = cards.iter().filter(|&&card| u64::from(card & 3) == suit)
                .fold(0usize, |mask, &card| mask | 1 << (card >> 2));
            return Ok(self.flush[mask]);
        }
        let sum = u32::try_from(total >> RANK_SHIFT)
            .map_err(|_| RankingError::Hand("rank sum out of range".to_string()))?;
        self.sums[cards.len() - 5].get(sum)
            .ok_or_else(|| RankingError::Hand("no such rank multiset".to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy ranking over the standard keys in which every code is its rank sum: enough to
    /// check the lookups, the flush test and the refusals without Python's tables (the
    /// codes themselves are checked against the reference in the Python tests).
    fn toy() -> CardRanking {
        const RANK_KEYS: [i64; 13] = [0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349,
                                      636345, 1479181];
        let keys: Vec<i64> = (0..52).map(|i| RANK_KEYS[i / 4] << 16 | 1 << (4 * (i % 4))).collect();
        let flush: Vec<i64> = (0..8192i64).map(|m| if m.count_ones() >= 5 { 1_000_000 + m } else { 0 }).collect();
        let mut by_size: Vec<Vec<i64>> = vec![Vec::new(); 3];
        fn multisets(rank: usize, left: usize, sum: i64, size: usize, out: &mut Vec<Vec<i64>>) {
            if rank == 13 {
                if (5..=7).contains(&size) {
                    out[size - 5].push(sum);
                }
                return;
            }
            for count in 0..=4.min(left) {
                multisets(rank + 1, left - count, sum + count as i64 * RANK_KEYS[rank], size + count, out);
            }
        }
        multisets(0, 7, 0, 0, &mut by_size);
        let tables: Vec<(&[i64], &[i64])> = by_size.iter().map(|s| (&s[..], &s[..])).collect();
        CardRanking::new(&keys, &flush, [tables[0], tables[1], tables[2]]).unwrap()
    }

    #[test]
    fn a_hand_without_a_flush_is_looked_up_by_its_rank_sum() {
        // 2c 2d 3c 4h 5s: ranks 2, 2, 3, 4, 5 -> 0 + 0 + 1 + 5 + 22.
        assert_eq!(toy().rank(&[0, 1, 4, 10, 15]), Ok(28));
        // 2c 3c 4c 5d 6d 7d As: two suits of three, no flush; ranks 2..7 and the ace
        assert_eq!(toy().rank(&[0, 4, 8, 13, 17, 21, 51]), Ok(1 + 5 + 22 + 98 + 453 + 1_479_181));
    }

    #[test]
    fn a_flush_is_looked_up_by_its_suits_rank_mask() {
        // hearts 2, 4, 6, 8, T plus two clubs
        let cards = [2, 10, 18, 26, 34, 0, 4];
        assert_eq!(toy().rank(&cards), Ok(1_000_000 + 0b1_0101_0101));
    }

    #[test]
    fn what_is_not_five_to_seven_distinct_cards_of_the_deck_is_refused() {
        let ranking = toy();
        assert!(matches!(ranking.rank(&[0, 1, 2, 3]), Err(RankingError::Hand(_))));
        assert!(matches!(ranking.rank(&[0, 1, 2, 3, 4, 5, 6, 7]), Err(RankingError::Hand(_))));
        assert!(matches!(ranking.rank(&[0, 1, 2, 3, 3]), Err(RankingError::Hand(_))));
        assert!(matches!(ranking.rank(&[0, 1, 2, 3, 52]), Err(RankingError::Hand(_))));
        assert!(matches!(ranking.rank(&[0, 1, 2, 3, 255]), Err(RankingError::Hand(_))));
    }

    #[test]
    fn tables_of_the_wrong_shape_are_refused() {
        let sums = [1i64, 2];
        let codes = [1i64];
        assert!(matches!(SumTable::new(&sums, &codes), Err(RankingError::Tables(_))));
        assert!(matches!(SumTable::new(&[3, 3], &[1, 2]), Err(RankingError::Tables(_))));
        let table = SumTable::new(&[0, 7, 1 << 30], &[5, 6, 7]).unwrap();
        assert_eq!((table.get(0), table.get(7), table.get(1 << 30), table.get(8)),
                   (Some(5), Some(6), Some(7), None));
        let short = [0i64; 51];
        assert!(matches!(CardRanking::new(&short, &[0; 8192], [(&sums, &sums); 3]),
                         Err(RankingError::Tables(_))));
    }
}
