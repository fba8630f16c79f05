//! The module's functions outside the engine: the contract's description of itself
//! (`describe`), one record's intake (`intake`), archived envelopes read back
//! (`archived_envelopes`) and a Kafka batch's CRC (`kafka_batch_crc_ok`).
//!
//! Why a module of its own: each is a stateless call on bytes, apart from the engine's
//! tables.

use super::*;

/// The record of one line of a file, as `lines::next_record` takes it from a buffer.
pub(super) fn record_of_line(line: &[u8]) -> &[u8] {
    let (start, end) = lines::record_span(line);
    &line[start..end]
}

/// (wire name, Python attribute, kind, required)
type FieldDescription = (String, String, String, bool);

/// `describe()`: every event type and struct with its fields, for the schema mirror test.
#[pyfunction]
pub(super) fn describe() -> Vec<(String, Vec<FieldDescription>)> {
    let mut out = Vec::new();
    for t in EVENT_TYPES.iter() {
        out.push((format!("event:{}:{}:{}", t.tag, t.class, t.body.class), Vec::new()));
    }
    for s in schema::all_structs() {
        let fields = s
            .fields
            .iter()
            .map(|f| (f.json.to_string(), f.py.to_string(), schema::describe_kind(&f.kind), f.required))
            .collect();
        out.push((format!("struct:{}", s.class), fields));
    }
    out
}

/// Canonical JSON and hash of one record, for the differential tests (None: rejected).
#[pyfunction]
pub(super) fn intake(py: Python<'_>, raw: &[u8]) -> Option<IntakeResult> {
    let tree = crate::intake::parse(raw)?;
    let mut scratch = Vec::new();
    match crate::intake::accept(&tree, &mut scratch) {
        crate::intake::Intake::Accepted { hash, deferred, .. } => {
            Some((crate::canonical::hex(&hash), deferred, PyBytes::new(py, &scratch).into_any().unbind()))
        }
        crate::intake::Intake::Rejected => None,
    }
}

/// An archived event's envelope as `pitwatch verify` reads it: `(seq, event_id,
/// prev_hash, hash, ts, table_id, hand_id, refused)`, `hash` the SHA-256 of the line as
/// stored, `refused` whether its segment lists its position as refused.
type ArchivedEnvelope = (i64, String, String, String, String, String, Option<String>, bool);

/// `archived_envelopes(lines, refused)`: for `pitwatch verify`, each archived line's
/// envelope (`ArchivedEnvelope`; `refused`: the positions its segment lists), or None
/// where the one pass (`fast::take`) does not take the line.
/// A line it takes is one JSON object holding every member of the envelope once, its
/// strings plain ASCII (no escape) and `seq` an integer of at most 18 digits, so Python's
/// JSON reader reads it to these same values; the Python reader decides every other
/// line (`services/archive/verify.py`, `read_event`). Why here: reading each of years of
/// archived events in Python was most of verify's time.
#[pyfunction]
pub(super) fn archived_envelopes(lines: &Bound<'_, PyList>, mut refused: Vec<i64>)
                      -> PyResult<Vec<Option<ArchivedEnvelope>>> {
    refused.sort_unstable(); // looked up per line: a hostile segment may list thousands
    let (mut canon, mut body) = (Vec::new(), Vec::new());
    let mut out = Vec::with_capacity(lines.len());
    for (i, item) in lines.iter().enumerate() {
        let raw = item.downcast::<PyBytes>()?.as_bytes();
        let was_refused = i64::try_from(i).map_or(false, |i| refused.binary_search(&i).is_ok());
        out.push(crate::fast::take(raw, &mut canon, &mut body).map(|e| {
            (e.seq, e.event_id.to_string(), crate::canonical::hex(&e.prev_hash),
             crate::canonical::hex(&crate::canonical::sha256(raw)), e.ts.to_string(),
             e.table_id.to_string(), e.hand_id.map(str::to_string), was_refused)
        }));
    }
    Ok(out)
}

/// `kafka_batch_crc_ok(buf, start, end)`: whether the v2 record batch at
/// `buf[start:end]` holds the right CRC-32C (`kafka::crc_ok`); a range outside `buf` is
/// a `ValueError`.
#[pyfunction]
pub(super) fn kafka_batch_crc_ok(buf: &[u8], start: usize, end: usize) -> PyResult<bool> {
    let batch = buf.get(start..end).ok_or_else(|| PyValueError::new_err(format!(
        "kafka_batch_crc_ok: bytes {}..{} lie outside the buffer of {}", start, end, buf.len())))?;
    Ok(kafka::crc_ok(batch))
}
