//! The replay of one Texas Hold'em hand, event by event (`services/games/holdem/walk.py`):
//! the betting on the shared engine (TH-1), the hole-card deal (`deal`), the board
//! (`board`), the showdown records and the declarations of playing the board (TH-8), a
//! misdeal or dead hand (GEN-6). The betting round is kept in step with the board.

use super::board::Board;
use super::deal::HoleDeal;
use super::profile::HoldemProfile;
use super::showdown::Shown;
use crate::json::Value;
use crate::rules::betting::actions::{is_betting, is_post, ViolationKind};
use crate::rules::betting::engine::BettingHand;
use crate::rules::betting::pot_hand::{Notes, Started};
use crate::rules::{self as r, int, opt_int, opt_text, str_list, text, Chips, Defer};
use crate::table::DecodedEvent;

/// The river's betting round.
pub const LAST_ROUND: usize = 3;

/// `HandWalk`: state built while replaying the events of one hand, in order.
pub struct HandWalk<'e, 'p> {
    pub prof: &'p HoldemProfile,
    pub started: Started,
    pub engine: BettingHand,
    pub notes: Notes,
    pub deal: HoleDeal<'e>,
    pub board: Board<'e>,
    pub shown: Vec<Shown<'e>>,
    pub declared_board: Vec<(i64, i64)>,
    /// antes posted per seat, in the order first posted
    pub antes: Vec<(i64, Chips)>,
    pub dead: bool,
    pub misdealt: bool,
}

impl<'e, 'p> HandWalk<'e, 'p> {
    pub fn new(prof: &'p HoldemProfile, started: Started, engine: BettingHand, notes: Notes) -> HandWalk<'e, 'p> {
        let mut seats = started.seat_numbers();
        seats.sort_unstable();
        let deal = HoleDeal::new(prof, seats, started.button);
        HandWalk {
            prof, started, engine, notes, deal, board: Board::default(), shown: Vec::new(),
            declared_board: Vec::new(), antes: Vec::new(), dead: false, misdealt: false,
        }
    }

    // -------------------------------------------------------------- dispatch

    pub fn feed(&mut self, e: &'e DecodedEvent) -> Result<(), Defer> {
        let d = &e.data;
        if e.type_index == r::CARD_DEALT && text(d, "to") == "board" {
            self.first_board_activity();
            let timely = self.board.run.is_some() || self.betting_complete();
            self.board.card(opt_text(d, "card"), e.seq, timely);
            return Ok(());
        }
        if self.board.run.is_some() {
            self.board.flush(self.prof, &mut self.notes);
            self.sync_rounds()?;
        }
        match e.type_index {
            r::ACTION => self.action(e)?,
            r::CARD_DEALT => self.card_dealt(e),
            r::CARD_EXPOSED => self.card_exposed(e),
            r::CARD_MOVED => self.card_moved(e)?,
            r::STUB_RESHUFFLED => {
                let cards = str_list(d, "cards").unwrap_or_default();
                let complete = self.betting_complete();
                self.board.reshuffled(self.prof, &mut self.notes, &cards, e.seq, complete);
            }
            r::SHOWDOWN => self.showdown(e),
            r::MISDEAL => {
                self.misdealt = true;
                self.dead = true;
            }
            r::HAND_DEAD => self.dead = true,
            r::WAGER => {
                let seat = int(d, "seat");
                self.notes.add("UNEXPECTED_ACTION", "TH-1", self.prof.severity.unexpected_action, format!(
                    "seat {} placed a table-game wager ({}) at a hold'em table (seq {})", seat, text(d, "kind"), e.seq),
                    Some(seat), Some(r::chips(d, "amount")));
            }
            _ => {}
        }
        Ok(())
    }

    fn betting_complete(&self) -> bool {
        self.engine.hand_over() || self.engine.round_complete()
    }

    /// The engine's betting round follows the board: a street dealt after a complete round
    /// opens the next round.
    fn sync_rounds(&mut self) -> Result<(), Defer> {
        let target = self.board.betting_street.min(LAST_ROUND);
        while self.engine.round_index < target {
            self.engine.next_round()?;
        }
        Ok(())
    }

    /// The deal is judged before the first burn or board card (TH-3 / TH-7 decide which
    /// card is the flop burn).
    fn first_board_activity(&mut self) {
        if !self.deal.reviewed {
            self.deal.review(self.prof, &mut self.notes, false);
            self.board.credits = self.deal.credits.clone();
        }
    }

    // -------------------------------------------------------------- cards

    fn card_dealt(&mut self, e: &'e DecodedEvent) {
        let d = &e.data;
        let to = text(d, "to");
        let card = opt_text(d, "card");
        match (to, opt_int(d, "seat")) {
            ("seat", Some(seat)) => {
                let face_up = d.get("face_up") == Some(&Value::Bool(true));
                self.deal.card(self.prof, &mut self.notes, seat, card, face_up, e.seq);
            }
            ("burn", _) => {
                self.first_board_activity();
                self.board.burn(card);
            }
            ("set_aside", _) => {
                self.first_board_activity();
                let complete = self.betting_complete();
                self.board.dealt_set_aside(card, complete);
            }
            _ => self.notes.add("CARD_TO_DEALER", "TH-1", self.prof.severity.card_to_dealer, format!(
                "a card was dealt to '{}' (seq {}); hold'em deals hole cards, burns and the board only", to, e.seq),
                None, None),
        }
    }

