//! The Bet paytable in force at one table (RP-7, GEN-5), the port of what
//! `services/games/russian/profile.py` computes per hand (`posted_paytable`); the section's
//! fields themselves are `rules::profile::RussianProfile`, passed in from Python once.

use super::evaluation::{NOTHING, PAYTABLE_CATEGORIES};
use crate::json::Value;
use crate::rules::profile::RussianProfile;
use crate::rules::{finding, Chips, Defer, RFinding};

/// The key of `table_configured.paytables` that overrides the RP-7 Bet paytable.
pub const PAYTABLE_KEY: &str = "bet";

/// Python's `repr` of a string, for the strings it writes plainly: printable ASCII (and
/// `\t`, `\n`, `\r`, other control characters as `\xNN`). Anything else defers.
pub fn py_repr(s: &str) -> Result<String, Defer> {
    if !s.is_ascii() {
        return Err(Defer("a paytable row name beyond ASCII"));
    }
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (' '..='~').contains(&c) => out.push(c),
            c => out.push_str(&format!("\\x{:02x}", c as u32)),
        }
    }
    out.push(quote);
    Ok(out)
}

/// `posted_paytable`: the profile's rows, overridden by the table's posting; a posted row
/// that names no paytable line is a GEN-5 finding and ignored.
pub fn posted_paytable(p: &RussianProfile, config: &Value<'_>) -> Result<([Chips; 11], Vec<RFinding>), Defer> {
    let mut table = [0 as Chips; 11];
    for (slot, odds) in table.iter_mut().zip(p.paytable.iter()) {
        *slot = *odds as Chips;
    }
    let mut findings = Vec::new();
    let overrides = match config.get("paytables").and_then(|t| t.get(PAYTABLE_KEY)) {
        Some(Value::Object(rows)) => rows.iter().map(|(k, v)| (k.as_ref(), v.as_int().unwrap_or(0))).collect(),
        _ => Vec::new(),
    };
    let mut overrides: Vec<(&str, i64)> = overrides;
    overrides.sort_unstable_by(|a, b| a.0.cmp(b.0));
    for (row, odds) in overrides {
        match PAYTABLE_CATEGORIES.iter().position(|c| *c == row) {
            Some(line) if line != NOTHING => table[line] = odds as Chips,
            _ => findings.push(finding("UNKNOWN_PAYTABLE_ROW", "GEN-5", p.paytable_config_severity, format!(
                "table_configured paytables.{} names {}, which is no Russian Poker paytable line; it was ignored",
                PAYTABLE_KEY, py_repr(row)?), None, None)),
        }
    }
    Ok((table, findings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repr_as_python_writes_it() {
        assert_eq!(py_repr("jackpot").unwrap(), "'jackpot'");
        assert_eq!(py_repr("it's").unwrap(), "\"it's\"");
        assert_eq!(py_repr("a'\"b").unwrap(), "'a\\'\"b'");
        assert_eq!(py_repr("a\\b\n\x01").unwrap(), "'a\\\\b\\n\\x01'");
        assert!(py_repr("é").is_err());
    }
}
