//! Per-table state: the hash chain and `seq` checks (SURV-9) and hand assembly.
//!
//! A port of `services/adjudicator/table.py` (the reference): the same decisions, the
//! same findings, alerts and DLQ reasons word for word, in the same order. What differs
//! is only how things are kept: the open hand's events compactly (`store`), and no
//! Python object until a hand closes. Adjudicating the closed hand is Python's job; the
//! stacks it moved come back through `settle`.
//!
//! Here: the state's types and the hand's assembly (apply, pack, close). Its other parts,
//! each a concept of its own: `window` (the duplicate window), `chain` (the SURV-9
//! checks), `table_events` (configuration, seating, dealer, offers, buys) and `decoded`
//! (a hand's events as the rules take them).

use crate::canonical::{self, hex};
use std::borrow::Cow;
use crate::json::Value;
use crate::schema::{self, EVENT_TYPES};
use crate::ids::EventId;
use crate::recycle::Lists;
use crate::store::{self, HandKeys, Previous, Same};
use crate::timestamp::Timestamp;
use crate::validate::Event as Envelope;

mod chain;
mod decoded;
mod table_events;
mod window;

pub use decoded::{open_hand_events, DecodedEvent};
use decoded::{prev_hash_text, take_decoded};


// services/events/bounds.py (the reference's bounds; the differential tests read them).
pub const MAX_REMEMBERED_EVENTS: usize = 8_192;
pub const MAX_MISSING_RANGES: usize = 64;
pub const MAX_HAND_EVENTS: usize = 4_000;
pub const MAX_BUYS_PER_SEAT: usize = 16;
pub const MAX_HELD_FINDINGS: usize = 64;
pub const MAX_OFFERS: usize = 64;
// services/adjudicator/archiving.py: a run of events between hands is cut at these.
pub const MAX_RUN_EVENTS: usize = 64;
pub const MAX_RUN_BYTES: usize = 256 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Info,
    Warning,
    Critical,
    /// GEN-4 between hands: the severity the table's rule profile posts (looked up by
    /// the caller, which reads profiles; the core opens no file).
    CashInPlayProfile,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Critical | Severity::CashInPlayProfile => "critical",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub code: &'static str,
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alert {
    pub code: &'static str,
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
    pub seq: i64,
    pub event_id: String,
    pub hand_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buy {
    pub seat: i64,
    pub kind: String,
    pub amount: i64,
    pub seq: i64,
    pub hands_played: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seated {
    pub seat: i64,
    pub player_id: String,
    pub stack: i64,
}

/// The table as the hand's rules see it (`services.games.model.TableContext`).
#[derive(Debug, Clone)]
pub struct Context {
    pub config: Option<Value<'static>>,
    pub config_authorized: bool,
    pub seated: Vec<Seated>,
    pub dealer_id: Option<String>,
    pub previous_button: Option<i64>,
    pub previous_designated: Option<i64>,
    pub offers: Vec<(i64, bool)>,
    pub new_seats: Vec<i64>,
    pub hands_played: i64,
    /// (buy, made since the previous hand)
    pub buys: Vec<(Buy, bool)>,
}

/// A hand that ended, ready for the rules.
#[derive(Debug, Clone)]
pub struct ClosedHand {
    pub table_id: String,
    pub hand_id: String,
    pub source: String,
    pub events: Vec<DecodedEvent>,
    pub context: Context,
    pub first_seq: i64,
    pub last_seq: i64,
    pub last_hash: [u8; 32],
    pub findings: Vec<Finding>,
}

/// What one record produced, in order.
#[derive(Debug, Clone)]
pub enum Output {
    Alert(Alert),
    Dlq(String),
    /// A hand that cannot be adjudicated (`rejected_record`).
    Incomplete { hand_id: String, findings: Vec<Finding>, game: Option<String> },
    Closed(Box<ClosedHand>),
    /// A closed hand the core's rules adjudicated (`rules`): the record's bytes, the hand
    /// itself when the caller asked for closed hands, and its stacks already settled.
    Adjudicated { record: Box<crate::rules::record::Record>, hand: Option<Box<ClosedHand>> },
    /// A critical chain finding no open hand took: rejected input (docs/events.md,
    /// "Chain breaks outside a hand").
    OutsideHand(Finding),
    /// An event archive segment (`services/adjudicator/segments.py`): a hand's events,
    /// or a run of events between hands (`hand_id` None), in arrival order.
    Segment { hand_id: Option<String>, head_seq: i64, ordinal: i64, events: Vec<ArchEvent> },
}

/// One event of an archive segment (`ArchivedEvent`): its canonical JSON and the
/// envelope fields the archive indexes; `refused`: the chain check did not apply it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchEvent {
    pub canonical: Vec<u8>,
    pub seq: i64,
    pub ts: String,
    pub prev_hash: String,
    pub refused: bool,
}

/// Events taken while no hand was open, not yet handed to the archive (`BetweenRun`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Between {
    pub head_seq: i64,
    pub ordinal: i64,
    pub events: Vec<ArchEvent>,
    pub size: usize,
}

