//! The showdown (`services/games/holdem/showdown.py`): each contender's hand (TH-2), playing
//! the board (TH-8), the order of showing (TH-9). Cards speak: the cards read at the deal
//! are the hand; the cards shown only when the deal was not read.

use super::profile::HoldemProfile;
use crate::rules::betting::engine::BettingHand;
use crate::rules::betting::pot_hand::Notes;
use crate::rules::hcf::procedure::Stop;
use crate::rules::ranking::CardRanking;
use crate::rules::{Chips, Defer};

/// A `showdown` record: the cards shown, or mucked.
#[derive(Debug, Clone)]
pub struct Shown<'e> {
    pub seat: i64,
    pub cards: Option<Vec<&'e str>>,
    pub mucked: bool,
    pub seq: i64,
}

/// `ShowdownInput`: what the walk gathered for the showdown.
pub struct ShowdownInput<'a, 'e> {
    pub contenders: &'a [i64],
    pub hole: &'a [(i64, Vec<Option<&'e str>>)],
    pub board: &'a [Option<&'e str>],
    pub shown: &'a [Shown<'e>],
    /// seat -> seq of its declare_board action
    pub declared_board: &'a [(i64, i64)],
    pub seat_rules: Vec<(i64, &'static str)>,
    /// contenders whose cards nobody knows
    pub unknown: Vec<i64>,
}

/// The card index of the ranking tables (`keys.card_index`: 4 * (rank - 2) + suit, c d h s).
fn card_index(card: &str) -> Result<u8, Defer> {
    let b = card.as_bytes();
    let rank = (b.len() == 2).then(|| crate::rules::evaluation::rank_value(b[0])).flatten();
    let suit = b.get(1).and_then(|s| b"cdhs".iter().position(|x| x == s));
    match (rank, suit) {
        (Some(rank), Some(suit)) => Ok((4 * (rank - 2) + suit as i64) as u8),
        _ => Err(Defer("a card the ranking does not know")),
    }
}

fn rank(ranking: &CardRanking, cards: &[&str]) -> Result<i64, Defer> {
    let indices = cards.iter().map(|c| card_index(c)).collect::<Result<Vec<u8>, Defer>>()?;
    ranking.rank(&indices).map(i64::from).map_err(|_| Defer("cards the ranking refuses"))
}

