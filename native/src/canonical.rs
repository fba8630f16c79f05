//! RFC 8785 canonical JSON and the SHA-256 of an event (events.md, `prev_hash`).
//!
//! For the values a valid v1 event holds (integers inside the IEEE-754 safe range, strings,
//! booleans, null, arrays, objects) RFC 8785 is: members sorted by their keys' UTF-16
//! code units, no insignificant whitespace, integers in plain decimal, strings with only
//! `"`, `\` and the control characters escaped (`\b \t \n \f \r`, others `\u00xx` in lower
//! case), everything else written literally as UTF-8. The Python reference
//! (`services/events/canonical.py`: orjson with sorted keys, `rfc8785` for non-ASCII
//! keys) writes the same bytes; the differential tests compare the hashes.

use crate::json::Value;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::cmp::Ordering;

/// Canonical JSON of `value`, appended to `out`.
pub fn write(value: &Value<'_>, out: &mut Vec<u8>) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Int(i) => write_int(*i, out),
        // Never in a valid event (validation admits integers only); written as zero so
        // the function stays total.
        Value::OtherNumber => out.push(b'0'),
        Value::Str(s) => write_str(s, out),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write(item, out);
            }
            out.push(b']');
        }
        Value::Object(members) => {
            let mut order: Vec<&(Cow<'_, str>, Value<'_>)> = members.iter().collect();
            order.sort_by(|a, b| utf16_order(&a.0, &b.0));
            out.push(b'{');
            for (i, (key, item)) in order.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_str(key, out);
                out.push(b':');
                write(item, out);
            }
            out.push(b'}');
        }
    }
}

/// Canonical JSON of a tree whose objects are usually in canonical order already (as
/// `store` keeps them): an object is sorted only when it is not.
pub fn write_kept(value: &Value<'_>, out: &mut Vec<u8>) {
    match value {
        Value::Object(members)
            if members.windows(2).all(|w| utf16_order(&w[0].0, &w[1].0) == Ordering::Less) =>
        {
            out.push(b'{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_str(key, out);
                out.push(b':');
                write_kept(item, out);
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_kept(item, out);
            }
            out.push(b']');
        }
        _ => write(value, out),
    }
}

/// RFC 8785's member order: by UTF-16 code units (equal to byte order for ASCII).
pub fn utf16_order(a: &str, b: &str) -> Ordering {
    if a.is_ascii() && b.is_ascii() {
        return a.as_bytes().cmp(b.as_bytes());
    }
    a.encode_utf16().cmp(b.encode_utf16())
}

pub fn write_int(i: i64, out: &mut Vec<u8>) {
    let mut buffer = [0u8; 20];
    let mut n = i.unsigned_abs();
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if i < 0 {
        out.push(b'-');
    }
    out.extend_from_slice(&buffer[at..]);
}

pub fn write_str(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    let bytes = s.as_bytes();
    // Nothing to escape (the usual string): scanned eight bytes at a time, for the same
    // set of bytes (`"`, `\`, below 0x20) the parser stops at.
    if crate::json::plain_prefix(bytes) == bytes.len() {
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x08 => b"\\b",
            0x09 => b"\\t",
            0x0a => b"\\n",
            0x0c => b"\\f",
            0x0d => b"\\r",
            0..=0x1f => {
                out.extend_from_slice(&bytes[start..i]);
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[(b >> 4) as usize]);
                out.push(HEX[(b & 15) as usize]);
                start = i + 1;
                continue;
            }
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        out.extend_from_slice(escape);
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    let digest = Sha256::digest(bytes);
    let mut out = [0u8; 32];
    out.copy_from_slice(&digest);
    out
}

/// SHA-256 of the canonical JSON of `value`; `scratch` is reused between calls.
pub fn hash(value: &Value<'_>, scratch: &mut Vec<u8>) -> [u8; 32] {
    scratch.clear();
    write(value, scratch);
    sha256(scratch)
}

/// Lower-case hex of `bytes`, appended to `out`.
pub fn write_hex(bytes: &[u8], out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    // Reserved once, then written in place: a push per digit checked the capacity 64
    // times for each prev_hash of every re-hashed event.
    let start = out.len();
    out.resize(start + bytes.len() * 2, 0);
    for (pair, &b) in out[start..].chunks_exact_mut(2).zip(bytes) {
        pair[0] = HEX[(b >> 4) as usize];
        pair[1] = HEX[(b & 15) as usize];
    }
}

pub fn hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(HEX[(b >> 4) as usize] as char);
        out.push(HEX[(b & 15) as usize] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn canonical(raw: &str) -> String {
        let mut out = Vec::new();
        write(&parse(raw.as_bytes()).unwrap(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn sorts_and_compacts() {
        assert_eq!(canonical(r#"{ "b": [1, -0, -12], "a": {"z": null, "y": true} }"#),
                   r#"{"a":{"y":true,"z":null},"b":[1,0,-12]}"#);
    }

    #[test]
    fn escapes_like_rfc8785() {
        assert_eq!(canonical(r#""a\"b\\c\/d\u0001\b\t\n\f\r\u001f\u007f é\u2028""#),
                   "\"a\\\"b\\\\c/d\\u0001\\b\\t\\n\\f\\r\\u001f\u{7f} é\u{2028}\"");
    }

    #[test]
    fn utf16_order_differs_from_code_points_above_the_bmp() {
        // U+FF61 sorts before U+1F600 by code point, after it by UTF-16 (0xD83D < 0xFF61).
        assert_eq!(utf16_order("\u{1F600}", "\u{FF61}"), Ordering::Less);
        assert_eq!(canonical("{\"\u{FF61}\":1,\"\u{1F600}\":2}"), "{\"\u{1F600}\":2,\"\u{FF61}\":1}");
    }

    #[test]
    fn sha256_of_abc() {
        assert_eq!(hex(&sha256(b"abc")),
                   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
