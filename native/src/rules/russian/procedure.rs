//! Procedure findings of a Russian Poker hand, how the dealer ran it (RP-1, RP-2, RP-9,
//! RP-10, GEN-8 banking): the port of `services/games/russian/procedure.py`. None of these
//! change what a box is owed by themselves.

use std::collections::{BTreeMap, BTreeSet};

use super::dealer_game::new_dealer_cards;
use super::reading::{box_cards, RussianHand, SeatBox, Served};
use crate::rules::profile::RussianProfile;
use crate::rules::{finding, mul, Chips, Defer, RFinding, Sev};

const DECISION_STEPS: [&str; 2] = ["stand", "fold"];
const DRAW_FEES: [&str; 2] = ["buy_card", "exchange"];

/// `serving_key` (RP-2): position of a box in the serving order, first box first.
fn serving_key(seat: i64, hand: &RussianHand<'_>, p: &RussianProfile) -> i64 {
    if p.serving_left_of_button {
        (seat - hand.button - 1).rem_euclid(64)
    } else {
        seat
    }
}

/// `boxes_in_play`: boxes with an Ante down, in seat order.
pub fn boxes_in_play<'h, 'a>(hand: &'h RussianHand<'a>) -> Vec<&'h SeatBox<'a>> {
    hand.sorted_seats().into_iter().map(|s| hand.get(s)).filter(|b| !b.antes.is_empty()).collect()
}

