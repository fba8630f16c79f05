//! The board (`services/games/holdem/board.py`): burns and streets (TH-1), a flop redealt
//! (TH-4, TH-5), a premature turn (TH-6). The board is read as *runs*: consecutive
//! `card_dealt` events to the board with the burns dealt just before them, each judged when
//! it ends against where the hand stands. `cards` is what lies on the board now: the
//! showdown is played on it, whatever the procedure was.

use super::deal::BurnCredit;
use super::profile::HoldemProfile;
use crate::rules::betting::pot_hand::Notes;
use crate::rules::Chips;

type Card<'e> = Option<&'e str>;

/// Board cards dealt one after another, with the burns dealt just before them.
#[derive(Debug, Clone)]
pub struct Run<'e> {
    pub cards: Vec<Card<'e>>,
    pub burns: Vec<Card<'e>>,
    pub timely: bool,
    pub seq: i64,
}

/// A flop that must be redealt (TH-4 too many cards, TH-5 dealt too early).
#[derive(Debug, Clone)]
pub struct Redeal<'e> {
    pub rule: &'static str,
    pub cards: Vec<Card<'e>>,
    pub seq: i64,
}

#[derive(Default)]
pub struct Board<'e> {
    pub cards: Vec<Card<'e>>,
    /// streets dealt: 0 nothing yet, 1 flop, 2 turn, 3 river
    pub streets: u8,
    /// the betting round the dealt board opens (0 pre-flop)
    pub betting_street: usize,
    pub waiting_burns: Vec<Card<'e>>,
    pub burn_pile: Vec<Card<'e>>,
    pub run: Option<Run<'e>>,
    pub redeal: Option<Redeal<'e>>,
    /// TH-6 turn card dealt too early, not yet replaced
    pub premature: Option<&'e str>,
    pub set_aside: Vec<&'e str>,
    /// set-aside card to shuffle back before the river
    pub th6_card: Option<&'e str>,
    pub th6_reshuffled: bool,
    pub th6_reshuffled_early: bool,
    /// board cards put back into the stub
    pub returned: Vec<&'e str>,
    pub credits: Vec<BurnCredit<'e>>,
}

