//! The events of an open hand as the rules take them (`DecodedEvent`): built as they
//! arrive, or decoded from the hand's packed bytes at its close, with each one's canonical
//! JSON and hash.
//!
//! Why a module of its own: how a hand's events are kept (packed, or decoded on arrival)
//! is a storage choice of the table; this is the one form both give back, which a closing
//! hand, an exported state and the archive's segments read.

use super::*;

/// `prev_hash` as the event gave it: hex, with the final newline Python's `$` let in.
pub(super) fn prev_hash_text(hash: &[u8; 32], newline: bool) -> String {
    let mut text = hex(hash);
    if newline {
        text.push('\n');
    }
    text
}
/// The events of a hand that closes, each with its hash: the ones built as they arrived
/// when the hand kept them all (and their hashes), else decoded from the packed bytes.
pub(super) fn take_decoded(hand: &mut OpenHand, table_id: &str) -> (Vec<DecodedEvent>, Vec<[u8; 32]>) {
    if hand.unpacked {
        return (std::mem::take(&mut hand.decoded), std::mem::take(&mut hand.hashes));
    }
    decode_open_hand(hand, table_id)
}

/// The events an open hand keeps, and each one's hash: as kept in an `unpacked` hand,
/// else decoded from the packed bytes.
pub fn open_hand_events<'h>(hand: &'h OpenHand, table_id: &str)
                            -> (Cow<'h, [DecodedEvent]>, Cow<'h, [[u8; 32]]>) {
    if hand.unpacked {
        return (Cow::Borrowed(&hand.decoded), Cow::Borrowed(&hand.hashes));
    }
    let (events, hashes) = decode_open_hand(hand, table_id);
    (Cow::Owned(events), Cow::Owned(hashes))
}

/// The events of a packed hand, and each one's hash (kept, or recomputed: `prev_hash` of
/// the next event is the previous one's hash unless stored).
pub(super) fn decode_open_hand(hand: &OpenHand, table_id: &str) -> (Vec<DecodedEvent>, Vec<[u8; 32]>) {
    let kept = hand.kept_hashes();
    let mut reader = store::Reader::new(&hand.events);
    let mut previous = Previous::default();
    let mut last_hash: Option<[u8; 32]> = None;
    let mut scratch = Vec::with_capacity(512);
    let mut events = Vec::with_capacity(hand.count);
    let mut hashes = Vec::with_capacity(hand.count);
    while !reader.at_end() && events.len() < hand.count {
        let d = reader.next_event(&mut previous);
        let prev_hash = match d.prev_hash {
            Some(h) => h,
            None => last_hash.unwrap_or([0; 32]),
        };
        let event = DecodedEvent {
            type_index: d.type_index,
            seq: d.seq,
            event_id: d.event_id,
            ts: d.ts,
            prev_hash,
            prev_newline: d.prev_newline,
            table_id: d.table_id,
            hand_id: d.hand_id,
            source: d.source,
            data: d.data,
        };
        let hash = match kept {
            Some(hashes) => hashes[events.len()],
            None => event.hash(table_id, &hand.hand_id, &hand.source, &mut scratch),
        };
        last_hash = Some(hash);
        events.push(event);
        hashes.push(hash);
    }
    (events, hashes)
}

/// One event of a closed hand, every envelope field resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodedEvent {
    pub type_index: u8,
    pub seq: i64,
    pub event_id: EventId,
    pub ts: Timestamp,
    /// The bytes of `prev_hash` (what the reference's hand keeps: `bytes.fromhex`).
    pub prev_hash: [u8; 32],
    /// The received `prev_hash` had a final newline (part of the event's hash).
    pub prev_newline: bool,
    /// None: the hand's table.
    pub table_id: Option<String>,
    /// None: the hand's (no copy of its id an event); `Some(None)`: null.
    pub hand_id: Option<Option<String>>,
    /// None: the hand's source.
    pub source: Option<String>,
    pub data: Value<'static>,
}

