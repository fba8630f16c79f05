//! Rake at player-versus-player pot tables (GEN-10, in the modes of HCF-12), the port of
//! `services/games/betting/rake.py`: a fee per participant in the posted mode (from the
//! stacks after the award, or from the pot before it: the profile's `fee_from`), and a pot
//! rake schedule a room may post (`[rake.pot]`: a rate of the pot, rounded to the chip
//! unit, capped by players dealt in, a minimum pot, "no flop, no drop").

use super::pots::Pot;
use super::seating::clockwise_after;
use super::floordiv;
use crate::rules::{mul, Chips, Defer, OrdMap};

/// `Rounding`
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    Down,
    Nearest,
    Up,
}

impl Rounding {
    pub fn parse(s: &str) -> Option<Rounding> {
        match s {
            "down" => Some(Rounding::Down),
            "nearest" => Some(Rounding::Nearest),
            "up" => Some(Rounding::Up),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rounding::Down => "down",
            Rounding::Nearest => "nearest",
            Rounding::Up => "up",
        }
    }
}

/// `PotRakeSchedule` (`[rake.pot]`); `caps`: (min_players, cap), most players first (as
/// the reference's loader requires).
#[derive(Debug, Clone)]
pub struct PotRakeSchedule {
    pub rate_numerator: i64,
    pub rate_denominator: i64,
    pub unit: i64,
    pub rounding: Rounding,
    pub minimum_pot: i64,
    pub no_flop_no_drop: bool,
    pub caps: Vec<(i64, i64)>,
}

impl PotRakeSchedule {
    pub fn posted(&self) -> bool {
        self.rate_numerator > 0
    }
}

/// `PotGameRake`: the `[rake]` readings of a pot game's profile section.
#[derive(Debug, Clone)]
pub struct PotGameRake {
    pub designated_counts_button: bool,
    /// GEN-10 reading of `all` mode: the button dealt in pays too, chips in the pot or not
    pub all_charges_button: bool,
    /// `fee_from == "pot"` (else "stack")
    pub fee_from_pot: bool,
    pub pot: PotRakeSchedule,
}

/// `RakeMode` (`table_configured.rake.mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RakeMode {
    All,
    Players,
    Designated,
    None,
}

impl RakeMode {
    pub fn parse(s: &str) -> Option<RakeMode> {
        match s {
            "all" => Some(RakeMode::All),
            "players" => Some(RakeMode::Players),
            "designated" => Some(RakeMode::Designated),
            "none" => Some(RakeMode::None),
            _ => None,
        }
    }
}

/// `PotRakeHand`: the players dealt in, and whether the hand got past its first round.
#[derive(Debug, Clone, Copy)]
pub struct PotRakeHand {
    pub players_dealt: i64,
    pub past_first_round: bool,
}

/// `RakePolicy`: the table's posted rake with the profile's readings.
#[derive(Debug, Clone)]
pub struct RakePolicy<'p> {
    pub mode: RakeMode,
    pub fee: Chips,
    pub designated_counts_button: bool,
    pub all_charges_button: bool,
    pub fee_from_pot: bool,
    pub schedule: Option<&'p PotRakeSchedule>,
    pub hand: Option<PotRakeHand>,
}

