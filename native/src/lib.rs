//! pitwatch's native intake core.
//!
//! It owns the per-event path: splitting a buffer into records, strict JSON, the v1
//! contract, RFC 8785 canonical JSON and SHA-256, the per-table `prev_hash` chain and
//! `seq` checks, and hand assembly. Only whole hands (and the rare rejected record, whose
//! reason the Python reference words) cross into Python. `python` (feature `python`) is
//! the PyO3 binding; everything else is plain Rust, tested by `cargo test`.

pub mod canonical;
pub mod crc32c;
pub mod fast;
pub mod hex;
pub mod ids;
pub mod intake;
pub mod json;
pub mod kafka;
pub mod lines;
pub mod logfile;
pub mod phh;
pub mod rules;
pub mod schema;
pub mod short_eq;
pub mod recycle;
pub mod segment_pack;
pub mod state;
pub mod state_check;
pub mod store;
pub mod table;
pub mod timestamp;
pub mod validate;

#[cfg(feature = "python")]
mod python;
#[cfg(feature = "python")]
mod python_phh;
#[cfg(feature = "python")]
mod python_ranking;

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use intake::Intake;
use table::{Output, TableState};

/// What became of one record.
pub enum Processed {
    /// Not valid v1 (the reference words the reason).
    Rejected,
    /// The reference, asked about a record this crate could not decide, rejected it.
    RejectedByReference,
    /// Applied to its table. `table_id` is the record's table when there are outputs to
    /// attribute to it, empty when there are none (the usual record: no allocation).
    Applied { table_id: String, outputs: Vec<Output> },
    /// Valid, but not of the table its Kafka key names: not applied.
    WrongKey { table_id: String },
}

/// The games the core adjudicates itself (issue #23: High Card Flush, Chinese Poker,
/// Russian Poker), under the rule profiles the caller passed in once.
#[derive(Default)]
pub struct NativeRules {
    pub profiles: HashMap<String, rules::profile::Profile>,
    /// The games whose hands are adjudicated here (the others go to the Python rules).
    pub games: rules::adjudicate::Games,
    /// Keep each adjudicated hand for the caller (surveillance needs its events).
    pub keep_hands: bool,
    /// Hands adjudicated here, hands deferred to the Python rules, panics caught.
    pub adjudicated: u64,
    pub deferred: u64,
    pub panicked: u64,
    /// Why the last hand was deferred (tests).
    pub last_defer: Option<String>,
    /// Tests only: the rules panic on the hand with this id.
    pub panic_on_hand: Option<String>,
    /// Where the standard card ranking comes from when no profile holds it yet (the
    /// binding asks Python's `native_ranking`, whose tables take numpy and a third of a
    /// second to build): called once, on the first Texas Hold'em hand, so a run without
    /// one never builds them.
    pub ranking_source: Option<RankingSource>,
}

/// See `NativeRules::ranking_source`; None: the ranking could not be had (the hand is then
/// deferred to the Python rules, which decide it as the reference does).
pub type RankingSource = Box<dyn FnMut() -> Option<std::sync::Arc<rules::ranking::CardRanking>> + Send>;

/// See `Core::carry_source`: given a table the core has no state of and the seq of the
/// first record of it taken, the state to continue it from, or None (a new table).
pub type CarrySource = Box<dyn FnMut(&str, i64) -> Option<TableState> + Send>;

impl NativeRules {
    /// Adjudicate the closed hands among `outputs` that the core's rules cover, settling
    /// their stacks; the others stay `Closed` for the Python rules. A panic in the rules
    /// is caught per hand and the hand goes to the Python rules (which then decide it,
    /// exactly as the reference does), so no hand is lost or worded differently.
    fn adjudicate(&mut self, state: &mut TableState, outputs: &mut [Output],
                  lists: &mut recycle::Lists) {
        for output in outputs.iter_mut() {
            let hand = match output {
                Output::Closed(hand) => hand,
                _ => continue,
            };
            self.prepare_for(hand);
            let (profiles, games) = (&self.profiles, self.games);
            let panic_here = self.panic_on_hand.as_deref() == Some(hand.hand_id.as_str());
            let native = catch_unwind(AssertUnwindSafe(|| {
                if panic_here {
                    panic!("injected panic in the rules (tests)");
                }
                rules::adjudicate::adjudicate_closed(hand, profiles, games)
            }));
            let done = match native {
                Ok(rules::adjudicate::Native::Done(done)) => done,
                Ok(rules::adjudicate::Native::NotNative) => continue,
                Ok(rules::adjudicate::Native::Deferred(why)) => {
                    self.deferred += 1;
                    self.last_defer = Some(why.0.to_string());
                    continue;
                }
                Err(_) => {
                    self.panicked += 1;
                    continue;
                }
            };
            self.adjudicated += 1;
            state.settle(&done.settle);
            let closed = std::mem::replace(output, Output::Adjudicated { record: Box::new(done.record), hand: None });
            if let (Output::Closed(mut closed), Output::Adjudicated { hand, .. }) = (closed, output) {
                if self.keep_hands {
                    *hand = Some(closed);
                } else {
                    lists.keep_lists_of(std::mem::take(&mut closed.events));
                }
            }
        }
    }
}

