//! The recorded side of a hand (`services/adjudicator/recorded.py`): the chip-moving
//! events become movements between accounts, layouts return to their seats at
//! `hand_ended`, and each seat's recorded net is the change of its stack (GEN-8 findings
//! for chips that cannot be booked or are left over).

use std::collections::BTreeMap;
use std::fmt;

use super::{chips, finding, int, opt_int, text, Chips, RFinding, Sev};
use crate::json::Value;
use crate::table::DecodedEvent;

/// An account; the derived order is `_account_order`'s: (kind name, seat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Account {
    House,
    Layout(i64),
    Pot,
    Stack(i64),
}

impl Account {
    /// The account's name as its prefix and seat (`stack:` and 2 for `stack:2`): what
    /// `Display` writes and the record writes in place (`record::account`).
    pub fn name_parts(&self) -> (&'static str, Option<i64>) {
        match self {
            Account::House => ("house", None),
            Account::Layout(s) => ("layout:", Some(*s)),
            Account::Pot => ("pot", None),
            Account::Stack(s) => ("stack:", Some(*s)),
        }
    }
}

impl fmt::Display for Account {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name_parts() {
            (prefix, Some(seat)) => write!(f, "{}{}", prefix, seat),
            (prefix, None) => f.write_str(prefix),
        }
    }
}

/// A rake key of the record: a seat, or `pot` (rake taken from the pot, no seat named).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RakeKey {
    Seat(i64),
    Pot,
}

