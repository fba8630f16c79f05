//! Chinese Poker hand values (CP-2, CP-3, CP-7), the port of
//! `services/games/chinese/evaluation.py` and of what it uses of the standard evaluator
//! (`services/games/evaluation/{reference,rankcode,naming}.py`): the same rank code, so a
//! 3-card front and a 5-card segment compare as the reference compares them.
//!
//! `code = category << 20 | r0 << 16 | r1 << 12 | r2 << 8 | r3 << 4 | r4` with the ranks
//! (2..14) in order of significance and unused slots 0, lower than any rank: a 3-card hand
//! whose cards are all matched by a 5-card hand loses to it (CP-2). A straight stores its
//! top card, the ace-low straight A-2-3-4-5 stores 5 (the lowest straight, CP-3).

use crate::rules::Defer;

/// `STANDARD.categories`, worst first: a category's value is its index.
pub const CATEGORIES: [&str; 9] = [
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
    "four_of_a_kind", "straight_flush",
];
const HIGH_CARD: i64 = 0;
const ONE_PAIR: i64 = 1;
const TWO_PAIR: i64 = 2;
const THREE_OF_A_KIND: i64 = 3;
const STRAIGHT: i64 = 4;
const FLUSH: i64 = 5;
const FULL_HOUSE: i64 = 6;
const FOUR_OF_A_KIND: i64 = 7;
const STRAIGHT_FLUSH: i64 = 8;

/// CP-7's automatic wins, in the profile's order (`AUTO_WINS`).
pub const AUTO_WINS: [&str; 4] = ["dragon", "six_pairs", "three_flushes", "three_straights"];
pub const DRAGON: u8 = 0;
const SIX_PAIRS: u8 = 1;
const THREE_FLUSHES: u8 = 2;
const THREE_STRAIGHTS: u8 = 3;

/// CP-2: front, middle, back.
const SEGMENT_SIZES: [usize; 3] = [3, 5, 5];

/// (rank 2..14, suit 0..3 in c d h s) of a wire card such as `"As"` (its index among the
/// 52, `store::card_index`, is rank * 4 + suit in those orders).
pub fn card(c: &str) -> Result<(usize, usize), Defer> {
    match crate::store::card_index(c) {
        Some(i) => Ok((i / 4 + 2, i % 4)),
        None => Err(Defer("a card the evaluator does not know")),
    }
}

/// The cards as a set of the 52 (bit `store::card_index`), when each is a card and none
/// comes twice; None otherwise (the callers then compare the strings as the reference does).
pub fn distinct_mask<'a>(cards: impl IntoIterator<Item = &'a str>) -> Option<u64> {
    let mut mask = 0u64;
    for c in cards {
        let bit = 1u64 << crate::store::card_index(c)?;
        if mask & bit != 0 {
            return None;
        }
        mask |= bit;
    }
    Some(mask)
}

/// `rankcode.pack`.
fn pack(category: i64, ranks: &[usize]) -> i64 {
    let mut code = category;
    for slot in 0..5 {
        code = code << 4 | ranks.get(slot).map_or(0, |&r| r as i64);
    }
    code
}

/// Ranks grouped by multiplicity, then by rank, both descending (the order of
/// significance): `(ordered ranks, their counts, how many)`.
fn groups(counts: &[u8; 15]) -> ([usize; 5], [u8; 5], usize) {
    let mut g = [(0u8, 0usize); 5];
    let mut n = 0;
    for (r, &count) in counts.iter().enumerate().skip(2) {
        if count > 0 {
            g[n] = (count, r);
            n += 1;
        }
    }
    g[..n].sort_unstable_by(|a, b| b.cmp(a));
    let (mut ranks, mut shape) = ([0usize; 5], [0u8; 5]);
    for (i, &(c, r)) in g[..n].iter().enumerate() {
        ranks[i] = r;
        shape[i] = c;
    }
    (ranks, shape, n)
}

