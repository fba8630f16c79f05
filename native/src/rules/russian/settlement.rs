//! What a playing box wins or loses against the dealer (RP-4..RP-8), the port of
//! `services/games/russian/settlement.py`: the showdown against a qualifying dealer (two
//! combinations of six cards), the Ante paid when he does not qualify, the dealer's game
//! bought, and the insurance. `net` excludes the draw fees (RP-2), which the caller adds.

use super::evaluation::{at_least, best_five, compare, line_of, paytable_category, two_combinations};
use super::stakes::BoxStakes;
use super::Stop;
use crate::rules::profile::RussianProfile;
use crate::rules::{mul, Chips};

/// `DealerHand`: the dealer's five cards, their rank code and line, whether they qualify.
#[derive(Debug, Clone)]
pub struct DealerHand<'a> {
    pub cards: Vec<&'a str>,
    pub code: i64,
    pub category: usize,
    pub qualifies: bool,
}

/// `Settlement`: the box's net (draw fees excluded), the rule that decided it, and the
/// part of it that is the insurance (a mispay of the insurance alone cites RP-4).
#[derive(Debug, Clone)]
pub struct Settlement {
    pub net: Chips,
    pub rule: &'static str,
    pub insurance: Chips,
}

/// `dealer_hand` (RP-5): the profile's floor qualifies (Ace-King on house-v1).
pub fn dealer_hand<'a>(cards: Vec<&'a str>, p: &RussianProfile) -> Result<DealerHand<'a>, Stop> {
    let code = crate::rules::chinese::evaluation::rank5(&cards)?;
    let category = line_of(code);
    Ok(DealerHand { cards, code, category, qualifies: at_least(category, p.dealer_min_category) })
}

/// `combinations_of` (RP-8): the rank codes of the best five and of a paid second
/// combination of six cards.
fn combinations_of(seat: i64, cards: &[&str], p: &RussianProfile) -> Result<(i64, Option<i64>), Stop> {
    if cards.len() == 6 {
        let (best, second) = two_combinations(cards)?;
        let second = second.filter(|&s| p.pay_two_combinations && at_least(line_of(s), p.second_combination_min_category));
        return Ok((best, second));
    }
    if !(5..=7).contains(&cards.len()) {
        return Err(Stop::Rejected(("RP-7", format!(
            "seat {} plays with {} cards; a hand is five or six cards (seven at most after an illegal second buy)",
            seat, cards.len()))));
    }
    Ok((best_five(cards)?, None))
}

/// `settle_playing_box`: net of a playing box's Ante, Bet and insurance; `bought`: the
/// dealer's hand after this box bought his game (RP-6), None when it did not buy.
pub fn settle_playing_box(stakes: &BoxStakes, cards: &[&str], dealer: &DealerHand<'_>, bought: Option<&DealerHand<'_>>,
                          paytable: &[Chips; 11], p: &RussianProfile) -> Result<Settlement, Stop> {
    if dealer.qualifies {
        let mut result = showdown(stakes.seat, stakes.ante, stakes.bet, cards, dealer, paytable, p)?;
        result.insurance = insurance_net(stakes.insurance, false, p)?;
        result.net += result.insurance;
        return Ok(result);
    }
    match bought {
        None => ante_paid(stakes, p),
        Some(bought) => game_bought(stakes, cards, bought, paytable, p),
    }
}

/// RP-6: Ante paid 1 to 1, Bet returned; RP-4: insurance paid 1 to 1.
fn ante_paid(stakes: &BoxStakes, p: &RussianProfile) -> Result<Settlement, Stop> {
    let win = mul(stakes.ante, p.ante_odds_dealer_not_qualifying as Chips)?;
    let insurance = insurance_net(stakes.insurance, true, p)?;
    Ok(Settlement { net: win + insurance, rule: "RP-6", insurance })
}

/// RP-6: the price comes out of the Ante; then RP-7 with what is left of the Ante, or the
/// Bet returned when the dealer still does not qualify.
fn game_bought(stakes: &BoxStakes, cards: &[&str], bought: &DealerHand<'_>, paytable: &[Chips; 11],
               p: &RussianProfile) -> Result<Settlement, Stop> {
    let price = mul(stakes.ante, p.buy_dealer_game_price_antes as Chips)?;
    let ante_left = (stakes.ante - price).max(0);
    let net = if bought.qualifies {
        showdown(stakes.seat, ante_left, stakes.bet, cards, bought, paytable, p)?.net - price
    } else {
        -price
    };
    let won = !p.insurance_lost_when_game_bought && !bought.qualifies;
    let insurance = insurance_net(stakes.insurance, won, p)?;
    Ok(Settlement { net: net + insurance, rule: "RP-6", insurance })
}

/// `showdown` (RP-7, RP-8): the box's best five against the dealer's qualifying hand.
fn showdown(seat: i64, ante: Chips, bet: Chips, cards: &[&str], dealer: &DealerHand<'_>, paytable: &[Chips; 11],
            p: &RussianProfile) -> Result<Settlement, Stop> {
    let (best, second) = combinations_of(seat, cards, p)?;
    match compare(best, dealer.code) {
        -1 => return Ok(Settlement { net: -(ante + bet), rule: "RP-7", insurance: 0 }),
        0 => return Ok(Settlement { net: 0, rule: "RP-7", insurance: 0 }),
        _ => {}
    }
    let mut odds = paytable[line_of(best)];
    let mut rule = "RP-7";
    if let Some(second) = second {
        odds += paytable[line_of(second)];
        rule = "RP-8";
    }
    Ok(Settlement { net: mul(bet, odds)?, rule, insurance: 0 })
}

/// `_insurance_net`: won at the insurance odds, or lost.
fn insurance_net(insurance: Chips, won: bool, p: &RussianProfile) -> Result<Chips, Stop> {
    if insurance == 0 {
        return Ok(0);
    }
    if won {
        return Ok(mul(insurance, p.insurance_odds as Chips)?);
    }
    Ok(-insurance)
}

/// `paytable_category` of a card list, for the dealer's game (`_completes`).
pub fn completes(cards: &[&str]) -> Result<bool, Stop> {
    Ok(paytable_category(cards)? != super::evaluation::NOTHING)
}
