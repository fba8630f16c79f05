//! Each participant's hand as the events tell it (CP-1, CP-2, CP-7, CP-8, CP-12), the port
//! of `services/games/chinese/reading.py`: dealt cards, the setting and declarations that
//! count, and the verdict per seat (set with its segment ranks, automatic winner, foul or
//! dead), which is all the scoring sees.

use std::collections::BTreeMap;

use super::evaluation::{self as ev, AUTO_WINS};
use super::Stop;
use crate::json::Value;
use crate::rules::profile::ChineseProfile;
use crate::rules::{self as r, chips, finding, int, opt_int, str_list, Chips, OrdMap, RFinding};
use crate::short_eq::same_str;
use crate::table::DecodedEvent;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Set,
    Auto,
    Foul,
    Dead,
}

/// `SeatHand`: the verdict on one participant's hand.
#[derive(Debug, Clone)]
pub struct SeatHand {
    pub seat: i64,
    pub status: Status,
    /// front, middle, back rank codes of a correctly set hand
    pub ranks: Option<[i64; 3]>,
    /// index in `AUTO_WINS` when `status == Auto`
    pub auto_win: Option<u8>,
}

/// `Setting`: a hand as set (sizes as recorded, maybe wrong).
#[derive(Debug, Clone)]
pub struct Setting<'a> {
    pub segments: [Vec<&'a str>; 3],
    pub seq: i64,
}

impl<'a> Setting<'a> {
    pub fn cards(&self) -> Vec<&'a str> {
        self.segments.iter().flatten().copied().collect()
    }
}

pub const SEGMENTS: [&str; 3] = ["front", "middle", "back"];
const SEGMENT_SIZES: [usize; 3] = [3, 5, 5];

/// `HandReading`.
#[derive(Debug)]
pub struct HandReading<'a> {
    pub started: &'a DecodedEvent,
    pub button: i64,
    /// sorted
    pub participants: Vec<i64>,
    pub stacks: BTreeMap<i64, Chips>,
    pub dealt: OrdMap<i64, Vec<Option<&'a str>>>,
    pub opened_seq: Option<i64>,
    pub opener: Option<i64>,
    pub settings: BTreeMap<i64, Setting<'a>>,
    pub first_setting_seq: BTreeMap<i64, i64>,
    pub declarations: BTreeMap<i64, Vec<(u8, i64)>>,
    pub hands: BTreeMap<i64, SeatHand>,
    pub findings: Vec<RFinding>,
}

impl HandReading<'_> {
    pub fn is_participant(&self, seat: i64) -> bool {
        self.participants.binary_search(&seat).is_ok()
    }

    fn before_opening(&self, seq: i64) -> bool {
        self.opened_seq.map_or(true, |opened| seq < opened)
    }
}

fn joined(items: &[i64]) -> String {
    items.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

fn rejected(rule: &'static str, message: String) -> Stop {
    Stop::Rejected((rule, message))
}

/// `read_hand`: dealt cards, settings and declarations (`judge_hands` judges them).
pub fn read_hand<'a>(events: &'a [DecodedEvent], cp: &ChineseProfile) -> Result<HandReading<'a>, Stop> {
    let starts: Vec<&DecodedEvent> = events.iter().filter(|e| e.type_index == r::HAND_STARTED).collect();
    let started = match starts.as_slice() {
        [] => return Err(rejected("CP-1", "the hand has no hand_started event: no seats, no button".to_string())),
        [one] => *one,
        many => {
            let seqs: Vec<i64> = many.iter().map(|e| e.seq).collect();
            return Err(rejected("CP-1", format!(
                "the hand has {} hand_started events (seq {}): who was dealt in, with what stack, is contradictory",
                many.len(), joined(&seqs))));
        }
    };
    let mut participants = Vec::new();
    let mut stacks = BTreeMap::new();
    if let Some(Value::Array(seats)) = started.data.get("seats") {
        for s in seats {
            participants.push(int(s, "seat"));
            stacks.insert(int(s, "seat"), chips(s, "stack"));
        }
    }
    participants.sort_unstable();
    let button = int(&started.data, "button");
    check_seating(&participants, button, cp)?;
    let opening = events.iter().find(|e| e.type_index == r::SHOWDOWN);
    let mut reading = HandReading {
        started,
        button,
        participants,
        stacks,
        dealt: dealt_cards(events),
        opened_seq: opening.map(|e| e.seq),
        opener: opening.and_then(|e| opt_int(&e.data, "seat")),
        settings: BTreeMap::new(),
        first_setting_seq: BTreeMap::new(),
        declarations: BTreeMap::new(),
        hands: BTreeMap::new(),
        findings: Vec::new(),
    };
    collect_settings(events, &mut reading, cp);
    collect_declarations(events, &mut reading, cp);
    Ok(reading)
}

