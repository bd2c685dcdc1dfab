//! Untrusted text shown to a person. A library's names, folder names, bodies, a suite's case ids,
//! a configuration's values and a model's replies are hostile input: written raw to a terminal,
//! their control characters move the cursor, clear the screen or set the clipboard (OSC 52), and
//! in a CI log a line starting with `::` (or holding `##[`) is a workflow command the GitHub
//! Actions runner executes. This module is the one place that knows it: an edge that shows such
//! text to a person calls [`escape`] (the CLI's one-line values; the language server's and the
//! app's messages are to do the same), and the CLI writes its human output and error messages
//! through [`Lines`] and its JSON through [`Json`].
//!
//! [`escape`] writes each C0 control character (U+0000–U+001F, but tab and newline where the
//! caller allows them), DEL (U+007F), each C1 control character (U+0080–U+009F) and each bidi
//! embedding, override and isolate control (U+202A–U+202E, U+2066–U+2069, which reorder what a
//! line shows: "Trojan Source") as Rust writes it in a string, `\u{1b}`: a backslash, `u`, and the
//! code point's lowercase hexadecimal digits, without leading zeros, in braces. Every other
//! character, all printable Unicode, is left as it is; text that needs no escape is returned
//! borrowed. A backslash is not escaped itself, so `\u{1b}` in the text and an escaped ESC look
//! the same: the point is that the terminal gets no control character, not that the text can be
//! read back.
//!
//! [`lines`] (whole text) and [`Lines`] (a writer, for text written in pieces) show several lines:
//! as [`escape`] with [`Allow::LINES`], and no line read as a runner's command. The runner reads
//! a line (split at `\n`, `\r` or `\r\n`) as a command when, leading whitespace trimmed, it starts
//! with `::`, or when it holds `##[` anywhere (the legacy form); so the first `:` of a line's
//! leading `::` is written `\:` (`\::add-mask::x`), and every `##[` is written `##\[`. A lone
//! `\r`, which the runner reads as a line break, is escaped (`\u{d}`); `\r\n` is a line ending and
//! stays.
//!
//! JSON escapes by its own rules, and its strings hold no line break, so none of its lines starts
//! with `::`; but a string may hold `##[`, DEL or a C1 control. [`Json`] (a writer) writes them
//! as JSON escapes (`##\u005b`, `\u009b`): the same string to a JSON reader.

use std::borrow::Cow;
use std::io::{self, Write};

/// Which whitespace control characters a caller keeps as they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allow {
    /// Tab (U+0009).
    pub tab: bool,
    /// Newline (U+000A), and a carriage return directly before one (a `\r\n` line ending).
    pub newline: bool,
}

impl Allow {
    /// One line (a name, a path, a field): every control character escaped, tab and newline too.
    pub const NONE: Allow = Allow { tab: false, newline: false };
    /// Several lines (a body, a reply, a message): tab, newline and `\r\n` kept.
    pub const LINES: Allow = Allow { tab: true, newline: true };
}

