//! Validation of one parsed record against the v1 contract (`schema`).
//!
//! The decision must equal msgspec's (the reference, `services/events/contract.py`):
//! strict types (no coercion: `1.0`, `true` and `"1"` are not integers), unknown members
//! rejected, required members present, integer bounds, string lengths in code points and
//! the patterns as Python's `re` reads them (`$` also matches before one final newline).
//! Where an exact decision would need Unicode tables the reference has and this crate
//! has not (a non-ASCII character where the timestamp pattern's `\d` is read), the
//! verdict is `Defer`: the caller asks the reference, rarely and off the hot path.

use crate::canonical;
use crate::ids::EventId;
use crate::json::Value;
use crate::schema::{self, EventType, Kind, Pattern, StructSchema, EVENT_TYPES};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Valid,
    /// Certainly invalid: the reference rejects it too (and words the reason).
    Invalid,
    /// Valid as far as this crate can tell; the reference decides.
    Defer,
}

impl Verdict {
    fn and(self, other: Verdict) -> Verdict {
        match (self, other) {
            (Verdict::Invalid, _) | (_, Verdict::Invalid) => Verdict::Invalid,
            (Verdict::Defer, _) | (_, Verdict::Defer) => Verdict::Defer,
            _ => Verdict::Valid,
        }
    }
}

/// A valid event: its envelope's fields, borrowed from the record, and its body in one
/// of two forms. One struct for both, so the envelope's fields are declared once.
#[derive(Debug)]
pub struct Accepted<'v, Body> {
    pub type_index: u8,
    pub event_type: &'static EventType,
    pub event_id: &'v str,
    /// `event_id`, parsed once.
    pub id: EventId,
    pub table_id: &'v str,
    pub seq: i64,
    pub ts: &'v str,
    pub prev_hash: [u8; 32],
    /// Python's `$` let one final newline through the pattern: the string is then not
    /// equal to any hash (the reference compares strings), though its bytes are.
    pub prev_hash_newline: bool,
    pub hand_id: Option<&'v str>,
    pub source: &'v str,
    pub body: Body,
}

/// The envelope of a valid event with its body as the parsed tree (what validation reads).
pub type Envelope<'v> = Accepted<'v, &'v Value<'v>>;

/// A valid event as the tables take it (`table::TableState::apply`): the body already in
/// the compact form the open hand keeps (`store::encode_struct`), so no tree is needed
/// once the record is accepted. The one-pass intake (`fast`) writes it while it reads the
/// record; a record that goes through the tree gets it from `Envelope::event`.
pub type Event<'v> = Accepted<'v, &'v [u8]>;

impl<'v> Envelope<'v> {
    /// The event as the tables take it: this envelope with its body in the compact form
    /// `store::encode_struct` writes (`body`).
    pub fn event<'b>(&self, body: &'b [u8]) -> Event<'b>
    where
        'v: 'b,
    {
        Accepted {
            type_index: self.type_index,
            event_type: self.event_type,
            event_id: self.event_id,
            id: self.id.clone(),
            table_id: self.table_id,
            seq: self.seq,
            ts: self.ts,
            prev_hash: self.prev_hash,
            prev_hash_newline: self.prev_hash_newline,
            hand_id: self.hand_id,
            source: self.source,
            body,
        }
    }
}

impl<Body> Accepted<'_, Body> {
    /// `event.prev_hash == hex(hash)` as the reference compares it (strings).
    pub fn prev_hash_is(&self, hash: &[u8; 32]) -> bool {
        !self.prev_hash_newline && self.prev_hash == *hash
    }
}

impl Event<'_> {
    /// The body as a tree (the rare paths that read its members: table-level events).
    pub fn data(&self) -> Value<'static> {
        crate::store::Reader::new(self.body).read_struct(self.event_type.body)
    }
}

