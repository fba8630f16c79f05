//! One-pass intake of the usual record: strict JSON, the v1 contract, RFC 8785 canonical
//! JSON and the open hand's compact body, in one reading of the bytes and without a tree.
//!
//! It reads the record against the schema table (`schema`): every member is checked as
//! its field's kind says while it is read, its canonical bytes and its compact form
//! (`store::encode_struct`) are written at once, and an object's members are put in the
//! schema's order (which is RFC 8785's, `schema` keeps the fields sorted) when it closes.
//!
//! It only ever *accepts*. Whatever it does not take on — a string with an escape or a
//! byte outside printable ASCII, a number that is not a plain integer of at most 18
//! digits, a paytable, a list of 128 items or more, and every
//! record that is not valid — makes it give up (`None`), and the record goes through the
//! tree (`json::parse`, `validate`), which decides it as before, reasons and all. So a
//! record this pass accepts is one the tree accepts, with the same canonical bytes, the
//! same compact body and the same envelope: `cargo test` checks that on every kind of
//! field and on mutations of valid records, and the differential tests against the
//! Python reference run through this pass.

use crate::canonical::write_int;
use crate::hex::lower_hex32;
use crate::ids::EventId;
use crate::json;
use crate::intake::MAX_RECORD_BYTES;
use crate::schema::{self, Kind, Pattern, StructSchema, EVENT_TYPES};
use crate::short_eq::same_str;
use crate::store::{card_index, put_str, put_varint, zigzag};
use crate::validate::{self, Event, Verdict};

/// At most this many fields in one struct of the contract (Limits has 10).
const MAX_FIELDS: usize = 12;
const ALL_ENVELOPE: u16 = (1 << 10) - 1;

struct Reader<'r> {
    text: &'r str,
    b: &'r [u8],
    pos: usize,
    /// Write each value's canonical JSON as it is read. Else (the first try) a member
    /// whose value holds no object is taken as the record has it, `"name":value` in one
    /// copy: it is its canonical JSON wherever the record has no whitespace inside a
    /// member and no `-0` (every string the one pass takes is plain, every number a
    /// plain integer), which `not_canonical` records; such a record is read again,
    /// writing (`take`).
    write: bool,
    not_canonical: bool,
}

