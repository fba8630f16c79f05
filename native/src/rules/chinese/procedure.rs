//! Procedure around the scoring, the port of `services/games/chinese/procedure.py`:
//! misdeals (CP-11, GEN-6), conduct (CP-12), buy-ins (CP-9) and who paid whom (CP-10).

use std::collections::{BTreeMap, BTreeSet};

use super::reading::HandReading;
use super::settlement::Transfer;
use crate::rules::profile::ChineseProfile;
use crate::rules::{self as r, chips, finding, int, mul, opt_int, text, Chips, Defer, OrdMap, RFinding};
use crate::table::{Context, DecodedEvent};

/// `DeadVerdict`: why the whole hand is void.
pub struct DeadVerdict {
    pub rule: &'static str,
}

/// `misdeal_causes` (CP-11): five or more cards of one hand exposed by the dealer; a hand
/// dealt the wrong number of cards (when the deal was recorded).
fn misdeal_causes<'a>(events: &'a [DecodedEvent], reading: &HandReading<'_>, cp: &ChineseProfile) -> Vec<String> {
    let mut causes = Vec::new();
    let mut exposed: OrdMap<i64, Vec<&'a str>> = OrdMap::default();
    let mut expose = |seat: i64, card: &'a str| {
        let cards = exposed.slot(seat, Vec::new);
        if !cards.contains(&card) {
            cards.push(card);
        }
    };
    for e in events {
        let d = &e.data;
        if e.type_index == r::CARD_EXPOSED && text(d, "cause") == "dealer_error" {
            if let Some(seat) = opt_int(d, "seat") {
                expose(seat, text(d, "card"));
            }
        }
        if e.type_index == r::CARD_DEALT && text(d, "to") == "seat" && d.get("face_up") == Some(&crate::json::Value::Bool(true)) {
            if let (Some(seat), Some(card)) = (opt_int(d, "seat"), r::opt_text(d, "card")) {
                expose(seat, card);
            }
        }
    }
    for &seat in &reading.participants {
        let count = exposed.get(seat).map_or(0, Vec::len);
        if count as i64 >= cp.misdeal_exposed_cards {
            causes.push(format!("the dealer exposed {} cards of seat {}'s hand", count, seat));
        }
    }
    if !reading.dealt.items.is_empty() {
        let seats: BTreeSet<i64> = reading.participants.iter().copied().chain(reading.dealt.keys()).collect();
        for seat in seats {
            let count = reading.dealt.get(seat).map_or(0, Vec::len);
            if count as i64 != cp.cards_per_hand {
                causes.push(format!("seat {}'s hand received {} cards, not {}", seat, count, cp.cards_per_hand));
            }
        }
    }
    causes
}

/// `dead_verdict` (GEN-6, CP-11): a recorded misdeal or dead hand voids the hand; so does
/// a misdeal the cards show but nobody called (reading `misdeal.uncalled_misdeal_voids_hand`).
pub fn dead_verdict(events: &[DecodedEvent], reading: &HandReading<'_>, cp: &ChineseProfile,
                    findings: &mut Vec<RFinding>) -> Option<DeadVerdict> {
    let dead = events.iter().any(|e| e.type_index == r::HAND_DEAD);
    let misdeal = events.iter().find(|e| e.type_index == r::MISDEAL);
    let causes = misdeal_causes(events, reading, cp);
    if let Some(misdeal) = misdeal {
        if causes.is_empty() {
            // The third cause (hands to the wrong players) only holds while nobody has set.
            let set_before = events.iter().find(|e| e.type_index == r::HAND_SET && e.seq < misdeal.seq);
            if let Some(set) = set_before {
                findings.push(finding("MISDEAL_WITHOUT_CAUSE", "CP-11", cp.severity.misdeal_without_cause, format!(
                    "misdeal called at seq {} ({}) after seat {} had set its hand, with no exposed or miscounted hand: no CP-11 cause applies",
                    misdeal.seq, text(&misdeal.data, "reason"), int(&set.data, "seat")), None, None));
            }
        }
        return Some(DeadVerdict { rule: "CP-11" });
    }
    if dead {
        return Some(DeadVerdict { rule: "GEN-6" });
    }
    if !causes.is_empty() {
        findings.push(finding("MISDEAL_NOT_CALLED", "CP-11", cp.severity.misdeal_not_called, format!(
            "the hand was played on although it is a misdeal: {}", causes.join("; ")), None, None));
        if cp.uncalled_misdeal_voids_hand {
            return Some(DeadVerdict { rule: "CP-11" });
        }
    }
    None
}

/// `conduct_findings` (CP-12).
pub fn conduct_findings(events: &[DecodedEvent], reading: &HandReading<'_>, table: &Context,
                        cp: &ChineseProfile) -> Vec<RFinding> {
    let mut out = opened_early(reading, cp);
    out.extend(shown_early(events, reading, cp));
    out.extend(new_player_position(reading, table, cp));
    out
}

/// `_ready_seq`: the seat's first setting or its first counted declaration.
fn ready_seq(reading: &HandReading<'_>, seat: i64) -> Option<i64> {
    let declared = reading.declarations.get(&seat).into_iter().flatten().map(|&(_, s)| s);
    declared.chain(reading.first_setting_seq.get(&seat).copied()).min()
}

