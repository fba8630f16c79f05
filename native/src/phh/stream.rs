//! One imported table's event stream, as `services.importers.phh_table.ImportStream` writes it:
//! `seq` from 1, ids from `random.Random(table_id)` (`pyrandom`), one second per event
//! from 2026-01-05 18:00:00 UTC, each event's `prev_hash` the SHA-256 of the previous
//! event's canonical JSON, and each event written as the line `orjson.dumps(event)` gives
//! (members in the order they were built).

use super::pyrandom::PyRandom;
use crate::canonical;

/// A JSON value of an event the importer builds: members keep their order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum J {
    Null,
    Bool(bool),
    Int(i128),
    Str(String),
    /// A constant of the importer's (a kind, a source, "pot"): no allocation.
    Lit(&'static str),
    Arr(Vec<J>),
    Obj(Vec<(&'static str, J)>),
}

impl J {
    pub fn str(text: &str) -> J {
        J::Str(text.to_string())
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&J> {
        match self {
            J::Obj(members) => members.iter().find(|(k, _)| *k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Written as built (`sorted`: members by key, as the canonical form has them; the
    /// importer's keys are ASCII, so byte order is RFC 8785's order).
    fn write(&self, sorted: bool, out: &mut Vec<u8>) {
        match self {
            J::Null => out.extend_from_slice(b"null"),
            J::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            J::Int(i) => match i64::try_from(*i) {
                Ok(small) => canonical::write_int(small, out),
                Err(_) => out.extend_from_slice(i.to_string().as_bytes()),
            },
            J::Str(s) => canonical::write_str(s, out),
            J::Lit(s) => canonical::write_str(s, out),
            J::Arr(items) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    item.write(sorted, out);
                }
                out.push(b']');
            }
            J::Obj(members) => {
                let mut order: Vec<&(&'static str, J)> = members.iter().collect();
                if sorted {
                    order.sort_by_key(|(key, _)| *key);
                }
                out.push(b'{');
                for (i, (key, value)) in order.into_iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    canonical::write_str(key, out);
                    out.push(b':');
                    value.write(sorted, out);
                }
                out.push(b'}');
            }
        }
    }
}

/// Seconds from 1970-01-01 to 2026-01-05T18:00:00Z (`stream.DEFAULT_START`).
const START: i64 = 1_767_636_000;
const SOURCE: &str = "phh-import";
const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

pub struct Stream<'o> {
    table_id: String,
    rng: PyRandom,
    seq: i64,
    clock: i64,
    last_hash: Vec<u8>,
    scratch: Vec<u8>,
    out: &'o mut Vec<u8>,
    pub events: usize,
    id: Vec<u8>,
    ts: Vec<u8>,
    day: i64,
    day_text: String,
}

impl<'o> Stream<'o> {
    pub fn new(table_id: &str, out: &'o mut Vec<u8>) -> Stream<'o> {
        Stream { table_id: table_id.to_string(), rng: PyRandom::from_text(table_id), seq: 0,
                 clock: START, last_hash: GENESIS.as_bytes().to_vec(), scratch: Vec::new(), out, events: 0,
                 id: Vec::with_capacity(36), ts: Vec::with_capacity(24), day: -1,
                 day_text: String::new() }
    }

    /// A version-4 UUID from the stream's generator (`ImportStream._next_id`), its text
    /// into `self.id`.
    fn next_id(&mut self) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let keep = !((0xF000u128 << 64) | (0xC000u128 << 48));
        let bits = self.rng.bits128() & keep | (0x4000u128 << 64) | (0x8000u128 << 48);
        self.id.clear();
        for nibble in 0..32 {
            if matches!(nibble, 8 | 12 | 16 | 20) {
                self.id.push(b'-');
            }
            self.id.push(HEX[(bits >> (124 - 4 * nibble)) as usize & 15]);
        }
    }

    /// One second later on the simulated clock, as `ImportStream._tick` writes it, into
    /// `self.ts` (the date's text is made again only when the day changes).
    fn tick(&mut self) {
        self.clock += 1;
        let (days, seconds) = (self.clock.div_euclid(86_400), self.clock.rem_euclid(86_400));
        if days != self.day {
            let (year, month, day) = civil_from_days(days);
            self.day = days;
            self.day_text = format!("{year:04}-{month:02}-{day:02}T");
        }
        self.ts.clear();
        self.ts.extend_from_slice(self.day_text.as_bytes());
        for (i, part) in [seconds / 3600, seconds / 60 % 60, seconds % 60].into_iter().enumerate() {
            if i > 0 {
                self.ts.push(b':');
            }
            self.ts.push(b'0' + (part / 10) as u8);
            self.ts.push(b'0' + (part % 10) as u8);
        }
        self.ts.extend_from_slice(b".000Z");
    }

    /// Append one event (its line to the output) and chain the next to it. The canonical
    /// form is written with the envelope's members in key order (`data` ... `v`), the
    /// line in the order `ImportStream.emit` builds them.
    pub fn emit(&mut self, kind: &str, data: J, hand_id: Option<&str>) {
        self.seq += 1;
        self.next_id();
        self.tick();
        // The id, the time, the hashes, the type and the source are ASCII without a quote,
        // a backslash or a control character: written as they are (`raw`).
        let sorted = &mut self.scratch;
        sorted.clear();
        sorted.extend_from_slice(b"{\"data\":");
        data.write(true, sorted);
        raw(sorted, b",\"event_id\":", &self.id);
        sorted.extend_from_slice(b",\"hand_id\":");
        write_optional(hand_id, sorted);
        raw(sorted, b",\"prev_hash\":", &self.last_hash);
        sorted.extend_from_slice(b",\"seq\":");
        canonical::write_int(self.seq, sorted);
        raw(sorted, b",\"source\":", SOURCE.as_bytes());
        member(sorted, b",\"table_id\":", &self.table_id);
        raw(sorted, b",\"ts\":", &self.ts);
        raw(sorted, b",\"type\":", kind.as_bytes());
        sorted.extend_from_slice(b",\"v\":1}");
        let digest = canonical::sha256(sorted);
        let out = &mut *self.out;
        out.extend_from_slice(b"{\"v\":1");
        raw(out, b",\"event_id\":", &self.id);
        member(out, b",\"table_id\":", &self.table_id);
        out.extend_from_slice(b",\"seq\":");
        canonical::write_int(self.seq, out);
        raw(out, b",\"ts\":", &self.ts);
        raw(out, b",\"prev_hash\":", &self.last_hash);
        out.extend_from_slice(b",\"hand_id\":");
        write_optional(hand_id, out);
        raw(out, b",\"type\":", kind.as_bytes());
        raw(out, b",\"source\":", SOURCE.as_bytes());
        out.extend_from_slice(b",\"data\":");
        data.write(false, out);
        out.extend_from_slice(b"}\n");
        self.last_hash.clear();
        canonical::write_hex(&digest, &mut self.last_hash);
        self.events += 1;
    }
}

/// `,"key":"value"` for a value that needs no escaping (checked in debug builds).
fn raw(out: &mut Vec<u8>, key: &[u8], value: &[u8]) {
    debug_assert!(value.iter().all(|&b| b >= 0x20 && b != b'"' && b != b'\\'));
    out.extend_from_slice(key);
    out.push(b'"');
    out.extend_from_slice(value);
    out.push(b'"');
}

/// `,"key":"value"` (the key's bytes given with their comma and colon).
fn member(out: &mut Vec<u8>, key: &[u8], value: &str) {
    out.extend_from_slice(key);
    canonical::write_str(value, out);
}

fn write_optional(text: Option<&str>, out: &mut Vec<u8>) {
    match text {
        Some(text) => canonical::write_str(text, out),
        None => out.extend_from_slice(b"null"),
    }
}

/// (year, month, day) of a day count from 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_starts_at_pythons_default_and_crosses_months_and_years() {
        assert_eq!(civil_from_days(START / 86_400), (2026, 1, 5));
        assert_eq!(START % 86_400, 18 * 3600);
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // day counts and dates from Python's datetime
        assert_eq!(civil_from_days(20_512), (2026, 2, 28));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
        assert_eq!(civil_from_days(20_818), (2026, 12, 31));
        assert_eq!(civil_from_days(20_819), (2027, 1, 1));
        assert_eq!(civil_from_days(19_417), (2023, 3, 1));
    }

    #[test]
    fn a_line_keeps_the_built_order_and_the_hash_uses_sorted_keys() {
        let data = J::Obj(vec![("seat", J::Int(3)), ("amount", J::Int(-5)), ("kind", J::str("a\"b"))]);
        let (mut sorted, mut built) = (Vec::new(), Vec::new());
        data.write(true, &mut sorted);
        data.write(false, &mut built);
        assert_eq!(String::from_utf8(sorted).unwrap(), r#"{"amount":-5,"kind":"a\"b","seat":3}"#);
        assert_eq!(String::from_utf8(built).unwrap(), r#"{"seat":3,"amount":-5,"kind":"a\"b"}"#);
    }
}