/// Whether [`escape`] writes `c` escaped (unless it is a tab or newline the caller allows): a C0
/// or C1 control character, DEL, or a bidi embedding, override or isolate control.
pub fn is_escaped(c: char) -> bool {
    matches!(c, '\0'..='\x1f' | '\x7f'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` is kept as it is under `allow` (`\r` only when a `\n` follows: see [`escape`]).
fn kept(c: char, next: Option<char>, allow: Allow) -> bool {
    match c {
        '\t' => allow.tab,
        '\n' => allow.newline,
        '\r' => allow.newline && next == Some('\n'),
        c => !is_escaped(c),
    }
}

/// `text` as it may be shown to a person: control characters escaped as `\u{1b}` (see the module
/// documentation), tab and newline kept where `allow` says so. Borrowed when nothing is escaped.
pub fn escape(text: &str, allow: Allow) -> Cow<'_, str> {
    // ASCII without control characters: nothing to look at twice.
    let bytes = text.as_bytes();
    let plain = |b: u8| (0x20..0x7f).contains(&b);
    let Some(first) = bytes.iter().position(|&b| !plain(b)) else { return Cow::Borrowed(text) };
    let mut chars = text[first..].char_indices().peekable();
    let at = loop {
        let Some((i, c)) = chars.next() else { return Cow::Borrowed(text) };
        if !kept(c, chars.peek().map(|&(_, n)| n), allow) {
            break first + i;
        }
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..at]);
    let mut chars = text[at..].chars().peekable();
    while let Some(c) = chars.next() {
        if kept(c, chars.peek().copied(), allow) {
            out.push(c);
        } else {
            out.extend(c.escape_unicode());
        }
    }
    Cow::Owned(out)
}

/// Several lines of `text` as they may be shown to a person and printed in a CI log: as
/// [`escape`] with [`Allow::LINES`], a line's leading `::` written `\::` and `##[` written `##\[`
/// (see the module documentation). Borrowed when nothing changes.
pub fn lines(text: &str) -> Cow<'_, str> {
    // Nothing that could start a command, nothing to escape: as it is, without a copy.
    if !text.bytes().any(|b| matches!(b, b':' | b'#' | b'\r')) && matches!(escape(text, Allow::LINES), Cow::Borrowed(_))
    {
        return Cow::Borrowed(text);
    }
    let mut guard = Guard::default();
    let mut out = String::new();
    guard.push(text, &mut out);
    guard.finish(&mut out);
    if out == text {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(out)
    }
}

/// A character held back until the next one says what it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Held {
    #[default]
    Nothing,
    /// A `:` at a line's start (after whitespace only): a second one makes it `::`.
    Colon,
    /// `#` or `##`: a `[` after `##` makes it `##[`.
    Hashes(u8),
    /// `\r`: a line ending when `\n` follows, else escaped.
    Return,
}

/// The state of [`lines`] between pieces of text: where the line is, what is held back.
#[derive(Clone, Copy, Debug)]
struct Guard {
    /// Only whitespace so far on this line.
    line_start: bool,
    held: Held,
}

impl Default for Guard {
    fn default() -> Self {
        Guard { line_start: true, held: Held::Nothing }
    }
}

impl Guard {
    fn push(&mut self, text: &str, out: &mut String) {
        out.reserve(text.len());
        for c in text.chars() {
            self.char(c, out);
        }
    }

    fn char(&mut self, c: char, out: &mut String) {
        match std::mem::take(&mut self.held) {
            Held::Nothing => {}
            Held::Colon if c == ':' => {
                out.push_str("\\::");
                self.line_start = false;
                return;
            }
            Held::Hashes(1) if c == '#' => {
                self.held = Held::Hashes(2);
                return;
            }
            Held::Hashes(_) if c == '#' => {
                // `###`: the first can be written; the last two may still start `##[`.
                out.push('#');
                self.held = Held::Hashes(2);
                return;
            }
            Held::Hashes(2) if c == '[' => {
                out.push_str("##\\[");
                self.line_start = false;
                return;
            }
            Held::Return if c == '\n' => out.push('\r'),
            held => self.release(held, out),
        }
        match c {
            '\n' => {
                out.push('\n');
                self.line_start = true;
            }
            '\r' => self.held = Held::Return,
            ':' if self.line_start => self.held = Held::Colon,
            '#' => self.held = Held::Hashes(1),
            '\t' => out.push('\t'),
            c if is_escaped(c) => {
                out.extend(c.escape_unicode());
                self.line_start = false;
            }
            c => {
                out.push(c);
                self.line_start &= c.is_whitespace();
            }
        }
    }

    /// Writes what `held` holds as it is: what follows does not make it a command.
    fn release(&mut self, held: Held, out: &mut String) {
        match held {
            Held::Nothing => return,
            Held::Colon => out.push(':'),
            Held::Hashes(n) => out.extend(std::iter::repeat_n('#', n as usize)),
            Held::Return => out.push_str("\\u{d}"),
        }
        self.line_start = false;
    }

    /// Writes what is held: the text ends here.
    fn finish(&mut self, out: &mut String) {
        let held = std::mem::take(&mut self.held);
        self.release(held, out);
    }
}

/// A writer that passes what is written to `inner` as [`lines`] shows it, for text written in
/// pieces (a report written as it goes). Up to two characters that may start `::` or `##[` (or a
/// `\r` that may end a line) are held back until the next piece says what they are, also across
/// [`flush`](Write::flush); [`Lines::finish`], [`Lines::release`] or dropping the writer writes
/// them.
pub struct Lines<W: Write> {
    inner: W,
    guard: Guard,
    /// The start of a UTF-8 sequence whose end has not been written yet.
    partial: Vec<u8>,
}

