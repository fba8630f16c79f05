//! The Python objects the engine hands over: a closed hand's events as the contract's
//! msgspec structs, its table context, the core's records, and each record's outputs
//! (alerts, DLQ reasons, closed hands) as plain tuples; and the other way, a finding's
//! code or rule given by Python as the core's `&'static str` (`static_text`).
//!
//! Why a module of its own: building Python objects is the binding's costliest part and
//! has its own rules (every struct built by one vectorcall with its keywords, absent
//! optional fields as the contract's defaults), apart from what is fed when.

use super::*;

impl Engine {
    pub(super) fn class(&self, name: &str) -> PyResult<&(Py<PyAny>, Py<PyTuple>)> {
        self.classes
            .get(name)
            .ok_or_else(|| PyValueError::new_err(format!("no Python class for {}", name)))
    }

    pub(super) fn value<'py>(&self, py: Python<'py>, value: &Value<'_>, kind: &Kind) -> PyResult<Bound<'py, PyAny>> {
        Ok(match (kind, value) {
            (_, Value::Null) => py.None().into_bound(py),
            (_, Value::Bool(b)) => b.into_pyobject(py)?.to_owned().into_any(),
            (_, Value::Int(i)) => i.into_pyobject(py)?.into_any(),
            (Kind::Lit(_), Value::Str(s)) | (Kind::SeatOrLit(_), Value::Str(s)) => {
                PyString::intern(py, s).into_any()
            }
            (Kind::Str { pattern: schema::Pattern::Card, .. }, Value::Str(s)) => {
                match crate::store::card_index(s) {
                    Some(i) => self.cards[i].bind(py).clone().into_any(),
                    None => PyString::new(py, s).into_any(),
                }
            }
            (_, Value::Str(s)) => PyString::new(py, s).into_any(),
            (Kind::Nullable(inner), v) => self.value(py, v, inner)?,
            (Kind::List(inner, _), Value::Array(items)) => {
                let built: Vec<Bound<'py, PyAny>> =
                    items.iter().map(|item| self.value(py, item, inner)).collect::<PyResult<_>>()?;
                PyList::new(py, built)?.into_any()
            }
            (Kind::Struct(s), v) => self.body(py, v, s)?,
            (Kind::PayTables, Value::Object(tables)) => {
                let outer = PyDict::new(py);
                for (name, table) in tables {
                    let inner = PyDict::new(py);
                    if let Value::Object(entries) = table {
                        for (key, amount) in entries {
                            inner.set_item(key.as_ref(), amount.as_int().unwrap_or(0))?;
                        }
                    }
                    outer.set_item(name.as_ref(), inner)?;
                }
                outer.into_any()
            }
            _ => py.None().into_bound(py),
        })
    }

    /// A struct of the contract from its tree: every field passed (an absent optional one
    /// as its default, which builds an equal struct), by keyword, in one vectorcall.
    pub(super) fn body<'py>(&self, py: Python<'py>, value: &Value<'_>, schema: &StructSchema) -> PyResult<Bound<'py, PyAny>> {
        let (class, names) = self.class(schema.class)?;
        let slots = crate::validate::slots(value, schema)
            .ok_or_else(|| PyValueError::new_err(format!("a kept {} does not fit its schema", schema.class)))?;
        let mut args: Vec<Bound<'py, PyAny>> = Vec::with_capacity(schema.fields.len());
        for (field, slot) in schema.fields.iter().zip(slots.iter()) {
            args.push(match slot {
                Some(v) => self.value(py, v, &field.kind)?,
                None => default_of(py, &field.kind),
            });
        }
        call_with_keywords(py, class.bind(py), names.bind(py), &args)
    }

