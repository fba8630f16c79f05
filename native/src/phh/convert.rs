//! One hand's events between `hand_started` and `hand_ended`, as
//! `services/importers/phh_hand.py`'s `convert` replays them: the posts (HOLDEM TH-1
//! blinds and antes), the deal, the actions with the chips each moved, the showdowns and
//! the recorded settlement. Where `convert` would raise `Unsupported`, this is `None`
//! (the import is then Python's). Chips are `i128`; every amount is scaled by the table's
//! chip scale first.

use super::hand::PhhHand;
use super::stream::J;
use super::toml::Num;

pub const SHOWDOWN_UNKNOWN: &str = "showdown cards unknown: who won cannot be verified";

/// What is posted before the deal, in chips of the table's unit, by position.
pub struct Posts {
    pub antes: Vec<i128>,
    pub blinds: Vec<i128>,
    pub small_blind: i128,
    pub big_blind: i128,
    pub ante_each: i128,
    pub big_blind_ante: i128,
}

pub fn chips(value: Num, scale: i128) -> Option<i128> {
    value.whole_at(scale)
}

fn all_chips(values: &[Num], scale: i128) -> Option<Vec<i128>> {
    values.iter().map(|&v| chips(v, scale)).collect()
}

/// TH-1 posts (`phh_hand.posts`): a small and a big blind, antes from everyone or from
/// the big blind; heads-up the lists run in reverse.
pub fn posts(hand: &PhhHand, scale: i128) -> Option<Posts> {
    let count = hand.players.len();
    let mut antes = all_chips(&hand.antes, scale)?;
    let mut blinds = all_chips(&hand.blinds, scale)?;
    // `_only_two_blinds`: a straddle or a new player's post is not TH-1
    for (position, blind) in hand.blinds.iter().enumerate() {
        if position >= 2 && !blind.is_zero() || blind.is_negative() {
            return None;
        }
    }
    let (small, big) = (blinds[0], blinds[1]);
    if big <= 0 || small <= 0 {
        return None;
    }
    if count == 2 {
        antes.reverse();
        blinds.reverse();
    }
    let big_position = if count == 2 { 0 } else { 1 };
    let (each, big_blind_ante) = ante_scheme(&antes, big_position)?;
    Some(Posts { antes, blinds, small_blind: small, big_blind: big, ante_each: each, big_blind_ante })
}

fn ante_scheme(antes: &[i128], big_position: usize) -> Option<(i128, i128)> {
    if antes.iter().all(|&a| a == 0) {
        return Some((0, 0));
    }
    if antes.iter().all(|&a| a == antes[0]) {
        return Some((antes[0], 0));
    }
    if antes.iter().enumerate().all(|(i, &a)| i == big_position || a == 0) {
        return Some((0, antes[big_position]));
    }
    None
}

/// The hand's events and what its record cannot tell; each player's stack after it.
pub struct Converted {
    pub events: Vec<(&'static str, J)>,
    pub limits: Vec<&'static str>,
    pub finishing: Vec<i128>,
}

struct Replay<'h> {
    hand: &'h PhhHand,
    seats: &'h [i128],
    scale: i128,
    stacks: Vec<i128>,
    street: Vec<i128>,
    total: Vec<i128>,
    events: Vec<(&'static str, J)>,
    hole: Vec<Option<Vec<Option<String>>>>,
    dealt: bool,
    betting_began: bool,
    board_cards: usize,
    folded: Vec<bool>,
    shown: Vec<Option<usize>>,
}

impl Replay<'_> {
    fn put(&mut self, position: usize, chips: i128, live: bool) {
        self.stacks[position] -= chips;
        self.total[position] += chips;
        if live {
            self.street[position] += chips;
        }
    }

    fn action(&mut self, position: usize, kind: &'static str, chips: Option<i128>) {
        if !kind.starts_with("post_") {
            self.betting_began = true;
        }
        let mut data = vec![("seat", J::Int(self.seats[position])), ("action", J::Lit(kind))];
        if let Some(chips) = chips {
            data.push(("amount", J::Int(chips)));
        }
        self.events.push(("action", J::Obj(data)));
    }
}

pub fn convert(hand: &PhhHand, seats: &[i128], scale: i128) -> Option<Converted> {
    let count = hand.players.len();
    let mut replay = Replay {
        hand, seats, scale, stacks: all_chips(&hand.starting, scale)?, street: vec![0; count],
        total: vec![0; count], events: Vec::new(), hole: vec![None; count], dealt: false,
        betting_began: false, board_cards: 0, folded: vec![false; count], shown: vec![None; count],
    };
    post(&mut replay, &posts(hand, scale)?);
    for text in &hand.actions {
        if !text.is_empty() {
            apply(&mut replay, text)?;
        }
    }
    if !replay.dealt {
        return None;
    }
    let payouts = payouts(&replay)?;
    let settlement = settlement(&replay, &payouts)?;
    replay.events.extend(settlement);
    let finishing = replay.stacks.iter().zip(&payouts).map(|(left, paid)| left + paid).collect();
    let limits = limits(&replay);
    Some(Converted { events: replay.events, limits, finishing })
}

