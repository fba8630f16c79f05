//! A log read in buffers the core keeps, for `pitwatch adjudicate FILE`.
//!
//! Why not Python's `fh.read(4 MB)`: each read made a new 4 MB `bytes` object, which the
//! C allocator served from fresh pages (mapped, faulted in page by page, given back when
//! freed): about 27,000 page faults and 2-3.5% of a 10,000-hand run's CPU. Here one
//! buffer is kept for the whole file: the line a read cut is moved to its front and the
//! next read goes after it, so its pages are touched once. A line longer than a read
//! grows the buffer (a record has no length limit before the intake sees it).
//!
//! Lines are split, numbered and stripped by `lines::next_record`, as for any buffer.

use std::io::{self, Read};

/// The buffer, what of it has been filled and taken, and the number of the next line.
pub struct LogBuffer<R: Read> {
    source: R,
    buf: Vec<u8>,
    /// Bytes asked of each read.
    chunk: usize,
    /// The first byte not taken yet.
    pos: usize,
    /// The end of the last whole line read (the end of what was read, at end of input).
    lines_end: usize,
    /// The end of what was read.
    filled: usize,
    /// The number of the line starting at `pos` (the file's, from 1).
    line: u64,
    eof: bool,
    /// With `counting`, newlines and `hand_ended"` in what the reads brought since the
    /// last `take_counts` (a progress bar's figures, not results).
    counting: bool,
    counts: (u64, u64),
    /// Refuse a last line that has no newline and is no whole JSON object
    /// (`cut_last_line`): the log was cut short or is still being written.
    check_last_line: bool,
    /// Bytes read from the source in all.
    total: u64,
}

/// Past a record's limit (1 MB): a last line this long is no whole record.
const TAIL_LIMIT: usize = 2 << 20;

/// Why a log's last line, `tail` (the bytes after its last newline), reads as cut short,
/// or None: `cut_last_line` of the reference (`services/events/logfile.py`), the same
/// test and the same words. A last line with no newline is taken when it is a whole JSON
/// object (its braces and brackets close, outside its strings, at its last byte).
pub fn cut_last_line(tail: &[u8], total: u64) -> Option<String> {
    let long = tail.len() > TAIL_LIMIT;
    let blank = |c: &u8| matches!(c, b' ' | b'\t' | b'\r');
    let start = tail.iter().position(|c| !blank(c)).unwrap_or(tail.len());
    let end = tail.iter().rposition(|c| !blank(c)).map_or(start, |i| i + 1);
    let text = &tail[start..end];
    if !long && (text.is_empty() || whole_object(text)) {
        return None;
    }
    Some(format!("the log ends at byte {} in the middle of a line (its last line has no newline \
                  and is no whole JSON record): it was cut short, or is still being written; the \
                  lines before it were read and the hands it leaves open stay open: run again on \
                  the whole log once it is complete", total))
}

/// Whether `text` is an object whose brackets close at its end, strings left out (a
/// string runs to its next unescaped quote; one left open is no whole object).
fn whole_object(text: &[u8]) -> bool {
    let (mut opened, mut closed) = (0usize, 0usize);
    let (mut first, mut last) = (None, None);
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        if c == b'"' {
            let mut j = i + 1;
            loop {
                match text.get(j) {
                    None => return false,
                    Some(b'\\') if j + 1 < text.len() => j += 2,
                    Some(b'\\') => return false,
                    Some(b'"') => break,
                    Some(_) => j += 1,
                }
            }
            i = j + 1;
            continue;
        }
        first.get_or_insert(c);
        last = Some(c);
        match c {
            b'{' | b'[' => opened += 1,
            b'}' | b']' => closed += 1,
            _ => {}
        }
        i += 1;
    }
    first == Some(b'{') && last == Some(b'}') && opened == closed
}

/// How a `hand_ended` event's type looks inside a raw line (the bar's hand count).
const HAND_ENDED: &[u8] = b"hand_ended\"";

impl<R: Read> LogBuffer<R> {
    pub fn new(source: R, chunk: usize, counting: bool) -> Self {
        LogBuffer {
            source, buf: Vec::new(), chunk: chunk.max(1), pos: 0, lines_end: 0, filled: 0,
            line: 1, eof: false, counting, counts: (0, 0), check_last_line: false, total: 0,
        }
    }