/// What an open hand keeps for its segment beyond its packed events (`HandCut`): the
/// key, and the events taken while it was open that it does not pack, at their
/// positions in the segment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cut {
    pub head_seq: i64,
    pub ordinal: i64,
    pub extras: Vec<(usize, ArchEvent)>,
}

/// A remembered event that is not in the open hand (the open hand's own events are
/// remembered through its compact storage: no second copy of their ids and hashes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    pub seq: i64,
    pub event_id: EventId,
    pub hash: [u8; 32],
}

#[derive(Debug, Clone)]
pub struct OpenHand {
    pub hand_id: String,
    pub first_seq: i64,
    pub source: String,
    pub last_seq: i64,
    pub count: usize,
    pub events: Vec<u8>,
    pub previous: Previous,
    pub findings: Vec<Finding>,
    /// Fingerprint of each kept event's id (the fast "new id?" test).
    pub fps: Vec<u32>,
    /// The window forgot this hand's events below this seq.
    pub forgotten_below: i64,
    /// How many of this hand's events the window still remembers.
    pub remembered: usize,
    /// Its event archive segment's key and extra events.
    pub cut: Cut,
    /// Each packed event's hash, while the table keeps them (`TableState::keep_hashes`)
    /// and every event is here (a hand imported mid-way has none): with them the hand's
    /// close needs no second canonical encoding and SHA-256 of each event.
    pub hashes: Vec<[u8; 32]>,
    /// Archiving, on the same terms as `hashes`: each packed event's canonical JSON as
    /// the intake hashed it, end to end, and where each ends. With them the hand's
    /// segment is copied, not written again from the compact events at the close.
    pub canonical: Vec<u8>,
    pub canonical_ends: Vec<u32>,
    /// In an `unpacked` hand, each event as the rules take it, built when it arrives (from
    /// its envelope and compact body, already at hand) rather than packed and decoded
    /// again at the close: the close of a hand was a fifth of the core's work outside
    /// SHA-256.
    pub decoded: Vec<DecodedEvent>,
    /// The hand keeps its events decoded only (`decoded`, with `hashes`), not packed:
    /// `events` and `previous` stay empty, and `packed_form` packs them when the state
    /// is exported (a hand that began in a table with `keep_decoded`; an imported hand
    /// is packed).
    pub unpacked: bool,
}

impl OpenHand {
    /// The hand's events packed (`store::encode`) and what the last one left for the
    /// next: as kept, or for an `unpacked` hand packed now from its decoded events, with
    /// the same bytes as packing them on arrival (`cargo test` checks it).
    pub fn packed_form(&self, table_id: &str) -> (Cow<'_, [u8]>, Cow<'_, Previous>) {
        if !self.unpacked {
            return (Cow::Borrowed(&self.events), Cow::Borrowed(&self.previous));
        }
        let keys = HandKeys { table_id, hand_id: &self.hand_id, source: &self.source };
        let (mut events, mut previous, mut body) = (Vec::new(), Previous::default(), Vec::new());
        for (event, hash) in self.decoded.iter().zip(&self.hashes) {
            body.clear();
            store::encode_struct(&mut body, &event.data, event.event_type().body);
            let env = event.envelope(&keys, &body);
            store::encode(&mut events, &env, *hash, Same::of(&env, &keys), &mut previous);
        }
        (Cow::Owned(events), Cow::Owned(previous))
    }

