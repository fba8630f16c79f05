//! The PyO3 binding: `services._native.Engine`.
//!
//! What crosses into Python: per record with an outcome, a list of plain tuples (alerts,
//! DLQ reasons, hands that cannot be adjudicated) and, when a hand closes, the hand's
//! events already built as the contract's msgspec structs plus its table context as
//! tuples (`services/adjudicator/engine.py` assembles `HandInput`). Feeding stops after a
//! record that closed a hand, so Python adjudicates it and `settle`s the stacks before
//! the table's next event is applied.
//!
//! A panic while a record is processed is caught here and becomes a DLQ outcome for that
//! record with the panic's message; it never unwinds into Python or aborts the process.
//!
//! Here: the engine and what it is fed (records, lines, buffers, log files, Kafka
//! batches) and its tables' states. Its parts, each a concept of its own: `convert` (the
//! Python objects it hands over), `record_run` (a run of the rules' records as one
//! buffer), `profiles` (rule profiles read from Python), `logfile` (`LogFile`) and
//! `functions` (the module's stateless functions).

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::json::Value;
use crate::schema::{self, Kind, StructSchema, EVENT_TYPES};
use crate::rules::record::{Record, Side};
use crate::table::{self, ClosedHand, Finding, Output, Severity};
use crate::{kafka, lines, segment_pack, state, Core, Processed};

mod convert;
mod functions;
mod logfile;
mod profiles;
mod record_run;

use functions::record_of_line;
pub use logfile::LogFile;
use logfile::os_error;
use record_run::{RecordRun, RunTuple};
use convert::static_text;
use profiles::{chinese_profile, draw7a_profile, gen_profile, hcf_profile, holdem_profile,
               russian_profile};

/// How a `ValueError` for a record batch the core does not read begins (the worker names
/// the batch's place and stops: nothing of the batch was fed).
const MALFORMED_BATCH: &str = "malformed record batch: ";

/// A Kafka record with an outcome, as `feed_kafka_batch` hands it over.
fn kafka_step<'py>(py: Python<'py>, record: &kafka::Record<'_>, table_id: Option<String>,
                   outputs: Option<Bound<'py, PyList>>) -> PyResult<KafkaStep<'py>> {
    // Read once already (`kafka::Batch::check`): this cannot fail on a batch fed.
    let headers = kafka::headers(record.headers, record.header_count).map_err(PyValueError::new_err)?;
    let headers = PyList::new(py, headers.iter().map(|(name, value)| {
        (*name, value.map(|v| PyBytes::new(py, v)))
    }))?;
    Ok((record.offset, record.key.map(|k| PyBytes::new(py, k)), record.value.map(|v| PyBytes::new(py, v)),
        headers, table_id, outputs))
}

#[pyclass(module = "services._native", unsendable)]
pub struct Engine {
    core: Core,
    /// Python class of every struct schema, by class name, with the names of all its
    /// fields in schema order (the keywords of every call that builds one).
    classes: HashMap<&'static str, (Py<PyAny>, Py<PyTuple>)>,
    /// The envelope's keywords (`v`, `event_id`, ... `data`).
    envelope_names: Py<PyTuple>,
    /// The 52 card names as Python strings, in `store`'s card order.
    cards: Vec<Py<PyString>>,
    /// `reference(raw) -> None | (reason, table_id)`: the Python reference's verdict.
    reference: Py<PyAny>,
    /// Tests only: panic while processing the record whose bytes equal this.
    panic_on: Option<Vec<u8>>,
    /// Hand a record the core's rules made over as its bytes (`encode_record`'s) with
    /// what a summary counts, not as the contract's structs (`encode_records`).
    encoded_records: bool,
    /// `feed_log`'s buffer of records' bytes, kept with its capacity between calls (made
    /// anew, it grew by doubling to a call's few hundred kB, in fresh pages, every call).
    run_json: Vec<u8>,
}

fn severity(py: Python<'_>, s: Severity) -> PyObject {
    match s {
        Severity::CashInPlayProfile => py.None(),
        other => PyString::intern(py, other.name()).into_any().unbind(),
    }
}

fn findings_list<'py>(py: Python<'py>, findings: &[Finding]) -> PyResult<Bound<'py, PyList>> {
    let items: Vec<PyObject> = findings
        .iter()
        .map(|f| {
            (f.code, f.rule, severity(py, f.severity), f.message.as_str())
                .into_pyobject(py)
                .map(|t| t.into_any().unbind())
        })
        .collect::<PyResult<_>>()?;
    PyList::new(py, items)
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// (table_configured body as JSON or None, authorised, previous designated seat, offers,
/// dealer id): what the core's rules read of a hand's table context.
/// (config JSON, authorised, previous designated, offers, dealer id, new seats, hands
/// played, buys as (seat, kind, amount, seq, since the previous hand)).
type HandContext = (Option<Vec<u8>>, bool, Option<i64>, Vec<(i64, bool)>, Option<String>, Vec<i64>, i64,
                    Vec<(i64, String, i64, i64, bool)>);

