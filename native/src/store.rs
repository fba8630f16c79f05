//! Compact storage of the events of an open hand.
//!
//! Why: 10,000 open tables must fit in 100 MB (architecture.md), and an open HCF hand is
//! ~26 KB of JSON. An event is kept as bytes driven by the contract's schema: a literal is
//! its index, a card one byte, an integer a varint, a member's presence one byte, the
//! fields every event of the hand repeats (table, hand, source) a marker, the timestamp
//! only where it differs from the previous one, and `prev_hash` a marker when it is the
//! hash of the previous event kept (the usual case: hashes are recomputed, not stored,
//! when the hand closes). `decode` gives back a tree equal to the one validated, member
//! for member, so the recomputed hashes and the structs built from it are exact.

use crate::json::Value;
use crate::timestamp::Timestamp;
use crate::schema::{Kind, Pattern, StructSchema, EVENT_TYPES};
use crate::short_eq::same_str;
pub use crate::ids::EventId;
use crate::validate::{is_card, Event as Envelope};
use std::borrow::Cow;

const RANKS: &[u8; 13] = b"23456789TJQKA";
const SUITS: &[u8; 4] = b"cdhs";

/// Make room for `need` more elements when there is less, growing by `step` elements or
/// an eighth (whichever is more) rather than doubling: an open hand's buffers are most of
/// what a table holds, and doubling left up to half of them unused (10,000 open tables
/// must fit in 100 MB). `need` is what the caller writes next, `step` how far ahead to
/// grow: asking for a whole step as the need reallocated at every push.
pub fn grow_gently<T>(buffer: &mut Vec<T>, need: usize, step: usize) {
    if buffer.capacity() - buffer.len() < need {
        buffer.reserve_exact(need.max(step).max(buffer.len() / 8));
    }
}

pub fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

pub fn zigzag(i: i64) -> u64 {
    ((i << 1) ^ (i >> 63)) as u64
}

fn unzigzag(n: u64) -> i64 {
    ((n >> 1) as i64) ^ -((n & 1) as i64)
}

pub fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

pub fn put_event_id(out: &mut Vec<u8>, id: &EventId) {
    match id {
        EventId::Uuid { bytes, upper: 0, newline: false } => {
            out.push(0);
            out.extend_from_slice(bytes);
        }
        EventId::Uuid { bytes, upper, newline } => {
            out.push(1);
            out.extend_from_slice(bytes);
            out.extend_from_slice(&upper.to_le_bytes());
            out.push(*newline as u8);
        }
        EventId::Text(t) => {
            out.push(2);
            put_str(out, t);
        }
    }
}

/// What the events of one hand share, so each event need not repeat it.
pub struct HandKeys<'a> {
    pub table_id: &'a str,
    pub hand_id: &'a str,
    pub source: &'a str,
}

/// Which of an event's envelope fields are the hand's own (`HandKeys`): compared once an
/// event, for its packing and for its decoded form alike.
#[derive(Clone, Copy)]
pub struct Same {
    pub table_id: bool,
    pub hand_id: bool,
    pub source: bool,
}

impl Same {
    pub fn of(env: &Envelope<'_>, keys: &HandKeys<'_>) -> Same {
        Same {
            table_id: same_str(env.table_id, keys.table_id),
            hand_id: env.hand_id.map_or(false, |h| same_str(h, keys.hand_id)),
            source: same_str(env.source, keys.source),
        }
    }
}

/// What the previous event kept left for the next one to refer to.
#[derive(Debug, Default, Clone)]
pub struct Previous {
    pub seq: i64,
    pub ts: String,
    pub hash: Option<[u8; 32]>,
}

/// Append one event; `prev` is updated to it.
pub fn encode(out: &mut Vec<u8>, env: &Envelope<'_>, hash: [u8; 32], same: Same,
              prev: &mut Previous) {
    grow_gently(out, 128, 256);
    out.push(env.type_index);
    put_varint(out, zigzag(env.seq - prev.seq));
    put_event_id(out, &env.id);
    let mut common =
        prev.ts.bytes().zip(env.ts.bytes()).take_while(|(a, b)| a == b).count().min(255);
    while !env.ts.is_char_boundary(common) {
        common -= 1;
    }
    out.push(common as u8);
    put_str(out, &env.ts[common..]);
    let newline = if env.prev_hash_newline { 2 } else { 0 };
    if prev.hash == Some(env.prev_hash) {
        out.push(newline);
    } else {
        out.push(newline + 1);
        out.extend_from_slice(&env.prev_hash);
    }
    put_same_or(out, env.table_id, same.table_id);
    match env.hand_id {
        Some(_) if same.hand_id => out.push(0),
        None => out.push(1),
        Some(h) => {
            out.push(2);
            put_str(out, h);
        }
    }
    put_same_or(out, env.source, same.source);
    out.extend_from_slice(env.body);
    prev.seq = env.seq;
    prev.ts.clear();
    prev.ts.push_str(env.ts);
    prev.hash = Some(hash);
}

