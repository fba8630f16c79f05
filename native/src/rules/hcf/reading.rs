//! One pass over a High Card Flush hand's events (`services/games/hcf/reading.py`): what
//! was dealt, wagered, decided, shown and recorded. The DP's cards are the `card_dealt`
//! events `to: "seat"` with its seat or `to: "dealer"`; a `showdown` of `"dealer"` or
//! `"designated"` is the DP's.

use crate::json::Value;
use crate::rules::{self as r, chips, int, opt_int, str_list, text, Chips, OrdMap};
use crate::table::DecodedEvent;

pub const RAISE: &str = "raise";
pub const FOLD: &str = "fold";

#[derive(Debug, Clone)]
pub struct PlacedWager<'a> {
    pub seq: i64,
    pub kind: &'a str,
    pub amount: Chips,
}

/// Collected wagers of one seat by kind (the four HCF kinds, and the sum of any other).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Kinds {
    pub ante: Chips,
    pub flush_bonus: Chips,
    pub sf_bonus: Chips,
    pub raise: Chips,
    pub other: Chips,
}

impl Kinds {
    pub fn add(&mut self, kind: &str, amount: Chips) {
        match kind {
            "ante" => self.ante += amount,
            "flush_bonus" => self.flush_bonus += amount,
            "sf_bonus" => self.sf_bonus += amount,
            "raise" => self.raise += amount,
            _ => self.other += amount,
        }
    }

    pub fn total(&self) -> Chips {
        self.ante + self.flush_bonus + self.sf_bonus + self.raise + self.other
    }
}

/// What the table moved for one seat, split the way the rules split a settlement.
#[derive(Debug, Clone, Default)]
pub struct RecordedSeat {
    pub win_paid: Chips,
    pub bonus_paid: Chips,
    pub other_paid: Chips,
    pub collected: Kinds,
}

#[derive(Debug)]
pub struct HandFacts<'a> {
    pub button: i64,
    pub dp: i64,
    /// seat -> stack at hand_started, in the order listed
    pub stacks: OrdMap<i64, Chips>,
    pub first_card_seq: Option<i64>,
    /// SURV-1: the first event that made an outcome visible (the DP's showdown, a payout
    /// of winnings, a collected Raise)
    pub outcome_seq: Option<i64>,
    pub dealt: OrdMap<i64, Vec<Option<&'a str>>>,
    pub shown: OrdMap<i64, Vec<&'a str>>,
    pub wagers: OrdMap<i64, Vec<PlacedWager<'a>>>,
    /// seat -> (seq, "fold" | "raise"): the first decision (HCF-4)
    pub decision: OrdMap<i64, (i64, &'static str)>,
    pub left: OrdMap<i64, i64>,
    /// (type, why, seq)
    pub dead_events: Vec<(&'static str, &'a str, i64)>,
    pub recorded: OrdMap<i64, RecordedSeat>,
    pub settled_anything: bool,
    pub rake_taken: Chips,
    pub house_refunds: Chips,
}

impl<'a> HandFacts<'a> {
    /// Rake the house kept after refunds.
    pub fn kept_rake(&self) -> Chips {
        self.rake_taken - self.house_refunds
    }

    fn decide(&mut self, seat: i64, seq: i64, what: &'static str) {
        if !self.decision.contains(seat) {
            self.decision.set(seat, (seq, what));
        }
    }

    fn outcome_visible(&mut self, seq: i64) {
        if self.outcome_seq.is_none() {
            self.outcome_seq = Some(seq);
        }
    }
}

