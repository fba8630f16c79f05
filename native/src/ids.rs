//! Event ids kept compactly (the duplicate window and the open hands hold many).

use crate::hex;

/// An event id as kept: a UUID (the contract's pattern) as its 16 bytes, which hex digits
/// were upper case, and whether Python's `$` let a final newline through; any other text
/// as it is. Exact both ways, and 24 bytes instead of a 36-byte string on the heap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventId {
    Uuid { bytes: [u8; 16], upper: u32, newline: bool },
    Text(Box<str>),
}

impl EventId {
    pub fn parse(text: &str) -> EventId {
        let (body, newline) = match text.strip_suffix('\n') {
            Some(body) => (body, true),
            None => (text, false),
        };
        match EventId::parse_uuid(body.as_bytes()) {
            Some(EventId::Uuid { bytes, upper, .. }) => EventId::Uuid { bytes, upper, newline },
            _ => EventId::Text(text.into()),
        }
    }

    /// The 36 bytes of a UUID as the contract's pattern reads it (hex digits of either
    /// case, dashes at 8, 13, 18 and 23), or None. Its 32 digits are read as four words
    /// of eight (`hex::digits8`; every record's id comes here: a branch per character was
    /// 1,400 instructions a record, a table lookup per digit 480).
    pub fn parse_uuid(b: &[u8]) -> Option<EventId> {
        if b.len() != 36 || b[8] != b'-' || b[13] != b'-' || b[18] != b'-' || b[23] != b'-' {
            return None;
        }
        let words = [
            hex::word(b, 0),
            hex::two_halves(b, 9, 14),
            hex::two_halves(b, 19, 24),
            hex::word(b, 28),
        ];
        let mut bytes = [0u8; 16];
        let mut upper = 0u32;
        for (i, (w, out)) in words.iter().zip(bytes.chunks_exact_mut(4)).enumerate() {
            let (four, mask) = hex::digits8(*w)?;
            out.copy_from_slice(&four);
            upper |= u32::from(mask) << (8 * i);
        }
        Some(EventId::Uuid { bytes, upper, newline: false })
    }

    /// A 32-bit digest of the id (the window's prefilter; equal ids, equal digests). A
    /// UUID's 16 bytes are read as two words and mixed once (a byte-at-a-time FNV over
    /// them was a chain of 21 dependent multiplies, 4-5% of every record); the digest
    /// lives only in memory (a restored hand computes it again), so it may change.
    pub fn fingerprint(&self) -> u32 {
        match self {
            EventId::Uuid { bytes, upper, newline } => {
                let (low, high) = bytes.split_at(8);
                let word = |half: &[u8]| {
                    let mut w = [0u8; 8];
                    w.copy_from_slice(half);
                    u64::from_le_bytes(w)
                };
                let extra = (u64::from(*upper) << 1) | u64::from(*newline);
                let mixed = (word(low) ^ extra).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                    ^ word(high).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
                (mixed >> 32) as u32 ^ mixed as u32
            }
            EventId::Text(t) => {
                let mut h: u32 = 0x811c_9dc5;
                for b in t.bytes() {
                    h ^= b as u32;
                    h = h.wrapping_mul(0x0100_0193);
                }
                h
            }
        }
    }
}

/// Where each of a UUID's 16 bytes starts in its 36-character text (8-4-4-4-12 groups).
const BYTE_AT: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/// Each byte's two lower-case hex digits.
const HEX_PAIRS: [[u8; 2]; 256] = {
    let digits = b"0123456789abcdef";
    let mut pairs = [[0u8; 2]; 256];
    let mut i = 0;
    while i < 256 {
        pairs[i] = [digits[i >> 4], digits[i & 15]];
        i += 1;
    }
    pairs
};

/// A UUID's text: its 16 bytes as hex digits in the 8-4-4-4-12 groups, those `upper`
/// marks (bit n: the n-th digit) in upper case. Two digits a byte from one table: a branch
/// per digit was 1.5% of a run (every movement of every record names its event's id).
fn uuid_text(bytes: &[u8; 16], upper: u32) -> [u8; 36] {
    let mut text = [b'-'; 36];
    for (byte, &at) in bytes.iter().zip(BYTE_AT.iter()) {
        text[at..at + 2].copy_from_slice(&HEX_PAIRS[*byte as usize]);
    }
    if upper != 0 {
        for digit in 0..32 {
            if upper & (1 << digit) != 0 {
                let at = BYTE_AT[digit / 2] + digit % 2;
                text[at] = text[at].to_ascii_uppercase();
            }
        }
    }
    text
}