/// `procedure_findings`: every RP-1/2/9/10 finding; `antes`: each box's valid Ante.
pub fn procedure_findings(hand: &RussianHand<'_>, antes: &BTreeMap<i64, Chips>, p: &RussianProfile)
                          -> Result<Vec<RFinding>, Defer> {
    let mut out = deal_findings(hand, p);
    out.extend(decision_phase_findings(hand, p));
    out.extend(serving_order_findings(hand, p));
    out.extend(dealer_shown_findings(hand, p)?);
    out.extend(banker_findings(hand, p));
    for b in boxes_in_play(hand) {
        out.extend(draw_findings(b, p));
        out.extend(fee_findings(b, antes.get(&b.seat).copied().unwrap_or(0), p)?);
        out.extend(bonus_order_findings(b, p));
        out.extend(shown_cards_findings(b, p));
    }
    for (_, b) in &hand.boxes.items {
        if !b.draws.is_empty() && b.antes.is_empty() {
            out.push(finding("DRAW_WITHOUT_ANTE", "RP-2", p.draw_procedure_severity, format!(
                "seat {} was served cards with no Ante down", b.seat), Some(b.seat), None));
        }
    }
    Ok(out)
}

/// RP-1: one deck, boxes dealt in by `hand_started`; five cards to every box and to the
/// dealer, face down except the dealer's last.
fn deal_findings(hand: &RussianHand<'_>, p: &RussianProfile) -> Vec<RFinding> {
    let mut out = Vec::new();
    let sev = p.deal_error_severity;
    if hand.deck != p.deck_size {
        out.push(finding("WRONG_DECK", "RP-1", sev, format!(
            "the hand was dealt from a {}-card deck; Russian Poker is dealt from one {}-card deck",
            hand.deck, p.deck_size), None, None));
    }
    let dealt_in: BTreeSet<i64> = hand.seats.iter().map(|(s, _)| *s).collect();
    let in_play = boxes_in_play(hand);
    for b in &in_play {
        if !dealt_in.contains(&b.seat) {
            out.push(finding("SEAT_NOT_DEALT_IN", "RP-1", sev, format!(
                "seat {} put down an Ante but hand_started does not deal it in", b.seat), Some(b.seat), None));
        }
    }
    if hand.first_card_at.is_none() {
        return out;
    }
    for b in &in_play {
        if b.dealt.len() as i64 != p.cards_per_box {
            out.push(finding("WRONG_DEAL_COUNT", "RP-1", sev, format!(
                "seat {} was dealt {} cards, not {}", b.seat, b.dealt.len(), p.cards_per_box), Some(b.seat), None));
        }
        if b.dealt.iter().any(|(_, _, up)| *up) {
            out.push(finding("BOX_CARD_FACE_UP", "RP-1", sev, format!(
                "seat {}: a card was dealt face up; a box's cards are dealt face down", b.seat), Some(b.seat), None));
        }
    }
    let dealt = &hand.dealer_dealt;
    let n = dealt.len();
    if n as i64 != p.dealer_cards {
        out.push(finding("WRONG_DEAL_COUNT", "RP-1", sev, format!(
            "the dealer dealt himself {} cards, not {}", n, p.dealer_cards), None, None));
    } else {
        // [face_up...] == [False] * (n - 1) + [True]
        let shape_right = n >= 1 && dealt[..n - 1].iter().all(|(_, _, up)| !up) && dealt[n - 1].2;
        if !shape_right {
            let up = dealt.iter().filter(|(_, _, up)| *up).count();
            out.push(finding("DEALER_UPCARD", "RP-1", sev, format!(
                "the dealer's cards are dealt face down except the last, face up; this deal showed {} card(s) face up",
                up), None, None));
        }
    }
    out
}

/// `late_decision` (RP-2): when the box made its draw decision if after the first card
/// was served, else None.
fn late_decision(b: &SeatBox<'_>, first_draw: usize) -> Option<usize> {
    let steps = b.steps.iter().filter(|s| DECISION_STEPS.contains(&s.action)).map(|s| s.index);
    let fees: Vec<usize> = b.fees.iter().filter(|f| DRAW_FEES.contains(&f.kind)).map(|f| f.index).collect();
    if steps.chain(fees.iter().copied()).any(|m| m < first_draw) {
        return None;
    }
    let stands = b.steps.iter().filter(|s| s.action == "stand").map(|s| s.index);
    let moment = stands.chain(fees.iter().copied()).chain(b.draws.first().map(|d| d.index)).min();
    moment.filter(|&m| m > first_draw)
}

/// RP-2: every box decides before any card is sold or exchanged.
fn decision_phase_findings(hand: &RussianHand<'_>, p: &RussianProfile) -> Vec<RFinding> {
    let mut draws: Vec<(usize, i64, i64)> = hand.boxes.items.iter()
        .flat_map(|(_, b)| b.draws.iter().map(move |d| (d.index, d.seq, b.seat))).collect();
    draws.sort_unstable();
    let (first_index, first_seq, first_seat) = match draws.first() {
        Some(first) => *first,
        None => return Vec::new(),
    };
    let mut out = Vec::new();
    for b in boxes_in_play(hand) {
        if let Some(moment) = late_decision(b, first_index) {
            out.push(finding("DRAW_BEFORE_ALL_DECIDED", "RP-2", p.draw_procedure_severity, format!(
                "seat {} was served at seq {} before seat {} had decided (seq {}); every box decides before any card is sold or exchanged",
                first_seat, first_seq, b.seat, hand.seq_of(moment)), Some(b.seat), None));
        }
    }
    out
}

/// RP-2: boxes are served first to last.
fn serving_order_findings(hand: &RussianHand<'_>, p: &RussianProfile) -> Vec<RFinding> {
    let mut firsts: Vec<(usize, i64, i64)> = hand.boxes.items.iter()
        .filter_map(|(_, b)| b.draws.first().map(|d| (d.index, d.seq, b.seat))).collect();
    firsts.sort_unstable();
    let mut out = Vec::new();
    let mut latest: Option<(i64, i64)> = None;
    for (_, seq, seat) in firsts {
        let key = serving_key(seat, hand, p);
        match latest {
            Some((latest_key, latest_seat)) if key < latest_key => {
                out.push(finding("DRAW_OUT_OF_ORDER", "RP-2", p.draw_procedure_severity, format!(
                    "seat {} was served at seq {} after seat {}; boxes are served in order, first box to last",
                    seat, seq, latest_seat), Some(seat), None));
            }
            _ => latest = Some((key, seat)),
        }
    }
    out
}

/// RP-2 size and count of draws; RP-10 no card changes after the Bet.
fn draw_findings(b: &SeatBox<'_>, p: &RussianProfile) -> Vec<RFinding> {
    let mut out = Vec::new();
    let sev = p.draw_procedure_severity;
    let mut held: Vec<&str> = b.dealt_cards().into_iter().flatten().collect();
    let fold = b.first_step(&["fold"]);
    let bet = b.bets.first();
    for (number, served) in b.draws.iter().enumerate() {
        let number = number as i64 + 1;
        if number > p.draws_per_box {
            out.push(finding("SECOND_DRAW", "RP-2", sev, format!(
                "seat {}: draw number {} at seq {}; a box buys or exchanges once", b.seat, number, served.seq),
                Some(b.seat), None));
        }
        out.extend(draw_shape(b.seat, served, p));
        out.extend(discards_held(b.seat, served, &mut held, sev));
        if fold.map_or(false, |f| f.index < served.index) {
            out.push(finding("DRAW_AFTER_FOLD", "RP-2", sev, format!(
                "seat {} was served at seq {} after folding", b.seat, served.seq), Some(b.seat), None));
        }
        if let Some(bet) = bet.filter(|bet| bet.index < served.index) {
            out.push(finding("CARDS_CHANGED_AFTER_BET", "RP-10", p.cards_after_bet_severity, format!(
                "seat {} was served cards at seq {} after its Bet at seq {}", b.seat, served.seq, bet.seq),
                Some(b.seat), None));
        }
    }
    out
}

fn draw_shape(seat: i64, served: &Served<'_>, p: &RussianProfile) -> Option<RFinding> {
    let sev = p.draw_procedure_severity;
    if served.is_buy() {
        return None;
    }
    let count = served.discarded.len() as i64;
    if served.is_exchange() && count == 1 {
        return Some(finding("EXCHANGE_ONE_CARD", "RP-2", sev, format!(
            "seat {} exchanged one card at seq {}; an exchange is {} to {} cards",
            seat, served.seq, p.exchange_min_cards, p.exchange_max_cards), Some(seat), None));
    }
    if served.is_exchange() && p.exchange_min_cards <= count && count <= p.exchange_max_cards {
        return None;
    }
    Some(finding("INVALID_DRAW", "RP-2", sev, format!(
        "seat {} gave back {} and received {} cards at seq {}; a draw is one bought card or an exchange of {} to {}",
        seat, count, served.received.len(), served.seq, p.exchange_min_cards, p.exchange_max_cards), Some(seat), None))
}

/// The cards given back must be cards the box holds (else a card was switched).
fn discards_held<'a>(seat: i64, served: &Served<'a>, held: &mut Vec<&'a str>, sev: Sev) -> Vec<RFinding> {
    let mut out = Vec::new();
    for &card in &served.discarded {
        if let Some(at) = held.iter().position(|c| *c == card) {
            held.remove(at);
        } else if !held.is_empty() {
            out.push(finding("DISCARD_NOT_HELD", "RP-2", sev, format!(
                "seat {} gave back {} at seq {}, a card it did not hold", seat, card, served.seq), Some(seat), None));
        }
    }
    held.extend(served.received.iter().copied());
    out
}