/// Distinct cards, each one of the 52: the reference raises on anything else (a hand that
/// then goes to the Python rules, which word the error).
fn check(cards: &[&str]) -> Result<Vec<(usize, usize)>, Defer> {
    let parsed = cards.iter().map(|c| card(c)).collect::<Result<Vec<_>, _>>()?;
    let mut seen = 0u64;
    for &(r, s) in &parsed {
        let bit = 1u64 << ((r - 2) * 4 + s);
        if seen & bit != 0 {
            return Err(Defer("a duplicate card in a segment"));
        }
        seen |= bit;
    }
    Ok(parsed)
}

/// `rank3` (CP-2): trips, pair or high card; straights and flushes do not count.
pub fn rank3(cards: &[&str]) -> Result<i64, Defer> {
    let parsed = check(cards)?;
    if parsed.len() != 3 {
        return Err(Defer("a front of other than 3 cards"));
    }
    let mut counts = [0u8; 15];
    for &(r, _) in &parsed {
        counts[r] += 1;
    }
    let (ordered, shape, n) = groups(&counts);
    let ordered = &ordered[..n];
    let category = match shape[0] {
        3 => THREE_OF_A_KIND,
        2 => ONE_PAIR,
        _ => HIGH_CARD,
    };
    Ok(pack(category, ordered))
}

/// `reference.rank5` under the standard ranking (what `standard.rank5` answers).
pub fn rank5(cards: &[&str]) -> Result<i64, Defer> {
    let parsed = check(cards)?;
    if parsed.len() != 5 {
        return Err(Defer("a segment of other than 5 cards"));
    }
    let mut counts = [0u8; 15];
    for &(r, _) in &parsed {
        counts[r] += 1;
    }
    let is_flush = parsed.iter().all(|&(_, s)| s == parsed[0].1);
    let (ordered, shape, n) = groups(&counts);
    let (ordered, shape) = (&ordered[..n], &shape[..n]);
    // `straight_top`: five distinct ranks, A-2-3-4-5 (top 5) or five in a row.
    let top = if ordered.len() == 5 {
        let (high, low) = (ordered[0], ordered[4]);
        if high == 14 && ordered[1] == 5 && low == 2 {
            Some(5)
        } else if high - low == 4 {
            Some(high)
        } else {
            None
        }
    } else {
        None
    };
    Ok(match (top, is_flush, shape) {
        (Some(t), true, _) => pack(STRAIGHT_FLUSH, &[t]),
        (_, _, [4, 1]) => pack(FOUR_OF_A_KIND, ordered),
        (_, _, [3, 2]) => pack(FULL_HOUSE, ordered),
        (_, true, _) => pack(FLUSH, ordered),
        (Some(t), false, _) => pack(STRAIGHT, &[t]),
        (_, _, [3, 1, 1]) => pack(THREE_OF_A_KIND, ordered),
        (_, _, [2, 2, 1]) => pack(TWO_PAIR, ordered),
        (_, _, [2, 1, 1, 1]) => pack(ONE_PAIR, ordered),
        _ => pack(HIGH_CARD, ordered),
    })
}

/// `segment_rank`: a front (3 cards) or a middle or back (5 cards).
pub fn segment_rank(cards: &[&str]) -> Result<i64, Defer> {
    match cards.len() {
        3 => rank3(cards),
        5 => rank5(cards),
        _ => Err(Defer("a segment of other than 3 or 5 cards")),
    }
}

/// The category's index in `CATEGORIES` (`category_of`).
pub fn category(code: i64) -> usize {
    ((code >> 20) as usize).min(CATEGORIES.len() - 1)
}

fn ranks_of(code: i64) -> Vec<usize> {
    (0..5).map(|i| (code >> (4 * (4 - i)) & 0xF) as usize).filter(|&r| r != 0).collect()
}

const RANK_NAMES: [&str; 15] = [
    "", "", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
    "queen", "king", "ace",
];

fn rank_name(r: usize) -> &'static str {
    RANK_NAMES.get(r).copied().unwrap_or("")
}

