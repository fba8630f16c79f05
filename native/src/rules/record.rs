//! The `AdjudicationRecord` as `encode_record` writes it (msgspec, `order="deterministic"`):
//! the struct's fields in definition order, those with a default omitted when they hold
//! it (`omit_defaults=True`), dict keys sorted, strings escaped as msgspec escapes them
//! (the same as RFC 8785's: `canonical::write_str`).

use std::collections::BTreeMap;

use super::recorded::{Account, Movement};
use super::{Chips, RFinding};
use crate::canonical::write_str;

/// One side of the record (`SideResult`): net by seat and `house`, rake by seat / `pot`,
/// in the order `_side` inserts them (seats ascending, then `house` / `pot`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Side {
    pub net: Vec<(String, Chips)>,
    pub rake: Vec<(String, Chips)>,
}

/// The record, every field owned (`AdjudicationRecord`; `None` for a field at its default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub table_id: String,
    pub hand_id: String,
    pub game: Option<&'static str>,
    pub status: &'static str,
    pub rule_profile: Option<String>,
    pub expected: Option<Side>,
    pub recorded: Option<Side>,
    pub findings: Vec<RFinding>,
    /// seat (as a string) -> player id, seats ascending
    pub players: Option<Vec<(String, String)>>,
    pub dealer_id: Option<String>,
    pub rake_mode: Option<String>,
    pub ended_at: Option<String>,
    pub first_seq: Option<i64>,
    pub last_seq: Option<i64>,
    pub last_hash: Option<String>,
    pub movements: Option<Vec<Movement>>,
}

fn key(out: &mut Vec<u8>, name: &str) {
    out.push(b'"');
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b"\":");
}

fn opt_str(out: &mut Vec<u8>, value: Option<&str>) {
    match value {
        Some(s) => write_str(s, out),
        None => out.extend_from_slice(b"null"),
    }
}

/// An integer as JSON: `canonical::write_int` where it fits 64 bits (every real amount;
/// no `String` made for it, as `to_string` did for every chip amount of every record).
fn int(out: &mut Vec<u8>, value: impl Into<i128>) {
    let value: i128 = value.into();
    match i64::try_from(value) {
        Ok(small) => crate::canonical::write_int(small, out),
        Err(_) => out.extend_from_slice(value.to_string().as_bytes()),
    }
}

/// A dict with its keys sorted (`order="deterministic"`).
fn chips_map(out: &mut Vec<u8>, map: &[(String, Chips)]) {
    let sorted: BTreeMap<&str, Chips> = map.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    out.push(b'{');
    for (i, (k, v)) in sorted.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_str(k, out);
        out.push(b':');
        int(out, *v);
    }
    out.push(b'}');
}

fn side(out: &mut Vec<u8>, value: &Option<Side>) {
    match value {
        None => out.extend_from_slice(b"null"),
        Some(s) => {
            out.extend_from_slice(b"{\"net\":");
            chips_map(out, &s.net);
            out.extend_from_slice(b",\"rake\":");
            chips_map(out, &s.rake);
            out.push(b'}');
        }
    }
}

fn finding(out: &mut Vec<u8>, f: &RFinding) {
    out.extend_from_slice(b"{\"code\":");
    write_str(f.code, out);
    out.extend_from_slice(b",\"rule\":");
    write_str(f.rule, out);
    out.extend_from_slice(b",\"severity\":");
    write_str(f.severity.name(), out);
    out.extend_from_slice(b",\"seat\":");
    match f.seat {
        Some(s) => int(out, s),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"amount\":");
    match f.amount {
        Some(a) => int(out, a),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"message\":");
    write_str(&f.message, out);
    out.push(b'}');
}

fn movement(out: &mut Vec<u8>, m: &Movement) {
    out.extend_from_slice(b"{\"event_id\":");
    m.event_id.write_json(out);
    out.extend_from_slice(b",\"seq\":");
    int(out, m.seq);
    out.extend_from_slice(b",\"from\":");
    account(out, &m.from);
    out.extend_from_slice(b",\"to\":");
    account(out, &m.to);
    out.extend_from_slice(b",\"amount\":");
    int(out, m.amount);
    out.extend_from_slice(b",\"kind\":");
    write_str(m.kind, out);
    out.push(b'}');
}

/// An account as the JSON string its `Display` gives, written in place (these names
/// never need an escape).
fn account(out: &mut Vec<u8>, a: &Account) {
    let (prefix, seat) = a.name_parts();
    out.push(b'"');
    out.extend_from_slice(prefix.as_bytes());
    if let Some(seat) = seat {
        crate::canonical::write_int(seat, out);
    }
    out.push(b'"');
}

/// The record's bytes, exactly `encode_record(record)`.
pub fn encode(r: &Record) -> Vec<u8> {
    let mut out = Vec::new();
    encode_into(r, &mut out);
    out
}

