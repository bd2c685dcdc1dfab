//! A fast path for [`crate::syntax::markdown::references`]: a scanner that is exact on a well-defined
//! subset of CommonMark and answers `None` the moment the body leaves it, so that the caller
//! falls back to the full pulldown-cmark parse. On its subset it gives exactly what the full parse
//! gives (a differential property test below checks this against pulldown-cmark).
//!
//! The subset:
//! - line endings `\n` or `\r\n` (a lone `\r` leaves it), no NUL;
//! - blocks: blank lines, paragraphs, ATX and setext headings, thematic breaks, fenced code
//!   blocks, and bullet or ordered list items (nested, with lazy continuation lines) whose first
//!   line has content after 1 to 4 spaces;
//! - not in it: block quotes, HTML blocks, indented code blocks, empty list items, tabs in the
//!   indentation of a line outside a top-level fenced code block or right after a list marker,
//!   and any paragraph that could start with a link reference definition (so that no reference
//!   link can exist: `[text]`, `[text][label]` and `[text][]` are plain text);
//! - inlines: code spans, backslash escapes, entities (as text), and inline links and images
//!   whose destination is written plainly (no `<…>`, spaces, parentheses, `\` or `&`) and
//!   directly followed by `)`, with no title; not in it: any `<` outside code spans (autolinks
//!   and raw HTML).
//!
//! Block structure follows the CommonMark reference algorithm (commonmark.js's `blockStarts`):
//! the containers (list items) a line continues, then the block starts at that level, then lazy
//! paragraph continuation.

use super::{code_paths, parse_target, RefKind, Reference};
use crate::syntax::text::Span;

/// Why the scan gave up: the body is outside the subset.
struct Unsupported;

type Scan<T> = Result<T, Unsupported>;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Leaf {
    None,
    /// A paragraph from this byte (its first content character) to `end` of its last line.
    Paragraph {
        start: usize,
        end: usize,
    },
    /// A fenced code block opened with `len` times `ch`.
    Fence {
        ch: u8,
        len: usize,
    },
}

/// The references of `text[body]`, or `None` when the body is outside the subset.
pub(crate) fn references(text: &str, body: Span) -> Option<Vec<Reference>> {
    let src = body.slice(text);
    let mut blocks = Blocks { src, inline: vec![], items: vec![], leaf: Leaf::None };
    blocks.run().ok()?;
    let mut out = vec![];
    for &(start, end) in &blocks.inline {
        inline(src, body.start, start, end, &mut out).ok()?;
    }
    out.sort_by_key(|r: &Reference| (r.span.start, r.span.end));
    Some(out)
}

struct Blocks<'a> {
    src: &'a str,
    /// Inline content to scan: paragraphs and headings, as byte ranges of `src`.
    inline: Vec<(usize, usize)>,
    /// Open list items: the column their content starts at (no tabs: columns are bytes).
    items: Vec<usize>,
    leaf: Leaf,
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&c| c == b' ' || c == b'\t')
}

fn spaces(line: &[u8], from: usize) -> usize {
    line[from..].iter().take_while(|&&c| c == b' ').count()
}

/// A thematic break: three or more of one of `*`, `-`, `_`, with spaces or tabs between.
fn is_thematic_break(rest: &[u8]) -> bool {
    let Some(&c) = rest.first() else { return false };
    if !matches!(c, b'*' | b'-' | b'_') {
        return false;
    }
    let mut n = 0;
    for &x in rest {
        if x == c {
            n += 1;
        } else if x != b' ' && x != b'\t' {
            return false;
        }
    }
    n >= 3
}

/// A setext underline: `=`s or `-`s, then only spaces or tabs.
fn is_setext_underline(rest: &[u8]) -> bool {
    let Some(&c) = rest.first() else { return false };
    if c != b'=' && c != b'-' {
        return false;
    }
    let run = rest.iter().take_while(|&&x| x == c).count();
    is_blank(&rest[run..])
}

