//! GEN rules every game shares (`services/adjudicator/integrity.py`): deck integrity
//! (GEN-1), stacks never below zero (GEN-2), chips in or out during the hand (GEN-3),
//! cash in play (GEN-4) and a configuration nobody authorised (GEN-5). One walk over the
//! events, each check keeping its own list so the findings come in the same order.

use super::profile::GenProfile;
use super::{chips, finding, int, opt_int, opt_text, str_list, text, Chips, Defer, OrdMap, RFinding};
use crate::json::Value;
use crate::store::card_index;
use crate::table::DecodedEvent;

/// A set of cards as a bitset over `store`'s card order (rank-major: 4 cards a rank).
#[derive(Clone, Copy, Default)]
struct Cards(u64);

impl Cards {
    fn has(self, i: usize) -> bool {
        self.0 >> i & 1 == 1
    }
    fn add(&mut self, i: usize) {
        self.0 |= 1 << i;
    }
    fn remove(&mut self, i: usize) {
        self.0 &= !(1 << i);
    }
}

/// The deck of `hand_started.deck` (`services.games.cards.DECKS`): the 52 cards, or the
/// short decks from the 7 (32) or the 6 (36) up.
fn deck(size: i64) -> (Cards, usize) {
    let lowest_rank = match size {
        32 => 5, // 7
        36 => 4, // 6
        _ => 0,
    };
    let mut cards = Cards::default();
    for i in lowest_rank * 4..52 {
        cards.add(i);
    }
    (cards, 52 - lowest_rank * 4)
}

struct Scan<'g> {
    gen: &'g GenProfile,
    deck: Cards,
    deck_size: usize,
    out_of_stub: Cards,
    held: Cards,
    deck_found: Vec<RFinding>,
    stack_found: Vec<RFinding>,
    chips_found: Vec<RFinding>,
    track_stacks: bool,
    banker_seat: Option<i64>,
    stacks: OrdMap<i64, Chips>,
}

fn index(card: &str) -> Result<usize, Defer> {
    card_index(card).ok_or(Defer("a card outside the 52"))
}

impl<'g> Scan<'g> {
    /// GEN-1: from the game's deck, and not twice unless it went back to the stub.
    fn entering(&mut self, seq: i64, card: &str) -> Result<(), Defer> {
        let i = index(card)?;
        if !self.deck.has(i) {
            self.deck_found.push(finding("FOREIGN_CARD", "GEN-1", self.gen.deck_integrity, format!(
                "{} (seq {}) is not in this game's {}-card deck: a card was added or switched",
                card, seq, self.deck_size), None, None));
        } else if self.out_of_stub.has(i) {
            self.deck_found.push(finding("DUPLICATE_CARD", "GEN-1", self.gen.deck_integrity, format!(
                "{} appears twice in the hand (again at seq {}): a card was added or switched", card, seq),
                None, None));
        }
        self.out_of_stub.add(i);
        Ok(())
    }

    /// GEN-2: a seat putting in more than it has on the table (a DP paying out is its own
    /// bankroll question, HCF-11).
    fn stack_delta(&mut self, e: &DecodedEvent, seat: Option<i64>, delta: Chips) {
        let seat = match seat {
            Some(s) if self.track_stacks && self.stacks.contains(s) => s,
            _ => return,
        };
        let banker_payout = e.type_index == super::PAYOUT && Some(seat) == self.banker_seat
            && seat != int(&e.data, "seat");
        let stack = self.stacks.slot(seat, || 0);
        let before = *stack;
        *stack += delta;
        if delta < 0 && *stack < 0 && !banker_payout {
            let over = -*stack;
            *stack = 0;
            self.stack_found.push(finding("WAGER_OVER_STACK", "GEN-2", self.gen.wager_over_stack, format!(
                "seat {} put in {} chips at seq {} with only {} left on the table", seat, -delta, e.seq, before.max(0)),
                Some(seat), Some(over)));
        }
    }

