//! High Card Flush procedure (`services/games/hcf/procedure.py`): whether the whole hand
//! is dead (HCF-13, GEN-6), which wagers are in action (HCF-3, GEN-5, GEN-2), each
//! player's decision and raise in action (HCF-4, GEN-7), each hand's cards (GEN-1
//! showdowns) and the DP's rotation (HCF-2).

use super::reading::{HandFacts, PlacedWager, Rejected, FOLD, RAISE};
use crate::rules::evaluation::{flush_length, flush_value, suit_masks};
use crate::rules::profile::HcfRules;
use crate::rules::{finding, mul, Chips, Defer, OrdMap, RFinding};
use crate::table::Context;

/// Why settling a hand stops: rejected (a `HandRejected`) or deferred to Python.
#[derive(Debug)]
pub enum Stop {
    Rejected(Rejected),
    Defer(Defer),
}

impl From<Defer> for Stop {
    fn from(d: Defer) -> Self {
        Stop::Defer(d)
    }
}

/// The chips in action of one seat by kind (`in_action[seat]`).
#[derive(Debug, Clone, Default)]
pub struct Amounts {
    pub ante: Chips,
    pub flush_bonus: Chips,
    pub sf_bonus: Chips,
    pub raise: Chips,
}

impl Amounts {
    fn add(&mut self, kind: &str, amount: Chips) {
        match kind {
            "ante" => self.ante += amount,
            "flush_bonus" => self.flush_bonus += amount,
            "sf_bonus" => self.sf_bonus += amount,
            _ => self.raise += amount,
        }
    }

    fn pre_deal(&self) -> [(&'static str, Chips); 3] {
        [("ante", self.ante), ("flush_bonus", self.flush_bonus), ("sf_bonus", self.sf_bonus)]
    }
}

/// One player's hand as it is in action.
#[derive(Debug, Clone)]
pub struct SeatPlay {
    pub seat: i64,
    pub ante: Chips,
    pub flush_bonus: Chips,
    pub sf_bonus: Chips,
    pub raise_in_action: Chips,
    pub folded: bool,
    /// HCF-4 (folded) or GEN-7 (walked away / never decided)
    pub fold_rule: &'static str,
    /// rank mask per suit of the player's cards (evaluated once)
    pub masks: [u32; 4],
    /// HCF-6 flush value of the cards
    pub value: u32,
    /// HCF-4: the raise was cut to the cap
    pub over_cap: bool,
}

impl SeatPlay {
    pub fn bonuses(&self) -> Chips {
        self.flush_bonus + self.sf_bonus
    }
}

fn who(facts: &HandFacts<'_>, holder: i64) -> String {
    if holder == facts.dp {
        "the designated player".to_string()
    } else {
        format!("seat {}", holder)
    }
}

/// HCF-13 / GEN-6: the rule that kills the whole hand, or None when it is live. Checked:
/// the DP's hand, every player's with an Ante in action, any seat that received cards.
pub fn whole_hand_dead(facts: &HandFacts<'_>, in_action: &OrdMap<i64, Amounts>, rules: &HcfRules<'_>,
                       found: &mut Vec<RFinding>) -> Option<&'static str> {
    let expected = rules.p.cards_per_hand;
    let mut wrong: Vec<(i64, i64)> = facts
        .dealt
        .items
        .iter()
        .filter(|(_, c)| c.len() as i64 != expected)
        .map(|(h, c)| (*h, c.len() as i64))
        .collect();
    let holders = std::iter::once(facts.dp)
        .chain(in_action.items.iter().filter(|(_, a)| a.ante != 0).map(|(s, _)| *s));
    for holder in holders {
        if !facts.dealt.contains(holder) {
            wrong.push((holder, 0));
        }
    }
    wrong.sort_unstable();
    if !facts.dead_events.is_empty() {
        if facts.dead_events.iter().any(|(kind, _, _)| *kind == "shuffler_alarm") || !wrong.is_empty() {
            return Some("HCF-13");
        }
        return Some("GEN-6");
    }
    if wrong.is_empty() {
        return None;
    }
    for (holder, count) in wrong {
        found.push(finding("CARD_COUNT", "HCF-13", rules.p.card_count_severity, format!(
            "{} was dealt {} cards instead of {}; the hand is dead (HCF-13) but the table did not declare it",
            who(facts, holder), count, expected), Some(holder), None));
    }
    Some("HCF-13")
}