    /// The events of a closed hand as the contract's structs.
    pub(super) fn events<'py>(&self, py: Python<'py>, hand: &ClosedHand) -> PyResult<Bound<'py, PyTuple>> {
        let table_id = PyString::new(py, &hand.table_id).into_any();
        let hand_id = PyString::new(py, &hand.hand_id).into_any();
        let source = PyString::new(py, &hand.source).into_any();
        let one = 1i64.into_pyobject(py)?.into_any();
        let names = self.envelope_names.bind(py);
        let mut built = Vec::with_capacity(hand.events.len());
        for event in &hand.events {
            let event_type = event.event_type();
            let text = |t: &Option<String>, common: &Bound<'py, PyAny>| match t {
                Some(t) => PyString::new(py, t).into_any(),
                None => common.clone(),
            };
            let event_hand = match &event.hand_id {
                None => hand_id.clone(),
                Some(Some(h)) if *h == hand.hand_id => hand_id.clone(),
                Some(Some(h)) => PyString::new(py, h).into_any(),
                Some(None) => py.None().into_bound(py),
            };
            let args = [
                one.clone(),
                PyString::new(py, &event.event_id.to_string()).into_any(),
                text(&event.table_id, &table_id),
                event.seq.into_pyobject(py)?.into_any(),
                PyString::new(py, &event.ts).into_any(),
                PyString::new(py, &crate::canonical::hex(&event.prev_hash)).into_any(),
                event_hand,
                text(&event.source, &source),
                self.body(py, &event.data, event_type.body)?,
            ];
            let (class, _) = self.class(event_type.class)?;
            built.push(call_with_keywords(py, class.bind(py), names, &args)?);
        }
        PyTuple::new(py, built)
    }

    pub(super) fn context<'py>(&self, py: Python<'py>, hand: &ClosedHand) -> PyResult<Bound<'py, PyTuple>> {
        let c = &hand.context;
        let config = match &c.config {
            Some(v) => self.body(py, v, &schema::TABLE_CONFIGURED)?,
            None => py.None().into_bound(py),
        };
        let seated: Vec<(i64, &str, i64)> =
            c.seated.iter().map(|s| (s.seat, s.player_id.as_str(), s.stack)).collect();
        let buys: Vec<(i64, &str, i64, i64, bool)> = c
            .buys
            .iter()
            .map(|(b, since)| (b.seat, b.kind.as_str(), b.amount, b.seq, *since))
            .collect();
        (
            config,
            c.config_authorized,
            seated,
            c.dealer_id.as_deref(),
            c.previous_button,
            c.previous_designated,
            c.offers.clone(),
            c.new_seats.clone(),
            c.hands_played,
            buys,
        )
            .into_pyobject(py)
    }

    /// `("hand", hand_id, events, context, (first_seq, last_seq, last_hash), findings)`
    pub(super) fn hand<'py>(&self, py: Python<'py>, hand: &ClosedHand) -> PyResult<Bound<'py, PyAny>> {
        Ok((
            "hand",
            hand.hand_id.as_str(),
            self.events(py, hand)?,
            self.context(py, hand)?,
            (hand.first_seq, hand.last_seq, crate::canonical::hex(&hand.last_hash)),
            findings_list(py, &hand.findings)?,
        )
            .into_pyobject(py)?
            .into_any())
    }

    /// One of `RECORD_STRUCTS` from its fields' values, in the order listed there.
    pub(super) fn keywords<'py>(&self, py: Python<'py>, class: &str, values: &[Bound<'py, PyAny>]) -> PyResult<Bound<'py, PyAny>> {
        let (class, names) = self.class(class)?;
        call_with_keywords(py, class.bind(py), names.bind(py), values)
    }

    pub(super) fn side<'py>(&self, py: Python<'py>, side: &Option<Side>) -> PyResult<Bound<'py, PyAny>> {
        let side = match side {
            Some(side) => side,
            None => return Ok(py.None().into_bound(py)),
        };
        let dict = |items: &[(String, i128)]| -> PyResult<Bound<'py, PyAny>> {
            let d = PyDict::new(py);
            for (k, v) in items {
                d.set_item(k, v)?;
            }
            Ok(d.into_any())
        };
        self.keywords(py, "SideResult", &[dict(&side.net)?, dict(&side.rake)?])
    }

    /// The record as the contract's `AdjudicationRecord` (its findings, sides and
    /// movements as their structs), built field by field: no JSON, no validation pass.
    pub(super) fn record<'py>(&self, py: Python<'py>, r: &Record) -> PyResult<Bound<'py, PyAny>> {
        let none = || py.None().into_bound(py);
        let text = |s: &str| PyString::new(py, s).into_any();
        let interned = |s: &str| PyString::intern(py, s).into_any();
        let opt_text = |s: &Option<String>| s.as_deref().map_or_else(none, text);
        let int = |i: i64| -> PyResult<Bound<'py, PyAny>> { Ok(i.into_pyobject(py)?.into_any()) };
        let opt_int = |i: Option<i64>| -> PyResult<Bound<'py, PyAny>> { i.map_or_else(|| Ok(none()), int) };
        let mut findings = Vec::with_capacity(r.findings.len());
        for f in &r.findings {
            let amount = match f.amount {
                Some(a) => a.into_pyobject(py)?.into_any(),
                None => none(),
            };
            findings.push(self.keywords(py, "Finding", &[
                interned(f.code), interned(f.rule), interned(f.severity.name()), opt_int(f.seat)?, amount,
                text(&f.message),
            ])?);
        }
        let movements = match &r.movements {
            None => none(),
            Some(moves) => {
                let mut built = Vec::with_capacity(moves.len());
                for m in moves {
                    built.push(self.keywords(py, "Movement", &[
                        text(&m.event_id.to_string()), int(m.seq)?, text(&m.from.to_string()), text(&m.to.to_string()),
                        m.amount.into_pyobject(py)?.into_any(), interned(m.kind),
                    ])?);
                }
                PyList::new(py, built)?.into_any()
            }
        };
        let players = match &r.players {
            None => none(),
            Some(players) => {
                let d = PyDict::new(py);
                for (seat, player) in players {
                    d.set_item(seat, player)?;
                }
                d.into_any()
            }
        };
        self.keywords(py, "AdjudicationRecord", &[
            int(1)?, text(&r.table_id), text(&r.hand_id), r.game.map_or_else(none, interned), interned(r.status),
            opt_text(&r.rule_profile), self.side(py, &r.expected)?, self.side(py, &r.recorded)?,
            PyList::new(py, findings)?.into_any(), players, opt_text(&r.dealer_id), opt_text(&r.rake_mode),
            opt_text(&r.ended_at), opt_int(r.first_seq)?, opt_int(r.last_seq)?, opt_text(&r.last_hash), movements,
        ])
    }

    /// A record as `("encoded", hand_id, status, findings, bytes)`: `findings` the
    /// `(rule, code, severity)` of each, `bytes` exactly `encode_record(record)`
    /// (`rules::record::encode`, tested against msgspec). Three Python objects and a
    /// tuple a finding, where the structs took about thirty calls a hand.
    pub(super) fn encoded<'py>(&self, py: Python<'py>, r: &Record) -> PyResult<Bound<'py, PyAny>> {
        let mut findings = Vec::with_capacity(r.findings.len());
        for f in &r.findings {
            findings.push((PyString::intern(py, f.rule), PyString::intern(py, f.code),
                           PyString::intern(py, f.severity.name())).into_pyobject(py)?);
        }
        let bytes = PyBytes::new(py, &crate::rules::record::encode(r));
        Ok(("encoded", r.hand_id.as_str(), PyString::intern(py, r.status), PyList::new(py, findings)?, bytes)
            .into_pyobject(py)?
            .into_any())
    }

    pub(super) fn rule_profile(&self, table_id: &str) -> Option<String> {
        self.core.tables.get(table_id)?.rule_profile()
    }

    pub(super) fn outputs<'py>(&self, py: Python<'py>, table_id: &str, outputs: &[Output]) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for output in outputs {
            let item: Bound<'py, PyAny> = match output {
                Output::Alert(a) => {
                    let profile = match a.severity {
                        Severity::CashInPlayProfile => self.rule_profile(table_id),
                        _ => None,
                    };
                    (
                        "alert",
                        (a.code, a.rule, severity(py, a.severity), a.message.as_str(), a.seq),
                        (a.event_id.as_str(), a.hand_id.as_deref(), profile),
                    )
                        .into_pyobject(py)?
                        .into_any()
                }
                Output::Dlq(reason) => ("dlq", reason.as_str()).into_pyobject(py)?.into_any(),
                Output::OutsideHand(f) => {
                    ("outside", (f.code, f.rule, severity(py, f.severity), f.message.as_str()))
                        .into_pyobject(py)?
                        .into_any()
                }
                Output::Incomplete { hand_id, findings, game } => {
                    ("rejected", hand_id.as_str(), findings_list(py, findings)?, game.as_deref())
                        .into_pyobject(py)?
                        .into_any()
                }
                Output::Closed(hand) => self.hand(py, hand)?,
                Output::Adjudicated { record, hand: None } if self.encoded_records => {
                    self.encoded(py, record)?
                }
                Output::Adjudicated { record, hand } => {
                    let hand = match hand {
                        Some(hand) => self.hand(py, hand)?,
                        None => py.None().into_bound(py),
                    };
                    ("record", self.record(py, record)?, hand).into_pyobject(py)?.into_any()
                }
                Output::Segment { hand_id, head_seq, ordinal, events } => {
                    // Packed here (`segment_pack`): one body and one tuple a part cross.
                    let parts = PyList::empty(py);
                    for p in segment_pack::pack_parts(events).unwrap_or_default() {
                        parts.append((p.offset, p.day, p.first_seq, p.last_seq, p.events,
                                      p.refused, p.first_prev_hash, p.last_hash, p.first_ts,
                                      p.last_ts, PyBytes::new(py, &p.body)))?;
                    }
                    ("segment", hand_id.as_deref(), *head_seq, *ordinal, parts)
                        .into_pyobject(py)?
                        .into_any()
                }
            };
            list.append(item)?;
        }
        Ok(list)
    }

}