/// The record's structs (`services.events.contract`) with the keywords the core passes,
/// in the order `Engine::record` gives the values.
const RECORD_STRUCTS: [(&str, &[&str]); 4] = [
    ("SideResult", &["net", "rake"]),
    ("Finding", &["code", "rule", "severity", "seat", "amount", "message"]),
    ("Movement", &["event_id", "seq", "from_", "to", "amount", "kind"]),
    ("AdjudicationRecord", &[
        "v", "table_id", "hand_id", "game", "status", "rule_profile", "expected", "recorded", "findings",
        "players", "dealer_id", "rake_mode", "ended_at", "first_seq", "last_seq", "last_hash", "movements",
    ]),
];

type Step<'py> = (usize, Option<String>, Bound<'py, PyList>);
/// (line number, table id, outputs, the record's start and end): `Engine::feed_buffer`'s step.
type BufferStep<'py> = (u64, Option<String>, Bound<'py, PyList>, usize, usize);
/// (line number, table id, outputs, the record's bytes): `Engine::feed_log`'s step.
type LogStep<'py> = (u64, Option<String>, Bound<'py, PyList>, Bound<'py, PyBytes>);
/// (table id, outputs, whether a hand closed)
type Outcome<'py> = (Option<String>, Bound<'py, PyList>, bool);
/// A Kafka record with an outcome: (offset, key, value, headers, table_id, outputs; None:
/// the record has no value).
type KafkaStep<'py> = (i64, Option<Bound<'py, PyBytes>>, Option<Bound<'py, PyBytes>>,
                       Bound<'py, PyList>, Option<String>, Option<Bound<'py, PyList>>);
/// (where to resume: byte position in the batch's records, None at its end), the steps,
/// the last offset fed per table, records replayed, records read.
type KafkaFed<'py> = (Option<usize>, Vec<KafkaStep<'py>>, Bound<'py, PyDict>, usize, usize);
/// Per Kafka record key: the table it names (None: not UTF-8, or no key) and that
/// table's applied offset.
type KeyTables<'b> = HashMap<Option<&'b [u8]>, (Option<String>, Option<i64>)>;
/// (hash, deferred, canonical JSON)
type IntakeResult = (String, bool, PyObject);

impl Engine {
    /// One record: `None` (nothing to report) or `(table_id, outputs)`; a rejected record
    /// gives `(table_id_or_None, [("dlq", reason)])` with the reference's wording.
    fn one<'py>(&mut self, py: Python<'py>, raw: &[u8]) -> PyResult<Option<Outcome<'py>>> {
        self.one_keyed(py, raw, None, None)
    }

    fn one_keyed<'py>(&mut self, py: Python<'py>, raw: &[u8], key: Option<&[u8]>,
                      sink: Option<&mut RecordRun>) -> PyResult<Option<Outcome<'py>>> {
        let reference = self.reference.clone_ref(py);
        let mut ask_error: Option<PyErr> = None;
        let panic_here = self.panic_on.as_deref() == Some(raw);
        let core = &mut self.core;
        let processed = catch_unwind(AssertUnwindSafe(|| {
            if panic_here {
                panic!("injected panic (tests)");
            }
            core.process_keyed(raw, key, &mut |record: &[u8]| {
                match reference.call1(py, (PyBytes::new(py, record),)) {
                    Ok(verdict) => verdict.is_none(py),
                    Err(e) => {
                        ask_error = Some(e);
                        false
                    }
                }
            })
        }));
        if let Some(e) = ask_error {
            return Err(e);
        }
        let processed = match processed {
            Ok(p) => p,
            Err(payload) => {
                let reason = format!(
                    "pitwatch's native core failed on this record ({}); the record is kept here \
                     for review and the table's state may need a replay",
                    panic_message(payload.as_ref())
                );
                let list = PyList::new(py, [("dlq", reason)])?;
                return Ok(Some((None, list, false)));
            }
        };
        match processed {
            Processed::Rejected | Processed::RejectedByReference => {
                let verdict = reference.call1(py, (PyBytes::new(py, raw),))?;
                let (reason, table_id): (String, Option<String>) = if verdict.is_none(py) {
                    (
                        "the native intake rejected a record that the Python reference accepts \
                         (a pitwatch bug: please report it with this record)"
                            .to_string(),
                        None,
                    )
                } else {
                    verdict.extract(py)?
                };
                let list = PyList::new(py, [("dlq", reason)])?;
                Ok(Some((table_id, list, false)))
            }
            Processed::WrongKey { table_id } => {
                let list = PyList::new(py, [("wrong_key", table_id.clone())])?;
                Ok(Some((Some(table_id), list, false)))
            }
            Processed::Applied { table_id, outputs } => {
                if outputs.is_empty() {
                    return Ok(None);
                }
                if let (Some(sink), [Output::Adjudicated { record, hand: None }]) = (sink, outputs.as_slice()) {
                    if self.encoded_records {
                        sink.add(record);
                        return Ok(None);
                    }
                }
                let closed = outputs.iter().any(|o| matches!(o, Output::Closed(_)));
                let list = self.outputs(py, &table_id, &outputs)?;
                Ok(Some((Some(table_id), list, closed)))
            }
        }
    }
}

