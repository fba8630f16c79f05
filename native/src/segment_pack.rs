//! An archive segment's stored parts, packed in the core: what
//! `services/archive/segment.py` `pack_parts` / `pack` make of a segment's events with the
//! `raw` codec (the body not compressed yet), with the same columns and the same split.
//!
//! Why here: a hand's segment is ~75 events, and handing each to Python as bytes and a
//! tuple, then a named tuple, then joining them again cost about 120 µs a hand of the
//! worker's ~420 (measured, 800 HCF hands): a third of the hot path spent moving the
//! archive's copy. The core has every event's canonical bytes at hand; one body and one
//! small tuple a part cross instead. `services.adjudicator.segments.Segment` still gives
//! the events (read back from the body) to whoever asks, and the differential tests
//! compare both engines' segments, events and packed bytes alike.

use crate::canonical::{hex, sha256};
use crate::table::ArchEvent;

/// Canonical bytes per stored part (`MAX_PART_BYTES` of the Python reference).
pub const MAX_PART_BYTES: usize = 900_000;
/// Between two canonical events in a body (canonical JSON never holds a raw newline).
const SEPARATOR: u8 = b'\n';

/// One stored part of a segment, its columns as `pack` derives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackedPart {
    /// Position of the part's first event in the segment (added to its ordinal).
    pub offset: usize,
    /// `YYYY-MM-DD` of the accepted event with the highest seq, else of the last event.
    pub day: String,
    pub first_seq: Option<i64>,
    pub last_seq: Option<i64>,
    pub events: usize,
    /// Positions within the part of the events the chain check refused.
    pub refused: Vec<usize>,
    pub first_prev_hash: Option<String>,
    pub last_hash: Option<String>,
    pub first_ts: String,
    pub last_ts: String,
    pub body: Vec<u8>,
}

/// The parts of a segment: consecutive runs of at most `MAX_PART_BYTES` canonical bytes,
/// each at least one event (`pack_parts`). None for a segment without events, which the
/// reference cannot pack either (its caller never makes one).
pub fn pack_parts(events: &[ArchEvent]) -> Option<Vec<PackedPart>> {
    if events.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    let (mut start, mut size) = (0, 0);
    for (i, event) in events.iter().enumerate() {
        if i > start && size + event.canonical.len() > MAX_PART_BYTES {
            parts.push(pack(&events[start..i], start));
            start = i;
            size = 0;
        }
        size += event.canonical.len();
    }
    parts.push(pack(&events[start..], start));
    Some(parts)
}

/// One part (`pack`): the accepted events with the lowest and the highest seq (the first
/// of equals, as the reference's strict comparisons pick), the columns, the joined body.
fn pack(events: &[ArchEvent], offset: usize) -> PackedPart {
    let mut lowest: Option<&ArchEvent> = None;
    let mut highest: Option<&ArchEvent> = None;
    for event in events.iter().filter(|e| !e.refused) {
        // `match`, not `map_or`: clippy's advice for it needs a newer std than Debian's.
        if match lowest { None => true, Some(l) => event.seq < l.seq } {
            lowest = Some(event);
        }
        if match highest { None => true, Some(h) => event.seq > h.seq } {
            highest = Some(event);
        }
    }
    let last = &events[events.len() - 1];
    let body_len = events.iter().map(|e| e.canonical.len() + 1).sum::<usize>();
    let mut body = Vec::with_capacity(body_len);
    for (i, event) in events.iter().enumerate() {
        if i > 0 {
            body.push(SEPARATOR);
        }
        body.extend_from_slice(&event.canonical);
    }
    PackedPart {
        offset,
        day: highest.unwrap_or(last).ts.chars().take(10).collect(),
        first_seq: lowest.map(|e| e.seq),
        last_seq: highest.map(|e| e.seq),
        events: events.len(),
        refused: events.iter().enumerate().filter(|(_, e)| e.refused).map(|(i, _)| i).collect(),
        first_prev_hash: lowest.map(|e| e.prev_hash.clone()),
        last_hash: highest.map(|e| hex(&sha256(&e.canonical))),
        first_ts: events[0].ts.clone(),
        last_ts: last.ts.clone(),
        body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(seq: i64, ts: &str, size: usize, refused: bool) -> ArchEvent {
        let mut canonical = format!("{{\"seq\":{seq}}}").into_bytes();
        canonical.resize(size.max(canonical.len()), b' ');
        ArchEvent { canonical, seq, ts: ts.to_string(), prev_hash: format!("p{seq}"), refused }
    }

    #[test]
    fn columns_skip_refused_events_and_take_the_first_of_equal_seqs() {
        let events = [event(7, "2026-01-02T00:00:00Z", 0, true),
                      event(3, "2026-01-01T10:00:00Z", 0, false),
                      event(3, "2026-01-01T11:00:00Z", 0, false),
                      event(5, "2026-01-03T09:00:00Z", 0, false),
                      event(9, "2026-01-04T00:00:00Z", 0, true)];
        let parts = pack_parts(&events).expect("events");
        assert_eq!(parts.len(), 1);
        let p = &parts[0];
        assert_eq!((p.first_seq, p.last_seq, p.events), (Some(3), Some(5), 5));
        assert_eq!(p.refused, vec![0, 4]);
        assert_eq!(p.first_prev_hash.as_deref(), Some("p3"));
        assert_eq!(p.day, "2026-01-03");
        assert_eq!((p.first_ts.as_str(), p.last_ts.as_str()),
                   ("2026-01-02T00:00:00Z", "2026-01-04T00:00:00Z"));
        assert_eq!(p.last_hash, Some(hex(&sha256(&events[3].canonical))));
        let lines: Vec<&[u8]> = p.body.split(|b| *b == b'\n').collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[1], events[1].canonical.as_slice());
    }

    #[test]
    fn all_refused_dates_by_the_last_event_and_has_no_seqs() {
        let events = [event(4, "2026-02-01T00:00:00Z", 0, true),
                      event(2, "2026-02-02T00:00:00Z", 0, true)];
        let p = &pack_parts(&events).expect("events")[0];
        assert_eq!((p.first_seq, p.last_seq, p.first_prev_hash.clone(), p.last_hash.clone()),
                   (None, None, None, None));
        assert_eq!(p.day, "2026-02-02");
    }

    #[test]
    fn parts_split_before_the_event_that_would_pass_the_bound() {
        let big = MAX_PART_BYTES / 2;
        let events = [event(1, "2026-01-01T00:00:00Z", big, false),
                      event(2, "2026-01-01T00:00:01Z", big, false),
                      event(3, "2026-01-01T00:00:02Z", 1, false),
                      event(4, "2026-01-01T00:00:03Z", MAX_PART_BYTES + 5, false)];
        let parts = pack_parts(&events).expect("events");
        assert_eq!(parts.iter().map(|p| (p.offset, p.events)).collect::<Vec<_>>(),
                   vec![(0, 2), (2, 1), (3, 1)]);
        assert!(pack_parts(&[]).is_none());
    }
}