impl<'r> Reader<'r> {
    #[inline]
    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.pos) {
            // Records mostly have no whitespace: one test for every byte above space.
            if c > b' ' {
                break;
            }
            if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' {
                self.pos += 1;
                self.not_canonical = true;
            } else {
                break;
            }
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    #[inline]
    fn eat(&mut self, c: u8) -> Option<()> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Some(())
        } else {
            None
        }
    }

    /// Of a constant length, so the compare is a word or two, not a `memcmp` call.
    #[inline]
    fn word<const N: usize>(&mut self, w: &[u8; N]) -> Option<()> {
        if self.b.get(self.pos..self.pos + N) == Some(&w[..]) {
            self.pos += N;
            Some(())
        } else {
            None
        }
    }

    /// A string at its opening quote with no byte that needs a decision: printable
    /// ASCII (no control character, no DEL), no quote inside, no escape. Its length in
    /// code points is its length in bytes, and it is written as it is.
    #[inline]
    fn plain_str(&mut self) -> Option<&'r str> {
        self.eat(b'"')?;
        let start = self.pos;
        let end = start + json::scan_plain::<true>(&self.b[start..]);
        if self.b.get(end) != Some(&b'"') {
            return None;
        }
        self.pos = end + 1;
        self.text.get(start..end)
    }

    /// An envelope member's name at the reader, as its slot (`validate::ENVELOPE_KEYS`),
    /// matched on the bytes with its quotes; None: read it as a string.
    #[inline]
    fn envelope_key(&mut self) -> Option<usize> {
        let rest = &self.b[self.pos..];
        // Each arm compares a literal of constant length, which the compiler turns into
        // a few word compares (a key chosen at run time cost a `memcmp` call, ten a record).
        let (slot, len) = match rest.get(1)? {
            b'd' if rest.starts_with(b"\"data\"") => (0, 6),
            b'e' if rest.starts_with(b"\"event_id\"") => (1, 10),
            b'h' if rest.starts_with(b"\"hand_id\"") => (2, 9),
            b'p' if rest.starts_with(b"\"prev_hash\"") => (3, 11),
            b's' if rest.starts_with(b"\"seq\"") => (4, 5),
            b's' if rest.starts_with(b"\"source\"") => (5, 8),
            b't' if rest.starts_with(b"\"table_id\"") => (6, 10),
            b't' if rest.starts_with(b"\"ts\"") => (7, 4),
            b't' if rest.starts_with(b"\"type\"") => (8, 6),
            b'v' if rest.starts_with(b"\"v\"") => (9, 3),
            _ => return None,
        };
        self.pos += len;
        Some(slot)
    }

    /// Pass over the object at the reader without reading it: its extent `(start, end)`.
    /// Strings are scanned to their closing quote; one with an escape or a control byte
    /// gives up (the one pass would not take it when it reads the object). Brackets are
    /// only counted: the reading that follows checks the object and that it ends here.
    fn skip_object(&mut self) -> Option<(usize, usize)> {
        let start = self.pos;
        if self.peek() != Some(b'{') {
            return None;
        }
        let mut depth = 0usize;
        while let Some(&c) = self.b.get(self.pos) {
            self.pos += 1;
            match c {
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth -= 1; // at least 1: the first byte opened, and 0 returns
                    if depth == 0 {
                        return Some((start, self.pos));
                    }
                }
                b'"' => {
                    let n = json::scan_plain::<false>(&self.b[self.pos..]);
                    if self.b.get(self.pos + n) != Some(&b'"') {
                        return None;
                    }
                    self.pos += n + 1;
                }
                _ => {}
            }
        }
        None
    }

    /// A member's name at the reader as the index of the field of `schema` it names,
    /// matched on the bytes with its quotes (a name with an escape names no field here:
    /// the tree decides it).
    #[inline]
    fn field_key(&mut self, schema: &StructSchema) -> Option<usize> {
        let rest = &self.b[self.pos..];
        if rest.first() != Some(&b'"') {
            return None;
        }
        for (i, field) in schema.fields.iter().enumerate() {
            let name = field.json.as_bytes();
            // Byte by byte: names are short, and a `memcmp` call costs more than the loop.
            if rest.get(1 + name.len()) == Some(&b'"')
                && rest[1..].iter().zip(name).all(|(a, b)| a == b)
            {
                self.pos += name.len() + 2;
                return Some(i);
            }
        }
        None
    }

    /// A string of exactly `n` bytes, which the caller checks byte by byte (a hash, an
    /// id: no scan for its end).
    #[inline]
    fn fixed(&mut self, n: usize) -> Option<&'r [u8]> {
        self.eat(b'"')?;
        let start = self.pos;
        if self.b.get(start + n) != Some(&b'"') {
            return None;
        }
        self.pos = start + n + 1;
        Some(&self.b[start..start + n])
    }

    /// A non-empty plain string of at most `schema::MAX_NAME_LENGTH` (the contract's
    /// NonEmpty).
    fn name(&mut self) -> Option<&'r str> {
        let s = self.plain_str()?;
        if s.is_empty() || s.len() > schema::MAX_NAME_LENGTH {
            return None;
        }
        Some(s)
    }

    /// An integer written as one (`-?(0|[1-9][0-9]*)`, no fraction or exponent) of at
    /// most 18 digits (so it fits `i64`; a longer one goes to the tree).
    #[inline]
    fn int(&mut self) -> Option<i64> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.pos += 1;
        }
        let start = self.pos;
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                while matches!(self.peek(), Some(b'0'..=b'9')) {
                    self.pos += 1;
                }
            }
            _ => return None,
        }
        if matches!(self.peek(), Some(b'.') | Some(b'e') | Some(b'E') | Some(b'0'..=b'9')) {
            return None;
        }
        let digits = &self.b[start..self.pos];
        if digits.len() > 18 {
            return None;
        }
        let n = digits.iter().fold(0i64, |n, &d| n * 10 + (d - b'0') as i64);
        if negative && n == 0 {
            self.not_canonical = true; // `-0`, canonically `0`
        }
        Some(if negative { -n } else { n })
    }

    /// One value of `kind`: its canonical JSON to `c`, its compact form to `k`
    /// (`store::encode_value`).
    fn value(&mut self, kind: &Kind, c: &mut Vec<u8>, k: &mut Vec<u8>) -> Option<()> {
        match kind {
            Kind::Str { min, max, pattern } => {
                let s = self.plain_str()?;
                if s.len() < *min || s.len() > *max {
                    return None;
                }
                if *pattern != Pattern::None && validate::check_pattern(s, *pattern) != Verdict::Valid {
                    return None;
                }
                if self.write {
                    quoted(s, c);
                }
                if *pattern == Pattern::Card {
                    k.push(card_index(s)? as u8);
                } else {
                    put_str(k, s);
                }
            }
            Kind::Int { min, max } => {
                let i = self.int()?;
                if i < *min || i > *max {
                    return None;
                }
                if self.write {
                    write_int(i, c);
                }
                put_varint(k, zigzag(i));
            }
            Kind::Bool => {
                let b = match self.peek() {
                    Some(b't') => {
                        self.word(b"true")?;
                        true
                    }
                    Some(b'f') => {
                        self.word(b"false")?;
                        false
                    }
                    _ => return None,
                };
                if self.write {
                    c.extend_from_slice(if b { b"true" } else { b"false" });
                }
                k.push(b as u8);
            }
            Kind::Lit(values) => {
                let s = self.plain_str()?;
                let at = values.iter().position(|v| same_str(v, s))?;
                if self.write {
                    quoted(s, c);
                }
                k.push(at as u8);
            }
            Kind::LitInt(values) => {
                let i = self.int()?;
                let at = values.iter().position(|v| *v == i)?;
                if self.write {
                    write_int(i, c);
                }
                k.push(at as u8);
            }
            Kind::Nullable(inner) => {
                if self.peek() == Some(b'n') {
                    self.word(b"null")?;
                    if self.write || holds_object(inner) {
                        c.extend_from_slice(b"null");
                    }
                    k.push(0);
                } else {
                    k.push(1);
                    self.value(inner, c, k)?;
                }
            }
            Kind::List(inner, max) => {
                // Items that are objects write theirs (`structure`); the list then writes
                // its brackets and commas around them.
                let write = self.write || holds_object(inner);
                self.eat(b'[')?;
                if write {
                    c.push(b'[');
                }
                let count_at = k.len();
                k.push(0);
                let mut count = 0usize;
                self.ws();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                } else {
                    loop {
                        self.ws();
                        if count > 0 && write {
                            c.push(b',');
                        }
                        self.value(inner, c, k)?;
                        count += 1;
                        self.ws();
                        match self.peek() {
                            Some(b',') => self.pos += 1,
                            Some(b']') => {
                                self.pos += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                // The count is one varint byte below 128 (longer lists: the tree).
                if count > *max || count >= 0x80 {
                    return None;
                }
                k[count_at] = count as u8;
                if write {
                    c.push(b']');
                }
            }
            Kind::Struct(s) => self.structure(s, c, k)?,
            Kind::PayTables => return None,
            Kind::SeatOrLit(values) => {
                if self.peek() == Some(b'"') {
                    let s = self.plain_str()?;
                    let at = values.iter().position(|v| same_str(v, s))?;
                    if self.write {
                        quoted(s, c);
                    }
                    k.push(1 + at as u8);
                } else {
                    let i = self.int()?;
                    if !(1..=64).contains(&i) {
                        return None;
                    }
                    if self.write {
                        write_int(i, c);
                    }
                    k.push(0);
                    put_varint(k, zigzag(i));
                }
            }
        }
        Some(())
    }

    /// An object of `schema`: each member read as its field's kind and written
    /// (`"name":value`) at the ends of `c` and `k`; when the members did not come in the
    /// schema's order (or optional fields need their presence bytes), the object is then
    /// written again in that order and moved down over what was read.
    fn structure(&mut self, schema: &StructSchema, c: &mut Vec<u8>, k: &mut Vec<u8>) -> Option<()> {
        let open = self.pos;
        self.eat(b'{')?;
        let (c_base, k_base) = (c.len(), k.len());
        if self.write {
            c.push(b'{');
        }
        let mut m = Members { spans: [(0, 0, 0, 0); MAX_FIELDS], seen: 0, as_read: 0 };
        let mut in_order = true;
        let mut last = 0usize;
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
        } else {
            loop {
                self.ws();
                let member = self.pos;
                let at = self.field_key(schema)?;
                if m.seen & (1 << at) != 0 {
                    return None;
                }
                if m.seen != 0 {
                    if self.write {
                        c.push(b',');
                    }
                    in_order &= at > last;
                }
                last = at;
                m.seen |= 1 << at;
                self.ws();
                self.eat(b':')?;
                self.ws();
                let (c0, k0) = (c.len(), k.len());
                let field = &schema.fields[at];
                if self.write || holds_object(&field.kind) {
                    c.push(b'"');
                    c.extend_from_slice(field.json.as_bytes());
                    c.extend_from_slice(b"\":");
                    self.value(&field.kind, c, k)?;
                    m.spans[at] = (c0, c.len(), k0, k.len());
                } else {
                    self.value(&field.kind, c, k)?;
                    m.spans[at] = (member, self.pos, k0, k.len());
                    m.as_read |= 1 << at;
                }
                self.ws();
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        let mut all_required = true;
        for (i, field) in schema.fields.iter().enumerate() {
            if !field.required {
                all_required = false;
            } else if m.seen & (1 << i) == 0 {
                return None;
            }
        }
        if self.write && in_order {
            c.push(b'}');
        } else if !self.write && in_order && m.as_read == m.seen {
            // Every member as read, in order: the object's bytes are its canonical JSON.
            c.extend_from_slice(&self.b[open..self.pos]);
        } else {
            self.write_in_order(schema, c, c_base, &m);
        }
        // Compact: a presence byte for each optional field, then the present values.
        if !(in_order && all_required) {
            let k_mid = k.len();
            for (i, field) in schema.fields.iter().enumerate() {
                let present = m.seen & (1 << i) != 0;
                if !field.required {
                    k.push(present as u8);
                }
                if present {
                    k.extend_from_within(m.spans[i].2..m.spans[i].3);
                }
            }
            k.copy_within(k_mid.., k_base);
            k.truncate(k.len() - (k_mid - k_base));
        }
        Some(())
    }
}

/// The members of an object just read: for each, its canonical bytes (in `c`, or, its
/// bit set in `as_read`, in the record as read) and its compact bytes in `k`.
struct Members {
    spans: [(usize, usize, usize, usize); MAX_FIELDS],
    seen: u32,
    as_read: u32,
}

impl Reader<'_> {
    /// The object just read, written in the schema's order after what `c` holds and moved
    /// down to `c_base` (over what was written of it while reading, if anything).
    fn write_in_order(&self, schema: &StructSchema, c: &mut Vec<u8>, c_base: usize,
                      m: &Members) {
        let c_mid = c.len();
        c.push(b'{');
        let mut first = true;
        for (i, span) in m.spans.iter().enumerate().take(schema.fields.len()) {
            if m.seen & (1 << i) == 0 {
                continue;
            }
            if !first {
                c.push(b',');
            }
            first = false;
            if m.as_read & (1 << i) != 0 {
                c.extend_from_slice(&self.b[span.0..span.1]);
            } else {
                c.extend_from_within(span.0..span.1);
            }
        }
        c.push(b'}');
        if c_mid > c_base {
            c.copy_within(c_mid.., c_base);
            c.truncate(c.len() - (c_mid - c_base));
        }
    }
}

/// Whether a value of `kind` holds an object (whose members may need reordering, so its
/// bytes as read are not its canonical JSON).
fn holds_object(kind: &Kind) -> bool {
    match kind {
        Kind::Struct(_) | Kind::PayTables => true,
        Kind::List(inner, _) | Kind::Nullable(inner) => holds_object(inner),
        _ => false,
    }
}

fn quoted(s: &str, c: &mut Vec<u8>) {
    c.push(b'"');
    c.extend_from_slice(s.as_bytes());
    c.push(b'"');
}

/// The record read in one pass, or None: the tree decides it (see the module's comment).
/// `canon` gets its canonical JSON, `body` its compact body; the event's `body` is left
/// empty for the caller to point at `body` (the two buffers are the caller's, reused).
pub fn take<'r>(raw: &'r [u8], canon: &mut Vec<u8>, body: &mut Vec<u8>) -> Option<Event<'r>> {
    let mut not_canonical = false;
    let event = read(raw, canon, body, false, &mut not_canonical);
    if event.is_some() && not_canonical {
        // Whitespace inside a member, or a `-0`: the members as read are not canonical.
        return read(raw, canon, body, true, &mut not_canonical);
    }
    event
}