fn not_in_game(seat: i64, w: &PlacedWager<'_>, why: &str, rules: &HcfRules<'_>) -> RFinding {
    finding("WAGER_NOT_IN_GAME", "HCF-3", rules.p.wager_not_in_game_severity, format!(
        "seat {}: {} of {} at seq {} {}; it is not in action and goes back to the player",
        seat, w.kind, w.amount, w.seq, why), Some(seat), Some(w.amount))
}

/// HCF-3 for an Ante or bonus after the first card, SURV-1 for a Raise after an outcome
/// was visible.
fn past_posted(facts: &HandFacts<'_>, w: &PlacedWager<'_>) -> Option<&'static str> {
    match w.kind {
        "ante" | "flush_bonus" | "sf_bonus" => match facts.first_card_seq {
            Some(first) if w.seq > first => Some("HCF-3"),
            _ => None,
        },
        RAISE => match facts.outcome_seq {
            Some(seen) if w.seq > seen => Some("SURV-1"),
            _ => None,
        },
        _ => None,
    }
}

/// The rules that voided a seat's wagers, by kind (the first of each), under
/// `past_posted_wager_void` (`voided_wagers` of the reference): HCF-3 for an Ante or bonus
/// after the first card, SURV-1 for a Raise after an outcome was visible.
#[derive(Debug, Default, Clone, Copy)]
pub struct Voided {
    pub raise: Option<&'static str>,
    pub flush_bonus: Option<&'static str>,
    pub sf_bonus: Option<&'static str>,
}

pub fn voided_wagers(facts: &HandFacts<'_>, seat: i64, rules: &HcfRules<'_>) -> Voided {
    let mut out = Voided::default();
    if !rules.p.past_posted_wager_void {
        return out;
    }
    for w in facts.wagers.get(seat).map(Vec::as_slice).unwrap_or(&[]) {
        if let Some(broken) = past_posted(facts, w) {
            let slot = match w.kind {
                RAISE => &mut out.raise,
                "flush_bonus" => &mut out.flush_bonus,
                "sf_bonus" => &mut out.sf_bonus,
                _ => continue,
            };
            slot.get_or_insert(broken);
        }
    }
    out
}

/// Seat -> chips in action by kind, after the HCF-3 / GEN-5 checks.
pub fn wagers_in_action(facts: &HandFacts<'_>, rules: &HcfRules<'_>, limits: (Chips, Chips),
                        found: &mut Vec<RFinding>) -> OrdMap<i64, Amounts> {
    let p = rules.p;
    let mut in_action: OrdMap<i64, Amounts> = OrdMap::default();
    for (seat, placed) in &facts.wagers.items {
        let seat = *seat;
        let mut amounts: Option<Amounts> = None;
        for w in placed {
            if seat == facts.dp {
                found.push(not_in_game(seat, w, "was placed by the designated player, who banks the game", rules));
                continue;
            }
            if !facts.stacks.contains(seat) {
                found.push(not_in_game(seat, w, "was placed by a seat not dealt in", rules));
                continue;
            }
            if !matches!(w.kind, "ante" | "flush_bonus" | "sf_bonus" | RAISE) {
                found.push(not_in_game(seat, w, "is not a High Card Flush wager", rules));
                continue;
            }
            if let Some(broken) = past_posted(facts, w) {
                let when = if broken == "HCF-3" {
                    "the first card".to_string()
                } else {
                    format!("an outcome was visible (seq {})", facts.outcome_seq.unwrap_or(0))
                };
                let void = if p.past_posted_wager_void { "; void, returned" } else { "" };
                found.push(finding("PAST_POSTING", broken, p.past_posting_severity, format!(
                    "seat {}: {} of {} placed at seq {}, after {}{}", seat, w.kind, w.amount, w.seq, when, void),
                    Some(seat), Some(w.amount)));
                if p.past_posted_wager_void {
                    continue;
                }
            }
            amounts.get_or_insert_with(Amounts::default).add(w.kind, w.amount);
        }
        if let Some(a) = amounts {
            in_action.set(seat, a);
        }
    }
    for (seat, a) in in_action.items.iter_mut() {
        if a.ante == 0 {
            for (kind, amount) in [("flush_bonus", &mut a.flush_bonus), ("sf_bonus", &mut a.sf_bonus), (RAISE, &mut a.raise)] {
                if *amount != 0 {
                    found.push(finding("WAGER_NOT_IN_GAME", "HCF-3", p.wager_not_in_game_severity, format!(
                        "seat {}: {} of {} without an Ante; not in action, returned", seat, kind, amount),
                        Some(*seat), Some(*amount)));
                    *amount = 0;
                }
            }
        }
    }
    for (seat, a) in &in_action.items {
        outside_limits(*seat, a, limits, rules, found);
    }
    in_action
}