impl NativeRules {
    /// What a hand's rules need before they run: a hold'em hand the card ranking.
    pub fn prepare_for(&mut self, hand: &table::ClosedHand) {
        if rules::adjudicate::hand_game(hand) == Some("holdem") {
            self.fetch_ranking();
        }
    }

    /// The ranking from `ranking_source`, into every profile that lacks one; the source
    /// is asked once, whatever it answers (taken, so later hands skip this at once).
    fn fetch_ranking(&mut self) {
        if let Some(mut source) = self.ranking_source.take() {
            if let Some(ranking) = source() {
                for profile in self.profiles.values_mut().filter(|p| p.ranking.is_none()) {
                    profile.ranking = Some(ranking.clone());
                }
            }
        }
    }
}

/// How many tables keep their open hand's event hashes (32 bytes an event, about 2.4 kB
/// a full hand) rather than computing them again when the hand closes: the close then
/// costs no second SHA-256 of each event. Past this many tables the memory of an open
/// table matters more (10,000 open tables in 100 MB), and the others recompute.
pub const HASH_KEEPING_TABLES: usize = 512;

/// How many of those tables also keep each open-hand event as the rules take it
/// (`OpenHand::decoded`, about 0.5 kB an event, 37 kB a full hand: fifteen times the
/// hashes), so that the close decodes nothing: a few percent of the core's time, bought
/// with memory only where few tables are open (10,000 open tables must fit in 100 MB).
pub const DECODED_KEEPING_TABLES: usize = 32;

/// Every table's state, keyed by table id.
pub struct Core {
    pub tables: HashMap<String, TableState>,
    /// The record's canonical JSON, and its body in the open hand's compact form (reused).
    scratch: Vec<u8>,
    body: Vec<u8>,
    /// Cut the event archive's segments (`table::Output::Segment`).
    pub archive: bool,
    /// None: every closed hand goes to the Python rules.
    pub rules: Option<NativeRules>,
    /// How many tables keep their open hand's hashes (`HASH_KEEPING_TABLES`).
    pub hash_keeping_tables: usize,
    /// How many keep its events decoded too (`DECODED_KEEPING_TABLES`).
    pub decoded_keeping_tables: usize,
    /// Closed hands' body member lists, for the next bodies (`recycle`).
    pub lists: recycle::Lists,
    /// Where a table this core has no state of may continue from: a day's log starts
    /// part way through each table's chain, and the state an earlier run kept at the end
    /// of the day before (with its open hands) is what the table was when this log
    /// begins. Asked once a table, on its first record taken; None: every table new.
    pub carry_source: Option<CarrySource>,
}

impl Default for Core {
    fn default() -> Self {
        Core::new()
    }
}

/// The state `source` gives for a table first seen at `seq`, when it is of that table (any
/// other is not taken: the table starts new). A function of the one field, so that the
/// record being taken may still borrow the core's buffers.
fn carried(source: &mut Option<CarrySource>, table_id: &str, seq: i64) -> Option<TableState> {
    let state = source.as_mut()?(table_id, seq)?;
    (state.table_id == table_id).then_some(state)
}

impl Core {
    pub fn new() -> Self {
        Core { tables: HashMap::new(), scratch: Vec::with_capacity(1024), body: Vec::with_capacity(256), archive: false, rules: None,
               hash_keeping_tables: HASH_KEEPING_TABLES, decoded_keeping_tables: DECODED_KEEPING_TABLES,
               lists: recycle::Lists::default(), carry_source: None }
    }

    /// The engine's settings on a table state it takes (new, or imported): they are not
    /// part of the state.
    pub fn set_up(&self, mut state: TableState) -> TableState {
        state.archive = self.archive;
        state.keep_hashes = self.tables.len() < self.hash_keeping_tables;
        state.keep_decoded = state.keep_hashes && self.tables.len() < self.decoded_keeping_tables;
        state
    }

    /// Intake and apply one record. `reference_accepts` decides the records this crate
    /// defers (see `validate::Verdict::Defer`).
    pub fn process(&mut self, raw: &[u8], reference_accepts: &mut dyn FnMut(&[u8]) -> bool) -> Processed {
        self.process_keyed(raw, None, reference_accepts)
    }

