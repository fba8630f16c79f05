//! Per-table state: the hash chain and `seq` checks (SURV-9) and hand assembly.
//!
//! A port of `services/adjudicator/table.py` (the reference): the same decisions, the
//! same findings, alerts and DLQ reasons word for word, in the same order. What differs
//! is only how things are kept: the open hand's events compactly (`store`), and no
//! Python object until a hand closes. Adjudicating the closed hand is Python's job; the
//! stacks it moved come back through `settle`.

use crate::canonical::{self, hex};
use std::borrow::Cow;
use crate::json::Value;
use crate::schema::{self, EVENT_TYPES};
use crate::ids::EventId;
use crate::recycle::Lists;
use crate::store::{self, HandKeys, Previous, Same};
use crate::timestamp::Timestamp;
use crate::validate::Event as Envelope;

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

    // ------------------------------------------------------------ the duplicate window

    fn remembered_count(&self) -> usize {
        self.kept.len() + self.open_hand.as_ref().map_or(0, |h| h.remembered)
    }

    /// Every remembered event of the open hand, with its id and hash (decodes the hand:
    /// only the rare paths ask).
    fn hand_remembered(&self) -> Vec<Remembered> {
        match &self.open_hand {
            Some(hand) => {
                let (events, hashes) = open_hand_events(hand, &self.table_id);
                events
                    .iter()
                    .zip(hashes.iter())
                    .filter(|(e, _)| e.seq >= hand.forgotten_below)
                    .map(|(e, &hash)| Remembered { seq: e.seq, event_id: e.event_id.clone(), hash })
                    .collect()
            }
            None => Vec::new(),
        }
    }

    /// Enter an applied event (`Window.remember`): in seq order, and the lowest seqs go
    /// first past MAX_REMEMBERED_EVENTS.
    fn remember(&mut self, seq: i64, event_id: &EventId, hash: [u8; 32]) {
        let count = self.remembered_count();
        let entry = Kept { seq, event_id: event_id.clone(), hash };
        // Grown by a few entries, not doubled: a table's events between hands are a
        // handful, and doubling left a third of every table's window unused.
        store::grow_gently(&mut self.kept, 1, 4);
        let at = match self.kept.last() {
            Some(last) if last.seq >= seq => self.kept.partition_point(|k| k.seq < seq),
            _ => self.kept.len(),
        };
        self.kept.insert(at, entry);
        self.kept_filter.add(event_id.fingerprint());
        if count + 1 > MAX_REMEMBERED_EVENTS {
            let mut seqs: Vec<i64> = self.kept.iter().map(|k| k.seq).collect();
            seqs.extend(self.hand_remembered().iter().map(|r| r.seq));
            seqs.sort_unstable();
            if let Some(&second) = seqs.get(1) {
                self.forget_below(second);
            }
        }
    }

    /// Forget every remembered event and missing seq below `seq`.
    fn forget_below(&mut self, seq: i64) {
        let keep = self.kept.partition_point(|k| k.seq < seq);
        self.kept.drain(..keep);
        self.rebuild_kept_filter();
        let table_id = self.table_id.clone();
        if let Some(hand) = self.open_hand.as_mut() {
            if seq > hand.forgotten_below {
                hand.forgotten_below = seq;
                hand.remembered =
                    open_hand_events(hand, &table_id).0.iter().filter(|e| e.seq >= seq).count();
            }
        }
        if self.missing.first().map_or(false, |&(first, _)| first < seq) {
            self.missing.retain(|&(_, last)| last >= seq);
            if let Some(low) = self.missing.first_mut() {
                low.0 = low.0.max(seq);
            }
        }
        self.trim_successors();
    }

    /// The filter of exactly the ids in `kept`.
    pub fn rebuild_kept_filter(&mut self) {
        let mut filter = IdFilter::default();
        for k in &self.kept {
            filter.add(k.event_id.fingerprint());
        }
        self.kept_filter = filter;
    }

    fn trim_successors(&mut self) {
        let missing = &self.missing;
        self.successor_prev.retain(|(s, _)| range_at(missing, *s).is_some());
    }

    /// Whether a gap skipped `seq` and it has not arrived (a binary search).
    pub fn is_missing(&self, seq: i64) -> bool {
        range_at(&self.missing, seq).is_some()
    }

    /// Enter ranges, merging any that overlap or touch, then keep the bound
    /// (`Window._add_ranges`).
    pub fn add_missing(&mut self, added: &[(i64, i64)]) {
        let mut all: Vec<(i64, i64)> = self.missing.iter().chain(added).copied().collect();
        all.sort_unstable();
        let mut merged: Vec<(i64, i64)> = Vec::with_capacity(all.len());
        for (first, last) in all {
            match merged.last_mut() {
                Some(top) if first <= top.1.saturating_add(1) => top.1 = top.1.max(last),
                _ => merged.push((first, last)),
            }
        }
        self.missing = merged;
        self.bound_missing();
        self.trim_successors();
    }

    fn bound_missing(&mut self) {
        let extra = self.missing.len().saturating_sub(MAX_MISSING_RANGES);
        if extra > 0 {
            self.missing.drain(..extra);
            self.trim_successors();
        }
    }

    fn set_successor_prev(&mut self, seq: i64, hash: [u8; 32]) {
        match self.successor_prev.binary_search_by_key(&seq, |(s, _)| *s) {
            Ok(at) => self.successor_prev[at].1 = hash,
            Err(at) => self.successor_prev.insert(at, (seq, hash)),
        }
    }

    fn find_id(&self, id: &EventId) -> Option<Remembered> {
        let fingerprint = id.fingerprint();
        if self.kept_filter.may_hold(fingerprint) {
            if let Some(k) = self.kept.iter().find(|k| k.event_id == *id) {
                return Some(Remembered { seq: k.seq, event_id: id.clone(), hash: k.hash });
            }
        }
        let hand = self.open_hand.as_ref()?;
        if !hand.fps.contains(&fingerprint) {
            return None;
        }
        self.hand_remembered().into_iter().find(|r| r.event_id == *id)
    }

    fn find_seq(&self, seq: i64) -> Option<Remembered> {
        if seq < 1 {
            return None;
        }
        if let Ok(at) = self.kept.binary_search_by_key(&seq, |k| k.seq) {
            let k = &self.kept[at];
            return Some(Remembered { seq, event_id: k.event_id.clone(), hash: k.hash });
        }
        self.hand_remembered().into_iter().find(|r| r.seq == seq)
    }

    /// A gap: one range whatever its length (`Window.skipped`).
    fn skipped(&mut self, first: i64, last: i64, successor_prev: [u8; 32]) {
        self.set_successor_prev(last, successor_prev);
        self.add_missing(&[(first, last)]);
    }

    /// A missing seq arrived: its range is split around it (`Window.arrived_late`).
    fn arrived_late(&mut self, seq: i64, prev_hash: [u8; 32]) {
        if let Some(at) = range_at(&self.missing, seq) {
            let (first, last) = self.missing[at];
            let mut parts = Vec::with_capacity(2);
            if first < seq {
                parts.push((first, seq - 1));
            }
            if seq < last {
                parts.push((seq + 1, last));
            }
            self.missing.splice(at..=at, parts);
        }
        self.successor_prev.retain(|(s, _)| *s != seq);
        if let Some(before) = seq.checked_sub(1) {
            if self.is_missing(before) {
                self.set_successor_prev(before, prev_hash);
            }
        }
        self.bound_missing();
    }

    fn successor_prev_hash(&self, seq: i64) -> Option<[u8; 32]> {
        self.successor_prev
            .binary_search_by_key(&seq, |(s, _)| *s)
            .ok()
            .map(|at| self.successor_prev[at].1)
    }

    /// A hand starts: the window keeps the previous hand and this one.
    fn forget_before_previous_hand(&mut self, started_seq: i64) {
        let previous = self.hand_first_seq;
        if previous != 0 {
            self.forget_below(previous.min(started_seq));
        }
        self.hand_first_seq = started_seq;
    }

    /// The open hand's remembered events go back to the window as it closes.
    fn keep_hand_events(&mut self, events: &[DecodedEvent], hashes: &[[u8; 32]],
                        forgotten_below: i64) {
        store::grow_gently(&mut self.kept, events.len(), 4);
        for (event, hash) in events.iter().zip(hashes) {
            if event.seq >= forgotten_below {
                let entry = Kept { seq: event.seq, event_id: event.event_id.clone(), hash: *hash };
                // A hand's events mostly come in seq order: then they go at the end.
                if self.kept.last().map_or(true, |k| k.seq < event.seq) {
                    self.kept.push(entry);
                } else {
                    let at = self.kept.partition_point(|k| k.seq < event.seq);
                    self.kept.insert(at, entry);
                }
                self.kept_filter.add(event.event_id.fingerprint());
            }
        }
    }

    // ------------------------------------------------------------ chain (SURV-9)

    fn report(&mut self, out: &mut Vec<Output>, env: &Envelope<'_>, f: Finding) {
        out.push(Output::Alert(Alert {
            code: f.code,
            rule: f.rule,
            severity: f.severity,
            message: f.message.clone(),
            seq: env.seq,
            event_id: env.event_id.to_string(),
            hand_id: env.hand_id.map(str::to_string),
        }));
        let takes = match &self.open_hand {
            Some(hand) => env.hand_id.map_or(true, |h| h == hand.hand_id),
            None => false,
        };
        if takes {
            if let Some(hand) = self.open_hand.as_mut() {
                hand.findings.push(f);
            }
            self.check_hand_size(out);
        } else if f.severity == Severity::Critical {
            if self.held.len() < MAX_HELD_FINDINGS {
                let mut held = f.clone();
                held.message = format!("outside any hand, before this one started: {}", f.message);
                self.held.push(held);
            }
            out.push(Output::OutsideHand(f));
        }
    }

    /// A hand holds at most MAX_HAND_EVENTS events and findings together.
    fn check_hand_size(&mut self, out: &mut Vec<Output>) {
        if self.open_hand.as_ref().map_or(false, |h| h.count + h.findings.len() > MAX_HAND_EVENTS) {
            let why = format!("hand exceeded {} events and findings", MAX_HAND_EVENTS);
            self.close_incomplete(out, &why);
        }
    }

    /// An alert that is no finding of any hand (the event is not applied).
    fn info_alert(&self, out: &mut Vec<Output>, env: &Envelope<'_>, code: &'static str,
                  severity: Severity, message: String) {
        out.push(Output::Alert(Alert {
            code,
            rule: "SURV-9",
            severity,
            message,
            seq: env.seq,
            event_id: env.event_id.to_string(),
            hand_id: env.hand_id.map(str::to_string),
        }));
    }

    fn advance(&mut self, env: &Envelope<'_>, hash: [u8; 32]) {
        self.last_seq = env.seq;
        self.last_hash = hash;
        self.remember(env.seq, &env.id, hash);
    }

    /// `check_chain` (docs/events.md, "Duplicates, late and stale events": the first rule
    /// that matches decides); false: the event is not applied.
    fn check_chain(&mut self, env: &Envelope<'_>, hash: [u8; 32], out: &mut Vec<Output>) -> bool {
        if let Some(seen) = self.find_id(&env.id) {
            if seen.hash == hash {
                let message = format!(
                    "event {} (seq {}) delivered again with the same body; ignored",
                    env.event_id, env.seq
                );
                self.info_alert(out, env, "DUPLICATE_EVENT", Severity::Info, message);
            } else {
                let message = format!(
                    "event_id {} repeated with a different body (first at seq {}, now seq {}): \
                     an event was altered after it was sent",
                    env.event_id, seen.seq, env.seq
                );
                self.report(out, env, chain_finding("EVENT_ID_CONFLICT", Severity::Critical, message));
            }
            return false;
        }
        if env.seq == self.last_seq + 1 {
            if !env.prev_hash_is(&self.last_hash) {
                let message = format!(
                    "seq {} says the previous event hashed to {}…, but seq {} as received hashes \
                     to {}…: seq {} was altered (or this event's prev_hash was)",
                    env.seq,
                    short(&env.prev_hash),
                    self.last_seq,
                    short(&self.last_hash),
                    self.last_seq
                );
                self.report(out, env, chain_finding("CHAIN_BROKEN", Severity::Critical, message));
            }
            self.advance(env, hash);
            return true;
        }
        if env.seq > self.last_seq + 1 {
            let (first, last) = (self.last_seq + 1, env.seq - 1);
            let message = format!(
                "seq jumped from {} to {}: {} event(s) missing ({})",
                self.last_seq,
                env.seq,
                last - first + 1,
                span(first, last)
            );
            self.report(out, env, chain_finding("SEQ_GAP", Severity::Critical, message));
            self.skipped(first, last, env.prev_hash);
            self.advance(env, hash);
            return true;
        }
        self.late_arrival(env, hash, out)
    }

    fn late_arrival(&mut self, env: &Envelope<'_>, hash: [u8; 32], out: &mut Vec<Output>) -> bool {
        if let Some(taken) = self.find_seq(env.seq) {
            let message = format!(
                "a different event (id {}) claims seq {}, already taken at this table by event \
                 {} (head is seq {}): a replayed or forged event",
                env.event_id, env.seq, taken.event_id, self.last_seq
            );
            self.report(out, env, chain_finding("SEQ_CONFLICT", Severity::Critical, message));
            return false;
        }
        if !self.is_missing(env.seq) {
            let message = format!(
                "seq {} (event {}) is older than the events this table still remembers (head is \
                 seq {}): it cannot be compared with the event first received at that seq, so it \
                 is not applied and no hand changes (a late redelivery, or a replayed event)",
                env.seq, env.event_id, self.last_seq
            );
            self.info_alert(out, env, "STALE_EVENT", Severity::Warning, message);
            return false;
        }
        let message =
            format!("seq {} arrived after seq {}: events were re-ordered", env.seq, self.last_seq);
        self.report(out, env, chain_finding("REORDERED", Severity::Warning, message));
        let before = self.find_seq(env.seq - 1).map(|r| r.hash);
        let after_prev = self.successor_prev_hash(env.seq);
        if before.map_or(false, |h| !env.prev_hash_is(&h)) || after_prev.map_or(false, |p| p != hash) {
            let message = format!("late seq {} does not fit the hash chain around it", env.seq);
            self.report(out, env, chain_finding("CHAIN_BROKEN", Severity::Critical, message));
        }
        self.remember(env.seq, &env.id, hash);
        self.arrived_late(env.seq, env.prev_hash);
        true
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
            let reason = format!(
                "event seq {} belongs to hand {} but {} at table {}",
                env.seq,
                env.hand_id.unwrap_or("None"),
                current,
                self.table_id
            );
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
            return;
        }
        let still_open = self.append(env, hash, canonical, out, lists);
        if env.type_index == schema::HAND_ENDED_INDEX && still_open {
            self.close_hand(hash, out);
        }
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

    fn apply_table_event(&mut self, env: &Envelope<'_>, out: &mut Vec<Output>) {
        let data = env.data();
        let d = &data;
        match env.type_index {
            schema::TABLE_CONFIGURED_INDEX => {
                let authorized = !matches!(d.get("authorized_by"), None | Some(Value::Null));
                // The body as the open hand keeps it is the configuration as kept.
                self.config = Some(env.body.into());
                self.config_authorized = authorized;
                if !authorized {
                    out.push(Output::Alert(Alert {
                        code: "UNAUTHORISED_CONFIGURATION",
                        rule: "GEN-5",
                        severity: Severity::Critical,
                        message: "table_configured without authorized_by: limits, game and rake \
                                  change only with a supervisor's authorisation"
                            .to_string(),
                        seq: env.seq,
                        event_id: env.event_id.to_string(),
                        hand_id: None,
                    }));
                }
                if let Some(hand) = self.open_hand.as_mut() {
                    hand.findings.push(Finding {
                        code: "CONFIG_CHANGED_DURING_HAND",
                        rule: "GEN-5",
                        severity: Severity::Critical,
                        message: format!("table configuration changed during the hand (seq {})", env.seq),
                    });
                }
            }
            schema::PLAYER_SEATED_INDEX => {
                let seat = data_int(d, "seat");
                let player_id = data_str(d, "player_id").to_string();
                let stack = data_int(d, "stack");
                match self.seated.iter_mut().find(|s| s.seat == seat) {
                    Some(existing) => {
                        existing.player_id = player_id;
                        existing.stack = stack;
                    }
                    None => self.seated.push(Seated { seat, player_id, stack }),
                }
                if !self.new_seats.contains(&seat) {
                    self.new_seats.push(seat);
                }
                self.buys.retain(|b| b.seat != seat);
                self.record_buy(seat, "seated", stack, env.seq);
            }
            schema::PLAYER_LEFT_INDEX => {
                let seat = data_int(d, "seat");
                self.seated.retain(|s| s.seat != seat);
                self.buys.retain(|b| b.seat != seat);
            }
            schema::CHIPS_CHANGED_INDEX => {
                let seat = data_int(d, "seat");
                let amount = data_int(d, "amount");
                let kind = data_str(d, "kind");
                if let Some(s) = self.seated.iter_mut().find(|s| s.seat == seat) {
                    s.stack += amount;
                }
                if kind == "buy_in" || kind == "short_buy" {
                    self.record_buy(seat, kind, amount, env.seq);
                } else if kind == "cash_in_play" && self.open_hand.is_none() {
                    out.push(Output::Alert(Alert {
                        code: "CASH_IN_PLAY",
                        rule: "GEN-4",
                        severity: Severity::CashInPlayProfile,
                        message: format!(
                            "seat {} put {} in cash in play between hands (seq {}); only chips \
                             are wagered",
                            seat, amount, env.seq
                        ),
                        seq: env.seq,
                        event_id: env.event_id.to_string(),
                        hand_id: None,
                    }));
                }
            }
            schema::DEALER_CHANGED_INDEX => {
                self.dealer_id = Some(data_str(d, "dealer_id").to_string());
            }
            schema::DESIGNATED_PLAYER_OFFER_INDEX => {
                let accepted = matches!(d.get("accepted"), Some(Value::Bool(true)));
                self.offers.push((data_int(d, "seat"), accepted));
                if self.offers.len() > MAX_OFFERS {
                    // The latest offers decide HCF-2.
                    self.offers.remove(0);
                }
            }
            _ => {}
        }
    }

    fn record_buy(&mut self, seat: i64, kind: &str, amount: i64, seq: i64) {
        self.buys.push(Buy { seat, kind: kind.to_string(), amount, seq, hands_played: self.hands_played });
        if self.buys.iter().filter(|b| b.seat == seat).count() > MAX_BUYS_PER_SEAT {
            if let Some(first) = self.buys.iter().position(|b| b.seat == seat) {
                self.buys.remove(first);
            }
        }
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
        }
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

