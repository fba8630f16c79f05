//! One table's state as bytes, and back (the Kafka worker's changelog value).
//!
//! The format is this crate's own (versioned by its first byte); Python's `TableState`
//! msgpack is not read. `import(export(t))` equals `t`: `cargo test` checks it on a table
//! with an open hand, and the Python tests continue a run from exported states.

use crate::json::Value;
use crate::schema::TABLE_CONFIGURED;
use crate::state_check;
use crate::store::{put_event_id, put_str, put_varint, Previous, Reader};
use crate::table::{ArchEvent, Between, Buy, Cut, Finding, Kept, OpenHand, Seated, Severity,
                   TableState};

// 2: the event archive's counters and held events appended (1 still reads: none held).
// 3: the missing seqs as (first, last) ranges (1 and 2 still read: their single missing
// seqs become ranges of one, runs of consecutive seqs one range).
const FORMAT: u8 = 3;

fn put_arch_event(out: &mut Vec<u8>, e: &ArchEvent) {
    put_varint(out, e.canonical.len() as u64);
    out.extend_from_slice(&e.canonical);
    put_i64(out, e.seq);
    put_str(out, &e.ts);
    put_str(out, &e.prev_hash);
    out.push(e.refused as u8);
}

fn put_i64(out: &mut Vec<u8>, i: i64) {
    put_varint(out, ((i << 1) ^ (i >> 63)) as u64);
}

fn put_opt_i64(out: &mut Vec<u8>, i: Option<i64>) {
    match i {
        None => out.push(0),
        Some(i) => {
            out.push(1);
            put_i64(out, i);
        }
    }
}

fn put_opt_str(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        None => out.push(0),
        Some(s) => {
            out.push(1);
            put_str(out, s);
        }
    }
}

fn put_config(out: &mut Vec<u8>, config: &Option<Value<'static>>) {
    // Canonical JSON, validated again on import (a state from elsewhere is input too).
    match config {
        None => out.push(0),
        Some(v) => {
            out.push(1);
            let mut canonical = Vec::new();
            crate::canonical::write(v, &mut canonical);
            put_varint(out, canonical.len() as u64);
            out.extend_from_slice(&canonical);
        }
    }
}

const CODES: &[&str] = &[
    "DUPLICATE_EVENT",
    "EVENT_ID_CONFLICT",
    "CHAIN_BROKEN",
    "SEQ_GAP",
    "REORDERED",
    "SEQ_CONFLICT",
    "ORPHAN_EVENT",
    "INCOMPLETE_HAND",
    "CONFIG_CHANGED_DURING_HAND",
    "UNAUTHORISED_CONFIGURATION",
    "CASH_IN_PLAY",
    "STALE_EVENT",
];
const RULES: &[&str] = &["SURV-9", "GEN-4", "GEN-5"];

fn put_finding(out: &mut Vec<u8>, f: &Finding) {
    // Every finding the core makes has a code and rule of these lists (a test checks it
    // through a round trip); 255 would fail the import rather than change a finding.
    out.push(CODES.iter().position(|c| *c == f.code).unwrap_or(255) as u8);
    out.push(RULES.iter().position(|r| *r == f.rule).unwrap_or(255) as u8);
    out.push(match f.severity {
        Severity::Info => 0,
        Severity::Warning => 1,
        Severity::Critical => 2,
        Severity::CashInPlayProfile => 3,
    });
    put_str(out, &f.message);
}

