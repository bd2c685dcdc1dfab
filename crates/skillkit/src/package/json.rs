//! JSON with spans: a package manifest parsed so that each finding points at its node (a key, a
//! value), as the frontmatter's do at their YAML nodes. Strict JSON (RFC 8259, what `JSON.parse`
//! takes): no comments, no trailing commas; a byte-order mark is an error, as it is for
//! `JSON.parse` on the text Node reads. Nesting is capped so that a hostile file cannot exhaust
//! the stack.

use crate::syntax::text::Span;

/// The deepest nesting of arrays and objects read; deeper is an error.
pub const MAX_DEPTH: usize = 128;

#[derive(Clone, Debug, PartialEq)]
pub struct Json {
    pub kind: Kind,
    /// The value's bytes, quotes and brackets included.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Null,
    Bool(bool),
    /// The number as written.
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<Member>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub key: String,
    pub key_span: Span,
    pub value: Json,
}

/// Why a text is not JSON, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub message: String,
    pub span: Span,
}

impl Json {
    /// The member `key` of an object (the first, when a key repeats: see [`Json::get_last`]).
    pub fn get(&self, key: &str) -> Option<&Member> {
        match &self.kind {
            Kind::Object(ms) => ms.iter().find(|m| m.key == key),
            _ => None,
        }
    }
    /// The member `key` as `JSON.parse` keeps it: the last of a repeated key.
    pub fn get_last(&self, key: &str) -> Option<&Member> {
        match &self.kind {
            Kind::Object(ms) => ms.iter().rev().find(|m| m.key == key),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn members(&self) -> &[Member] {
        match &self.kind {
            Kind::Object(ms) => ms,
            _ => &[],
        }
    }
    pub fn items(&self) -> &[Json] {
        match &self.kind {
            Kind::Array(items) => items,
            _ => &[],
        }
    }
    /// The JSON type's name, as validators say it (`object`, `array`, `string`, …).
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::Null => "null",
            Kind::Bool(_) => "boolean",
            Kind::Number(_) => "number",
            Kind::String(_) => "string",
            Kind::Array(_) => "array",
            Kind::Object(_) => "object",
        }
    }
}