/// `_best`: the best five of the distinct cards (a card read twice counts once).
fn best(ranking: &CardRanking, hole: &[&str], board: &[&str]) -> Result<i64, Defer> {
    let mut cards: Vec<&str> = Vec::with_capacity(hole.len() + board.len());
    for &c in hole.iter().chain(board) {
        if !cards.contains(&c) {
            cards.push(c);
        }
    }
    if cards.len() <= 7 {
        return rank(ranking, &cards);
    }
    // More than seven distinct cards: the best of every five (`combinations`).
    let n = cards.len();
    let mut top: Option<i64> = None;
    let mut idx = [0usize, 1, 2, 3, 4];
    loop {
        let five: Vec<&str> = idx.iter().map(|&i| cards[i]).collect();
        let code = rank(ranking, &five)?;
        top = Some(top.map_or(code, |t| t.max(code)));
        let mut i = 5;
        loop {
            if i == 0 {
                return top.ok_or(Defer("no five cards"));
            }
            i -= 1;
            if idx[i] != i + n - 5 {
                break;
            }
        }
        idx[i] += 1;
        for j in i + 1..5 {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// `strengths`: the rank code of each contender's hand; None when it cannot win the pot, or
/// when its cards are unknown (listed in `unknown`: then nobody can say who won).
pub fn strengths(data: &mut ShowdownInput<'_, '_>, prof: &HoldemProfile, notes: &mut Notes, ranking: &CardRanking)
                 -> Result<Vec<(i64, Option<i64>)>, Stop> {
    let mut board: Vec<&str> = Vec::new();
    for c in data.board.iter().flatten() {
        if !board.contains(c) {
            board.push(c);
        }
    }
    if board.len() as i64 != prof.board_cards {
        return unfinished(data, &board, prof, notes);
    }
    if board.len() != 5 {
        return Err(Stop::Defer(Defer("a board of other than five cards")));
    }
    let mut out = Vec::with_capacity(data.contenders.len());
    for &seat in data.contenders {
        let code = strength(seat, data, &board, prof, notes, ranking)?;
        out.push((seat, code));
    }
    Ok(out)
}

/// `_unfinished`: several players still in, but no complete board: no hand can be ranked.
fn unfinished(data: &ShowdownInput<'_, '_>, board: &[&str], prof: &HoldemProfile, notes: &mut Notes)
              -> Result<Vec<(i64, Option<i64>)>, Stop> {
    let seats: Vec<String> = data.contenders.iter().map(|s| s.to_string()).collect();
    let shown = if board.is_empty() { "none".to_string() } else { board.join(" ") };
    let message = format!(
        "the hand ended with seats {} still in and {} known board card(s) ({}); TH-1 deals {} and ends in a showdown, so no winner can be determined",
        seats.join(" "), board.len(), shown, prof.board_cards);
    if prof.unfinished_board_reject {
        return Err(Stop::Rejected(("TH-1", message)));
    }
    notes.add("BOARD_CARD_COUNT", "TH-1", prof.severity.board_card_count,
              format!("{}: the pot is shown split among them", message), None, Some(board.len() as Chips));
    Ok(data.contenders.iter().map(|&s| (s, None)).collect())
}

fn strength(seat: i64, data: &mut ShowdownInput<'_, '_>, board: &[&str], prof: &HoldemProfile, notes: &mut Notes,
            ranking: &CardRanking) -> Result<Option<i64>, Defer> {
    let first = data.shown.iter().find(|s| s.seat == seat);
    if let Some(first) = first {
        if first.mucked {
            // TH-8: thrown away, even if the cards were read
            return mucked(seat, first.seq, data, board, prof, notes, ranking);
        }
    }
    if first.is_none() && prof.unshown_no_claim {
        return Ok(None); // TH-9: no claim to the pot
    }
    let cards = match hole_cards(seat, first, data, prof, notes) {
        Some(cards) => cards,
        None => {
            data.unknown.push(seat);
            return Ok(None);
        }
    };
    if cards.len() as i64 != prof.hole_cards && (prof.irregular_hand_dead || cards.is_empty()) {
        return Ok(None); // TH-1: a hand with the wrong number of cards
    }
    best(ranking, &cards, board).map(Some)
}

/// `_mucked` (TH-8): mucked cards keep a claim only to the board, and only if declared first.
fn mucked(seat: i64, seq: i64, data: &mut ShowdownInput<'_, '_>, board: &[&str], prof: &HoldemProfile,
          notes: &mut Notes, ranking: &CardRanking) -> Result<Option<i64>, Defer> {
    let declared = data.declared_board.iter().find(|(s, _)| *s == seat).map(|(_, q)| *q);
    data.seat_rules.push((seat, "TH-8"));
    match declared {
        Some(at) if at < seq => return rank(ranking, board).map(Some),
        Some(_) => notes.add("BOARD_DECLARED_LATE", "TH-8", prof.severity.board_declared_late, format!(
            "seat {} declared playing the board only after throwing its cards away; TH-8: the declaration comes first, so it has no claim",
            seat), Some(seat), None),
        None => {}
    }
    Ok(None)
}

/// `_hole_cards`: the cards read at the deal; the cards shown only when the deal was not
/// read (a difference between the two is a switched card). None: nobody knows them.
fn hole_cards<'e>(seat: i64, record: Option<&Shown<'e>>, data: &ShowdownInput<'_, 'e>, prof: &HoldemProfile,
                  notes: &mut Notes) -> Option<Vec<&'e str>> {
    let dealt: &[Option<&'e str>] = data.hole.iter().find(|(s, _)| *s == seat).map_or(&[], |(_, h)| h.as_slice());
    let known: Vec<&'e str> = dealt.iter().flatten().copied().collect();
    let shown = record.and_then(|r| r.cards.clone());
    if known.len() == dealt.len() && !dealt.is_empty() {
        if let Some(shown) = &shown {
            let (mut a, mut b) = (shown.clone(), known.clone());
            a.sort_unstable();
            b.sort_unstable();
            if a != b {
                notes.add("SHOWN_CARDS_MISMATCH", "TH-9", prof.severity.shown_cards_mismatch, format!(
                    "seat {} showed {} but was dealt {}; the cards dealt speak", seat, shown.join(" "), known.join(" ")),
                    Some(seat), None);
            }
        }
        return Some(known);
    }
    shown
}

/// `check_order` (TH-9 / FCD-9): the last bettor or raiser of the final round shows first,
/// else the first player left of the button; not checked when a contender is all-in.
pub fn check_order(engine: &BettingHand, shown: &[Shown<'_>], prof: &HoldemProfile, notes: &mut Notes) -> Result<(), Defer> {
    let order = engine.showdown_order()?;
    if order.len() < 2 || order.iter().any(|&s| engine.seat(s).map_or(false, |st| st.all_in())) {
        return Ok(());
    }
    let showing: Vec<i64> = shown.iter().map(|s| s.seat).filter(|s| order.contains(s)).collect();
    if let Some(&first) = showing.first() {
        if first != order[0] {
            notes.add("SHOWDOWN_ORDER", "TH-9", prof.severity.showdown_order, format!(
                "seat {} showed first; seat {} had to show first", first, order[0]), Some(first), None);
        }
    }
    Ok(())
}