    /// An event naming a seat that is not dealt in: reported, and otherwise ignored.
    fn not_dealt_in(&mut self, seat: i64, what: &str, seq: i64) -> bool {
        if self.deal.dealt_in(seat) {
            return false;
        }
        let sev = self.prof.betting_severity.of(ViolationKind::NotInHand).unwrap_or(r::Sev::Critical);
        self.notes.add("NOT_IN_HAND", "TH-1", sev, format!("seat {} {} (seq {}) but is not dealt in", seat, what, seq),
                       Some(seat), None);
        true
    }

    fn card_exposed(&mut self, e: &'e DecodedEvent) {
        let d = &e.data;
        let card = text(d, "card");
        let seat = opt_int(d, "seat");
        if let Some(seat) = seat {
            if self.not_dealt_in(seat, &format!("had {} exposed", card), e.seq) {
                return;
            }
            if text(d, "cause") == "dealer_error" {
                self.deal.exposed(seat, card);
            }
        }
    }

    fn card_moved(&mut self, e: &'e DecodedEvent) -> Result<(), Defer> {
        let d = &e.data;
        let (source, to, card) = (text(d, "from"), text(d, "to"), text(d, "card"));
        if let Some(number) = source.strip_prefix("seat:") {
            if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
                return Err(Defer("a seat reference Python's int() reads differently"));
            }
            let seat: i64 = number.parse().map_err(|_| Defer("a seat reference beyond the bound"))?;
            self.deal.removed(self.prof, seat, card, to, e.seq);
            if to == "board" {
                let complete = self.betting_complete();
                self.board.card(Some(card), e.seq, complete);
            }
        } else {
            self.board.moved(self.prof, &mut self.notes, card, source, to, e.seq);
        }
        Ok(())
    }

    fn showdown(&mut self, e: &'e DecodedEvent) {
        let d = &e.data;
        if let Some(seat) = d.get("seat").and_then(Value::as_int) {
            if self.not_dealt_in(seat, "has a showdown record", e.seq) {
                return;
            }
            let mucked = d.get("mucked") == Some(&Value::Bool(true));
            self.shown.push(Shown { seat, cards: str_list(d, "cards"), mucked, seq: e.seq });
        }
    }

    // -------------------------------------------------------------- betting

    fn action(&mut self, e: &'e DecodedEvent) -> Result<(), Defer> {
        let d = &e.data;
        let (seat, kind, amount) = (int(d, "seat"), text(d, "action"), opt_int(d, "amount").map(Chips::from));
        if kind == "declare_board" {
            // TH-8
            if self.not_dealt_in(seat, "declared playing the board", e.seq) {
                return Ok(());
            }
            if !self.declared_board.iter().any(|(s, _)| *s == seat) {
                self.declared_board.push((seat, e.seq));
            }
            return Ok(());
        }
        if !is_betting(kind) {
            self.notes.add("UNEXPECTED_ACTION", "TH-1", self.prof.severity.unexpected_action, format!(
                "seat {} recorded '{}', not an action of Texas Hold'em (seq {})", seat, kind, e.seq), Some(seat), amount);
            return Ok(());
        }
        if is_post(kind) {
            if self.deal.first_seq.is_some() {
                self.notes.add("BLIND_AFTER_DEAL", "TH-1", self.prof.severity.blind_after_deal, format!(
                    "seat {} posted ({}) after the first card was dealt (seq {}); blinds and antes come before the deal",
                    seat, kind, e.seq), Some(seat), amount);
            }
            if kind == "post_ante" {
                let add = amount.unwrap_or(0);
                match self.antes.iter_mut().find(|(s, _)| *s == seat) {
                    Some(slot) => slot.1 += add,
                    None => self.antes.push((seat, add)),
                }
            }
            self.engine.apply(seat, kind, amount);
            return Ok(());
        }
        self.deal.betting_began();
        if self.engine.to_act().is_none() && !self.engine.hand_over() {
            // the round is complete
            if self.board.pending() {
                self.board.resumed(self.prof, &mut self.notes, true);
                self.sync_rounds()?;
            }
            if self.engine.betting_started && self.engine.to_act().is_none() && self.engine.round_index < LAST_ROUND {
                self.engine.next_round()?; // the street was not recorded: the betting moved on
            }
        }
        self.engine.apply(seat, kind, amount);
        Ok(())
    }

    // -------------------------------------------------------------- end of hand

    pub fn finish(&mut self) -> Result<(), Defer> {
        self.board.flush(self.prof, &mut self.notes);
        self.sync_rounds()?;
        if self.dead {
            self.deal.review(self.prof, &mut self.notes, self.misdealt);
            return Ok(());
        }
        self.deal.review(self.prof, &mut self.notes, false);
        self.board.credits = self.deal.credits.clone();
        let contested = self.engine.active().len() > 1;
        self.board.finish(self.prof, &mut self.notes, contested);
        self.sync_rounds()?;
        self.deal.check_counts(self.prof, &mut self.notes);
        self.engine.close_round();
        Ok(())
    }
}
