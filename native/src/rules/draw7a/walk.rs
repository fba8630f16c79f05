//! The replay of one Five Card Draw 7-A hand, event by event (`services/games/draw7a/walk.py`):
//! the deal (FCD-4), the betting rounds on the shared engine, the draw and the reshuffle of
//! the discards (FCD-6), the showdown records, a player leaving (GEN-7). `HandWalk` keeps
//! what the events say in the order they say it; `procedure` and `showdown` read it after.

use std::collections::BTreeSet;

use super::profile::{Draw7aProfile, Draw7aSeverities};
use crate::json::Value;
use crate::rules::betting::actions::{is_betting, is_post};
use crate::rules::betting::engine::BettingHand;
use crate::rules::betting::pot_hand::{Notes, Started};
use crate::rules::{self as r, int, opt_int, opt_text, str_list, text, Chips, Defer};
use crate::table::DecodedEvent;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    BeforeDraw,
    Draw,
    AfterDraw,
}

/// `DrawState`: the draw (FCD-6): who drew what, in which order, and the stub.
#[derive(Debug, Clone, Default)]
pub struct DrawState<'e> {
    /// active when the draw began
    pub entrants: Vec<i64>,
    /// seat -> cards drawn
    pub drawn: Vec<(i64, i64)>,
    /// entrants in the order they drew
    pub order: Vec<i64>,
    /// discarded, not yet reshuffled
    pub discards: BTreeSet<&'e str>,
    pub stub: i64,
    pub stub_at_reshuffle: Option<i64>,
}

impl DrawState<'_> {
    pub fn has_drawn(&self, seat: i64) -> bool {
        self.drawn.iter().any(|(s, _)| *s == seat)
    }
}

/// One `showdown` record of a seat: (seat, cards, mucked).
pub type Shown<'e> = (i64, Option<Vec<&'e str>>, bool);

/// `HandWalk`: state built while replaying the events of one hand, in order.
pub struct HandWalk<'e, 'p> {
    pub prof: &'p Draw7aProfile,
    pub started: Started,
    pub engine: BettingHand,
    pub notes: Notes,
    /// seat -> its cards (None: a card the shoe did not read), in the order seats first got one
    pub hands: Vec<(i64, Vec<Option<&'e str>>)>,
    pub deal_sequence: Vec<i64>,
    pub phase: Phase,
    pub draw: DrawState<'e>,
    pub showdowns: Vec<Shown<'e>>,
    pub dead_reason: Option<String>,
    pub first_card_seq: Option<i64>,
}

impl<'e, 'p> HandWalk<'e, 'p> {
    pub fn new(prof: &'p Draw7aProfile, started: Started, engine: BettingHand) -> HandWalk<'e, 'p> {
        let stub = started.deck;
        HandWalk {
            prof, started, engine, notes: Notes::default(), hands: Vec::new(), deal_sequence: Vec::new(),
            phase: Phase::BeforeDraw, draw: DrawState { stub, ..DrawState::default() }, showdowns: Vec::new(),
            dead_reason: None, first_card_seq: None,
        }
    }

    pub fn sev(&self) -> &'p Draw7aSeverities {
        &self.prof.severity
    }