/// `rank_plural`: "sixes", "kings".
fn rank_plural(r: usize) -> String {
    let name = rank_name(r);
    format!("{}{}", name, if name.ends_with('x') { "es" } else { "s" })
}

/// `naming.describe` under the standard ranking: "Flush, king high", "Two pair, nines and
/// fours" (the words of a FOULED_HAND finding).
pub fn describe(code: i64) -> String {
    let ranks = ranks_of(code);
    let first = ranks.first().copied().unwrap_or(0);
    let second = ranks.get(1).copied().unwrap_or(0);
    match code >> 20 {
        STRAIGHT_FLUSH if first == 14 => "Royal flush".to_string(),
        STRAIGHT_FLUSH => format!("Straight flush, {} high", rank_name(first)),
        FOUR_OF_A_KIND => format!("Four of a kind, {}", rank_plural(first)),
        FULL_HOUSE => format!("Full house, {} over {}", rank_plural(first), rank_plural(second)),
        FLUSH => format!("Flush, {} high", rank_name(first)),
        STRAIGHT => format!("Straight, {} high", rank_name(first)),
        THREE_OF_A_KIND => format!("Three of a kind, {}", rank_plural(first)),
        TWO_PAIR => format!("Two pair, {} and {}", rank_plural(first), rank_plural(second)),
        ONE_PAIR => format!("One pair, {}", rank_plural(first)),
        _ => format!("High card, {}", rank_name(first)),
    }
}

/// `auto_wins`: the CP-7 automatic wins 13 cards make, however they were set (a bit per
/// `AUTO_WINS` entry). The reference raises on anything but 13 distinct cards: deferred.
pub fn auto_wins(cards: &[&str]) -> Result<u8, Defer> {
    let parsed = check(cards)?;
    if parsed.len() != 13 {
        return Err(Defer("an automatic win checked on other than 13 cards"));
    }
    let mut ranks = [0u8; 15];
    let mut suits = [0u8; 4];
    for &(r, s) in &parsed {
        ranks[r] += 1;
        suits[s] += 1;
    }
    let mut wins = 0u8;
    if ranks.iter().filter(|&&n| n > 0).count() == 13 {
        wins |= 1 << DRAGON;
    }
    // CP-7: four of a kind counts as two pairs; a count of n holds n / 2 disjoint pairs.
    if ranks.iter().map(|&n| n / 2).sum::<u8>() >= 6 {
        wins |= 1 << SIX_PAIRS;
    }
    if splits_into_flushes(&suits) {
        wins |= 1 << THREE_FLUSHES;
    }
    if splits_into_straights(&ranks) {
        wins |= 1 << THREE_STRAIGHTS;
    }
    Ok(wins)
}

/// `_splits_into_flushes`: a 3/5/5 split with every segment of one suit.
fn splits_into_flushes(suits: &[u8; 4]) -> bool {
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                let mut need = [0u8; 4];
                for (suit, size) in [a, b, c].into_iter().zip(SEGMENT_SIZES) {
                    need[suit] += size as u8;
                }
                if need == *suits {
                    return true;
                }
            }
        }
    }
    false
}

/// `_straight_windows`: rank runs of `length`, the ace high or low, never around the corner.
fn straight_windows(length: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = (2..16 - length).map(|low| (low..low + length).collect()).collect();
    let mut low_ace = vec![14];
    low_ace.extend(2..length + 1);
    out.push(low_ace);
    out
}

/// `_splits_into_straights`: three windows (3, 5, 5) whose rank counts add up to the hand's.
///
/// Each front and middle window is taken out of the hand's counts (a pair that does not
/// fit is passed over) and what is left must be a back window: the same answer as trying
/// all 1,200 triples, which cost 300,000 instructions a hand that passed the screen
/// (`may_hold_auto_win`), 11% of the Chinese Poker rules' instructions (callgrind).
fn splits_into_straights(ranks: &[u8; 15]) -> bool {
    let counts = |windows: Vec<Vec<usize>>| -> Vec<[u8; 15]> {
        windows.iter().map(|w| {
            let mut c = [0u8; 15];
            for &r in w {
                c[r] += 1;
            }
            c
        }).collect()
    };
    let fronts = counts(straight_windows(3));
    let fives = counts(straight_windows(5));
    let minus = |a: &[u8; 15], b: &[u8; 15]| -> Option<[u8; 15]> {
        let mut out = [0u8; 15];
        for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
            *o = x.checked_sub(*y)?;
        }
        Some(out)
    };
    fronts.iter().filter_map(|front| minus(ranks, front)).any(|rest| {
        fives.iter().filter_map(|middle| minus(&rest, middle)).any(|back| fives.contains(&back))
    })
}

