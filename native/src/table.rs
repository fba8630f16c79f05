//! Per-table state: the hash chain and `seq` checks (SURV-9) and hand assembly.
//!
//! A port of `services/adjudicator/table.py` (the reference): the same decisions, the
//! same findings, alerts and DLQ reasons word for word, in the same order. What differs
//! is only how things are kept: the open hand's events compactly (`store`), and no
//! Python object until a hand closes. Adjudicating the closed hand is Python's job; the
//! stacks it moved come back through `settle`.

use crate::canonical::{self, hex};
use crate::json::Value;
use crate::schema::{self, EVENT_TYPES};
use crate::store::{self, HandKeys, Previous};
use crate::validate::Envelope;

pub const RECENT_WINDOW: usize = 64;
pub const MAX_HAND_EVENTS: usize = 4000;
pub const MAX_BUYS_PER_SEAT: usize = 16;

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
    pub events: Vec<u8>,
    pub count: usize,
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
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recent {
    pub event_id: String,
    pub seq: i64,
    pub hash: [u8; 32],
    pub prev_hash: [u8; 32],
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
}

#[derive(Debug, Clone)]
pub struct TableState {
    pub table_id: String,
    pub last_seq: i64,
    pub last_hash: [u8; 32],
    pub recent: Vec<Recent>,
    pub recent_oldest: usize,
    pub missing: Vec<i64>,
    pub config: Option<Value<'static>>,
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
            recent: Vec::new(),
            recent_oldest: 0,
            missing: Vec::new(),
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
        }
    }

    fn game(&self) -> Option<String> {
        self.config.as_ref().map(|c| data_str(c, "game").to_string())
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
        if let Some(hand) = self.open_hand.as_mut() {
            if env.hand_id.map_or(true, |h| h == hand.hand_id) {
                hand.findings.push(f);
            }
        }
    }

    fn remember(&mut self, env: &Envelope<'_>, hash: [u8; 32]) {
        let entry = Recent {
            event_id: env.event_id.to_string(),
            seq: env.seq,
            hash,
            prev_hash: env.prev_hash,
        };
        if self.recent.len() < RECENT_WINDOW {
            self.recent.push(entry);
            return;
        }
        let oldest = self.recent_oldest;
        self.recent_oldest = (oldest + 1) % RECENT_WINDOW;
        self.recent[oldest] = entry;
    }

    fn advance(&mut self, env: &Envelope<'_>, hash: [u8; 32]) {
        self.last_seq = env.seq;
        self.last_hash = hash;
        self.remember(env, hash);
    }

    /// `check_chain` with `_next_in_chain` folded in; false: the event is not applied.
    fn check_chain(&mut self, env: &Envelope<'_>, hash: [u8; 32], out: &mut Vec<Output>) -> bool {
        if let Some(seen) = self.recent.iter().find(|r| r.event_id == env.event_id) {
            if seen.hash == hash {
                out.push(Output::Alert(Alert {
                    code: "DUPLICATE_EVENT",
                    rule: "SURV-9",
                    severity: Severity::Info,
                    message: format!(
                        "event {} (seq {}) delivered again with the same body; ignored",
                        env.event_id, env.seq
                    ),
                    seq: env.seq,
                    event_id: env.event_id.to_string(),
                    hand_id: env.hand_id.map(str::to_string),
                }));
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
            if env.prev_hash != self.last_hash {
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
            let count = last - first + 1;
            let message = format!(
                "seq jumped from {} to {}: {} event(s) missing ({})",
                self.last_seq,
                env.seq,
                count,
                span(first, last)
            );
            self.report(out, env, chain_finding("SEQ_GAP", Severity::Critical, message));
            let window = RECENT_WINDOW as i64;
            let from = first.max(last - window + 1);
            let mut missing: Vec<i64> = self.missing.clone();
            for s in from..=last {
                if !missing.contains(&s) {
                    missing.push(s);
                }
            }
            missing.sort_unstable();
            let keep = missing.len().saturating_sub(RECENT_WINDOW);
            self.missing = missing.split_off(keep);
            self.advance(env, hash);
            return true;
        }
        self.late_arrival(env, hash, out)
    }

    fn late_arrival(&mut self, env: &Envelope<'_>, hash: [u8; 32], out: &mut Vec<Output>) -> bool {
        if let Some(at) = self.missing.iter().position(|&s| s == env.seq) {
            self.missing.remove(at);
            let message = format!(
                "seq {} arrived after seq {}: events were re-ordered",
                env.seq, self.last_seq
            );
            self.report(out, env, chain_finding("REORDERED", Severity::Warning, message));
            let before = self.find_by_seq(env.seq - 1).map(|r| r.hash);
            let after = self.find_by_seq(env.seq + 1).map(|r| r.prev_hash);
            if before.map_or(false, |h| h != env.prev_hash) || after.map_or(false, |p| p != hash) {
                let message = format!("late seq {} does not fit the hash chain around it", env.seq);
                self.report(out, env, chain_finding("CHAIN_BROKEN", Severity::Critical, message));
            }
            self.remember(env, hash);
            return true;
        }
        let message = format!(
            "a different event (id {}) claims seq {}, already taken at this table (head is seq \
             {}): a replayed or forged event",
            env.event_id, env.seq, self.last_seq
        );
        self.report(out, env, chain_finding("SEQ_CONFLICT", Severity::Critical, message));
        false
    }

    fn find_by_seq(&self, seq: i64) -> Option<&Recent> {
        if seq < 1 {
            return None;
        }
        self.recent.iter().find(|r| r.seq == seq)
    }

    // ------------------------------------------------------------ hand assembly

    /// Feed one validated event of this table (`apply_event`).
    pub fn apply(&mut self, env: &Envelope<'_>, hash: [u8; 32], out: &mut Vec<Output>) {
        if !self.check_chain(env, hash, out) {
            return;
        }
        let event_type = &EVENT_TYPES[env.type_index as usize];
        if event_type.table_level {
            self.apply_table_event(env, out);
            if self.open_hand.is_some() {
                self.append(env, hash, out);
            }
            return;
        }
        if env.type_index == schema::HAND_STARTED_INDEX {
            if self.open_hand.is_some() {
                let why = format!(
                    "hand_started of {} (seq {}) arrived before this hand's hand_ended",
                    env.hand_id.unwrap_or("None"),
                    env.seq
                );
                self.close_incomplete(out, &why);
            }
            self.open_hand = Some(OpenHand {
                hand_id: env.hand_id.unwrap_or("").to_string(),
                first_seq: env.seq,
                source: env.source.to_string(),
                last_seq: 0,
                count: 0,
                events: Vec::new(),
                previous: Previous::default(),
                findings: Vec::new(),
            });
            self.pack(env, hash);
            return;
        }
        let belongs = match (&self.open_hand, env.hand_id) {
            (Some(hand), Some(h)) => hand.hand_id == h,
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
            return;
        }
        let still_open = self.append(env, hash, out);
        if env.type_index == schema::HAND_ENDED_INDEX && still_open {
            self.close_hand(hash, out);
        }
    }

    fn pack(&mut self, env: &Envelope<'_>, hash: [u8; 32]) {
        let table_id = &self.table_id;
        if let Some(hand) = self.open_hand.as_mut() {
            let keys = HandKeys { table_id, hand_id: &hand.hand_id, source: &hand.source };
            store::encode(&mut hand.events, env, hash, &keys, &mut hand.previous);
            hand.count += 1;
            hand.last_seq = env.seq;
        }
    }

    /// Pack into the open hand; false when that closed it (too many events).
    fn append(&mut self, env: &Envelope<'_>, hash: [u8; 32], out: &mut Vec<Output>) -> bool {
        self.pack(env, hash);
        if self.open_hand.as_ref().map_or(false, |h| h.count > MAX_HAND_EVENTS) {
            self.close_incomplete(out, &format!("hand exceeded {} events", MAX_HAND_EVENTS));
            return false;
        }
        true
    }

    fn apply_table_event(&mut self, env: &Envelope<'_>, out: &mut Vec<Output>) {
        let d = env.data;
        match env.type_index {
            schema::TABLE_CONFIGURED_INDEX => {
                let authorized = !matches!(d.get("authorized_by"), None | Some(Value::Null));
                self.config = Some(d.clone().into_owned());
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
            config: self.config.clone(),
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
        let hand = match self.open_hand.take() {
            Some(hand) => hand,
            None => return,
        };
        // The first event kept is the hand_started that opened the hand.
        let mut reader = store::Reader::new(&hand.events);
        let mut previous = Previous::default();
        if !reader.at_end() {
            let started = reader.next_event(&mut previous);
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
            events: hand.events,
            count: hand.count,
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
        if let Some(hand) = self.open_hand.take() {
            let mut findings = hand.findings;
            findings.push(Finding {
                code: "INCOMPLETE_HAND",
                rule: "SURV-9",
                severity: Severity::Critical,
                message: format!("hand {} cannot be adjudicated: {}", hand.hand_id, why),
            });
            out.push(Output::Incomplete { hand_id: hand.hand_id, findings, game: self.game() });
        }
    }

    /// End of input: a hand still open is reported, not dropped.
    pub fn close_at_end(&mut self, out: &mut Vec<Output>) {
        if self.open_hand.is_some() {
            self.close_incomplete(out, "input ended before its hand_ended");
        }
    }
}

/// Recompute the hash of each kept event (for `prev_hash`), decoding the hand.
pub fn decode_hand(hand: &ClosedHand) -> Vec<DecodedEvent> {
    let mut reader = store::Reader::new(&hand.events);
    let mut previous = Previous::default();
    let mut last_hash: Option<[u8; 32]> = None;
    let mut scratch = Vec::with_capacity(512);
    let mut events = Vec::with_capacity(hand.count);
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
            table_id: d.table_id,
            hand_id: match d.hand_id {
                None => Some(hand.hand_id.clone()),
                Some(h) => h,
            },
            source: d.source,
            data: d.data,
        };
        last_hash = Some(event.hash(&hand.table_id, &hand.source, &mut scratch));
        events.push(event);
    }
    events
}

/// One event of a closed hand, every envelope field resolved.
pub struct DecodedEvent {
    pub type_index: u8,
    pub seq: i64,
    pub event_id: String,
    pub ts: String,
    pub prev_hash: [u8; 32],
    /// None: the hand's table.
    pub table_id: Option<String>,
    pub hand_id: Option<String>,
    /// None: the hand's source.
    pub source: Option<String>,
    pub data: Value<'static>,
}

impl DecodedEvent {
    /// The whole event as a tree (for its canonical hash).
    pub fn tree<'a>(&'a self, table_id: &'a str, source: &'a str) -> Value<'a> {
        use std::borrow::Cow::Borrowed;
        let s = |text: &'a str| Value::Str(Borrowed(text));
        Value::Object(vec![
            (Borrowed("v"), Value::Int(1)),
            (Borrowed("event_id"), s(&self.event_id)),
            (Borrowed("table_id"), s(self.table_id.as_deref().unwrap_or(table_id))),
            (Borrowed("seq"), Value::Int(self.seq)),
            (Borrowed("ts"), s(&self.ts)),
            (Borrowed("prev_hash"), Value::Str(std::borrow::Cow::Owned(hex(&self.prev_hash)))),
            (Borrowed("hand_id"), self.hand_id.as_deref().map_or(Value::Null, s)),
            (Borrowed("type"), s(EVENT_TYPES[self.type_index as usize].tag)),
            (Borrowed("source"), s(self.source.as_deref().unwrap_or(source))),
            (Borrowed("data"), shallow(&self.data)),
        ])
    }

    pub fn hash(&self, table_id: &str, source: &str, scratch: &mut Vec<u8>) -> [u8; 32] {
        canonical::hash(&self.tree(table_id, source), scratch)
    }
}

/// A borrowed copy of a tree (the canonical writer takes one tree).
fn shallow<'a>(value: &'a Value<'static>) -> Value<'a> {
    use std::borrow::Cow::Borrowed;
    match value {
        Value::Str(s) => Value::Str(Borrowed(s.as_ref())),
        Value::Array(items) => Value::Array(items.iter().map(shallow).collect()),
        Value::Object(members) => {
            Value::Object(members.iter().map(|(k, v)| (Borrowed(k.as_ref()), shallow(v))).collect())
        }
        Value::Null => Value::Null,
        Value::Bool(b) => Value::Bool(*b),
        Value::Int(i) => Value::Int(*i),
        Value::OtherNumber => Value::OtherNumber,
    }
}