    pub fn hand(&self, seat: i64) -> Option<&Vec<Option<&'e str>>> {
        self.hands.iter().find(|(s, _)| *s == seat).map(|(_, h)| h)
    }

    fn hand_mut(&mut self, seat: i64) -> &mut Vec<Option<&'e str>> {
        let at = match self.hands.iter().position(|(s, _)| *s == seat) {
            Some(at) => at,
            None => {
                self.hands.push((seat, Vec::new()));
                self.hands.len() - 1
            }
        };
        &mut self.hands[at].1
    }

    // -------------------------------------------------------------- dispatch

    pub fn feed(&mut self, e: &'e DecodedEvent) -> Result<(), Defer> {
        let d = &e.data;
        match e.type_index {
            r::CARD_DEALT => self.card_dealt(e),
            r::ACTION => self.action(e)?,
            r::DRAW => {
                let discarded = str_list(d, "discarded").unwrap_or_default();
                let received = str_list(d, "received").unwrap_or_default();
                self.drawn(int(d, "seat"), &discarded, &received, e.seq)?;
            }
            r::STUB_RESHUFFLED => self.reshuffled(&str_list(d, "cards").unwrap_or_default(), e.seq),
            r::SHOWDOWN => {
                if let Some(seat) = d.get("seat").and_then(Value::as_int) {
                    let mucked = d.get("mucked") == Some(&Value::Bool(true));
                    self.showdowns.push((seat, str_list(d, "cards"), mucked));
                }
            }
            r::HAND_DEAD | r::MISDEAL => self.dead_reason = Some(text(d, "reason").to_string()),
            r::PLAYER_LEFT => self.walked_away(int(d, "seat")),
            _ => {}
        }
        Ok(())
    }

    /// GEN-7: leaving the table without acting on the hand folds it.
    fn walked_away(&mut self, seat: i64) {
        if self.engine.active().contains(&seat) && !self.engine.hand_over() {
            self.engine.walk_away(seat);
            if self.phase == Phase::Draw && self.draw.entrants.contains(&seat) && !self.draw.has_drawn(seat) {
                // FCD-6: it left before its turn to draw, so it had no draw to record.
                if let Some(at) = self.draw.entrants.iter().position(|&s| s == seat) {
                    self.draw.entrants.remove(at);
                }
            }
        }
    }

    // -------------------------------------------------------------- the deal (FCD-4)

    fn card_dealt(&mut self, e: &'e DecodedEvent) {
        let d = &e.data;
        if self.first_card_seq.is_none() {
            self.first_card_seq = Some(e.seq);
        }
        self.draw.stub -= 1;
        if text(d, "to") == "seat" {
            if let Some(seat) = opt_int(d, "seat") {
                let card = opt_text(d, "card");
                self.hand_mut(seat).push(card);
                self.deal_sequence.push(seat);
            }
        }
    }

    // -------------------------------------------------------------- betting

    fn action(&mut self, e: &'e DecodedEvent) -> Result<(), Defer> {
        let d = &e.data;
        let (seat, kind, amount) = (int(d, "seat"), text(d, "action"), opt_int(d, "amount").map(Chips::from));
        if kind == "stand" {
            // FCD-6: standing pat is a draw of no cards
            return self.drawn(seat, &[], &[], e.seq);
        }
        if !is_betting(kind) {
            let sev = self.sev().unexpected_action;
            self.notes.add("UNEXPECTED_ACTION", "FCD-2", sev, format!(
                "seat {} recorded '{}', not an action of Five Card Draw (seq {})", seat, kind, e.seq), Some(seat), amount);
            self.engine.dead_chips(seat, amount.unwrap_or(0));
            return Ok(());
        }
        if is_post(kind) && self.first_card_seq.is_some() {
            let sev = self.sev().blind_after_deal;
            self.notes.add("BLIND_AFTER_DEAL", "FCD-3", sev, format!(
                "seat {} posted ({}) after the first card was dealt (seq {}); blinds are posted before the deal",
                seat, kind, e.seq), Some(seat), amount);
        }
        if !is_post(kind) && self.could_act(seat) {
            self.enter_second_round_if_due()?;
        }
        self.engine.apply(seat, kind, amount);
        Ok(())
    }

    /// A seat dealt in, not folded, not all-in: only its action can open the round after the draw.
    fn could_act(&self, seat: i64) -> bool {
        self.engine.seat(seat).map_or(false, |st| !st.folded && !st.all_in())
    }

    /// The first bet after the draw opens the second round (FCD-7); a bet after a complete
    /// first round with no draw recorded: the draw is taken as done.
    fn enter_second_round_if_due(&mut self) -> Result<(), Defer> {
        if self.phase == Phase::Draw {
            self.engine.next_round()?;
            self.phase = Phase::AfterDraw;
        } else if self.phase == Phase::BeforeDraw && self.engine.betting_started && self.engine.round_complete()
            && !self.engine.hand_over() {
            self.begin_draw();
            self.engine.next_round()?;
            self.phase = Phase::AfterDraw;
        }
        Ok(())
    }

    // -------------------------------------------------------------- the draw (FCD-6)

    fn begin_draw(&mut self) {
        self.engine.close_round();
        self.draw.entrants = self.engine.active();
        self.phase = Phase::Draw;
    }

    fn drawn(&mut self, seat: i64, discarded: &[&'e str], received: &[&'e str], seq: i64) -> Result<(), Defer> {
        let sev = self.sev();
        if self.phase == Phase::BeforeDraw {
            self.begin_draw();
        } else if self.phase == Phase::AfterDraw {
            self.notes.add("DRAW_OUT_OF_PHASE", "FCD-6", sev.draw_out_of_phase, format!(
                "seat {} drew after the second betting round began (seq {})", seat, seq), Some(seat), None);
        }
        // FCD-6: only active players draw, once each.
        if !self.draw.entrants.contains(&seat) {
            self.notes.add("DRAW_BY_INACTIVE", "FCD-6", sev.draw_by_inactive, format!(
                "seat {} drew (seq {}) but is not in the hand", seat, seq), Some(seat), None);
        } else if self.draw.has_drawn(seat) {
            self.notes.add("DRAW_TWICE", "FCD-6", sev.draw_twice, format!(
                "seat {} drew a second time (seq {})", seat, seq), Some(seat), None);
        } else {
            self.draw.order.push(seat);
        }
        // FCD-6: 0 to max_discard cards, as many received as discarded.
        if discarded.len() as i64 > self.prof.max_discard || received.len() != discarded.len() {
            self.notes.add("DRAW_SIZE", "FCD-6", sev.draw_size, format!(
                "seat {} discarded {} and received {} (seq {}); a player exchanges 0 to {} cards one for one",
                seat, discarded.len(), received.len(), seq, self.prof.max_discard),
                Some(seat), Some(received.len() as Chips - discarded.len() as Chips));
        }
        self.check_reshuffle_timing(received.len() as i64, seq);
        let hand = self.hand_mut(seat);
        let not_held = take_discards(hand, discarded);
        hand.extend(received.iter().map(|c| Some(*c)));
        if !not_held.is_empty() {
            self.notes.add("DISCARD_NOT_HELD", "FCD-6", sev.discard_not_held, format!(
                "seat {} discarded {} (seq {}), which it did not hold", seat, not_held.join(" "), seq), Some(seat), None);
        }
        self.draw.discards.extend(discarded.iter().copied());
        self.draw.stub -= received.len() as i64;
        match self.draw.drawn.iter_mut().find(|(s, _)| *s == seat) {
            Some(slot) => slot.1 += received.len() as i64,
            None => self.draw.drawn.push((seat, received.len() as i64)),
        }
        Ok(())
    }

    /// FCD-6: only the discards go back, and only when the stub has run out.
    fn reshuffled(&mut self, cards: &[&'e str], seq: i64) {
        let stray: Vec<&str> = cards.iter().copied().filter(|c| !self.draw.discards.contains(c)).collect();
        if !stray.is_empty() {
            let sev = self.sev().reshuffle_not_discards;
            self.notes.add("RESHUFFLE_NOT_DISCARDS", "FCD-6", sev, format!(
                "the reshuffle at seq {} put back cards that were not among the discards: {}", seq, stray.join(" ")),
                None, None);
        }
        for c in cards {
            self.draw.discards.remove(c);
        }
        self.draw.stub_at_reshuffle = Some(self.draw.stub.max(0));
        self.draw.stub += cards.len() as i64;
    }

    fn check_reshuffle_timing(&mut self, needed: i64, seq: i64) {
        let before = self.draw.stub_at_reshuffle.take();
        if let Some(before) = before {
            if before >= needed {
                let sev = self.sev().early_reshuffle;
                self.notes.add("EARLY_RESHUFFLE", "FCD-6", sev, format!(
                    "the discards were reshuffled with {} cards still in the stub, enough for the next draw of {} (seq {})",
                    before, needed, seq), None, None);
            }
        }
    }

    // -------------------------------------------------------------- end of hand

    /// Close the final betting round (FCD-7, FCD-9): a hand that reaches the showdown went
    /// through the draw even when the table recorded none.
    pub fn finish_betting(&mut self) -> Result<(), Defer> {
        if self.phase == Phase::BeforeDraw && !self.engine.hand_over() {
            self.begin_draw();
        }
        if self.phase == Phase::Draw {
            self.engine.next_round()?;
            self.phase = Phase::AfterDraw;
        }
        self.engine.close_round();
        Ok(())
    }
}

/// `take_discards` (FCD-6): remove the discards from the seat's cards; those it did not
/// hold are returned. An unread card (None) may be any card.
pub fn take_discards<'e>(hand: &mut Vec<Option<&'e str>>, discarded: &[&'e str]) -> Vec<&'e str> {
    let mut not_held = Vec::new();
    for &card in discarded {
        if let Some(at) = hand.iter().position(|c| *c == Some(card)) {
            hand.remove(at);
        } else if let Some(at) = hand.iter().position(Option::is_none) {
            hand.remove(at);
        } else {
            not_held.push(card);
        }
    }
    not_held
}
