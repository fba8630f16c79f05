//! Betting actions and rule violations (`services/games/betting/actions.py`). Amounts are
//! the chips an action adds from the seat's stack, exactly as the `action` event records them.

use crate::rules::Chips;

/// `POST_KINDS`
pub fn is_post(kind: &str) -> bool {
    matches!(kind, "post_small_blind" | "post_big_blind" | "post_ante")
}

/// `BETTING_KINDS`
pub fn is_betting(kind: &str) -> bool {
    matches!(kind, "fold" | "check" | "call" | "bet" | "raise" | "all_in") || is_post(kind)
}

/// `ViolationKind`: what can be wrong with one recorded action (or a round as a whole).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViolationKind {
    OutOfTurn,
    NotInHand,
    CheckFacingBet,
    WrongCallAmount,
    ChipsWithFold,
    NotARaise,
    AllInNotWholeStack,
    UnderMinimum,
    OverPot,
    WrongLimitAmount,
    CapExceeded,
    NotReopened,
    NoOpponentToRaise,
    BlindWrongSeat,
    BlindWrongAmount,
    BlindMissing,
    BlindLate,
    LastPlayerFolded,
    RoundIncomplete,
    /// Reported by the GEN checks (GEN-2), never as a betting finding.
    OverStack,
}

impl ViolationKind {
    /// Every kind with a severity in `BettingSeverities`, in its field order.
    pub const SEVERED: [ViolationKind; 19] = [
        ViolationKind::OutOfTurn, ViolationKind::NotInHand, ViolationKind::CheckFacingBet,
        ViolationKind::WrongCallAmount, ViolationKind::ChipsWithFold, ViolationKind::NotARaise,
        ViolationKind::AllInNotWholeStack, ViolationKind::UnderMinimum, ViolationKind::OverPot,
        ViolationKind::WrongLimitAmount, ViolationKind::CapExceeded, ViolationKind::NotReopened,
        ViolationKind::NoOpponentToRaise, ViolationKind::BlindWrongSeat,
        ViolationKind::BlindWrongAmount, ViolationKind::BlindMissing, ViolationKind::BlindLate,
        ViolationKind::LastPlayerFolded, ViolationKind::RoundIncomplete,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ViolationKind::OutOfTurn => "out_of_turn",
            ViolationKind::NotInHand => "not_in_hand",
            ViolationKind::CheckFacingBet => "check_facing_bet",
            ViolationKind::WrongCallAmount => "wrong_call_amount",
            ViolationKind::ChipsWithFold => "chips_with_fold",
            ViolationKind::NotARaise => "not_a_raise",
            ViolationKind::AllInNotWholeStack => "all_in_not_whole_stack",
            ViolationKind::UnderMinimum => "under_minimum",
            ViolationKind::OverPot => "over_pot",
            ViolationKind::WrongLimitAmount => "wrong_limit_amount",
            ViolationKind::CapExceeded => "cap_exceeded",
            ViolationKind::NotReopened => "not_reopened",
            ViolationKind::NoOpponentToRaise => "no_opponent_to_raise",
            ViolationKind::BlindWrongSeat => "blind_wrong_seat",
            ViolationKind::BlindWrongAmount => "blind_wrong_amount",
            ViolationKind::BlindMissing => "blind_missing",
            ViolationKind::BlindLate => "blind_late",
            ViolationKind::LastPlayerFolded => "last_player_folded",
            ViolationKind::RoundIncomplete => "round_incomplete",
            ViolationKind::OverStack => "over_stack",
        }
    }

    /// `violation_code`: the finding code, the kind in upper case.
    pub fn code(self) -> &'static str {
        match self {
            ViolationKind::OutOfTurn => "OUT_OF_TURN",
            ViolationKind::NotInHand => "NOT_IN_HAND",
            ViolationKind::CheckFacingBet => "CHECK_FACING_BET",
            ViolationKind::WrongCallAmount => "WRONG_CALL_AMOUNT",
            ViolationKind::ChipsWithFold => "CHIPS_WITH_FOLD",
            ViolationKind::NotARaise => "NOT_A_RAISE",
            ViolationKind::AllInNotWholeStack => "ALL_IN_NOT_WHOLE_STACK",
            ViolationKind::UnderMinimum => "UNDER_MINIMUM",
            ViolationKind::OverPot => "OVER_POT",
            ViolationKind::WrongLimitAmount => "WRONG_LIMIT_AMOUNT",
            ViolationKind::CapExceeded => "CAP_EXCEEDED",
            ViolationKind::NotReopened => "NOT_REOPENED",
            ViolationKind::NoOpponentToRaise => "NO_OPPONENT_TO_RAISE",
            ViolationKind::BlindWrongSeat => "BLIND_WRONG_SEAT",
            ViolationKind::BlindWrongAmount => "BLIND_WRONG_AMOUNT",
            ViolationKind::BlindMissing => "BLIND_MISSING",
            ViolationKind::BlindLate => "BLIND_LATE",
            ViolationKind::LastPlayerFolded => "LAST_PLAYER_FOLDED",
            ViolationKind::RoundIncomplete => "ROUND_INCOMPLETE",
            ViolationKind::OverStack => "OVER_STACK",
        }
    }
}

/// `Violation`: one rule broken by a recorded action, with the rule it breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub kind: ViolationKind,
    pub rule: &'static str,
    pub seat: Option<i64>,
    pub round_index: usize,
    pub message: String,
    pub amount: Option<Chips>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_names_in_upper_case() {
        for kind in ViolationKind::SEVERED.iter().chain([ViolationKind::OverStack].iter()) {
            assert_eq!(kind.code(), kind.name().to_uppercase());
        }
        assert!(is_betting("post_ante") && !is_betting("stand") && !is_post("call"));
    }
}