pub fn export(t: &TableState) -> Vec<u8> {
    let mut out = vec![FORMAT];
    put_str(&mut out, &t.table_id);
    put_i64(&mut out, t.last_seq);
    out.extend_from_slice(&t.last_hash);
    put_varint(&mut out, t.kept.len() as u64);
    for k in &t.kept {
        put_i64(&mut out, k.seq);
        put_event_id(&mut out, &k.event_id);
        out.extend_from_slice(&k.hash);
    }
    put_varint(&mut out, t.missing.len() as u64);
    for &(first, last) in &t.missing {
        put_i64(&mut out, first);
        put_i64(&mut out, last);
    }
    put_varint(&mut out, t.successor_prev.len() as u64);
    for (s, h) in &t.successor_prev {
        put_i64(&mut out, *s);
        out.extend_from_slice(h);
    }
    put_i64(&mut out, t.hand_first_seq);
    put_varint(&mut out, t.held.len() as u64);
    for f in &t.held {
        put_finding(&mut out, f);
    }
    put_config(&mut out, &t.config_value());
    out.push(t.config_authorized as u8);
    put_varint(&mut out, t.seated.len() as u64);
    for s in &t.seated {
        put_i64(&mut out, s.seat);
        put_str(&mut out, &s.player_id);
        put_i64(&mut out, s.stack);
    }
    put_opt_str(&mut out, t.dealer_id.as_deref());
    put_opt_i64(&mut out, t.previous_button);
    put_opt_i64(&mut out, t.previous_designated);
    put_varint(&mut out, t.offers.len() as u64);
    for &(seat, accepted) in &t.offers {
        put_i64(&mut out, seat);
        out.push(accepted as u8);
    }
    put_varint(&mut out, t.new_seats.len() as u64);
    for &s in &t.new_seats {
        put_i64(&mut out, s);
    }
    put_i64(&mut out, t.hands_played);
    put_varint(&mut out, t.buys.len() as u64);
    for b in &t.buys {
        put_i64(&mut out, b.seat);
        put_str(&mut out, &b.kind);
        put_i64(&mut out, b.amount);
        put_i64(&mut out, b.seq);
        put_i64(&mut out, b.hands_played);
    }
    match &t.open_hand {
        None => out.push(0),
        Some(h) => {
            out.push(1);
            put_str(&mut out, &h.hand_id);
            put_i64(&mut out, h.first_seq);
            put_str(&mut out, &h.source);
            put_i64(&mut out, h.last_seq);
            put_varint(&mut out, h.count as u64);
            let (events, previous) = h.packed_form(&t.table_id);
            put_varint(&mut out, events.len() as u64);
            out.extend_from_slice(&events);
            put_i64(&mut out, previous.seq);
            put_str(&mut out, &previous.ts);
            match &previous.hash {
                None => out.push(0),
                Some(hash) => {
                    out.push(1);
                    out.extend_from_slice(hash);
                }
            }
            put_varint(&mut out, h.findings.len() as u64);
            for f in &h.findings {
                put_finding(&mut out, f);
            }
            put_i64(&mut out, h.forgotten_below);
            put_varint(&mut out, h.remembered as u64);
        }
    }
    // The event archive (format 2).
    put_i64(&mut out, t.taken);
    match &t.between {
        None => out.push(0),
        Some(b) => {
            out.push(1);
            put_i64(&mut out, b.head_seq);
            put_i64(&mut out, b.ordinal);
            put_varint(&mut out, b.events.len() as u64);
            for e in &b.events {
                put_arch_event(&mut out, e);
            }
        }
    }
    if let Some(h) = &t.open_hand {
        put_i64(&mut out, h.cut.head_seq);
        put_i64(&mut out, h.cut.ordinal);
        put_varint(&mut out, h.cut.extras.len() as u64);
        for (position, e) in &h.cut.extras {
            put_varint(&mut out, *position as u64);
            put_arch_event(&mut out, e);
        }
    }
    out
}

struct In<'a> {
    b: &'a [u8],
    pos: usize,
}

type R<T> = Result<T, String>;