/// The envelope's members in RFC 8785 order (the order the canonical JSON writes them).
const ENVELOPE_KEYS: [&str; 10] =
    ["data", "event_id", "hand_id", "prev_hash", "seq", "source", "table_id", "ts", "type", "v"];
const DATA: usize = 0;
const TYPE: usize = 8;
const V: usize = 9;

const UUID: Kind = Kind::Str { min: 0, max: usize::MAX, pattern: Pattern::Uuid };
const NON_EMPTY: Kind = Kind::Str { min: 1, max: schema::MAX_NAME_LENGTH, pattern: Pattern::None };
const TIMESTAMP: Kind = Kind::Str { min: 0, max: usize::MAX, pattern: Pattern::Timestamp };
const SHA256: Kind = Kind::Str { min: 0, max: usize::MAX, pattern: Pattern::Sha256 };
const SEQ: Kind = Kind::Int { min: 1, max: schema::MAX_SAFE };
const NULLABLE_NON_EMPTY: Kind = Kind::Nullable(&NON_EMPTY);
/// The kinds of the envelope members other than `data`, `type` and `v`, by slot.
const ENVELOPE_KINDS: [&Kind; 10] = [
    &NON_EMPTY, &UUID, &NULLABLE_NON_EMPTY, &SHA256, &SEQ, &NON_EMPTY, &NON_EMPTY, &TIMESTAMP,
    &NON_EMPTY, &NON_EMPTY,
];

/// The slot of an envelope member in ENVELOPE_KEYS (one `match`: the compiler tests the
/// length first, not ten string comparisons per member).
pub(crate) fn envelope_slot(key: &str) -> Option<usize> {
    Some(match key {
        "data" => 0,
        "event_id" => 1,
        "hand_id" => 2,
        "prev_hash" => 3,
        "seq" => 4,
        "source" => 5,
        "table_id" => 6,
        "ts" => 7,
        "type" => 8,
        "v" => 9,
        _ => return None,
    })
}

/// Validate a whole record and write its canonical JSON (RFC 8785) to `out` in the same
/// pass; `Ok` carries the envelope and the verdict (`Valid` or `Defer`).
pub fn validate<'v>(root: &'v Value<'v>, out: &mut Vec<u8>) -> Result<(Envelope<'v>, Verdict), Verdict> {
    out.clear();
    let members = match root {
        Value::Object(members) => members,
        _ => return Err(Verdict::Invalid),
    };
    let mut slots: [Option<&'v Value<'v>>; 10] = [None; 10];
    for (key, value) in members.iter() {
        let at = envelope_slot(key).ok_or(Verdict::Invalid)?;
        slots[at] = Some(value);
    }
    let mut present: [&'v Value<'v>; 10] = [&Value::Null; 10];
    for (at, slot) in slots.iter().enumerate() {
        present[at] = slot.ok_or(Verdict::Invalid)?;
    }
    let type_index = present[TYPE].as_str().and_then(schema::event_index).ok_or(Verdict::Invalid)?;
    let event_type = &EVENT_TYPES[type_index as usize];
    if !matches!(present[V], Value::Int(1)) {
        return Err(Verdict::Invalid);
    }
    let mut verdict = Verdict::Valid;
    out.push(b'{');
    for (at, key) in ENVELOPE_KEYS.iter().enumerate() {
        if at > 0 {
            out.push(b',');
        }
        out.push(b'"');
        out.extend_from_slice(key.as_bytes());
        out.extend_from_slice(b"\":");
        verdict = verdict.and(match at {
            DATA => check_struct_write(present[DATA], event_type.body, out),
            TYPE => {
                canonical::write_str(event_type.tag, out);
                Verdict::Valid
            }
            V => {
                out.push(b'1');
                Verdict::Valid
            }
            _ => check_write(present[at], ENVELOPE_KINDS[at], out),
        });
        if verdict == Verdict::Invalid {
            return Err(verdict);
        }
    }
    out.push(b'}');
    let prev_text = present[3].as_str().unwrap_or("");
    let prev_hash_newline = prev_text.ends_with('\n');
    let prev_hash = hex32(prev_text.strip_suffix('\n').unwrap_or(prev_text)).ok_or(Verdict::Invalid)?;
    let envelope = Envelope {
        type_index,
        event_type,
        event_id: present[1].as_str().unwrap_or(""),
        id: EventId::parse(present[1].as_str().unwrap_or("")),
        table_id: present[6].as_str().unwrap_or(""),
        seq: present[4].as_int().unwrap_or(0),
        ts: present[7].as_str().unwrap_or(""),
        prev_hash,
        prev_hash_newline,
        hand_id: present[2].as_str(),
        source: present[5].as_str().unwrap_or(""),
        body: present[DATA],
    };
    Ok((envelope, verdict))
}