/// `draw_price` (RP-2): a bought card and an exchange cost the profile's multiples of the Ante.
pub fn draw_price(served: &Served<'_>, ante: Chips, p: &RussianProfile) -> Result<Chips, Defer> {
    let antes = if served.is_buy() { p.buy_card_price_antes } else { p.exchange_price_antes };
    mul(ante, antes as Chips)
}

/// `PRICE_FINDING` (RP-2): a draw paid at another price than its own.
const PRICE_FINDING: &str = "WRONG_FEE";

/// `price_errors` (RP-2): per seat, the chips its draws were paid beyond their price
/// (`WRONG_FEE` amounts, paid - due), for `Outcome::price_errors`. A wrong price is
/// reported once, as WRONG_FEE; a MISPAY over the whole difference would claim the same
/// chips again.
pub fn price_errors(findings: &[RFinding]) -> BTreeMap<i64, Chips> {
    let mut out: BTreeMap<i64, Chips> = BTreeMap::new();
    for f in findings {
        if let (true, Some(seat), Some(amount)) = (f.code == PRICE_FINDING, f.seat, f.amount) {
            if amount != 0 {
                *out.entry(seat).or_insert(0) += amount;
            }
        }
    }
    out
}

/// RP-2: every draw served is paid for at its price, and nothing else is charged. Each
/// amount is paid - due (what the box's recorded net is lower for it): the comparison
/// leaves it out of the box's MISPAY (`price_errors`), so the wrong price is reported
/// once, here.
fn fee_findings(b: &SeatBox<'_>, ante: Chips, p: &RussianProfile) -> Result<Vec<RFinding>, Defer> {
    let fees: Vec<_> = b.fees.iter().filter(|f| DRAW_FEES.contains(&f.kind)).collect();
    let mut out = Vec::new();
    let sev = p.fee_error_severity;
    for (served, fee) in b.draws.iter().zip(fees.iter()) {
        let price = draw_price(served, ante, p)?;
        if fee.amount != price {
            out.push(finding("WRONG_FEE", "RP-2", sev, format!(
                "seat {} paid {} at seq {} for the {} at seq {}; the price is {}", b.seat, fee.amount, fee.seq,
                if served.is_buy() { "card bought" } else { "exchange" }, served.seq, price),
                Some(b.seat), Some(fee.amount - price)));
        }
    }
    for served in b.draws.iter().skip(fees.len()) {
        let price = draw_price(served, ante, p)?;
        out.push(finding("WRONG_FEE", "RP-2", sev, format!(
            "seat {} paid nothing for the draw at seq {}; the price is {}", b.seat, served.seq, price),
            Some(b.seat), Some(-price)));
    }
    for fee in fees.iter().skip(b.draws.len()) {
        out.push(finding("WRONG_FEE", "RP-2", sev, format!(
            "seat {} paid {} at seq {} for a {} it was never served", b.seat, fee.amount, fee.seq, fee.kind),
            Some(b.seat), Some(fee.amount)));
    }
    Ok(out)
}