impl<'a> In<'a> {
    fn take(&mut self, n: usize) -> R<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.b.len());
        match end {
            Some(end) => {
                let s = &self.b[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => Err("table state is truncated".to_string()),
        }
    }
    fn byte(&mut self) -> R<u8> {
        Ok(self.take(1)?[0])
    }
    fn varint(&mut self) -> R<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= ((b & 0x7f) as u64) << shift;
            if b < 0x80 {
                return Ok(n);
            }
        }
        Err("table state has a bad number".to_string())
    }
    fn len(&mut self) -> R<usize> {
        let n = self.varint()? as usize;
        if n > self.b.len() {
            return Err("table state has a bad length".to_string());
        }
        Ok(n)
    }
    fn i64(&mut self) -> R<i64> {
        let n = self.varint()?;
        Ok(((n >> 1) as i64) ^ -((n & 1) as i64))
    }
    fn string(&mut self) -> R<String> {
        let n = self.len()?;
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| "table state has bad text".to_string())
    }
    fn hash(&mut self) -> R<[u8; 32]> {
        let mut h = [0u8; 32];
        h.copy_from_slice(self.take(32)?);
        Ok(h)
    }
    fn event_id(&mut self) -> R<crate::store::EventId> {
        // The id's own bytes are bounded by the state: read them through `store`'s reader
        // on a copy of what is left (ids are at most a record long).
        let rest = &self.b[self.pos..];
        let mut reader = Reader::new(rest);
        let id = reader.event_id();
        let used = reader.position();
        if used > rest.len() || reader.overran() {
            return Err("table state is truncated".to_string());
        }
        self.pos += used;
        Ok(id)
    }
    fn finding(&mut self) -> R<Finding> {
        let bad = || "table state has an unknown finding".to_string();
        let code = CODES.get(self.byte()? as usize).copied().ok_or_else(bad)?;
        let rule = RULES.get(self.byte()? as usize).copied().ok_or_else(bad)?;
        let severity = match self.byte()? {
            0 => Severity::Info,
            1 => Severity::Warning,
            2 => Severity::Critical,
            3 => Severity::CashInPlayProfile,
            _ => return Err(bad()),
        };
        Ok(Finding { code, rule, severity, message: self.string()? })
    }
    fn opt_i64(&mut self) -> R<Option<i64>> {
        Ok(match self.byte()? {
            0 => None,
            _ => Some(self.i64()?),
        })
    }
    fn arch_event(&mut self) -> R<ArchEvent> {
        let n = self.len()?;
        let canonical = self.take(n)?.to_vec();
        let seq = self.i64()?;
        let ts = self.string()?;
        let prev_hash = self.string()?;
        let refused = self.byte()? != 0;
        Ok(ArchEvent { canonical, seq, ts, prev_hash, refused })
    }

    fn opt_str(&mut self) -> R<Option<String>> {
        Ok(match self.byte()? {
            0 => None,
            _ => Some(self.string()?),
        })
    }
}