/// `_check_seating` (CP-1): seats 1..`table_seats`, none twice, the button among them.
fn check_seating(participants: &[i64], button: i64, cp: &ChineseProfile) -> Result<(), Stop> {
    let seats = 1..=cp.table_seats;
    let mut twice: Vec<i64> = participants.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0]).collect();
    twice.dedup();
    if !twice.is_empty() {
        return Err(rejected("CP-1", format!(
            "hand_started lists seat {} more than once: its starting stack is contradictory", joined(&twice))));
    }
    let outside: Vec<i64> = participants.iter().copied().filter(|s| !seats.contains(s)).collect();
    if !outside.is_empty() {
        return Err(rejected("CP-1", format!(
            "hand_started deals in seat {}, not one of the table's {} seats", joined(&outside), cp.table_seats)));
    }
    if !seats.contains(&button) {
        return Err(rejected("CP-1", format!(
            "the button is on seat {}, not one of the table's {} seats", button, cp.table_seats)));
    }
    Ok(())
}

fn dealt_cards(events: &[DecodedEvent]) -> OrdMap<i64, Vec<Option<&str>>> {
    let mut dealt: OrdMap<i64, Vec<Option<&str>>> = OrdMap::default();
    for e in events {
        if e.type_index == r::CARD_DEALT && r::text(&e.data, "to") == "seat" {
            if let Some(seat) = opt_int(&e.data, "seat") {
                dealt.slot(seat, Vec::new).push(r::opt_text(&e.data, "card"));
            }
        }
    }
    dealt
}

/// `_collect_settings` (CP-12): the last setting before the opening counts; a first setting
/// after it still counts, a change after it does not.
fn collect_settings<'a>(events: &'a [DecodedEvent], reading: &mut HandReading<'a>, cp: &ChineseProfile) {
    for e in events.iter().filter(|e| e.type_index == r::HAND_SET) {
        let d = &e.data;
        let seat = int(d, "seat");
        let segment = |name| str_list(d, name).unwrap_or_default();
        let setting = Setting { segments: [segment("front"), segment("middle"), segment("back")], seq: e.seq };
        if !reading.is_participant(seat) {
            reading.findings.push(finding("DEAD_SEAT_PLAYED", "CP-1", cp.severity.dead_seat_played, format!(
                "seat {} is not dealt in, yet a hand was set for it (seq {}); a dead hand takes no part in scoring",
                seat, e.seq), Some(seat), None));
            continue;
        }
        if reading.settings.contains_key(&seat) && !reading.before_opening(e.seq) {
            reading.findings.push(finding("HAND_CHANGED_AFTER_OPENING", "CP-12", cp.severity.hand_changed_after_opening,
                format!("seat {} re-set its hand at seq {}, after the hands were opened (seq {}); the earlier setting counts",
                        seat, e.seq, opened_words(reading.opened_seq)), Some(seat), None));
            continue;
        }
        reading.settings.insert(seat, setting);
        reading.first_setting_seq.entry(seat).or_insert(e.seq);
    }
}

/// Python's words for an optional seq (`None` when absent).
fn opened_words(seq: Option<i64>) -> String {
    seq.map_or_else(|| "None".to_string(), |s| s.to_string())
}

fn auto_win_index(kind: &str) -> Option<u8> {
    AUTO_WINS.iter().position(|k| *k == kind).map(|i| i as u8)
}

/// `_collect_declarations` (CP-7): a declaration counts only before the hands are opened.
fn collect_declarations(events: &[DecodedEvent], reading: &mut HandReading<'_>, cp: &ChineseProfile) {
    for e in events.iter().filter(|e| e.type_index == r::AUTO_WIN_DECLARED) {
        let d = &e.data;
        let seat = int(d, "seat");
        let kind = r::text(d, "kind");
        if !reading.is_participant(seat) {
            reading.findings.push(finding("DEAD_SEAT_PLAYED", "CP-1", cp.severity.dead_seat_played, format!(
                "seat {} is not dealt in, yet declared {} (seq {}); a dead hand takes no part in scoring",
                seat, kind, e.seq), Some(seat), None));
            continue;
        }
        if !reading.before_opening(e.seq) {
            reading.findings.push(finding("LATE_AUTO_WIN_DECLARATION", "CP-7", cp.severity.late_auto_win, format!(
                "seat {} declared {} at seq {}, after the hands were opened (seq {}); the hand plays as set",
                seat, kind, e.seq, opened_words(reading.opened_seq)), Some(seat), None));
            continue;
        }
        if let Some(index) = auto_win_index(kind) {
            reading.declarations.entry(seat).or_default().push((index, e.seq));
        }
    }
}

