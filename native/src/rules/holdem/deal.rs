//! The hole-card deal (`services/games/holdem/deal.py`): order and count (TH-1), exposed
//! cards (TH-3), extra cards (TH-7). `HoleDeal` collects what happened during the deal and
//! `review` judges it once, when the board is about to be dealt or the hand ends.

use super::profile::HoldemProfile;
use crate::rules::betting::pot_hand::Notes;
use crate::rules::betting::seating::clockwise_after;
use crate::rules::{Chips, Sev};

/// A hole card the dealer exposed during the deal; `index`: its place in the regular deal.
#[derive(Debug, Clone)]
pub struct Exposure<'e> {
    pub seat: i64,
    pub card: Option<&'e str>,
    pub index: Option<usize>,
}

/// A card taken back from a seat (`card_moved` from `seat:<n>`).
#[derive(Debug, Clone)]
pub struct Removal<'e> {
    pub seat: i64,
    pub card: &'e str,
    pub to: &'e str,
    pub seq: i64,
    pub during_deal: bool,
    pub needs_replacement: bool,
}

#[derive(Debug, Clone)]
pub struct MisdealCause {
    pub rule: &'static str,
    pub reason: String,
}

/// A card from the deal that must serve as the next burn card (TH-3 / TH-7); `via_burn`:
/// already in the burn pile (else returned to the stub).
#[derive(Debug, Clone)]
pub struct BurnCredit<'e> {
    pub rule: &'static str,
    pub card: &'e str,
    pub via_burn: bool,
}

