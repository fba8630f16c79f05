//! The betting state machine (`services/games/betting/engine.py`): blinds, rounds, order of
//! action, legal sizes, violations. `BettingHand` replays a hand's recorded actions one by
//! one; for each it says which rules the action broke, then carries on deterministically
//! with the chips recorded as the chips put in (the policy of the reference's docstring,
//! docs/rules/betting.md). Rule IDs come from the configuration (`RuleIds`, each round's
//! `order_rule`): FCD-3/5/7/8 for Five Card Draw, the hold'em ones for hold'em.

use super::actions::{is_post, Violation, ViolationKind as K};
use super::seating::{blind_seats, clockwise_after, first_left_of};
use super::structures::{BettingConfig, PotLimitReading, Structure};
use crate::rules::{Chips, Defer};

fn post_name(kind: &str) -> &'static str {
    match kind {
        "post_small_blind" => "small blind",
        "post_big_blind" => "big blind",
        _ => "ante",
    }
}

/// `SeatState`: one seat's betting state (`stack` below zero only after an over-stack action).
#[derive(Debug, Clone)]
pub struct SeatState {
    pub seat: i64,
    pub stack: Chips,
    pub total: Chips,
    pub in_round: Chips,
    pub folded: bool,
    pub acted: bool,
    pub acted_level: Chips,
    pub reopen_mark: i64,
}

impl SeatState {
    pub fn all_in(&self) -> bool {
        self.stack <= 0
    }
}

/// `OwedPost`: a blind or ante a seat owes before the betting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OwedPost {
    pub kind: &'static str,
    pub seat: i64,
    pub amount: Chips,
}

/// `BettingHand`: the betting of one hand, round after round.
#[derive(Debug, Clone)]
pub struct BettingHand {
    pub config: BettingConfig,
    pub button: i64,
    pub order: Vec<i64>,
    /// In seat order (`order`).
    pub seats: Vec<SeatState>,
    pub round_index: usize,
    pub round_aggressors: Vec<Option<i64>>,
    pub violations: Vec<Violation>,
    pub owed: Vec<OwedPost>,
    pub missed: Vec<OwedPost>,
    pub betting_started: bool,
    pub closed: bool,
    pub bet_level: Chips,
    pub last_full_raise: Chips,
    pub bets: i64,
    pub full_raises: i64,
    pub aggressor: Option<i64>,
    pub anchor: i64,
}

impl BettingHand {
    /// `BettingHand(config, stacks, button)`; `stacks` by seat, each seat once.
    pub fn new(config: BettingConfig, stacks: &[(i64, Chips)], button: i64) -> Result<BettingHand, Defer> {
        if stacks.len() < 2 {
            return Err(Defer("a betting hand with fewer than two seats"));
        }
        let mut sorted = stacks.to_vec();
        sorted.sort_unstable();
        let order: Vec<i64> = sorted.iter().map(|(s, _)| *s).collect();
        let seats = sorted
            .iter()
            .map(|&(seat, stack)| SeatState {
                seat, stack, total: 0, in_round: 0, folded: false, acted: false, acted_level: 0, reopen_mark: 0,
            })
            .collect();
        let mut hand = BettingHand {
            config, button, order, seats, round_index: 0, round_aggressors: Vec::new(),
            violations: Vec::new(), owed: Vec::new(), missed: Vec::new(), betting_started: false,
            closed: false, bet_level: 0, last_full_raise: 0, bets: 0, full_raises: 0, aggressor: None,
            anchor: button,
        };
        hand.reset_round();
        if hand.config.first_round_blinds {
            hand.open_with_blinds()?;
        } else if hand.config.ante > 0 {
            hand.owed = hand.antes_owed();
        }
        Ok(hand)
    }

    fn at(&self, seat: i64) -> Option<usize> {
        self.order.iter().position(|&s| s == seat)
    }

    // ------------------------------------------------------------------ round set-up

    fn reset_round(&mut self) {
        for st in &mut self.seats {
            st.in_round = 0;
            st.acted = false;
            st.acted_level = 0;
            st.reopen_mark = 0;
        }
        self.bet_level = 0;
        self.last_full_raise = 0;
        self.bets = 0;
        self.full_raises = 0;
        self.aggressor = None;
        self.anchor = self.button;
        self.closed = false;
    }