pub fn import(raw: &[u8]) -> R<TableState> {
    let mut r = In { b: raw, pos: 0 };
    let format = r.byte()?;
    if !(1..=FORMAT).contains(&format) {
        return Err("not a table state of this pitwatch native core (format byte)".to_string());
    }
    let mut t = TableState::new(&r.string()?);
    t.last_seq = r.i64()?;
    t.last_hash = r.hash()?;
    for _ in 0..r.len()? {
        let seq = r.i64()?;
        let event_id = r.event_id()?;
        let hash = r.hash()?;
        t.kept.push(Kept { seq, event_id, hash });
    }
    t.rebuild_kept_filter();
    // The missing ranges and successor hashes as read: a format 3 state's must already be
    // as the exporter writes them (`state_check`); older formats' are normalised.
    let mut missing = Vec::new();
    for _ in 0..r.len()? {
        let first = r.i64()?;
        let last = if format >= 3 { r.i64()? } else { first };
        if first > last {
            return Err("table state has a bad missing range".to_string());
        }
        missing.push((first, last));
    }
    for _ in 0..r.len()? {
        let s = r.i64()?;
        t.successor_prev.push((s, r.hash()?));
    }
    if format >= 3 {
        state_check::check_ranges(&missing, &t.successor_prev)?;
    }
    t.successor_prev.sort_by_key(|(s, _)| *s);
    t.successor_prev.dedup_by_key(|(s, _)| *s);
    t.add_missing(&missing);
    t.hand_first_seq = r.i64()?;
    for _ in 0..r.len()? {
        let f = r.finding()?;
        t.held.push(f);
    }
    if r.byte()? == 1 {
        let n = r.len()?;
        let bytes = r.take(n)?;
        let tree = crate::json::parse(bytes).map_err(|_| "table state has a bad configuration")?;
        if crate::validate::check_struct(&tree, &TABLE_CONFIGURED) == crate::validate::Verdict::Invalid {
            return Err("table state has an invalid configuration".to_string());
        }
        t.set_config(&tree);
    }
    t.config_authorized = r.byte()? != 0;
    let mut hand_seqs = Vec::new();
    for _ in 0..r.len()? {
        let seat = r.i64()?;
        let player_id = r.string()?;
        let stack = r.i64()?;
        t.seated.push(Seated { seat, player_id, stack });
    }
    t.dealer_id = r.opt_str()?;
    t.previous_button = r.opt_i64()?;
    t.previous_designated = r.opt_i64()?;
    for _ in 0..r.len()? {
        let seat = r.i64()?;
        t.offers.push((seat, r.byte()? != 0));
    }
    for _ in 0..r.len()? {
        t.new_seats.push(r.i64()?);
    }
    t.hands_played = r.i64()?;
    for _ in 0..r.len()? {
        let seat = r.i64()?;
        let kind = r.string()?;
        let amount = r.i64()?;
        let seq = r.i64()?;
        let hands_played = r.i64()?;
        t.buys.push(Buy { seat, kind, amount, seq, hands_played });
    }
    if r.byte()? == 1 {
        let hand_id = r.string()?;
        let first_seq = r.i64()?;
        let source = r.string()?;
        let last_seq = r.i64()?;
        let count = r.len()?;
        let n = r.len()?;
        let events = r.take(n)?.to_vec();
        let seq = r.i64()?;
        let ts = r.string()?;
        let hash = match r.byte()? {
            0 => None,
            _ => Some(r.hash()?),
        };
        let mut findings = Vec::new();
        for _ in 0..r.len()? {
            findings.push(r.finding()?);
        }
        let forgotten_below = r.i64()?;
        let remembered = r.len()?;
        let mut fps = Vec::with_capacity(count);
        let mut reader = Reader::new(&events);
        let mut previous = Previous::default();
        while !reader.at_end() && fps.len() < count {
            let event = reader.next_event(&mut previous);
            fps.push(event.event_id.fingerprint());
            hand_seqs.push(event.seq);
        }
        if reader.overran() || !reader.at_end() {
            return Err("table state's open hand's events cannot be read".to_string());
        }
        t.open_hand = Some(OpenHand {
            hand_id,
            first_seq,
            source,
            last_seq,
            count,
            events,
            previous: Previous { seq, ts, hash },
            findings,
            fps,
            forgotten_below,
            remembered,
            cut: Cut::default(),
            hashes: Vec::new(),
            canonical: Vec::new(),
            canonical_ends: Vec::new(),
            decoded: Vec::new(),
            unpacked: false,
        });
    }
    if format >= 2 {
        t.taken = r.i64()?;
        if r.byte()? == 1 {
            let head_seq = r.i64()?;
            let ordinal = r.i64()?;
            let mut events = Vec::new();
            for _ in 0..r.len()? {
                events.push(r.arch_event()?);
            }
            let size = events.iter().map(|e| e.canonical.len()).sum();
            t.between = Some(Between { head_seq, ordinal, events, size });
        }
        if let Some(hand) = t.open_hand.as_mut() {
            hand.cut.head_seq = r.i64()?;
            hand.cut.ordinal = r.i64()?;
            for _ in 0..r.len()? {
                let position = r.len()?;
                hand.cut.extras.push((position, r.arch_event()?));
            }
        }
    }
    if r.pos != raw.len() {
        return Err("table state has trailing bytes".to_string());
    }
    state_check::check_table(&t, &hand_seqs)?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Core;

    fn record(seq: i64, prev: &str, kind: &str, hand: &str, data: &str) -> String {
        format!(
            r#"{{"v":1,"event_id":"00000000-0000-4000-8000-{:012}","table_id":"T1","seq":{},"ts":"2026-01-05T18:00:{:02}.000Z","prev_hash":"{}","hand_id":{},"type":"{}","source":"term","data":{}}}"#,
            seq, seq, seq % 60, prev, hand, kind, data
        )
    }

    /// Table T1 configured, a player seated, a hand started and its ante: the records.
    fn open_hand_records() -> Vec<String> {
        let mut prev = "0".repeat(64);
        let events = [
            ("table_configured", "null", r#"{"game":"hcf","limits":{"min_wager":5,"max_wager":500},"rake":{"mode":"all","fee":1},"rule_profile":"house-v1","paytables":{"flush":{"7":3}}}"#),
            ("player_seated", "null", r#"{"seat":1,"player_id":"P1","stack":100}"#),
            ("hand_started", r#""H1""#, r#"{"button":1,"designated_player":null,"dealer_id":"D","seats":[{"seat":1,"player_id":"P1","stack":100}],"deck":52}"#),
            ("wager", r#""H1""#, r#"{"seat":1,"kind":"ante","amount":5}"#),
        ];
        let mut records = Vec::new();
        for (i, (kind, hand, data)) in events.iter().enumerate() {
            let raw = record(i as i64 + 1, &prev, kind, hand, data);
            let tree = crate::json::parse(raw.as_bytes()).unwrap();
            let mut scratch = Vec::new();
            crate::validate::validate(&tree, &mut scratch).unwrap();
            prev = crate::canonical::hex(&crate::canonical::sha256(&scratch));
            records.push(raw);
        }
        records
    }

    fn applied(core: &mut Core, raw: &str) -> bool {
        matches!(core.process(raw.as_bytes(), &mut |_| true), crate::Processed::Applied { .. })
    }

    #[test]
    fn a_table_met_part_way_through_its_chain_goes_on_from_the_carried_state() {
        let records = open_hand_records();
        let mut whole = Core::new();
        let mut first_day = Core::new();
        for raw in &records {
            assert!(applied(&mut whole, raw));
        }
        for raw in &records[..3] {
            assert!(applied(&mut first_day, raw));
        }
        let kept = export(&first_day.tables["T1"]);
        let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = asked.clone();
        let mut next_day = Core::new();
        next_day.carry_source = Some(Box::new(move |table: &str, seq: i64| {
            seen.lock().unwrap().push((table.to_string(), seq));
            import(&kept).ok()
        }));
        assert!(applied(&mut next_day, &records[3]));
        assert_eq!(*asked.lock().unwrap(), vec![("T1".to_string(), 4)]);
        assert_eq!(export(&next_day.tables["T1"]), export(&whole.tables["T1"]));
    }

    #[test]
    fn a_carried_state_of_another_table_is_not_taken() {
        let records = open_hand_records();
        let mut first_day = Core::new();
        for raw in &records[..3] {
            assert!(applied(&mut first_day, raw));
        }
        let mut other = first_day.tables.remove("T1").unwrap();
        other.table_id = "T9".to_string();
        let kept = export(&other);
        let mut next_day = Core::new();
        next_day.carry_source = Some(Box::new(move |_: &str, _: i64| import(&kept).ok()));
        next_day.process(records[3].as_bytes(), &mut |_| true);
        let table = &next_day.tables["T1"];
        assert_eq!(table.table_id, "T1");
        assert!(table.open_hand.is_none());
        assert!(!next_day.tables.contains_key("T9"));
    }

    #[test]
    fn missing_ranges_round_trip_and_a_format_2_state_s_single_seqs_become_ranges() {
        let mut t = TableState::new("T1");
        t.last_seq = (1 << 53) - 1;
        t.missing = vec![(3, 5), (9, (1 << 53) - 2)];
        t.successor_prev = vec![(5, [4; 32])];
        let bytes = export(&t);
        assert_eq!(bytes[0], 3);
        let back = import(&bytes).unwrap();
        assert_eq!((&back.missing, &back.successor_prev), (&t.missing, &t.successor_prev));
        // Format 2 wrote each missing seq: 3, 4, 5, 9 (zigzag varints 6, 8, 10, 18) after
        // the format byte, the table id (3 bytes), last_seq (1), last_hash (32) and the
        // number of remembered events (1).
        t.missing.clear();
        t.last_seq = 10;
        let none = export(&t);
        assert_eq!((none[37], none[38]), (0, 0));
        let old = [&[2u8][..], &none[1..38], &[4, 6, 8, 10, 18], &none[39..]].concat();
        let back = import(&old).expect("format 2");
        assert_eq!(back.missing, vec![(3, 5), (9, 9)]);
        assert_eq!(back.successor_prev, vec![(5, [4; 32])]);
        // A range upside down is refused, with its reason.
        let upside = [&none[..38], &[1, 10, 6], &none[39..]].concat();
        assert_eq!(import(&upside).err().as_deref(), Some("table state has a bad missing range"));
    }

    #[test]
    fn a_table_with_an_open_hand_round_trips() {
        let mut core = Core::new();
        for raw in &open_hand_records() {
            assert!(applied(&mut core, raw));
        }
        let table = &core.tables["T1"];
        assert!(table.open_hand.is_some());
        let bytes = export(table);
        let back = import(&bytes).unwrap();
        assert_eq!(export(&back), bytes);
        assert_eq!(back.open_hand.as_ref().unwrap().count, 2);
        assert_eq!(back.kept.len(), 2);
        assert!(import(&bytes[..bytes.len() - 1]).is_err());
        let mut bad = bytes;
        bad[0] = 9;
        assert!(import(&bad).is_err());
    }

    fn kept(seq: i64) -> Kept {
        Kept { seq, event_id: crate::store::EventId::parse(&format!("00000000-0000-4000-8000-{seq:012}")), hash: [seq as u8; 32] }
    }

    /// A table at head 10 remembering `seqs` (as given, in that order) and missing `missing`.
    fn with_window(seqs: &[i64], missing: &[(i64, i64)]) -> TableState {
        let mut t = TableState::new("T1");
        t.last_seq = 10;
        t.kept = seqs.iter().map(|&s| kept(s)).collect();
        t.missing = missing.to_vec();
        t
    }

    #[test]
    fn a_window_out_of_seq_order_is_refused_as_find_seq_would_miss_in_it() {
        assert!(import(&export(&with_window(&[2, 3, 7], &[(4, 6)]))).is_ok());
        let refused = |t: &TableState| import(&export(t)).err();
        assert_eq!(refused(&with_window(&[2, 7, 3], &[])).as_deref(),
                   Some("table state's duplicate window is out of seq order (seq 3 after seq 7)"));
        assert_eq!(refused(&with_window(&[2, 3, 3], &[])).as_deref(),
                   Some("table state's duplicate window is out of seq order (seq 3 after seq 3)"));
        assert_eq!(refused(&with_window(&[0, 3], &[])).as_deref(),
                   Some("table state's duplicate window holds seq 0, outside 1 to its head 10"));
        assert_eq!(refused(&with_window(&[3, 11], &[])).as_deref(),
                   Some("table state's duplicate window holds seq 11, outside 1 to its head 10"));
        assert_eq!(refused(&with_window(&[3, 5], &[(4, 6)])).as_deref(),
                   Some("table state's seq 5 is both remembered and missing"));
        assert_eq!(refused(&with_window(&[], &[(4, 6), (2, 3)])).as_deref(),
                   Some("table state's missing ranges are not ascending and apart (4-6 before 2-3)"));
        assert_eq!(refused(&with_window(&[], &[(2, 3), (4, 6)])).as_deref(),
                   Some("table state's missing ranges are not ascending and apart (2-3 before 4-6)"));
        assert_eq!(refused(&with_window(&[], &[(4, 10)])).as_deref(),
                   Some("table state's missing range 4-10 is not between 1 and its head 10"));
        let mut stray = with_window(&[], &[(4, 6)]);
        stray.successor_prev = vec![(8, [1; 32])];
        assert_eq!(refused(&stray).as_deref(),
                   Some("table state keeps a successor hash for seq 8, which is not missing"));
    }

    #[test]
    fn an_open_hand_that_does_not_fit_its_window_is_refused_without_a_panic() {
        let mut core = Core::new();
        for raw in &open_hand_records() {
            assert!(applied(&mut core, raw));
        }
        let whole = import(&export(&core.tables["T1"])).unwrap();
        let hand_seqs = |t: &TableState| -> Vec<i64> {
            crate::table::open_hand_events(t.open_hand.as_ref().unwrap(), &t.table_id).0.iter().map(|e| e.seq).collect()
        };
        assert_eq!(hand_seqs(&whole), vec![3, 4]);
        let refused = |change: &dyn Fn(&mut TableState)| {
            let mut t = whole.clone();
            change(&mut t);
            import(&export(&t)).err()
        };
        // Every cut of the hand's packed events: refused, none panics.
        for cut in 0..whole.open_hand.as_ref().unwrap().events.len() {
            assert!(refused(&|t| t.open_hand.as_mut().unwrap().events.truncate(cut)).is_some(), "{cut}");
        }
        assert_eq!(refused(&|t| t.open_hand.as_mut().unwrap().count = 3).as_deref(),
                   Some("table state's open hand's events cannot be read"));
        assert_eq!(refused(&|t| t.open_hand.as_mut().unwrap().remembered = 1).as_deref(),
                   Some("table state's open hand remembers 1 events, not the 2 at or above seq 0"));
        assert_eq!(refused(&|t| t.kept.push(kept(4))).as_deref(),
                   Some("table state's seq 4 is both in the open hand and the duplicate window"));
        assert_eq!(refused(&|t| t.last_seq = 3).as_deref(),
                   Some("table state's open hand holds seq 4, outside 1 to its head 3"));
    }
}