    /// Whether what the hand keeps beside each event (`kept`, one entry an event)
    /// covers every event, the one just packed included.
    fn keeps_all(&self, kept: usize) -> bool {
        kept == self.count
    }

    /// Every event's hash, if the hand kept them all.
    fn kept_hashes(&self) -> Option<&[[u8; 32]]> {
        if self.keeps_all(self.hashes.len()) { Some(&self.hashes) } else { None }
    }

    /// Event `i`'s canonical JSON, if the hand kept every event's.
    fn kept_canonical(&self, i: usize) -> Option<&[u8]> {
        if !self.keeps_all(self.canonical_ends.len()) {
            return None;
        }
        let start = if i == 0 { 0 } else { self.canonical_ends[i - 1] as usize };
        self.canonical.get(start..self.canonical_ends[i] as usize)
    }
}

#[derive(Debug, Clone)]
pub struct TableState {
    pub table_id: String,
    pub last_seq: i64,
    pub last_hash: [u8; 32],
    /// The duplicate window (docs/events.md), less the open hand's events: ascending seq.
    pub kept: Vec<Kept>,
    /// A filter of the ids ever entered in `kept` since it was last rebuilt (at each
    /// forgetting): an id it does not hold is not in `kept`, so most records skip the scan
    /// of `kept`'s ids (which was a twentieth of the core's time per record). Entries
    /// leaving `kept` stay in it (it only says "maybe"); whatever fills `kept` other than
    /// `remember` and a hand's close calls `rebuild_kept_filter` (`state::import`).
    pub kept_filter: IdFilter,
    /// Seqs gaps skipped that have not arrived, as (first, last) ranges: ascending,
    /// disjoint, never adjacent, at most MAX_MISSING_RANGES (the highest).
    pub missing: Vec<(i64, i64)>,
    /// missing seq -> the prev_hash of the event at seq + 1, once that arrived
    /// (ascending seq; each is the top of a range, so at most one a range).
    pub successor_prev: Vec<(i64, [u8; 32])>,
    /// seq of the last hand_started applied (0: none yet).
    pub hand_first_seq: i64,
    /// Critical chain findings no open hand could take, for the table's next hand.
    pub held: Vec<Finding>,
    /// The configuration in force, as `store` keeps a `table_configured` body.
    pub config: Option<Box<[u8]>>,
    pub config_authorized: bool,
    pub seated: Vec<Seated>,
    pub dealer_id: Option<String>,
    pub previous_button: Option<i64>,
    pub previous_designated: Option<i64>,
    pub offers: Vec<(i64, bool)>,
    pub new_seats: Vec<i64>,
    pub hands_played: i64,
    pub buys: Vec<Buy>,
    pub open_hand: Option<OpenHand>,
    /// The event archive: cut segments (an engine setting, not part of the state).
    pub archive: bool,
    /// Keep the open hand's event hashes (32 bytes an event) instead of recomputing them
    /// at its close: an engine setting (`Core::HASH_KEEPING_TABLES`), not part of the
    /// state. Either way the hashes are the same.
    pub keep_hashes: bool,
    /// Keep the open hand's events decoded as they arrive (`OpenHand::decoded`; only with
    /// `keep_hashes`): an engine setting (`Core::DECODED_KEEPING_TABLES`), not state.
    pub keep_decoded: bool,
    /// How many events the last hand that closed kept, and their packed bytes: a table
    /// that keeps hashes makes room for as many in its next hand at once (a hint, not
    /// part of the state).
    pub last_hand: (usize, usize),
    /// How many events this state has taken in all (the archive's segment ordinal).
    pub taken: i64,
    pub between: Option<Between>,
}

/// A 1,024-bit filter of event ids (two bits an id, from its fingerprint): no false
/// "absent", few false "maybe" for the window's hundred-odd ids.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdFilter {
    bits: [u64; 16],
}

impl IdFilter {
    fn positions(fingerprint: u32) -> [usize; 2] {
        [(fingerprint & 1023) as usize, ((fingerprint >> 10) & 1023) as usize]
    }