/// `prev_hash` as the event gave it: hex, with the final newline Python's `$` let in.
fn prev_hash_text(hash: &[u8; 32], newline: bool) -> String {
    let mut text = hex(hash);
    if newline {
        text.push('\n');
    }
    text
}
/// The events of a hand that closes, each with its hash: the ones built as they arrived
/// when the hand kept them all (and their hashes), else decoded from the packed bytes.
fn take_decoded(hand: &mut OpenHand, table_id: &str) -> (Vec<DecodedEvent>, Vec<[u8; 32]>) {
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
fn decode_open_hand(hand: &OpenHand, table_id: &str) -> (Vec<DecodedEvent>, Vec<[u8; 32]>) {
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
    fn envelope<'e>(&'e self, keys: &HandKeys<'e>, body: &'e [u8]) -> Envelope<'e> {
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

    /// The missing seqs as ranges (docs/events.md, the duplicate window): a gap is one
    /// range however long; a late arrival splits its range; forgetting trims ranges; past
    /// MAX_MISSING_RANGES the lowest ranges go; a gap up to 2**53 - 1 neither overflows
    /// nor lists its seqs.
    #[test]
    fn missing_seqs_are_ranges_split_trimmed_and_bounded() {
        let mut t = TableState::new("T1");
        let top = (1i64 << 53) - 1;
        t.skipped(14, top - 1, [7; 32]);
        assert_eq!(t.missing, vec![(14, top - 1)]);
        assert!(t.is_missing(14) && t.is_missing(top - 1) && !t.is_missing(13) && !t.is_missing(top));
        assert_eq!(t.successor_prev_hash(top - 1), Some([7; 32]));
        t.arrived_late(20, [1; 32]);
        assert_eq!(t.missing, vec![(14, 19), (21, top - 1)]);
        assert_eq!(t.successor_prev, vec![(19, [1; 32]), (top - 1, [7; 32])]);
        t.arrived_late(14, [2; 32]);
        t.arrived_late(top - 1, [3; 32]);
        assert_eq!(t.missing, vec![(15, 19), (21, top - 2)]);
        assert_eq!(t.successor_prev, vec![(19, [1; 32]), (top - 2, [3; 32])]);
        t.forget_below(17);
        assert_eq!(t.missing, vec![(17, 19), (21, top - 2)]);
        t.forget_below(20);
        assert_eq!(t.missing, vec![(21, top - 2)]);
        assert_eq!(t.successor_prev, vec![(top - 2, [3; 32])]);
        // Touching or overlapping ranges merge (a state from elsewhere may hold them).
        t.add_missing(&[(5, 9), (10, 12), (top - 3, top + 5)]);
        assert_eq!(t.missing, vec![(5, 12), (21, top + 5)]);
        // 70 gaps of one seq each: the 64 highest stay.
        let mut u = TableState::new("T1");
        for k in 0..70 {
            u.skipped(2 * k + 1, 2 * k + 1, [k as u8; 32]);
        }
        assert_eq!(u.missing.len(), MAX_MISSING_RANGES);
        assert_eq!(u.missing.first(), Some(&(13, 13)));
        assert_eq!(u.successor_prev.len(), 64);
        // Splitting a range past the bound forgets the lowest one.
        u.skipped(200, 210, [9; 32]);
        assert_eq!(u.missing.first(), Some(&(15, 15)));
        u.arrived_late(205, [8; 32]);
        assert_eq!((u.missing.len(), u.missing.first()), (64, Some(&(17, 17))));
        assert_eq!(&u.missing[62..], &[(200, 204), (206, 210)]);
        // Edges of i64 (a hostile carried state): no overflow.
        let mut v = TableState::new("T1");
        v.add_missing(&[(i64::MAX - 1, i64::MAX), (i64::MIN, i64::MIN + 1)]);
        v.arrived_late(i64::MIN, [0; 32]);
        v.arrived_late(i64::MAX, [0; 32]);
        assert_eq!(v.missing, vec![(i64::MIN + 1, i64::MIN + 1), (i64::MAX - 1, i64::MAX - 1)]);
    }

    /// A record of table T1 chained to `prev`: `event` gives the event id's last digits,
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
