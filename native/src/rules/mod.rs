//! The rules in the native core (issue #23): High Card Flush, Chinese Poker, Five Card
//! Draw 7-A (with the betting engine the pot games share, `betting`) and Russian Poker
//! adjudication, the GEN checks every game shares and the recorded side, ported from the
//! Python reference (`services/games/{hcf,chinese,betting,draw7a,russian}/`,
//! `services/adjudicator/{integrity,recorded,adjudicate}.py`),
//! which stays the readable reference and the oracle the differential tests compare with.
//!
//! The rules are pure: a closed hand, its table context and a rule profile (passed in from
//! Python once, `profile`) in, the hand's `AdjudicationRecord` as the bytes
//! `encode_record` gives out (`record`). No IO, no clock. Chips are `i128`: every sum of
//! the contract's chips (at most 2^53 each, at most 4,000 events a hand) fits, and every
//! product is checked (`mul`). What the port cannot decide exactly as the reference would
//! (a product beyond the bound, a paytable key Python's `int()` reads but this does not, a
//! profile section that does not load, a value the record's decoder would refuse) is a
//! `Defer`: the hand then goes to the Python rules, so a record never differs.

pub mod adjudicate;
pub mod betting;
pub mod chinese;
pub mod draw7a;
pub mod evaluation;
pub mod hcf;
pub mod holdem;
pub mod integrity;
pub mod profile;
pub mod ranking;
pub mod ranking_build;
pub mod record;
pub mod recorded;
pub mod russian;

use std::collections::BTreeMap;

use crate::json::Value;

pub type Chips = i128;

/// The expected side of a hand (`services.games.model.GameOutcome`). `pot_rake`: what a pot rake schedule
/// takes from the pot, no seat's (in `house` too; Five Card Draw's `[rake.pot]`).
/// `price_errors`: per seat, the chips it paid beyond (negative: short of) a price the
/// game reports as a finding of its own (Russian Poker's RP-2 `WRONG_FEE`); the
/// comparison leaves them out of the seat's MISPAY (`GameOutcome.price_errors`).
/// `unverified`: who won cannot be said (hold'em showdown cards unknown, TH-9): `net` is
/// empty and the record's expected side null; the bounds are each seat's least and most
/// net before rake whatever the unknown cards (`GameOutcome.net_bounds`).
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub net: BTreeMap<i64, Chips>,
    pub house: Chips,
    pub rake: BTreeMap<i64, Chips>,
    pub findings: Vec<RFinding>,
    pub seat_rules: BTreeMap<i64, &'static str>,
    pub dead: bool,
    pub pot_rake: Chips,
    pub price_errors: BTreeMap<i64, Chips>,
    pub unverified: Option<BTreeMap<i64, (Chips, Chips)>>,
    /// The fees in `rake` came out of the pot (GEN-10 `fee_from = "pot"`), not from their
    /// payers' stacks (`GameOutcome.fees_from_pot`): the comparison adds none back.
    pub fees_from_pot: bool,
}

/// The contract's bound on chips (services/events/bounds.py): what the record may carry.
pub const MAX_SAFE: Chips = (1 << 53) - 1;
/// No intermediate product goes beyond this, so that sums of them cannot overflow.
const PRODUCT_BOUND: Chips = 1 << 110;

/// The hand goes to the Python rules; the text says why (for the tests' statistics).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defer(pub &'static str);

/// `a * b`, deferred when beyond the bound (Python's ints never overflow).
pub fn mul(a: Chips, b: Chips) -> Result<Chips, Defer> {
    match a.checked_mul(b) {
        Some(p) if (-PRODUCT_BOUND..=PRODUCT_BOUND).contains(&p) => Ok(p),
        _ => Err(Defer("a product of chips beyond the native bound")),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sev {
    Info,
    Warning,
    Critical,
}

impl Sev {
    pub fn name(self) -> &'static str {
        match self {
            Sev::Info => "info",
            Sev::Warning => "warning",
            Sev::Critical => "critical",
        }
    }

    pub fn parse(s: &str) -> Option<Sev> {
        match s {
            "info" => Some(Sev::Info),
            "warning" => Some(Sev::Warning),
            "critical" => Some(Sev::Critical),
            _ => None,
        }
    }
}

/// A finding of the record (`services.events.contract.Finding`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RFinding {
    pub code: &'static str,
    pub rule: &'static str,
    pub severity: Sev,
    pub seat: Option<i64>,
    pub amount: Option<Chips>,
    pub message: String,
}

/// `services.games.model.finding`.
pub fn finding(code: &'static str, rule: &'static str, severity: Sev, message: String,
               seat: Option<i64>, amount: Option<Chips>) -> RFinding {
    RFinding { code, rule, severity, seat, amount, message }
}

/// A small map that keeps insertion order, as a Python dict does (an update keeps the
/// key's place). Hands have a few dozen keys at most, so a scan is the fastest lookup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrdMap<K, V> {
    pub items: Vec<(K, V)>,
}

impl<K, V> Default for OrdMap<K, V> {
    fn default() -> Self {
        OrdMap { items: Vec::new() }
    }
}

