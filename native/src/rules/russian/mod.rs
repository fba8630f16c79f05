//! Russian Poker adjudication (rules.md RP-1..RP-10), the port of
//! `services/games/russian/adjudicate.py`: every box against the house dealer. The events
//! read once (`reading`), the chips in action (`stakes`), the dealer's game bought
//! (`dealer_game`), the arithmetic of one playing box (`settlement`), the procedure findings
//! (`procedure`), the paytable in force (`profile`), on the hand values of `evaluation`.
//! The house banks every box: its expected net is minus the boxes' sum (GEN-8), no rake
//! is due (GEN-10). The decision path (`trace`) stays Python's: it is for the dispute
//! report, not the record.

pub mod dealer_game;
pub mod evaluation;
pub mod procedure;
pub mod profile;
pub mod reading;
pub mod settlement;
pub mod stakes;

use std::collections::{BTreeMap, BTreeSet};

pub use crate::rules::hcf::procedure::Stop;
use crate::json::Value;
use crate::rules::profile::{GenProfile, RussianProfile};
use crate::rules::{finding, mul, Chips, Outcome, RFinding};
use crate::table::DecodedEvent;
use dealer_game::DealerGame;
use evaluation::ROYAL_FLUSH;
use procedure::{boxes_in_play, draw_price, procedure_findings};
use reading::{box_cards, dealer_cards, rankable, RussianHand, SeatBox};
use settlement::{dealer_hand, settle_playing_box, DealerHand, Settlement};
use stakes::{box_stakes, BoxStakes, StakesReport};

/// `adjudicate(hand, profile)` for Russian Poker.
pub fn adjudicate(events: &[DecodedEvent], config: &Value<'_>, rp: &RussianProfile, gen: &GenProfile)
                  -> Result<Outcome, Stop> {
    let facts = reading::read_hand(events)?;
    if facts.dead {
        // GEN-6: a dead or misdealt hand returns every wager and fee; nothing is paid.
        return Ok(Outcome {
            net: facts.boxes.keys().map(|s| (s, 0)).collect(),
            seat_rules: facts.boxes.keys().map(|s| (s, "GEN-6")).collect(),
            dead: true,
            ..Outcome::default()
        });
    }
    let (paytable, mut findings) = profile::posted_paytable(rp, config)?;
    let mut net: BTreeMap<i64, Chips> = facts.boxes.keys().map(|s| (s, 0)).collect();
    let mut seat_rules: BTreeMap<i64, &'static str> = BTreeMap::new();
    let boxes = boxes_in_play(&facts);
    let mut reports: Vec<StakesReport> = Vec::with_capacity(boxes.len());
    for b in &boxes {
        let cards = box_cards(b);
        reports.push(box_stakes(&facts, b, cards.as_deref(), paytable[ROYAL_FLUSH], rp, false)?);
    }
    let playing: BTreeSet<i64> = reports.iter().filter(|r| r.stakes.plays()).map(|r| r.stakes.seat).collect();
    let late = late_stakes(&facts, &boxes, &reports, paytable[ROYAL_FLUSH], rp)?;
    let needed = !playing.is_empty() || late.iter().flatten().any(BoxStakes::plays);
    let (dealer, game) = match dealer(&facts, &playing, needed, rp)? {
        Some((dealer, game)) => {
            findings.extend(game.findings.iter().cloned());
            (Some(dealer), Some(game))
        }
        None => (None, None),
    };
    let antes: BTreeMap<i64, Chips> = reports.iter().map(|r| (r.stakes.seat, r.stakes.ante)).collect();
    let procedure = procedure_findings(&facts, &antes, rp)?;
    let price_errors = procedure::price_errors(&procedure);
    findings.extend(procedure);
    findings.extend(limit_findings(&boxes, config, gen));
    findings.extend(table_stakes(&facts, &antes, rp)?);
    for ((b, report), late) in boxes.iter().zip(&reports).zip(&late) {
        findings.extend(report.findings.iter().cloned());
        let (mut seat_net, mut rule) = settle_box(b, &report.stakes, dealer.as_ref(), game.as_ref(), &paytable, rp)?;
        if let Some(late) = late {
            let void_net = seat_net;
            let fees = -(void_net + report.stakes.ante);  // a box that does not play: -Ante - prices
            if let Some(kept) = keep_losing_late_chips(b, late, dealer.as_ref(), game.as_ref(), &paytable, rp,
                                                       void_net, fees)? {
                (seat_net, rule) = kept;
            }
        }
        net.insert(b.seat, seat_net);
        seat_rules.insert(b.seat, rule);
    }
    let house = -net.values().sum::<Chips>();
    Ok(Outcome { net, house, rake: BTreeMap::new(), pot_rake: 0, findings, seat_rules, dead: false, price_errors,
                 unverified: None, fees_from_pot: false })
}

/// `_late_stakes`: under `kept_if_losing`, for each box that does not play with its late
/// chips void (and has some), its stakes had they played; None for every other box.
fn late_stakes(facts: &RussianHand<'_>, boxes: &[&SeatBox<'_>], reports: &[StakesReport], royal_odds: Chips,
               rp: &RussianProfile) -> Result<Vec<Option<BoxStakes>>, Stop> {
    boxes.iter().zip(reports).map(|(b, report)| {
        let s = &report.stakes;
        let has_late = s.late_ante != 0 || s.late_bet != 0 || s.late_insurance != 0;
        if !rp.late_kept_if_losing || s.plays() || !has_late {
            return Ok(None);
        }
        let cards = box_cards(b);
        Ok(Some(box_stakes(facts, b, cards.as_deref(), royal_odds, rp, true)?.stakes))
    }).collect()
}