    fn antes_owed(&self) -> Vec<OwedPost> {
        clockwise_after(&self.order, self.button)
            .into_iter()
            .map(|seat| {
                let stack = self.seats[self.at(seat).unwrap_or(0)].stack;
                OwedPost { kind: "post_ante", seat, amount: self.config.ante.min(stack) }
            })
            .collect()
    }

    /// FCD-3/FCD-5: blinds left of the button; the big blind is the bet to call and (FCD-8)
    /// the first bet of the fixed-limit cap.
    fn open_with_blinds(&mut self) -> Result<(), Defer> {
        let ante = self.config.ante;
        let mut owed = if ante > 0 { self.antes_owed() } else { Vec::new() };
        let (sb, bb) = blind_seats(&self.order, self.button).ok_or(Defer("blinds with fewer than two seats"))?;
        let after_ante = |hand: &BettingHand, seat: i64| {
            let stack = hand.at(seat).map_or(0, |i| hand.seats[i].stack);
            stack - if ante > 0 { ante } else { 0 }
        };
        owed.push(OwedPost { kind: "post_small_blind", seat: sb,
                             amount: self.config.small_blind.min(after_ante(self, sb)).max(0) });
        owed.push(OwedPost { kind: "post_big_blind", seat: bb,
                             amount: self.config.big_blind.min(after_ante(self, bb)).max(0) });
        self.owed = owed;
        self.bet_level = self.config.big_blind;
        self.last_full_raise = self.config.big_blind;
        self.bets = if self.config.big_blind_counts_as_bet { 1 } else { 0 };
        self.anchor = bb;
        Ok(())
    }

    // ------------------------------------------------------------------ queries

    fn round_spec_unit(&self) -> Chips {
        self.config.rounds[self.round_index].bet_unit
    }