/// `encode`, appended to `out` (a run of records written one after the other).
pub fn encode_into(r: &Record, out: &mut Vec<u8>) {
    out.reserve(2048 + 160 * r.movements.as_ref().map_or(0, |m| m.len()));
    out.extend_from_slice(b"{\"v\":1,\"table_id\":");
    write_str(&r.table_id, out);
    out.extend_from_slice(b",\"hand_id\":");
    write_str(&r.hand_id, out);
    out.extend_from_slice(b",\"game\":");
    opt_str(out, r.game);
    out.extend_from_slice(b",\"status\":");
    write_str(r.status, out);
    out.extend_from_slice(b",\"rule_profile\":");
    opt_str(out, r.rule_profile.as_deref());
    out.extend_from_slice(b",\"expected\":");
    side(out, &r.expected);
    out.extend_from_slice(b",\"recorded\":");
    side(out, &r.recorded);
    out.extend_from_slice(b",\"findings\":[");
    for (i, f) in r.findings.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        finding(out, f);
    }
    out.push(b']');
    if let Some(players) = &r.players {
        out.push(b',');
        key(out, "players");
        let sorted: BTreeMap<&str, &str> = players.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        out.push(b'{');
        for (i, (k, v)) in sorted.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_str(k, out);
            out.push(b':');
            write_str(v, out);
        }
        out.push(b'}');
    }
    for (name, value) in [("dealer_id", &r.dealer_id), ("rake_mode", &r.rake_mode), ("ended_at", &r.ended_at)] {
        if let Some(v) = value {
            out.push(b',');
            key(out, name);
            write_str(v, out);
        }
    }
    for (name, value) in [("first_seq", r.first_seq), ("last_seq", r.last_seq)] {
        if let Some(v) = value {
            out.push(b',');
            key(out, name);
            int(out, v);
        }
    }
    if let Some(h) = &r.last_hash {
        out.extend_from_slice(b",\"last_hash\":");
        write_str(h, out);
    }
    if let Some(moves) = &r.movements {
        out.extend_from_slice(b",\"movements\":[");
        for (i, m) in moves.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            movement(out, m);
        }
        out.push(b']');
    }
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::recorded::Account;
    use crate::rules::{finding, Sev};

    fn side(net: &[(&str, Chips)], rake: &[(&str, Chips)]) -> Side {
        let owned = |items: &[(&str, Chips)]| items.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        Side { net: owned(net), rake: owned(rake) }
    }

    /// The bytes `encode_record` gives for the same record (msgspec, written out by hand
    /// from its output): keys sorted as strings, optional fields omitted at their default,
    /// strings escaped.
    #[test]
    fn encodes_as_encode_record_does() {
        let record = Record {
            table_id: "T1".into(),
            hand_id: "T1-000001".into(),
            game: Some("hcf"),
            status: "discrepancy",
            rule_profile: Some("house-v1".into()),
            expected: Some(side(&[("2", 5), ("10", -5), ("house", 0)], &[])),
            recorded: Some(side(&[("2", 4), ("10", -5), ("house", 1)], &[("2", 1)])),
            findings: vec![finding("MISPAY", "HCF-7", Sev::Critical, "seat 2: \"quoted\"\n".into(), Some(2), Some(-1))],
            players: Some(vec![("2".into(), "P2".into()), ("10".into(), "P10".into())]),
            dealer_id: Some("D1".into()),
            rake_mode: Some("players".into()),
            ended_at: Some("2026-01-01T00:00:00Z".into()),
            first_seq: Some(1),
            last_seq: Some(9),
            last_hash: Some("ab".repeat(32)),
            movements: Some(vec![Movement {
                event_id: crate::ids::EventId::parse("00000000-0000-4000-8000-000000000001"), seq: 3, from: Account::Stack(2),
                to: Account::Layout(2), amount: 5, kind: "wager",
            }]),
        };
        let expected = concat!(
            r#"{"v":1,"table_id":"T1","hand_id":"T1-000001","game":"hcf","status":"discrepancy","#,
            r#""rule_profile":"house-v1","expected":{"net":{"10":-5,"2":5,"house":0},"rake":{}},"#,
            r#""recorded":{"net":{"10":-5,"2":4,"house":1},"rake":{"2":1}},"findings":[{"code":"MISPAY","#,
            r#""rule":"HCF-7","severity":"critical","seat":2,"amount":-1,"message":"seat 2: \"quoted\"\n"}],"#,
            r#""players":{"10":"P10","2":"P2"},"dealer_id":"D1","rake_mode":"players","#,
            r#""ended_at":"2026-01-01T00:00:00Z","first_seq":1,"last_seq":9,"#,
            r#""last_hash":"abababababababababababababababababababababababababababababababab","#,
            r#""movements":[{"event_id":"00000000-0000-4000-8000-000000000001","seq":3,"from":"stack:2","#,
            r#""to":"layout:2","amount":5,"kind":"wager"}]}"#,
        );
        assert_eq!(String::from_utf8(encode(&record)).unwrap(), expected);
        let rejected = Record {
            status: "rejected", rule_profile: None, expected: None, recorded: None, findings: vec![],
            players: None, dealer_id: None, rake_mode: None, ended_at: None, first_seq: None,
            last_seq: None, last_hash: None, movements: None, hand_id: "H".into(), ..record
        };
        assert_eq!(String::from_utf8(encode(&rejected)).unwrap(),
                   r#"{"v":1,"table_id":"T1","hand_id":"H","game":"hcf","status":"rejected","rule_profile":null,"expected":null,"recorded":null,"findings":[]}"#);
    }
}