/// Antes first (dead money), then the blinds, each capped at what the player has.
fn post(replay: &mut Replay<'_>, posted: &Posts) {
    for (position, &ante) in posted.antes.iter().enumerate() {
        if ante != 0 {
            let chips = ante.min(replay.stacks[position]);
            replay.put(position, chips, false);
            replay.action(position, "post_ante", Some(chips));
        }
    }
    let order = if replay.stacks.len() == 2 { [1, 0] } else { [0, 1] };
    for (kind, position) in ["post_small_blind", "post_big_blind"].into_iter().zip(order) {
        let chips = posted.blinds[position].min(replay.stacks[position]);
        replay.put(position, chips, true);
        replay.action(position, kind, Some(chips));
    }
}

fn apply(replay: &mut Replay<'_>, text: &str) -> Option<()> {
    let parts: Vec<&str> = text.split(' ').filter(|p| !p.is_empty()).collect();
    if parts[0] == "d" {
        return dealer(replay, &parts);
    }
    let position = position(parts[0], replay.stacks.len())?;
    match (parts.get(1).copied().unwrap_or(""), parts.len()) {
        ("f", 2) => {
            replay.folded[position] = true;
            replay.action(position, "fold", None);
        }
        ("cc", 2) => check_or_call(replay, position),
        ("cbr", 3) => {
            let to = chips(Num::parse(parts[2])?, replay.scale)?;
            bet_or_raise(replay, position, to)?;
        }
        ("sm", _) => show(replay, position, parts.get(2).copied())?,
        _ => return None,
    }
    Some(())
}

fn dealer(replay: &mut Replay<'_>, parts: &[&str]) -> Option<()> {
    match (parts.len(), parts.get(1).copied()) {
        (4, Some("dh")) => {
            if replay.board_cards > 0 || replay.betting_began {
                return None;
            }
            let position = position(parts[2], replay.stacks.len())?;
            let cards = cards(parts[3])?;
            if cards.len() != 2 {
                return None;
            }
            replay.hole[position] = Some(cards);
            if replay.hole.iter().all(Option::is_some) {
                deal_hole_cards(replay);
            }
        }
        (3, Some("db")) => {
            if !replay.dealt {
                return None;
            }
            let cards = cards(parts[2])?;
            replay.events.push(("card_dealt", J::Obj(vec![
                ("to", J::Lit("burn")), ("card", J::Null), ("face_up", J::Bool(false))])));
            replay.board_cards += cards.len();
            for card in cards {
                replay.events.push(("card_dealt", J::Obj(vec![
                    ("to", J::Lit("board")), ("card", card.map_or(J::Null, J::Str)),
                    ("face_up", J::Bool(true))])));
            }
            replay.street = vec![0; replay.street.len()];
        }
        _ => return None,
    }
    Some(())
}

/// TH-1: one card at a time, clockwise from the button's left (p1 first).
fn deal_hole_cards(replay: &mut Replay<'_>) {
    for index in 0..2 {
        for position in 0..replay.hole.len() {
            let card = replay.hole[position].as_ref().and_then(|cards| cards[index].clone());
            replay.events.push(("card_dealt", J::Obj(vec![
                ("to", J::Lit("seat")), ("seat", J::Int(replay.seats[position])),
                ("card", card.map_or(J::Null, J::Str)), ("face_up", J::Bool(false))])));
        }
    }
    replay.dealt = true;
}

fn check_or_call(replay: &mut Replay<'_>, position: usize) {
    let facing = replay.street.iter().copied().max().unwrap_or(0);
    let chips = (facing - replay.street[position]).min(replay.stacks[position]);
    if chips == 0 {
        replay.action(position, "check", None);
        return;
    }
    let kind = if chips == replay.stacks[position] { "all_in" } else { "call" };
    replay.put(position, chips, true);
    replay.action(position, kind, Some(chips));
}

fn bet_or_raise(replay: &mut Replay<'_>, position: usize, to: i128) -> Option<()> {
    let chips = to - replay.street[position];
    if chips <= 0 {
        return None;
    }
    let facing = replay.street.iter().copied().max().unwrap_or(0);
    let kind = if chips == replay.stacks[position] { "all_in" } else if facing == 0 { "bet" } else { "raise" };
    replay.put(position, chips, true);
    replay.action(position, kind, Some(chips));
    Some(())
}

