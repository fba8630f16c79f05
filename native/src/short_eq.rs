//! Equality of short byte strings without a call to `memcmp`.
//!
//! Why: the names and values the core compares per event (member names of a body, event
//! type tags, table / hand / source ids, cards) are 2 to 20 bytes long, and `==` on slices
//! of a length known only at run time is a call to libc's `memcmp` (plus its dispatch),
//! which cost more than the comparison: `memcmp` was 2.6% of a Chinese Poker run's CPU
//! (perf, 10,000 hands), called from `Value::get`, `schema::event_index`, `Same::of` and
//! the Chinese Poker reading's card compares. Here a string of up to 16 bytes is compared
//! as two (overlapping) words from its two ends, and a longer one by `==` as before.

/// `a == b`, inlined for strings of at most 16 bytes. `inline(always)`: a plain `#[inline]`
/// left it a call from the rules' `Value::get` in some builds (thin LTO's partitions move
/// with unrelated edits), 3 million instructions more on 300 Russian hands (callgrind).
#[inline(always)]
pub fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n >= 8 {
        if n > 16 {
            return a == b;
        }
        // The first eight bytes and the last eight (overlapping when n < 16).
        return word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8);
    }
    if n >= 4 {
        return word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4);
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// `a == b` for text (`same` on its bytes).
#[inline(always)]
pub fn same_str(a: &str, b: &str) -> bool {
    same(a.as_bytes(), b.as_bytes())
}

#[inline]
fn word8(s: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&s[at..at + 8]);
    u64::from_ne_bytes(w)
}

#[inline]
fn word4(s: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&s[at..at + 4]);
    u32::from_ne_bytes(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_slice_equality_at_every_length_and_difference() {
        for n in 0..40usize {
            let a: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(37).wrapping_add(1)).collect();
            assert!(same(&a, &a.clone()));
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!same(&a, &b), "n {} at {}", n, at);
            }
            assert!(!same(&a, &a[..n.saturating_sub(1)]) || n == 0);
            let mut longer = a.clone();
            longer.push(0);
            assert!(!same(&a, &longer));
        }
        assert!(same_str("8d", "8d") && !same_str("8d", "8h") && !same_str("Td", "T"));
    }
}
