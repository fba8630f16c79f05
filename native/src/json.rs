//! A strict JSON parser (RFC 8259) into a small tree, written for the intake path.
//!
//! Why not serde_json: intake must make exactly the accept/reject decision of the Python
//! reference (msgspec + orjson), and the canonical hash must be computed over the members
//! *as received*. A parser of our own keeps every decision explicit: repeated keys are
//! reported (the contract rejects them), nesting is bounded (no stack overflow on hostile
//! input), a number is an `Int` only when it is written as an integer that fits `i64`,
//! and strings are borrowed from the input unless they carry escapes.
//!
//! Any error here is a rejection; the Python reference supplies the wording.

use std::borrow::Cow;

/// `services/events/bounds.py` MAX_NESTING_DEPTH: objects and arrays nest at most this
/// deep, the record itself being level 1 (a valid v1 event nests four levels at most).
/// The reference decides it on the bytes before parsing; for a document that parses,
/// that depth is this parser's, and one that does not parse is refused either way.
pub const MAX_DEPTH: usize = 8;

/// Bytes a string scan must stop at: the closing quote, an escape, a control character;
/// with `PRINTABLE`, also DEL and every byte above ASCII.
const fn stop_table(printable: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = b < 0x20 || b == b'"' as usize || b == b'\\' as usize || (printable && b >= 0x7f);
        b += 1;
    }
    table
}

static STOPS: [[bool; 256]; 2] = [stop_table(false), stop_table(true)];

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Bytes of `word` that are zero, as their high bits: exact for the lowest such byte (a
/// borrow can only mark bytes above it).
fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word & HIGH
}

