//! Betting violations as findings (`services/games/betting/findings.py`), with the
//! severities of the game's profile (`BettingSeverities`). `over_stack` is GEN-2's, reported
//! by the common checks, never here.

use super::actions::{Violation, ViolationKind};
use crate::rules::{finding, RFinding, Sev};

/// `BettingSeverities`: one severity per violation kind, in `ViolationKind::SEVERED` order.
#[derive(Debug, Clone)]
pub struct BettingSeverities(pub [Sev; 19]);

impl BettingSeverities {
    pub fn of(&self, kind: ViolationKind) -> Option<Sev> {
        ViolationKind::SEVERED.iter().position(|k| *k == kind).map(|at| self.0[at])
    }
}

/// `violation_findings`: one finding per violation, citing its rule.
pub fn violation_findings(violations: &[Violation], severities: &BettingSeverities) -> Vec<RFinding> {
    violations
        .iter()
        .filter_map(|v| {
            let severity = severities.of(v.kind)?; // REPORTED_ELSEWHERE: over_stack
            Some(finding(v.kind.code(), v.rule, severity, v.message.clone(), v.seat, v.amount))
        })
        .collect()
}