    fn event(&mut self, e: &DecodedEvent) -> Result<(), Defer> {
        let d = &e.data;
        match e.type_index {
            super::CARD_DEALT => {
                if let Some(card) = opt_text(d, "card") {
                    self.entering(e.seq, card)?;
                    if matches!(text(d, "to"), "seat" | "dealer" | "board") {
                        self.held.add(index(card)?);
                    }
                }
            }
            super::DRAW => {
                let received = str_list(d, "received").unwrap_or_default();
                for card in &received {
                    self.entering(e.seq, card)?;
                }
                for card in str_list(d, "discarded").unwrap_or_default() {
                    self.held.remove(index(card)?);
                }
                for card in &received {
                    self.held.add(index(card)?);
                }
            }
            super::DEALER_REPLACED_CARD => {
                let received = text(d, "received");
                self.entering(e.seq, received)?;
                for card in str_list(d, "burned").unwrap_or_default() {
                    self.entering(e.seq, card)?;
                }
                self.held.remove(index(text(d, "removed"))?);
                self.held.add(index(received)?);
            }
            super::STUB_RESHUFFLED => {
                for card in str_list(d, "cards").unwrap_or_default() {
                    let i = index(card)?;
                    if self.held.has(i) {
                        self.deck_found.push(finding("RESHUFFLED_CARD_IN_PLAY", "GEN-1", self.gen.deck_integrity, format!(
                            "{} was shuffled back into the stub at seq {} while dealt to a hand (folded or not) or on the board, not discarded",
                            card, e.seq), None, None));
                        continue;
                    }
                    self.out_of_stub.remove(i);
                }
            }
            super::CARD_MOVED => {
                let i = index(text(d, "card"))?;
                let to = text(d, "to");
                if to == "stub" {
                    self.out_of_stub.remove(i);
                }
                if to == "board" {
                    self.held.add(i);
                } else {
                    self.held.remove(i);
                }
            }
            super::WAGER => self.stack_delta(e, opt_int(d, "seat"), -chips(d, "amount")),
            super::ACTION => self.stack_delta(e, opt_int(d, "seat"), -chips(d, "amount")),
            super::COLLECTION | super::RAKE_COLLECTED | super::WAGER_COLLECTED | super::PAYOUT => {
                let (moves, count) = stack_deltas(e, self.banker_seat);
                for &(seat, delta) in &moves[..count] {
                    self.stack_delta(e, seat, delta);
                }
            }
            super::CHIPS_CHANGED => {
                let (seat, amount, kind) = (int(d, "seat"), chips(d, "amount"), text(d, "kind"));
                if kind == "cash_in_play" {
                    self.chips_found.push(finding("CASH_IN_PLAY", "GEN-4", self.gen.cash_in_play, format!(
                        "seat {} put cash in play (seq {}); only chips are wagered", seat, e.seq),
                        Some(seat), Some(amount)));
                } else {
                    self.chips_found.push(finding("CHIPS_DURING_HAND", "GEN-3", self.gen.chips_during_hand, format!(
                        "seat {}: {} of {:+} chips during the hand (seq {})", seat, kind, amount, e.seq),
                        Some(seat), Some(amount)));
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// `_seat_of`: the seat whose stack a payout source / collection target names.
fn seat_of(account: &str, banker_seat: Option<i64>) -> Option<i64> {
    if let Some(n) = account.strip_prefix("seat:") {
        return n.parse().ok();
    }
    if account == "designated" {
        banker_seat
    } else {
        None
    }
}

/// (seat, signed change of its stack) for every stack the event moves chips of: at most
/// two, returned in place (no allocation per chip-moving event).
fn stack_deltas(e: &DecodedEvent, banker_seat: Option<i64>) -> ([(Option<i64>, Chips); 2], usize) {
    let d = &e.data;
    let amount = chips(d, "amount");
    let seat = opt_int(d, "seat");
    let none = (None, 0);
    match e.type_index {
        super::COLLECTION => match seat_of(text(d, "to"), banker_seat) {
            Some(receiver) => ([(seat, -amount), (Some(receiver), amount)], 2),
            None => ([(seat, -amount), none], 1),
        },
        super::RAKE_COLLECTED if text(d, "from") == "stack" => match seat {
            Some(s) => ([(Some(s), -amount), none], 1),
            None => ([none, none], 0),
        },
        super::WAGER_COLLECTED if text(d, "to") == "designated" => match banker_seat {
            Some(b) => ([(Some(b), amount), none], 1),
            None => ([none, none], 0),
        },
        super::PAYOUT => match seat_of(text(d, "source"), banker_seat) {
            Some(payer) => ([(seat, amount), (Some(payer), -amount)], 2),
            None => ([(seat, amount), none], 1),
        },
        _ => ([none, none], 0),
    }
}

/// `common_findings(hand, profile)`.
pub fn common_findings(events: &[DecodedEvent], config_authorized: bool, gen: &GenProfile)
                       -> Result<Vec<RFinding>, Defer> {
    let started = events.iter().find(|e| e.type_index == super::HAND_STARTED);
    let (deck, deck_size) = deck(started.map_or(52, |s| int(&s.data, "deck")));
    let mut stacks = OrdMap::default();
    if let Some(Value::Array(seats)) = started.and_then(|s| s.data.get("seats")) {
        for s in seats {
            stacks.set(int(s, "seat"), chips(s, "stack"));
        }
    }
    let mut scan = Scan {
        gen,
        deck,
        deck_size,
        out_of_stub: Cards::default(),
        held: Cards::default(),
        deck_found: Vec::new(),
        stack_found: Vec::new(),
        chips_found: Vec::new(),
        track_stacks: started.is_some(),
        banker_seat: started.and_then(|s| opt_int(&s.data, "designated_player")),
        stacks,
    };
    for e in events {
        scan.event(e)?;
    }
    let mut out = scan.deck_found;
    out.append(&mut scan.stack_found);
    out.append(&mut scan.chips_found);
    if !config_authorized {
        out.push(finding("UNAUTHORISED_CONFIGURATION", "GEN-5", gen.unauthorised_config,
            "hand played under a table_configured event that names no authorising supervisor (authorized_by)"
                .to_string(), None, None));
    }
    Ok(out)
}