/// GEN-5 / HCF-3: the Ante and each bonus in action within the posted limits (the total
/// of each kind; the Raise is bounded by HCF-4 instead).
fn outside_limits(seat: i64, a: &Amounts, (min, max): (Chips, Chips), rules: &HcfRules<'_>,
                  found: &mut Vec<RFinding>) {
    for (kind, amount) in a.pre_deal() {
        if amount != 0 && !(min <= amount && amount <= max) {
            found.push(finding("WAGER_OUTSIDE_LIMITS", "GEN-5", rules.limits_severity, format!(
                "seat {}: {} of {} outside the posted limits {}-{}", seat, kind, amount, min, max),
                Some(seat), Some(amount)));
        }
    }
}

/// GEN-2 as HCF applies it: Ante + bonuses + the largest raise must be on the table, and
/// (`stake_counts_fee`, the caller passes it) the HCF-12 fee the player pays.
pub fn table_stakes(seat: i64, stack: Chips, a: &Amounts, rules: &HcfRules<'_>,
                    found: &mut Vec<RFinding>, fee: Chips) -> Result<(), Defer> {
    let multiple = rules.p.stake_cover_raise_multiple;
    let needed = a.ante + a.flush_bonus + a.sf_bonus + mul(multiple as Chips, a.ante)? + fee;
    if stack < needed {
        let what = if fee != 0 {
            format!("Ante, bonuses, a raise of {}x Ante and the participation fee of {} it pays, HCF-12", multiple, fee)
        } else {
            format!("Ante, bonuses and a raise of {}x Ante", multiple)
        };
        found.push(finding("INSUFFICIENT_STAKE", "GEN-2", rules.p.insufficient_stake_severity, format!(
            "seat {} started with {} chips but the hand can require {} ({})", seat, stack, needed, what),
            Some(seat), Some(needed - stack)));
    }
    Ok(())
}

/// GEN-2 for the designated player (`stake_counts_fee`): it covers no wager (HCF-11 pays
/// players only as far as its funds go), so what the hand can require of it is the most
/// HCF-12 fee it can owe (`settlement::dp_rake_reserve`).
pub fn dp_table_stakes(dp: i64, stack: Chips, fee: Chips, rules: &HcfRules<'_>, found: &mut Vec<RFinding>) {
    if stack < fee {
        found.push(finding("INSUFFICIENT_STAKE", "GEN-2", rules.p.insufficient_stake_severity, format!(
            "the designated player (seat {}) started with {} chips but the hand can require {} (the participation fee it pays, HCF-12)",
            dp, stack, fee), Some(dp), Some(fee - stack)));
    }
}

