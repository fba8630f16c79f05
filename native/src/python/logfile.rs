//! `services._native.LogFile`: a log file the core reads in one buffer it keeps, for
//! `Engine.feed_log`, and its I/O errors as Python's own `OSError`.
//!
//! Why a module of its own: the file and its errors are the binding's only I/O.

use super::*;

/// A log file the core reads in one buffer it keeps (`logfile::LogBuffer`), for
/// `Engine.feed_log`. `chunk`: bytes a read asks for; `counting`: also count the newlines
/// and `hand_ended` events read, for a progress bar (`take_counts`).
#[pyclass(module = "services._native", unsendable)]
pub struct LogFile {
    pub(super) inner: crate::logfile::LogBuffer<std::fs::File>,
    /// For the error of a read that fails.
    pub(super) path: std::path::PathBuf,
}

/// An I/O error as Python's own `OSError(errno, strerror, filename)` (so the subclass,
/// `FileNotFoundError` and the like, and the file's name, as `open` would give them; the
/// CLI prints "strerror: filename").
pub(super) fn os_error(e: std::io::Error, path: &std::path::Path) -> PyErr {
    let filename = path.to_string_lossy().into_owned();
    match e.raw_os_error() {
        Some(code) => {
            let text = e.to_string();
            let suffix = format!(" (os error {})", code);
            let strerror = text.strip_suffix(suffix.as_str()).unwrap_or(&text).to_string();
            pyo3::exceptions::PyOSError::new_err((code, strerror, filename))
        }
        None => pyo3::exceptions::PyOSError::new_err(format!("{}: {}", e, filename)),
    }
}

#[pymethods]
impl LogFile {
    #[new]
    #[pyo3(signature = (path, chunk, counting=false))]
    fn new(path: std::path::PathBuf, chunk: usize, counting: bool) -> PyResult<Self> {
        let file = std::fs::File::open(&path).map_err(|e| os_error(e, &path))?;
        Ok(LogFile { inner: crate::logfile::LogBuffer::new(file, chunk, counting).checking_last_line(), path })
    }

    /// Every byte of the file was read and taken.
    #[getter]
    fn done(&self) -> bool {
        self.inner.done()
    }

    /// (newlines, `hand_ended` events) read since the last call (with `counting`).
    fn take_counts(&mut self) -> (u64, u64) {
        self.inner.take_counts()
    }
}