    pub fn add(&mut self, fingerprint: u32) {
        for p in IdFilter::positions(fingerprint) {
            self.bits[p / 64] |= 1 << (p % 64);
        }
    }

    pub fn may_hold(&self, fingerprint: u32) -> bool {
        IdFilter::positions(fingerprint).iter().all(|&p| self.bits[p / 64] & (1 << (p % 64)) != 0)
    }
}

/// What the window knows of one remembered event.
struct Remembered {
    seq: i64,
    event_id: EventId,
    hash: [u8; 32],
}

/// Index of the range of `ranges` (ascending, disjoint) holding `seq`.
fn range_at(ranges: &[(i64, i64)], seq: i64) -> Option<usize> {
    let at = ranges.partition_point(|&(first, _)| first <= seq).checked_sub(1)?;
    (ranges[at].1 >= seq).then_some(at)
}

fn chain_finding(code: &'static str, severity: Severity, message: String) -> Finding {
    Finding { code, rule: "SURV-9", severity, message }
}

fn span(first: i64, last: i64) -> String {
    if first == last {
        format!("seq {}", first)
    } else {
        format!("seq {}..{}", first, last)
    }
}

fn short(hash: &[u8; 32]) -> String {
    hex(&hash[..6])
}

fn data_str<'v>(data: &'v Value<'v>, key: &str) -> &'v str {
    data.get(key).and_then(Value::as_str).unwrap_or("")
}

fn data_int(data: &Value<'_>, key: &str) -> i64 {
    data.get(key).and_then(Value::as_int).unwrap_or(0)
}

impl TableState {
    pub fn new(table_id: &str) -> Self {
        TableState {
            table_id: table_id.to_string(),
            last_seq: 0,
            last_hash: [0; 32],
            kept: Vec::new(),
            kept_filter: IdFilter::default(),
            missing: Vec::new(),
            successor_prev: Vec::new(),
            hand_first_seq: 0,
            held: Vec::new(),
            config: None,
            config_authorized: false,
            seated: Vec::new(),
            dealer_id: None,
            previous_button: None,
            previous_designated: None,
            offers: Vec::new(),
            new_seats: Vec::new(),
            hands_played: 0,
            buys: Vec::new(),
            open_hand: None,
            archive: false,
            keep_hashes: false,
            keep_decoded: false,
            last_hand: (0, 0),
            taken: 0,
            between: None,
        }
    }