    /// `process`, applying the record only when its `table_id` is `key` (when given): a
    /// Kafka record must be keyed by its table so the table's events stay in order.
    pub fn process_keyed(&mut self, raw: &[u8], key: Option<&[u8]>,
                         reference_accepts: &mut dyn FnMut(&[u8]) -> bool) -> Processed {
        // The usual record in one pass (`fast`); any other goes through the tree, which
        // decides it (and is the only path that rejects).
        let tree;
        let (envelope, hash) = match fast::take(raw, &mut self.scratch, &mut self.body) {
            Some(event) => {
                let hash = canonical::sha256(&self.scratch);
                (validate::Event { body: &self.body, ..event }, hash)
            }
            None => {
                tree = match intake::parse(raw) {
                    Some(tree) => tree,
                    None => return Processed::Rejected,
                };
                match intake::accept(&tree, &mut self.scratch) {
                    Intake::Rejected => return Processed::Rejected,
                    Intake::Accepted { deferred: true, .. } if !reference_accepts(raw) => {
                        return Processed::RejectedByReference
                    }
                    Intake::Accepted { envelope, hash, .. } => {
                        self.body.clear();
                        store::encode_struct(&mut self.body, envelope.body, envelope.event_type.body);
                        (envelope.event(&self.body), hash)
                    }
                }
            }
        };
        let table_id = envelope.table_id;
        if key.map_or(false, |k| k != table_id.as_bytes()) {
            return Processed::WrongKey { table_id: table_id.to_string() };
        }
        let state = match self.tables.get_mut(table_id) {
            Some(state) => state,
            None => {
                let state = carried(&mut self.carry_source, table_id, envelope.seq)
                    .unwrap_or_else(|| TableState::new(table_id));
                let state = self.set_up(state);
                self.tables.entry(table_id.to_string()).or_insert(state)
            }
        };
        let mut outputs = Vec::new();
        state.apply(&envelope, hash, &self.scratch, &mut outputs, &mut self.lists);
        if let Some(rules) = self.rules.as_mut() {
            if !outputs.is_empty() {
                rules.adjudicate(state, &mut outputs, &mut self.lists);
            }
        }
        let table_id = if outputs.is_empty() { String::new() } else { table_id.to_string() };
        Processed::Applied { table_id, outputs }
    }

    /// Close every hand left open, in table-id order (end of input).
    pub fn finish(&mut self) -> Vec<(String, Vec<Output>)> {
        let mut ids: Vec<&String> = self.tables.keys().collect();
        ids.sort();
        let ids: Vec<String> = ids.into_iter().cloned().collect();
        let mut out = Vec::new();
        for id in ids {
            let mut outputs = Vec::new();
            if let Some(state) = self.tables.get_mut(&id) {
                state.close_at_end(&mut outputs);
            }
            out.push((id, outputs));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn the_ranking_source_is_asked_once_whatever_it_answers() {
        let asked = Arc::new(AtomicUsize::new(0));
        let counter = asked.clone();
        let mut rules = NativeRules { ranking_source: Some(Box::new(move || {
            counter.fetch_add(1, Ordering::SeqCst);
            None
        })), ..Default::default() };
        rules.profiles.insert("house-v1".to_string(), rules::profile::Profile::default());
        rules.fetch_ranking();
        rules.fetch_ranking();
        assert_eq!(asked.load(Ordering::SeqCst), 1);
        assert!(rules.profiles["house-v1"].ranking.is_none());
    }
}

/// The extension module's allocator: mimalloc (Microsoft's, the `mimalloc` crate builds its
/// C source), not the C library's malloc. The per-event path and the rules allocate small,
/// short-lived buffers (a record's canonical bytes, a hand's lists): with glibc's malloc,
/// `malloc`, `free` and their consolidation were about 7% of `pitwatch adjudicate`'s CPU;
/// with mimalloc a 10,000-hand Russian Poker run took 4-5% less CPU (docs/native.md).
/// Only memory the core allocates goes through it: Python objects come from Python's own
/// allocator, and the core never frees what Python allocated or the reverse. Not for
/// `cargo test` and the examples (no `python` feature): `examples/allocs.rs` counts
/// allocations with its own global allocator.
#[cfg(feature = "python")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_arena_eager_commit` in mimalloc's `mi_option_e` (`mimalloc.h`; 4 in v2 and
/// v3 alike; the crate's bindings name no constant for it).
#[cfg(feature = "python")]
const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;

/// Called first when the module loads: mimalloc commits its arenas as pages are used, not
/// all at once. Committed eagerly (its default on Linux), the first arena's memory came
/// in transparent huge pages: 6 MB more resident from the start, and 10,000 open tables
/// measured 104 MB against the architecture's bound of 100 (`bench_memory.py`; 98 MB
/// with this, the same as with glibc's malloc, and no slower).
#[cfg(feature = "python")]
pub(crate) fn tune_allocator() {
    // SAFETY: `mi_option_set` stores one value in mimalloc's static table of options; it
    // takes no pointer, and 0 is a valid value of this option (commit on demand).
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0) }
}