/// One reading of the record (see `Reader::write`); `not_canonical` is set when the
/// members as read were not canonical (only meaningful when not writing). Returned as the
/// event alone, the flag beside it: a `(Event, bool)` was moved into `take`'s
/// `Option<Event>` by two `memcpy` calls of its 176 bytes a record (callgrind).
fn read<'r>(raw: &'r [u8], canon: &mut Vec<u8>, body: &mut Vec<u8>, write: bool,
            not_canonical: &mut bool) -> Option<Event<'r>> {
    if raw.len() > MAX_RECORD_BYTES {
        return None;
    }
    canon.clear();
    body.clear();
    canon.extend_from_slice(b"{\"data\":");
    // The one pass takes only printable ASCII (any other byte sends the record to the
    // tree), so the whole record is tested for ASCII once, word by word, and its strings
    // are then sliced, not checked.
    if !raw.is_ascii() {
        return None;
    }
    // SAFETY: every byte of `raw` is ASCII (tested just above), and a sequence of ASCII
    // bytes is valid UTF-8, which is all `from_utf8_unchecked` requires.
    let text = unsafe { std::str::from_utf8_unchecked(raw) };
    let mut r = Reader { text, b: raw, pos: 0, write, not_canonical: false };
    r.ws();
    r.not_canonical = false; // whitespace around the record is not in any member
    r.eat(b'{')?;
    // Each envelope member as read, `"name":value` (slot order is canonical order).
    let mut members = [(0usize, 0usize); 10];
    let mut seen = 0u16;
    let mut type_index: Option<u8> = None;
    let mut data_later: Option<(usize, usize)> = None;
    let (mut event_id, mut table_id, mut ts, mut prev_text, mut source) = ("", "", "", "", "");
    let mut hand_id: Option<&str> = None;
    let mut id: Option<EventId> = None;
    let mut prev_hash = [0u8; 32];
    let mut seq = 0i64;
    loop {
        r.ws();
        let member = r.pos;
        let slot = match r.envelope_key() {
            Some(slot) => slot,
            None => validate::envelope_slot(r.plain_str()?)?,
        };
        if seen & (1 << slot) != 0 {
            return None;
        }
        seen |= 1 << slot;
        r.ws();
        r.eat(b':')?;
        r.ws();
        match slot {
            0 => match type_index {
                Some(t) => r.structure(EVENT_TYPES[t as usize].body, canon, body)?,
                // `data` before `type` (canonical JSON sorts it first, so every archived
                // event has it so): passed over now, read once `type` says its schema.
                None => data_later = Some(r.skip_object()?),
            },
            1 => {
                let start = r.pos + 1;
                id = Some(EventId::parse_uuid(r.fixed(36)?)?);
                // A UUID is ASCII: its bytes are the text's.
                event_id = text.get(start..start + 36)?;
            }
            2 => {
                hand_id = if r.peek() == Some(b'n') {
                    r.word(b"null")?;
                    None
                } else {
                    Some(r.name()?)
                };
            }
            3 => {
                let start = r.pos + 1;
                prev_hash = lower_hex32(r.fixed(64)?)?;
                prev_text = text.get(start..start + 64)?;
            }
            4 => {
                seq = r.int()?;
                if !(1..=schema::MAX_SAFE).contains(&seq) {
                    return None;
                }
            }
            5 => source = r.name()?,
            6 => table_id = r.name()?,
            7 => {
                ts = r.plain_str()?;
                if !validate::is_timestamp(ts.as_bytes()) {
                    return None;
                }
            }
            8 => type_index = Some(schema::event_index(r.name()?)?),
            _ => {
                if r.int()? != 1 {
                    return None;
                }
            }
        }
        members[slot] = (member, r.pos);
        r.ws();
        match r.peek() {
            Some(b',') => r.pos += 1,
            Some(b'}') => {
                r.pos += 1;
                break;
            }
            _ => return None,
        }
    }
    *not_canonical = r.not_canonical;
    r.ws();
    if r.pos != raw.len() || seen != ALL_ENVELOPE {
        return None;
    }
    let type_index = type_index?;
    if let Some((start, end)) = data_later {
        // Read where it was passed over, as it would have been read in its place (nothing
        // else is written before it); it must end where the passing over ended.
        let mut d = Reader { text, b: &raw[..end], pos: start, write, not_canonical: false };
        d.structure(EVENT_TYPES[type_index as usize].body, canon, body)?;
        if d.pos != end {
            return None;
        }
        *not_canonical |= d.not_canonical;
    }
    let event_type = &EVENT_TYPES[type_index as usize];
    let id = id?;
    let event = Event {
        type_index,
        event_type,
        event_id,
        id,
        table_id,
        seq,
        ts,
        prev_hash,
        prev_hash_newline: false,
        hand_id,
        source,
        body: &[],
    };
    if write {
        write_envelope(canon, &event, prev_text);
    } else {
        for &(start, end) in &members[1..] {
            canon.push(b',');
            canon.extend_from_slice(&raw[start..end]);
        }
        canon.push(b'}');
    }
    Some(event)
}

