//! Hex digits eight at a time (SWAR: one 64-bit word holds eight ASCII bytes).
//!
//! Why: every record carries a 36-character event id and a 64-digit `prev_hash`, and a
//! table lookup per digit was about 800 instructions a record (8% of the core's work
//! outside SHA-256). A word of eight digits is checked and turned into four bytes with a
//! dozen word operations, with the same answers as the lookups: which bytes are hex
//! digits, their values, and which were upper-case letters.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `w` that lies in `lo..=hi`. Only meaningful when no byte
/// of `w` has its high bit set: then `c + (0x80 - lo)` and `c + (0x7f - hi)` stay below
/// 0x100 in every byte (no carry into the next), and their high bits say `c >= lo` and
/// `c > hi`.
#[inline]
fn in_range(w: u64, lo: u8, hi: u8) -> u64 {
    debug_assert!(lo >= 1 && hi < 0x80 && lo <= hi);
    let at_least_lo = w.wrapping_add(ONES * u64::from(0x80 - lo));
    let above_hi = w.wrapping_add(ONES * u64::from(0x7f - hi));
    at_least_lo & !above_hi & HIGH
}

/// Eight hex digits, the first in the word's low byte (`u64::from_le_bytes` of the
/// text): their four bytes (in text order) and a mask of the digits that were upper-case
/// letters (bit `i`: digit `i`), or None if any byte is not a hex digit.
#[inline]
pub fn digits8(w: u64) -> Option<([u8; 4], u8)> {
    if w & HIGH != 0 {
        return None;
    }
    let decimal = in_range(w, b'0', b'9');
    let lower = in_range(w, b'a', b'f');
    let upper = in_range(w, b'A', b'F');
    if decimal | lower | upper != HIGH {
        return None;
    }
    // A letter's low four bits are 1..6 for a..f (A..F): its value is those plus 9.
    let letters = (lower | upper) >> 7;
    let nibbles = (w & (ONES * 0x0f)) + letters * 9;
    // One bit a byte (0x01 in each upper-case byte) gathered into the top byte.
    let mask = ((upper >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    Some((pack_nibbles(nibbles), mask))
}

/// The little-endian word of `b[at..at + 8]`.
#[inline]
pub fn word(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// The word of two four-byte runs: `b[first..first + 4]` in the low half.
#[inline]
pub fn two_halves(b: &[u8], first: usize, second: usize) -> u64 {
    let mut w = [0u8; 8];
    w[..4].copy_from_slice(&b[first..first + 4]);
    w[4..].copy_from_slice(&b[second..second + 4]);
    u64::from_le_bytes(w)
}

/// The bytes of a 64-digit lower-case hex string (the Sha256 pattern `[0-9a-f]{64}`), or
/// None (an upper-case digit included).
pub fn lower_hex32(b: &[u8]) -> Option<[u8; 32]> {
    if b.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    let mut bad = 0u64;
    for (i, chunk) in out.chunks_exact_mut(4).enumerate() {
        let (bytes, not_digits) = lower8(word(b, 8 * i));
        bad |= not_digits;
        chunk.copy_from_slice(&bytes);
    }
    if bad != 0 {
        return None;
    }
    Some(out)
}

/// `digits8` for lower-case digits only, with no early exit: the four bytes, and a word
/// that is not zero if any byte is not one of `[0-9a-f]` (one test for a whole hash).
#[inline]
fn lower8(w: u64) -> ([u8; 4], u64) {
    let decimal = in_range(w, b'0', b'9');
    let lower = in_range(w, b'a', b'f');
    let not_digits = (w & HIGH) | ((decimal | lower) ^ HIGH);
    let nibbles = (w & (ONES * 0x0f)) + (lower >> 7) * 9;
    (pack_nibbles(nibbles), not_digits)
}

/// Eight nibbles, one a byte (the first in the low byte), as four bytes in text order
/// (the first nibble of each pair high): each pair into the low byte of its 16-bit lane,
/// then the four lanes' low bytes together.
#[inline]
fn pack_nibbles(nibbles: u64) -> [u8; 4] {
    let lanes = ((nibbles & 0x000f_000f_000f_000f) << 4) | ((nibbles >> 8) & 0x000f_000f_000f_000f);
    let pairs = (lanes | (lanes >> 8)) & 0x0000_ffff_0000_ffff;
    ((pairs | (pairs >> 16)) as u32).to_le_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `digits8` must say about one byte: its value and whether it is upper case.
    fn one_by_one(c: u8) -> Option<(u8, bool)> {
        match c {
            b'0'..=b'9' => Some((c - b'0', false)),
            b'a'..=b'f' => Some((c - b'a' + 10, false)),
            b'A'..=b'F' => Some((c - b'A' + 10, true)),
            _ => None,
        }
    }

    fn expected(text: &[u8; 8]) -> Option<([u8; 4], u8)> {
        let mut bytes = [0u8; 4];
        let mut mask = 0u8;
        for (i, &c) in text.iter().enumerate() {
            let (value, upper) = one_by_one(c)?;
            bytes[i / 2] |= if i % 2 == 0 { value << 4 } else { value };
            mask |= (upper as u8) << i;
        }
        Some((bytes, mask))
    }

    #[test]
    fn every_byte_in_every_position_reads_as_the_lookup_does() {
        for position in 0..8 {
            for c in 0..=255u8 {
                let mut text = *b"0a9FfA51";
                text[position] = c;
                assert_eq!(digits8(u64::from_le_bytes(text)), expected(&text),
                           "byte {c:#04x} at {position}");
            }
        }
    }

    #[test]
    fn neighbouring_bytes_do_not_disturb_each_other() {
        // Pairs of bytes around every range's edges, in every pair of adjacent positions.
        let edges = [b'/', b'0', b'9', b':', b'@', b'A', b'F', b'G', b'`', b'a', b'f', b'g',
                     0x00, 0x7f, 0x80, 0xff];
        for position in 0..7 {
            for &x in &edges {
                for &y in &edges {
                    let mut text = *b"12345678";
                    text[position] = x;
                    text[position + 1] = y;
                    assert_eq!(digits8(u64::from_le_bytes(text)), expected(&text));
                }
            }
        }
    }

    #[test]
    fn a_hash_reads_in_lower_case_only() {
        let text = b"f43c898d7d75ecbb58efdd28dc19033fdd8236e0780ee6ffd95154bd8ec37da7";
        let bytes = lower_hex32(text).unwrap();
        assert_eq!(bytes[0], 0xf4);
        assert_eq!(bytes[31], 0xa7);
        assert_eq!(bytes[11], 0x28);
        let mut upper = *text;
        upper[40] = b'E';
        assert_eq!(lower_hex32(&upper), None);
        assert_eq!(lower_hex32(&text[..63]), None);
    }
}