impl<W: Write> Lines<W> {
    pub fn new(inner: W) -> Self {
        Lines { inner, guard: Guard::default(), partial: Vec::new() }
    }

    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// The writer underneath, for what the caller writes itself (a colour's escape sequence):
    /// call [`Lines::release`] first, so that it comes after the text written so far.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// Writes what is held back as it is, before the caller writes to [`Lines::get_mut`]. Only
    /// when something is written there next (a colour's escape sequence, which breaks a `::` or
    /// `##[` by itself) or the text ends: the line is taken as no longer at its start.
    pub fn release(&mut self) -> io::Result<()> {
        let mut out = String::new();
        if !self.partial.is_empty() {
            self.guard.push(&String::from_utf8_lossy(&std::mem::take(&mut self.partial)), &mut out);
        }
        self.guard.finish(&mut out);
        self.inner.write_all(out.as_bytes())
    }

    /// Writes what is held back and flushes: the text ends here.
    pub fn finish(&mut self) -> io::Result<()> {
        self.release()?;
        self.inner.flush()
    }
}

impl<W: Write> Write for Lines<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        let mut out = String::new();
        let mut rest = &self.partial[..];
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    self.guard.push(s, &mut out);
                    rest = &[];
                    break;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    self.guard.push(std::str::from_utf8(valid).expect("checked"), &mut out);
                    match e.error_len() {
                        // Not UTF-8: shown as the replacement character, as a lossy read shows it.
                        Some(n) => {
                            self.guard.push("\u{FFFD}", &mut out);
                            rest = &after[n..];
                        }
                        // The sequence goes on in the next piece.
                        None => {
                            rest = after;
                            break;
                        }
                    }
                }
            }
        }
        let kept = rest.len();
        let len = self.partial.len();
        self.partial.drain(..len - kept);
        self.inner.write_all(out.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for Lines<W> {
    fn drop(&mut self) {
        let _ = self.release();
    }
}

/// A writer for JSON printed to a terminal or where a CI runner may read it: every `##[` written
/// `##\u005b`, and DEL, the C1 controls and the bidi controls [`escape`] escapes as `\u009b`
/// (`serde_json` escapes the C0 controls itself, but not these). The same strings to a JSON
/// reader: in JSON a `[` follows `#`, and a character other than ASCII appears, only inside a
/// string. A `#` or `##`, or the start of a UTF-8 sequence, at the end of a piece is held back
/// until the next piece (or the writer's drop) says what follows it.
pub struct Json<W: Write> {
    inner: W,
    /// `#`s held back (0 to 2).
    hashes: usize,
    /// The start of a UTF-8 sequence whose end has not been written yet.
    partial: Vec<u8>,
}

impl<W: Write> Json<W> {
    pub fn new(inner: W) -> Self {
        Json { inner, hashes: 0, partial: Vec::new() }
    }

    fn push(&mut self, c: char, out: &mut String) {
        match c {
            '#' if self.hashes == 2 => out.push('#'),
            '#' => self.hashes += 1,
            '[' if self.hashes == 2 => {
                out.push_str("##\\u005b");
                self.hashes = 0;
            }
            c => {
                out.extend(std::iter::repeat_n('#', std::mem::take(&mut self.hashes)));
                if c > '\x1f' && is_escaped(c) {
                    out.push_str(&format!("\\u{:04x}", c as u32));
                } else {
                    out.push(c);
                }
            }
        }
    }
}

impl<W: Write> Write for Json<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // ASCII without `#` or DEL, nothing held: as it is.
        if self.hashes == 0 && self.partial.is_empty() && buf.iter().all(|&b| b < 0x7f && b != b'#') {
            self.inner.write_all(buf)?;
            return Ok(buf.len());
        }
        self.partial.extend_from_slice(buf);
        let bytes = std::mem::take(&mut self.partial);
        let (text, rest) = match std::str::from_utf8(&bytes) {
            Ok(t) => (t, &[][..]),
            // JSON from `serde_json` is UTF-8: only a sequence cut at the piece's end is held.
            Err(e) if e.error_len().is_none() => {
                let (t, rest) = bytes.split_at(e.valid_up_to());
                (std::str::from_utf8(t).expect("checked"), rest)
            }
            Err(_) => return Err(io::Error::new(io::ErrorKind::InvalidData, "JSON that is not UTF-8")),
        };
        let mut out = String::with_capacity(text.len() + 8);
        for c in text.chars() {
            self.push(c, &mut out);
        }
        self.partial = rest.to_vec();
        self.inner.write_all(out.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for Json<W> {
    fn drop(&mut self) {
        let held = std::mem::take(&mut self.hashes);
        let _ = self.inner.write_all(&b"##"[..held]);
        let _ = self.inner.write_all(&std::mem::take(&mut self.partial));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Whether `text` would reach a terminal or a CI runner as something other than text: a
    /// control character other than tab, newline and a `\r` ending a line, a line that starts
    /// with `::`, or `##[`.
    fn commands_or_controls(text: &str) -> Option<String> {
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if is_escaped(c) && c != '\t' && c != '\n' && !(c == '\r' && chars.peek() == Some(&'\n')) {
                return Some(format!("control {c:?}"));
            }
        }
        if let Some(l) = text.split(['\n', '\r']).find(|l| l.trim_start().starts_with("::")) {
            return Some(format!("command line {l:?}"));
        }
        text.contains("##[").then(|| "##[".to_string())
    }

    #[test]
    fn control_characters_are_escaped_the_way_rust_writes_them() {
        let hostile = "a\x1b]52;c;aGk=\x07b\x1b[2Jc\u{9b}d\x7fe\0f\u{202e}g";
        assert_eq!(
            escape(hostile, Allow::NONE),
            "a\\u{1b}]52;c;aGk=\\u{7}b\\u{1b}[2Jc\\u{9b}d\\u{7f}e\\u{0}f\\u{202e}g"
        );
        assert_eq!(escape("a\tb\nc\r\nd\re", Allow::NONE), "a\\u{9}b\\u{a}c\\u{d}\\u{a}d\\u{d}e");
        assert_eq!(escape("a\tb\nc\r\nd\re\r", Allow::LINES), "a\tb\nc\r\nd\\u{d}e\\u{d}");
        assert_eq!(escape("a\tb", Allow { tab: true, newline: false }), "a\tb");
    }

    #[test]
    fn text_without_control_characters_is_borrowed() {
        for text in ["", "plain ascii", "é 😀 ‏עברית العربية 中文 \u{a0}\u{ad}\u{200b}", "a\tb\nc\r\n"]
        {
            assert!(matches!(escape(text, Allow::LINES), Cow::Borrowed(_)), "{text:?}");
            assert!(matches!(lines(text), Cow::Borrowed(_)), "{text:?}");
        }
        assert!(matches!(escape("a\tb", Allow::NONE), Cow::Owned(_)));
    }

    #[test]
    fn a_line_is_never_a_workflow_command() {
        assert_eq!(lines("::add-mask::secret"), "\\::add-mask::secret");
        assert_eq!(lines("ok\n  \t::error::x\n"), "ok\n  \t\\::error::x\n");
        assert_eq!(lines("\u{3000}::error::x"), "\u{3000}\\::error::x");
        assert_eq!(lines("a::b\n: one\n:"), "a::b\n: one\n:");
        assert_eq!(lines("x ##[add-mask]y ### #[ ##"), "x ##\\[add-mask]y ### #[ ##");
        assert_eq!(lines("###[x"), "###\\[x");
        // The runner also ends a line at a lone `\r`: escaped, it ends none.
        assert_eq!(lines("ok\r::error::x"), "ok\\u{d}::error::x");
        assert_eq!(lines("ok\r\n::error::x\r\n"), "ok\r\n\\::error::x\r\n");
        // An escaped control character is not whitespace: the line no longer starts with `::`.
        assert_eq!(lines("\x0b::x"), "\\u{b}::x");
    }

    #[test]
    fn the_writer_holds_back_what_the_next_piece_decides() {
        let mut out = Vec::new();
        {
            let mut w = Lines::new(&mut out);
            for piece in ["ok\n", ":", ":error::x\n#", "#", "[", "y] \u{1b}\r", "\n", ":"] {
                w.write_all(piece.as_bytes()).unwrap();
            }
            w.write_all(&"é".as_bytes()[..1]).unwrap();
            w.write_all(&"é".as_bytes()[1..]).unwrap();
            w.write_all(b"\xff:").unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "ok\n\\::error::x\n##\\[y] \\u{1b}\r\n:é\u{FFFD}:");
    }

    #[test]
    fn json_holds_no_legacy_command_and_reads_the_same() {
        let value =
            serde_json::json!({"a": "x ##[add-mask]y ###[z] #[ ## \u{9b}\u{7f}\u{202e}é\u{1b}", "##[k": ["#", "##"]});
        let text = serde_json::to_string_pretty(&value).unwrap();
        let mut out = Vec::new();
        {
            let mut w = Json::new(&mut out);
            for piece in text.as_bytes().chunks(3) {
                w.write_all(piece).unwrap();
            }
        }
        let out = String::from_utf8(out).unwrap();
        assert!(!out.contains("##["), "{out}");
        assert!(out.contains(r"x ##\u005badd-mask]y ###\u005bz] #[ ## \u009b\u007f\u202eé\u001b"), "{out}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&out).unwrap(), value);
    }

    proptest! {
        #[test]
        fn escaped_text_has_no_control_characters(text in any::<String>(), tab: bool, newline: bool) {
            let allow = Allow { tab, newline };
            let out = escape(&text, allow);
            let mut chars = out.chars().peekable();
            while let Some(c) = chars.next() {
                let allowed = (c == '\t' && tab)
                    || (c == '\n' && newline)
                    || (c == '\r' && newline && chars.peek() == Some(&'\n'));
                prop_assert!(!is_escaped(c) || allowed, "{c:?} in {out:?}");
            }
            // Escaping what is shown changes nothing more.
            prop_assert_eq!(escape(&out, allow), out.clone());
        }

        #[test]
        fn printable_text_is_unchanged(text in "[^\\p{Cc}\u{202a}-\u{202e}\u{2066}-\u{2069}]*") {
            prop_assert!(matches!(escape(&text, Allow::NONE), Cow::Borrowed(_)));
        }

        #[test]
        fn shown_lines_are_neither_commands_nor_controls(
            text in proptest::collection::vec(prop_oneof![
                Just(":".to_string()), Just("#".to_string()), Just("[".to_string()), Just("\r".to_string()),
                Just("\n".to_string()), Just(" ".to_string()), Just("\t".to_string()), Just("\u{1b}".to_string()),
                any::<String>(),
            ], 0..24).prop_map(|v| v.concat()),
            cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..6),
        ) {
            let shown = lines(&text);
            prop_assert_eq!(commands_or_controls(&shown), None, "{:?} -> {:?}", text, shown);
            // Written in pieces cut anywhere, even inside a character, the writer writes the same.
            let bytes = text.as_bytes();
            let mut at: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
            at.sort_unstable();
            let mut out = Vec::new();
            {
                let mut w = Lines::new(&mut out);
                let mut from = 0;
                for to in at.into_iter().chain([bytes.len()]) {
                    w.write_all(&bytes[from..to]).unwrap();
                    from = to;
                }
            }
            prop_assert_eq!(String::from_utf8(out).unwrap(), shown.into_owned());
        }

        #[test]
        fn json_written_in_pieces_reads_the_same_without_legacy_commands(
            text in proptest::collection::vec(
                prop_oneof![Just("#"), Just("["), Just("\\"), Just("x"), Just("\u{9b}"), Just("\u{7f}"), Just("é")],
                0..16,
            ),
            cut in any::<prop::sample::Index>(),
        ) {
            let value = serde_json::Value::String(text.concat());
            let json = serde_json::to_vec_pretty(&serde_json::json!([value, {"k": value}])).unwrap();
            let at = cut.index(json.len() + 1);
            let mut out = Vec::new();
            {
                let mut w = Json::new(&mut out);
                w.write_all(&json[..at]).unwrap();
                w.write_all(&json[at..]).unwrap();
            }
            prop_assert!(!out.windows(3).any(|w| w == b"##["));
            prop_assert!(!String::from_utf8(out.clone()).unwrap().chars().any(|c| c != '\n' && is_escaped(c)));
            prop_assert_eq!(
                serde_json::from_slice::<serde_json::Value>(&out).unwrap(),
                serde_json::from_slice::<serde_json::Value>(&json).unwrap()
            );
        }

        #[test]
        fn lines_that_are_neither_commands_nor_controls_are_unchanged(text in any::<String>()) {
            if commands_or_controls(&text).is_none() && !text.contains('\r') {
                prop_assert!(matches!(lines(&text), Cow::Borrowed(_)), "{:?}", text);
            }
        }
    }
}
