//! The PHH documents the native importer reads: a strict subset of the one-line TOML that
//! `services/importers/phh_toml.py`'s fast path reads, with the same values.
//!
//! Each line is blank, a comment, or `key = value` (an optional comment after it) where
//! the value is a string (`'...'`, or `"..."` without escapes), an integer, a decimal
//! (`10162.5`: digits, a point, digits), `true` / `false`, or a one-line array of strings
//! only or of numbers only. Anything else (times, exponents, `inf`, triple quotes, table
//! headers, dotted keys, a repeated key, a lone carriage return) is `None`: the document
//! is then read by the Python importer, which decides, so a document never reads
//! differently here.

/// An exact number as PHH writes it: `mantissa / 10^exp`. `integer`: written without a
/// point (Python reads it as an `int`, not a `Decimal`). `finite`: false for `inf` and
/// `nan` (an amount the source did not know; the hand is then skipped).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Num {
    pub mantissa: i128,
    pub exp: u32,
    pub integer: bool,
    pub finite: bool,
}

const NOT_FINITE: Num = Num { mantissa: 0, exp: 0, integer: false, finite: false };

/// Digits after the point beyond which a number is left to Python (10^exp stays far
/// inside i128 however it is scaled).
const MAX_EXP: u32 = 12;
/// Digits in all beyond which a number is left to Python.
const MAX_DIGITS: usize = 24;

impl Num {
    /// The number as whole chips at `scale`, if it is whole there.
    pub fn whole_at(self, scale: i128) -> Option<i128> {
        if !self.finite {
            return None;
        }
        let scaled = self.mantissa.checked_mul(scale)?;
        let unit = 10i128.pow(self.exp);
        (scaled % unit == 0).then(|| scaled / unit)
    }

    pub fn is_negative(self) -> bool {
        self.mantissa < 0
    }

    pub fn is_zero(self) -> bool {
        self.mantissa == 0
    }