impl<K: PartialEq + Copy, V> OrdMap<K, V> {
    pub fn get(&self, key: K) -> Option<&V> {
        self.items.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    pub fn contains(&self, key: K) -> bool {
        self.items.iter().any(|(k, _)| *k == key)
    }

    /// `d[key] = value`
    pub fn set(&mut self, key: K, value: V) {
        match self.items.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.items.push((key, value)),
        }
    }

    /// `d.setdefault(key, make())`, mutable.
    pub fn slot(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let at = match self.items.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                self.items.push((key, make()));
                self.items.len() - 1
            }
        };
        &mut self.items[at].1
    }

    pub fn keys(&self) -> impl Iterator<Item = K> + '_ {
        self.items.iter().map(|(k, _)| *k)
    }
}

// Event type indices (schema::EVENT_TYPES order; `tests::indices_follow_the_schema`).
pub const PLAYER_SEATED: u8 = 1;
pub const PLAYER_LEFT: u8 = 2;
pub const CHIPS_CHANGED: u8 = 3;
pub const HAND_STARTED: u8 = 6;
pub const WAGER: u8 = 7;
pub const CARD_DEALT: u8 = 8;
pub const CARD_EXPOSED: u8 = 9;
pub const ACTION: u8 = 10;
pub const DRAW: u8 = 11;
pub const CARD_MOVED: u8 = 12;
pub const STUB_RESHUFFLED: u8 = 13;
pub const HAND_SET: u8 = 14;
pub const AUTO_WIN_DECLARED: u8 = 15;
pub const DEALER_REPLACED_CARD: u8 = 16;
pub const SHUFFLER_ALARM: u8 = 17;
pub const MISDEAL: u8 = 18;
pub const HAND_DEAD: u8 = 19;
pub const SHOWDOWN: u8 = 20;
pub const WAGER_COLLECTED: u8 = 21;
pub const PAYOUT: u8 = 22;
pub const COLLECTION: u8 = 23;
pub const RAKE_COLLECTED: u8 = 24;
pub const HAND_ENDED: u8 = 25;

/// An integer member of an event body (0 when absent: the contract made it present).
pub fn int(d: &Value<'_>, key: &str) -> i64 {
    d.get(key).and_then(Value::as_int).unwrap_or(0)
}

pub fn chips(d: &Value<'_>, key: &str) -> Chips {
    int(d, key) as Chips
}

/// A nullable integer member (`None` for null or absent).
pub fn opt_int(d: &Value<'_>, key: &str) -> Option<i64> {
    d.get(key).and_then(Value::as_int)
}

pub fn text<'v>(d: &'v Value<'_>, key: &str) -> &'v str {
    d.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A nullable string member.
pub fn opt_text<'v>(d: &'v Value<'_>, key: &str) -> Option<&'v str> {
    d.get(key).and_then(Value::as_str)
}

/// A list of strings (cards); `None` for null or absent.
pub fn str_list<'v>(d: &'v Value<'_>, key: &str) -> Option<Vec<&'v str>> {
    match d.get(key) {
        Some(Value::Array(items)) => Some(items.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

/// Python's `repr` of a list of ints: `[1, 2, 3]`.
pub fn int_list(items: &[i64]) -> String {
    let parts: Vec<String> = items.iter().map(|i| i.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::EVENT_TYPES;

    #[test]
    fn indices_follow_the_schema() {
        let expect = [
            (PLAYER_SEATED, "player_seated"), (CARD_EXPOSED, "card_exposed"),
            (HAND_SET, "hand_set"), (AUTO_WIN_DECLARED, "auto_win_declared"),
            (PLAYER_LEFT, "player_left"), (CHIPS_CHANGED, "chips_changed"),
            (HAND_STARTED, "hand_started"), (WAGER, "wager"), (CARD_DEALT, "card_dealt"),
            (ACTION, "action"), (DRAW, "draw"), (CARD_MOVED, "card_moved"),
            (STUB_RESHUFFLED, "stub_reshuffled"), (DEALER_REPLACED_CARD, "dealer_replaced_card"),
            (SHUFFLER_ALARM, "shuffler_alarm"), (MISDEAL, "misdeal"), (HAND_DEAD, "hand_dead"),
            (SHOWDOWN, "showdown"), (WAGER_COLLECTED, "wager_collected"), (PAYOUT, "payout"),
            (COLLECTION, "collection"), (RAKE_COLLECTED, "rake_collected"),
            (HAND_ENDED, "hand_ended"),
        ];
        for (index, tag) in expect {
            assert_eq!(EVENT_TYPES[index as usize].tag, tag);
        }
    }

    #[test]
    fn products_beyond_the_bound_defer() {
        assert_eq!(mul(3, 4), Ok(12));
        assert!(mul(1 << 60, 1 << 60).is_err());
        assert!(mul(i128::MAX, 2).is_err());
    }

    #[test]
    fn ordmap_keeps_the_first_place_of_a_key() {
        let mut m = OrdMap::default();
        m.set(3, "a");
        m.set(1, "b");
        m.set(3, "c");
        assert_eq!(m.items, vec![(3, "c"), (1, "b")]);
    }
}
