//! One Russian Poker hand's events read once into what each box and the dealer did, and
//! when (the port of `services/games/russian/reading.py`): each box's cards, decisions,
//! draws, fees and wagers, the dealer's cards and replacement, and the position of every
//! step in the event order. Indexes are positions in the hand's events.

use super::Stop;
use crate::json::Value;
use crate::rules::{self as r, chips, int, opt_int, opt_text, str_list, text, Chips, OrdMap};
use crate::table::DecodedEvent;

/// `Placed`: chips a box put down (a wager or a fee), where it sits in the event order.
#[derive(Debug, Clone)]
pub struct Placed<'a> {
    pub index: usize,
    pub seq: i64,
    pub amount: Chips,
    pub kind: &'a str,
}

/// `Served`: one `draw`, the cards given back and the cards served.
#[derive(Debug, Clone)]
pub struct Served<'a> {
    pub index: usize,
    pub seq: i64,
    pub discarded: Vec<&'a str>,
    pub received: Vec<&'a str>,
}

impl Served<'_> {
    /// RP-2 buy: one extra card, nothing given back.
    pub fn is_buy(&self) -> bool {
        self.discarded.is_empty() && self.received.len() == 1
    }

    /// RP-2 exchange (of any size; the 2-to-5 limit is checked separately).
    pub fn is_exchange(&self) -> bool {
        !self.discarded.is_empty() && self.discarded.len() == self.received.len()
    }
}

/// `Step`: an `action` of a box.
#[derive(Debug, Clone)]
pub struct Step<'a> {
    pub index: usize,
    pub seq: i64,
    pub action: &'a str,
}

/// `Box`: everything one box did in the hand, in event order.
#[derive(Debug, Clone, Default)]
pub struct SeatBox<'a> {
    pub seat: i64,
    pub dealt: Vec<(usize, Option<&'a str>, bool)>,
    pub antes: Vec<Placed<'a>>,
    pub bets: Vec<Placed<'a>>,
    pub insurances: Vec<Placed<'a>>,
    pub fees: Vec<Placed<'a>>,
    pub draws: Vec<Served<'a>>,
    pub steps: Vec<Step<'a>>,
    pub foreign: Vec<Placed<'a>>,
    pub bonus_payouts: Vec<Placed<'a>>,
    /// RP-4: payouts kind insurance less the insurance collected
    pub recorded_insurance: Chips,
    /// payouts of other kinds less the Ante and Bet collected
    pub recorded_other: Chips,
    pub shown: Option<Vec<&'a str>>,
    pub left_at: Option<usize>,
}

impl<'a> SeatBox<'a> {
    fn new(seat: i64) -> Self {
        SeatBox { seat, ..SeatBox::default() }
    }

    /// `first_step(*actions)`.
    pub fn first_step(&self, actions: &[&str]) -> Option<&Step<'a>> {
        self.steps.iter().find(|s| actions.contains(&s.action))
    }

    pub fn dealt_cards(&self) -> Vec<Option<&'a str>> {
        self.dealt.iter().map(|(_, card, _)| *card).collect()
    }

    /// Every dealt card, when all were read (and at least one was dealt).
    fn all_dealt(&self) -> Option<Vec<&'a str>> {
        if self.dealt.is_empty() {
            return None;
        }
        self.dealt.iter().map(|(_, card, _)| *card).collect()
    }
}

/// `BankerMove`: a chip movement that names a banker other than the house (GEN-8).
#[derive(Debug, Clone)]
pub struct BankerMove {
    pub seq: i64,
    pub seat: i64,
    pub amount: Chips,
    pub what: String,
}

/// A `dealer_replaced_card` (RP-6).
#[derive(Debug, Clone)]
pub struct Replacement<'a> {
    pub index: usize,
    pub seq: i64,
    pub removed: &'a str,
    pub received: &'a str,
    pub burned: Vec<&'a str>,
}