/// `may_hold_auto_win`: the reference's fast screen before `auto_wins` (it decides nothing
/// by itself, but a hand it stops never reaches `auto_wins`, which may raise).
pub fn may_hold_auto_win(cards: &[&str]) -> Result<bool, Defer> {
    let mut ranks = [0u8; 15];
    let mut suits = [0usize; 4];
    for c in cards {
        let (r, s) = card(c)?;
        ranks[r] += 1;
        suits[s] += 1;
    }
    let distinct = ranks.iter().filter(|&&n| n > 0).count();
    if distinct == cards.len() || ranks.iter().map(|&n| n as usize / 2).sum::<usize>() >= 6 {
        return Ok(true);
    }
    if suits.iter().all(|n| [0, 3, 5, 8, 10, 13].contains(n)) {
        return Ok(true);
    }
    let aces = ranks[14];
    for low_aces in 0..=aces {
        let mut counts = ranks;
        counts[1] = low_aces;
        counts[14] = aces - low_aces;
        if peels_into_runs(&mut counts, &[3, 5, 5]) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `_peels_into_runs`: `counts[r]` cards of rank r (1 = low ace .. 14 = high ace) split
/// exactly into runs of the given lengths.
fn peels_into_runs(counts: &mut [u8; 15], lengths: &[usize]) -> bool {
    let low = (1..15).find(|&r| counts[r] > 0);
    let low = match low {
        Some(low) if !lengths.is_empty() => low,
        _ => return low.is_none() && lengths.is_empty(),
    };
    let mut distinct: Vec<usize> = lengths.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    for length in distinct {
        let last = low + length - 1;
        if last > 14 || counts[low..=last].contains(&0) {
            continue;
        }
        for count in &mut counts[low..=last] {
            *count -= 1;
        }
        let mut rest = lengths.to_vec();
        if let Some(at) = rest.iter().position(|&l| l == length) {
            rest.remove(at);
        }
        let found = peels_into_runs(counts, &rest);
        for count in &mut counts[low..=last] {
            *count += 1;
        }
        if found {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(cards: &str) -> Vec<&str> {
        cards.split(' ').collect()
    }

    fn r(cards: &str) -> i64 {
        let cards: Vec<&str> = cards.split(' ').collect();
        segment_rank(&cards).unwrap()
    }

    #[test]
    fn five_card_categories_order_as_the_reference() {
        // Worst to best, by hand: each beats the one before it.
        let ladder = [
            "2c 3d 4h 5s 7c", "Ac Kd Qh Js 9c", "2c 2d 3h 4s 5c", "Ac Ad Kh Qs Jc",
            "2c 2d 3h 3s 4c", "Ac Ad Kh Ks Qc", "2c 2d 2h 3s 4c", "Ac Ad Ah Ks Qc",
            "Ac 2d 3h 4s 5c", "2c 3d 4h 5s 6c", "Tc Jd Qh Ks Ac", "2c 3c 4c 5c 7c",
            "Ac Kc Qc Jc 9c", "2c 2d 2h 3s 3c", "Ac Ad Ah Ks Kc", "2c 2d 2h 2s 3c",
            "Ac Ad Ah As Kc", "Ac 2c 3c 4c 5c", "2c 3c 4c 5c 6c", "Tc Jc Qc Kc Ac",
        ];
        for pair in ladder.windows(2) {
            assert!(r(pair[0]) < r(pair[1]), "{} vs {}", pair[0], pair[1]);
        }
        // Suits never break a tie; kickers do.
        assert_eq!(r("Ac Kd Qh Js 9c"), r("As Kh Qd Jc 9s"));
        assert!(r("Ac Ad Kh Qs Jc") > r("Ac Ad Kh Qs Tc"));
        assert_eq!(r("Ac 2d 3h 4s 5c"), 4 << 20 | 5 << 16);
        assert_eq!(r("2c 2d 3h 3s 4c"), 2 << 20 | 3 << 16 | 2 << 12 | 4 << 8);
    }

    #[test]
    fn a_front_compares_with_five_card_segments_as_cp_2_says() {
        // Three of a kind in front, no straight or flush there.
        assert_eq!(r("2c 3c 4c"), 4 << 16 | 3 << 12 | 2 << 8);
        assert_eq!(r("Qc Qd 5h"), 1 << 20 | 12 << 16 | 5 << 12);
        // A front pair of queens with a five loses to the middle's queens with more kickers.
        assert!(r("Qc Qd 5h") < r("Qh Qs 5d 3c 2c"));
        assert!(r("Qc Qd 6h") > r("Qh Qs 5d 4c 3c"));
        assert!(r("7c 7d 7h") > r("Ah Ad Kc Ks Qc"));
        assert!(r("7c 7d 7h") < r("8h 8d 8c 2s 3c"));
        assert_eq!(describe(r("2c 3c 4c")), "High card, four");
        assert_eq!(describe(r("6c 6d 6h 9c 9d")), "Full house, sixes over nines");
        assert_eq!(describe(r("Tc Jc Qc Kc Ac")), "Royal flush");
        assert_eq!(describe(r("Ac 2d 3h 4s 5c")), "Straight, five high");
    }

    #[test]
    fn automatic_wins_by_hand() {
        let dragon = split("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc");
        assert_eq!(auto_wins(&dragon).unwrap(), 1 << DRAGON | 1 << THREE_STRAIGHTS);
        let pairs = split("2c 2d 3h 3s 4c 4d 5h 5s 6c 6d 7h 7s Ac");
        assert_eq!(auto_wins(&pairs).unwrap() & 1 << SIX_PAIRS, 1 << SIX_PAIRS);
        let flushes = split("2c 5c 9c 2d 4d 6d 8d Td 3h 7h 9h Jh Kh");
        assert_eq!(auto_wins(&flushes).unwrap(), 1 << THREE_FLUSHES);
        // 3/5/5 runs: A-2-3, 4-8, 9-K.
        let runs = split("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc");
        assert!(may_hold_auto_win(&runs).unwrap());
        let none = split("2c 2d 5h 7s 9c Jd Kh As 3c 8d Th Qs 4c");
        assert_eq!(auto_wins(&none).unwrap(), 0);
    }

    #[test]
    fn straights_split_as_every_triple_of_windows_says() {
        let windows = |n| straight_windows(n);
        let every_triple = |ranks: &[u8; 15]| windows(3).iter().any(|f| windows(5).iter().any(|m| {
            windows(5).iter().any(|b| {
                let mut need = [0u8; 15];
                f.iter().chain(m).chain(b).for_each(|&r| need[r] += 1);
                need == *ranks
            })
        }));
        // Every sum of three windows, and each with one rank moved up or down.
        let mut cases = 0;
        for f in windows(3) {
            for m in windows(5) {
                for b in windows(5) {
                    let mut ranks = [0u8; 15];
                    f.iter().chain(&m).chain(&b).for_each(|&r| ranks[r] += 1);
                    assert!(splits_into_straights(&ranks));
                    for from in 2..15 {
                        for to in [from - 1, from + 1] {
                            if ranks[from] > 0 && (2..15).contains(&to) {
                                let mut other = ranks;
                                other[from] -= 1;
                                other[to] += 1;
                                assert_eq!(splits_into_straights(&other), every_triple(&other), "{:?}", other);
                                cases += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(cases > 1000);
    }
}
