//! The betting engine shared by the pot games (Five Card Draw 7-A now, Texas Hold'em next),
//! the port of `services/games/betting/`, one module per Python module:
//!
//! - `structures`: `BettingConfig` / `RoundSpec` / `RuleIds`, a game's betting as data;
//! - `engine`: `BettingHand`, the recorded actions replayed with their `Violation`s,
//!   round transitions and `showdown_order`;
//! - `pots` / `showdown` / `rake` / `settlement`: side pots and uncalled bets, awards with
//!   the odd-chip rule, GEN-10 fees and pot rake, `settle`;
//! - `findings`: violations as findings with the game's `BettingSeverities`;
//! - `pot_hand`: opening, replaying and the dead hand, as the pot games share them.
//!
//! No game is named here: the rules each violation cites come from the configuration.

pub mod actions;
pub mod engine;
pub mod findings;
pub mod pot_hand;
pub mod pots;
pub mod rake;
pub mod seating;
pub mod settlement;
pub mod showdown;
pub mod structures;

use crate::rules::{Chips, Defer};

/// Python's `a // b` (floor division); a zero divisor defers (the reference raises).
pub fn floordiv(a: Chips, b: Chips) -> Result<Chips, Defer> {
    if b == 0 {
        return Err(Defer("a division by zero"));
    }
    let q = a / b;
    Ok(if a % b != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_division_is_pythons() {
        assert_eq!(floordiv(7, 2), Ok(3));
        assert_eq!(floordiv(-7, 2), Ok(-4));
        assert_eq!(floordiv(7, -2), Ok(-4));
        assert_eq!(floordiv(-7, -2), Ok(3));
        assert!(floordiv(1, 0).is_err());
    }
}