impl Blocks<'_> {
    fn close_leaf(&mut self) {
        if let Leaf::Paragraph { start, end } = self.leaf {
            self.inline.push((start, end));
        }
        self.leaf = Leaf::None;
    }

    fn run(&mut self) -> Scan<()> {
        let src = self.src;
        let bytes = src.as_bytes();
        if memchr::memchr(0, bytes).is_some() {
            return Err(Unsupported);
        }
        // Only `\r\n` line endings: a lone `\r` is a line ending too.
        if memchr::memchr_iter(b'\r', bytes).any(|i| bytes.get(i + 1) != Some(&b'\n')) {
            return Err(Unsupported);
        }
        let mut pos = 0;
        while pos < bytes.len() {
            let nl = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
            let mut end = nl;
            if end > pos && bytes[end - 1] == b'\r' {
                end -= 1;
            }
            self.line(pos, &bytes[pos..end])?;
            pos = nl + 1;
        }
        self.close_leaf();
        Ok(())
    }

    /// One line, starting at byte `at` of the body.
    fn line(&mut self, at: usize, line: &[u8]) -> Scan<()> {
        let indent = spaces(line, 0);
        let blank = is_blank(line);
        let tabbed = !blank && line[indent] == b'\t';
        // Containers this line continues.
        let mut matched = 0;
        let mut col = 0;
        for &offset in &self.items {
            if blank || indent >= offset {
                matched += 1;
                col = offset;
            } else {
                break;
            }
        }
        let all_matched = matched == self.items.len();
        if let Leaf::Fence { ch, len } = self.leaf {
            if tabbed && self.items.is_empty() {
                // A tab in the indentation means 4 columns or more: content, never the closing fence.
                return Ok(());
            }
            if tabbed {
                return Err(Unsupported);
            }
            if all_matched {
                let rest = &line[col.min(line.len())..];
                let ind = spaces(rest, 0);
                let run = rest[ind..].iter().take_while(|&&c| c == ch).count();
                if ind <= 3 && run >= len && is_blank(&rest[ind + run..]) {
                    if rest.contains(&b'\t') {
                        // pulldown-cmark does not close a fence followed by a tab.
                        return Err(Unsupported);
                    }
                    self.leaf = Leaf::None;
                }
                return Ok(());
            }
        }
        if tabbed {
            return Err(Unsupported);
        }
        if blank {
            // Blank lines continue every list item (none is empty) and end a paragraph.
            self.close_leaf();
            return Ok(());
        }
        let paragraph_tip = matches!(self.leaf, Leaf::Paragraph { .. });
        // The innermost matched container is the paragraph itself.
        let mut in_paragraph = paragraph_tip && all_matched;
        let mut started = false;
        loop {
            let ind = spaces(line, col);
            let first = col + ind;
            let rest = &line[first..];
            if rest[0] == b'\t' {
                return Err(Unsupported); // tabs count as columns in the indentation
            }
            if ind >= 4 {
                if paragraph_tip && !started {
                    break; // continuation text (an indented code block cannot interrupt a paragraph)
                }
                return Err(Unsupported); // an indented code block
            }
            let c = rest[0];
            if c == b'>' || c == b'<' {
                return Err(Unsupported);
            }
            if c == b'#' {
                let hashes = rest.iter().take_while(|&&x| x == b'#').count();
                if hashes <= 6 && (hashes == rest.len() || matches!(rest[hashes], b' ' | b'\t')) {
                    if rest.contains(&b'\t') {
                        // pulldown-cmark counts a tab after a heading's last code span as part of it.
                        return Err(Unsupported);
                    }
                    self.start_block(matched);
                    let s = first + hashes;
                    let e = heading_content_end(line, s);
                    let s = s + line[s..e].iter().take_while(|&&x| x == b' ' || x == b'\t').count();
                    if s < e {
                        self.inline.push((at + s, at + e));
                    }
                    return Ok(());
                }
            }
            if c == b'`' || c == b'~' {
                let run = rest.iter().take_while(|&&x| x == c).count();
                if run >= 3 && !(c == b'`' && rest[run..].contains(&b'`')) {
                    if rest.contains(&b'\t') {
                        return Err(Unsupported);
                    }
                    self.start_block(matched);
                    self.leaf = Leaf::Fence { ch: c, len: run };
                    return Ok(());
                }
            }
            if in_paragraph && is_setext_underline(rest) {
                self.close_leaf();
                return Ok(());
            }
            if is_thematic_break(rest) {
                self.start_block(matched);
                return Ok(());
            }
            // A list item.
            let (marker, ordered_one) = match c {
                b'-' | b'+' | b'*' => (1, false),
                b'0'..=b'9' => {
                    let digits = rest.iter().take_while(|x| x.is_ascii_digit()).count();
                    if digits > 9 || digits == rest.len() || !matches!(rest[digits], b'.' | b')') {
                        break;
                    }
                    let number = &rest[..digits];
                    let significant = &number[number.iter().take_while(|&&d| d == b'0').count()..];
                    (digits + 1, significant == b"1")
                }
                _ => break,
            };
            if marker < rest.len() && rest[marker] == b'\t' {
                return Err(Unsupported);
            }
            if marker < rest.len() && rest[marker] != b' ' {
                break;
            }
            let after = spaces(rest, marker);
            if marker + after == rest.len() || is_blank(&rest[marker..]) {
                if in_paragraph {
                    break; // an empty item cannot interrupt a paragraph
                }
                return Err(Unsupported); // an empty list item
            }
            if in_paragraph && c.is_ascii_digit() && !ordered_one {
                break; // only a list starting at 1 can interrupt a paragraph
            }
            if after > 4 {
                return Err(Unsupported); // an item starting with indented code
            }
            self.start_block(matched);
            matched += 1;
            col = first + marker + after;
            self.items.push(col);
            in_paragraph = false;
            started = true;
        }
        // Text.
        if started {
            self.leaf = Leaf::Paragraph { start: at + col, end: at + line.len() };
            return Ok(());
        }
        if paragraph_tip {
            // Continuation, lazy or not: the containers stay open.
            if let Leaf::Paragraph { start, .. } = self.leaf {
                self.leaf = Leaf::Paragraph { start, end: at + line.len() };
            }
            return Ok(());
        }
        self.start_block(matched);
        let first = col + spaces(line, col);
        self.leaf = Leaf::Paragraph { start: at + first, end: at + line.len() };
        Ok(())
    }

    /// A block starts at container depth `matched`: close the others and the open leaf.
    fn start_block(&mut self, matched: usize) {
        self.close_leaf();
        self.items.truncate(matched);
    }
}