/// The holder's cards: as dealt when all were read, else the read cards plus what the
/// showdown adds for the unread ones; None when that cannot be told. A showdown that is
/// not the cards dealt is a SHOWDOWN_MISMATCH (GEN-1).
pub fn known_cards<'a>(facts: &HandFacts<'a>, holder: i64, rules: &HcfRules<'_>,
                       found: &mut Vec<RFinding>) -> Option<Vec<&'a str>> {
    let empty = Vec::new();
    let dealt = facts.dealt.get(holder).unwrap_or(&empty);
    let read: Vec<&'a str> = dealt.iter().filter_map(|c| *c).collect();
    let unread = dealt.len() - read.len();
    let mut filled = None;
    if let Some(shown) = facts.shown.get(holder) {
        let (missing, others) = read_against_shown(&read, shown);
        if missing || others.len() != unread {
            let as_dealt: Vec<&str> = dealt.iter().map(|c| c.unwrap_or("??")).collect();
            let tail = if unread == 0 { "; settled on the cards dealt" } else { "" };
            found.push(finding("SHOWDOWN_MISMATCH", "GEN-1", rules.p.showdown_mismatch_severity, format!(
                "{} showed {} but was dealt {} (?? = unread): cards were switched, added or held back{}",
                who(facts, holder), shown.join(" "), as_dealt.join(" "), tail), Some(holder), None));
        } else {
            let mut all = read.clone();
            all.extend(others);
            filled = Some(all);
        }
    }
    if !dealt.is_empty() && unread == 0 {
        return Some(read);
    }
    filled
}

/// (some read card is missing from the showdown, shown cards that are not read cards)
fn read_against_shown<'a>(read: &[&'a str], shown: &[&'a str]) -> (bool, Vec<&'a str>) {
    let mut others: Vec<&'a str> = shown.to_vec();
    let mut missing = false;
    for card in read {
        match others.iter().position(|c| c == card) {
            Some(at) => {
                others.remove(at);
            }
            None => missing = true,
        }
    }
    (missing, others)
}

/// HCF-1: a hand whose cards cannot be told cannot be valued.
pub fn require_cards<'a>(cards: Option<Vec<&'a str>>, who: &str) -> Result<Vec<&'a str>, Stop> {
    cards.ok_or_else(|| Stop::Rejected(("HCF-1", format!(
        "{}'s cards were dealt unread and not shown as dealt (the showdown must list every card of the hand): the hand cannot be valued",
        who))))
}

/// The player's decision (HCF-4, GEN-7) and the raise in action.
pub fn seat_play(seat: i64, a: &Amounts, facts: &HandFacts<'_>, rules: &HcfRules<'_>,
                 found: &mut Vec<RFinding>) -> Result<SeatPlay, Stop> {
    let mut play = SeatPlay {
        seat, ante: a.ante, flush_bonus: a.flush_bonus, sf_bonus: a.sf_bonus, raise_in_action: 0,
        folded: false, fold_rule: "HCF-4", masks: [0; 4], value: 0, over_cap: false,
    };
    let decided = facts.decision.get(seat).copied();
    let left_at = facts.left.get(seat).copied();
    let walked = match (decided, left_at) {
        (None, _) => true,
        (Some((seq, _)), Some(left)) => left < seq,
        _ => false,
    };
    if walked {
        play.folded = true;
        play.fold_rule = "GEN-7";
        let why = match left_at {
            Some(left) => format!("left the table at seq {} before acting", left),
            None => "made no decision (no raise or fold was recorded)".to_string(),
        };
        found.push(finding("WALK_AWAY_FOLD", "GEN-7", rules.p.walk_away_severity, format!(
            "seat {} {}: the hand is folded", seat, why), Some(seat), None));
        raise_after_fold(&play, a, rules, found);
        return Ok(play);
    }
    let (seq, what) = decided.unwrap_or((0, FOLD));
    if what == FOLD {
        play.folded = true;
        late_fold(seat, seq, facts, rules, found);
        raise_after_fold(&play, a, rules, found);
        return Ok(play);
    }
    let cards = require_cards(known_cards(facts, seat, rules, found), &format!("seat {}", seat))?;
    play.masks = suit_masks(&cards)?;
    play.value = flush_value(&play.masks);
    play.raise_in_action = raise_in_action(&mut play, a.raise, rules, found)?;
    Ok(play)
}