    /// A reader of a log file a user named: its last line must be whole
    /// (`cut_last_line`), or the read fails, naming why.
    pub fn checking_last_line(mut self) -> Self {
        self.check_last_line = true;
        self
    }

    /// Every byte read has been taken and nothing is left to read.
    pub fn done(&self) -> bool {
        self.eof && self.pos >= self.filled
    }

    /// Every whole line read so far has been taken (the next step is a `refill`).
    pub fn taken_all(&self) -> bool {
        self.pos >= self.lines_end
    }

    /// The whole lines not taken yet: the buffer up to the end of the last whole line,
    /// where to start in it, and that line's number.
    pub fn lines(&self) -> (&[u8], usize, u64) {
        (&self.buf[..self.lines_end], self.pos, self.line)
    }

    /// Lines up to `pos` were taken; the line starting there is numbered `line`.
    pub fn advance(&mut self, pos: usize, line: u64) {
        self.pos = pos.min(self.lines_end);
        self.line = line;
    }

    /// Read the next chunk after the line the previous read cut (moved to the front):
    /// the bytes read, 0 at end of input (then the cut line counts as whole).
    pub fn refill(&mut self) -> io::Result<usize> {
        let tail = self.filled - self.pos;
        self.buf.copy_within(self.pos..self.filled, 0);
        self.buf.truncate(tail);
        self.pos = 0;
        // Read into the buffer's spare capacity (kept from the first read on): a page is
        // touched only when bytes are read into it, never zeroed ahead of them (a 4 MB
        // zero fill was 1,000 page faults of every start, on an empty file too).
        self.buf.reserve(self.chunk);
        let read = (&mut self.source).take(self.chunk as u64).read_to_end(&mut self.buf)?;
        self.total += read as u64;
        if read == 0 && self.check_last_line && tail > 0 {
            if let Some(why) = cut_last_line(&self.buf[..tail], self.total) {
                return Err(io::Error::new(io::ErrorKind::InvalidData, why));
            }
        }
        self.filled = self.buf.len();
        self.eof = read == 0;
        self.lines_end = if self.eof {
            self.filled
        } else {
            memchr::memrchr(b'\n', &self.buf).map_or(0, |at| at + 1)
        };
        if self.counting {
            let new = &self.buf[tail..];
            self.counts.0 += memchr::memchr_iter(b'\n', new).count() as u64;
            self.counts.1 += memchr::memmem::find_iter(new, HAND_ENDED).count() as u64;
        }
        Ok(read)
    }