/// Why the hand cannot be adjudicated (`HandRejected`: the rule and the message).
pub type Rejected = (&'static str, String);

pub fn hand_started(events: &[DecodedEvent]) -> Option<&DecodedEvent> {
    events.iter().find(|e| e.type_index == r::HAND_STARTED)
}

/// `read_facts`: rejects a hand without `hand_started` or DP (HCF-1, HCF-2).
pub fn read_facts(events: &[DecodedEvent]) -> Result<HandFacts<'_>, Rejected> {
    let started = hand_started(events)
        .ok_or(("HCF-1", "the hand has no hand_started event: nobody was dealt in".to_string()))?;
    let data = &started.data;
    let dp = opt_int(data, "designated_player").ok_or((
        "HCF-2",
        "High Card Flush is banked by a designated player and hand_started names none".to_string(),
    ))?;
    let mut stacks = OrdMap::default();
    if let Some(Value::Array(seats)) = data.get("seats") {
        for s in seats {
            stacks.set(int(s, "seat"), chips(s, "stack"));
        }
    }
    if !stacks.contains(dp) {
        return Err(("HCF-2", format!(
            "designated player seat {} is not among the seats dealt in, so it has no funds to bank with", dp)));
    }
    let mut f = HandFacts {
        button: int(data, "button"),
        dp,
        stacks,
        first_card_seq: None,
        outcome_seq: None,
        dealt: OrdMap::default(),
        shown: OrdMap::default(),
        wagers: OrdMap::default(),
        decision: OrdMap::default(),
        left: OrdMap::default(),
        dead_events: Vec::new(),
        recorded: OrdMap::default(),
        settled_anything: false,
        rake_taken: 0,
        house_refunds: 0,
    };
    for e in events {
        read_event(&mut f, e);
    }
    Ok(f)
}

fn read_event<'a>(f: &mut HandFacts<'a>, e: &'a DecodedEvent) {
    let d = &e.data;
    match e.type_index {
        r::CARD_DEALT => {
            if f.first_card_seq.is_none() {
                f.first_card_seq = Some(e.seq);
            }
            let holder = match text(d, "to") {
                "seat" => opt_int(d, "seat"),
                "dealer" => Some(f.dp),
                _ => None,
            };
            if let Some(h) = holder {
                let card = r::opt_text(d, "card");
                f.dealt.slot(h, || Vec::with_capacity(8)).push(card);
            }
        }
        r::WAGER => {
            let (seat, kind) = (int(d, "seat"), text(d, "kind"));
            f.wagers.slot(seat, Vec::new).push(PlacedWager { seq: e.seq, kind, amount: chips(d, "amount") });
            if kind == RAISE {
                f.decide(seat, e.seq, RAISE);
            }
        }
        r::ACTION => match text(d, "action") {
            "fold" => f.decide(int(d, "seat"), e.seq, FOLD),
            "raise" => f.decide(int(d, "seat"), e.seq, RAISE),
            _ => {}
        },
        r::SHOWDOWN => {
            let holder = match d.get("seat") {
                Some(Value::Int(s)) => Some(*s),
                Some(Value::Str(_)) => Some(f.dp),
                _ => None,
            };
            if let (Some(h), Some(cards)) = (holder, str_list(d, "cards")) {
                f.shown.set(h, cards);
            }
            if holder == Some(f.dp) {
                f.outcome_visible(e.seq);
            }
        }
        r::WAGER_COLLECTED => {
            let kind = text(d, "kind");
            if kind == RAISE {
                f.outcome_visible(e.seq);
            }
            f.recorded.slot(int(d, "seat"), RecordedSeat::default).collected.add(kind, chips(d, "amount"));
            f.settled_anything = true;
        }
        r::PAYOUT => {
            let (kind, amount) = (text(d, "kind"), chips(d, "amount"));
            let rec = f.recorded.slot(int(d, "seat"), RecordedSeat::default);
            match kind {
                "win" => rec.win_paid += amount,
                "bonus" => rec.bonus_paid += amount,
                _ => rec.other_paid += amount,
            }
            if kind == "win" || kind == "bonus" {
                f.outcome_visible(e.seq);
            }
            if kind != "refund" {
                f.settled_anything = true;
            } else if text(d, "source") == "house" {
                f.house_refunds += amount;
            }
        }
        r::RAKE_COLLECTED => f.rake_taken += chips(d, "amount"),
        r::PLAYER_LEFT => {
            let seat = int(d, "seat");
            if !f.left.contains(seat) {
                f.left.set(seat, e.seq);
            }
        }
        r::SHUFFLER_ALARM => f.dead_events.push(("shuffler_alarm", text(d, "detail"), e.seq)),
        r::MISDEAL => f.dead_events.push(("misdeal", text(d, "reason"), e.seq)),
        r::HAND_DEAD => f.dead_events.push(("hand_dead", text(d, "reason"), e.seq)),
        _ => {}
    }
}