/// Binary form of a 64-digit lowercase hex string.
pub fn hex32(text: &str) -> Option<[u8; 32]> {
    let bytes = text.as_bytes();
    if bytes.len() != 64 {
        return None;
    }
    // A table lookup per digit and one test for the whole string (every prev_hash of
    // every record comes here: branches per digit were 7% of the core's time).
    let mut out = [0u8; 32];
    let mut bad = 0u8;
    for (o, pair) in out.iter_mut().zip(bytes.chunks_exact(2)) {
        let (high, low) = (HEX_VALUE[pair[0] as usize], HEX_VALUE[pair[1] as usize]);
        bad |= high | low;
        *o = (high << 4) | (low & 15);
    }
    if bad & 0x80 != 0 {
        return None;
    }
    Some(out)
}

/// The value of a hex digit (either case), 0x80 for any other byte.
pub static HEX_VALUE: [u8; 256] = {
    let mut table = [0x80u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            c @ b'A'..=b'F' => c - b'A' + 10,
            _ => 0x80,
        };
        b += 1;
    }
    table
};

/// Whether every byte is a lower-case hex digit (the Sha256 pattern's `[0-9a-f]`).
fn all_lower_hex(bytes: &[u8]) -> bool {
    let mut bad = 0u8;
    for &b in bytes {
        bad |= HEX_VALUE[b as usize] | ((b'A'..=b'F').contains(&b) as u8 * 0x80);
    }
    bad & 0x80 == 0
}

/// At most this many fields in one struct of the contract (Limits has 10).
const MAX_FIELDS: usize = 12;

/// The members of an object in the order of the schema's fields (None: absent), or None
/// when a member is unknown or a required one is missing.
pub fn slots<'a, 'v>(value: &'a Value<'v>, schema: &StructSchema) -> Option<[Option<&'a Value<'v>>; MAX_FIELDS]> {
    let members = match value {
        Value::Object(members) => members,
        _ => return None,
    };
    let mut slots: [Option<&'a Value<'v>>; MAX_FIELDS] = [None; MAX_FIELDS];
    for (key, v) in members.iter() {
        let at = schema.fields.iter().position(|f| f.json == key.as_ref())?;
        slots[at] = Some(v);
    }
    for (field, slot) in schema.fields.iter().zip(slots.iter()) {
        if field.required && slot.is_none() {
            return None;
        }
    }
    Some(slots)
}

pub fn check_struct(value: &Value<'_>, schema: &StructSchema) -> Verdict {
    let mut scratch = Vec::new();
    check_struct_write(value, schema, &mut scratch)
}

/// Check a body and write it canonically: the schema's fields are in RFC 8785 order
/// (`schema` keeps them sorted; a test checks it), so no sorting happens here.
fn check_struct_write(value: &Value<'_>, schema: &StructSchema, out: &mut Vec<u8>) -> Verdict {
    let slots = match slots(value, schema) {
        Some(slots) => slots,
        None => return Verdict::Invalid,
    };
    let mut verdict = Verdict::Valid;
    out.push(b'{');
    let mut first = true;
    for (field, slot) in schema.fields.iter().zip(slots.iter()) {
        if let Some(v) = slot {
            if !first {
                out.push(b',');
            }
            first = false;
            out.push(b'"');
            out.extend_from_slice(field.json.as_bytes());
            out.extend_from_slice(b"\":");
            verdict = verdict.and(check_write(v, &field.kind, out));
            if verdict == Verdict::Invalid {
                return verdict;
            }
        }
    }
    out.push(b'}');
    verdict
}