/// One `showdown` per player, where it first showed; cards shown later replace a
/// card-less showing, never the other way round.
fn show(replay: &mut Replay<'_>, position: usize, cards_text: Option<&str>) -> Option<()> {
    let seat = J::Int(replay.seats[position]);
    let data = match cards_text {
        None => J::Obj(vec![("seat", seat), ("mucked", J::Bool(true))]),
        Some(text) => {
            let cards = cards(text)?;
            if cards.iter().any(Option::is_none) {
                J::Obj(vec![("seat", seat)])
            } else {
                J::Obj(vec![("seat", seat),
                            ("cards", J::Arr(cards.into_iter().flatten().map(J::Str).collect()))])
            }
        }
    };
    match replay.shown[position] {
        None => {
            replay.shown[position] = Some(replay.events.len());
            replay.events.push(("showdown", data));
        }
        Some(first) => {
            if data.get("cards").is_some() && replay.events[first].1.get("cards").is_none() {
                replay.events[first] = ("showdown", data);
            }
        }
    }
    Some(())
}

/// What each player was paid from the pot (`phh_hand._payouts`).
fn payouts(replay: &Replay<'_>) -> Option<Vec<i128>> {
    let (hand, scale) = (replay.hand, replay.scale);
    if let Some(finishing) = &hand.finishing {
        return finishing.iter().zip(&replay.stacks)
            .map(|(&f, &s)| chips(f, scale).map(|f| f - s)).collect();
    }
    let won = all_chips(hand.winnings.as_ref()?, scale)?;
    let mut refunds = uncalled(&replay.total);
    if refunds.is_some() && won.iter().sum::<i128>() == replay.total.iter().sum::<i128>() {
        refunds = None;
    }
    Some(won.iter().enumerate()
        .map(|(i, &w)| w + refunds.filter(|&(at, _)| at == i).map_or(0, |(_, r)| r)).collect())
}

/// The uncalled part of the largest contribution: (position, chips).
fn uncalled(total: &[i128]) -> Option<(usize, i128)> {
    let mut ranked: Vec<usize> = (0..total.len()).collect();
    ranked.sort_by(|&a, &b| total[b].cmp(&total[a]));
    if ranked.len() < 2 || total[ranked[0]] == total[ranked[1]] {
        return None;
    }
    Some((ranked[0], total[ranked[0]] - total[ranked[1]]))
}

fn settlement(replay: &Replay<'_>, payouts: &[i128]) -> Option<Vec<(&'static str, J)>> {
    if payouts.iter().any(|&p| p < 0) {
        return None;
    }
    let refunds = uncalled(&replay.total);
    let mut events = Vec::new();
    let pot: i128 = replay.total.iter().sum();
    let paid: i128 = payouts.iter().sum();
    if paid < pot {
        events.push(("rake_collected", J::Obj(vec![
            ("seat", J::Null), ("amount", J::Int(pot - paid)), ("from", J::Lit("pot"))])));
    }
    for (position, &amount) in payouts.iter().enumerate() {
        let seat = replay.seats[position];
        let owed = refunds.filter(|&(at, _)| at == position).map_or(0, |(_, r)| r);
        let refund = owed.min(amount);
        if refund != 0 {
            events.push(("payout", J::Obj(vec![("seat", J::Int(seat)), ("amount", J::Int(refund)),
                                               ("source", J::Lit("pot")), ("kind", J::Lit("refund"))])));
        }
        if amount - refund != 0 {
            events.push(("payout", J::Obj(vec![("seat", J::Int(seat)), ("amount", J::Int(amount - refund)),
                                               ("source", J::Lit("pot")), ("kind", J::Lit("pot"))])));
        }
    }
    Some(events)
}

/// A showdown whose contenders' cards are not all known: who won cannot be checked.
fn limits(replay: &Replay<'_>) -> Vec<&'static str> {
    let contenders: Vec<usize> = (0..replay.stacks.len()).filter(|&i| !replay.folded[i]).collect();
    if contenders.len() < 2 {
        return Vec::new();
    }
    let known = contenders.iter().filter(|&&i| {
        let dealt = replay.hole[i].as_ref().map_or(false, |cards| cards.iter().all(Option::is_some));
        let shown = replay.shown[i].map_or(false, |at| replay.events[at].1.get("cards").is_some());
        dealt || shown
    }).count();
    if known < contenders.len() { vec![SHOWDOWN_UNKNOWN] } else { Vec::new() }
}

/// `p<n>`, 1 to `count`, as a position from 0.
fn position(token: &str, count: usize) -> Option<usize> {
    let digits = token.strip_prefix('p')?;
    if digits.is_empty() || digits.len() > 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: usize = digits.parse().ok()?;
    (1..=count).contains(&n).then(|| n - 1)
}

/// Cards of two characters each; `??` is a card not known.
fn cards(text: &str) -> Option<Vec<Option<String>>> {
    let bytes = text.as_bytes();
    if bytes.len() % 2 != 0 {
        return None;
    }
    bytes.chunks(2).map(|card| match card {
        b"??" => Some(None),
        [rank, suit] if b"23456789TJQKA".contains(rank) && b"cdhs".contains(suit) =>
            Some(Some(String::from_utf8_lossy(card).into_owned())),
        _ => None,
    }).collect::<Option<Vec<Option<String>>>>()
}