/// How many leading bytes of `bytes` a string scan can skip, eight at a time: none is
/// `"`, `\` or a control character, and with `PRINTABLE` none is DEL or above ASCII
/// either (the one-pass reader writes such a string as it is; JSON's own string scan
/// takes any UTF-8). Of the bytes a word marks, the lowest is exact: a borrow or a high
/// bit only ever marks bytes above a marked one.
pub fn scan_plain<const PRINTABLE: bool>(bytes: &[u8]) -> usize {
    let mut at = 0;
    while at + 8 <= bytes.len() {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        let w = u64::from_le_bytes(word);
        let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
        let mut special = zero_bytes(w ^ (ONES * b'"' as u64))
            | zero_bytes(w ^ (ONES * b'\\' as u64))
            | below_space;
        if PRINTABLE {
            special |= zero_bytes(w ^ (ONES * 0x7f)) | (w & HIGH);
        }
        if special != 0 {
            return at + (special.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    let stops = &STOPS[PRINTABLE as usize];
    at + bytes[at..].iter().position(|&b| stops[b as usize]).unwrap_or(bytes.len() - at)
}

/// JSON's string scan: everything up to a quote, an escape or a control character.
pub fn plain_prefix(bytes: &[u8]) -> usize {
    scan_plain::<false>(bytes)
}

/// Whether every byte is below 0x7f (ASCII without DEL), eight at a time.
pub fn below_del(bytes: &[u8]) -> bool {
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        if w & HIGH != 0 || zero_bytes(w ^ (ONES * 0x7f)) != 0 {
            return false;
        }
    }
    chunks.remainder().iter().all(|&b| b < 0x7f)
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    /// An integer literal (no fraction, no exponent) that fits `i64`; `-0` is `Int(0)`.
    Int(i64),
    /// Any other number: a fraction, an exponent, or an integer beyond `i64`, however large
    /// (`1e400` is JSON: the reference, whose parser cannot read it, reads it tamed and
    /// refuses it by the schema too). The contract has no field that accepts one.
    OtherNumber,
    Str(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    /// Members in the order received (repeated keys are a parse error).
    Object(Vec<(Cow<'a, str>, Value<'a>)>),
}

impl<'a> Value<'a> {
    /// The value of member `key` of an object.
    #[inline]
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        match self {
            Value::Object(members) => members.iter().find(|(k, _)| crate::short_eq::same_str(k, key)).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// A copy that borrows nothing (for values kept beyond the input buffer).
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Int(i) => Value::Int(i),
            Value::OtherNumber => Value::OtherNumber,
            Value::Str(s) => Value::Str(Cow::Owned(s.into_owned())),
            Value::Array(items) => Value::Array(items.into_iter().map(Value::into_owned).collect()),
            Value::Object(members) => Value::Object(
                members
                    .into_iter()
                    .map(|(k, v)| (Cow::Owned(k.into_owned()), v.into_owned()))
                    .collect(),
            ),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonError {
    NotUtf8,
    Syntax(usize),
    TooDeep,
    RepeatedKey,
}

/// Parse one whole JSON document (surrounding whitespace allowed, nothing else).
pub fn parse(input: &[u8]) -> Result<Value<'_>, JsonError> {
    let text = std::str::from_utf8(input).map_err(|_| JsonError::NotUtf8)?;
    let mut parser = Parser { text, bytes: input, pos: 0 };
    parser.skip_ws();
    let value = parser.value(0)?;
    parser.skip_ws();
    if parser.pos != input.len() {
        return Err(JsonError::Syntax(parser.pos));
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn err<T>(&self) -> Result<T, JsonError> {
        Err(JsonError::Syntax(self.pos))
    }

    fn skip_ws(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            if b == b' ' || b == b'\t' || b == b'\n' || b == b'\r' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn value(&mut self, depth: usize) -> Result<Value<'a>, JsonError> {
        let mut value = Value::Null;
        self.value_into(depth, &mut value)?;
        Ok(value)
    }

    /// Parse a value into `slot` (a member's or an item's place in its container): the
    /// value is written where it stays, not returned on the stack and copied into the
    /// vector (that copy read back what the callee had just stored piecewise, a
    /// store-forwarding stall that was a quarter of the parser's time).
    fn value_into(&mut self, depth: usize, slot: &mut Value<'a>) -> Result<(), JsonError> {
        *slot = match self.peek() {
            Some(b'{') => return self.object(depth + 1, slot),
            Some(b'[') => return self.array(depth + 1, slot),
            Some(b'"') => Value::Str(self.string()?),
            Some(b't') => self.literal(b"true", Value::Bool(true))?,
            Some(b'f') => self.literal(b"false", Value::Bool(false))?,
            Some(b'n') => self.literal(b"null", Value::Null)?,
            Some(b'-') | Some(b'0'..=b'9') => self.number()?,
            _ => return self.err(),
        };
        Ok(())
    }

    fn literal(&mut self, word: &[u8], value: Value<'a>) -> Result<Value<'a>, JsonError> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(value)
        } else {
            self.err()
        }
    }

    fn object(&mut self, depth: usize, slot: &mut Value<'a>) -> Result<(), JsonError> {
        if depth > MAX_DEPTH {
            return Err(JsonError::TooDeep);
        }
        self.pos += 1; // '{'
        let mut members: Vec<(Cow<'a, str>, Value<'a>)> = Vec::with_capacity(10);
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            *slot = Value::Object(members);
            return Ok(());
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return self.err();
            }
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return self.err();
            }
            self.pos += 1;
            self.skip_ws();
            members.push((key, Value::Null));
            let last = members.len() - 1;
            let (before, member) = members.split_at_mut(last);
            self.value_into(depth, &mut member[0].1)?;
            if before.iter().any(|(k, _)| *k == member[0].0) {
                return Err(JsonError::RepeatedKey);
            }
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    *slot = Value::Object(members);
                    return Ok(());
                }
                _ => return self.err(),
            }
        }
    }

    fn array(&mut self, depth: usize, slot: &mut Value<'a>) -> Result<(), JsonError> {
        if depth > MAX_DEPTH {
            return Err(JsonError::TooDeep);
        }
        self.pos += 1; // '['
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            *slot = Value::Array(items);
            return Ok(());
        }
        loop {
            self.skip_ws();
            items.push(Value::Null);
            let last = items.len() - 1;
            self.value_into(depth, &mut items[last])?;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    *slot = Value::Array(items);
                    return Ok(());
                }
                _ => return self.err(),
            }
        }
    }

    fn number(&mut self) -> Result<Value<'a>, JsonError> {
        let start = self.pos;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                while matches!(self.peek(), Some(b'0'..=b'9')) {
                    self.pos += 1;
                }
            }
            _ => return self.err(),
        }
        let int_end = self.pos;
        let mut integral = true;
        if self.peek() == Some(b'.') {
            integral = false;
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return self.err();
            }
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.pos += 1;
            }
        }
        if matches!(self.peek(), Some(b'e') | Some(b'E')) {
            integral = false;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+') | Some(b'-')) {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return self.err();
            }
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.pos += 1;
            }
        }
        if !integral {
            return Ok(Value::OtherNumber);
        }
        match self.text[start..int_end].parse::<i64>() {
            Ok(i) => Ok(Value::Int(i)),
            Err(_) => Ok(Value::OtherNumber),
        }
    }

    /// A string starting at the opening quote; borrowed when it has no escape.
    fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        self.pos += 1; // '"'
        let start = self.pos;
        // The usual string has no byte that needs a decision: skip those in one loop.
        self.pos += plain_prefix(&self.bytes[self.pos..]);
        loop {
            match self.peek() {
                None => return self.err(),
                Some(b'"') => {
                    let s = &self.text[start..self.pos];
                    self.pos += 1;
                    return Ok(Cow::Borrowed(s));
                }
                Some(b'\\') => break,
                Some(b) if b < 0x20 => return self.err(),
                Some(_) => self.pos += 1,
            }
        }
        let mut out = String::from(&self.text[start..self.pos]);
        loop {
            match self.peek() {
                None => return self.err(),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let escaped = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.pos += 1;
                            let c = self.unicode_escape()?;
                            out.push(c);
                            continue;
                        }
                        _ => return self.err(),
                    };
                    self.pos += 1;
                    out.push(escaped);
                }
                Some(b) if b < 0x20 => return self.err(),
                Some(_) => {
                    // Copy one whole UTF-8 character (the input is valid UTF-8).
                    let ch = self.text[self.pos..].chars().next().ok_or(JsonError::Syntax(self.pos))?;
                    out.push(ch);
                    self.pos += ch.len_utf8();
                }
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self.bytes.get(self.pos..self.pos + 4).ok_or(JsonError::Syntax(self.pos))?;
        let mut value = 0u32;
        for &d in digits {
            let nibble = (d as char).to_digit(16).ok_or(JsonError::Syntax(self.pos))?;
            value = value * 16 + nibble;
        }
        self.pos += 4;
        Ok(value)
    }

    /// After `\u`: one code point, joining a surrogate pair; a lone surrogate is an error
    /// (orjson rejects it, so the reference does).
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let first = self.hex4()?;
        if (0xDC00..0xE000).contains(&first) {
            return self.err();
        }
        if (0xD800..0xDC00).contains(&first) {
            if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u") {
                return self.err();
            }
            self.pos += 2;
            let second = self.hex4()?;
            if !(0xDC00..0xE000).contains(&second) {
                return self.err();
            }
            let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
            return char::from_u32(code).ok_or(JsonError::Syntax(self.pos));
        }
        char::from_u32(first).ok_or(JsonError::Syntax(self.pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_an_object_in_order() {
        let v = parse(br#" {"b": [1, -0, 2.5, true, null], "a": "x\u00e9\ud83d\ude00"} "#).unwrap();
        let members = match v {
            Value::Object(members) => members,
            _ => panic!("not an object"),
        };
        assert_eq!(members[0].0, "b");
        assert_eq!(
            members[0].1,
            Value::Array(vec![
                Value::Int(1),
                Value::Int(0),
                Value::OtherNumber,
                Value::Bool(true),
                Value::Null
            ])
        );
        assert_eq!(members[1].1, Value::Str(Cow::Borrowed("xé😀")));
    }

    #[test]
    fn rejects_what_orjson_rejects() {
        for bad in [
            &b"{\"a\":1,}"[..],
            b"{\"a\" 1}",
            b"[1 2]",
            b"\xef\xbb\xbf{}",
            b"{\"a\":\"\x01\"}",
            b"{\"a\":\"\\ud800\"}",
            b"{\"a\":\"\\udc00x\"}",
            b"{\"a\":01}",
            b"{\"a\":1.}",
            b"{\"a\":NaN}",
            b"{} {}",
            b"\"\xff\"",
        ] {
            assert!(parse(bad).is_err(), "accepted {:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn the_word_scans_agree_with_the_byte_scans() {
        let specials = [b'"', b'\\', 0, 0x1f, 0x0a, 0x7f, 0x80, 0xc3, 0xff];
        let plain = [b' ', b'a', 0x7f, 0x80, 0xff, b'!', b'#', b'[', b'~'];
        for len in 0..20 {
            for at in 0..=len {
                for &s in specials.iter() {
                    for &p in plain.iter() {
                        let mut bytes = vec![p; len];
                        if at < len {
                            bytes[at] = s;
                        }
                        let control = |b: u8| b < 0x20 || b == b'"' || b == b'\\';
                        let want = bytes.iter().position(|&b| control(b)).unwrap_or(len);
                        assert_eq!(plain_prefix(&bytes), want, "{:?}", bytes);
                        let printable = bytes.iter().position(|&b| control(b) || b >= 0x7f);
                        assert_eq!(scan_plain::<true>(&bytes), printable.unwrap_or(len), "{:?}", bytes);
                        assert_eq!(below_del(&bytes), bytes.iter().all(|&b| b < 0x7f), "{:?}", bytes);
                    }
                }
            }
        }
    }

    #[test]
    fn big_integers_are_not_ints() {
        assert_eq!(parse(b"9223372036854775808").unwrap(), Value::OtherNumber);
        assert_eq!(parse(b"-9223372036854775808").unwrap(), Value::Int(i64::MIN));
        assert_eq!(parse(b"1e2").unwrap(), Value::OtherNumber);
    }

    #[test]
    fn repeated_keys_and_depth_are_reported() {
        assert_eq!(parse(br#"{"a":1,"a":1}"#), Err(JsonError::RepeatedKey));
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(parse(deep.as_bytes()), Err(JsonError::TooDeep));
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(ok.as_bytes()).is_ok());
    }
}