    /// The configuration in force, decoded.
    pub fn config_value(&self) -> Option<Value<'static>> {
        self.config.as_ref().map(|c| store::Reader::new(c).read_struct(&schema::TABLE_CONFIGURED))
    }

    fn game(&self) -> Option<String> {
        self.config_value().map(|c| data_str(&c, "game").to_string())
    }

    pub fn rule_profile(&self) -> Option<String> {
        self.config_value().map(|c| data_str(&c, "rule_profile").to_string())
    }

    pub fn set_config(&mut self, body: &Value<'_>) {
        let mut compact = Vec::new();
        store::encode_struct(&mut compact, body, &schema::TABLE_CONFIGURED);
        self.config = Some(compact.into_boxed_slice());
    }

    // ------------------------------------------------------------ hand assembly

    /// Feed one validated event of this table (`apply_event`).
    pub fn apply(&mut self, env: &Envelope<'_>, hash: [u8; 32], canonical: &[u8],
                 out: &mut Vec<Output>, lists: &mut Lists) {
        if !self.check_chain(env, hash, out) {
            self.take(env, canonical, true, out);
            return;
        }
        let event_type = &EVENT_TYPES[env.type_index as usize];
        if event_type.table_level {
            self.apply_table_event(env, out);
            if self.open_hand.is_some() {
                self.append(env, hash, canonical, out, lists);
            } else {
                self.take(env, canonical, false, out);
            }
            return;
        }
        if env.type_index == schema::HAND_STARTED_INDEX && env.hand_id.is_none() {
            // events.md: hand_id is set on every event of a hand; opened as "", the hand
            // came out as a record the record contract refuses (QA). As the reference.
            let reason = format!(
                "event seq {} is a hand_started with no hand_id at table {}: no hand is opened",
                env.seq, self.table_id
            );
            self.orphan(env, canonical, out, reason);
            self.forget_previous_hand();
            return;
        }
        if env.type_index == schema::HAND_STARTED_INDEX {
            self.forget_before_previous_hand(env.seq);
            if self.open_hand.is_some() {
                let why = format!(
                    "hand_started of {} (seq {}) arrived before this hand's hand_ended",
                    env.hand_id.unwrap_or("None"),
                    env.seq
                );
                self.close_incomplete(out, &why);
            }
            self.cut_between(out);
            // A table that keeps hashes makes room at once for a hand like its last one
            // (its events grew in steps, a reallocation and a copy every few events).
            let (room, bytes) = if self.keep_hashes { self.last_hand } else { (0, 0) };
            self.open_hand = Some(OpenHand {
                hand_id: env.hand_id.unwrap_or("").to_string(),
                first_seq: env.seq,
                source: env.source.to_string(),
                last_seq: 0,
                count: 0,
                events: Vec::with_capacity(bytes),
                previous: Previous::default(),
                findings: std::mem::take(&mut self.held),
                fps: Vec::with_capacity(room),
                forgotten_below: 0,
                remembered: 0,
                cut: Cut { head_seq: self.last_seq, ordinal: self.taken, extras: Vec::new() },
                hashes: Vec::with_capacity(room),
                canonical: Vec::new(),
                canonical_ends: Vec::new(),
                decoded: Vec::with_capacity(if self.keep_decoded { room } else { 0 }),
                unpacked: self.keep_decoded,
            });
            self.pack(env, hash, canonical, lists);
            return;
        }
        let belongs = match (&self.open_hand, env.hand_id) {
            (Some(hand), Some(h)) => crate::short_eq::same_str(&hand.hand_id, h),
            _ => false,
        };
        if !belongs {
            let current = match &self.open_hand {
                Some(hand) => format!("open hand is {}", hand.hand_id),
                None => "no hand is open".to_string(),
            };
            // "hand None" for a null hand_id (QA): as the reference says it.
            let owner = match env.hand_id {
                Some(h) => format!("hand {h}"),
                None => "no hand (hand_id null)".to_string(),
            };
            let reason = format!(
                "event seq {} belongs to {} but {} at table {}",
                env.seq, owner, current, self.table_id
            );
            self.orphan(env, canonical, out, reason);
            return;
        }
        let still_open = self.append(env, hash, canonical, out, lists);
        if env.type_index == schema::HAND_ENDED_INDEX && still_open {
            self.close_hand(hash, out);
        }
    }

    /// An event no hand can take (SURV-9 `ORPHAN_EVENT`): dead-lettered with `reason`
    /// and alerted; the chain has it, between hands (`_orphan` in the reference).
    fn orphan(&mut self, env: &Envelope<'_>, canonical: &[u8], out: &mut Vec<Output>,
              reason: String) {
        out.push(Output::Dlq(reason.clone()));
        out.push(Output::Alert(Alert {
            code: "ORPHAN_EVENT",
            rule: "SURV-9",
            severity: Severity::Warning,
            message: reason,
            seq: env.seq,
            event_id: env.event_id.to_string(),
            hand_id: env.hand_id.map(str::to_string),
        }));
        self.take(env, canonical, false, out);
    }

    /// Keep the event in the open hand; the window then remembers it through the hand.
    fn pack(&mut self, env: &Envelope<'_>, hash: [u8; 32], canonical: &[u8], lists: &mut Lists) {
        let table_id = &self.table_id;
        let hand = match self.open_hand.as_mut() {
            Some(hand) => hand,
            None => return,
        };
        let same = Same::of(env, &HandKeys { table_id, hand_id: &hand.hand_id, source: &hand.source });
        if hand.unpacked {
            hand.decoded.push(DecodedEvent::arrived(env, same, lists));
        } else {
            store::encode(&mut hand.events, env, hash, same, &mut hand.previous);
        }
        hand.count += 1;
        hand.last_seq = env.seq;
        self.taken += 1;
        store::grow_gently(&mut hand.fps, 1, 16);
        hand.fps.push(env.id.fingerprint());
        if self.keep_hashes && hand.keeps_all(hand.hashes.len() + 1) {
            store::grow_gently(&mut hand.hashes, 1, 16);
            hand.hashes.push(hash);
        }
        if self.archive && self.keep_hashes && hand.keeps_all(hand.canonical_ends.len() + 1) {
            if let Ok(end) = u32::try_from(hand.canonical.len() + canonical.len()) {
                // Doubling, not `grow_gently`: only HASH_KEEPING_TABLES tables keep these,
                // and growing by an eighth copied the hand's bytes again every few events.
                hand.canonical.extend_from_slice(canonical);
                store::grow_gently(&mut hand.canonical_ends, 1, 16);
                hand.canonical_ends.push(end);
            }
        }
        // Below the hand's forgotten seqs (a late arrival the window took after it forgot)
        // the event stays remembered where it is.
        if env.seq >= hand.forgotten_below {
            if let Some(at) = self.kept.iter().rposition(|k| k.seq == env.seq) {
                self.kept.remove(at);
            }
            hand.remembered += 1;
        }
    }

    /// An event the open hand does not pack (a refused event, one of another hand, one
    /// between hands): the archive keeps it all the same, in arrival order (`_take`).
    fn take(&mut self, env: &Envelope<'_>, canonical: &[u8], refused: bool,
            out: &mut Vec<Output>) {
        if self.archive {
            let event = ArchEvent {
                canonical: canonical.to_vec(),
                seq: env.seq,
                ts: env.ts.to_string(),
                prev_hash: prev_hash_text(&env.prev_hash, env.prev_hash_newline),
                refused,
            };
            if let Some(hand) = self.open_hand.as_mut() {
                let position = hand.count + hand.cut.extras.len();
                hand.cut.extras.push((position, event));
            } else {
                let between = self.between.get_or_insert_with(|| Between {
                    head_seq: self.last_seq,
                    ordinal: self.taken,
                    events: Vec::new(),
                    size: 0,
                });
                between.size += event.canonical.len();
                between.events.push(event);
                if between.events.len() >= MAX_RUN_EVENTS || between.size >= MAX_RUN_BYTES {
                    self.cut_between(out);
                }
            }
        }
        self.taken += 1;
    }

    /// Hand the events taken between hands to the archive.
    fn cut_between(&mut self, out: &mut Vec<Output>) {
        if let Some(b) = self.between.take() {
            out.push(Output::Segment { hand_id: None, head_seq: b.head_seq, ordinal: b.ordinal,
                                       events: b.events });
        }
    }

    /// The segment of a hand closing: its packed events with the ones kept beside them
    /// put back at their positions (`_hand_events`).
    fn hand_segment(&self, hand: &OpenHand, cut: Cut, decoded: &[DecodedEvent],
                    out: &mut Vec<Output>) {
        if !self.archive {
            return;
        }
        let mut own = decoded.iter().enumerate().map(|(i, e)| {
            let canonical = match hand.kept_canonical(i) {
                Some(kept) => kept.to_vec(),
                None => {
                    let mut canonical = Vec::with_capacity(320);
                    e.write_canonical(&self.table_id, &hand.hand_id, &hand.source, &mut canonical);
                    canonical
                }
            };
            ArchEvent {
                canonical,
                seq: e.seq,
                ts: e.ts.to_string(),
                prev_hash: prev_hash_text(&e.prev_hash, e.prev_newline),
                refused: false,
            }
        });
        let total = decoded.len() + cut.extras.len();
        let mut extras = cut.extras.into_iter().peekable();
        let mut events = Vec::with_capacity(total);
        for position in 0..total {
            let beside = matches!(extras.peek(), Some((p, _)) if *p == position);
            events.extend(if beside { extras.next().map(|(_, e)| e) } else { own.next() });
        }
        out.push(Output::Segment { hand_id: Some(hand.hand_id.clone()), head_seq: cut.head_seq,
                                   ordinal: cut.ordinal, events });
    }

    /// Pack into the open hand; false when that closed it (too many events).
    fn append(&mut self, env: &Envelope<'_>, hash: [u8; 32], canonical: &[u8],
              out: &mut Vec<Output>, lists: &mut Lists) -> bool {
        self.pack(env, hash, canonical, lists);
        self.check_hand_size(out);
        self.open_hand.is_some()
    }

    fn context(&self) -> Context {
        Context {
            config: self.config_value(),
            config_authorized: self.config_authorized,
            seated: self.seated.clone(),
            dealer_id: self.dealer_id.clone(),
            previous_button: self.previous_button,
            previous_designated: self.previous_designated,
            offers: self.offers.clone(),
            new_seats: self.new_seats.clone(),
            hands_played: self.hands_played,
            buys: self
                .buys
                .iter()
                .map(|b| (b.clone(), b.hands_played == self.hands_played))
                .collect(),
        }
    }

    /// `_close_hand` up to the adjudication; the stacks follow in `settle`.
    fn close_hand(&mut self, last_hash: [u8; 32], out: &mut Vec<Output>) {
        let context = self.context();
        let mut hand = match self.open_hand.take() {
            Some(hand) => hand,
            None => return,
        };
        let (decoded, hashes) = take_decoded(&mut hand, &self.table_id);
        self.last_hand = (decoded.len(), hand.events.len());
        self.keep_hand_events(&decoded, &hashes, hand.forgotten_below);
        let cut = std::mem::take(&mut hand.cut);
        self.hand_segment(&hand, cut, &decoded, out);
        // The first event kept is the hand_started that opened the hand.
        if let Some(started) = decoded.first() {
            if started.type_index == schema::HAND_STARTED_INDEX {
                self.previous_button = started.data.get("button").and_then(Value::as_int);
                self.previous_designated =
                    started.data.get("designated_player").and_then(Value::as_int);
            }
        }
        self.offers.clear();
        self.new_seats.clear();
        self.hands_played += 1;
        out.push(Output::Closed(Box::new(ClosedHand {
            table_id: self.table_id.clone(),
            hand_id: hand.hand_id,
            source: hand.source,
            events: decoded,
            context,
            first_seq: hand.first_seq,
            last_seq: hand.last_seq,
            last_hash,
            findings: hand.findings,
        })));
    }

    /// The stacks a closed hand moved, as its adjudication recorded them.
    pub fn settle(&mut self, moves: &[(i64, i64)]) {
        for &(seat, net) in moves {
            if let Some(s) = self.seated.iter_mut().find(|s| s.seat == seat) {
                s.stack += net;
            }
        }
    }

    fn close_incomplete(&mut self, out: &mut Vec<Output>, why: &str) {
        if let Some(mut hand) = self.open_hand.take() {
            let (decoded, hashes) = take_decoded(&mut hand, &self.table_id);
            self.keep_hand_events(&decoded, &hashes, hand.forgotten_below);
            let mut findings = std::mem::take(&mut hand.findings);
            findings.push(Finding {
                code: "INCOMPLETE_HAND",
                rule: "SURV-9",
                severity: Severity::Critical,
                message: format!("hand {} cannot be adjudicated: {}", hand.hand_id, why),
            });
            let cut = std::mem::take(&mut hand.cut);
        self.hand_segment(&hand, cut, &decoded, out);
            out.push(Output::Incomplete { hand_id: hand.hand_id, findings, game: self.game() });
            self.forget_previous_hand();
        }
    }

    /// A hand was dealt that no record judges (cut short, or a hand_started without its
    /// id): where its button and designated player stood is unknown to the next hand's
    /// HCF-2 check, which then looks at nothing (`_forget_previous_hand` in the
    /// reference; kept from the hand before, an honest rotation read as a skip: QA).
    fn forget_previous_hand(&mut self) {
        self.previous_button = None;
        self.previous_designated = None;
    }

    /// End of input: a hand still open is reported, not dropped, and the events taken
    /// since the last hand go to the archive.
    pub fn close_at_end(&mut self, out: &mut Vec<Output>) {
        if self.open_hand.is_some() {
            self.close_incomplete(out, "input ended before its hand_ended");
        }
        self.cut_between(out);
    }
}