/// `judge_hands`: every participant's verdict; returns the findings the judging made.
pub fn judge_hands<'a>(events: &'a [DecodedEvent], reading: &mut HandReading<'a>, cp: &ChineseProfile)
                   -> Result<Vec<RFinding>, Stop> {
    let start = reading.findings.len();
    for i in 0..reading.participants.len() {
        let seat = reading.participants[i];
        let verdict = judge_seat(seat, events, reading, cp)?;
        reading.hands.insert(seat, verdict);
    }
    Ok(reading.findings[start..].to_vec())
}

/// `thirteen_cards`: as dealt when the shoe read them all, else as set, else as shown.
fn thirteen_cards<'a>(seat: i64, events: &'a [DecodedEvent], reading: &HandReading<'a>, cp: &ChineseProfile)
                      -> Option<Vec<&'a str>> {
    let per_hand = cp.cards_per_hand;
    let dealt = reading.dealt.get(seat).map(Vec::as_slice).unwrap_or(&[]);
    let known: Vec<&str> = dealt.iter().flatten().copied().collect();
    if known.len() as i64 == per_hand && dealt.len() as i64 == per_hand {
        return Some(known);
    }
    if let Some(setting) = reading.settings.get(&seat) {
        let cards = setting.cards();
        if cards.len() as i64 == per_hand {
            return Some(cards);
        }
    }
    for e in events.iter().filter(|e| e.type_index == r::SHOWDOWN) {
        if opt_int(&e.data, "seat") != Some(seat) {
            continue;
        }
        if let Some(cards) = str_list(&e.data, "cards") {
            if !cards.is_empty() && cards.len() as i64 == per_hand {
                return Some(cards);
            }
        }
    }
    None
}

fn judge_seat<'a>(seat: i64, events: &'a [DecodedEvent], reading: &mut HandReading<'a>, cp: &ChineseProfile)
              -> Result<SeatHand, Stop> {
    let switched = reading.settings.get(&seat).and_then(|setting| check_set_cards(seat, setting, reading, cp));
    if let Some(f) = switched {
        reading.findings.push(f);
    }
    if let Some(declared) = reading.declarations.get(&seat).cloned() {
        if !declared.is_empty() {
            return judge_declaration(seat, &declared, events, reading, cp);
        }
    }
    match reading.settings.get(&seat).cloned() {
        None => Ok(unset(seat, reading, cp)),
        Some(setting) => judge_setting(seat, &setting, events, reading, cp),
    }
}

/// `Counter(a) - Counter(b)`, its elements sorted (Python's string order: bytes).
fn minus<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<&'a str> {
    let mut rest: Vec<&str> = b.to_vec();
    let mut out = Vec::new();
    for card in a {
        match rest.iter().position(|c| same_str(c, card)) {
            Some(at) => {
                rest.swap_remove(at);
            }
            None => out.push(*card),
        }
    }
    out.sort_unstable();
    out
}

/// `_check_set_cards` (GEN-1): the cards set are the cards dealt (when the shoe read them).
fn check_set_cards(seat: i64, setting: &Setting<'_>, reading: &HandReading<'_>, cp: &ChineseProfile) -> Option<RFinding> {
    let dealt = reading.dealt.get(seat)?;
    if dealt.is_empty() || dealt.iter().any(Option::is_none) {
        return None;
    }
    let dealt: Vec<&str> = dealt.iter().flatten().copied().collect();
    let set = setting.cards();
    // The usual hand: the same distinct cards both ways, nothing missing or extra.
    if dealt.len() == set.len() {
        if let (Some(a), Some(b)) = (ev::distinct_mask(dealt.iter().copied()), ev::distinct_mask(set.iter().copied())) {
            if a == b {
                return None;
            }
        }
    }
    let missing = minus(&dealt, &set);
    let extra = minus(&set, &dealt);
    if missing.is_empty() && extra.is_empty() {
        return None;
    }
    let words = |cards: &[&str]| if cards.is_empty() { "-".to_string() } else { cards.join(" ") };
    Some(finding("SET_CARDS_NOT_DEALT", "GEN-1", cp.severity.set_cards_not_dealt, format!(
        "seat {} set other cards than it was dealt (set more often than dealt: {}; dealt but not set: {}): a card was switched or set twice",
        seat, words(&extra), words(&missing)), Some(seat), None))
}

/// `_auto_wins_made`: the wins the 13 cards make (a bit per `AUTO_WINS` entry).
fn auto_wins_made(cards: &[&str]) -> Result<u8, Stop> {
    let distinct = ev::distinct_mask(cards.iter().copied()).is_some()
        || cards.iter().enumerate().all(|(i, c)| !cards[..i].iter().any(|d| same_str(c, d)));
    if !distinct || !ev::may_hold_auto_win(cards)? {
        return Ok(0);
    }
    Ok(ev::auto_wins(cards)?)
}