/// `RussianHand`: the facts of one hand.
#[derive(Debug)]
pub struct RussianHand<'a> {
    pub button: i64,
    pub deck: i64,
    /// hand_started's seats as listed (seat, stack)
    pub seats: Vec<(i64, Chips)>,
    pub boxes: OrdMap<i64, SeatBox<'a>>,
    pub dealer_dealt: Vec<(usize, Option<&'a str>, bool)>,
    pub dealer_shown: Option<Vec<&'a str>>,
    pub dealer_showdowns: Vec<(usize, Vec<&'a str>)>,
    pub dealer_turned_at: Option<usize>,
    pub first_card_at: Option<usize>,
    pub replacements: Vec<Replacement<'a>>,
    pub banker_moves: Vec<BankerMove>,
    pub dead: bool,
    pub events: &'a [DecodedEvent],
}

impl<'a> RussianHand<'a> {
    pub fn seq_of(&self, index: usize) -> i64 {
        self.events[index].seq
    }

    /// `_box(hand, seat)`: a seat not dealt in still gets one so nothing is lost.
    fn boxed(&mut self, seat: i64) -> &mut SeatBox<'a> {
        self.boxes.slot(seat, || SeatBox::new(seat))
    }

    /// The boxes in seat order.
    pub fn sorted_seats(&self) -> Vec<i64> {
        let mut seats: Vec<i64> = self.boxes.keys().collect();
        seats.sort_unstable();
        seats
    }

    pub fn get(&self, seat: i64) -> &SeatBox<'a> {
        // every seat asked for is a key (callers take seats from `boxes`)
        self.boxes.get(seat).unwrap_or(&EMPTY_BOX)
    }
}

static EMPTY_BOX: SeatBox<'static> = SeatBox {
    seat: 0, dealt: Vec::new(), antes: Vec::new(), bets: Vec::new(), insurances: Vec::new(),
    fees: Vec::new(), draws: Vec::new(), steps: Vec::new(), foreign: Vec::new(),
    bonus_payouts: Vec::new(), recorded_insurance: 0, recorded_other: 0, shown: None,
    left_at: None,
};

/// `read_hand`: one pass over the events; rejected (RP-1) without `hand_started`.
pub fn read_hand(events: &[DecodedEvent]) -> Result<RussianHand<'_>, Stop> {
    let started = events.iter().find(|e| e.type_index == r::HAND_STARTED).ok_or_else(|| {
        Stop::Rejected(("RP-1", "the hand has no hand_started event: no boxes to settle".to_string()))
    })?;
    let mut seats = Vec::new();
    let mut boxes = OrdMap::default();
    if let Some(Value::Array(list)) = started.data.get("seats") {
        for s in list {
            let seat = int(s, "seat");
            seats.push((seat, chips(s, "stack")));
            boxes.set(seat, SeatBox::new(seat));
        }
    }
    let mut hand = RussianHand {
        button: int(&started.data, "button"),
        deck: int(&started.data, "deck"),
        seats,
        boxes,
        dealer_dealt: Vec::new(),
        dealer_shown: None,
        dealer_showdowns: Vec::new(),
        dealer_turned_at: None,
        first_card_at: None,
        replacements: Vec::new(),
        banker_moves: Vec::new(),
        dead: false,
        events,
    };
    for (index, event) in events.iter().enumerate() {
        read_event(&mut hand, index, event);
    }
    Ok(hand)
}

fn placed<'a>(index: usize, event: &DecodedEvent, d: &'a Value<'static>) -> Placed<'a> {
    Placed { index, seq: event.seq, amount: chips(d, "amount"), kind: text(d, "kind") }
}