impl<'p> RakePolicy<'p> {
    /// `RakePolicy.posted(rake, readings, hand)`.
    pub fn posted(mode: RakeMode, fee: Chips, readings: &'p PotGameRake, hand: Option<PotRakeHand>) -> RakePolicy<'p> {
        RakePolicy {
            mode, fee, designated_counts_button: readings.designated_counts_button,
            all_charges_button: readings.all_charges_button, fee_from_pot: readings.fee_from_pot,
            schedule: if readings.pot.posted() { Some(&readings.pot) } else { None }, hand,
        }
    }
}

/// `pot_rake`: the schedule applied to the pot (after uncalled bets went back); the
/// decision path's words stay Python's, only the amount is the record's.
pub fn pot_rake(policy: &RakePolicy<'_>, pot: Chips) -> Result<Chips, Defer> {
    let (schedule, hand) = match (policy.schedule, policy.hand) {
        (Some(s), Some(h)) if pot > 0 => (s, h),
        _ => return Ok(0),
    };
    if schedule.no_flop_no_drop && !hand.past_first_round {
        return Ok(0);
    }
    if pot < schedule.minimum_pot as Chips {
        return Ok(0);
    }
    let unit = schedule.unit as Chips;
    let numerator = mul(pot, schedule.rate_numerator as Chips)?;
    let denominator = mul(schedule.rate_denominator as Chips, unit)?;
    let mut amount = mul(rounded(numerator, denominator, schedule.rounding)?, unit)?;
    let cap = schedule.caps.iter().find(|(min_players, _)| hand.players_dealt >= *min_players).map(|(_, cap)| *cap);
    if let Some(cap) = cap {
        if amount > cap as Chips {
            amount = cap as Chips;
        }
    }
    Ok(amount.min(pot))
}

/// `_rounded`: `numerator / denominator` as a whole number, rounded as posted.
fn rounded(numerator: Chips, denominator: Chips, rounding: Rounding) -> Result<Chips, Defer> {
    match rounding {
        Rounding::Down => floordiv(numerator, denominator),
        Rounding::Up => Ok(-floordiv(-numerator, denominator)?),
        Rounding::Nearest => floordiv(mul(2, numerator)? + denominator, mul(2, denominator)?),
    }
}

/// `rake_charges` (GEN-10): what each seat owes under the posted mode, before any cap;
/// `all` with `all_charges_button` (GEN-10 reading) charges the button dealt in as well.
pub fn rake_charges(policy: &RakePolicy<'_>, participants: &[i64], dealt: &[i64], button: i64)
                    -> Result<OrdMap<i64, Chips>, Defer> {
    let mut out = OrdMap::default();
    if policy.mode == RakeMode::None || policy.fee == 0 || participants.is_empty() {
        return Ok(out);
    }
    match policy.mode {
        RakeMode::All => {
            let mut payers = participants.to_vec();
            if policy.all_charges_button && dealt.contains(&button) && !payers.contains(&button) {
                payers.push(button);
                payers.sort_unstable();
            }
            payers.iter().for_each(|&s| out.set(s, policy.fee));
        }
        RakeMode::Players => participants.iter().filter(|&&s| s != button).for_each(|&s| out.set(s, policy.fee)),
        _ => {
            let counted = participants.iter().filter(|&&s| policy.designated_counts_button || s != button).count();
            if counted == 0 || !dealt.contains(&button) {
                return Ok(out);
            }
            out.set(button, mul(policy.fee, counted as Chips)?);
        }
    }
    Ok(out)
}

/// `cap_charges`: a fee from the pot never exceeds the pot; payers clockwise from the
/// button's left pay in full while chips remain.
pub fn cap_charges(charges: &OrdMap<i64, Chips>, available: Chips, button: i64) -> OrdMap<i64, Chips> {
    if charges.items.iter().map(|(_, c)| *c).sum::<Chips>() <= available {
        return charges.clone();
    }
    let mut capped = OrdMap::default();
    let mut remaining = available;
    let payers: Vec<i64> = charges.keys().collect();
    for seat in clockwise_after(&payers, button) {
        let paid = charges.get(seat).copied().unwrap_or(0).min(remaining);
        if paid != 0 {
            capped.set(seat, paid);
        }
        remaining -= paid;
    }
    capped
}

/// `cap_at_stacks`: a fee from the stack never exceeds what the payer holds after the award.
pub fn cap_at_stacks(charges: &OrdMap<i64, Chips>, holding: &OrdMap<i64, Chips>) -> OrdMap<i64, Chips> {
    let mut out = OrdMap::default();
    for &(seat, charge) in &charges.items {
        let capped = charge.min(holding.get(seat).copied().unwrap_or(0).max(0));
        if capped != 0 {
            out.set(seat, capped);
        }
    }
    out
}

/// `take_from_pots`: deduct `total` rake from the pots, main pot first.
pub fn take_from_pots(pots: &[Pot], total: Chips) -> Result<Vec<Pot>, Defer> {
    let mut remaining = total;
    let out = pots
        .iter()
        .map(|pot| {
            let taken = pot.amount.min(remaining);
            remaining -= taken;
            Pot { amount: pot.amount - taken, eligible: pot.eligible.clone(), level: pot.level }
        })
        .collect();
    if remaining != 0 {
        return Err(Defer("a rake larger than the pots"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(rounding: Rounding) -> PotRakeSchedule {
        PotRakeSchedule { rate_numerator: 5, rate_denominator: 100, unit: 5, rounding, minimum_pot: 20,
                          no_flop_no_drop: true, caps: vec![(5, 300), (2, 100)] }
    }

    #[test]
    fn the_schedule_rounds_caps_and_drops() {
        let readings = PotGameRake { designated_counts_button: true, all_charges_button: false, fee_from_pot: false,
                                     pot: schedule(Rounding::Down) };
        let hand = PotRakeHand { players_dealt: 3, past_first_round: true };
        let policy = RakePolicy::posted(RakeMode::None, 0, &readings, Some(hand));
        assert_eq!(pot_rake(&policy, 390), Ok(15));
        assert_eq!(pot_rake(&policy, 10), Ok(0));
        assert_eq!(pot_rake(&policy, 100_000), Ok(100));
        let early = RakePolicy::posted(RakeMode::None, 0, &readings,
                                       Some(PotRakeHand { players_dealt: 3, past_first_round: false }));
        assert_eq!(pot_rake(&early, 390), Ok(0));
        assert_eq!(rounded(390 * 5, 500, Rounding::Up), Ok(4));
        assert_eq!(rounded(350 * 5, 500, Rounding::Nearest), Ok(4));
    }

    fn policy(readings: &PotGameRake, all_charges_button: bool) -> RakePolicy<'_> {
        RakePolicy { all_charges_button, ..RakePolicy::posted(RakeMode::All, 2, readings, None) }
    }

    /// GEN-10 reading `all_charges_button`, mode `all`, fee 2, seats 1 2 3 dealt in, seats
    /// 1 and 2 put chips in. Button 3 (nothing in): false, seats 1 and 2 pay 2 each; true,
    /// seat 3 pays 2 as well. A button on seat 4 (nobody dealt from it) pays nothing
    /// either way; a button that put chips in (seat 1) pays once, not twice. Button 1 with
    /// participants 2 and 3: the payers stay in seat order, 1 2 3.
    #[test]
    fn all_mode_charges_the_button_only_when_the_reading_says_so() {
        let readings = PotGameRake { designated_counts_button: true, all_charges_button: false, fee_from_pot: false,
                                     pot: schedule(Rounding::Down) };
        let (dealt, both) = ([1, 2, 3], [1, 2]);
        let charged = |all: bool, participants: &[i64], button: i64| {
            rake_charges(&policy(&readings, all), participants, &dealt, button).unwrap().items
        };
        assert_eq!(charged(false, &both, 3), vec![(1, 2), (2, 2)]);
        assert_eq!(charged(true, &both, 3), vec![(1, 2), (2, 2), (3, 2)]);
        assert_eq!(charged(true, &both, 4), vec![(1, 2), (2, 2)]);
        assert_eq!(charged(true, &both, 1), vec![(1, 2), (2, 2)]);
        assert_eq!(charged(true, &[2, 3], 1), vec![(1, 2), (2, 2), (3, 2)]);
        assert_eq!(charged(true, &[], 1), vec![]);
        let posted = PotGameRake { all_charges_button: true, ..readings.clone() };
        assert!(RakePolicy::posted(RakeMode::All, 2, &posted, None).all_charges_button);
    }
}
