//! Intake of one record: size bound, strict JSON, contract validation, canonical hash.
//!
//! Stateless, like `services/adjudicator/intake.py` (the reference). The outcome is a
//! decision only; the reason a record is rejected is worded by the reference, which the
//! caller asks for the (rare) rejected record, so the two never word a reason differently.

use crate::canonical;
use crate::json::{self, Value};
use crate::validate::{self, Envelope, Verdict};

/// `services/adjudicator/intake.py` MAX_RECORD_BYTES.
pub const MAX_RECORD_BYTES: usize = 1_000_000;

// One per record, on the stack and consumed at once: boxing the envelope would cost an
// allocation per record for nothing.
#[allow(clippy::large_enum_variant)]
pub enum Intake<'v> {
    /// Valid (or, with `deferred`, valid unless the reference says otherwise).
    Accepted { envelope: Envelope<'v>, hash: [u8; 32], deferred: bool },
    Rejected,
}

/// Parse a record; the tree borrows from `raw`.
pub fn parse(raw: &[u8]) -> Option<Value<'_>> {
    if raw.len() > MAX_RECORD_BYTES {
        return None;
    }
    json::parse(raw).ok()
}

/// Validate a parsed record and hash it.
pub fn accept<'v>(tree: &'v Value<'v>, scratch: &mut Vec<u8>) -> Intake<'v> {
    match validate::validate(tree, scratch) {
        Ok((envelope, verdict)) => {
            let hash = canonical::sha256(scratch);
            Intake::Accepted { envelope, hash, deferred: verdict == Verdict::Defer }
        }
        Err(_) => Intake::Rejected,
    }
}