fn read_event<'a>(hand: &mut RussianHand<'a>, index: usize, event: &'a DecodedEvent) {
    let d = &event.data;
    match event.type_index {
        r::WAGER => {
            let p = placed(index, event, d);
            let b = hand.boxed(int(d, "seat"));
            match p.kind {
                "ante" => b.antes.push(p),
                "bet" => b.bets.push(p),
                "insurance" => b.insurances.push(p),
                // flush_bonus / sf_bonus / raise are other games' wagers: void here.
                _ => b.foreign.push(p),
            }
        }
        r::CARD_DEALT => {
            if hand.first_card_at.is_none() {
                hand.first_card_at = Some(index);
            }
            let card = opt_text(d, "card");
            let face_up = matches!(d.get("face_up"), Some(Value::Bool(true)));
            match (text(d, "to"), opt_int(d, "seat")) {
                ("dealer", _) => hand.dealer_dealt.push((index, card, face_up)),
                ("seat", Some(seat)) => hand.boxed(seat).dealt.push((index, card, face_up)),
                _ => {}
            }
        }
        r::COLLECTION => {
            let p = placed(index, event, d);
            let (seat, to) = (int(d, "seat"), text(d, "to"));
            let (amount, kind) = (p.amount, p.kind);
            hand.boxed(seat).fees.push(p);
            if to != "house" {
                hand.banker_moves.push(BankerMove { seq: event.seq, seat, amount,
                    what: format!("a {} price paid to {}", kind, to) });
            }
        }
        r::WAGER_COLLECTED => {
            let (seat, amount, kind, to) = (int(d, "seat"), chips(d, "amount"), text(d, "kind"), text(d, "to"));
            let b = hand.boxed(seat);
            if kind == "insurance" {
                b.recorded_insurance -= amount;
            } else {
                b.recorded_other -= amount;
            }
            if to != "house" {
                hand.banker_moves.push(BankerMove { seq: event.seq, seat, amount,
                    what: format!("a losing {} taken to {}", kind, to) });
            }
        }
        r::DRAW => {
            let served = Served {
                index, seq: event.seq,
                discarded: str_list(d, "discarded").unwrap_or_default(),
                received: str_list(d, "received").unwrap_or_default(),
            };
            hand.boxed(int(d, "seat")).draws.push(served);
        }
        r::ACTION => {
            let step = Step { index, seq: event.seq, action: text(d, "action") };
            hand.boxed(int(d, "seat")).steps.push(step);
        }
        r::SHOWDOWN => {
            let cards = str_list(d, "cards").filter(|c| !c.is_empty());
            match d.get("seat") {
                Some(Value::Str(s)) if s == "dealer" => {
                    if hand.dealer_turned_at.is_none() {
                        hand.dealer_turned_at = Some(index);
                    }
                    if let Some(cards) = cards {
                        hand.dealer_shown = Some(cards.clone());
                        hand.dealer_showdowns.push((index, cards));
                    }
                }
                Some(Value::Int(seat)) => {
                    if let Some(cards) = cards {
                        hand.boxed(*seat).shown = Some(cards);
                    }
                }
                _ => {}
            }
        }
        r::DEALER_REPLACED_CARD => hand.replacements.push(Replacement {
            index, seq: event.seq, removed: text(d, "removed"), received: text(d, "received"),
            burned: str_list(d, "burned").unwrap_or_default(),
        }),
        r::PAYOUT => {
            let (seat, amount, kind, source) = (int(d, "seat"), chips(d, "amount"), text(d, "kind"), text(d, "source"));
            let b = hand.boxed(seat);
            if kind == "insurance" {
                b.recorded_insurance += amount;
            } else {
                b.recorded_other += amount;
            }
            if kind == "bonus" {
                b.bonus_payouts.push(Placed { index, seq: event.seq, amount, kind: "bonus" });
            }
            if source != "house" {
                hand.banker_moves.push(BankerMove { seq: event.seq, seat, amount,
                    what: format!("a {} payout from {}", kind, source) });
            }
        }
        r::PLAYER_LEFT => {
            let seat = int(d, "seat");
            if let Some(b) = hand.boxes.items.iter_mut().find(|(s, _)| *s == seat).map(|(_, b)| b) {
                if b.left_at.is_none() {
                    b.left_at = Some(index);
                }
            }
        }
        r::MISDEAL | r::HAND_DEAD => hand.dead = true,
        _ => {}
    }
}

/// `box_cards`: the cards the box holds after its draws (dealt cards, all read, with every
/// draw applied), else the cards it showed; None when they were never read.
pub fn box_cards<'a>(b: &SeatBox<'a>) -> Option<Vec<&'a str>> {
    match b.all_dealt() {
        Some(mut held) => {
            for served in &b.draws {
                for card in &served.discarded {
                    if let Some(at) = held.iter().position(|c| c == card) {
                        held.remove(at);
                    }
                }
                held.extend(served.received.iter().copied());
            }
            Some(held)
        }
        None => b.shown.clone(),
    }
}

/// `rankable`: GEN-1, the same card twice cannot be ranked: the hand is rejected.
pub fn rankable(cards: &[&str], whose: &str) -> Result<(), Stop> {
    let mut repeated: Vec<&str> = cards.iter().copied()
        .filter(|c| cards.iter().filter(|d| *d == c).count() > 1).collect();
    if repeated.is_empty() {
        return Ok(());
    }
    repeated.sort_unstable();
    repeated.dedup();
    Err(Stop::Rejected(("GEN-1", format!(
        "{} holds {} twice ({}): a card was added or switched, the hand cannot be ranked",
        whose, repeated.join(" "), cards.join(" ")))))
}

/// `dealer_cards`: the dealer's cards as dealt, or as turned when a dealt card was not read.
pub fn dealer_cards<'a>(hand: &RussianHand<'a>) -> Option<Vec<&'a str>> {
    if !hand.dealer_dealt.is_empty() {
        if let Some(cards) = hand.dealer_dealt.iter().map(|(_, c, _)| *c).collect::<Option<Vec<_>>>() {
            return Some(cards);
        }
    }
    hand.dealer_shown.clone()
}