fn put_same_or(out: &mut Vec<u8>, value: &str, same: bool) {
    if same {
        out.push(0);
    } else {
        out.push(1);
        put_str(out, value);
    }
}

pub fn encode_struct(out: &mut Vec<u8>, value: &Value<'_>, schema: &StructSchema) {
    for field in schema.fields {
        let member = value.get(field.json);
        if !field.required {
            out.push(member.is_some() as u8);
        }
        if let Some(v) = member {
            encode_value(out, v, &field.kind);
        }
    }
}

fn encode_value(out: &mut Vec<u8>, value: &Value<'_>, kind: &Kind) {
    match (kind, value) {
        (Kind::Str { pattern: Pattern::Card, .. }, Value::Str(s)) if is_card(s.as_bytes()) => {
            let b = s.as_bytes();
            let rank = RANKS.iter().position(|&r| r == b[0]).unwrap_or(0);
            let suit = SUITS.iter().position(|&x| x == b[1]).unwrap_or(0);
            out.push((rank * 4 + suit) as u8);
        }
        (Kind::Str { pattern: Pattern::Card, .. }, Value::Str(s)) => {
            out.push(0xff);
            put_str(out, s);
        }
        (Kind::Str { .. }, Value::Str(s)) => put_str(out, s),
        (Kind::Int { .. }, Value::Int(i)) => put_varint(out, zigzag(*i)),
        (Kind::Bool, Value::Bool(b)) => out.push(*b as u8),
        (Kind::Lit(values), Value::Str(s)) => {
            out.push(values.iter().position(|v| *v == s.as_ref()).unwrap_or(0) as u8)
        }
        (Kind::LitInt(values), Value::Int(i)) => {
            out.push(values.iter().position(|v| v == i).unwrap_or(0) as u8)
        }
        (Kind::Nullable(_), Value::Null) => out.push(0),
        (Kind::Nullable(inner), v) => {
            out.push(1);
            encode_value(out, v, inner);
        }
        (Kind::List(inner, _), Value::Array(items)) => {
            put_varint(out, items.len() as u64);
            for item in items {
                encode_value(out, item, inner);
            }
        }
        (Kind::Struct(s), v) => encode_struct(out, v, s),
        (Kind::PayTables, Value::Object(tables)) => {
            put_varint(out, tables.len() as u64);
            for (name, table) in tables {
                put_str(out, name);
                let entries: &[(Cow<'_, str>, Value<'_>)] = match table {
                    Value::Object(entries) => entries,
                    _ => &[],
                };
                put_varint(out, entries.len() as u64);
                for (key, amount) in entries {
                    put_str(out, key);
                    put_varint(out, zigzag(amount.as_int().unwrap_or(0)));
                }
            }
        }
        (Kind::SeatOrLit(values), Value::Str(s)) => {
            out.push(1 + values.iter().position(|v| *v == s.as_ref()).unwrap_or(0) as u8)
        }
        (Kind::SeatOrLit(_), Value::Int(i)) => {
            out.push(0);
            put_varint(out, zigzag(*i));
        }
        // Validation admitted nothing else.
        _ => out.push(0),
    }
}

/// Reads back what `encode` wrote.
pub struct Reader<'b> {
    bytes: &'b [u8],
    pos: usize,
    /// A read went past the end (bytes not written by `encode`: a damaged state). Reads
    /// past the end give zeros and never panic; `state::import` refuses what overran.
    overran: bool,
}

/// One event as kept, decoded.
pub struct Decoded {
    pub type_index: u8,
    pub seq: i64,
    pub event_id: EventId,
    pub ts: Timestamp,
    /// None: the hash of the previous event kept.
    pub prev_hash: Option<[u8; 32]>,
    /// The received `prev_hash` ended in a newline (see `Envelope::prev_hash_newline`).
    pub prev_newline: bool,
    pub table_id: Option<String>,
    /// `Some(None)`: null; None: the hand's.
    pub hand_id: Option<Option<String>>,
    pub source: Option<String>,
    pub data: Value<'static>,
}

