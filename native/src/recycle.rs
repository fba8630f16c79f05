//! The members lists of closed hands' event bodies, kept for the next hands to reuse.
//!
//! Why: every event of a hand that closes has its body as a `Value::Object`, whose list
//! of members is one allocation, and a whole hand's lists were freed at once when its
//! adjudication was done. glibc's allocator keeps only a few freed blocks of a size at
//! hand, so most of the next hand's lists came from its slow path: allocating and freeing
//! them was a tenth of the core's time. The core (`Core::lists`) keeps a closed hand's
//! lists emptied, at most `KEPT` of them, and the next bodies are read into them. Owned
//! by the core and passed down, not a thread-local: reaching a thread-local from the
//! extension module cost a call per body.

use crate::json::Value;
use crate::table::DecodedEvent;
use std::borrow::Cow;

pub type Members = Vec<(Cow<'static, str>, Value<'static>)>;

/// Enough for some fifty hands' lists between one hand's close and the next hands'
/// events (a hand gives back about as many as the next one takes); beyond, lists are
/// freed as before, so an idle core holds at most about a megabyte here.
const KEPT: usize = 4_096;

#[derive(Default)]
pub struct Lists {
    kept: Vec<Members>,
}

impl Lists {
    /// An empty members list with room for `fields`: a kept one when there is one.
    pub fn take(&mut self, fields: usize) -> Members {
        match self.kept.pop() {
            Some(mut list) => {
                list.reserve(fields);
                list
            }
            None => Vec::with_capacity(fields),
        }
    }

    /// Keep the members lists of a hand's events (emptied: what they held is freed).
    pub fn keep_lists_of(&mut self, events: Vec<DecodedEvent>) {
        for event in events {
            if self.kept.len() >= KEPT {
                break;
            }
            if let Value::Object(mut list) = event.data {
                list.clear();
                self.kept.push(list);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_list_comes_back_empty_with_its_room() {
        let body = Value::Object(vec![(Cow::Borrowed("seat"), Value::Int(1)); 6]);
        let event = DecodedEvent {
            type_index: 0, seq: 1, event_id: crate::ids::EventId::parse("x"),
            ts: "2026-01-05T18:00:00Z".into(), prev_hash: [0; 32], prev_newline: false,
            table_id: None, hand_id: None, source: None, data: body,
        };
        let mut lists = Lists::default();
        lists.keep_lists_of(vec![event]);
        let list = lists.take(2);
        assert!(list.is_empty());
        assert!(list.capacity() >= 6);
        assert!(lists.take(3).capacity() >= 3);
    }
}