impl EventId {
    /// The id as a JSON string (canonical: a UUID needs no escape), appended to `out`.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            EventId::Text(t) => crate::canonical::write_str(t, out),
            EventId::Uuid { bytes, upper, newline: false } => {
                out.push(b'"');
                out.extend_from_slice(&uuid_text(bytes, *upper));
                out.push(b'"');
            }
            other => crate::canonical::write_str(&other.to_string(), out),
        }
    }
}

impl std::fmt::Display for EventId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EventId::Text(t) => f.write_str(t),
            EventId::Uuid { bytes, upper, newline } => {
                let text = uuid_text(bytes, *upper);
                f.write_str(std::str::from_utf8(&text).unwrap_or(""))?;
                if *newline {
                    f.write_str("\n")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two ids are equal exactly when the texts they were parsed from are.
    #[test]
    fn ids_are_equal_exactly_when_their_texts_are() {
        let base = "ccc25d82-38ce-47a9-89a9-9f0caf88a8ac";
        let mut texts = vec![base.to_string(), format!("{}\n", base), "x".to_string(), String::new()];
        for at in (0..36).filter(|i| !matches!(i, 8 | 13 | 18 | 23)) {
            for c in ['0', 'f', 'F', 'g'] {
                let mut t = base.to_string();
                t.replace_range(at..at + 1, &c.to_string());
                texts.push(t);
            }
        }
        let ids: Vec<EventId> = texts.iter().map(|t| EventId::parse(t)).collect();
        for (a, ta) in ids.iter().zip(&texts) {
            for (b, tb) in ids.iter().zip(&texts) {
                assert_eq!(a == b, ta == tb, "{:?} {:?}", ta, tb);
            }
        }
    }

    /// A UUID is taken exactly when each of its 32 digits is a hex digit of either case,
    /// and is written back as it came (the case of every digit kept).
    #[test]
    fn a_uuid_is_read_digit_by_digit_and_written_back_as_it_came() {
        let base = "ccc25d82-38ce-47a9-89a9-9f0caf88a8ac";
        for at in (0..36).filter(|i| !matches!(i, 8 | 13 | 18 | 23)) {
            for c in ['0', '9', 'a', 'f', 'A', 'F', '/', ':', '@', 'G', '`', 'g', '-', '\u{e9}'] {
                let mut t = base.to_string();
                t.replace_range(at..at + 1, &c.to_string());
                let hex_digit = c.is_ascii_hexdigit();
                match EventId::parse_uuid(t.as_bytes()) {
                    Some(id) => {
                        assert!(hex_digit, "{t:?} taken");
                        assert_eq!(id.to_string(), t);
                    }
                    None => assert!(!hex_digit, "{t:?} refused"),
                }
            }
        }
    }

    /// Every byte value at every place, digits of both cases: the JSON form is the text
    /// quoted, and the text is what was parsed.
    #[test]
    fn every_byte_at_every_place_is_written_back_in_both_forms() {
        for byte in 0..=255u8 {
            for place in 0..16 {
                let mut bytes = [0x5au8; 16];
                bytes[place] = byte;
                let hex: String = bytes.iter().map(|b| format!("{:02x}", b)).collect();
                let text = format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16],
                                   &hex[16..20], &hex[20..]);
                let mixed: String = text.chars().enumerate()
                    .map(|(i, c)| if (i + byte as usize) % 3 == 0 { c.to_ascii_uppercase() } else { c })
                    .collect();
                for t in [text.clone(), mixed, format!("{}\n", text)] {
                    let id = EventId::parse(&t);
                    assert!(matches!(id, EventId::Uuid { .. }), "{:?}", t);
                    assert_eq!(id.to_string(), t);
                    let mut json = Vec::new();
                    id.write_json(&mut json);
                    let mut expected = Vec::new();
                    crate::canonical::write_str(&t, &mut expected);
                    assert_eq!(json, expected, "{:?}", t);
                }
            }
        }
    }
}