/// RP-9: a bonus made on the first five cards is paid before a sixth card is bought.
fn bonus_order_findings(b: &SeatBox<'_>, p: &RussianProfile) -> Vec<RFinding> {
    let buy = match b.draws.iter().find(|d| d.is_buy()) {
        Some(buy) => buy,
        None => return Vec::new(),
    };
    b.bonus_payouts.iter().filter(|pay| pay.index > buy.index).map(|pay| finding(
        "BONUS_AFTER_SIXTH_CARD", "RP-9", p.bonus_order_severity, format!(
            "seat {}: bonus of {} paid at seq {}, after the sixth card was bought at seq {}; a bonus on the first five cards is paid before the sixth card",
            b.seat, pay.amount, pay.seq, buy.seq), Some(b.seat), Some(pay.amount))).collect()
}

/// GEN-8: a house-banked table moves chips only between a box and the house.
fn banker_findings(hand: &RussianHand<'_>, p: &RussianProfile) -> Vec<RFinding> {
    hand.banker_moves.iter().map(|m| finding("NOT_HOUSE_BANKED", "GEN-8", p.banker_error_severity, format!(
        "seat {}: {} at seq {}; at a house-banked table chips move only between a box and the house",
        m.seat, m.what, m.seq), Some(m.seat), Some(m.amount))).collect()
}

fn sorted<'a>(cards: &[&'a str]) -> Vec<&'a str> {
    let mut out = cards.to_vec();
    out.sort_unstable();
    out
}

/// RP-10: the cards the dealer turns are the five he was dealt (or, after his game was
/// bought, his hand after a replacement).
fn dealer_shown_findings(hand: &RussianHand<'_>, p: &RussianProfile) -> Result<Vec<RFinding>, Defer> {
    let dealt: Option<Vec<&str>> = hand.dealer_dealt.iter().map(|(_, c, _)| *c).collect();
    let dealt = match dealt {
        Some(d) if !d.is_empty() => d,
        _ => return Ok(Vec::new()),
    };
    let mut held = dealt.clone();
    let mut allowed = vec![sorted(&held)];
    for replaced in &hand.replacements {
        held = new_dealer_cards(&held, replaced)?;
        allowed.push(sorted(&held));
    }
    Ok(hand.dealer_showdowns.iter().filter(|(_, shown)| !allowed.contains(&sorted(shown))).map(|(index, shown)| finding(
        "DEALER_CARDS_SWITCHED", "RP-10", p.cards_after_bet_severity, format!(
            "the dealer turned {} at seq {} but was dealt {}; settled on the cards dealt",
            shown.join(" "), hand.seq_of(*index), dealt.join(" ")), None, None)).collect())
}

/// RP-10: the cards a box shows are the cards it was dealt and drew.
fn shown_cards_findings(b: &SeatBox<'_>, p: &RussianProfile) -> Option<RFinding> {
    let shown = b.shown.as_ref()?;
    let dealt = b.dealt_cards();
    if dealt.is_empty() || dealt.iter().any(Option::is_none) {
        return None;
    }
    let held = box_cards(b)?;
    if sorted(&held) != sorted(shown) {
        return Some(finding("CARDS_SWITCHED", "RP-10", p.cards_after_bet_severity, format!(
            "seat {} showed {} but was dealt and drew {}", b.seat, shown.join(" "), held.join(" ")),
            Some(b.seat), None));
    }
    None
}