    pub fn order_rule(&self) -> &'static str {
        self.config.rounds[self.round_index].order_rule
    }

    pub fn pot_total(&self) -> Chips {
        self.seats.iter().map(|s| s.total).sum()
    }

    /// Chips each seat put in the pot this hand, in seat order.
    pub fn contributions(&self) -> Vec<(i64, Chips)> {
        self.seats.iter().map(|s| (s.seat, s.total)).collect()
    }

    /// Chips each seat has behind (never below zero), in seat order.
    pub fn stacks_left(&self) -> Vec<(i64, Chips)> {
        self.seats.iter().map(|s| (s.seat, s.stack.max(0))).collect()
    }

    pub fn folded(&self) -> Vec<i64> {
        self.seats.iter().filter(|s| s.folded).map(|s| s.seat).collect()
    }

    /// Seats still contesting the pot, in seat order.
    pub fn active(&self) -> Vec<i64> {
        self.seats.iter().filter(|s| !s.folded).map(|s| s.seat).collect()
    }

    pub fn seat(&self, seat: i64) -> Option<&SeatState> {
        self.at(seat).map(|i| &self.seats[i])
    }

    /// Only one player is left (FCD-9: wins without a showdown).
    pub fn hand_over(&self) -> bool {
        self.seats.iter().filter(|s| !s.folded).count() <= 1
    }

    fn able(&self) -> usize {
        self.seats.iter().filter(|s| !s.folded && s.stack > 0).count()
    }

    pub fn can_bet_further(&self) -> bool {
        self.able() >= 2
    }

    fn raise_can_be_answered(&self, i: usize) -> bool {
        self.seats.iter().enumerate().any(|(j, o)| {
            j != i && !o.folded && o.stack > 0 && o.in_round + o.stack > self.bet_level
        })
    }

    fn needs_action(&self, st: &SeatState, able: usize) -> bool {
        if st.folded || st.all_in() {
            return false;
        }
        if st.acted && st.acted_level >= self.bet_level {
            return false;
        }
        !(st.in_round >= self.bet_level && able <= 1)
    }

    /// `_optional_check`: a check by the last player who could still bet, nobody left to
    /// answer (the big blind's option some tables record). Accepted.
    fn optional_check(&self, st: &SeatState, kind: &str, chips: Chips) -> bool {
        (kind == "check" || kind == "call") && chips == 0 && st.in_round >= self.bet_level
            && !(st.acted && st.acted_level >= self.bet_level) && self.able() <= 1
    }

    fn pending(&self) -> Vec<i64> {
        let able = self.able();
        self.seats.iter().filter(|st| self.needs_action(st, able)).map(|st| st.seat).collect()
    }

    /// The seat whose turn it is, None when the round is complete.
    pub fn to_act(&self) -> Option<i64> {
        if self.closed || self.hand_over() {
            return None;
        }
        let able = self.able();
        for seat in clockwise_after(&self.order, self.anchor) {
            let st = &self.seats[self.at(seat)?];
            if st.folded || st.stack <= 0 {
                continue;
            }
            if st.acted && st.acted_level >= self.bet_level {
                continue;
            }
            if !(st.in_round >= self.bet_level && able <= 1) {
                return Some(seat);
            }
        }
        None
    }

    pub fn round_complete(&self) -> bool {
        self.to_act().is_none()
    }

    /// (minimum, maximum) legal round total for a bet or raise by the seat (FCD-8).
    pub fn raise_bounds(&self, i: usize) -> (Chips, Chips) {
        let st = &self.seats[i];
        let unit = self.round_spec_unit();
        if self.config.structure == Structure::Fixed {
            let level = self.bet_level + unit;
            return (level, level);
        }
        let minimum = self.bet_level + self.last_full_raise.max(unit);
        if self.config.structure == Structure::No {
            return (minimum, minimum.max(st.in_round + st.stack));
        }
        let to_call = (self.bet_level - st.in_round).max(0);
        let pot_after_call = self.pot_total() + to_call;
        let maximum = match self.config.pot_limit_reading {
            PotLimitReading::TotalAtMostPotAfterCall => pot_after_call,
            PotLimitReading::RaiseByPotAfterCall => self.bet_level + pot_after_call,
        };
        (minimum, minimum.max(maximum))
    }

    /// Why the seat may not bet or raise now (FCD-8), or None.
    pub fn raise_refusal(&self, i: usize) -> Option<K> {
        let st = &self.seats[i];
        if !self.raise_can_be_answered(i) {
            return Some(K::NoOpponentToRaise);
        }
        if self.config.structure == Structure::Fixed && self.bets >= self.config.max_bets_per_round {
            return Some(K::CapExceeded);
        }
        if st.acted && st.reopen_mark >= self.full_raises {
            return Some(K::NotReopened);
        }
        None
    }

    /// FCD-9: the last bettor or raiser of the final round shows first; else the first
    /// active player left of the button; then clockwise.
    pub fn showdown_order(&self) -> Result<Vec<i64>, Defer> {
        let contenders = self.active();
        if contenders.is_empty() {
            return Ok(Vec::new());
        }
        let first = match self.aggressor {
            Some(last) if contenders.contains(&last) => last,
            _ => first_left_of(&contenders, self.button).ok_or(Defer("no first seat to show"))?,
        };
        let mut out = vec![first];
        out.extend(clockwise_after(&contenders, first).into_iter().filter(|&s| s != first));
        Ok(out)
    }

    // ------------------------------------------------------------------ actions

    fn violation(&self, kind: K, rule: &'static str, seat: Option<i64>, message: String, amount: Option<Chips>) -> Violation {
        Violation { kind, rule, seat, round_index: self.round_index, message, amount }
    }

    /// Apply one recorded action (`amount`: chips added); what it broke is kept in `violations`.
    pub fn apply(&mut self, seat: i64, kind: &str, amount: Option<Chips>) {
        let chips = amount.unwrap_or(0);
        let found = if is_post(kind) { self.post(seat, kind, chips) } else { self.voluntary(seat, kind, chips) };
        self.violations.extend(found);
    }

    /// Move chips from the seat's stack to the pot (as recorded, even beyond it).
    fn put(&mut self, i: usize, chips: Chips, live: bool) -> Vec<Violation> {
        let mut found = Vec::new();
        let (seat, behind) = (self.seats[i].seat, self.seats[i].stack.max(0));
        if chips > behind {
            found.push(self.violation(K::OverStack, self.config.rules.stakes, Some(seat), format!(
                "seat {} put in {} chips with {} behind", seat, chips, behind), Some(chips - behind)));
        }
        let st = &mut self.seats[i];
        st.stack -= chips;
        st.total += chips;
        if live {
            st.in_round += chips;
        }
        found
    }

    /// A blind or ante (FCD-3): the right seat, the right amount, before the betting.
    fn post(&mut self, seat: i64, kind: &str, chips: Chips) -> Vec<Violation> {
        let rule = self.config.rules.blinds;
        let name = post_name(kind);
        let i = match self.at(seat) {
            Some(i) => i,
            None => return vec![self.violation(K::NotInHand, rule, Some(seat), format!(
                "seat {} posted a {} but is not dealt in", seat, name), None)],
        };
        let mut found = Vec::new();
        if self.betting_started || self.round_index > 0 {
            found.push(self.violation(K::BlindLate, rule, Some(seat), format!(
                "seat {} posted a {} after the betting began", seat, name), None));
        }
        let in_owed = self.owed.iter().position(|o| o.kind == kind && o.seat == seat);
        let matched = match in_owed {
            Some(at) => Some(self.owed.remove(at)),
            None => self.missed.iter().position(|o| o.kind == kind && o.seat == seat).map(|at| self.missed.remove(at)),
        };
        match matched {
            None => {
                let who = match self.owed.iter().find(|o| o.kind == kind) {
                    Some(o) => format!("seat {} owes it", o.seat),
                    None => format!("no {} is owed", name),
                };
                found.push(self.violation(K::BlindWrongSeat, rule, Some(seat), format!(
                    "seat {} posted a {}; {}", seat, name, who), Some(chips)));
            }
            Some(m) => {
                if chips != m.amount {
                    found.push(self.violation(K::BlindWrongAmount, rule, Some(seat), format!(
                        "seat {} posted a {} of {}; {} is owed", seat, name, chips, m.amount), Some(chips - m.amount)));
                }
            }
        }
        let put = self.put(i, chips, kind != "post_ante");
        found.extend(put);
        // A blind larger than owed was taken by the table: it is the bet to call.
        self.bet_level = self.bet_level.max(self.seats[i].in_round);
        found
    }

    /// The first voluntary action: every blind or ante still owed is missing.
    fn start_betting(&mut self) -> Vec<Violation> {
        if self.betting_started {
            return Vec::new();
        }
        self.betting_started = true;
        let rule = self.config.rules.blinds;
        let owed = std::mem::take(&mut self.owed);
        let found = owed
            .iter()
            .filter(|o| o.amount != 0)  // a seat all-in on what it posted before owes nothing
            .map(|o| self.violation(K::BlindMissing, rule, Some(o.seat), format!(
                "seat {} did not post the {} of {} before the betting", o.seat, post_name(o.kind), o.amount), Some(o.amount)))
            .collect();
        self.missed = owed;
        found
    }

    fn voluntary(&mut self, seat: i64, kind: &str, chips: Chips) -> Vec<Violation> {
        let mut found = self.start_betting();
        let rule = self.order_rule();
        let i = match self.at(seat) {
            Some(i) => i,
            None => {
                found.push(self.violation(K::NotInHand, rule, Some(seat), format!(
                    "seat {} acted ({}) but is not dealt in", seat, kind), None));
                return found;
            }
        };
        if self.closed {
            found.push(self.violation(K::OutOfTurn, rule, Some(seat), format!(
                "seat {} acted ({}) after the betting round closed", seat, kind), None));
            found.extend(self.put(i, chips, false));
            return found;
        }
        if self.seats[i].folded || self.seats[i].all_in() {
            let why = if self.seats[i].folded { "has folded" } else { "is all-in" };
            found.push(self.violation(K::NotInHand, rule, Some(seat), format!(
                "seat {} acted ({}) but {}", seat, kind, why), None));
            found.extend(self.put(i, chips, false));
            return found;
        }
        if kind == "fold" && self.active().len() == 1 {
            found.push(self.violation(K::LastPlayerFolded, rule, Some(seat), format!(
                "seat {} folded as the only player left; the fold is ignored", seat), None));
            return found;
        }
        let due = self.to_act();
        if due != Some(seat) && !self.optional_check(&self.seats[i], kind, chips) {
            let expected = match due {
                Some(d) => format!("seat {} was due", d),
                None => "no action was due".to_string(),
            };
            found.push(self.violation(K::OutOfTurn, rule, Some(seat), format!(
                "seat {} acted ({}) out of turn; {}", seat, kind, expected), None));
        }
        if kind == "fold" {
            found.extend(self.fold(i, chips));
        } else {
            found.extend(self.wager(i, kind, chips));
        }
        let (level, raises) = (self.bet_level, self.full_raises);
        let st = &mut self.seats[i];
        st.acted = true;
        st.acted_level = level;
        st.reopen_mark = raises;
        if due == Some(seat) {
            self.anchor = seat;
        }
        found
    }

    fn fold(&mut self, i: usize, chips: Chips) -> Vec<Violation> {
        let mut found = Vec::new();
        if chips != 0 {
            let seat = self.seats[i].seat;
            found.push(self.violation(K::ChipsWithFold, self.config.rules.sizes, Some(seat), format!(
                "seat {} folded and put in {} chips", seat, chips), Some(chips)));
            found.extend(self.put(i, chips, true));
        }
        self.seats[i].folded = true;
        found
    }

    /// Check, call, bet, raise or all-in, judged by the chips it adds.
    fn wager(&mut self, i: usize, kind: &str, chips: Chips) -> Vec<Violation> {
        let mut found = Vec::new();
        let (seat, stack_before, in_round) = (self.seats[i].seat, self.seats[i].stack, self.seats[i].in_round);
        let to_call = (self.bet_level - in_round).max(0);
        let new_level = in_round + chips;
        if kind == "all_in" && chips < stack_before {
            found.push(self.violation(K::AllInNotWholeStack, self.config.rules.sizes, Some(seat), format!(
                "seat {} went all-in with {} of {} chips", seat, chips, stack_before), Some(chips - stack_before)));
        }
        if new_level > self.bet_level {
            found.extend(self.aggressive(i, kind, chips, new_level, stack_before));
        } else {
            found.extend(self.passive(seat, kind, chips, to_call, stack_before));
        }
        found.extend(self.put(i, chips, true));
        found
    }

    /// A check or call: the chips must be exactly what is owed (capped at the stack).
    fn passive(&self, seat: i64, kind: &str, chips: Chips, to_call: Chips, stack_before: Chips) -> Vec<Violation> {
        let owed = to_call.min(stack_before);
        let sizes = self.config.rules.sizes;
        if kind == "bet" || kind == "raise" {
            return vec![self.violation(K::NotARaise, sizes, Some(seat), format!(
                "seat {} recorded a {} of {} that does not go above the {} owed", seat, kind, chips, owed), Some(chips - owed))];
        }
        if chips == owed || kind == "all_in" {
            return Vec::new();
        }
        if kind == "check" && chips == 0 {
            return vec![self.violation(K::CheckFacingBet, self.order_rule(), Some(seat), format!(
                "seat {} checked facing a bet of {}", seat, to_call), Some(to_call))];
        }
        vec![self.violation(K::WrongCallAmount, sizes, Some(seat), format!(
            "seat {} put in {} to call; {} was owed", seat, chips, owed), Some(chips - owed))]
    }

    /// A bet or raise: allowed at all, and of a legal size (FCD-8).
    fn aggressive(&mut self, i: usize, kind: &str, chips: Chips, new_level: Chips, stack_before: Chips) -> Vec<Violation> {
        let mut found = Vec::new();
        let sizes = self.config.rules.sizes;
        let seat = self.seats[i].seat;
        let owed = (self.bet_level - self.seats[i].in_round).max(0);
        if kind == "check" || kind == "call" {
            found.push(self.violation(K::WrongCallAmount, sizes, Some(seat), format!(
                "seat {} recorded a {} of {}; {} was owed", seat, kind, chips, owed), Some(chips - owed)));
        }
        if let Some(refusal) = self.raise_refusal(i) {
            found.push(self.violation(refusal, sizes, Some(seat), self.refusal_message(refusal, seat, new_level), None));
        }
        let (low, high) = self.raise_bounds(i);
        let all_in = chips >= stack_before;
        found.extend(self.size_violations(seat, new_level, all_in, low, high));
        let short_all_in = all_in && new_level < low;
        let raise_size = new_level - self.bet_level;
        if !short_all_in {
            // A full bet or raise (or an illegal one the table accepted): it reopens the
            // betting and counts towards the fixed-limit cap.
            self.full_raises += 1;
            self.bets += 1;
            self.last_full_raise = self.last_full_raise.max(raise_size);
        }
        self.bet_level = new_level;
        self.aggressor = Some(seat);
        found
    }

    fn refusal_message(&self, refusal: K, seat: i64, level: Chips) -> String {
        match refusal {
            K::CapExceeded => format!("seat {} raised to {} after the cap of {} bets this round",
                                      seat, level, self.config.max_bets_per_round),
            K::NotReopened => format!(
                "seat {} raised to {} although only a short all-in, not a full raise, came after its last action: the betting was not reopened",
                seat, level),
            _ => format!(
                "seat {} raised to {} although no opponent could put in more than the bet (all all-in or short)",
                seat, level),
        }
    }

    fn size_violations(&self, seat: i64, level: Chips, all_in: bool, low: Chips, high: Chips) -> Vec<Violation> {
        let sizes = self.config.rules.sizes;
        match self.config.structure {
            Structure::Fixed => {
                if level > high || (level < low && !all_in) {
                    return vec![self.violation(K::WrongLimitAmount, sizes, Some(seat), format!(
                        "seat {} bet or raised to {}; fixed limit allows exactly {} this round", seat, level, low),
                        Some(level - low))];
                }
                return Vec::new();
            }
            Structure::Pot if level > high => {
                return vec![self.violation(K::OverPot, sizes, Some(seat), format!(
                    "seat {} bet or raised to {}; the pot limit allowed at most {}", seat, level, high),
                    Some(level - high))];
            }
            _ => {}
        }
        if level < low && !all_in {
            return vec![self.violation(K::UnderMinimum, sizes, Some(seat), format!(
                "seat {} bet or raised to {}; the minimum was {}", seat, level, low), Some(level - low))];
        }
        Vec::new()
    }

    /// GEN-7: a player who leaves without acting has folded (no violation).
    pub fn walk_away(&mut self, seat: i64) {
        let i = match self.at(seat) {
            Some(i) => i,
            None => return,
        };
        if self.seats[i].folded || self.hand_over() {
            return;
        }
        if self.to_act() == Some(seat) {
            self.anchor = seat;
        }
        self.seats[i].folded = true;
    }

    /// Chips a seat moved into the pot by something other than a betting action.
    pub fn dead_chips(&mut self, seat: i64, chips: Chips) {
        let i = match self.at(seat) {
            Some(i) if chips > 0 => i,
            _ => return,
        };
        let found = self.put(i, chips, false);
        self.violations.extend(found);
    }

    // ------------------------------------------------------------------ rounds

    /// End the current round; players still owing a decision are a violation of its order rule.
    pub fn close_round(&mut self) {
        if self.closed {
            return;
        }
        let mut found = if self.round_index == 0 { self.start_betting() } else { Vec::new() };
        let pending = if self.hand_over() { Vec::new() } else { self.pending() };
        if !pending.is_empty() {
            let seats: Vec<String> = pending.iter().map(|s| s.to_string()).collect();
            found.push(self.violation(K::RoundIncomplete, self.order_rule(), None, format!(
                "betting round {} closed with seat(s) {} still to act", self.round_index + 1, seats.join(", ")), None));
        }
        self.round_aggressors.push(self.aggressor);
        self.closed = true;
        self.violations.extend(found);
    }

    /// Close the current round and open the next one (`RoundOverError`: a deferral).
    pub fn next_round(&mut self) -> Result<(), Defer> {
        self.close_round();
        if self.round_index + 1 >= self.config.rounds.len() {
            return Err(Defer("a betting round beyond the configuration's"));
        }
        self.round_index += 1;
        self.reset_round();
        Ok(())
    }
}
