//! The duplicate window of a table (`TableState`'s side of it): what the table remembers
//! of its recent events (their seqs, ids and hashes, in `kept` and the open hand) and the
//! seqs a gap skipped that have not arrived, and the questions the chain check asks of
//! them (docs/events.md, "Duplicates, late and stale events"; the reference's
//! `services/adjudicator/window.py`).
//!
//! Why a module of its own: it is storage with its own invariants (`kept` in ascending
//! seq, missing ranges ascending and apart; `state_check` refuses an imported state that
//! breaks them), apart from the decisions the chain check (`chain`) makes with it.

use super::*;

impl TableState {
    // ------------------------------------------------------------ the duplicate window

    pub(super) fn remembered_count(&self) -> usize {
        self.kept.len() + self.open_hand.as_ref().map_or(0, |h| h.remembered)
    }

    /// Every remembered event of the open hand, with its id and hash (decodes the hand:
    /// only the rare paths ask).
    pub(super) fn hand_remembered(&self) -> Vec<Remembered> {
        match &self.open_hand {
            Some(hand) => {
                let (events, hashes) = open_hand_events(hand, &self.table_id);
                events
                    .iter()
                    .zip(hashes.iter())
                    .filter(|(e, _)| e.seq >= hand.forgotten_below)
                    .map(|(e, &hash)| Remembered { seq: e.seq, event_id: e.event_id.clone(), hash })
                    .collect()
            }
            None => Vec::new(),
        }
    }

    /// Enter an applied event (`Window.remember`): in seq order, and the lowest seqs go
    /// first past MAX_REMEMBERED_EVENTS.
    pub(super) fn remember(&mut self, seq: i64, event_id: &EventId, hash: [u8; 32]) {
        let count = self.remembered_count();
        let entry = Kept { seq, event_id: event_id.clone(), hash };
        // Grown by a few entries, not doubled: a table's events between hands are a
        // handful, and doubling left a third of every table's window unused.
        store::grow_gently(&mut self.kept, 1, 4);
        let at = match self.kept.last() {
            Some(last) if last.seq >= seq => self.kept.partition_point(|k| k.seq < seq),
            _ => self.kept.len(),
        };
        self.kept.insert(at, entry);
        self.kept_filter.add(event_id.fingerprint());
        if count + 1 > MAX_REMEMBERED_EVENTS {
            let mut seqs: Vec<i64> = self.kept.iter().map(|k| k.seq).collect();
            seqs.extend(self.hand_remembered().iter().map(|r| r.seq));
            seqs.sort_unstable();
            if let Some(&second) = seqs.get(1) {
                self.forget_below(second);
            }
        }
    }

    /// Forget every remembered event and missing seq below `seq`.
    pub(super) fn forget_below(&mut self, seq: i64) {
        let keep = self.kept.partition_point(|k| k.seq < seq);
        self.kept.drain(..keep);
        self.rebuild_kept_filter();
        let table_id = self.table_id.clone();
        if let Some(hand) = self.open_hand.as_mut() {
            if seq > hand.forgotten_below {
                hand.forgotten_below = seq;
                hand.remembered =
                    open_hand_events(hand, &table_id).0.iter().filter(|e| e.seq >= seq).count();
            }
        }
        if self.missing.first().map_or(false, |&(first, _)| first < seq) {
            self.missing.retain(|&(_, last)| last >= seq);
            if let Some(low) = self.missing.first_mut() {
                low.0 = low.0.max(seq);
            }
        }
        self.trim_successors();
    }

    /// The filter of exactly the ids in `kept`.
    pub fn rebuild_kept_filter(&mut self) {
        let mut filter = IdFilter::default();
        for k in &self.kept {
            filter.add(k.event_id.fingerprint());
        }
        self.kept_filter = filter;
    }

    pub(super) fn trim_successors(&mut self) {
        let missing = &self.missing;
        self.successor_prev.retain(|(s, _)| range_at(missing, *s).is_some());
    }