/// What an absent optional field of the contract defaults to (`None`, or `False` for
/// `showdown.mucked`): passing it builds the same struct as leaving it out.
pub(super) fn default_of<'py>(py: Python<'py>, kind: &Kind) -> Bound<'py, PyAny> {
    match kind {
        Kind::Bool => false.into_pyobject(py).map(|b| b.to_owned().into_any()).unwrap_or_else(|e| match e {}),
        _ => py.None().into_bound(py),
    }
}

/// `class(**dict(zip(names, values)))` without building the dict: one vectorcall with
/// the keywords' names as a tuple (what CPython itself does for a call with keywords).
pub(super) fn call_with_keywords<'py>(
    py: Python<'py>,
    class: &Bound<'py, PyAny>,
    names: &Bound<'py, PyTuple>,
    values: &[Bound<'py, PyAny>],
) -> PyResult<Bound<'py, PyAny>> {
    if names.len() != values.len() {
        return Err(PyValueError::new_err("keyword names and values differ in number"));
    }
    let args: Vec<*mut pyo3::ffi::PyObject> = values.iter().map(|v| v.as_ptr()).collect();
    // SAFETY: the GIL is held (`py`); `class` is a live callable; `args` holds
    // `names.len()` borrowed pointers to live objects (kept alive by `values` for the
    // whole call), and with no positional arguments (nargsf 0) they are exactly the
    // values of the keywords `names`, a tuple of str, as the vectorcall protocol
    // requires. The result is a new reference or NULL with an exception set, which
    // `from_owned_ptr_or_err` takes over.
    unsafe {
        let result = pyo3::ffi::PyObject_Vectorcall(class.as_ptr(), args.as_ptr(), 0, names.as_ptr());
        Bound::from_owned_ptr_or_err(py, result)
    }
}

/// A finding's code or rule as the `&'static str` the core's findings hold: the known
/// texts are interned in a table (leaked once each, so a repeated text costs nothing).
pub(super) fn static_text(text: String) -> &'static str {
    use std::sync::Mutex;
    static KNOWN: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut known = match KNOWN.lock() {
        Ok(k) => k,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(found) = known.iter().find(|k| **k == text) {
        return found;
    }
    let leaked: &'static str = Box::leak(text.into_boxed_str());
    known.push(leaked);
    leaked
}