impl<'b> Reader<'b> {
    pub fn new(bytes: &'b [u8]) -> Self {
        Reader { bytes, pos: 0, overran: false }
    }

    /// Whether a read went past the end of the bytes.
    pub fn overran(&self) -> bool {
        self.overran
    }

    pub fn position(&self) -> usize {
        self.pos
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    fn byte(&mut self) -> u8 {
        let b = match self.bytes.get(self.pos) {
            Some(&b) => b,
            None => {
                self.overran = true;
                0
            }
        };
        self.pos += 1;
        b
    }

    fn varint(&mut self) -> u64 {
        let mut n = 0u64;
        let mut shift = 0;
        loop {
            let b = self.byte();
            n |= ((b & 0x7f) as u64) << shift;
            if b < 0x80 || shift > 63 {
                return n;
            }
            shift += 7;
        }
    }

    fn string(&mut self) -> String {
        self.text().into_owned()
    }

    /// A string as stored, borrowed from the storage (the bytes were a `&str`).
    fn text(&mut self) -> Cow<'b, str> {
        let len = self.varint() as usize;
        // Bounded by the bytes (a damaged length must not slice past them).
        let start = self.pos.min(self.bytes.len());
        let end = start.saturating_add(len).min(self.bytes.len());
        if end - start < len || self.pos > start {
            self.overran = true;
        }
        let s = String::from_utf8_lossy(&self.bytes[start..end]);
        self.pos = end.max(self.pos);
        s
    }

    pub fn event_id(&mut self) -> EventId {
        let tag = self.byte();
        if tag == 2 {
            return EventId::Text(self.string().into());
        }
        let mut bytes = [0u8; 16];
        for b in bytes.iter_mut() {
            *b = self.byte();
        }
        if tag == 0 {
            return EventId::Uuid { bytes, upper: 0, newline: false };
        }
        let mut mask = [0u8; 4];
        for b in mask.iter_mut() {
            *b = self.byte();
        }
        let newline = self.byte() != 0;
        EventId::Uuid { bytes, upper: u32::from_le_bytes(mask), newline }
    }

    fn optional_string(&mut self) -> Option<String> {
        match self.byte() {
            0 => None,
            _ => Some(self.string()),
        }
    }

    /// The next event; `prev` as for `encode`.
    pub fn next_event(&mut self, prev: &mut Previous) -> Decoded {
        let type_index = self.byte();
        // Wrapping: damaged bytes must not overflow (`state::import` checks the seqs).
        let seq = prev.seq.wrapping_add(unzigzag(self.varint()));
        let event_id = self.event_id();
        let common = self.byte() as usize;
        // The common prefix and the stored rest, inline (every event of a hand that closes
        // is decoded: no allocation for its ts).
        let rest = self.text();
        // On a char boundary: damaged bytes may have made `ts` hold a replacement char
        // (a timestamp as encoded is ASCII, where every index is one).
        let mut common = common.min(prev.ts.len());
        while !prev.ts.is_char_boundary(common) {
            common -= 1;
        }
        let ts = Timestamp::joined(&prev.ts[..common], &rest);
        let marker = self.byte();
        let prev_newline = marker >= 2;
        let prev_hash = match marker % 2 {
            0 => None,
            _ => {
                let mut h = [0u8; 32];
                for b in h.iter_mut() {
                    *b = self.byte();
                }
                Some(h)
            }
        };
        let table_id = self.optional_string();
        let hand_id = match self.byte() {
            0 => None,
            1 => Some(None),
            _ => Some(Some(self.string())),
        };
        let source = self.optional_string();
        let body = EVENT_TYPES[(type_index as usize).min(EVENT_TYPES.len() - 1)].body;
        let data = self.read_struct(body);
        prev.seq = seq;
        // The prefix stays; only the rest changes (no second reading of `ts`).
        prev.ts.truncate(common);
        prev.ts.push_str(&rest);
        Decoded { type_index, seq, event_id, ts, prev_hash, prev_newline, table_id, hand_id, source, data }
    }