/// `_keep_losing_late_chips`: the box's net and rule on its late stakes when that loses more
/// than `void_net` (the house keeps the late chips), else None. `fees`: the draw prices.
#[allow(clippy::too_many_arguments)]
fn keep_losing_late_chips(b: &SeatBox<'_>, late: &BoxStakes, dealer: Option<&DealerHand<'_>>,
                          game: Option<&DealerGame<'_>>, paytable: &[Chips; 11], rp: &RussianProfile,
                          void_net: Chips, fees: Chips) -> Result<Option<(Chips, &'static str)>, Stop> {
    let kept = match dealer {
        Some(dealer) if late.plays() => {
            let cards = box_cards(b).ok_or_else(|| Stop::Rejected(("RP-7", format!(
                "seat {} plays with its late chips but its cards were never read (card_dealt or showdown)",
                b.seat))))?;
            rankable(&cards, &format!("seat {}", b.seat))?;
            let bought = game.filter(|g| g.buyers.contains(&b.seat)).and_then(|g| g.bought.as_ref());
            let result = settle_playing_box(late, &cards, dealer, bought, paytable, rp)?;
            result.net - fees
        }
        _ => -late.ante - fees,
    };
    // SURV-1: the reading that kept the late chips decided the box's result.
    Ok((kept < void_net).then_some((kept, "SURV-1")))
}

/// `_dealer`: RP-5 qualification and RP-6 purchases; only when some box plays (or would,
/// its late chips kept: `needed`).
fn dealer<'a>(facts: &RussianHand<'a>, playing: &BTreeSet<i64>, needed: bool, rp: &RussianProfile)
              -> Result<Option<(DealerHand<'a>, DealerGame<'a>)>, Stop> {
    if !needed {
        return Ok(None);
    }
    let cards = match dealer_cards(facts) {
        Some(cards) if cards.len() as i64 == rp.dealer_cards => cards,
        _ => {
            let seats: Vec<String> = playing.iter().map(i64::to_string).collect();
            return Err(Stop::Rejected(("RP-5", format!(
                "seat(s) {} play but the dealer's five cards were never read (card_dealt or showdown)",
                seats.join(", ")))));
        }
    };
    rankable(&cards, "the dealer")?;
    let dealer = dealer_hand(cards, rp)?;
    let game = dealer_game::dealer_game(facts, &dealer, playing, rp)?;
    Ok(Some((dealer, game)))
}

