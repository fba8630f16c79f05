//! What an imported table state must hold for the chain check to answer rightly.
//!
//! Why a module of its own: a kept state is input (read back from a database, perhaps
//! hand-edited or damaged), and the duplicate window's lookups rely on its order: `kept`
//! is binary-searched by seq (`TableState::find_seq`, `remember`, `forget_below`), the
//! missing ranges too (`range_at`). A window out of order would make a duplicate or a seq
//! conflict pass unseen, silently. `state::import` refuses such a state with one line
//! naming what is wrong; the reference engine's `decode_state` refuses the same states
//! with the same words (`services.adjudicator.state_check`), and the run says the state is
//! not one this pitwatch reads and starts the table new (`services.archive.carry`).

use crate::table::TableState;

type R = Result<(), String>;

/// Format 3's missing ranges and successor hashes as read, before the table normalises
/// them: ascending, apart (neither overlapping nor adjacent: the exporter merges those),
/// and each successor hash at a missing seq, once.
pub fn check_ranges(missing: &[(i64, i64)], successors: &[(i64, [u8; 32])]) -> R {
    for pair in missing.windows(2) {
        let ((a, b), (c, d)) = (pair[0], pair[1]);
        if c <= b.saturating_add(1) {
            return Err(format!(
                "table state's missing ranges are not ascending and apart ({a}-{b} before {c}-{d})"));
        }
    }
    let mut before: Option<i64> = None;
    for &(s, _) in successors {
        if before.map_or(false, |b| b >= s) {
            return Err(format!("table state keeps its successor hashes out of seq order (seq {s})"));
        }
        before = Some(s);
        if !is_in(missing, s) {
            return Err(format!("table state keeps a successor hash for seq {s}, which is not missing"));
        }
    }
    Ok(())
}

/// The imported table as a whole: its window (`kept`, then the open hand's events, whose
/// seqs `hand_seqs` lists in the hand's order) against its head and missing seqs.
pub fn check_table(t: &TableState, hand_seqs: &[i64]) -> R {
    let head = t.last_seq;
    let mut before: Option<i64> = None;
    for k in &t.kept {
        if let Some(b) = before {
            if k.seq <= b {
                return Err(format!(
                    "table state's duplicate window is out of seq order (seq {} after seq {b})", k.seq));
            }
        }
        before = Some(k.seq);
        if k.seq < 1 || k.seq > head {
            return Err(format!(
                "table state's duplicate window holds seq {}, outside 1 to its head {head}", k.seq));
        }
        if is_in(&t.missing, k.seq) {
            return Err(format!("table state's seq {} is both remembered and missing", k.seq));
        }
    }
    for &(first, last) in &t.missing {
        if first < 1 || last >= head {
            return Err(format!(
                "table state's missing range {first}-{last} is not between 1 and its head {head}"));
        }
    }
    if let Some(hand) = &t.open_hand {
        if hand_seqs.len() != hand.count {
            return Err("table state's open hand's events cannot be read".to_string());
        }
        let mut sorted = hand_seqs.to_vec();
        sorted.sort_unstable();
        for pair in sorted.windows(2) {
            if pair[0] == pair[1] {
                return Err(format!("table state's open hand holds seq {} twice", pair[0]));
            }
        }
        for &s in &sorted {
            if s < 1 || s > head {
                return Err(format!(
                    "table state's open hand holds seq {s}, outside 1 to its head {head}"));
            }
        }
        let remembered: Vec<i64> = hand_seqs.iter().copied().filter(|&s| s >= hand.forgotten_below).collect();
        if remembered.len() != hand.remembered {
            return Err(format!(
                "table state's open hand remembers {} events, not the {} at or above seq {}",
                hand.remembered, remembered.len(), hand.forgotten_below));
        }
        for s in remembered {
            if t.kept.binary_search_by_key(&s, |k| k.seq).is_ok() {
                return Err(format!(
                    "table state's seq {s} is both in the open hand and the duplicate window"));
            }
            if is_in(&t.missing, s) {
                return Err(format!("table state's seq {s} is both remembered and missing"));
            }
        }
    }
    Ok(())
}

/// Whether `seq` is in one of the ascending, disjoint `ranges`.
fn is_in(ranges: &[(i64, i64)], seq: i64) -> bool {
    let at = ranges.partition_point(|&(first, _)| first <= seq);
    at > 0 && ranges[at - 1].1 >= seq
}