    /// `[+-]?(0|[1-9][0-9]*)(\.[0-9]+)?`, the whole of `text`.
    pub fn parse(text: &str) -> Option<Num> {
        let bytes = text.as_bytes();
        let (negative, digits) = match bytes.first() {
            Some(b'-') => (true, &bytes[1..]),
            Some(b'+') => (false, &bytes[1..]),
            _ => (false, bytes),
        };
        let point = digits.iter().position(|&b| b == b'.');
        let (whole, fraction) = match point {
            Some(at) => (&digits[..at], Some(&digits[at + 1..])),
            None => (digits, None),
        };
        let whole_ok = whole == b"0" || (!whole.is_empty() && whole[0] != b'0');
        let fraction_ok = fraction.map_or(true, |f| !f.is_empty() && f.len() as u32 <= MAX_EXP);
        if !whole_ok || !fraction_ok || digits.len() > MAX_DIGITS
            || !whole.iter().chain(fraction.unwrap_or(&[])).all(u8::is_ascii_digit) {
            return None;
        }
        let mantissa = whole.iter().chain(fraction.unwrap_or(&[]))
            .fold(0i128, |m, &d| m * 10 + i128::from(d - b'0'));
        Some(Num { mantissa: if negative { -mantissa } else { mantissa },
                   exp: fraction.map_or(0, |f| f.len() as u32), integer: point.is_none(),
                   finite: true })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Toml {
    Str(String),
    Num(Num),
    Bool(bool),
    Strs(Vec<String>),
    Nums(Vec<Num>),
    /// A local time (`time = 00:00:09`): the importer reads none, so only its shape is
    /// checked, as Python's reader checks it.
    Time,
}

/// One hand's document: its `[name]` in a `.phhs` file (None in a `.phh` file), its keys
/// and values in file order, and the byte range of its lines in the file (after its
/// header), from which the Python importer reads it again when it skips the hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub name: Option<String>,
    pub doc: Vec<(String, Toml)>,
    pub text: (usize, usize),
}

/// A `.phh` document (one section, no header) or a `.phhs` file's `[name]` sections (no
/// key before the first header, no name twice), or the number of the first line this
/// reader leaves to Python (0: the file as a whole, a key outside every hand).
pub fn parse(text: &str, phhs: bool) -> Result<Vec<Section>, usize> {
    let mut line = 0;
    parse_lines(text, phhs, &mut line).ok_or(line)
}

fn parse_lines(text: &str, phhs: bool, number: &mut usize) -> Option<Vec<Section>> {
    let mut sections = vec![Section { name: None, doc: Vec::new(), text: (0, 0) }];
    let mut offset = 0;
    for raw in text.split('\n') {
        *number += 1;
        let start = offset;
        offset += raw.len() + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.contains('\r') {
            return None; // Python's universal newlines would cut the line there
        }
        let mut cursor = Cursor { line: line.as_bytes(), at: 0 };
        cursor.blanks();
        if cursor.done_or_comment() {
            continue;
        }
        if cursor.peek() == Some(b'[') {
            let name = cursor.header()?;
            if phhs && !sections[0].doc.is_empty() {
                *number = 0; // a key before the first hand: the file as a whole
                return None;
            }
            if !phhs || sections.iter().any(|s| s.name.as_deref() == Some(name)) {
                return None;
            }
            if let Some(last) = sections.last_mut() {
                last.text.1 = start;
            }
            let body = offset.min(text.len());
            sections.push(Section { name: Some(name.to_string()), doc: Vec::new(), text: (body, body) });
            continue;
        }
        let key = cursor.key()?;
        let doc = &mut sections.last_mut()?.doc;
        if doc.iter().any(|(k, _)| k == key) {
            return None;
        }
        cursor.blanks();
        cursor.expect(b'=')?;
        cursor.blanks();
        let value = if cursor.peek() == Some(b'[') { cursor.array()? } else { cursor.scalar()? };
        cursor.blanks();
        if !cursor.done_or_comment() {
            return None;
        }
        doc.push((key.to_string(), value));
    }
    if let Some(last) = sections.last_mut() {
        last.text.1 = text.len();
    }
    if phhs {
        if !sections[0].doc.is_empty() {
            *number = 0;
            return None; // a key outside every hand: the Python importer reports the file
        }
        sections.remove(0);
    }
    Some(sections)
}

struct Cursor<'a> {
    line: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.line.get(self.at).copied()
    }

    fn blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.at += 1;
        }
    }

    fn done_or_comment(&self) -> bool {
        matches!(self.peek(), None | Some(b'#'))
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek() == Some(byte)).then(|| self.at += 1)
    }

    fn text(&self, from: usize, to: usize) -> Option<&'a str> {
        std::str::from_utf8(&self.line[from..to]).ok()
    }

    /// A `[name]` table header, the whole line (a comment may follow).
    fn header(&mut self) -> Option<&'a str> {
        self.expect(b'[')?;
        self.blanks();
        let name = self.key()?;
        self.blanks();
        self.expect(b']')?;
        self.blanks();
        self.done_or_comment().then_some(name)
    }

    fn key(&mut self) -> Option<&'a str> {
        let start = self.at;
        while matches!(self.peek(), Some(b) if b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
            self.at += 1;
        }
        if self.at == start { None } else { self.text(start, self.at) }
    }

    /// `'...'` (not `'''`) or `"..."` without a backslash.
    fn string(&mut self) -> Option<String> {
        let quote = self.peek()?;
        if quote == b'\'' && self.line[self.at..].starts_with(b"'''") {
            return None;
        }
        let start = self.at + 1;
        let end = start + self.line[start..].iter().position(|&b| b == quote)?;
        let body = self.text(start, end)?;
        if quote == b'"' && body.contains('\\') {
            return None;
        }
        self.at = end + 1;
        Some(body.to_string())
    }

    fn number(&mut self) -> Option<Num> {
        let start = self.at;
        let signed = usize::from(matches!(self.peek(), Some(b'+' | b'-')));
        let rest = &self.line[start + signed..];
        if rest.starts_with(b"inf") || rest.starts_with(b"nan") {
            self.at += signed + 3;
            return Some(NOT_FINITE);
        }
        while matches!(self.peek(), Some(b) if b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.')) {
            self.at += 1;
        }
        Num::parse(self.text(start, self.at)?)
    }

    fn word(&mut self, word: &[u8]) -> bool {
        let found = self.line[self.at..].starts_with(word);
        if found {
            self.at += word.len();
        }
        found
    }

    /// `HH:MM:SS` (hours 00-23) with an optional fraction, not followed by a digit or a
    /// colon: `phh_toml._TIME`.
    fn time(&mut self) -> bool {
        let rest = &self.line[self.at..];
        let two = |at: usize, top: u8| matches!((rest.get(at), rest.get(at + 1)),
            (Some(&a), Some(&b)) if a.is_ascii_digit() && b.is_ascii_digit() && (a - b'0') * 10 + (b - b'0') <= top);
        if !(two(0, 23) && rest.get(2) == Some(&b':') && two(3, 59) && rest.get(5) == Some(&b':') && two(6, 59)) {
            return false;
        }
        let mut end = 8;
        if rest.get(8) == Some(&b'.') && rest.get(9).map_or(false, u8::is_ascii_digit) {
            end = 9 + rest[9..].iter().take_while(|b| b.is_ascii_digit()).count();
        }
        if matches!(rest.get(end), Some(b) if b.is_ascii_digit() || *b == b':') {
            return false;
        }
        self.at += end;
        true
    }

    fn scalar(&mut self) -> Option<Toml> {
        if self.time() {
            return Some(Toml::Time);
        }
        match self.peek()? {
            b'\'' | b'"' => self.string().map(Toml::Str),
            b't' if self.word(b"true") => Some(Toml::Bool(true)),
            b'f' if self.word(b"false") => Some(Toml::Bool(false)),
            _ => self.number().map(Toml::Num),
        }
    }

    /// A one-line array of strings only or numbers only (a trailing comma allowed).
    fn array(&mut self) -> Option<Toml> {
        self.expect(b'[')?;
        let mut strings = Vec::new();
        let mut numbers = Vec::new();
        loop {
            self.blanks();
            if self.expect(b']').is_some() {
                break;
            }
            match self.peek()? {
                b'\'' | b'"' => strings.push(self.string()?),
                _ => numbers.push(self.number()?),
            }
            self.blanks();
            if self.expect(b',').is_none() {
                self.blanks();
                self.expect(b']')?;
                break;
            }
        }
        match (strings.is_empty(), numbers.is_empty()) {
            (_, true) => Some(Toml::Strs(strings)),
            (true, false) => Some(Toml::Nums(numbers)),
            (false, false) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(text: &str) -> Num {
        Num::parse(text).unwrap()
    }

    #[test]
    fn a_pluribus_document_reads() {
        let doc = only(parse("variant = 'NT'\nantes = [0, 0]\nmin_bet = 100  # the big blind\r\n\n\
                         # a comment\nactions = ['d dh p1 TcQc', \"p2 f\",]\nhand = 7\nstack = 10162.5\n\
                         ok = true\nnone = []\nx = -inf\ntime = 23:59:09  # late\nt2 = 00:00:01.25\n", false));
        assert_eq!(doc, vec![
            ("variant".to_string(), Toml::Str("NT".to_string())),
            ("antes".to_string(), Toml::Nums(vec![num("0"), num("0")])),
            ("min_bet".to_string(), Toml::Num(num("100"))),
            ("actions".to_string(), Toml::Strs(vec!["d dh p1 TcQc".to_string(), "p2 f".to_string()])),
            ("hand".to_string(), Toml::Num(num("7"))),
            ("stack".to_string(), Toml::Num(Num { mantissa: 101625, exp: 1, integer: false, finite: true })),
            ("ok".to_string(), Toml::Bool(true)),
            ("none".to_string(), Toml::Strs(vec![])),
            ("x".to_string(), Toml::Num(NOT_FINITE)),
            ("time".to_string(), Toml::Time),
            ("t2".to_string(), Toml::Time),
        ]);
    }

    fn only(sections: Result<Vec<Section>, usize>) -> Vec<(String, Toml)> {
        let mut sections = sections.unwrap();
        assert_eq!(sections.len(), 1);
        sections.remove(0).doc
    }

    #[test]
    fn a_phhs_file_is_its_sections_with_their_lines() {
        let text = "# header comment\n[1]\nhand = 1\n\n[ 2 ] # two\nhand = 2\n";
        let sections = parse(text, true).unwrap();
        assert_eq!(sections.len(), 2);
        assert_eq!(sections[0].name.as_deref(), Some("1"));
        assert_eq!(&text[sections[0].text.0..sections[0].text.1], "hand = 1\n\n");
        assert_eq!(&text[sections[1].text.0..sections[1].text.1], "hand = 2\n");
        assert_eq!(sections[1].doc, vec![("hand".to_string(), Toml::Num(num("2")))]);
        for (refused, line) in [("x = 1\n[1]\nhand = 1", 0), ("[1]\nhand = 1\n[1]\nhand = 2", 3),
                                ("[a.b]\nx = 1", 1), ("[1] x\n", 1)] {
            assert_eq!(parse(refused, true), Err(line), "{refused}");
        }
        assert_eq!(parse("[1]\nhand = 1", false), Err(1));
    }


    #[test]
    fn what_python_decides_is_left_to_it() {
        for text in ["time = 24:00:09", "time = 00:00:09:1", "time = 00:60:00", "x = 1e3", "x = infinity", "x = '''AMY'S'''", "[1]\nx = 1",
                     "x = \"a\\\"b\"", "x = 01", "x = 1_000", "a.b = 1", "x = 1\nx = 2",
                     "x = [1, 'a']", "x = [[1]]", "x = 1.", "x = .5", "x = 1\ry = 2", "x = truth",
                     "x = 1 y", "\u{feff}x = 1", "x = 0.1234567890123"] {
            assert!(parse(text, false).is_err(), "{text}");
        }
    }

    #[test]
    fn numbers_are_exact_and_whole_at_a_scale_only_when_they_are() {
        let half = num("10162.5");
        assert_eq!((half.whole_at(1), half.whole_at(2)), (None, Some(20325)));
        assert_eq!(num("-0.25").whole_at(100), Some(-25));
        assert_eq!(num("+3").whole_at(1), Some(3));
        assert_eq!(NOT_FINITE.whole_at(1), None);
        assert!(num("1.50").whole_at(2).is_some() && !num("1.50").integer);
    }
}