    /// (newlines, `hand_ended` events) read since the last call.
    pub fn take_counts(&mut self) -> (u64, u64) {
        std::mem::take(&mut self.counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines;

    #[test]
    fn a_last_line_is_whole_only_as_a_closed_object() {
        for whole in [&b""[..], b"  \r", b"{}", b"{\"a\":{\"b\":[1,2]}}", b"{\"a\":\"}\\\"{\"} \r",
                      b"{\"a\":\"x\\\\\"}"] {
            assert_eq!(cut_last_line(whole, 9), None, "{:?}", String::from_utf8_lossy(whole));
        }
        for cut in [&b"{\"a\":{\"b\":1}"[..], b"{\"a\":\"b", b"not json", b"[1]", b"{\"a\":\"x\\",
                    b"{\"a\":1}}", b"\"{}\""] {
            let why = cut_last_line(cut, 9).unwrap();
            assert!(why.starts_with("the log ends at byte 9 in the middle of a line"), "{}", why);
        }
        assert!(cut_last_line(&vec![b' '; TAIL_LIMIT + 1], 1).is_some());
    }

    #[test]
    fn a_reader_checking_its_last_line_refuses_a_cut_one() {
        let mut log = LogBuffer::new(&b"{}\n{\"a\":"[..], 4, false).checking_last_line();
        let mut error = None;
        while !log.done() && error.is_none() {
            if log.taken_all() {
                error = log.refill().err();
            } else {
                let (data, _, line) = log.lines();
                let end = data.len();
                log.advance(end, line + 1);
            }
        }
        let error = error.expect("the cut last line is refused");
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert!(error.to_string().starts_with("the log ends at byte 8 "), "{}", error);
        let mut whole = LogBuffer::new(&b"{}\n{\"a\":1}"[..], 4, false).checking_last_line();
        while !whole.done() {
            if whole.taken_all() {
                whole.refill().unwrap();
            } else {
                let (data, _, line) = whole.lines();
                let end = data.len();
                whole.advance(end, line + 1);
            }
        }
    }

    /// Records with their line numbers.
    type Numbered = Vec<(Vec<u8>, u64)>;

    /// Every record of `text` read through a `LogBuffer` of `chunk` bytes, with its line
    /// number, the way the engine takes them, and what the reads counted.
    fn records(text: &[u8], chunk: usize) -> (Numbered, (u64, u64)) {
        let mut log = LogBuffer::new(text, chunk, true);
        let mut out = Vec::new();
        let mut counts = (0, 0);
        while !log.done() {
            if log.taken_all() {
                log.refill().unwrap();
                let (n, h) = log.take_counts();
                counts = (counts.0 + n, counts.1 + h);
            }
            let (data, mut pos, mut line) = log.lines();
            while let Some((start, end, number, next)) = lines::next_record(data, pos, line) {
                out.push((data[start..end].to_vec(), number));
                pos = next;
                line = number + 1;
            }
            line += data[pos..].iter().filter(|&&b| b == b'\n').count() as u64;
            pos = data.len();
            log.advance(pos, line);
        }
        (out, counts)
    }

    /// The same from the whole text in one buffer.
    fn whole(text: &[u8]) -> Numbered {
        let (mut pos, mut line, mut out) = (0, 1, Vec::new());
        while let Some((start, end, number, next)) = lines::next_record(text, pos, line) {
            out.push((text[start..end].to_vec(), number));
            pos = next;
            line = number + 1;
        }
        out
    }

    #[test]
    fn reads_in_any_chunk_size_the_same_lines_with_the_same_numbers() {
        let text: &[u8] = b"\n  {\"type\":\"hand_ended\"}\n\n{a}\r\n   \nlong line of many bytes \
                            here\n{\"type\": \"hand_ended\"}\nlast without newline";
        let expected = whole(text);
        assert_eq!(expected.len(), 5);
        assert_eq!(expected[4], (b"last without newline".to_vec(), 8));
        for chunk in [1, 2, 3, 7, 16, 64, 1 << 20] {
            let (got, counts) = records(text, chunk);
            assert_eq!(got, expected, "chunk {}", chunk);
            // Newlines are counted in any chunk size; a `hand_ended"` cut by a read is
            // counted in neither half (a progress figure).
            assert_eq!(counts.0, 7, "chunk {}", chunk);
        }
        assert_eq!(records(text, 1 << 20).1, (7, 2));
    }

    #[test]
    fn a_line_longer_than_a_read_grows_the_buffer() {
        let long = vec![b'x'; 10_000];
        let mut text = long.clone();
        text.extend_from_slice(b"\nshort\n");
        let (got, _) = records(&text, 100);
        assert_eq!(got, vec![(long, 1), (b"short".to_vec(), 2)]);
    }

    #[test]
    fn an_empty_or_blank_input_has_no_records() {
        assert!(records(b"", 4).0.is_empty());
        assert!(records(b"\n \n\t\n", 2).0.is_empty());
    }

    #[test]
    fn the_buffer_is_not_regrown_for_lines_shorter_than_a_read() {
        let text = b"one\ntwo\nthree\nfour\nfive\n".repeat(100);
        let mut log = LogBuffer::new(&text[..], 64, false);
        while !log.done() {
            if log.taken_all() {
                log.refill().unwrap();
            }
            let (data, _, line) = log.lines();
            let end = data.len();
            let lines = data[..end].iter().filter(|&&b| b == b'\n').count() as u64;
            log.advance(end, line + lines);
        }
        assert!(log.buf.capacity() < 2 * 64 + 64, "{}", log.buf.capacity());
    }

    struct Interrupting<'a>(&'a [u8], bool);

    impl Read for Interrupting<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            self.1 = !self.1;
            if self.1 {
                return Err(io::Error::new(io::ErrorKind::Interrupted, "signal"));
            }
            let n = out.len().min(self.0.len()).min(3);
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn short_and_interrupted_reads_fill_a_whole_chunk() {
        // `read_to_end` goes on after a short read and retries an interrupted one.
        let mut log = LogBuffer::new(Interrupting(b"abc\ndefgh\nij", false), 8, false);
        assert_eq!(log.refill().unwrap(), 8);
        assert_eq!(log.lines(), (&b"abc\n"[..], 0, 1));
    }
}