/// `_cards`: the cards, an unread one as `??`, none as `(none)`.
fn cards_text(cards: &[Card<'_>]) -> String {
    if cards.is_empty() {
        return "(none)".to_string();
    }
    cards.iter().map(|c| c.unwrap_or("??")).collect::<Vec<_>>().join(" ")
}

impl<'e> Board<'e> {
    fn holds(&self, card: Option<&'e str>) -> bool {
        self.cards.contains(&card)
    }

    // -------------------------------------------------------------- events

    pub fn burn(&mut self, card: Card<'e>) {
        self.waiting_burns.push(card);
        self.burn_pile.push(card);
    }

    /// A `card_dealt` to the board (opens a run if none is open).
    pub fn card(&mut self, card: Card<'e>, seq: i64, timely: bool) {
        if self.run.is_none() {
            let burns = std::mem::take(&mut self.waiting_burns);
            self.run = Some(Run { cards: Vec::new(), burns, timely, seq });
        }
        if let Some(run) = &mut self.run {
            run.cards.push(card);
        }
        self.cards.push(card);
    }

    /// Judge the open run, if any.
    pub fn flush(&mut self, prof: &HoldemProfile, notes: &mut Notes) {
        let run = match self.run.take() {
            Some(run) => run,
            None => return,
        };
        match self.streets {
            0 => self.flop(prof, notes, &run),
            1 => self.turn(prof, notes, &run),
            2 => self.river(prof, notes, &run),
            _ => notes.add("BOARD_CARD_COUNT", "TH-1", prof.severity.board_card_count, format!(
                "{} board card(s) dealt after the river (seq {})", run.cards.len(), run.seq), None,
                Some(run.cards.len() as Chips)),
        }
    }

    /// A dealer's correction (`card_moved`) involving the board, the set-aside card or the burn pile.
    pub fn moved(&mut self, prof: &HoldemProfile, notes: &mut Notes, card: &'e str, source: &str, target: &str, seq: i64) {
        let _ = prof;
        if source == "board" {
            self.take_off_board(card);
            match target {
                "set_aside" => self.set_aside.push(card),
                "stub" => self.returned.push(card),
                "burn" => self.burn_pile.push(Some(card)),
                _ => {}
            }
        } else if source == "set_aside" && target == "stub" {
            self.set_aside_returned(prof, notes, card, true);
        } else if source == "burn" && target == "stub" {
            self.burn_returned(prof, notes, card, seq);
        }
    }

    /// A card dealt straight to `set_aside`: a premature turn the dealer set aside at once (TH-6).
    pub fn dealt_set_aside(&mut self, card: Card<'e>, timely: bool) {
        let card = match card {
            Some(c) => c,
            None => return,
        };
        if self.streets == 1 && !timely && self.premature.is_none() {
            self.premature = Some(card);
            // TH-6: the burn dealt just before it was this premature turn's burn.
            self.waiting_burns.clear();
        }
        self.set_aside.push(card);
    }

    /// `stub_reshuffled`: flop cards going back (TH-5) or the set-aside turn card (TH-6).
    pub fn reshuffled(&mut self, prof: &HoldemProfile, notes: &mut Notes, cards: &[&'e str], seq: i64, round_complete: bool) {
        for &card in cards {
            if self.set_aside.contains(&card) {
                self.set_aside_returned(prof, notes, card, round_complete);
            } else if self.holds(Some(card)) {
                self.take_off_board(card);
                self.returned.push(card);
            } else if self.burn_pile.contains(&Some(card)) {
                self.burn_returned(prof, notes, card, seq);
            }
        }
    }

    /// A flop to redeal or a premature turn is waiting for the dealer's correction.
    pub fn pending(&self) -> bool {
        self.redeal.is_some() || self.premature.is_some()
    }

    /// Betting goes on after a complete round: a flop to redeal or a premature turn still
    /// on the board was kept.
    pub fn resumed(&mut self, prof: &HoldemProfile, notes: &mut Notes, round_complete: bool) {
        if !round_complete {
            return;
        }
        if self.redeal.is_some() && self.on_board(prof) {
            self.flop_kept(prof, notes);
        } else if self.premature.map_or(false, |p| self.holds(Some(p))) {
            self.premature_turn_kept(prof, notes);
        }
    }

    /// End of the hand: a pending correction means the dealer kept it, unless nobody was
    /// left to play that board.
    pub fn finish(&mut self, prof: &HoldemProfile, notes: &mut Notes, contested: bool) {
        if !contested {
            return;
        }
        if self.redeal.is_some() && self.on_board(prof) {
            self.flop_kept(prof, notes);
        }
        if self.premature.map_or(false, |p| self.holds(Some(p))) {
            self.premature_turn_kept(prof, notes);
        }
    }

    /// At least a flop's worth of the cards to redeal still lies on the board.
    fn on_board(&self, prof: &HoldemProfile) -> bool {
        let redeal = match &self.redeal {
            Some(r) => r,
            None => return false,
        };
        redeal.cards.iter().filter(|c| self.holds(**c)).count() as i64 >= prof.flop_cards
    }

    // -------------------------------------------------------------- streets

    fn flop(&mut self, prof: &HoldemProfile, notes: &mut Notes, run: &Run<'e>) {
        if self.redeal.is_some() {
            self.redealt_flop(prof, notes, run);
            return;
        }
        self.check_flop_burn(prof, notes, run);
        if !run.timely {
            self.start_redeal("TH-5", run);
        } else if run.cards.len() as i64 > prof.flop_cards {
            self.start_redeal("TH-4", run);
        } else {
            check_count(prof, notes, run, prof.flop_cards, "flop");
            self.dealt(1, run.timely);
        }
    }

    /// TH-1, or TH-3 / TH-7 when a card from the deal already serves as the burn.
    fn check_flop_burn(&mut self, prof: &HoldemProfile, notes: &mut Notes, run: &Run<'e>) {
        let credit = match self.credits.first() {
            Some(c) => c.clone(),
            None => {
                check_burns(prof, notes, run, 1, "TH-1", "flop");
                return;
            }
        };
        let (code, severity) = if credit.rule == "TH-3" {
            ("EXPOSED_CARD_NOT_BURNED", prof.severity.exposed_card_not_burned)
        } else {
            ("EXTRA_CARD_NOT_BURNED", prof.severity.extra_card_not_burned)
        };
        if credit.via_burn && !run.burns.is_empty() {
            notes.add(code, credit.rule, severity, format!(
                "{} from the deal was already the burn card, but {} more card(s) were burned before the flop (seq {}); {}: no fresh burn, so every flop card moved by one",
                credit.card, run.burns.len(), run.seq, credit.rule), None, None);
        } else if !credit.via_burn {
            let burned = run.burns.first().copied().flatten();
            if run.burns.len() != 1 || !(burned.is_none() || burned == Some(credit.card)) {
                notes.add(code, credit.rule, severity, format!(
                    "{} went back to the deck to be the burn card, but the flop burn was {} (seq {}); {}: it is used as the burn card",
                    credit.card, cards_text(&run.burns), run.seq, credit.rule), None, None);
            }
        }
    }

    fn start_redeal(&mut self, rule: &'static str, run: &Run<'e>) {
        self.redeal = Some(Redeal { rule, cards: run.cards.clone(), seq: run.seq });
    }

    /// TH-5: the old flop went back into the stub, the burn stayed, a new flop is dealt
    /// without burning, after a complete betting round.
    fn redealt_flop(&mut self, prof: &HoldemProfile, notes: &mut Notes, run: &Run<'e>) {
        if self.on_board(prof) {
            // The new run came on top of a flop still lying on the board: it was kept.
            self.flop_kept(prof, notes);
            self.turn(prof, notes, run);
            return;
        }
        let redeal = match self.redeal.take() {
            Some(r) => r,
            None => return,
        };
        let elsewhere: Vec<&str> = redeal.cards.iter().flatten().copied().filter(|c| !self.returned.contains(c)).collect();
        if !elsewhere.is_empty() {
            notes.add("REDEAL_NOT_RESHUFFLED", "TH-5", prof.severity.redeal_not_reshuffled, format!(
                "flop cards {} did not go back into the stub before the flop was redealt (seq {}); TH-5: the flop cards are shuffled back into the stub",
                elsewhere.join(" "), run.seq), None, None);
        }
        check_burns(prof, notes, run, 0, "TH-5", "redealt flop");
        if !run.timely {
            self.start_redeal("TH-5", run);
        } else if run.cards.len() as i64 > prof.flop_cards {
            self.start_redeal("TH-4", run);
        } else {
            check_count(prof, notes, run, prof.flop_cards, "redealt flop");
            self.dealt(1, run.timely);
        }
    }

    fn flop_kept(&mut self, prof: &HoldemProfile, notes: &mut Notes) {
        let redeal = match self.redeal.take() {
            Some(r) => r,
            None => return,
        };
        let why = if redeal.rule == "TH-4" { "had more than three cards" } else { "was dealt before the pre-flop betting was complete" };
        notes.add("FLOP_NOT_REDEALT", redeal.rule, prof.severity.flop_not_redealt, format!(
            "the flop {} {} (seq {}) and was played; {}TH-5: the flop cards go back into the stub, the burn stays, and a new flop is dealt without a burn",
            cards_text(&redeal.cards), why, redeal.seq, if redeal.rule == "TH-4" { "TH-4 / " } else { "" }), None, None);
        self.dealt(1, true);
    }

    fn turn(&mut self, prof: &HoldemProfile, notes: &mut Notes, run: &Run<'e>) {
        if self.premature.is_some() {
            self.replacement_turn(prof, notes, run);
            return;
        }
        check_burns(prof, notes, run, 1, "TH-1", "turn");
        check_count(prof, notes, run, 1, "turn");
        let first = run.cards.first().copied().flatten();
        if run.timely || first.is_none() {
            self.dealt(2, run.timely);
            return;
        }
        self.premature = first;
    }

    /// TH-6: the premature card was set aside, the round completed, burn and deal.
    fn replacement_turn(&mut self, prof: &HoldemProfile, notes: &mut Notes, run: &Run<'e>) {
        let card = match self.premature {
            Some(c) => c,
            None => return,
        };
        if self.holds(Some(card)) && !run.cards.contains(&Some(card)) {
            self.premature_turn_kept(prof, notes);
            self.river(prof, notes, run);
            return;
        }
        if !self.set_aside.contains(&card) {
            notes.add("PREMATURE_TURN_NOT_SET_ASIDE", "TH-6", prof.severity.premature_turn_not_set_aside, format!(
                "the premature turn {} was not set aside before the turn was dealt again (seq {}); TH-6: it is set aside until the turn betting is over, then shuffled back into the stub",
                card, run.seq), None, None);
        }
        check_burns(prof, notes, run, 1, "TH-6", "turn after the premature turn");
        check_count(prof, notes, run, 1, "turn");
        let first = run.cards.first().copied().flatten();
        if !run.timely && first.is_some() {
            self.premature = first;
            return;
        }
        self.th6_card = Some(card);
        self.premature = None;
        self.dealt(2, run.timely);
    }

    fn premature_turn_kept(&mut self, prof: &HoldemProfile, notes: &mut Notes) {
        notes.add("PREMATURE_TURN_NOT_SET_ASIDE", "TH-6", prof.severity.premature_turn_not_set_aside, format!(
            "the turn {} was dealt before the flop betting was complete and stayed in play; TH-6: set it aside, complete the round, burn and deal the turn, shuffle the set-aside card back before the river",
            self.premature.unwrap_or("None")), None, None);
        self.premature = None;
        self.dealt(2, true);
    }

    fn river(&mut self, prof: &HoldemProfile, notes: &mut Notes, run: &Run<'e>) {
        if self.th6_card.is_some() {
            self.check_th6_reshuffle(prof, notes, run);
            check_burns(prof, notes, run, 0, "TH-6", "river after a premature turn");
        } else {
            check_burns(prof, notes, run, 1, "TH-1", "river");
        }
        check_count(prof, notes, run, 1, "river");
        if !run.timely {
            notes.add("BOARD_DEALT_EARLY", "TH-1", prof.severity.board_dealt_early, format!(
                "the river was dealt before the turn betting was complete (seq {}); each street follows a complete betting round",
                run.seq), None, None);
        }
        self.dealt(3, run.timely);
    }

    fn check_th6_reshuffle(&mut self, prof: &HoldemProfile, notes: &mut Notes, run: &Run<'e>) {
        let card = self.th6_card.unwrap_or("None");
        let sev = prof.severity.set_aside_not_reshuffled;
        if !self.th6_reshuffled {
            notes.add("SET_ASIDE_NOT_RESHUFFLED", "TH-6", sev, format!(
                "the set-aside {} was not shuffled back into the stub before the river (seq {}); TH-6: after the turn betting the dealer reshuffles it into the stub, cuts, and deals the river",
                card, run.seq), None, None);
        } else if self.th6_reshuffled_early {
            notes.add("SET_ASIDE_NOT_RESHUFFLED", "TH-6", sev, format!(
                "the set-aside {} was shuffled back before the turn betting was complete; TH-6: it goes back only after that round",
                card), None, None);
        }
        self.th6_card = None;
    }

    // -------------------------------------------------------------- checks and moves

    fn dealt(&mut self, street: u8, timely: bool) {
        self.streets = street;
        if timely {
            self.betting_street = self.betting_street.max(street as usize);
        }
    }

    fn take_off_board(&mut self, card: &str) {
        if let Some(at) = self.cards.iter().position(|c| *c == Some(card)) {
            self.cards.remove(at);
        }
    }

    fn set_aside_returned(&mut self, prof: &HoldemProfile, notes: &mut Notes, card: &'e str, round_complete: bool) {
        if let Some(at) = self.set_aside.iter().position(|c| *c == card) {
            self.set_aside.remove(at);
        }
        if Some(card) == self.th6_card {
            self.th6_reshuffled = true;
            self.th6_reshuffled_early = !round_complete;
        } else if Some(card) == self.premature {
            notes.add("SET_ASIDE_NOT_RESHUFFLED", "TH-6", prof.severity.set_aside_not_reshuffled, format!(
                "the premature turn {} went back into the stub before the turn was dealt again; TH-6: it stays aside until the turn betting is over",
                card), None, None);
            self.th6_reshuffled_early = true;
        }
    }

    fn burn_returned(&mut self, prof: &HoldemProfile, notes: &mut Notes, card: &'e str, seq: i64) {
        if let Some(at) = self.burn_pile.iter().position(|c| *c == Some(card)) {
            self.burn_pile.remove(at);
        }
        let rule = if self.redeal.is_some() {
            "TH-5"
        } else if self.th6_card.is_some() || self.premature.is_some() {
            "TH-6"
        } else {
            return;
        };
        notes.add("BURN_NOT_KEPT", rule, prof.severity.burn_not_kept, format!(
            "burn card {} went back into the stub (seq {}); {}: burn cards stay out", card, seq, rule), None, None);
    }
}

fn check_burns(prof: &HoldemProfile, notes: &mut Notes, run: &Run<'_>, due: usize, rule: &'static str, street: &str) {
    let made = run.burns.len();
    if made < due {
        notes.add("MISSING_BURN", rule, prof.severity.missing_burn, format!(
            "the {} (seq {}) was dealt without a burn; {}: burn one card first", street, run.seq, rule),
            None, Some(made as Chips - due as Chips));
    } else if made > due {
        let why = if due == 0 { "no burn is due".to_string() } else { format!("{} burn is due", due) };
        notes.add("EXTRA_BURN", rule, prof.severity.extra_burn, format!(
            "{} card(s) burned before the {} (seq {}); {}: {}", made, street, run.seq, rule, why),
            None, Some(made as Chips - due as Chips));
    }
}

fn check_count(prof: &HoldemProfile, notes: &mut Notes, run: &Run<'_>, due: i64, street: &str) {
    let n = run.cards.len() as i64;
    if n != due {
        notes.add("BOARD_CARD_COUNT", "TH-1", prof.severity.board_card_count, format!(
            "the {} (seq {}) was dealt with {} card(s); it has {}", street, run.seq, n, due), None, Some((n - due) as Chips));
    }
}