/// The envelope's members after `data`, in canonical order (`prev_text`: the
/// `prev_hash` as read, which the event holds as bytes).
fn write_envelope(canon: &mut Vec<u8>, event: &Event<'_>, prev_text: &str) {
    canon.extend_from_slice(b",\"event_id\":");
    quoted(event.event_id, canon);
    canon.extend_from_slice(b",\"hand_id\":");
    match event.hand_id {
        Some(h) => quoted(h, canon),
        None => canon.extend_from_slice(b"null"),
    }
    canon.extend_from_slice(b",\"prev_hash\":");
    quoted(prev_text, canon);
    canon.extend_from_slice(b",\"seq\":");
    write_int(event.seq, canon);
    canon.extend_from_slice(b",\"source\":");
    quoted(event.source, canon);
    canon.extend_from_slice(b",\"table_id\":");
    quoted(event.table_id, canon);
    canon.extend_from_slice(b",\"ts\":");
    quoted(event.ts, canon);
    canon.extend_from_slice(b",\"type\":");
    quoted(event.event_type.tag, canon);
    canon.extend_from_slice(b",\"v\":1}");
}

/// Whether the one pass and the tree agree on `raw`: None when the one pass gave it to the
/// tree; Some(()) when it took it and the tree accepts it with the same canonical JSON,
/// compact body and envelope. Panics on any difference (tests and `examples/one_pass`).
pub fn check_against_tree(raw: &[u8]) -> Option<()> {
    let (mut canon, mut body) = (Vec::new(), Vec::new());
    let fast = take(raw, &mut canon, &mut body)?;
    let tree = crate::intake::parse(raw)
        .unwrap_or_else(|| panic!("one pass took what the tree cannot parse: {:?}", String::from_utf8_lossy(raw)));
    let mut want = Vec::new();
    let env = match crate::intake::accept(&tree, &mut want) {
        crate::intake::Intake::Accepted { envelope, deferred: false, .. } => envelope,
        _ => panic!("one pass took what the tree does not accept: {:?}", String::from_utf8_lossy(raw)),
    };
    let mut want_body = Vec::new();
    crate::store::encode_struct(&mut want_body, env.body, env.event_type.body);
    let same = canon == want
        && body == want_body
        && fast.type_index == env.type_index
        && fast.event_id == env.event_id
        && fast.id == env.id
        && fast.table_id == env.table_id
        && fast.seq == env.seq
        && fast.ts == env.ts
        && fast.prev_hash == env.prev_hash
        && fast.prev_hash_newline == env.prev_hash_newline
        && fast.hand_id == env.hand_id
        && fast.source == env.source;
    assert!(same, "one pass and tree differ on {:?}:\n{:?}\n{:?}", String::from_utf8_lossy(raw),
            String::from_utf8_lossy(&canon), String::from_utf8_lossy(&want));
    Some(())
}

