//! Event ids kept compactly (the duplicate window and the open hands hold many).

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
        let b = body.as_bytes();
        if b.len() != 36 {
            return EventId::Text(text.into());
        }
        if b[8] != b'-' || b[13] != b'-' || b[18] != b'-' || b[23] != b'-' {
            return EventId::Text(text.into());
        }
        // Table lookups and one test at the end (every record's id comes here).
        let hex = &crate::validate::HEX_VALUE;
        let mut bytes = [0u8; 16];
        let mut upper = 0u32;
        let mut bad = 0u8;
        let mut digit = 0usize;
        for (i, &c) in b.iter().enumerate() {
            if matches!(i, 8 | 13 | 18 | 23) {
                continue;
            }
            let value = hex[c as usize];
            bad |= value;
            upper |= ((b'A'..=b'F').contains(&c) as u32) << digit;
            bytes[digit / 2] |= if digit % 2 == 0 { value << 4 } else { value & 15 };
            digit += 1;
        }
        if bad & 0x80 != 0 {
            return EventId::Text(text.into());
        }
        EventId::Uuid { bytes, upper, newline }
    }

    /// A 32-bit digest of the id (the window's prefilter; equal ids, equal digests).
    pub fn fingerprint(&self) -> u32 {
        let mut h: u32 = 0x811c_9dc5;
        let mut eat = |b: u8| {
            h ^= b as u32;
            h = h.wrapping_mul(0x0100_0193);
        };
        match self {
            EventId::Uuid { bytes, upper, newline } => {
                bytes.iter().for_each(|&b| eat(b));
                upper.to_le_bytes().iter().for_each(|&b| eat(b));
                eat(*newline as u8);
            }
            EventId::Text(t) => t.bytes().for_each(&mut eat),
        }
        h
    }
}

impl EventId {
    /// The id as a JSON string (canonical: a UUID needs no escape), appended to `out`.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            EventId::Text(t) => crate::canonical::write_str(t, out),
            EventId::Uuid { bytes, upper, newline: false } => {
                // One fixed buffer, appended at once (every event of every closed hand).
                let mut text = [b'-'; 38];
                text[0] = b'"';
                text[37] = b'"';
                let mut at = 1;
                for digit in 0..32 {
                    if matches!(digit, 8 | 12 | 16 | 20) {
                        at += 1;
                    }
                    let byte = bytes[digit / 2];
                    let value = if digit % 2 == 0 { byte >> 4 } else { byte & 15 };
                    let c = b"0123456789abcdef"[value as usize];
                    text[at] = if upper & (1 << digit) != 0 { c.to_ascii_uppercase() } else { c };
                    at += 1;
                }
                out.extend_from_slice(&text);
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
                // One fixed buffer, written in place (the records' movements format an id
                // each: this is on the native rules' path).
                let mut out = [b'-'; 37];
                let mut at = 0;
                for digit in 0..32 {
                    if matches!(digit, 8 | 12 | 16 | 20) {
                        at += 1;
                    }
                    let byte = bytes[digit / 2];
                    let value = if digit % 2 == 0 { byte >> 4 } else { byte & 15 };
                    let c = b"0123456789abcdef"[value as usize];
                    out[at] = if upper & (1 << digit) != 0 { c.to_ascii_uppercase() } else { c };
                    at += 1;
                }
                out[36] = b'\n';
                let len = if *newline { 37 } else { 36 };
                f.write_str(std::str::from_utf8(&out[..len]).unwrap_or(""))
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
}
