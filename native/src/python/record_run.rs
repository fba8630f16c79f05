//! A run of records the core's rules made (`Engine.feed_log` with `runs`): their JSON
//! lines one after the other, with what a run's summary counts of them (hands, hands by
//! status, findings by rule, code and severity).
//!
//! Why a module of its own: with the core's rules, the records of a log go to Python as
//! one buffer a run, not an object each; this is that buffer and its counts.

use super::*;

/// (records' bytes, hands, hands by status, findings by (rule, code, severity)).
pub(super) type RunTuple<'py> = (Bound<'py, PyBytes>, u64, Vec<(&'static str, u64)>,
                      Vec<((&'static str, &'static str, &'static str), u64)>);

/// Records the core's rules made, one after the other, with what a summary counts of
/// them (`feed_log` with `runs`).
#[derive(Default)]
pub(super) struct RecordRun {
    json: Vec<u8>,
    hands: u64,
    status: HashMap<&'static str, u64>,
    findings: HashMap<(&'static str, &'static str, &'static str), u64>,
}

impl RecordRun {
    /// An empty run writing into `json` (a buffer kept with its capacity between calls;
    /// emptied here).
    pub(super) fn with_buffer(mut json: Vec<u8>) -> Self {
        json.clear();
        RecordRun { json, ..RecordRun::default() }
    }

    pub(super) fn add(&mut self, record: &Record) {
        crate::rules::record::encode_into(record, &mut self.json);
        self.json.push(b'\n');
        self.hands += 1;
        *self.status.entry(record.status).or_insert(0) += 1;
        for f in &record.findings {
            *self.findings.entry((f.rule, f.code, f.severity.name())).or_insert(0) += 1;
        }
    }

    /// The run as `feed_log` returns it; its buffer is left empty (with its capacity) for
    /// the next.
    pub(super) fn into_tuple(mut self, py: Python<'_>) -> (PyResult<Option<RunTuple<'_>>>, Vec<u8>) {
        if self.hands == 0 {
            self.json.clear();
            return (Ok(None), self.json);
        }
        let mut status: Vec<_> = self.status.into_iter().collect();
        status.sort_unstable();
        let mut findings: Vec<_> = self.findings.into_iter().collect();
        findings.sort_unstable();
        let bytes = PyBytes::new(py, &self.json);
        self.json.clear();
        (Ok(Some((bytes, self.hands, status, findings))), self.json)
    }
}