    pub fn read_struct(&mut self, schema: &StructSchema) -> Value<'static> {
        self.read_struct_into(schema, Vec::with_capacity(schema.fields.len()))
    }

    /// `read_struct` into `members` (an empty list, perhaps a kept one: `recycle`).
    pub fn read_struct_into(&mut self, schema: &StructSchema, mut members: crate::recycle::Members)
                            -> Value<'static> {
        for field in schema.fields {
            if !field.required && self.byte() == 0 {
                continue;
            }
            members.push((Cow::Borrowed(field.json), self.read_value(&field.kind)));
        }
        Value::Object(members)
    }

    fn read_value(&mut self, kind: &Kind) -> Value<'static> {
        match kind {
            Kind::Str { pattern: Pattern::Card, .. } => {
                let b = self.byte();
                if b == 0xff {
                    return Value::Str(Cow::Owned(self.string()));
                }
                Value::Str(Cow::Borrowed(card_name(b)))
            }
            Kind::Str { .. } => Value::Str(Cow::Owned(self.string())),
            Kind::Int { .. } => Value::Int(unzigzag(self.varint())),
            Kind::Bool => Value::Bool(self.byte() != 0),
            Kind::Lit(values) => {
                let i = self.byte() as usize;
                Value::Str(Cow::Borrowed(values.get(i).copied().unwrap_or("")))
            }
            Kind::LitInt(values) => {
                let i = self.byte() as usize;
                Value::Int(values.get(i).copied().unwrap_or(0))
            }
            Kind::Nullable(inner) => match self.byte() {
                0 => Value::Null,
                _ => self.read_value(inner),
            },
            Kind::List(inner, _) => {
                let n = self.varint() as usize;
                let mut items = Vec::with_capacity(n.min(4096));
                for _ in 0..n {
                    // Damaged bytes: a length past the end stops here (each item reads a
                    // byte at least), not after `n` items of zeros (memory).
                    if self.overran {
                        break;
                    }
                    items.push(self.read_value(inner));
                }
                Value::Array(items)
            }
            Kind::Struct(s) => self.read_struct(s),
            Kind::PayTables => {
                let n = self.varint() as usize;
                let mut tables = Vec::with_capacity(n.min(4096));
                for _ in 0..n {
                    if self.overran {
                        break;
                    }
                    let name = self.string();
                    let m = self.varint() as usize;
                    let mut entries = Vec::with_capacity(m.min(4096));
                    for _ in 0..m {
                        if self.overran {
                            break;
                        }
                        let key = self.string();
                        entries.push((Cow::Owned(key), Value::Int(unzigzag(self.varint()))));
                    }
                    tables.push((Cow::Owned(name), Value::Object(entries)));
                }
                Value::Object(tables)
            }
            Kind::SeatOrLit(values) => match self.byte() {
                0 => Value::Int(unzigzag(self.varint())),
                i => Value::Str(Cow::Borrowed(values.get(i as usize - 1).copied().unwrap_or(""))),
            },
        }
    }
}

pub static CARD_NAMES: [&str; 52] = [
    "2c", "2d", "2h", "2s", "3c", "3d", "3h", "3s", "4c", "4d", "4h", "4s", "5c", "5d", "5h", "5s",
    "6c", "6d", "6h", "6s", "7c", "7d", "7h", "7s", "8c", "8d", "8h", "8s", "9c", "9d", "9h", "9s",
    "Tc", "Td", "Th", "Ts", "Jc", "Jd", "Jh", "Js", "Qc", "Qd", "Qh", "Qs", "Kc", "Kd", "Kh", "Ks",
    "Ac", "Ad", "Ah", "As",
];

/// `table[b]`: the position of byte `b` in `symbols`, `NONE` for a byte not in it.
const fn positions(symbols: &[u8]) -> [u8; 256] {
    let mut table = [NONE; 256];
    let mut i = 0;
    while i < symbols.len() {
        table[symbols[i] as usize] = i as u8;
        i += 1;
    }
    table
}

const NONE: u8 = 0xff;
const RANK_OF: [u8; 256] = positions(RANKS);
const SUIT_OF: [u8; 256] = positions(SUITS);

/// Index of a card name in CARD_NAMES (None for anything `is_card` refuses). Two table
/// look-ups: every card of every event comes here, and a search of the ranks was 1.5-2%
/// of a run.
pub fn card_index(name: &str) -> Option<usize> {
    let b = name.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let (rank, suit) = (RANK_OF[b[0] as usize], SUIT_OF[b[1] as usize]);
    if rank == NONE || suit == NONE {
        return None;
    }
    Some(rank as usize * 4 + suit as usize)
}