/// Variations of a record: every byte deleted, replaced by a few others and duplicated,
/// whitespace put in, members swapped (the one pass must take a variation only if the tree
/// accepts it, with the same bytes).
pub fn mutations(raw: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let replacements: &[u8] = b" \t\n\"\\{}[],:0159-.eEtfnuxAaFz\x7f\x01";
    for i in 0..raw.len() {
        let mut v = raw.to_vec();
        v.remove(i);
        out.push(v);
        let mut v = raw.to_vec();
        v.insert(i, raw[i]);
        out.push(v);
        let mut v = raw.to_vec();
        v.insert(i, b' ');
        out.push(v);
        for &r in replacements {
            if r != raw[i] {
                let mut v = raw.to_vec();
                v[i] = r;
                out.push(v);
            }
        }
        let mut v = raw.to_vec();
        v[i] = 0xc3;
        v.insert(i + 1, 0xa9);
        out.push(v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PREV: &str = "183c3f3b4dc20863d6ea07926a6921d1b5dff71e37518e81fb1ba80f69a9263b";

    fn record(kind: &str, hand: &str, data: &str) -> String {
        format!(
            r#"{{"v":1,"event_id":"ccc25d82-38ce-47a9-89a9-9f0caf88a8ac","table_id":"T001","seq":13,"ts":"2026-01-05T18:00:57.728Z","prev_hash":"{}","hand_id":{},"type":"{}","source":"dealer-terminal","data":{}}}"#,
            PREV, hand, kind, data
        )
    }

    fn samples() -> Vec<String> {
        vec![
            record("card_dealt", r#""T001-000001""#, r#"{"to":"seat","seat":2,"card":"8d","face_up":false}"#),
            record("showdown", "null", r#"{"seat":"dealer","cards":["As","Kd"],"mucked":false}"#),
            record("showdown", r#""H""#, r#"{"cards":[],"seat":3}"#),
            record("table_configured", "null", r#"{"game":"hcf","limits":{"min_wager":5,"max_wager":500,"ante":null},"rake":{"mode":"players","fee":2},"rule_profile":"house-v1","authorized_by":"supervisor-2"}"#),
            // A null where an object may stand (its member is written, not copied as read).
            record("table_configured", "null", r#"{"game":"hcf","limits":{"min_wager":5,"max_wager":500},"rake":{"mode":"players","fee":2},"rule_profile":"house-v1","paytables":null}"#),
            record("hand_started", r#""H1""#, r#"{"button":1,"designated_player":null,"dealer_id":"D","seats":[{"seat":1,"player_id":"P1","stack":100},{"stack":0,"seat":2,"player_id":"P2"}],"deck":52}"#),
            record("wager", r#""H1""#, r#"{"seat":1,"kind":"ante","amount":5}"#),
            record("chips_changed", "null", r#"{"seat":1,"kind":"buy_in","amount":-0}"#),
            // Whitespace anywhere JSON allows it, members in another order.
            format!(" {{ \"data\" : {{ \"amount\" : 5 , \"kind\":\"ante\",\"seat\":1}}, \"type\":\"wager\",\"v\":1,\"event_id\":\"ccc25d82-38ce-47a9-89a9-9f0caf88a8ac\",\"table_id\":\"T001\",\"seq\":13,\"ts\":\"2026-01-05T18:00:57Z\",\"prev_hash\":\"{}\",\"hand_id\":\"H1\",\"source\":\"x\"\t}}\r\n", PREV),
        ]
    }

    #[test]
    fn lower_hex_is_the_sha256_pattern() {
        let hash = PREV.as_bytes();
        for b in 0..=255u8 {
            for at in [0, 1, 31, 62, 63] {
                let mut v = hash.to_vec();
                v[at] = b;
                let want = v.iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
                let got = lower_hex32(&v);
                assert_eq!(got.is_some(), want, "{:?}", v);
                if let Some(bytes) = got {
                    assert_eq!(crate::canonical::hex(&bytes).as_bytes(), &v[..]);
                }
            }
        }
    }

    #[test]
    fn the_one_pass_takes_the_usual_records_as_the_tree_does() {
        for raw in samples() {
            assert!(check_against_tree(raw.as_bytes()).is_some(), "{}", raw);
        }
    }

    #[test]
    fn every_mutation_the_one_pass_takes_the_tree_accepts_alike() {
        let mut taken = 0;
        let mut total = 0;
        for raw in samples().into_iter().chain(canonical_samples()) {
            for m in mutations(raw.as_bytes()) {
                total += 1;
                taken += check_against_tree(&m).is_some() as usize;
            }
        }
        // Some mutations stay valid (a digit changed, whitespace put in): the one pass
        // takes those, and gives every other one to the tree.
        assert!(taken > 0 && taken < total, "{} of {}", taken, total);
    }

    /// Each sample's canonical JSON, as the archive stores it: `data` first, then the
    /// envelope in sorted order.
    fn canonical_samples() -> Vec<String> {
        samples().iter().map(|raw| {
            let (mut canon, mut body) = (Vec::new(), Vec::new());
            take(raw.as_bytes(), &mut canon, &mut body).expect("a sample is taken");
            String::from_utf8(canon).expect("canonical JSON is UTF-8")
        }).collect()
    }

    #[test]
    fn canonical_json_is_taken_and_is_its_own_canonical_form() {
        for raw in canonical_samples() {
            assert!(raw.starts_with("{\"data\":{"), "{}", raw);
            assert!(check_against_tree(raw.as_bytes()).is_some(), "{}", raw);
            let (mut canon, mut body) = (Vec::new(), Vec::new());
            take(raw.as_bytes(), &mut canon, &mut body).expect("taken");
            assert_eq!(String::from_utf8(canon).expect("UTF-8"), raw);
        }
    }

    #[test]
    fn data_before_type_that_does_not_fit_goes_to_the_tree() {
        let raw = &canonical_samples()[6]; // the wager
        let mut canon = Vec::new();
        let mut body = Vec::new();
        for other in [
            raw.replace(r#""kind":"ante""#, r#""kind":"an\"te""#),
            raw.replace(r#""amount":5"#, r#""amount":[5}"#),
            raw.replace(r#""amount":5,"#, r#""amount":5},"#),
            raw.replace(r#""type":"wager""#, r#""type":"showdown""#),
            raw.replace(r#""data":{"#, r#""data":["#),
        ] {
            assert_ne!(&other, raw);
            assert!(take(other.as_bytes(), &mut canon, &mut body).is_none(), "{}", other);
        }
    }

    #[test]
    fn what_it_gives_to_the_tree() {
        let base = record("wager", r#""H1""#, r#"{"seat":1,"kind":"ante","amount":5}"#);
        let mut canon = Vec::new();
        let mut body = Vec::new();
        assert!(take(base.as_bytes(), &mut canon, &mut body).is_some());
        for other in [
            base.replace("dealer-terminal", "dealer\\u0041"),
            base.replace("dealer-terminal", "dealer\u{e9}"),
            base.replace(r#""amount":5"#, r#""amount":5.0"#),
            base.replace(r#""amount":5"#, r#""amount":1234567890123456789"#),
            base.replace(r#""amount":5"#, r#""amount":5,"amount":5"#),
            base.replace(r#""v":1"#, r#""v":2"#),
            base.replace(r#""hand_id":"H1","#, ""),
            base.clone() + "x",
        ] {
            assert!(take(other.as_bytes(), &mut canon, &mut body).is_none(), "{}", other);
        }
    }
}