/// `_opened_early`: nobody opens a hand before every player has set.
fn opened_early(reading: &HandReading<'_>, cp: &ChineseProfile) -> Vec<RFinding> {
    let opened = match reading.opened_seq {
        Some(s) => s,
        None => return Vec::new(),
    };
    let late: Vec<String> = reading.participants.iter()
        .filter(|&&seat| ready_seq(reading, seat).map_or(true, |ready| ready > opened))
        .map(i64::to_string).collect();
    if late.is_empty() {
        return Vec::new();
    }
    let who = match reading.opener {
        Some(s) => format!("seat {}", s),
        None => "a hand".to_string(),
    };
    vec![finding("HAND_OPENED_EARLY", "CP-12", cp.severity.hand_opened_early, format!(
        "{} was opened at seq {} before seat(s) {} had set their hands", who, opened, late.join(", ")),
        reading.opener, None)]
}

/// `_shown_early`: players do not show their hands while the cards are out.
fn shown_early(events: &[DecodedEvent], reading: &HandReading<'_>, cp: &ChineseProfile) -> Vec<RFinding> {
    let mut out = Vec::new();
    for e in events.iter().filter(|e| e.type_index == r::CARD_EXPOSED) {
        if text(&e.data, "cause") != "player" || reading.opened_seq.map_or(false, |o| e.seq > o) {
            continue;
        }
        let seat = opt_int(&e.data, "seat");
        let who = seat.map_or_else(|| "None".to_string(), |s| s.to_string());
        out.push(finding("HAND_SHOWN_EARLY", "CP-12", cp.severity.hand_shown_early, format!(
            "seat {} showed {} at seq {} while the cards were out", who, text(&e.data, "card"), e.seq), seat, None));
    }
    out
}

/// `_new_player_position`: a new player gets neither the first hand nor the button (the
/// table's first hand is exempt, and so is a hand whose every player is new).
fn new_player_position(reading: &HandReading<'_>, table: &Context, cp: &ChineseProfile) -> Vec<RFinding> {
    let everybody_new = reading.participants.iter().all(|s| table.new_seats.contains(s));
    if table.hands_played == 0 || everybody_new || cp.table_seats <= 0 {
        return Vec::new();
    }
    let button = reading.button;
    let first = button.rem_euclid(cp.table_seats) + 1;
    let mut out = Vec::new();
    if table.new_seats.contains(&button) {
        out.push(finding("NEW_PLAYER_ON_BUTTON", "CP-12", cp.severity.new_player_button, format!(
            "seat {} sat down since the previous hand and was given the button", button), Some(button), None));
    }
    if table.new_seats.contains(&first) && reading.is_participant(first) {
        out.push(finding("NEW_PLAYER_FIRST_HAND", "CP-12", cp.severity.new_player_first_hand, format!(
            "seat {} sat down since the previous hand and was dealt the first hand (left of the button, seat {})",
            first, button), Some(first), None));
    }
    out
}

/// One buy (`BuyRecord`): seat, kind, amount, seq, made since the previous hand.
struct BuyItem<'a> {
    seat: i64,
    kind: &'a str,
    amount: Chips,
    seq: i64,
    since_previous_hand: bool,
}

/// `_buy_in_findings`: CP-9 over the table's buy history plus the hand's own buys; without
/// a history, a new player's first stack is its buy-in.
pub fn buy_in_findings(events: &[DecodedEvent], reading: &HandReading<'_>, table: &Context, point_value: Chips,
                       cp: &ChineseProfile) -> Result<Vec<RFinding>, Defer> {
    let mut buys: Vec<BuyItem<'_>> = table.buys.iter().map(|(b, since)| BuyItem {
        seat: b.seat, kind: b.kind.as_str(), amount: b.amount as Chips, seq: b.seq, since_previous_hand: *since,
    }).collect();
    for e in events {
        let d = &e.data;
        if e.type_index == r::PLAYER_SEATED {
            buys.push(BuyItem { seat: int(d, "seat"), kind: "seated", amount: chips(d, "stack"), seq: e.seq,
                                since_previous_hand: true });
        } else if e.type_index == r::CHIPS_CHANGED && matches!(text(d, "kind"), "buy_in" | "short_buy") {
            buys.push(BuyItem { seat: int(d, "seat"), kind: text(d, "kind"), amount: chips(d, "amount"), seq: e.seq,
                                since_previous_hand: true });
        }
    }
    let minimum = mul(cp.buy_in_min_points as Chips, point_value)?;
    let mut out = buy_findings(&buys, minimum, cp);
    let seated_known: BTreeSet<i64> = table.buys.iter().filter(|(b, _)| b.kind == "seated").map(|(b, _)| b.seat).collect();
    let new_seats: BTreeSet<i64> = table.new_seats.iter().copied().collect();
    for seat in new_seats {
        if !reading.is_participant(seat) || seated_known.contains(&seat) {
            continue;
        }
        let stack = reading.stacks.get(&seat).copied().unwrap_or(0);
        if stack < minimum {
            out.push(finding("BUY_IN_BELOW_MINIMUM", "CP-9", cp.severity.buy_in_below_minimum, format!(
                "seat {} is new and starts its first hand with {} chips; the minimum buy-in is {} ({} points)",
                seat, stack, minimum, cp.buy_in_min_points), Some(seat), Some(stack)));
        }
    }
    Ok(out)
}