    /// Whether a gap skipped `seq` and it has not arrived (a binary search).
    pub fn is_missing(&self, seq: i64) -> bool {
        range_at(&self.missing, seq).is_some()
    }

    /// Enter ranges, merging any that overlap or touch, then keep the bound
    /// (`Window._add_ranges`).
    pub fn add_missing(&mut self, added: &[(i64, i64)]) {
        let mut all: Vec<(i64, i64)> = self.missing.iter().chain(added).copied().collect();
        all.sort_unstable();
        let mut merged: Vec<(i64, i64)> = Vec::with_capacity(all.len());
        for (first, last) in all {
            match merged.last_mut() {
                Some(top) if first <= top.1.saturating_add(1) => top.1 = top.1.max(last),
                _ => merged.push((first, last)),
            }
        }
        self.missing = merged;
        self.bound_missing();
        self.trim_successors();
    }

    pub(super) fn bound_missing(&mut self) {
        let extra = self.missing.len().saturating_sub(MAX_MISSING_RANGES);
        if extra > 0 {
            self.missing.drain(..extra);
            self.trim_successors();
        }
    }

    pub(super) fn set_successor_prev(&mut self, seq: i64, hash: [u8; 32]) {
        match self.successor_prev.binary_search_by_key(&seq, |(s, _)| *s) {
            Ok(at) => self.successor_prev[at].1 = hash,
            Err(at) => self.successor_prev.insert(at, (seq, hash)),
        }
    }

    pub(super) fn find_id(&self, id: &EventId) -> Option<Remembered> {
        let fingerprint = id.fingerprint();
        if self.kept_filter.may_hold(fingerprint) {
            if let Some(k) = self.kept.iter().find(|k| k.event_id == *id) {
                return Some(Remembered { seq: k.seq, event_id: id.clone(), hash: k.hash });
            }
        }
        let hand = self.open_hand.as_ref()?;
        if !hand.fps.contains(&fingerprint) {
            return None;
        }
        self.hand_remembered().into_iter().find(|r| r.event_id == *id)
    }

    pub(super) fn find_seq(&self, seq: i64) -> Option<Remembered> {
        if seq < 1 {
            return None;
        }
        if let Ok(at) = self.kept.binary_search_by_key(&seq, |k| k.seq) {
            let k = &self.kept[at];
            return Some(Remembered { seq, event_id: k.event_id.clone(), hash: k.hash });
        }
        self.hand_remembered().into_iter().find(|r| r.seq == seq)
    }

    /// A gap: one range whatever its length (`Window.skipped`).
    pub(super) fn skipped(&mut self, first: i64, last: i64, successor_prev: [u8; 32]) {
        self.set_successor_prev(last, successor_prev);
        self.add_missing(&[(first, last)]);
    }

    /// A missing seq arrived: its range is split around it (`Window.arrived_late`).
    pub(super) fn arrived_late(&mut self, seq: i64, prev_hash: [u8; 32]) {
        if let Some(at) = range_at(&self.missing, seq) {
            let (first, last) = self.missing[at];
            let mut parts = Vec::with_capacity(2);
            if first < seq {
                parts.push((first, seq - 1));
            }
            if seq < last {
                parts.push((seq + 1, last));
            }
            self.missing.splice(at..=at, parts);
        }
        self.successor_prev.retain(|(s, _)| *s != seq);
        if let Some(before) = seq.checked_sub(1) {
            if self.is_missing(before) {
                self.set_successor_prev(before, prev_hash);
            }
        }
        self.bound_missing();
    }

    pub(super) fn successor_prev_hash(&self, seq: i64) -> Option<[u8; 32]> {
        self.successor_prev
            .binary_search_by_key(&seq, |(s, _)| *s)
            .ok()
            .map(|at| self.successor_prev[at].1)
    }

    /// A hand starts: the window keeps the previous hand and this one.
    pub(super) fn forget_before_previous_hand(&mut self, started_seq: i64) {
        let previous = self.hand_first_seq;
        if previous != 0 {
            self.forget_below(previous.min(started_seq));
        }
        self.hand_first_seq = started_seq;
    }