impl RakeKey {
    pub fn name(self) -> String {
        match self {
            RakeKey::Seat(s) => s.to_string(),
            RakeKey::Pot => "pot".to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Movement {
    /// The event's id as received (written as its text: no `String` made for it).
    pub event_id: crate::ids::EventId,
    pub seq: i64,
    pub from: Account,
    pub to: Account,
    pub amount: Chips,
    pub kind: &'static str,
}

#[derive(Debug, Clone, Default)]
pub struct RecordedHand {
    pub movements: Vec<Movement>,
    pub net: BTreeMap<i64, Chips>,
    pub house: Chips,
    pub rake: BTreeMap<RakeKey, Chips>,
    pub findings: Vec<RFinding>,
}

/// `designated` / `house` / `seat:<n>` / `pot` as an account.
fn banker_account(target: &str, banker_seat: Option<i64>) -> Option<Account> {
    match target {
        "house" => Some(Account::House),
        "pot" => Some(Account::Pot),
        "designated" => banker_seat.map(Account::Stack),
        _ => target.strip_prefix("seat:").and_then(|n| n.parse().ok()).map(Account::Stack),
    }
}

type Move = (Option<Account>, Option<Account>, Chips, &'static str);

/// (from, to, amount, kind) of a chip-moving event; None for the others.
fn movement_of(e: &DecodedEvent, banker_seat: Option<i64>) -> Option<Move> {
    let d = &e.data;
    let seat = || int(d, "seat");
    Some(match e.type_index {
        super::WAGER => (Some(Account::Stack(seat())), Some(Account::Layout(seat())), chips(d, "amount"), "wager"),
        super::ACTION => (Some(Account::Stack(seat())), Some(Account::Pot), chips(d, "amount"), "bet"),
        super::WAGER_COLLECTED => (Some(Account::Layout(seat())), banker_account(text(d, "to"), banker_seat),
                                   chips(d, "amount"), "wager_collected"),
        super::PAYOUT => (banker_account(text(d, "source"), banker_seat), Some(Account::Stack(seat())),
                          chips(d, "amount"), "payout"),
        super::COLLECTION => (Some(Account::Stack(seat())), banker_account(text(d, "to"), banker_seat),
                              chips(d, "amount"), "collection"),
        super::RAKE_COLLECTED => {
            let source = if text(d, "from") == "pot" { Some(Account::Pot) } else { opt_int(d, "seat").map(Account::Stack) };
            (source, Some(Account::House), chips(d, "amount"), "rake")
        }
        _ => return None,
    })
}

fn book(out: &mut RecordedHand, balances: &mut BTreeMap<Account, Chips>, e: &DecodedEvent, src: Account,
        dst: Account, amount: Chips, kind: &'static str) {
    *balances.entry(src).or_insert(0) -= amount;
    *balances.entry(dst).or_insert(0) += amount;
    out.movements.push(Movement { event_id: e.event_id.clone(), seq: e.seq, from: src, to: dst, amount, kind });
}

/// `record_hand`: movements, per-seat net, house net and rake of a hand's events.
pub fn record_hand(events: &[DecodedEvent]) -> RecordedHand {
    let mut out = RecordedHand::default();
    let started = events.iter().find(|e| e.type_index == super::HAND_STARTED);
    let mut banker_seat = None;
    if let Some(s) = started {
        banker_seat = opt_int(&s.data, "designated_player").or_else(|| opt_int(&s.data, "button"));
        if let Some(Value::Array(seats)) = s.data.get("seats") {
            for seat in seats {
                out.net.insert(int(seat, "seat"), 0);
            }
        }
    }
    let mut balances: BTreeMap<Account, Chips> = BTreeMap::new();
    let mut ended = None;
    for e in events {
        let (src, dst, amount, mut kind) = match movement_of(e, banker_seat) {
            Some(m) => m,
            None => {
                if e.type_index == super::HAND_ENDED {
                    ended = Some(e);
                }
                continue;
            }
        };
        if amount == 0 {
            continue;
        }
        let (src, dst) = match (src, dst) {
            (Some(s), Some(d)) => (s, d),
            _ => {
                out.findings.push(finding("UNRESOLVABLE_MOVEMENT", "GEN-8", Sev::Critical, format!(
                    "event seq {} ({}) names an account that does not exist in this hand (no designated player or seat); its chips cannot be booked",
                    e.seq, kind), None, Some(amount)));
                continue;
            }
        };
        if e.type_index == super::RAKE_COLLECTED {
            let key = opt_int(&e.data, "seat").map_or(RakeKey::Pot, RakeKey::Seat);
            *out.rake.entry(key).or_insert(0) += amount;
        } else if e.type_index == super::PAYOUT && text(&e.data, "source") == "house"
            && text(&e.data, "kind") == "refund" && refund_rake(&mut out, e, amount) {
            kind = "rake_refund";
        }
        book(&mut out, &mut balances, e, src, dst, amount, kind);
    }
    if let Some(end) = ended {
        // events.md: whatever is still on a layout at hand_ended goes back to the player.
        let layouts: Vec<(Account, Chips)> = balances.iter().map(|(a, b)| (*a, *b)).collect();
        for (account, balance) in layouts {
            if let Account::Layout(seat) = account {
                if balance > 0 {
                    book(&mut out, &mut balances, end, account, Account::Stack(seat), balance, "layout_return");
                }
            }
        }
    }
    check_leftovers(&mut out, &balances);
    for (account, balance) in &balances {
        if let Account::Stack(seat) = account {
            out.net.insert(*seat, *balance);
        }
    }
    out.house = balances.get(&Account::House).copied().unwrap_or(0);
    out
}

/// HCF-12: a house `refund` no larger than the rake the seat paid gives that rake back.
fn refund_rake(out: &mut RecordedHand, e: &DecodedEvent, amount: Chips) -> bool {
    let key = RakeKey::Seat(int(&e.data, "seat"));
    let paid = out.rake.get(&key).copied().unwrap_or(0);
    if !(0 < amount && amount <= paid) {
        return false;
    }
    out.rake.insert(key, paid - amount);
    true
}

/// GEN-8: chips left in the pot, paid out of it beyond what went in, or collected from a
/// layout beyond what was wagered.
fn check_leftovers(out: &mut RecordedHand, balances: &BTreeMap<Account, Chips>) {
    let left = balances.get(&Account::Pot).copied().unwrap_or(0);
    match left.cmp(&0) {
        std::cmp::Ordering::Greater => out.findings.push(finding("POT_NOT_EMPTY", "GEN-8", Sev::Critical, format!(
            "{} chips were left in the pot at hand_ended (every pot must be awarded, refunded or raked)", left),
            None, Some(left))),
        std::cmp::Ordering::Less => out.findings.push(finding("POT_OVERDRAWN", "GEN-8", Sev::Critical, format!(
            "{} chips more were paid out of the pot (payouts, refunds, rake) than were put in it", -left),
            None, Some(-left))),
        std::cmp::Ordering::Equal => {}
    }
    for (account, balance) in balances {
        if let Account::Layout(seat) = account {
            if *balance < 0 {
                out.findings.push(finding("LAYOUT_OVERDRAWN", "GEN-8", Sev::Critical, format!(
                    "seat {}: {} chips more were collected from the layout than the seat wagered", seat, -balance),
                    Some(*seat), Some(-balance)));
            }
        }
    }
}
