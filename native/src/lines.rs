//! Splitting a buffer into records the way the embedded runner reads a file.
//!
//! The reference (`services/adjudicator/embedded.py`) iterates a binary file by lines
//! (split after each `\n`), numbers every line from 1, takes each line's record as
//! `services.events.wire.record_of_line` does and skips blank ones: the line stripped of
//! JSON whitespace (space, `\t \n \r`; a vertical tab or a form feed is not, and stays
//! for the intake to refuse), or, when the line without its line ending (`\n` or `\r\n`)
//! is longer than `MAX_RECORD_BYTES`, that line whole (the bound is on the line as read).

use crate::intake::MAX_RECORD_BYTES;

/// The next record at or after `pos`: (start, end, line number), and the position after
/// it. `line` is the number of the line starting at `pos`.
pub fn next_record(buf: &[u8], mut pos: usize, mut line: u64) -> Option<(usize, usize, u64, usize)> {
    while pos < buf.len() {
        let end_of_line = pos + newline_at(&buf[pos..]);
        let next = (end_of_line + 1).min(buf.len());
        let (start, end) = record_span(&buf[pos..end_of_line]);
        if start < end {
            return Some((pos + start, pos + end, line, next));
        }
        pos = next;
        line += 1;
    }
    None
}

/// The record of one line (with its `\n` or without) as `line[start..end]`, empty for a
/// blank line: `services.events.wire.record_of_line`.
pub fn record_span(line: &[u8]) -> (usize, usize) {
    if line.len() > MAX_RECORD_BYTES {
        let mut body = line.len();
        if line[..body].ends_with(b"\n") {
            body -= 1;
        }
        if line[..body].ends_with(b"\r") {
            body -= 1;
        }
        if body > MAX_RECORD_BYTES {
            return (0, body);
        }
    }
    strip(line)
}

/// Where the first `\n` of `bytes` is (its length if none). The `memchr` crate scans 16
/// or 32 bytes at a time with the CPU's vector instructions (a byte at a time was a tenth
/// of the core's time per record, eight at a time still 4%).
pub fn newline_at(bytes: &[u8]) -> usize {
    memchr::memchr(b'\n', bytes).unwrap_or(bytes.len())
}

/// JSON's whitespace (RFC 8259, section 2).
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn strip(bytes: &[u8]) -> (usize, usize) {
    let (mut start, mut end) = (0, bytes.len());
    while start < end && is_space(bytes[start]) {
        start += 1;
    }
    while end > start && is_space(bytes[end - 1]) {
        end -= 1;
    }
    (start, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(buf: &[u8]) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        let (mut pos, mut line) = (0, 1);
        while let Some((s, e, n, next)) = next_record(buf, pos, line) {
            out.push((String::from_utf8_lossy(&buf[s..e]).into_owned(), n));
            pos = next;
            line = n + 1;
        }
        out
    }

    #[test]
    fn numbers_lines_and_skips_blank_ones() {
        assert_eq!(
            all(b"a\n\n \t \r\n b \r\nc"),
            vec![("a".into(), 1), ("b".into(), 4), ("c".into(), 5)]
        );
        assert_eq!(all(b""), vec![]);
        assert_eq!(all(b"\n\n"), vec![]);
    }

    #[test]
    fn strips_json_whitespace_only() {
        // A vertical tab or a form feed is not JSON whitespace: the line is a record (which
        // the intake refuses), even one of nothing else.
        assert_eq!(
            all(b"\x0cb\n\x0b\n c\x0c \n"),
            vec![("\x0cb".into(), 1), ("\x0b".into(), 2), ("c\x0c".into(), 3)]
        );
    }

    #[test]
    fn a_line_over_the_bound_is_taken_as_read() {
        let record = b"{}";
        let padded = |pad: usize| [b" ".repeat(pad).as_slice(), record].concat();
        // At the bound (its line ending not counted), the line is stripped as any other.
        for ending in [&b"\n"[..], b"\r\n", b""] {
            let line = [padded(MAX_RECORD_BYTES - record.len()).as_slice(), ending].concat();
            assert_eq!(record_span(&line), (MAX_RECORD_BYTES - record.len(), MAX_RECORD_BYTES));
        }
        // One byte over it, the whole line without its ending: the intake refuses it.
        for ending in [&b"\n"[..], b"\r\n", b""] {
            let line = [padded(MAX_RECORD_BYTES + 1 - record.len()).as_slice(), ending].concat();
            assert_eq!(record_span(&line), (0, MAX_RECORD_BYTES + 1));
        }
        // Blank, or a record's trailing CR before its ending, and long: the same.
        let blank = b" ".repeat(MAX_RECORD_BYTES + 1);
        assert_eq!(record_span(&blank), (0, MAX_RECORD_BYTES + 1));
        let cr = [padded(MAX_RECORD_BYTES - record.len()).as_slice(), b"\r\r\n"].concat();
        assert_eq!(record_span(&cr), (0, MAX_RECORD_BYTES + 1));
        let buf = [b"{}\n".as_slice(), &blank, b"\n{}"].concat();
        let (mut pos, mut line, mut got) = (0, 1, Vec::new());
        while let Some((s, e, n, next)) = next_record(&buf, pos, line) {
            got.push((e - s, n));
            pos = next;
            line = n + 1;
        }
        assert_eq!(got, vec![(2, 1), (MAX_RECORD_BYTES + 1, 2), (2, 3)]);
    }

    #[test]
    fn the_word_scan_finds_the_first_newline() {
        for len in 0..24 {
            for at in 0..=len {
                for fill in [b'a', 0x8a, 0xff, 0x0b, 0x09] {
                    let mut bytes = vec![fill; len];
                    if at < len {
                        bytes[at] = b'\n';
                        if at + 1 < len {
                            bytes[at + 1] = b'\n';
                        }
                    }
                    let want = bytes.iter().position(|&b| b == b'\n').unwrap_or(len);
                    assert_eq!(newline_at(&bytes), want, "{:?}", bytes);
                }
            }
        }
    }
}