/// Parse `text` as one JSON value (surrounding whitespace allowed).
pub fn parse(text: &str) -> Result<Json, JsonError> {
    let mut p = Parser { s: text.as_bytes(), i: 0, text };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.err_here("unexpected text after the JSON value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    text: &'a str,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    /// An error on the character at the cursor (or the end of the text).
    fn err_here(&self, message: &str) -> JsonError {
        let end = match self.text[self.i..].chars().next() {
            Some(c) => self.i + c.len_utf8(),
            None => self.i,
        };
        let message = match self.text[self.i..].chars().next() {
            Some(c) if !c.is_control() => format!("{message}: found `{c}`"),
            Some(c) => format!("{message}: found U+{:04X}", c as u32),
            None => format!("{message}: found the end of the file"),
        };
        JsonError { message, span: Span::new(self.i, end) }
    }

    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(JsonError {
                message: format!("nested deeper than {MAX_DEPTH} levels: not read further"),
                span: Span::new(self.i, self.i + 1),
            });
        }
        let start = self.i;
        let kind = match self.s.get(self.i) {
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Kind::String(self.string()?),
            Some(b't') => self.word("true", Kind::Bool(true))?,
            Some(b'f') => self.word("false", Kind::Bool(false))?,
            Some(b'n') => self.word("null", Kind::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            _ => return Err(self.err_here("expected a JSON value")),
        };
        Ok(Json { kind, span: Span::new(start, self.i) })
    }

    fn word(&mut self, w: &str, kind: Kind) -> Result<Kind, JsonError> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(kind)
        } else {
            Err(self.err_here("expected a JSON value"))
        }
    }

    fn number(&mut self) -> Result<Kind, JsonError> {
        let start = self.i;
        let digits = |p: &mut Self| {
            let s = p.i;
            while p.i < p.s.len() && p.s[p.i].is_ascii_digit() {
                p.i += 1;
            }
            p.i > s
        };
        if self.s[self.i] == b'-' {
            self.i += 1;
        }
        if self.s.get(self.i) == Some(&b'0') {
            self.i += 1;
        } else if !digits(self) {
            return Err(self.err_here("expected a digit"));
        }
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            if !digits(self) {
                return Err(self.err_here("expected a digit after `.`"));
            }
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !digits(self) {
                return Err(self.err_here("expected a digit in the exponent"));
            }
        }
        Ok(Kind::Number(self.text[start..self.i].to_string()))
    }

    fn string(&mut self) -> Result<String, JsonError> {
        let open = self.i;
        self.i += 1;
        let mut out = String::new();
        loop {
            let Some(&b) = self.s.get(self.i) else {
                return Err(JsonError { message: "unclosed string".into(), span: Span::new(open, open + 1) });
            };
            match b {
                b'"' => {
                    self.i += 1;
                    return Ok(out);
                }
                b'\\' => {
                    self.i += 1;
                    let c = match self.s.get(self.i) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.i += 1;
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) && self.s[self.i..].starts_with(b"\\u") && {
                                let save = self.i;
                                self.i += 2;
                                let lo = self.hex4();
                                match lo {
                                    Ok(lo) if (0xDC00..0xE000).contains(&lo) => {
                                        out.push(
                                            char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                                .unwrap_or('\u{FFFD}'),
                                        );
                                        true
                                    }
                                    _ => {
                                        self.i = save;
                                        false
                                    }
                                }
                            } {
                                continue;
                            } else {
                                hi
                            };
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                            continue;
                        }
                        _ => return Err(self.err_here("invalid escape in a string")),
                    };
                    out.push(c);
                    self.i += 1;
                }
                0..=0x1F => return Err(self.err_here("control character in a string (escape it)")),
                _ => {
                    let c = self.text[self.i..].chars().next().unwrap_or('\u{FFFD}');
                    out.push(c);
                    self.i += c.len_utf8();
                }
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let h = self.s.get(self.i..self.i + 4).and_then(|h| std::str::from_utf8(h).ok());
        match h.and_then(|h| u32::from_str_radix(h, 16).ok()) {
            Some(v) if h.is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit())) => {
                self.i += 4;
                Ok(v)
            }
            _ => Err(self.err_here("expected four hex digits after `\\u`")),
        }
    }

    fn array(&mut self, depth: usize) -> Result<Kind, JsonError> {
        self.i += 1;
        let mut items = vec![];
        self.ws();
        if self.s.get(self.i) == Some(&b']') {
            self.i += 1;
            return Ok(Kind::Array(items));
        }
        loop {
            self.ws();
            items.push(self.value(depth + 1)?);
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Kind::Array(items));
                }
                _ => return Err(self.err_here("expected `,` or `]`")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Kind, JsonError> {
        self.i += 1;
        let mut members = vec![];
        self.ws();
        if self.s.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Ok(Kind::Object(members));
        }
        loop {
            self.ws();
            if self.s.get(self.i) != Some(&b'"') {
                return Err(self.err_here("expected a key in double quotes"));
            }
            let ks = self.i;
            let key = self.string()?;
            let key_span = Span::new(ks, self.i);
            self.ws();
            if self.s.get(self.i) != Some(&b':') {
                return Err(self.err_here("expected `:` after the key"));
            }
            self.i += 1;
            self.ws();
            let value = self.value(depth + 1)?;
            members.push(Member { key, key_span, value });
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Kind::Object(members));
                }
                _ => return Err(self.err_here("expected `,` or `}`")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_point_at_keys_and_values() {
        let t = "{\n  \"name\": \"x\",\n  \"n\": [1, -2.5e3, true, null]\n}";
        let v = parse(t).unwrap();
        let name = v.get("name").unwrap();
        assert_eq!(name.key_span.slice(t), "\"name\"");
        assert_eq!(name.value.span.slice(t), "\"x\"");
        assert_eq!(v.get("n").unwrap().value.items()[1].span.slice(t), "-2.5e3");
    }

    #[test]
    fn errors_are_located() {
        let t = "{\n  \"a\": 1,\n}";
        let e = parse(t).unwrap_err();
        assert_eq!(e.span.start, t.len() - 1);
        assert!(e.message.contains("expected a key"), "{}", e.message);
        assert!(parse("\u{feff}{}").is_err());
        assert!(parse("[1,]").is_err());
        assert!(parse("{} x").is_err());
        assert!(parse("\"a\u{1}\"").is_err());
        assert!(parse("01").is_err());
    }

    #[test]
    fn escapes_decode() {
        assert_eq!(parse(r#""a\u00e9\ud83d\ude00\n""#).unwrap().as_str(), Some("aé😀\n"));
    }

    proptest::proptest! {
        /// Any text parses or fails with an error whose span lies on character boundaries.
        #[test]
        fn never_panics_and_spans_are_boundaries(t in "[\\[\\]{}:,\"\\\\ a-z0-9.eE+\\-\u{e9}\u{1F600}\n]{0,40}") {
            match parse(&t) {
                Ok(v) => proptest::prop_assert!(t.is_char_boundary(v.span.start) && t.is_char_boundary(v.span.end)),
                Err(e) => proptest::prop_assert!(e.span.end <= t.len() && t.is_char_boundary(e.span.start) && t.is_char_boundary(e.span.end)),
            }
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let t = "[".repeat(100_000);
        assert!(parse(&t).unwrap_err().message.contains("nested deeper"));
    }
}
