//! An event's `ts` as a closed hand keeps it: inline, not on the heap.
//!
//! Why: every event of every closed hand is decoded, and its `ts` as a `String` was one
//! allocation and one free an event (with the body's, a tenth of the core's work outside
//! SHA-256). The contract's timestamps are at most 35 bytes
//! (`YYYY-MM-DDTHH:MM:SS.fffffffff+00:00`), so one fits in the struct itself; a longer
//! text (none the contract accepts) is kept on the heap, as before.

use std::fmt;
use std::ops::Deref;

/// The longest timestamp the contract's pattern accepts.
pub const INLINE: usize = 35;

#[derive(Clone, PartialEq, Eq)]
pub enum Timestamp {
    Inline { len: u8, bytes: [u8; INLINE] },
    Long(Box<str>),
}

impl Timestamp {
    /// `head` followed by `tail` (a kept prefix and the stored rest).
    pub fn joined(head: &str, tail: &str) -> Timestamp {
        let len = head.len() + tail.len();
        if len > INLINE {
            return Timestamp::Long(format!("{head}{tail}").into_boxed_str());
        }
        let mut bytes = [0u8; INLINE];
        bytes[..head.len()].copy_from_slice(head.as_bytes());
        bytes[head.len()..len].copy_from_slice(tail.as_bytes());
        Timestamp::Inline { len: len as u8, bytes }
    }

    pub fn as_str(&self) -> &str {
        match self {
            // Two whole `str`s joined are UTF-8, so this never falls back.
            Timestamp::Inline { len, bytes } => std::str::from_utf8(&bytes[..*len as usize]).unwrap_or(""),
            Timestamp::Long(text) => text,
        }
    }
}

impl From<&str> for Timestamp {
    fn from(text: &str) -> Timestamp {
        Timestamp::joined(text, "")
    }
}

impl Deref for Timestamp {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<&str> for Timestamp {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_texts_read_back_as_they_were_joined() {
        let longest = "2026-01-05T18:00:57.123456789+00:00";
        assert_eq!(longest.len(), INLINE);
        for (head, tail) in [("", ""), ("2026-01-05T18:00:5", "7.728Z"), (longest, ""),
                             ("2026-01-05T18:00:57.123456789", "+00:00"),
                             (longest, "x"), ("é", "ü"), ("", longest)] {
            let ts = Timestamp::joined(head, tail);
            assert_eq!(ts.as_str(), format!("{head}{tail}"));
            assert_eq!(matches!(ts, Timestamp::Inline { .. }), head.len() + tail.len() <= INLINE);
        }
        assert_eq!(Timestamp::from("2026-01-05T18:00:57Z"), "2026-01-05T18:00:57Z");
    }
}