fn card_name(index: u8) -> &'static str {
    CARD_NAMES.get(index as usize).copied().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;
    use crate::validate::validate;

    /// Every two-byte text (and a few of other lengths): a card exactly when `is_card`
    /// says so, at its place in CARD_NAMES.
    #[test]
    fn card_index_is_the_card_names_place_for_every_two_bytes() {
        for first in 0..=255u8 {
            for second in 0..=255u8 {
                let bytes = [first, second];
                let text = match std::str::from_utf8(&bytes) {
                    Ok(text) => text,
                    Err(_) => continue,
                };
                let expected = if is_card(&bytes) {
                    CARD_NAMES.iter().position(|&name| name == text)
                } else {
                    None
                };
                assert_eq!(card_index(text), expected, "{:?}", text);
            }
        }
        for text in ["", "A", "Ahh", "10h"] {
            assert_eq!(card_index(text), None);
        }
        assert_eq!(card_index("2c"), Some(0));
        assert_eq!(card_index("As"), Some(51));
    }

    #[test]
    fn a_list_longer_than_the_bytes_left_stops_at_their_end() {
        // A damaged length (2**62 items) must not read zeros until memory runs out.
        let mut bytes = vec![0x80u8; 8];
        bytes.push(0x40);
        let mut reader = Reader::new(&bytes);
        let list = reader.read_value(&Kind::List(&Kind::Bool, 4));
        assert!(reader.overran());
        assert!(matches!(list, Value::Array(items) if items.len() <= 1));
    }

    #[test]
    fn event_ids_round_trip() {
        for text in ["ccc25d82-38ce-47a9-89a9-9f0caf88a8ac", "CCC25D82-38ce-47a9-89a9-9f0caf88a8aC",
                     "ccc25d82-38ce-47a9-89a9-9f0caf88a8ac\n", "not-a-uuid", ""] {
            let id = EventId::parse(text);
            assert_eq!(id.to_string(), text);
            let mut out = Vec::new();
            put_event_id(&mut out, &id);
            assert_eq!(Reader::new(&out).event_id(), id);
        }
        assert!(matches!(EventId::parse("ccc25d82-38ce-47a9-89a9-9f0caf88a8ac"),
                         EventId::Uuid { upper: 0, newline: false, .. }));
    }

    #[test]
    fn card_names_follow_rank_and_suit_order() {
        for (i, name) in CARD_NAMES.iter().enumerate() {
            let b = name.as_bytes();
            assert_eq!(RANKS[i / 4], b[0]);
            assert_eq!(SUITS[i % 4], b[1]);
        }
    }

    #[test]
    fn round_trips_a_body_with_every_presence() {
        let raw = r#"{"v":1,"event_id":"CCC25D82-38ce-47a9-89a9-9f0caf88a8ac","table_id":"T001","seq":13,"ts":"2026-01-05T18:00:57.728Z","prev_hash":"183c3f3b4dc20863d6ea07926a6921d1b5dff71e37518e81fb1ba80f69a9263b","hand_id":null,"type":"showdown","source":"dealer-terminal","data":{"seat":"dealer","cards":["As","Kd"],"mucked":false}}"#;
        let tree = parse(raw.as_bytes()).unwrap();
        let (env, _) = validate(&tree, &mut Vec::new()).unwrap();
        let keys = HandKeys { table_id: "T001", hand_id: "H", source: "other" };
        let mut out = Vec::new();
        let mut prev = Previous::default();
        let mut body = Vec::new();
        encode_struct(&mut body, env.body, env.event_type.body);
        let event = env.event(&body);
        encode(&mut out, &event, [7; 32], Same::of(&event, &keys), &mut prev);
        let mut back = Previous::default();
        let d = Reader::new(&out).next_event(&mut back);
        assert_eq!(d.seq, 13);
        assert_eq!(d.event_id.to_string(), "CCC25D82-38ce-47a9-89a9-9f0caf88a8ac");
        assert_eq!(d.ts, "2026-01-05T18:00:57.728Z");
        assert_eq!(d.table_id, None);
        assert_eq!(d.hand_id, Some(None));
        assert_eq!(d.source.as_deref(), Some("dealer-terminal"));
        assert_eq!(d.prev_hash, Some(env.prev_hash));
        let mut want = String::new();
        let mut got = Vec::new();
        crate::canonical::write(env.body, &mut got);
        want.push_str(&String::from_utf8(got).unwrap());
        let mut back_json = Vec::new();
        crate::canonical::write(&d.data, &mut back_json);
        assert_eq!(String::from_utf8(back_json).unwrap(), want);
    }
}