/// `_settle_box`: the box's expected net (draw prices included) and the rule a mispay cites.
fn settle_box(b: &SeatBox<'_>, stakes: &BoxStakes, dealer: Option<&DealerHand<'_>>, game: Option<&DealerGame<'_>>,
              paytable: &[Chips; 11], rp: &RussianProfile) -> Result<(Chips, &'static str), Stop> {
    let mut fees: Chips = 0;
    for served in &b.draws {
        fees += draw_price(served, stakes.ante, rp)?;
    }
    let dealer = match dealer {
        Some(dealer) if stakes.plays() => dealer,
        _ => return Ok((-stakes.ante - fees, stakes.fold_rule.unwrap_or("RP-3"))),
    };
    let cards = box_cards(b).ok_or_else(|| Stop::Rejected(("RP-7", format!(
        "seat {} plays but its cards were never read (card_dealt or showdown)", b.seat))))?;
    rankable(&cards, &format!("seat {}", b.seat))?;
    let bought = game.filter(|g| g.buyers.contains(&b.seat)).and_then(|g| g.bought.as_ref());
    let result = settle_playing_box(stakes, &cards, dealer, bought, paytable, rp)?;
    let mut seat_net = result.net;
    let mut rule = seat_rule(b, &result);
    let has_late = stakes.late_ante != 0 || stakes.late_bet != 0 || stakes.late_insurance != 0;
    if rp.late_kept_if_losing && has_late {
        let with_late = BoxStakes {
            ante: stakes.ante + stakes.late_ante,
            bet: stakes.bet + stakes.late_bet,
            insurance: stakes.insurance + stakes.late_insurance,
            late_ante: 0,
            late_bet: 0,
            late_insurance: 0,
            ..stakes.clone()
        };
        let with_late = settle_playing_box(&with_late, &cards, dealer, bought, paytable, rp)?;
        if with_late.net < seat_net {
            seat_net = with_late.net;
            rule = "SURV-1"; // the reading that kept the late chips decided the result
        }
    }
    Ok((seat_net - fees, rule))
}

/// `_seat_rule`: RP-4 when only the insurance was settled differently, else the rule that
/// decided the box's Ante and Bet.
fn seat_rule(b: &SeatBox<'_>, result: &Settlement) -> &'static str {
    let insurance_wrong = b.recorded_insurance != result.insurance;
    let rest_right = b.recorded_other == result.net - result.insurance;
    if insurance_wrong && rest_right {
        "RP-4"
    } else {
        result.rule
    }
}

/// The posted limits: (min_wager, max_wager, ante).
fn posted_limits(config: &Value<'_>) -> (Chips, Chips, Option<Chips>) {
    let limits = config.get("limits");
    let get = |key: &str| limits.and_then(|l| l.get(key)).and_then(Value::as_int).map(Chips::from);
    (get("min_wager").unwrap_or(0), get("max_wager").unwrap_or(0), get("ante"))
}

/// `_limit_findings` (GEN-5): the Ante within the posted limits.
fn limit_findings(boxes: &[&SeatBox<'_>], config: &Value<'_>, gen: &GenProfile) -> Vec<RFinding> {
    let (min_wager, max_wager, ante) = posted_limits(config);
    let mut out = Vec::new();
    for b in boxes {
        for placed in &b.antes {
            let outside = !(min_wager <= placed.amount && placed.amount <= max_wager);
            let off_ante = ante.map_or(false, |a| placed.amount != a);
            if outside || off_ante {
                let posted = match ante {
                    Some(a) if off_ante => format!("the posted Ante of {}", a),
                    _ => format!("the limits {}..{}", min_wager, max_wager),
                };
                out.push(finding("WAGER_OUTSIDE_LIMITS", "GEN-5", gen.wager_outside_limits, format!(
                    "seat {}: Ante of {} at seq {} is outside {}", b.seat, placed.amount, placed.seq, posted),
                    Some(b.seat), Some(placed.amount)));
            }
        }
    }
    out
}

/// `_table_stakes` (GEN-2): a box starts the hand with the chips for the Ante, one draw at
/// the dearer price and the Bet.
fn table_stakes(facts: &RussianHand<'_>, antes: &BTreeMap<i64, Chips>, rp: &RussianProfile) -> Result<Vec<RFinding>, Stop> {
    let mut stacks: BTreeMap<i64, Chips> = BTreeMap::new();
    for &(seat, stack) in &facts.seats {
        stacks.insert(seat, stack);
    }
    let draw = rp.buy_card_price_antes.max(rp.exchange_price_antes) as Chips;
    let multiple = 1 + draw + rp.bet_antes as Chips;
    let mut out = Vec::new();
    for (&seat, &ante) in antes {
        let needed = mul(multiple, ante)?;
        if let Some(&stack) = stacks.get(&seat) {
            if ante != 0 && stack < needed {
                out.push(finding("INSUFFICIENT_STAKE", "GEN-2", rp.insufficient_stake_severity, format!(
                    "seat {} started with {} chips but an Ante of {} can require {} (Ante, a draw at {}x Ante and the Bet of {}x Ante)",
                    seat, stack, ante, needed, draw, rp.bet_antes), Some(seat), Some(needed - stack)));
            }
        }
    }
    Ok(out)
}
