//! The hash-chain and `seq` checks of a table's events (SURV-9): duplicate, conflicting,
//! gapped, reordered and stale events, and the findings and alerts they give (the
//! reference's `check_chain` in `services/adjudicator/table.py`, word for word).
//!
//! Why a module of its own: these are the chain rule's decisions, made before an event is
//! applied; the window (`window`) only stores what they ask about.

use super::*;

impl TableState {
    // ------------------------------------------------------------ chain (SURV-9)

    pub(super) fn report(&mut self, out: &mut Vec<Output>, env: &Envelope<'_>, f: Finding) {
        out.push(Output::Alert(Alert {
            code: f.code,
            rule: f.rule,
            severity: f.severity,
            message: f.message.clone(),
            seq: env.seq,
            event_id: env.event_id.to_string(),
            hand_id: env.hand_id.map(str::to_string),
        }));
        let takes = match &self.open_hand {
            Some(hand) => env.hand_id.map_or(true, |h| h == hand.hand_id),
            None => false,
        };
        if takes {
            if let Some(hand) = self.open_hand.as_mut() {
                hand.findings.push(f);
            }
            self.check_hand_size(out);
        } else if f.severity == Severity::Critical {
            if self.held.len() < MAX_HELD_FINDINGS {
                let mut held = f.clone();
                held.message = format!("outside any hand, before this one started: {}", f.message);
                self.held.push(held);
            }
            out.push(Output::OutsideHand(f));
        }
    }

    /// A hand holds at most MAX_HAND_EVENTS events and findings together.
    pub(super) fn check_hand_size(&mut self, out: &mut Vec<Output>) {
        if self.open_hand.as_ref().map_or(false, |h| h.count + h.findings.len() > MAX_HAND_EVENTS) {
            let why = format!("hand exceeded {} events and findings", MAX_HAND_EVENTS);
            self.close_incomplete(out, &why);
        }
    }

    /// An alert that is no finding of any hand (the event is not applied).
    pub(super) fn info_alert(&self, out: &mut Vec<Output>, env: &Envelope<'_>, code: &'static str,
                  severity: Severity, message: String) {
        out.push(Output::Alert(Alert {
            code,
            rule: "SURV-9",
            severity,
            message,
            seq: env.seq,
            event_id: env.event_id.to_string(),
            hand_id: env.hand_id.map(str::to_string),
        }));
    }

    pub(super) fn advance(&mut self, env: &Envelope<'_>, hash: [u8; 32]) {
        self.last_seq = env.seq;
        self.last_hash = hash;
        self.remember(env.seq, &env.id, hash);
    }

    /// `check_chain` (docs/events.md, "Duplicates, late and stale events": the first rule
    /// that matches decides); false: the event is not applied.
    pub(super) fn check_chain(&mut self, env: &Envelope<'_>, hash: [u8; 32], out: &mut Vec<Output>) -> bool {
        if let Some(seen) = self.find_id(&env.id) {
            if seen.hash == hash {
                let message = format!(
                    "event {} (seq {}) delivered again with the same body; ignored",
                    env.event_id, env.seq
                );
                self.info_alert(out, env, "DUPLICATE_EVENT", Severity::Info, message);
            } else {
                let message = format!(
                    "event_id {} repeated with a different body (first at seq {}, now seq {}): \
                     an event was altered after it was sent",
                    env.event_id, seen.seq, env.seq
                );
                self.report(out, env, chain_finding("EVENT_ID_CONFLICT", Severity::Critical, message));
            }
            return false;
        }
        if env.seq == self.last_seq + 1 {
            if !env.prev_hash_is(&self.last_hash) {
                let message = format!(
                    "seq {} says the previous event hashed to {}…, but seq {} as received hashes \
                     to {}…: seq {} was altered (or this event's prev_hash was)",
                    env.seq,
                    short(&env.prev_hash),
                    self.last_seq,
                    short(&self.last_hash),
                    self.last_seq
                );
                self.report(out, env, chain_finding("CHAIN_BROKEN", Severity::Critical, message));
            }
            self.advance(env, hash);
            return true;
        }
        if env.seq > self.last_seq + 1 {
            let (first, last) = (self.last_seq + 1, env.seq - 1);
            let message = format!(
                "seq jumped from {} to {}: {} event(s) missing ({})",
                self.last_seq,
                env.seq,
                last - first + 1,
                span(first, last)
            );
            self.report(out, env, chain_finding("SEQ_GAP", Severity::Critical, message));
            self.skipped(first, last, env.prev_hash);
            self.advance(env, hash);
            return true;
        }
        self.late_arrival(env, hash, out)
    }

    pub(super) fn late_arrival(&mut self, env: &Envelope<'_>, hash: [u8; 32], out: &mut Vec<Output>) -> bool {
        if let Some(taken) = self.find_seq(env.seq) {
            let message = format!(
                "a different event (id {}) claims seq {}, already taken at this table by event \
                 {} (head is seq {}): a replayed or forged event",
                env.event_id, env.seq, taken.event_id, self.last_seq
            );
            self.report(out, env, chain_finding("SEQ_CONFLICT", Severity::Critical, message));
            return false;
        }
        if !self.is_missing(env.seq) {
            let message = format!(
                "seq {} (event {}) is older than the events this table still remembers (head is \
                 seq {}): it cannot be compared with the event first received at that seq, so it \
                 is not applied and no hand changes (a late redelivery, or a replayed event)",
                env.seq, env.event_id, self.last_seq
            );
            self.info_alert(out, env, "STALE_EVENT", Severity::Warning, message);
            return false;
        }
        let message =
            format!("seq {} arrived after seq {}: events were re-ordered", env.seq, self.last_seq);
        self.report(out, env, chain_finding("REORDERED", Severity::Warning, message));
        let before = self.find_seq(env.seq - 1).map(|r| r.hash);
        let after_prev = self.successor_prev_hash(env.seq);
        if before.map_or(false, |h| !env.prev_hash_is(&h)) || after_prev.map_or(false, |p| p != hash) {
            let message = format!("late seq {} does not fit the hash chain around it", env.seq);
            self.report(out, env, chain_finding("CHAIN_BROKEN", Severity::Critical, message));
        }
        self.remember(env.seq, &env.id, hash);
        self.arrived_late(env.seq, env.prev_hash);
        true
    }
}