    /// The open hand's remembered events go back to the window as it closes.
    pub(super) fn keep_hand_events(&mut self, events: &[DecodedEvent], hashes: &[[u8; 32]],
                        forgotten_below: i64) {
        store::grow_gently(&mut self.kept, events.len(), 4);
        for (event, hash) in events.iter().zip(hashes) {
            if event.seq >= forgotten_below {
                let entry = Kept { seq: event.seq, event_id: event.event_id.clone(), hash: *hash };
                // A hand's events mostly come in seq order: then they go at the end.
                if self.kept.last().map_or(true, |k| k.seq < event.seq) {
                    self.kept.push(entry);
                } else {
                    let at = self.kept.partition_point(|k| k.seq < event.seq);
                    self.kept.insert(at, entry);
                }
                self.kept_filter.add(event.event_id.fingerprint());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The missing seqs as ranges (docs/events.md, the duplicate window): a gap is one
    /// range however long; a late arrival splits its range; forgetting trims ranges; past
    /// MAX_MISSING_RANGES the lowest ranges go; a gap up to 2**53 - 1 neither overflows
    /// nor lists its seqs.
    #[test]
    fn missing_seqs_are_ranges_split_trimmed_and_bounded() {
        let mut t = TableState::new("T1");
        let top = (1i64 << 53) - 1;
        t.skipped(14, top - 1, [7; 32]);
        assert_eq!(t.missing, vec![(14, top - 1)]);
        assert!(t.is_missing(14) && t.is_missing(top - 1) && !t.is_missing(13) && !t.is_missing(top));
        assert_eq!(t.successor_prev_hash(top - 1), Some([7; 32]));
        t.arrived_late(20, [1; 32]);
        assert_eq!(t.missing, vec![(14, 19), (21, top - 1)]);
        assert_eq!(t.successor_prev, vec![(19, [1; 32]), (top - 1, [7; 32])]);
        t.arrived_late(14, [2; 32]);
        t.arrived_late(top - 1, [3; 32]);
        assert_eq!(t.missing, vec![(15, 19), (21, top - 2)]);
        assert_eq!(t.successor_prev, vec![(19, [1; 32]), (top - 2, [3; 32])]);
        t.forget_below(17);
        assert_eq!(t.missing, vec![(17, 19), (21, top - 2)]);
        t.forget_below(20);
        assert_eq!(t.missing, vec![(21, top - 2)]);
        assert_eq!(t.successor_prev, vec![(top - 2, [3; 32])]);
        // Touching or overlapping ranges merge (a state from elsewhere may hold them).
        t.add_missing(&[(5, 9), (10, 12), (top - 3, top + 5)]);
        assert_eq!(t.missing, vec![(5, 12), (21, top + 5)]);
        // 70 gaps of one seq each: the 64 highest stay.
        let mut u = TableState::new("T1");
        for k in 0..70 {
            u.skipped(2 * k + 1, 2 * k + 1, [k as u8; 32]);
        }
        assert_eq!(u.missing.len(), MAX_MISSING_RANGES);
        assert_eq!(u.missing.first(), Some(&(13, 13)));
        assert_eq!(u.successor_prev.len(), 64);
        // Splitting a range past the bound forgets the lowest one.
        u.skipped(200, 210, [9; 32]);
        assert_eq!(u.missing.first(), Some(&(15, 15)));
        u.arrived_late(205, [8; 32]);
        assert_eq!((u.missing.len(), u.missing.first()), (64, Some(&(17, 17))));
        assert_eq!(&u.missing[62..], &[(200, 204), (206, 210)]);
        // Edges of i64 (a hostile carried state): no overflow.
        let mut v = TableState::new("T1");
        v.add_missing(&[(i64::MAX - 1, i64::MAX), (i64::MIN, i64::MIN + 1)]);
        v.arrived_late(i64::MIN, [0; 32]);
        v.arrived_late(i64::MAX, [0; 32]);
        assert_eq!(v.missing, vec![(i64::MIN + 1, i64::MIN + 1), (i64::MAX - 1, i64::MAX - 1)]);
    }

}