/// `buy_findings` (CP-9): a buy of at least the minimum is full; a player's first buy must
/// be full; at most `short_buys_per_full_buy` short buys follow each full buy.
fn buy_findings(buys: &[BuyItem<'_>], minimum: Chips, cp: &ChineseProfile) -> Vec<RFinding> {
    let mut out = Vec::new();
    let mut short_left: BTreeMap<i64, i64> = BTreeMap::new();
    for buy in buys {
        if buy.kind == "seated" {
            short_left.insert(buy.seat, 0);
        }
        if buy.amount <= 0 {
            continue;
        }
        if buy.amount >= minimum {
            short_left.insert(buy.seat, cp.short_buys_per_full_buy);
            continue;
        }
        if buy.kind == "seated" {
            if buy.since_previous_hand {
                out.push(finding("BUY_IN_BELOW_MINIMUM", "CP-9", cp.severity.buy_in_below_minimum, format!(
                    "seat {} sat down with {} chips (seq {}); the minimum buy-in is {} ({} points)",
                    buy.seat, buy.amount, buy.seq, minimum, cp.buy_in_min_points), Some(buy.seat), Some(buy.amount)));
            }
            continue;
        }
        let left = match short_left.get_mut(&buy.seat) {
            Some(left) => left,
            None => continue, // the player's earlier buys are unknown
        };
        if *left > 0 {
            *left -= 1;
            continue;
        }
        if buy.since_previous_hand {
            out.push(finding("SHORT_BUY_NOT_ALLOWED", "CP-9", cp.severity.short_buy_not_allowed, format!(
                "seat {} bought {} chips (below the {} minimum, seq {}) without a full buy since its last short buy",
                buy.seat, buy.amount, minimum, buy.seq), Some(buy.seat), Some(buy.amount)));
        }
    }
    out
}

/// Net flow per unordered pair of seats, positive from the lower seat to the higher.
fn add_flow(flows: &mut BTreeMap<(i64, i64), Chips>, payer: i64, payee: i64, amount: Chips) {
    if payer == payee {
        return;
    }
    if payer < payee {
        *flows.entry((payer, payee)).or_insert(0) += amount;
    } else {
        *flows.entry((payee, payer)).or_insert(0) -= amount;
    }
}

fn flow_words(low: i64, high: i64, flow: Chips) -> String {
    match flow {
        0 => "nothing".to_string(),
        f if f > 0 => format!("{} from seat {} to seat {}", f, low, high),
        f => format!("{} from seat {} to seat {}", -f, high, low),
    }
}

/// `_seat_totals`: each seat's points received (negative: paid), seats at 0 left out.
fn seat_totals(flows: &BTreeMap<(i64, i64), Chips>) -> BTreeMap<i64, Chips> {
    let mut totals: BTreeMap<i64, Chips> = BTreeMap::new();
    for (&(low, high), &flow) in flows {
        *totals.entry(low).or_insert(0) -= flow;
        *totals.entry(high).or_insert(0) += flow;
    }
    totals.retain(|_, total| *total != 0);
    totals
}

/// `routing_findings` (CP-10): only while every seat's points total is right; per pair of seats, the points the table moved between them
/// versus what the settlement moves.
pub fn routing_findings(events: &[DecodedEvent], transfers: &[Transfer], cp: &ChineseProfile) -> Vec<RFinding> {
    let mut recorded = BTreeMap::new();
    for e in events.iter().filter(|e| e.type_index == r::COLLECTION) {
        let d = &e.data;
        if text(d, "kind") != "points" {
            continue;
        }
        if let Some(to) = text(d, "to").strip_prefix("seat:").and_then(|n| n.parse::<i64>().ok()) {
            add_flow(&mut recorded, int(d, "seat"), to, chips(d, "amount"));
        }
    }
    let mut expected = BTreeMap::new();
    for t in transfers.iter().filter(|t| t.amount != 0) {
        add_flow(&mut expected, t.payer, t.payee, t.amount);
    }
    if seat_totals(&recorded) != seat_totals(&expected) {
        return Vec::new();  // the seats' MISPAYs claim the chips; a route finding would again
    }
    let keys: BTreeSet<(i64, i64)> = recorded.keys().chain(expected.keys()).copied().collect();
    let mut out = Vec::new();
    for (low, high) in keys {
        let got = recorded.get(&(low, high)).copied().unwrap_or(0);
        let due = expected.get(&(low, high)).copied().unwrap_or(0);
        if got != due {
            out.push(finding("PAYMENT_ROUTING", "CP-10", cp.severity.payment_routing, format!(
                "between seats {} and {} the table moved {}; the settlement moves {}",
                low, high, flow_words(low, high, got), flow_words(low, high, due)), Some(low), Some(got - due)));
        }
    }
    out
}