/// `_judge_declaration` (CP-7, CP-8): the best declared win the cards make counts; a
/// declaration they do not make is a foul unless another of the seat's holds.
fn judge_declaration<'a>(seat: i64, declared: &[(u8, i64)], events: &'a [DecodedEvent], reading: &mut HandReading<'a>,
                     cp: &ChineseProfile) -> Result<SeatHand, Stop> {
    let cards = thirteen_cards(seat, events, reading, cp).ok_or_else(|| rejected("CP-7", format!(
        "seat {} declared an automatic win but no event records its 13 cards, so the declaration cannot be checked",
        seat)))?;
    let made = auto_wins_made(&cards)?;
    let holds = |kind: u8| made >> kind & 1 == 1;
    let valid: Vec<u8> = declared.iter().map(|&(k, _)| k).filter(|&k| holds(k)).collect();
    for &(kind, _) in declared.iter().filter(|&&(k, _)| !holds(k)) {
        reading.findings.push(finding("FALSE_AUTO_WIN_DECLARATION", "CP-8", cp.severity.false_auto_win, format!(
            "seat {} declared {} but its cards ({}) do not make it{}", seat, AUTO_WINS[kind as usize], cards.join(" "),
            if valid.is_empty() { "; the hand is fouled" } else { "" }), Some(seat), None));
    }
    // `max(valid, key=points)`: the first of the highest.
    let mut best: Option<u8> = None;
    for &kind in &valid {
        if best.map_or(true, |b| cp.auto_win_points[kind as usize] > cp.auto_win_points[b as usize]) {
            best = Some(kind);
        }
    }
    Ok(match best {
        Some(kind) => SeatHand { seat, status: Status::Auto, ranks: None, auto_win: Some(kind) },
        None => SeatHand { seat, status: Status::Foul, ranks: None, auto_win: None },
    })
}

/// `_unset` (CP-8 reading `fouls.unset_hand_is_foul`): fouled, or else dead.
fn unset(seat: i64, reading: &mut HandReading<'_>, cp: &ChineseProfile) -> SeatHand {
    if cp.unset_hand_is_foul {
        foul(seat, "hand never set (nor an automatic win validly declared)", reading, cp);
        return SeatHand { seat, status: Status::Foul, ranks: None, auto_win: None };
    }
    SeatHand { seat, status: Status::Dead, ranks: None, auto_win: None }
}

/// `_judge_setting` (CP-2, CP-8): wrong segment sizes or a weaker segment behind a
/// stronger one foul.
fn judge_setting<'a>(seat: i64, setting: &Setting<'a>, events: &'a [DecodedEvent], reading: &mut HandReading<'a>,
                 cp: &ChineseProfile) -> Result<SeatHand, Stop> {
    let fouled = SeatHand { seat, status: Status::Foul, ranks: None, auto_win: None };
    let mut wrong: Vec<String> = Vec::new();
    for ((name, size), cards) in SEGMENTS.iter().zip(SEGMENT_SIZES).zip(&setting.segments) {
        if cards.len() != size {
            wrong.push(format!("{} has {} cards (needs {})", name, cards.len(), size));
        }
    }
    let all = setting.cards();
    if ev::distinct_mask(all.iter().copied()).is_none()
        && all.iter().enumerate().any(|(i, c)| all[..i].iter().any(|d| same_str(c, d))) {
        wrong.push("a card is set twice".to_string());
    }
    if !wrong.is_empty() {
        foul(seat, &wrong.join("; "), reading, cp);
        return Ok(fouled);
    }
    let mut ranks = [0i64; 3];
    for (slot, cards) in ranks.iter_mut().zip(&setting.segments) {
        *slot = ev::segment_rank(cards)?;
    }
    let [front, middle, back] = ranks;
    if middle > back || front > middle {
        let shown: Vec<String> = SEGMENTS.iter().zip(&setting.segments).zip(ranks)
            .map(|((name, cards), rank)| format!("{} {} ({})", name, cards.join(" "), ev::describe(rank)))
            .collect();
        let order = if middle > back { "middle beats back" } else { "front beats middle" };
        foul(seat, &format!("segments in the wrong order: {} ({})", order, shown.join(", ")), reading, cp);
        return Ok(fouled);
    }
    // The reference checks (for its decision path) whether the cards held an automatic
    // win nobody declared: the check can raise, so it runs here too.
    if let Some(cards) = thirteen_cards(seat, events, reading, cp) {
        auto_wins_made(&cards)?;
    }
    Ok(SeatHand { seat, status: Status::Set, ranks: Some(ranks), auto_win: None })
}

/// `_trace_foul`'s finding.
fn foul(seat: i64, reason: &str, reading: &mut HandReading<'_>, cp: &ChineseProfile) {
    reading.findings.push(finding("FOULED_HAND", "CP-8", cp.severity.foul,
                                  format!("seat {} fouled: {}", seat, reason), Some(seat), None));
}
