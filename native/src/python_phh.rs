//! The PyO3 binding of the native PHH importer (`phh`): `services._native.import_phh_files`,
//! called by `services.importers.phh.native_import`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::phh::{self, Options, SourceFile};

/// One file as Python names it: path, its folder's table name, stem, natural order key.
type File = (String, String, String, i64, String);
/// A skipped hand: (where, stage, its document, the table's scale, (hand id, where first
/// read) for a hand listed twice).
type Skipped = (String, &'static str, String, i128, Option<(String, String)>);
/// `(jsonl, events, hands, read, scales, limited, sources, skipped)`.
type Imported<'py> = (Bound<'py, PyBytes>, usize, usize, usize, Vec<(String, i128)>,
                      Vec<(String, &'static str)>, Vec<(String, String)>, Vec<Skipped>);
/// The import, or why the Python importer must do it (where, what).
type Outcome<'py> = (Option<Imported<'py>>, Option<(String, String)>);

/// The import of `files` and None, or None and why the Python importer must do it: where
/// and what (a file or hand the native importer does not cover; also, defensively, a
/// panic, which never reaches the interpreter). The GIL is released while the files are
/// read and converted. With `sink` (a callable taking bytes), each table's events are
/// given to it as the table is done, not returned (the JSON lines returned are empty); an
/// exception it raises ends the import and is raised here.
#[pyfunction]
#[pyo3(signature = (files, rule_profile, big_blind_ante_field, fixed_scale, sink=None))]
pub fn import_phh_files<'py>(py: Python<'py>, files: Vec<File>, rule_profile: String,
                             big_blind_ante_field: bool, fixed_scale: Option<i64>,
                             sink: Option<Py<PyAny>>)
                             -> PyResult<Outcome<'py>> {
    let files: Vec<SourceFile> = files.into_iter().map(|(path, folder_table, stem, number, text)| {
        SourceFile { path, folder_table, stem, natural: (number, text) }
    }).collect();
    let fixed_scale = fixed_scale.map(i128::from);
    if fixed_scale.map_or(false, |fixed| !(1..=phh::MAX_FIXED_SCALE).contains(&fixed)) {
        return Ok((None, Some((String::new(), "a chip unit finer than the native importer takes".to_string()))));
    }
    let options = Options { rule_profile, big_blind_ante_field, fixed_scale };
    let mut raised: Option<PyErr> = None;
    let outcome = py.allow_threads(|| {
        let mut give = |chunk: &[u8]| -> Result<(), String> {
            let sink = match sink.as_ref() {
                Some(sink) => sink,
                None => return Ok(()),
            };
            Python::with_gil(|py| sink.call1(py, (PyBytes::new(py, chunk),)).map(|_| ()))
                .map_err(|err| {
                    raised = Some(err);
                    "the output could not be written".to_string()
                })
        };
        let to: Option<phh::TableSink<'_>> = if sink.is_some() { Some(&mut give) } else { None };
        catch_unwind(AssertUnwindSafe(|| phh::import_to(&files, &options, to)))
    });
    if let Some(err) = raised {
        return Err(err);
    }
    let imported = match outcome {
        Ok(Ok(imported)) => imported,
        Ok(Err(declined)) => return Ok((None, Some((declined.location, declined.why)))),
        Err(_) => return Ok((None, Some((String::new(), "the native importer failed".to_string())))),
    };
    let skipped = imported.skipped.into_iter()
        .map(|(at, stage, text, scale, again)| (at, stage.name(), text, scale, again)).collect();
    Ok((Some((PyBytes::new(py, &imported.jsonl), imported.events, imported.hands, imported.read,
              imported.scales, imported.limited, imported.sources, skipped)), None))
}