/// Where an ATX heading's content ends: before the closing `#` sequence and trailing spaces.
fn heading_content_end(line: &[u8], start: usize) -> usize {
    let mut e = line.len();
    while e > start && matches!(line[e - 1], b' ' | b'\t') {
        e -= 1;
    }
    let mut h = e;
    while h > start && line[h - 1] == b'#' {
        h -= 1;
    }
    if h == e {
        return e;
    }
    if h == start {
        return start; // only a closing sequence
    }
    if matches!(line[h - 1], b' ' | b'\t') {
        let mut s = h;
        while s > start && matches!(line[s - 1], b' ' | b'\t') {
            s -= 1;
        }
        return s;
    }
    e
}

/// The bytes the inline scan stops at.
/// The high bit of each byte of `w` (little-endian) that is one of [`SPECIAL`]'s, exact up to the
/// first one: a byte equal to `c` is a zero byte of `w ^ c…c`, found with the borrow trick
/// `(x - 0x01…01) & !x & 0x80…80`, whose borrows can mark only bytes after a true zero.
#[inline(always)]
fn special_mask(w: u64) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let zero = |c: u8| {
        let x = w ^ (LO * c as u64);
        x.wrapping_sub(LO) & !x & HI
    };
    zero(b'\\') | zero(b'<') | zero(b'`') | zero(b'!') | zero(b'[') | zero(b']')
}

static SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'\\' as usize] = true;
    t[b'<' as usize] = true;
    t[b'`' as usize] = true;
    t[b'!' as usize] = true;
    t[b'[' as usize] = true;
    t[b']' as usize] = true;
    t
};

/// An open `[` or `![`.
struct Opener {
    at: usize,
    image: bool,
}

/// The links, images and code-span paths of the inline content `src[start..end]`.
fn inline(src: &str, base: usize, start: usize, end: usize, out: &mut Vec<Reference>) -> Scan<()> {
    let b = src.as_bytes();
    // A paragraph starting with `[` and holding `]:` may start with a reference definition.
    if b[start] == b'[' && b[start..end].windows(2).any(|w| w == b"]:") {
        return Err(Unsupported);
    }
    let mut openers: Vec<Opener> = vec![];
    let mut codes: Vec<(usize, usize)> = vec![];
    // Formed links and images: from the opening bracket to the closing parenthesis.
    let mut links: Vec<(usize, usize)> = vec![];
    // The `[` openers below this index are inactive (a link closed after them): one number
    // instead of marking each opener, which a line of many `[` and many links made quadratic.
    let mut inactive_below = 0usize;
    let mut i = start;
    while i < end {
        // Eight bytes at a time: past them when none is special, else to the first special one.
        if i + 8 <= end {
            let m = special_mask(u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8])));
            if m == 0 {
                i += 8;
                continue;
            }
            i += (m.trailing_zeros() / 8) as usize;
        } else if !SPECIAL[b[i] as usize] {
            i += 1;
            continue;
        }
        match b[i] {
            b'\\' => i += if i + 1 < end && b[i + 1].is_ascii_punctuation() { 2 } else { 1 },
            b'<' => return Err(Unsupported),
            b'`' => {
                let n = b[i..end].iter().take_while(|&&c| c == b'`').count();
                let mut j = i + n;
                let mut close = None;
                while j < end {
                    if b[j] == b'`' {
                        let m = b[j..end].iter().take_while(|&&c| c == b'`').count();
                        if m == n {
                            close = Some(j + m);
                            break;
                        }
                        j += m;
                    } else {
                        j += 1;
                    }
                }
                match close {
                    Some(c) => {
                        codes.push((i, c));
                        i = c;
                    }
                    None => i += n,
                }
            }
            b'!' if i + 1 < end && b[i + 1] == b'[' => {
                inactive_below = inactive_below.min(openers.len());
                openers.push(Opener { at: i, image: true });
                i += 2;
            }
            b'[' => {
                inactive_below = inactive_below.min(openers.len());
                openers.push(Opener { at: i, image: false });
                i += 1;
            }
            b']' => {
                let Some(open) = openers.pop() else {
                    i += 1;
                    continue;
                };
                let active = open.image || openers.len() >= inactive_below;
                if !active || i + 1 >= end || b[i + 1] != b'(' {
                    i += 1;
                    continue;
                }
                // A plain destination, then `)`.
                let d = i + 2;
                let mut k = d;
                while k < end {
                    match b[k] {
                        b')' => break,
                        b'(' | b'\\' | b'&' | b'<' | 0x7f => return Err(Unsupported),
                        c if c <= b' ' => return Err(Unsupported),
                        _ => k += 1,
                    }
                }
                if k >= end {
                    return Err(Unsupported);
                }
                let target = &src[d..k];
                let parsed = parse_target(target, true);
                out.push(Reference {
                    target: target.to_string(),
                    path: parsed.path,
                    anchor: parsed.anchor,
                    escapes: parsed.escapes,
                    kind: if open.image { RefKind::Image } else { RefKind::Link },
                    span: Span::new(base + d, base + k),
                });
                links.push((open.at, k + 1));
                // A link deactivates every `[` before it (links do not nest); images stay.
                if !open.image {
                    inactive_below = openers.len();
                }
                i = k + 1;
            }
            _ => i += 1,
        }
    }
    // Code spans inside a link or image are its text, not paths. Both lists in order of start
    // (links close out of order when an image is inside one), walked together.
    links.sort_unstable();
    let mut next_link = 0;
    let mut reach = 0;
    for (s, e) in codes {
        while next_link < links.len() && links[next_link].0 <= s {
            reach = reach.max(links[next_link].1);
            next_link += 1;
        }
        if s >= reach {
            code_paths(src, base, s..e, out);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn both(body: &str) -> (Option<Vec<Reference>>, Vec<Reference>) {
        let span = Span::new(0, body.len());
        (references(body, span), crate::syntax::markdown::references_pulldown(body, span))
    }

    #[test]
    fn the_common_shapes_are_in_the_subset() {
        let body = "# Title\n\nRun `python3 scripts/x.py` and read [the guide](references/g.md).\n\n\
                    - a `assets/t.md` item\n  continued\n- [ ] task\n\n1. step\n\n   ```bash\n   x `scripts/no.py`\n   ```\n\n\
                    | a | `scripts/t.py` |\n|---|---|\n\n**Bold** ![d](assets/d.png)\n";
        let (fast, slow) = both(body);
        assert_eq!(fast.as_deref(), Some(&slow[..]));
        assert_eq!(slow.len(), 5);
    }

    #[test]
    fn references_at_every_offset_of_a_long_line() {
        // Each special construct at every offset around the 32-byte skips of a long line.
        for special in ["`scripts/a.py`", "[g](references/g.md)", "![d](assets/d.png)", "\\[x](scripts/b.py)", "<x>"] {
            for at in 0..70 {
                let body = format!("{}{special} and more words after it to pass another block\n", "w".repeat(at));
                let (fast, slow) = both(&body);
                if let Some(fast) = fast {
                    assert_eq!(fast, slow, "{body:?}");
                    assert!(special.starts_with('\\') || !fast.is_empty(), "{body:?}");
                } else {
                    assert_eq!(special, "<x>", "{body:?}");
                }
            }
        }
    }

    #[test]
    fn special_mask_finds_the_first_special_byte() {
        for first in 0..8 {
            for &c in b"\\<`![]" {
                for &filler in b"a ]\x00\x01\x80\xff" {
                    let mut w = [b'x'; 8];
                    w[first] = c;
                    for slot in w.iter_mut().skip(first + 1) {
                        *slot = filler;
                    }
                    let m = special_mask(u64::from_le_bytes(w));
                    assert_eq!(m.trailing_zeros() / 8, first as u32, "{w:?}");
                }
            }
        }
        for c in 0..=255u8 {
            assert_eq!(special_mask(u64::from_le_bytes([c; 8])) != 0, SPECIAL[c as usize], "{c}");
        }
    }

    #[test]
    fn outside_the_subset_falls_back() {
        for body in
            ["> quote `scripts/a.py`\n", "<div>\n</div>\n", "    code\n", "[a]: scripts/a.py\n", "x <https://a.b>\n"]
        {
            assert!(both(body).0.is_none(), "{body:?}");
        }
    }

    /// Markdown-ish bodies: mostly the constructs of the subset, with everything around it
    /// (block quotes, HTML, tabs, definitions, odd delimiters) mixed in.
    fn body() -> impl Strategy<Value = String> {
        let word = prop_oneof![
            8 => Just("word"),
            4 => Just("`scripts/run.py`"),
            2 => Just("`python3 scripts/a.py --x`"),
            1 => Just("`` a ` references/b.md ``"),
            1 => Just("`cat assets/t.md:12, ./x.sh.`"),
            3 => Just("[guide](references/a.md)"),
            1 => Just("[a `b` c](references/c.md#x)"),
            1 => Just("[x](https://x.y/z)"),
            1 => Just("[x](#anchor)"),
            1 => Just("[x](../up.md)"),
            1 => Just("[x]()"),
            1 => Just("[x](a%20b.md)"),
            1 => Just("[x](références/é.md)"),
            1 => Just("[x](a.md?b=1&c=2)"),
            1 => Just("[x](a.md&amp;)"),
            1 => Just("` `"),
            1 => Just("`  scripts/a.py  `"),
            2 => Just("![d](assets/i.png)"),
            1 => Just("[![i](assets/i.png)](references/o.md)"),
            1 => Just("[a [b](scripts/b.py) c](references/c.md)"),
            1 => Just("![a [b](scripts/b.py) c](assets/c.png)"),
            1 => Just("[a](b(c).md)"),
            1 => Just("[a](<b c.md>)"),
            1 => Just("[a](b.md \"t\")"),
            1 => Just("[a][b]"),
            1 => Just("[b]"),
            1 => Just("`"),
            1 => Just("``"),
            1 => Just("```"),
            1 => Just("["),
            1 => Just("]"),
            1 => Just("!["),
            1 => Just("]("),
            1 => Just("("),
            1 => Just(")"),
            1 => Just("\\"),
            1 => Just("\\`"),
            1 => Just("\\["),
            1 => Just("\\]"),
            1 => Just("&amp;"),
            1 => Just("&#96;"),
            1 => Just("<"),
            1 => Just("<https://a.b>"),
            1 => Just(">"),
            1 => Just("**b**"),
            1 => Just("*"),
            1 => Just("_"),
            1 => Just("#"),
            1 => Just(":"),
            1 => Just("]:"),
            1 => Just("|"),
            1 => Just("é"),
            1 => Just("😀"),
            1 => Just("\t"),
        ];
        let sep = prop_oneof![6 => Just(" "), 2 => Just(""), 1 => Just("  "), 1 => Just("\t")];
        let inline = proptest::collection::vec((word, sep), 0..7)
            .prop_map(|ws| ws.into_iter().map(|(w, s)| format!("{w}{s}")).collect::<String>());
        let prefix = prop_oneof![
            12 => Just(""),
            2 => Just(" "),
            2 => Just("  "),
            2 => Just("   "),
            1 => Just("    "),
            1 => Just("      "),
            5 => Just("- "),
            1 => Just("* "),
            1 => Just("+ "),
            4 => Just("1. "),
            2 => Just("2. "),
            1 => Just("2) "),
            1 => Just("01. "),
            1 => Just("10. "),
            1 => Just("1234567890. "),
            1 => Just("-  "),
            1 => Just("1.     "),
            3 => Just("  - "),
            1 => Just("    - "),
            2 => Just("   1. "),
            1 => Just("-"),
            1 => Just("- - "),
            1 => Just("- # "),
            1 => Just("- ```"),
            3 => Just("# "),
            2 => Just("## "),
            1 => Just("#"),
            1 => Just("> "),
            3 => Just("```"),
            1 => Just("```bash"),
            2 => Just("   ```"),
            1 => Just("  ```"),
            1 => Just("~~~"),
            1 => Just("````"),
            1 => Just("---"),
            1 => Just("- - -"),
            1 => Just("==="),
            1 => Just("***"),
            2 => Just("- [ ] "),
            1 => Just("[x]: "),
            1 => Just("\t"),
            1 => Just(" \t"),
            1 => Just("-\t"),
            1 => Just("<div>"),
            2 => Just("| "),
        ];
        let line = prop_oneof![
            8 => (prefix, inline).prop_map(|(p, i)| format!("{p}{i}")),
            3 => Just(String::new()),
            1 => Just("```".to_string()),
            1 => Just("   ```".to_string()),
        ];
        let eol =
            prop_oneof![12 => Just("\n"), 2 => Just("\r\n"), 1 => Just("\r"), 1 => Just(" \n"), 1 => Just("  \n")];
        proptest::collection::vec((line, eol), 0..14)
            .prop_map(|ls| ls.into_iter().map(|(l, e)| format!("{l}{e}")).collect::<String>())
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(5_000),
            ..ProptestConfig::default()
        })]
        #[test]
        fn fast_path_equals_pulldown_when_it_answers(body in body()) {
            let (fast, slow) = both(&body);
            if let Some(fast) = fast {
                prop_assert_eq!(fast, slow, "{:?}", body);
            }
        }
    }
}