/// HCF-5: a fold after an outcome was visible stands, and is a finding.
fn late_fold(seat: i64, seq: i64, facts: &HandFacts<'_>, rules: &HcfRules<'_>, found: &mut Vec<RFinding>) {
    if let Some(seen) = facts.outcome_seq {
        if seq > seen {
            found.push(finding("DECISION_AFTER_REVEAL", "HCF-5", rules.p.late_decision_severity, format!(
                "seat {} folded at seq {}, after an outcome was visible (seq {}); the fold stands", seat, seq, seen),
                Some(seat), None));
        }
    }
}

/// HCF-4: a folded hand has no Raise; chips put down as one are not in action.
fn raise_after_fold(play: &SeatPlay, a: &Amounts, rules: &HcfRules<'_>, found: &mut Vec<RFinding>) {
    if a.raise != 0 {
        found.push(finding("WAGER_NOT_IN_GAME", "HCF-4", rules.p.wager_not_in_game_severity, format!(
            "seat {}: raise of {} on a folded hand; it is not in action and goes back to the player",
            play.seat, a.raise), Some(play.seat), Some(a.raise)));
    }
}

/// HCF-4: an over-cap raise is a finding and only the capped amount plays (or the whole
/// raise, `over_cap_raise_plays`); a short raise is a finding and plays.
fn raise_in_action(play: &mut SeatPlay, raised: Chips, rules: &HcfRules<'_>,
                   found: &mut Vec<RFinding>) -> Result<Chips, Defer> {
    let length = flush_length(play.value) as i64;
    let cap = rules.raise_cap(length, play.ante)?;
    let minimum = mul(rules.p.raise_min_ante_multiple as Chips, play.ante)?;
    let seat = play.seat;
    if raised > cap {
        play.over_cap = true;
        let plays = if rules.p.over_cap_plays_cap { cap } else { raised };
        let returned = if plays == cap {
            format!("only {} is in action, {} goes back", cap, raised - cap)
        } else {
            "it plays as placed".to_string()
        };
        found.push(finding("RAISE_OVER_CAP", "HCF-4", rules.p.over_cap_raise_severity, format!(
            "seat {} raised {} with a {}-card flush; the cap is {} (Ante {}); {}",
            seat, raised, length, cap, play.ante, returned), Some(seat), Some(raised - cap)));
        return Ok(plays);
    }
    if raised < minimum {
        found.push(finding("RAISE_UNDER_MINIMUM", "HCF-4", rules.p.under_min_raise_severity, format!(
            "seat {} raised {}, less than the minimum {}; it plays as placed", seat, raised, minimum),
            Some(seat), Some(minimum - raised)));
    }
    Ok(raised)
}

/// HCF-2: the DP moves clockwise; every eligible seat passed over must have declined.
pub fn rotation_findings(facts: &HandFacts<'_>, table: &Context, rules: &HcfRules<'_>,
                         found: &mut Vec<RFinding>) {
    if facts.button != facts.dp {
        found.push(finding("BUTTON_NOT_AT_DP", "HCF-2", rules.p.button_not_at_dp_severity, format!(
            "the button is at seat {} but the designated player is seat {}; settlement order is taken from the designated player",
            facts.button, facts.dp), Some(facts.dp), None));
    }
    let previous = match table.previous_designated {
        Some(p) => p,
        None => return,
    };
    let declined = |seat: i64| table.offers.iter().any(|&(s, accepted)| s == seat && !accepted);
    let mut eligible: Vec<i64> = facts.stacks.keys().collect();
    eligible.sort_unstable();
    let ring = eligible.iter().filter(|&&s| s > previous).chain(eligible.iter().filter(|&&s| s <= previous));
    for &seat in ring {
        if seat == facts.dp {
            break;
        }
        if seat != previous && !declined(seat) {
            let moved = if previous == facts.dp {
                format!("stayed at seat {}", facts.dp)
            } else {
                format!("moved from seat {} to seat {}", previous, facts.dp)
            };
            found.push(finding("DP_ROTATION_SKIP", "HCF-2", rules.p.dp_rotation_skip_severity, format!(
                "the designated player {}, passing seat {} without a recorded decline", moved, seat),
                Some(seat), None));
        }
    }
}