impl Engine {
    /// The records of `data` from `pos` (the line there numbered `line`), one at a time,
    /// until a step that closed a hand, or with `sink` (records in runs) until any step:
    /// the steps as (line number, table id, outputs, start, end), and the position and
    /// line number to go on from (blank lines left at the end counted, so that the next
    /// buffer's lines are numbered as the file's). `feed_buffer` and `feed_log`.
    fn take_lines<'py>(&mut self, py: Python<'py>, data: &[u8], mut pos: usize, mut line: u64,
                       mut sink: Option<&mut RecordRun>)
                       -> PyResult<((usize, u64), Vec<BufferStep<'py>>)> {
        let mut steps = Vec::new();
        while let Some((start, end, number, next)) = lines::next_record(data, pos, line) {
            pos = next;
            line = number + 1;
            let runs = sink.is_some();
            if let Some((table_id, list, closed)) = self.one_keyed(py, &data[start..end], None, sink.as_deref_mut())? {
                steps.push((number, table_id, list, start, end));
                if closed || runs {
                    break;
                }
            }
        }
        if lines::next_record(data, pos, line).is_none() {
            line += data[pos..].iter().filter(|&&b| b == b'\n').count() as u64;
            pos = data.len();
        }
        Ok(((pos, line), steps))
    }
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (classes, reference, archive=false))]
    fn new(classes: &Bound<'_, PyDict>, reference: Py<PyAny>, archive: bool) -> PyResult<Self> {
        let py = classes.py();
        let lookup = |name: &str| {
            classes.get_item(name)?.ok_or_else(|| {
                PyValueError::new_err(format!("classes lacks the contract struct {}", name))
            })
        };
        let mut found = HashMap::new();
        for s in schema::all_structs() {
            let names: Vec<&str> = s.fields.iter().map(|f| f.py).collect();
            let names = PyTuple::new(py, names.iter().map(|n| PyString::intern(py, n)))?;
            found.insert(s.class, (lookup(s.class)?.unbind(), names.unbind()));
        }
        let envelope = ["v", "event_id", "table_id", "seq", "ts", "prev_hash", "hand_id", "source", "data"];
        let envelope_names = PyTuple::new(py, envelope.iter().map(|n| PyString::intern(py, n)))?;
        for t in EVENT_TYPES.iter() {
            found.insert(t.class, (lookup(t.class)?.unbind(), envelope_names.clone().unbind()));
        }
        for (class, fields) in RECORD_STRUCTS {
            let names = PyTuple::new(py, fields.iter().map(|n| PyString::intern(py, n)))?;
            found.insert(class, (lookup(class)?.unbind(), names.unbind()));
        }
        let cards = crate::store::CARD_NAMES.iter().map(|c| PyString::intern(py, c).unbind()).collect();
        let mut core = Core::new();
        core.archive = archive;
        Ok(Engine {
            core,
            classes: found,
            envelope_names: envelope_names.unbind(),
            cards,
            reference,
            panic_on: None,
            encoded_records: false,
            run_json: Vec::new(),
        })
    }

    /// One record: `None` or `(table_id, outputs)`.
    fn feed<'py>(&mut self, py: Python<'py>, raw: &[u8]) -> PyResult<Option<(Option<String>, Bound<'py, PyList>)>> {
        Ok(self.one(py, raw)?.map(|(t, list, _)| (t, list)))
    }

    /// One Kafka record that must belong to the table `key` names: `None`, or
    /// `(table_id, outputs)`; a valid record of another table is not applied and gives
    /// `(its table_id, [("wrong_key", its table_id)])`.
    fn feed_keyed<'py>(&mut self, py: Python<'py>, raw: &[u8], key: &[u8]) -> PyResult<Option<(Option<String>, Bound<'py, PyList>)>> {
        Ok(self.one_keyed(py, raw, Some(key), None)?.map(|(t, list, _)| (t, list)))
    }

    /// Records `items[start:]` (with `strip`, lines of a file: each line's record as
    /// `lines::record_span` takes it, blank ones skipped), until the end or a record that
    /// closed a hand. Returns the index to go on from and `(index, table_id, outputs)` of
    /// each record that had any.
    fn feed_many<'py>(&mut self, py: Python<'py>, items: &Bound<'py, PyList>, start: usize, strip: bool) -> PyResult<(usize, Vec<Step<'py>>)> {
        let mut steps = Vec::new();
        let mut index = start;
        let n = items.len();
        while index < n {
            let item = items.get_item(index)?;
            let bytes = item.downcast::<PyBytes>()?;
            let raw = bytes.as_bytes();
            let raw = if strip { record_of_line(raw) } else { raw };
            let at = index;
            index += 1;
            if strip && raw.is_empty() {
                continue;
            }
            if let Some((table_id, list, closed)) = self.one(py, raw)? {
                steps.push((at, table_id, list));
                if closed {
                    break;
                }
            }
        }
        Ok((index, steps))
    }

    /// Kafka records `values[start:]`, each of the table its `keys[i]` names (a key of
    /// `None` names no table), until the end or a record that closed a hand: as
    /// `feed_many` with each record fed as `feed_keyed` feeds one. Returns the index to go
    /// on from and `(index, table_id, outputs)` of each record that had any.
    fn feed_many_keyed<'py>(&mut self, py: Python<'py>, values: &Bound<'py, PyList>, keys: &Bound<'py, PyList>, start: usize) -> PyResult<(usize, Vec<Step<'py>>)> {
        let mut steps = Vec::new();
        let mut index = start;
        let n = values.len();
        if keys.len() != n {
            return Err(PyValueError::new_err("values and keys differ in length"));
        }
        while index < n {
            let value = values.get_item(index)?;
            let raw = value.downcast::<PyBytes>()?.as_bytes();
            let key_item = keys.get_item(index)?;
            let key: &[u8] = if key_item.is_none() { b"" } else { key_item.downcast::<PyBytes>()?.as_bytes() };
            let at = index;
            index += 1;
            if let Some((table_id, list, closed)) = self.one_keyed(py, raw, Some(key), None)? {
                steps.push((at, table_id, list));
                if closed {
                    break;
                }
            }
        }
        Ok((index, steps))
    }

    /// The records of one Kafka record batch, `buf[start:end]` (format 2, uncompressed:
    /// what `kafka::Batch` reads; aiokafka has checked its CRC), each of the table its key
    /// names, fed as `feed_many_keyed` feeds them, from byte `resume` of its records (0:
    /// the first) until the batch's end, a record at offset `until` or above (another poll
    /// takes those), or a record that closed a hand. Records at offsets below `skip_below`
    /// are passed over (a fetch that began inside the batch, or records already taken),
    /// and a record whose table's offset in `applied` is at or above its own is a replay,
    /// counted and not fed (`PartitionTables`' at-least-once rule); only the records with
    /// an outcome become Python objects. A batch that is not well formed raises
    /// `ValueError` (`MALFORMED_BATCH` and what is wrong) before any of its records is fed.
    #[pyo3(signature = (buf, start, end, resume, skip_below, until, applied))]
    #[allow(clippy::too_many_arguments)]
    fn feed_kafka_batch<'py>(&mut self, py: Python<'py>, buf: &Bound<'py, PyBytes>, start: usize,
                             end: usize, resume: usize, skip_below: i64, until: i64,
                             applied: &Bound<'py, PyDict>) -> PyResult<KafkaFed<'py>> {
        let whole = buf.as_bytes();
        let bytes = whole.get(start..end).ok_or_else(|| PyValueError::new_err(format!(
            "feed_kafka_batch: bytes {}..{} lie outside the buffer of {}", start, end, whole.len())))?;
        let malformed = |e: String| PyValueError::new_err(format!("{}{}", MALFORMED_BATCH, e));
        let batch = kafka::Batch::new(bytes).map_err(malformed)?;
        if resume == 0 {
            // Refused whole, before any record is fed; a call that resumes reads the same
            // bytes, checked by the call that began it.
            batch.check().map_err(malformed)?;
        }
        // Per key: its table (None: not UTF-8) and that table's applied offset, looked up once.
        let mut tables: KeyTables<'_> = HashMap::new();
        let mut fed: HashMap<String, i64> = HashMap::new();
        let mut steps = Vec::new();
        let (mut replayed, mut consumed) = (0usize, 0usize);
        let mut pos = resume;
        let mut next_resume = None;
        while let Some((record, next)) = batch.next(pos).map_err(malformed)? {
            if record.offset >= until {
                break; // the rest of the batch is another poll's
            }
            pos = next;
            if record.offset < skip_below {
                continue;
            }
            consumed += 1;
            if let Entry::Vacant(entry) = tables.entry(record.key) {
                // As `PartitionTables._table_of`: a key names the table its UTF-8 spells.
                let table = record.key.and_then(|k| std::str::from_utf8(k).ok()).map(str::to_string);
                let offset = match &table {
                    Some(t) => match applied.get_item(t)? {
                        Some(o) => Some(o.extract::<i64>()?),
                        None => None,
                    },
                    None => None,
                };
                entry.insert((table, offset));
            }
            let (table, applied_offset) = &tables[&record.key];
            if applied_offset.map_or(false, |o| record.offset <= o) {
                replayed += 1;
                continue;
            }
            let value = match record.value {
                Some(v) => v,
                None => {
                    steps.push(kafka_step(py, &record, None, None)?);
                    continue;
                }
            };
            if let Some(t) = table {
                fed.insert(t.clone(), record.offset);
            }
            if let Some((table_id, list, closed)) = self.one_keyed(py, value, Some(record.key.unwrap_or(b"")), None)? {
                steps.push(kafka_step(py, &record, table_id, Some(list))?);
                if closed {
                    next_resume = Some(pos);
                    break;
                }
            }
        }
        let fed_dict = PyDict::new(py);
        for (table, offset) in fed {
            fed_dict.set_item(table, offset)?;
        }
        Ok((next_resume, steps, fed_dict, replayed, consumed))
    }

    /// The lines of `buf` from byte `pos` (the line numbered `line`) up to byte `end`
    /// (default: its end), as a file is read: returns `(pos, line)` to go on from and
    /// `(line, table_id, outputs, start, end)` of each record that had any (`buf[start:end]`
    /// is the record). `end` spares the caller a copy of the buffer's whole lines.
    #[allow(clippy::type_complexity)]
    #[pyo3(signature = (buf, pos, line, end=None))]
    fn feed_buffer<'py>(&mut self, py: Python<'py>, buf: &Bound<'py, PyBytes>, pos: usize, line: u64,
                        end: Option<usize>) -> PyResult<((usize, u64), Vec<BufferStep<'py>>)> {
        let whole = buf.as_bytes();
        let data = &whole[..end.unwrap_or(whole.len()).min(whole.len())];
        if pos > data.len() {
            return Err(PyValueError::new_err(format!(
                "feed_buffer: pos {} lies beyond the buffer's end {}: pass the positions this \
                 buffer's last call returned", pos, data.len())));
        }
        self.take_lines(py, data, pos, line, None)
    }

    /// Whole lines of a log file the core reads itself (`LogFile`: one buffer kept for the
    /// whole file). Reads the next chunk when every whole line read so far was taken, then
    /// takes lines as `feed_buffer` does: `(bytes read by this call, steps, run)`, each
    /// step `(line number, table id, outputs, the record's bytes)`. Call again until
    /// `log.done`.
    ///
    /// With `runs` (and `encode_records` on): a line whose only outcome is a record the
    /// core's rules made goes into `run` instead of a step: `(the records' bytes, one a
    /// line, hands, [(status, count)], [((rule, code, severity), count)])`, or None when
    /// none did. The call stops at the first step, so the run's records all come before
    /// it (write the run, then the steps). Why: a step a hand (a list, a tuple, the
    /// record's bytes, then Python's objects for it) was about 4 µs of a hand's 90-100.
    #[pyo3(signature = (log, runs=false))]
    fn feed_log<'py>(&mut self, py: Python<'py>, mut log: PyRefMut<'py, LogFile>, runs: bool)
                     -> PyResult<(usize, Vec<LogStep<'py>>, Option<RunTuple<'py>>)> {
        let LogFile { inner: log, path } = &mut *log;
        let read = if log.taken_all() && !log.done() {
            log.refill().map_err(|e| os_error(e, path))?
        } else {
            0
        };
        let mut run = RecordRun::with_buffer(std::mem::take(&mut self.run_json));
        let (data, pos, line) = log.lines();
        let ((pos, line), steps) = self.take_lines(py, data, pos, line, runs.then_some(&mut run))?;
        let steps = steps.into_iter()
            .map(|(number, table_id, list, start, end)| (number, table_id, list, PyBytes::new(py, &data[start..end])))
            .collect();
        log.advance(pos, line);
        let (tuple, json) = run.into_tuple(py);
        self.run_json = json;
        Ok((read, steps, tuple?))
    }

    /// Adjudicate the games the core's rules cover (`games`: of High Card Flush, Chinese
    /// Poker, Five Card Draw 7-A, Russian Poker and Texas Hold'em, those the registry runs
    /// the reference's rules for) here, under `profiles`: `{name: (gen, hcf, chinese, draw7a,
    /// russian, holdem sections)}`, each section a dict of its fields (msgspec's
    /// `to_builtins`) or None when it did not load. `ranking`: the standard `CardRanking`
    /// (hold'em's showdown), handed over once here; or `ranking_source`, a callable that
    /// returns it, called on the first hold'em hand (`NativeRules::ranking_source`).
    /// `keep_hands`: return each such hand's events and context with its record (for
    /// surveillance).
    #[pyo3(signature = (profiles, keep_hands, games, ranking=None, ranking_source=None))]
    fn use_native_rules(&mut self, profiles: &Bound<'_, PyDict>, keep_hands: bool, games: Vec<String>,
                        ranking: Option<PyRef<'_, crate::python_ranking::CardRanking>>,
                        ranking_source: Option<Py<PyAny>>) -> PyResult<()> {
        let ranking = ranking.map(|r| std::sync::Arc::new(r.inner().clone()));
        let mut known = HashMap::new();
        for (name, sections) in profiles.iter() {
            let name: String = name.extract()?;
            #[allow(clippy::type_complexity)]
            let (gen, hcf, chinese, draw7a, russian, holdem): (Option<Bound<'_, PyDict>>,
                Option<Bound<'_, PyDict>>, Option<Bound<'_, PyDict>>, Option<Bound<'_, PyDict>>,
                Option<Bound<'_, PyDict>>, Option<Bound<'_, PyDict>>) = sections.extract()?;
            let profile = crate::rules::profile::Profile {
                gen: gen.and_then(|d| gen_profile(&d)),
                hcf: hcf.and_then(|d| hcf_profile(&d)),
                chinese: chinese.and_then(|d| chinese_profile(&d)),
                draw7a: draw7a.and_then(|d| draw7a_profile(&d)),
                russian: russian.and_then(|d| russian_profile(&d)),
                holdem: holdem.and_then(|d| holdem_profile(&d)),
                ranking: ranking.clone(),
            };
            known.insert(name, profile);
        }
        let games = crate::rules::adjudicate::Games::from_names(games.iter().map(String::as_str));
        let ranking_source = ranking_source.map(|source| -> crate::RankingSource {
            Box::new(move || {
                // The core runs with the GIL held (every call into it comes from Python).
                Python::with_gil(|py| {
                    let made = source.call0(py).ok()?;
                    let ranking = made.bind(py).downcast::<crate::python_ranking::CardRanking>().ok()?;
                    let inner = ranking.borrow().inner().clone();
                    Some(std::sync::Arc::new(inner))
                })
            })
        });
        self.core.rules = Some(crate::NativeRules { profiles: known, games, keep_hands, ranking_source,
                                                    ..Default::default() });
        Ok(())
    }

    /// One hand given whole (`HandInput` as records): its record by the core's rules, or
    /// `(None, why)` when they do not adjudicate it (another game, a deferral, an invalid
    /// record). `context`: (table_configured body as JSON or None, authorised, previous
    /// designated seat, offers, dealer id, new seats, hands played, buys: `HandContext`);
    /// `chain`: (first_seq, last_seq, last_hash
    /// bytes) or None; `findings`: (code, rule, severity, message) from intake.
    #[allow(clippy::too_many_arguments)]
    fn adjudicate_hand<'py>(&mut self, py: Python<'py>, table_id: &str, hand_id: &str, records: Vec<Vec<u8>>,
                            context: HandContext,
                            chain: Option<(i64, i64, Vec<u8>)>, findings: Vec<(String, String, String, String)>)
                            -> PyResult<(Option<Bound<'py, PyAny>>, Option<String>)> {
        if self.core.rules.is_none() {
            return Ok((None, Some("native rules are off".to_string())));
        }
        let (config, config_authorized, previous_designated, offers, dealer_id, new_seats, hands_played, buys) = context;
        let config = match config {
            Some(raw) => match crate::json::parse(&raw) {
                Ok(v) => Some(v.into_owned()),
                Err(_) => return Ok((None, Some("the configuration is not JSON".to_string()))),
            },
            None => None,
        };
        let context = table::Context {
            config, config_authorized, seated: Vec::new(), dealer_id, previous_button: None,
            previous_designated, offers, new_seats, hands_played,
            buys: buys.into_iter()
                .map(|(seat, kind, amount, seq, since)| (table::Buy { seat, kind, amount, seq, hands_played: 0 }, since))
                .collect(),
        };
        let chain = match chain {
            Some((first, last, hash)) => match <[u8; 32]>::try_from(hash.as_slice()) {
                Ok(h) => Some((first, last, h)),
                Err(_) => return Err(PyValueError::new_err("last_hash must be 32 bytes")),
            },
            None => None,
        };
        let mut intake_findings = Vec::with_capacity(findings.len());
        for (code, rule, severity, message) in findings {
            let severity = match severity.as_str() {
                "info" => Severity::Info,
                "warning" => Severity::Warning,
                "critical" => Severity::Critical,
                _ => return Ok((None, Some("a finding of unknown severity".to_string()))),
            };
            // The core's findings name their code and rule statically: leaked once per
            // distinct text (a handful: intake's chain codes), never per hand.
            intake_findings.push(Finding { code: static_text(code), rule: static_text(rule), severity, message });
        }
        let with_chain = chain.is_some();
        let raws: Vec<&[u8]> = records.iter().map(Vec::as_slice).collect();
        let hand = match crate::rules::adjudicate::closed_hand_from_records(table_id, hand_id, &raws, context, chain, intake_findings) {
            Some(hand) => hand,
            None => return Ok((None, Some("a record that is not valid v1".to_string()))),
        };
        let rules = match self.core.rules.as_mut() {
            Some(rules) => rules,
            None => return Ok((None, Some("native rules are off".to_string()))),
        };
        rules.prepare_for(&hand);
        let (profiles, games) = (&rules.profiles, rules.games);
        let native = catch_unwind(AssertUnwindSafe(|| crate::rules::adjudicate::adjudicate_hand(&hand, profiles, games, with_chain)));
        Ok(match native {
            Ok(crate::rules::adjudicate::Native::Done(done)) => (Some(self.record(py, &done.record)?), None),
            Ok(crate::rules::adjudicate::Native::NotNative) => (None, Some("not a game the core adjudicates".to_string())),
            Ok(crate::rules::adjudicate::Native::Deferred(why)) => (None, Some(why.0.to_string())),
            Err(payload) => (None, Some(format!("panic: {}", panic_message(payload.as_ref())))),
        })
    }

    /// (hands adjudicated by the core's rules, deferred to Python, panics caught, why the
    /// last was deferred)
    fn native_rules_stats(&self) -> (u64, u64, u64, Option<String>) {
        match &self.core.rules {
            Some(r) => (r.adjudicated, r.deferred, r.panicked, r.last_defer.clone()),
            None => (0, 0, 0, None),
        }
    }

    /// The stacks a closed hand moved: `[(seat, net), ...]` from its recorded side.
    fn settle(&mut self, table_id: &str, moves: Vec<(i64, i64)>) {
        if let Some(state) = self.core.tables.get_mut(table_id) {
            state.settle(&moves);
        }
    }

    /// End of input: `[(table_id, outputs)]` for every table with a hand still open.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Vec<(String, Bound<'py, PyList>)>> {
        let mut out = Vec::new();
        for (table_id, outputs) in self.core.finish() {
            if !outputs.is_empty() {
                out.push((table_id.clone(), self.outputs(py, &table_id, &outputs)?));
            }
        }
        Ok(out)
    }

    fn table_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.core.tables.keys().cloned().collect();
        ids.sort();
        ids
    }

    fn open_hands(&self) -> usize {
        self.core.tables.values().filter(|t| t.open_hand.is_some()).count()
    }

    /// One table's state as bytes (None: the table is unknown).
    fn export_table<'py>(&self, py: Python<'py>, table_id: &str) -> Option<Bound<'py, PyBytes>> {
        self.core.tables.get(table_id).map(|t| PyBytes::new(py, &state::export(t)))
    }

    /// Restore a table exported by `export_table` (replacing what this engine had of it).
    fn import_table(&mut self, raw: &[u8]) -> PyResult<String> {
        // A state is input: a panic on one the import does not foresee is its refusal (a
        // ValueError, which the caller says in one line), never a PanicException.
        let imported = catch_unwind(|| state::import(raw)).unwrap_or_else(|_| {
            Err("table state cannot be read (the native core failed on it)".to_string())
        });
        let table = self.core.set_up(imported.map_err(PyValueError::new_err)?);
        let id = table.table_id.clone();
        self.core.tables.insert(id.clone(), table);
        Ok(id)
    }

    /// Continue a table this engine has no state of from what `source(table_id, seq)`
    /// returns on the table's first record taken (`seq`: that record's): bytes that
    /// `export_table` gave, or None for a new table (`Core::carry_source`). Bytes that do
    /// not import, or are another table's, start the table new: the caller checks a state
    /// before handing it over (`import_table` on an engine of its own). `None` stops
    /// asking.
    #[pyo3(signature = (source=None))]
    fn carry_from(&mut self, source: Option<Py<PyAny>>) {
        self.core.carry_source = source.map(|source| -> crate::CarrySource {
            Box::new(move |table_id: &str, seq: i64| {
                // The core runs with the GIL held (every call into it comes from Python).
                Python::with_gil(|py| {
                    let given = source.call1(py, (table_id, seq)).ok()?;
                    let raw = given.bind(py).downcast::<PyBytes>().ok()?.as_bytes().to_vec();
                    state::import(&raw).ok()
                })
            })
        });
    }

    /// A table's chain head: the seq of its last event taken in order and that event's
    /// hash (hex), and how many events the table has taken in all (the archive's count);
    /// None: the table is unknown.
    fn chain_head(&self, table_id: &str) -> Option<(i64, String, i64)> {
        self.core.tables.get(table_id).map(|t| (t.last_seq, crate::canonical::hex(&t.last_hash), t.taken))
    }

    /// The seqs a gap skipped that have not arrived, as (first, last) ranges, ascending
    /// (`TableState::missing`; the reference's `Window.ranges`); None: the table is
    /// unknown. A kept state's, read on a scratch engine, says whether a log whose first
    /// record of the table is at or below the state's head goes on from it (a late
    /// arrival: `services.archive.carry`).
    fn missing_seqs(&self, table_id: &str) -> Option<Vec<(i64, i64)>> {
        self.core.tables.get(table_id).map(|t| t.missing.clone())
    }

    fn drop_table(&mut self, table_id: &str) {
        self.core.tables.remove(table_id);
    }

    /// Benchmarks only: run the lines of `buf` through a fresh core of plain Rust (no
    /// Python object at all; closed hands end as in the core's rules); returns the records
    /// processed.
    #[staticmethod]
    fn _core_only(buf: &[u8]) -> usize {
        let mut core = Core::new();
        let (mut pos, mut line, mut count) = (0, 1, 0);
        while let Some((start, end, number, next)) = lines::next_record(buf, pos, line) {
            // A closed hand ends here, as in the rules once adjudicated (`NativeRules`).
            if let Processed::Applied { outputs, .. } = core.process(&buf[start..end], &mut |_| true) {
                for output in outputs {
                    if let Output::Closed(hand) = output {
                        core.lists.keep_lists_of(hand.events);
                    }
                }
            }
            pos = next;
            line = number + 1;
            count += 1;
        }
        count
    }

    /// Benchmarks only: (tables, events kept in open hands, their bytes, bytes reserved,
    /// remembered entries outside hands).
    fn _memory(&self) -> (usize, usize, usize, usize, usize) {
        let mut out = (self.core.tables.len(), 0, 0, 0, 0);
        for t in self.core.tables.values() {
            if let Some(h) = &t.open_hand {
                out.1 += h.count;
                out.2 += h.events.len();
                out.3 += h.events.capacity() + h.fps.capacity() * 4;
            }
            out.4 += t.kept.len();
        }
        out
    }

    /// Hand each record the core's rules make over as its bytes with its status and
    /// findings' rule, code and severity (`("encoded", ...)`), not as structs: for callers
    /// that only write records out and count them (`pitwatch adjudicate`, the Kafka
    /// worker). A hand asked for with its events (`keep_hands`) still comes as structs.
    fn encode_records(&mut self, on: bool) {
        self.encoded_records = on;
    }

    /// Tests only: how many tables (from now on) keep their open hand's event hashes
    /// rather than computing them again at the close (`HASH_KEEPING_TABLES`).
    fn _set_hash_keeping_tables(&mut self, tables: usize) {
        self.core.hash_keeping_tables = tables;
    }

    /// Tests only: how many tables (from now on) keep their open hand's events decoded
    /// as they arrive, among those that keep hashes (`DECODED_KEEPING_TABLES`).
    fn _set_decoded_keeping_tables(&mut self, tables: usize) {
        self.core.decoded_keeping_tables = tables;
    }

    /// Tests only: the core's rules panic on the hand `hand_id`.
    fn _inject_rules_panic(&mut self, hand_id: String) {
        if let Some(rules) = self.core.rules.as_mut() {
            rules.panic_on_hand = Some(hand_id);
        }
    }

    /// Tests only: the next record equal to `raw` makes the core panic.
    fn _inject_panic(&mut self, raw: Vec<u8>) {
        self.panic_on = Some(raw);
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    crate::tune_allocator();
    m.add_class::<Engine>()?;
    m.add_class::<LogFile>()?;
    m.add_class::<crate::python_ranking::CardRanking>()?;
    m.add_function(wrap_pyfunction!(functions::describe, m)?)?;
    m.add_function(wrap_pyfunction!(functions::intake, m)?)?;
    m.add_function(wrap_pyfunction!(functions::kafka_batch_crc_ok, m)?)?;
    m.add_function(wrap_pyfunction!(functions::archived_envelopes, m)?)?;
    m.add_function(wrap_pyfunction!(crate::python_phh::import_phh_files, m)?)?;
    m.add("MAX_RECORD_BYTES", crate::intake::MAX_RECORD_BYTES)?;
    m.add("MAX_REMEMBERED_EVENTS", table::MAX_REMEMBERED_EVENTS)?;
    m.add("MAX_HAND_EVENTS", table::MAX_HAND_EVENTS)?;
    Ok(())
}