impl DecodedEvent {
    /// Its type (`type_index` came from a valid record, or from a packed form this core
    /// wrote).
    pub fn event_type(&self) -> &'static schema::EventType {
        &EVENT_TYPES[self.type_index as usize]
    }

    /// The event as the tables take it again (`arrived` the other way), its body in
    /// compact form `body`; its `event_id` text is left empty (packing reads `id`).
    pub(super) fn envelope<'e>(&'e self, keys: &HandKeys<'e>, body: &'e [u8]) -> Envelope<'e> {
        Envelope {
            type_index: self.type_index,
            event_type: self.event_type(),
            event_id: "",
            id: self.event_id.clone(),
            table_id: self.table_id.as_deref().unwrap_or(keys.table_id),
            seq: self.seq,
            ts: &self.ts,
            prev_hash: self.prev_hash,
            prev_hash_newline: self.prev_newline,
            hand_id: match &self.hand_id {
                None => Some(keys.hand_id),
                Some(h) => h.as_deref(),
            },
            source: self.source.as_deref().unwrap_or(keys.source),
            body,
        }
    }

    /// The event as `decode_open_hand` gives it back once packed (`store::encode`): the
    /// envelope's table, hand and source only where they differ from the hand's, the
    /// body read from its compact form. `cargo test` checks the two agree.
    pub fn arrived(env: &Envelope<'_>, same: Same, lists: &mut Lists) -> DecodedEvent {
        let differs = |value: &str, same: bool| (!same).then(|| value.to_string());
        let body = env.event_type.body;
        DecodedEvent {
            type_index: env.type_index,
            seq: env.seq,
            event_id: env.id.clone(),
            ts: Timestamp::from(env.ts),
            prev_hash: env.prev_hash,
            prev_newline: env.prev_hash_newline,
            table_id: differs(env.table_id, same.table_id),
            hand_id: match env.hand_id {
                Some(_) if same.hand_id => None,
                None => Some(None),
                Some(h) => Some(Some(h.to_string())),
            },
            source: differs(env.source, same.source),
            data: store::Reader::new(env.body).read_struct_into(body, lists.take(body.fields.len())),
        }
    }

    /// The canonical JSON (RFC 8785) of the whole event, written without building a tree:
    /// the envelope's members in their fixed order, the body as kept (schema order, which
    /// is canonical; `canonical::write_kept` sorts what is not, i.e. paytables).
    pub fn write_canonical(&self, table_id: &str, hand_id: &str, hand_source: &str,
                           out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(b"{\"data\":");
        canonical::write_kept(&self.data, out);
        out.extend_from_slice(b",\"event_id\":");
        self.event_id.write_json(out);
        out.extend_from_slice(b",\"hand_id\":");
        match &self.hand_id {
            None => canonical::write_str(hand_id, out),
            Some(Some(h)) => canonical::write_str(h, out),
            Some(None) => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"prev_hash\":\"");
        canonical::write_hex(&self.prev_hash, out);
        if self.prev_newline {
            out.extend_from_slice(b"\\n");
        }
        out.push(b'"');
        out.extend_from_slice(b",\"seq\":");
        canonical::write(&Value::Int(self.seq), out);
        out.extend_from_slice(b",\"source\":");
        canonical::write_str(self.source.as_deref().unwrap_or(hand_source), out);
        out.extend_from_slice(b",\"table_id\":");
        canonical::write_str(self.table_id.as_deref().unwrap_or(table_id), out);
        out.extend_from_slice(b",\"ts\":");
        canonical::write_str(&self.ts, out);
        out.extend_from_slice(b",\"type\":");
        canonical::write_str(self.event_type().tag, out);
        out.extend_from_slice(b",\"v\":1}");
    }

    pub fn hash(&self, table_id: &str, hand_id: &str, source: &str, scratch: &mut Vec<u8>)
                -> [u8; 32] {
        self.write_canonical(table_id, hand_id, source, scratch);
        canonical::sha256(scratch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Core;

    /// the ts's fraction, the source, the type, the hand id (JSON) and the body.
    fn record(seq: i64, prev: &str, event: &(&str, &str, &str, &str, &str, &str)) -> String {
        let (id_tail, fraction, source, kind, hand, data) = *event;
        format!(
            r#"{{"v":1,"event_id":"0000000a-0000-4000-8000-{id_tail:0>12}","table_id":"T1","seq":{seq},"ts":"2026-01-05T18:00:{:02}{fraction}","prev_hash":"{prev}","hand_id":{hand},"type":"{kind}","source":"{source}","data":{data}}}"#,
            seq % 60
        )
    }

    /// The events of an open hand built as they arrived (a table that keeps them decoded
    /// and unpacked) are the ones another table's packed bytes of the same records decode
    /// to, and packed when its state is exported they are those bytes: envelope fields like and unlike the hand's, ids in either case,
    /// timestamps of every length, bodies with optional members absent and present, and
    /// records the one-pass reader leaves to the tree (an escape).
    #[test]
    fn events_built_on_arrival_equal_the_packed_ones_decoded() {
        let mut core = Core::new();
        let mut packing = Core::new();
        packing.decoded_keeping_tables = 0;
        let mut prev = "0".repeat(64);
        let events = [
            ("1", ".000Z", "term", "table_configured", "null", r#"{"game":"hcf","limits":{"min_wager":5,"max_wager":500},"rake":{"mode":"all","fee":1},"rule_profile":"house-v1"}"#),
            ("2", "Z", "term", "player_seated", "null", r#"{"seat":1,"player_id":"P1","stack":100}"#),
            ("3", ".1Z", "term", "hand_started", r#""H1""#, r#"{"button":1,"designated_player":null,"dealer_id":"D","seats":[{"seat":1,"player_id":"P1","stack":100}],"deck":52}"#),
            ("4ABCDEF", ".123456789+00:00", "term", "wager", r#""H1""#, r#"{"seat":1,"kind":"ante","amount":5}"#),
            ("5", ".5Z", "shoe", "card_dealt", r#""H1""#, r#"{"card":"As","face_up":false,"seat":1,"to":"seat"}"#),
            ("6", ".50Z", r"te\u0072m", "card_dealt", r#""H1""#, r#"{"to":"burn","face_up":false,"card":null}"#),
            ("7abc", "+00:00", "term", "wager", r#""H1""#, r#"{"seat":1,"kind":"ante","amount":7}"#),
        ];
        for (i, event) in events.iter().enumerate() {
            let raw = record(i as i64 + 1, &prev, event);
            let tree = crate::json::parse(raw.as_bytes()).unwrap();
            let mut scratch = Vec::new();
            crate::validate::validate(&tree, &mut scratch).unwrap();
            prev = crate::canonical::hex(&crate::canonical::sha256(&scratch));
            for c in [&mut core, &mut packing] {
                assert!(matches!(c.process(raw.as_bytes(), &mut |_| true),
                                 crate::Processed::Applied { .. }), "{raw}");
            }
        }
        let hand = core.tables["T1"].open_hand.as_ref().unwrap();
        let other = packing.tables["T1"].open_hand.as_ref().unwrap();
        assert!(hand.unpacked && hand.events.is_empty() && !other.unpacked);
        assert_eq!((hand.count, other.count), (5, 5));
        let (packed, hashes) = decode_open_hand(other, "T1");
        assert_eq!(hand.decoded, packed);
        assert_eq!(hand.hashes, hashes);
        assert_eq!(packed[2].source.as_deref(), Some("shoe"));
        assert_eq!(packed[3].source, None);
        let (events, previous) = hand.packed_form("T1");
        assert_eq!(*events, other.events[..]);
        assert_eq!((previous.seq, &previous.ts, previous.hash), (other.previous.seq, &other.previous.ts,
                                                               other.previous.hash));
        assert_eq!(crate::state::export(&core.tables["T1"]),
                   crate::state::export(&packing.tables["T1"]));
    }
}