pub fn check(value: &Value<'_>, kind: &Kind) -> Verdict {
    let mut scratch = Vec::new();
    check_write(value, kind, &mut scratch)
}

fn check_write(value: &Value<'_>, kind: &Kind, out: &mut Vec<u8>) -> Verdict {
    if let (Kind::Str { min, max, pattern }, Value::Str(s)) = (kind, value) {
        // The usual string is printable ASCII without a quote or a backslash: no control
        // character, its length is its byte count, and it is written as it is.
        // A string borrowed from the record had no escape, and the parser refuses raw
        // control characters and has checked for quotes and backslashes: below DEL it
        // is printable ASCII.
        let b = s.as_bytes();
        let plain = match s {
            std::borrow::Cow::Borrowed(_) => crate::json::below_del(b),
            std::borrow::Cow::Owned(_) => {
                b.iter().all(|&c| (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\')
            }
        };
        if plain {
            if b.len() < *min || b.len() > *max || check_pattern(s, *pattern) == Verdict::Invalid {
                return Verdict::Invalid;
            }
            out.push(b'"');
            out.extend_from_slice(b);
            out.push(b'"');
            return Verdict::Valid;
        }
    }
    let verdict = match (kind, value) {
        (Kind::Str { min, max, pattern }, Value::Str(s)) => check_str(s, *min, *max, *pattern),
        (Kind::Int { min, max }, Value::Int(i)) => ok(min <= i && i <= max),
        (Kind::Bool, Value::Bool(_)) => Verdict::Valid,
        (Kind::Lit(values), Value::Str(s)) => ok(values.contains(&s.as_ref())),
        (Kind::LitInt(values), Value::Int(i)) => ok(values.contains(i)),
        (Kind::Nullable(_), Value::Null) => Verdict::Valid,
        (Kind::Nullable(inner), v) => return check_write(v, inner, out),
        (Kind::List(inner, max), Value::Array(items)) => {
            if items.len() > *max {
                return Verdict::Invalid;
            }
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                if check_write(item, inner, out) == Verdict::Invalid {
                    return Verdict::Invalid;
                }
            }
            out.push(b']');
            return Verdict::Valid;
        }
        (Kind::Struct(s), v) => return check_struct_write(v, s, out),
        (Kind::PayTables, Value::Object(tables)) => {
            let chips = Kind::Int { min: 0, max: schema::MAX_SAFE };
            let key_ok = |k: &str| {
                check_str(k, 1, schema::MAX_PAYTABLE_KEY_LENGTH, Pattern::None) == Verdict::Valid
            };
            if tables.len() > schema::MAX_PAYTABLES {
                return Verdict::Invalid;
            }
            for (name, table) in tables.iter() {
                match table {
                    Value::Object(entries) if key_ok(name) && entries.len() <= schema::MAX_PAYTABLE_ROWS => {
                        if entries.iter().any(|(k, v)| !key_ok(k) || check(v, &chips) != Verdict::Valid) {
                            return Verdict::Invalid;
                        }
                    }
                    _ => return Verdict::Invalid,
                }
            }
            Verdict::Valid
        }
        (Kind::SeatOrLit(_), Value::Int(i)) => ok((1..=64).contains(i)),
        (Kind::SeatOrLit(values), Value::Str(s)) => ok(values.contains(&s.as_ref())),
        _ => Verdict::Invalid,
    };
    if verdict != Verdict::Invalid {
        canonical::write(value, out);
    }
    verdict
}

fn ok(condition: bool) -> Verdict {
    if condition {
        Verdict::Valid
    } else {
        Verdict::Invalid
    }
}

/// Unicode category Cc (U+0000-U+001F, U+007F-U+009F): refused in every string
/// (`services/events/wire.py`: strings are one line of text).
fn has_control(s: &str) -> bool {
    if s.is_ascii() {
        return s.bytes().any(|b| b < 0x20 || b == 0x7f);
    }
    s.chars().any(|c| (c as u32) < 0x20 || (0x7f..=0x9f).contains(&(c as u32)))
}

fn check_str(s: &str, min: usize, max: usize, pattern: Pattern) -> Verdict {
    if has_control(s) {
        return Verdict::Invalid;
    }
    if min > 0 || max != usize::MAX {
        let length = if s.is_ascii() { s.len() } else { s.chars().count() };
        if length < min || length > max {
            return Verdict::Invalid;
        }
    }
    check_pattern(s, pattern)
}

pub(crate) fn check_pattern(s: &str, pattern: Pattern) -> Verdict {
    if pattern == Pattern::None {
        return Verdict::Valid;
    }
    // Python's `$` (without MULTILINE) matches at the end or before a final newline (a
    // newline is refused as a control character before this is asked).
    let body = s.strip_suffix('\n').unwrap_or(s);
    match pattern {
        Pattern::None => Verdict::Valid,
        Pattern::Card => ok(is_card(body.as_bytes())),
        Pattern::Uuid => ok(is_uuid(body.as_bytes())),
        Pattern::Sha256 => ok(body.len() == 64 && all_lower_hex(body.as_bytes())),
        Pattern::Timestamp => ok(is_timestamp(body.as_bytes())),
        Pattern::CardPlace => ok(matches!(body, "board" | "stub" | "burn") || is_seat_ref(body)),
        Pattern::PayoutSource => {
            ok(matches!(body, "designated" | "house" | "pot") || is_seat_ref(body))
        }
        Pattern::CollectionTo => ok(matches!(body, "designated" | "house") || is_seat_ref(body)),
    }
}

pub fn is_card(b: &[u8]) -> bool {
    b.len() == 2
        && matches!(b[0], b'2'..=b'9' | b'T' | b'J' | b'Q' | b'K' | b'A')
        && matches!(b[1], b'c' | b'd' | b'h' | b's')
}

fn is_uuid(b: &[u8]) -> bool {
    if b.len() != 36 || b[8] != b'-' || b[13] != b'-' || b[18] != b'-' || b[23] != b'-' {
        return false;
    }
    let mut bad = 0u8;
    for (i, &c) in b.iter().enumerate() {
        if !matches!(i, 8 | 13 | 18 | 23) {
            bad |= HEX_VALUE[c as usize];
        }
    }
    bad & 0x80 == 0
}

/// `seat:[1-9][0-9]?`
fn is_seat_ref(s: &str) -> bool {
    matches!(
        s.strip_prefix("seat:").map(str::as_bytes),
        Some([b'1'..=b'9']) | Some([b'1'..=b'9', b'0'..=b'9'])
    )
}

/// `services/events/timestamps.py`: TIMESTAMP_PATTERN
/// (`^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,9})?(Z|\+00:00)$`)
/// and `timestamp_problem` (no year 0000; the day exists in its month, Gregorian).
pub fn is_timestamp(b: &[u8]) -> bool {
    if b.len() < 20 || !b.is_ascii() {
        return false;
    }
    let digits = |range: std::ops::Range<usize>| b[range].iter().all(u8::is_ascii_digit);
    let number = |range: std::ops::Range<usize>| {
        b[range].iter().fold(0u32, |n, &d| n * 10 + (d - b'0') as u32)
    };
    let shape = digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19);
    if !shape {
        return false;
    }
    let mut rest = &b[19..];
    if rest.first() == Some(&b'.') {
        let n = rest[1..].iter().take_while(|d| d.is_ascii_digit()).count();
        if n == 0 || n > 9 {
            return false;
        }
        rest = &rest[1 + n..];
    }
    if rest != b"Z" && rest != b"+00:00" {
        return false;
    }
    let (year, month, day) = (number(0..4), number(5..7), number(8..10));
    let (hour, minute, second) = (number(11..13), number(14..16), number(17..19));
    if !(1..=12).contains(&month) || day < 1 || hour > 23 || minute > 59 || second > 59 {
        return false;
    }
    year != 0 && day <= days_in_month(year, month)
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn card_dealt(extra: &str) -> String {
        format!(
            r#"{{"v":1,"event_id":"ccc25d82-38ce-47a9-89a9-9f0caf88a8ac","table_id":"T001","seq":13,"ts":"2026-01-05T18:00:57.728Z","prev_hash":"183c3f3b4dc20863d6ea07926a6921d1b5dff71e37518e81fb1ba80f69a9263b","hand_id":"T001-000001","type":"card_dealt","source":"dealer-terminal","data":{{"to":"seat","seat":2,"card":"8d","face_up":false{}}}}}"#,
            extra
        )
    }

    #[test]
    fn envelope_slots_are_the_positions_in_envelope_keys() {
        for (at, key) in ENVELOPE_KEYS.iter().enumerate() {
            assert_eq!(envelope_slot(key), Some(at));
        }
        for other in ["", "Data", "data ", "type\n", "prev_hash2", "vv"] {
            assert_eq!(envelope_slot(other), None);
        }
    }

    /// Every ASCII byte and a two-byte character at each position of a valid hex string,
    /// a UUID and an event id: the table-driven scans agree with the plain definitions.
    #[test]
    fn the_table_driven_scans_agree_with_the_plain_definitions() {
        let plain_hex = |t: &str| -> Option<[u8; 32]> {
            let b = t.as_bytes();
            if b.len() != 64 || !b.iter().all(u8::is_ascii_hexdigit) {
                return None;
            }
            let mut out = [0u8; 32];
            for (i, pair) in b.chunks_exact(2).enumerate() {
                out[i] = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
            }
            Some(out)
        };
        let lower = |t: &str| t.len() == 64 && t.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        let uuid = |t: &str| {
            t.len() == 36
                && t.bytes().enumerate().all(|(i, c)| match i {
                    8 | 13 | 18 | 23 => c == b'-',
                    _ => c.is_ascii_hexdigit(),
                })
        };
        let hash = "183c3f3b4dc20863d6ea07926a6921d1b5dff71e37518e81fb1ba80f69a9263b";
        let id = "ccc25d82-38ce-47a9-89a9-9f0caf88a8ac";
        let mut replacements: Vec<String> = (0u8..128).map(|b| (b as char).to_string()).collect();
        replacements.push("\u{e9}".to_string());
        for r in &replacements {
            for at in 0..64 {
                let mut t = hash.to_string();
                t.replace_range(at..at + 1, r);
                assert_eq!(hex32(&t), plain_hex(&t), "{:?}", t);
                assert_eq!(check_pattern(&t, Pattern::Sha256) == Verdict::Valid, lower(&t), "{:?}", t);
                if at < 36 {
                    let mut u = id.to_string();
                    u.replace_range(at..at + 1, r);
                    assert_eq!(is_uuid(u.as_bytes()), uuid(&u), "{:?}", u);
                    let parsed = EventId::parse(&u);
                    assert_eq!(matches!(parsed, EventId::Uuid { .. }), uuid(&u), "{:?}", u);
                    assert_eq!(parsed.to_string(), u, "{:?}", u);
                    let mut json = Vec::new();
                    parsed.write_json(&mut json);
                    let mut want = Vec::new();
                    canonical::write_str(&u, &mut want);
                    assert_eq!(json, want, "{:?}", u);
                }
            }
        }
        assert_eq!(hex32(&hash.to_uppercase()), plain_hex(hash));
        assert_eq!(check_pattern(&hash.to_uppercase(), Pattern::Sha256), Verdict::Invalid);
    }

    fn verdict(raw: &str) -> Verdict {
        let tree = parse(raw.as_bytes()).expect("json");
        match validate(&tree, &mut Vec::new()) {
            Ok((_, v)) => v,
            Err(v) => v,
        }
    }

    #[test]
    fn a_valid_card_dealt() {
        assert_eq!(verdict(&card_dealt("")), Verdict::Valid);
        let raw = card_dealt("");
        let tree = parse(raw.as_bytes()).unwrap();
        let (env, _) = validate(&tree, &mut Vec::new()).unwrap();
        assert_eq!(env.seq, 13);
        assert_eq!(env.event_type.tag, "card_dealt");
        assert_eq!(env.hand_id, Some("T001-000001"));
    }

    #[test]
    fn unknown_and_mistyped_members_are_invalid() {
        assert_eq!(verdict(&card_dealt(r#","colour":"red""#)), Verdict::Invalid);
        assert_eq!(verdict(&card_dealt("").replace(r#""seq":13"#, r#""seq":13.0"#)), Verdict::Invalid);
        assert_eq!(verdict(&card_dealt("").replace(r#""v":1"#, r#""v":true"#)), Verdict::Invalid);
        assert_eq!(verdict(&card_dealt("").replace(r#""8d""#, r#""1d""#)), Verdict::Invalid);
        assert_eq!(verdict(&card_dealt("").replace(r#""seat":2"#, r#""seat":65"#)), Verdict::Invalid);
    }

    #[test]
    fn control_characters_are_refused_even_where_a_pattern_would_pass() {
        // Python's `$` matches before a final newline; the contract refuses the newline.
        assert_eq!(verdict(&card_dealt("").replace(r#""8d""#, r#""8d\n""#)), Verdict::Invalid);
        assert_eq!(verdict(&card_dealt("").replace(".728Z", ".728Z\\n")), Verdict::Invalid);
        assert_eq!(verdict(&card_dealt("").replace("dealer-terminal", "dealer\\u0085")), Verdict::Invalid);
        assert_eq!(verdict(&card_dealt("").replace("dealer-terminal", "dealer\u{7f}")), Verdict::Invalid);
        assert_eq!(verdict(&card_dealt("").replace("dealer-terminal", "dealer\u{a0}é")), Verdict::Valid);
    }

    #[test]
    fn timestamps() {
        for good in ["2026-01-05T18:00:57Z", "2026-01-05T18:00:57.123456789+00:00",
                     "2024-02-29T23:59:59Z", "2000-02-29T00:00:00Z", "0001-01-01T00:00:00Z"] {
            assert!(is_timestamp(good.as_bytes()), "{}", good);
        }
        for bad in ["2026-01-05T18:00:57", "2026-01-05T18:00:57.Z", "2026-01-05T18:00:57.1234567890Z",
                    "2026-01-05 18:00:57Z", "2026-01-05T18:00:57+01:00", "2026-02-29T00:00:00Z",
                    "1900-02-29T00:00:00Z", "0000-01-01T00:00:00Z", "2026-13-01T00:00:00Z",
                    "2026-04-31T00:00:00Z", "2026-01-00T00:00:00Z", "2026-01-05T24:00:00Z",
                    "2026-01-05T23:60:00Z", "2026-01-05T23:59:60Z"] {
            assert!(!is_timestamp(bad.as_bytes()), "{}", bad);
        }
        let arabic = card_dealt("").replace("2026", "\u{662}\u{660}\u{662}\u{666}");
        assert_eq!(verdict(&arabic), Verdict::Invalid);
    }

    #[test]
    fn seat_refs() {
        assert!(is_seat_ref("seat:1") && is_seat_ref("seat:64") && is_seat_ref("seat:99"));
        assert!(!is_seat_ref("seat:0") && !is_seat_ref("seat:100") && !is_seat_ref("seat:"));
    }
}