pub struct HoleDeal<'e> {
    pub seats: Vec<i64>,
    pub expected: Vec<i64>,
    /// seat -> its cards, in seat order
    pub hands: Vec<(i64, Vec<Option<&'e str>>)>,
    pub dealt_index: Vec<(&'e str, usize)>,
    pub next_index: usize,
    pub first_seq: Option<i64>,
    pub phase_over: bool,
    pub exposures: Vec<Exposure<'e>>,
    pub extras: Vec<(i64, Option<&'e str>, i64)>,
    pub removals: Vec<Removal<'e>>,
    pub replacements: Vec<(i64, bool)>,
    pub order_reported: bool,
    pub reviewed: bool,
    pub misdeal_cause: Option<MisdealCause>,
    pub credits: Vec<BurnCredit<'e>>,
    pub flagged_seats: Vec<i64>,
    pub used_removals: Vec<usize>,
}

fn name(card: Option<&str>) -> &str {
    card.unwrap_or("an unread card")
}

impl<'e> HoleDeal<'e> {
    pub fn new(prof: &HoldemProfile, seats: Vec<i64>, button: i64) -> HoleDeal<'e> {
        let round = clockwise_after(&seats, button);
        let expected: Vec<i64> = (0..prof.hole_cards.max(0)).flat_map(|_| round.iter().copied()).collect();
        let hands = seats.iter().map(|&s| (s, Vec::new())).collect();
        HoleDeal {
            seats, expected, hands, dealt_index: Vec::new(), next_index: 0, first_seq: None, phase_over: false,
            exposures: Vec::new(), extras: Vec::new(), removals: Vec::new(), replacements: Vec::new(),
            order_reported: false, reviewed: false, misdeal_cause: None, credits: Vec::new(),
            flagged_seats: Vec::new(), used_removals: Vec::new(),
        }
    }

    pub fn hand(&self, seat: i64) -> Option<&Vec<Option<&'e str>>> {
        self.hands.iter().find(|(s, _)| *s == seat).map(|(_, h)| h)
    }

    fn hand_mut(&mut self, seat: i64) -> Option<&mut Vec<Option<&'e str>>> {
        self.hands.iter_mut().find(|(s, _)| *s == seat).map(|(_, h)| h)
    }

    pub fn dealt_in(&self, seat: i64) -> bool {
        self.hands.iter().any(|(s, _)| *s == seat)
    }

    fn complete(&self) -> bool {
        self.next_index >= self.expected.len()
    }

    fn first_seat(&self) -> Option<i64> {
        self.expected.first().copied()
    }

    // -------------------------------------------------------------- events

    /// A `card_dealt` to a seat: a regular card, a replacement, or an extra card.
    pub fn card(&mut self, prof: &HoldemProfile, notes: &mut Notes, seat: i64, card: Option<&'e str>, face_up: bool, seq: i64) {
        if self.first_seq.is_none() {
            self.first_seq = Some(seq);
        }
        if !self.dealt_in(seat) {
            notes.add("WRONG_CARD_COUNT", "TH-1", prof.severity.wrong_card_count, format!(
                "a hole card was dealt to seat {}, which is not dealt in (seq {})", seat, seq), Some(seat), None);
            return;
        }
        if self.awaits_replacement(seat) && (self.complete() || seat != self.expected[self.next_index]) {
            let during = !self.complete();
            self.replacements.push((seat, during));
        } else if !self.complete() {
            self.regular(prof, notes, seat, card, face_up, seq);
        } else if self.replacement_before_removal(seat) {
            self.replacements.push((seat, false));
        } else {
            self.extras.push((seat, card, seq));
        }
        if let Some(hand) = self.hand_mut(seat) {
            hand.push(card);
        }
    }

    fn regular(&mut self, prof: &HoldemProfile, notes: &mut Notes, seat: i64, card: Option<&'e str>, face_up: bool, _seq: i64) {
        let due = self.expected[self.next_index];
        if seat != due && !self.order_reported {
            self.order_reported = true;
            notes.add("DEAL_ORDER", "TH-1", prof.severity.deal_order, format!(
                "hole card {} went to seat {}; seat {} was due (one card at a time, clockwise from the button's left)",
                self.next_index + 1, seat, due), Some(seat), None);
        }
        let index = self.next_index;
        self.next_index += 1;
        if let Some(card) = card {
            match self.dealt_index.iter_mut().find(|(c, _)| *c == card) {
                Some(slot) => slot.1 = index,
                None => self.dealt_index.push((card, index)),
            }
        }
        if face_up {
            self.exposures.push(Exposure { seat, card, index: Some(index) });
        }
        if self.complete() && prof.deal_phase_ends_last_hole_card {
            self.phase_over = true;
        }
    }

    fn awaits_replacement(&self, seat: i64) -> bool {
        if self.removals.is_empty() {
            return false;
        }
        let removed = self.removals.iter().filter(|r| r.seat == seat && r.needs_replacement).count();
        let replaced = self.replacements.iter().filter(|(s, _)| *s == seat).count();
        removed > replaced
    }

    /// TH-3 allows the replacement card to come before the exposed card is taken.
    fn replacement_before_removal(&self, seat: i64) -> bool {
        let exposed_here = self.exposures.iter().any(|e| e.seat == seat && e.index != Some(0));
        let replaced = self.replacements.iter().any(|(s, _)| *s == seat);
        exposed_here && !replaced && self.exposures.len() == 1
    }

    /// A `card_exposed` by dealer error naming a seat's hole card.
    pub fn exposed(&mut self, seat: i64, card: &'e str) {
        if self.phase_over {
            return; // TH-3 covers exposures during the deal (a step of the decision path)
        }
        if self.exposures.iter().any(|e| e.card == Some(card)) {
            return;
        }
        let index = self.dealt_index.iter().find(|(c, _)| *c == card).map(|(_, i)| *i);
        self.exposures.push(Exposure { seat, card: Some(card), index });
    }

    /// A `card_moved` from `seat:<n>`: a correction of TH-3 or TH-7.
    pub fn removed(&mut self, prof: &HoldemProfile, seat: i64, card: &'e str, to: &'e str, seq: i64) {
        let during_deal = !self.complete();
        let short = match self.hand_mut(seat) {
            Some(hand) => {
                if let Some(at) = hand.iter().position(|c| *c == Some(card)) {
                    hand.remove(at);
                } else if let Some(at) = hand.iter().position(Option::is_none) {
                    hand.remove(at);
                }
                (hand.len() as i64) < prof.hole_cards
            }
            None => 0 < prof.hole_cards,
        };
        self.removals.push(Removal { seat, card, to, seq, during_deal, needs_replacement: short });
    }

    /// The first voluntary betting action: the deal phase is over (TH-3 reading).
    pub fn betting_began(&mut self) {
        self.phase_over = true;
    }

    // -------------------------------------------------------------- judgement

    /// TH-3 / TH-7: does what happened during the deal require a misdeal?
    fn find_misdeal_cause(&self) -> Option<MisdealCause> {
        if let Some(first) = self.exposures.iter().find(|e| e.index == Some(0)) {
            return Some(MisdealCause { rule: "TH-3", reason: format!(
                "the first hole card dealt ({} to seat {}) was exposed", name(first.card), first.seat) });
        }
        if self.exposures.len() >= 2 {
            let cards: Vec<String> = self.exposures.iter().map(|e| format!("{} (seat {})", name(e.card), e.seat)).collect();
            return Some(MisdealCause { rule: "TH-3", reason: format!(
                "{} hole cards were exposed during the deal: {}", self.exposures.len(), cards.join(", ")) });
        }
        if self.extras.len() >= 2 {
            return Some(MisdealCause { rule: "TH-7", reason: format!(
                "{} extra cards were dealt after everyone had their cards", self.extras.len()) });
        }
        None
    }

    fn single_irregularity(&self) -> Option<&'static str> {
        if self.exposures.len() == 1 {
            Some("TH-3")
        } else if self.extras.len() == 1 {
            Some("TH-7")
        } else {
            None
        }
    }

    /// Judge the deal once (before the flop, or at the end of the hand).
    pub fn review(&mut self, prof: &HoldemProfile, notes: &mut Notes, misdealt: bool) {
        if self.reviewed {
            return;
        }
        self.reviewed = true;
        self.phase_over = true;
        let sev = &prof.severity;
        let cause = self.find_misdeal_cause();
        self.misdeal_cause = cause.clone();
        if misdealt {
            let lone = self.single_irregularity();
            if let (None, Some(lone)) = (&cause, lone) {
                notes.add("MISDEAL_NOT_REQUIRED", lone, sev.misdeal_not_required, not_required_message(lone), None, None);
            }
            return;
        }
        if let Some(cause) = cause {
            notes.add("MISDEAL_REQUIRED", cause.rule, sev.misdeal_required, format!(
                "{}; {} requires a misdeal (reshuffle and redeal), but the hand was played on", cause.reason, cause.rule),
                None, None);
            return;
        }
        if self.exposures.len() == 1 {
            let e = self.exposures[0].clone();
            self.review_exposure(prof, notes, e.seat, e.card);
        }
        if self.extras.len() == 1 {
            let (seat, card, seq) = self.extras[0];
            self.review_extra(prof, notes, seat, card, seq);
        }
        self.review_stray_removals(prof, notes);
    }

    fn review_stray_removals(&mut self, prof: &HoldemProfile, notes: &mut Notes) {
        let rule = if !self.exposures.is_empty() { "TH-3" } else if !self.extras.is_empty() { "TH-7" } else { "TH-1" };
        for (index, removal) in self.removals.iter().enumerate() {
            if self.used_removals.contains(&index) {
                continue;
            }
            notes.add("WRONG_CARD_REMOVED", rule, prof.severity.wrong_card_removed, format!(
                "{} was taken from seat {} (seq {}) although it was neither an exposed nor an extra card",
                removal.card, removal.seat, removal.seq), Some(removal.seat), None);
        }
    }

    fn flag(&mut self, seat: i64) {
        if !self.flagged_seats.contains(&seat) {
            self.flagged_seats.push(seat);
        }
    }

    /// TH-3: complete the deal, replace the exposed card, use it as the next burn.
    fn review_exposure(&mut self, prof: &HoldemProfile, notes: &mut Notes, seat: i64, card: Option<&'e str>) {
        let sev = &prof.severity;
        let removal = match self.removal_of(seat, card) {
            Some(r) => r,
            None => {
                self.flag(seat);
                notes.add("EXPOSED_CARD_NOT_REPLACED", "TH-3", sev.exposed_card_not_replaced, format!(
                    "seat {} kept its exposed {}; TH-3: complete the deal, replace the exposed card with the top card of the deck and use the exposed card as the next burn",
                    seat, name(card)), Some(seat), None);
                return;
            }
        };
        let early = removal.during_deal || self.replacements.iter().any(|&(s, during)| s == seat && during);
        if early {
            notes.add("EXPOSED_CARD_REPLACED_EARLY", "TH-3", sev.exposed_card_replaced_early, format!(
                "seat {}'s exposed {} was replaced before the deal was completed; TH-3: the deal is completed first, then the exposed card is replaced by the top card",
                seat, removal.card), Some(seat), None);
        }
        if !self.replacements.iter().any(|(s, _)| *s == seat) {
            self.flag(seat);
            notes.add("EXPOSED_CARD_NOT_REPLACED", "TH-3", sev.exposed_card_not_replaced, format!(
                "seat {}'s exposed {} was taken back but no replacement card was dealt; TH-3: it is replaced by the top card of the deck",
                seat, removal.card), Some(seat), None);
        }
        self.credit(notes, "TH-3", &removal, sev.exposed_card_not_burned);
    }

    /// TH-7: one extra card to the first player goes back and becomes the burn.
    fn review_extra(&mut self, prof: &HoldemProfile, notes: &mut Notes, seat: i64, card: Option<&'e str>, seq: i64) {
        let sev = &prof.severity;
        let removal = match self.removal_of(seat, card) {
            Some(r) => r,
            None => {
                self.flag(seat);
                notes.add("EXTRA_CARD_NOT_BURNED", "TH-7", sev.extra_card_not_burned, format!(
                    "seat {} received an extra card {} after everyone had their cards (seq {}) and kept it; TH-7: it goes back and is used as the burn card",
                    seat, name(card), seq), Some(seat), None);
                return;
            }
        };
        let _ = self.first_seat(); // TH-7: another seat than the first is a step of the decision path
        self.credit(notes, "TH-7", &removal, sev.extra_card_not_burned);
    }

    fn removal_of(&mut self, seat: i64, card: Option<&'e str>) -> Option<Removal<'e>> {
        for (index, removal) in self.removals.iter().enumerate() {
            if self.used_removals.contains(&index) {
                continue;
            }
            if removal.seat == seat && card.map_or(true, |c| removal.card == c) {
                self.used_removals.push(index);
                return Some(removal.clone());
            }
        }
        None
    }

    fn credit(&mut self, notes: &mut Notes, rule: &'static str, removal: &Removal<'e>, severity: Sev) {
        if removal.to == "burn" || removal.to == "stub" {
            self.credits.push(BurnCredit { rule, card: removal.card, via_burn: removal.to == "burn" });
            return;
        }
        let code = if rule == "TH-3" { "EXPOSED_CARD_NOT_BURNED" } else { "EXTRA_CARD_NOT_BURNED" };
        notes.add(code, rule, severity, format!(
            "seat {}'s {} was moved to {}; {}: it is used as the next burn card", removal.seat, removal.card, removal.to, rule),
            Some(removal.seat), None);
    }

    /// TH-1: every seat ends the deal with exactly the hole cards (seats already reported by
    /// a TH-3 / TH-7 finding are not reported twice).
    pub fn check_counts(&self, prof: &HoldemProfile, notes: &mut Notes) {
        for (seat, hand) in &self.hands {
            let held = hand.len() as i64;
            if held != prof.hole_cards && !self.flagged_seats.contains(seat) {
                notes.add("WRONG_CARD_COUNT", "TH-1", prof.severity.wrong_card_count, format!(
                    "seat {} holds {} hole cards; each player receives {}", seat, held, prof.hole_cards),
                    Some(*seat), Some(held as Chips - prof.hole_cards as Chips));
            }
        }
    }
}

fn not_required_message(rule: &str) -> String {
    if rule == "TH-3" {
        return "a misdeal was declared for a single exposed hole card that was not the first card dealt; TH-3: complete the deal, replace the card with the top card and use it as the next burn".to_string();
    }
    "a misdeal was declared for one extra card dealt after everyone had their cards; TH-7: the card goes back and is used as the burn card".to_string()
}
