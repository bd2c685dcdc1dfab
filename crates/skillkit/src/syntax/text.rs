//! Positions in a source text: byte spans, and the line/column pairs that people (1-based, in
//! characters) and the web editor (UTF-16 code units) use; and the encodings text is carried in
//! (base64, and the percent-encoding of URI paths and Markdown link destinations).

use serde::Serialize;

/// A half-open byte range `start..end` into a skill file's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    pub const fn empty(at: usize) -> Self {
        Span { start: at, end: at }
    }
    pub fn len(&self) -> usize {
        self.end - self.start
    }
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
    pub fn contains(&self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }
    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
    pub fn slice<'a>(&self, text: &'a str) -> &'a str {
        &text[self.start..self.end]
    }
}

/// A point in the text as editors show it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Position {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in Unicode scalar values (what a person counts).
    pub column: usize,
    /// 1-based column counted in UTF-16 code units (what JavaScript and CodeMirror count).
    pub column_utf16: usize,
}

/// Byte offsets of line starts, for turning offsets into positions. Lines end at `\n`; a `\r`
/// before it belongs to the line ending, not to a column.
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = Vec::with_capacity(text.len() / 40 + 1);
        starts.push(0);
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex { starts, len: text.len() }
    }

    /// Number of lines; a trailing newline does not start a new line.
    pub fn line_count(&self, text: &str) -> usize {
        if text.is_empty() {
            0
        } else if text.ends_with('\n') {
            self.starts.len() - 1
        } else {
            self.starts.len()
        }
    }

    /// 0-based line number holding `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// Byte offset where 0-based `line` starts (the end of the text past the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(self.len)
    }

    /// Byte span of 0-based `line` including its line ending.
    pub fn line_with_ending(&self, line: usize) -> Span {
        Span::new(self.line_start(line), self.line_start(line + 1))
    }

    /// Byte span of 0-based `line`, without its line ending.
    pub fn line_span(&self, text: &str, line: usize) -> Span {
        let Some(&start) = self.starts.get(line) else { return Span::empty(text.len()) };
        let mut end = self.starts.get(line + 1).map_or(text.len(), |s| s - 1);
        if end > start && text.as_bytes()[end - 1] == b'\r' && end < text.len() {
            end -= 1;
        }
        Span::new(start, end.max(start))
    }

    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let before = &text[self.starts[line]..offset];
        // The `\r` of a `\r\n` belongs to the line ending; a lone `\r` is a character of the line.
        let before = match before.strip_suffix('\r') {
            Some(b) if text[offset..].starts_with('\n') => b,
            _ => before,
        };
        Position { line: line + 1, column: before.chars().count() + 1, column_utf16: before.encode_utf16().count() + 1 }
    }
}

/// The greatest char boundary at or below `i`.
pub fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Standard base64 with padding (RFC 4648; Python's `base64.standard_b64encode`).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_carriage_return_counts_as_a_character_of_its_line() {
        // Found by the fuzzer (crates/skillkit-fuzz/findings/lint-lone-cr-column.lint).
        let text = "---\n\r:\r\nx";
        let lines = LineIndex::new(text);
        assert_eq!(lines.position(text, 5).column, 2, "after the lone \\r");
        // At the `\n` of `\r\n`, the `\r` is part of the line ending.
        assert_eq!(lines.position(text, 7).column, 3);
        assert_eq!(lines.position(text, 8), Position { line: 3, column: 1, column_utf16: 1 });
    }

    #[test]
    fn base64_matches_the_rfc_vectors() {
        let cases =
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE=")];
        for (plain, encoded) in cases {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
        assert_eq!(base64(&[0xff, 0xfe, 0xfd]), "//79");
    }

    #[test]
    fn positions_count_chars_and_utf16_units() {
        let text = "ab\ncé😀x\n";
        let idx = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(idx.position(text, x), Position { line: 2, column: 4, column_utf16: 5 });
        assert_eq!(idx.position(text, 0), Position { line: 1, column: 1, column_utf16: 1 });
        assert_eq!(idx.line_count(text), 2);
    }

    #[test]
    fn crlf_line_span_excludes_carriage_return() {
        let text = "a\r\nbc\r\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_span(text, 1).slice(text), "bc");
        assert_eq!(idx.position(text, 1).column, 2);
    }
}
