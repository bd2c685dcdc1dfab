//! A fast path for [`crate::syntax::markdown::references::references`]: a scanner that is exact
//! on a well-defined subset of CommonMark and answers `None` the moment the body leaves it, so
//! that the caller falls back to the full pulldown-cmark parse. On its subset it gives exactly
//! what the full parse gives (a differential property test below checks this against
//! pulldown-cmark).
//!
//! The subset:
//! - line endings `\n` or `\r\n` (a lone `\r` leaves it), no NUL;
//! - blocks: blank lines, paragraphs, ATX and setext headings, thematic breaks, fenced code
//!   blocks, HTML blocks of kinds 1 to 6 (`<script>`/`<pre>`/`<style>`/`<textarea>`, comments,
//!   `<?…?>`, `<!…>`, CDATA, and the block-level tags such as `<div>` or `<details>`: raw text,
//!   with no references), and the containers, nested: block quotes and bullet or ordered list
//!   items whose first line has content after 1 to 4 spaces, both with lazy continuation lines;
//! - not in it: indented code blocks, HTML blocks of kind 7 (a line starting with any other
//!   tag), empty list items, tabs in the indentation of a line (or right after a list or quote
//!   marker) outside a top-level fenced code or HTML block, and any paragraph that could start
//!   with a link reference definition (so that no reference link can exist: `[text]`,
//!   `[text][label]` and `[text][]` are plain text);
//! - inlines: code spans, backslash escapes, entities (as text), a `<` that cannot open raw
//!   HTML or an autolink (`a < b`, `<5 s`: text), and inline links and images whose
//!   destination is written plainly (no `<…>`, spaces, parentheses, `\` or `&`) and directly
//!   followed by `)`, with no title; not in it: any `<` that may open raw HTML or an autolink
//!   (followed by a letter, `/`, `!`, `?`, or an email's local part and `@`).
//!
//! Tables are not a construct here: the full parse reads plain CommonMark (see
//! `references_pulldown`), where a table's rows are paragraph text.
//!
//! Block structure follows the CommonMark reference algorithm (commonmark.js's `blockStarts`):
//! the containers (quotes and list items) a line continues, then the block starts at that level,
//! then lazy paragraph continuation.
//!
//! Over 600 lines for one job: the block pass and the inline pass both stand on the subset above
//! and its one bail-out ([`Unsupported`]), and the differential test holds them as one scanner.

use super::target::{code_paths, parse_target, RefKind, Reference};
use crate::syntax::text::Span;

/// Why the scan gave up: the body is outside the subset (the reason names the construct).
struct Unsupported(
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the tests that measure the fallbacks"))] &'static str,
);

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
    /// An HTML block: raw text, never read for references.
    Html(HtmlEnd),
}

/// Where an HTML block ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum HtmlEnd {
    /// After the first line holding this text (kinds 1 to 5: `</script>`, `-->`, `?>`, `>`, `]]>`).
    Marker(&'static str),
    /// Before the next blank line (kind 6: a block-level tag such as `<div>` or `<details>`).
    BlankLine,
}

/// A container block: the lines inside it start with its prefix.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Container {
    /// A block quote: `>` after at most 3 spaces, and one optional space.
    Quote,
    /// A list item whose content starts `width` columns (bytes: no tabs) after its parent's.
    Item { width: usize },
}

/// The references of `text[body]`, or `None` when the body is outside the subset.
pub(crate) fn references(text: &str, body: Span) -> Option<Vec<Reference>> {
    scan(text, body).ok()
}

/// [`references`], saying why when the body is outside the subset.
fn scan(text: &str, body: Span) -> Scan<Vec<Reference>> {
    let src = body.slice(text);
    let mut blocks = Blocks { src, inline: vec![], containers: vec![], leaf: Leaf::None };
    blocks.run()?;
    let mut out = vec![];
    for &(start, end) in &blocks.inline {
        inline(src, body.start, start, end, &mut out)?;
    }
    out.sort_by_key(|r: &Reference| (r.span.start, r.span.end));
    Ok(out)
}

struct Blocks<'a> {
    src: &'a str,
    /// Inline content to scan: paragraphs and headings, as byte ranges of `src`.
    inline: Vec<(usize, usize)>,
    /// The open containers, outermost first.
    containers: Vec<Container>,
    leaf: Leaf,
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&c| c == b' ' || c == b'\t')
}

fn spaces(line: &[u8], from: usize) -> usize {
    line[from..].iter().take_while(|&&c| c == b' ').count()
}

/// The byte after a block quote marker `>` at `at`: one following space belongs to the marker.
/// A tab there would count as part of the marker and part content, which the subset leaves out.
fn after_quote_marker(line: &[u8], at: usize) -> Scan<usize> {
    match line.get(at + 1) {
        Some(b' ') => Ok(at + 2),
        Some(b'\t') => Err(Unsupported("tab after quote marker")),
        _ => Ok(at + 1),
    }
}

/// The block-level tag names of HTML blocks of kind 6 (CommonMark 0.31), sorted.
const HTML_BLOCK_TAGS: [&str; 62] = [
    "address",
    "article",
    "aside",
    "base",
    "basefont",
    "blockquote",
    "body",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "iframe",
    "legend",
    "li",
    "link",
    "main",
    "menu",
    "menuitem",
    "nav",
    "noframes",
    "ol",
    "optgroup",
    "option",
    "p",
    "param",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
];

/// The HTML block a line starting with `<` (`rest`) opens, of kinds 1 to 6; `None` when the `<`
/// cannot start an HTML block (nor any raw HTML: the line is text). A `<` that may start a
/// kind 7 block (any other tag) leaves the subset: telling needs a full tag scanner.
fn html_block_start(rest: &[u8]) -> Scan<Option<HtmlEnd>> {
    let after = &rest[1..];
    let Some(&c) = after.first() else { return Ok(None) };
    if !(c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?')) {
        return Ok(None);
    }
    // Whether the tag name of `name_len` bytes is followed by what ends a start condition.
    let ends_name = |name_len: usize, self_closing: bool| -> Scan<bool> {
        match after.get(name_len) {
            None | Some(b' ' | b'>') => Ok(true),
            Some(b'/') if self_closing => Ok(after.get(name_len + 1) == Some(&b'>')),
            Some(b'\t' | b'\x0b' | b'\x0c') => Err(Unsupported("whitespace after an HTML tag name")),
            _ => Ok(false),
        }
    };
    for (name, end) in [("pre", "</pre>"), ("style", "</style>"), ("script", "</script>"), ("textarea", "</textarea>")]
    {
        let named = after.len() >= name.len() && after[..name.len()].eq_ignore_ascii_case(name.as_bytes());
        if named && ends_name(name.len(), false)? {
            return Ok(Some(HtmlEnd::Marker(end)));
        }
    }
    for (start, end) in [("!--", "-->"), ("?", "?>"), ("![CDATA[", "]]>")] {
        if after.starts_with(start.as_bytes()) {
            return Ok(Some(HtmlEnd::Marker(end)));
        }
    }
    if c == b'!' && after.get(1).is_some_and(u8::is_ascii_alphabetic) {
        return Ok(Some(HtmlEnd::Marker(">")));
    }
    let slash = usize::from(c == b'/');
    let name_len = after[slash..].iter().take_while(|x| x.is_ascii_alphanumeric()).count();
    let name = &after[slash..slash + name_len];
    let known = HTML_BLOCK_TAGS.iter().any(|t| t.as_bytes().eq_ignore_ascii_case(name));
    if known && ends_name(slash + name_len, true)? {
        return Ok(Some(HtmlEnd::BlankLine));
    }
    Err(Unsupported("html block"))
}

/// Whether `line` holds the end marker of an HTML block of kinds 1 to 5. pulldown-cmark looks
/// for `</script>` and the like case-sensitively, CommonMark case-insensitively: a line where
/// the two differ leaves the subset.
fn ends_html(line: &[u8], marker: &str) -> Scan<bool> {
    let m = marker.as_bytes();
    let exact = memchr::memmem::find(line, m).is_some();
    if !exact && m[0] == b'<' && line.windows(m.len()).any(|w| w.eq_ignore_ascii_case(m)) {
        return Err(Unsupported("end tag case"));
    }
    Ok(exact)
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
            return Err(Unsupported("NUL"));
        }
        // Only `\r\n` line endings: a lone `\r` is a line ending too.
        if memchr::memchr_iter(b'\r', bytes).any(|i| bytes.get(i + 1) != Some(&b'\n')) {
            return Err(Unsupported("lone CR"));
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

    /// How many open containers `line` continues, and the byte where the rest of it starts.
    /// A line whose rest is blank continues every list item (none is empty) but no quote.
    fn continued(&self, line: &[u8]) -> Scan<(usize, usize)> {
        let mut col = 0;
        let mut matched = 0;
        for &container in &self.containers {
            let ind = spaces(line, col);
            match container {
                Container::Quote => {
                    if ind > 3 || line.get(col + ind) != Some(&b'>') {
                        break;
                    }
                    col = after_quote_marker(line, col + ind)?;
                }
                Container::Item { width } => {
                    if ind >= width {
                        col += width;
                    } else if !is_blank(&line[col..]) {
                        break;
                    }
                }
            }
            matched += 1;
        }
        Ok((matched, col))
    }

    /// One line, starting at byte `at` of the body.
    fn line(&mut self, at: usize, line: &[u8]) -> Scan<()> {
        let (mut matched, mut col) = self.continued(line)?;
        let all_matched = matched == self.containers.len();
        let indent = spaces(line, col);
        let blank = is_blank(&line[col..]);
        let tabbed = !blank && line[col + indent] == b'\t';
        if tabbed && !self.containers.is_empty() {
            // Tabs count as columns in the indentation: a tab may continue a container.
            return Err(Unsupported("tab indent"));
        }
        match self.leaf {
            Leaf::Fence { ch, len } if all_matched => {
                if tabbed {
                    // A tab in the indentation means 4 columns or more: content, never the closing fence.
                    return Ok(());
                }
                let rest = &line[col..];
                let ind = spaces(rest, 0);
                let run = rest[ind..].iter().take_while(|&&c| c == ch).count();
                if ind <= 3 && run >= len && is_blank(&rest[ind + run..]) {
                    if rest.contains(&b'\t') {
                        // pulldown-cmark does not close a fence followed by a tab.
                        return Err(Unsupported("tab after fence close"));
                    }
                    self.leaf = Leaf::None;
                }
                return Ok(());
            }
            Leaf::Html(end) if all_matched => {
                match end {
                    HtmlEnd::BlankLine if blank => self.leaf = Leaf::None,
                    HtmlEnd::BlankLine => {}
                    HtmlEnd::Marker(m) => {
                        if ends_html(&line[col..], m)? {
                            self.leaf = Leaf::None;
                        }
                    }
                }
                return Ok(());
            }
            _ => {}
        }
        if tabbed {
            return Err(Unsupported("tab indent"));
        }
        if blank {
            // A blank line ends a paragraph and the quotes it does not continue.
            self.start_block(matched);
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
            if is_blank(rest) {
                break; // a quote marker and nothing after it
            }
            if rest[0] == b'\t' {
                return Err(Unsupported("tab indent")); // tabs count as columns in the indentation
            }
            if ind >= 4 {
                if paragraph_tip && !started {
                    break; // continuation text (an indented code block cannot interrupt a paragraph)
                }
                return Err(Unsupported("indented code")); // an indented code block
            }
            let c = rest[0];
            if c == b'>' {
                self.start_block(matched);
                self.containers.push(Container::Quote);
                matched += 1;
                col = after_quote_marker(line, first)?;
                in_paragraph = false;
                started = true;
                continue;
            }
            if c == b'<' {
                let Some(end) = html_block_start(rest)? else { break };
                // Kinds 1 to 6 may interrupt a paragraph.
                self.start_block(matched);
                self.leaf = Leaf::Html(end);
                if let HtmlEnd::Marker(m) = end {
                    if ends_html(rest, m)? {
                        self.leaf = Leaf::None;
                    }
                }
                return Ok(());
            }
            if c == b'#' {
                let hashes = rest.iter().take_while(|&&x| x == b'#').count();
                if hashes <= 6 && (hashes == rest.len() || matches!(rest[hashes], b' ' | b'\t')) {
                    if rest.contains(&b'\t') {
                        // pulldown-cmark counts a tab after a heading's last code span as part of it.
                        return Err(Unsupported("tab in heading"));
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
                        return Err(Unsupported("tab in fence open"));
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
                return Err(Unsupported("tab after marker"));
            }
            if marker < rest.len() && rest[marker] != b' ' {
                break;
            }
            let after = spaces(rest, marker);
            if marker + after == rest.len() || is_blank(&rest[marker..]) {
                if in_paragraph {
                    break; // an empty item cannot interrupt a paragraph
                }
                return Err(Unsupported("empty item")); // an empty list item
            }
            if in_paragraph && c.is_ascii_digit() && !ordered_one {
                break; // only a list starting at 1 can interrupt a paragraph
            }
            if after > 4 {
                return Err(Unsupported("item indented code")); // an item starting with indented code
            }
            self.start_block(matched);
            matched += 1;
            self.containers.push(Container::Item { width: ind + marker + after });
            col = first + marker + after;
            in_paragraph = false;
            started = true;
        }
        let first = col + spaces(line, col);
        if first == line.len() || is_blank(&line[first..]) {
            return Ok(()); // only containers opened
        }
        // Text.
        if paragraph_tip && !started {
            // Continuation, lazy or not: the containers stay open.
            if let Leaf::Paragraph { start, .. } = self.leaf {
                self.leaf = Leaf::Paragraph { start, end: at + line.len() };
            }
            return Ok(());
        }
        self.start_block(matched);
        self.leaf = Leaf::Paragraph { start: at + first, end: at + line.len() };
        Ok(())
    }

    /// A block starts at container depth `matched`: close the others and the open leaf.
    fn start_block(&mut self, matched: usize) {
        self.close_leaf();
        self.containers.truncate(matched);
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

/// Whether a `<` followed by `after` may open raw HTML or an autolink; if not, it is text.
/// Raw HTML starts with a letter, `/`, `!` or `?`, a URI autolink with a letter (its scheme),
/// an email autolink with characters of its local part up to an `@`.
fn may_open_raw_html(after: &[u8]) -> bool {
    let Some(&c) = after.first() else { return false };
    if c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?') {
        return true;
    }
    let local =
        after.iter().take_while(|&&x| x.is_ascii_alphanumeric() || b".!#$%&'*+/=?^_`{|}~-".contains(&x)).count();
    after.get(local) == Some(&b'@')
}

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
        return Err(Unsupported("definition"));
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
            b'<' => {
                if may_open_raw_html(&b[i + 1..end]) {
                    return Err(Unsupported("inline html or autolink"));
                }
                i += 1;
            }
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
                        b'(' | b'\\' | b'&' | b'<' | 0x7f => return Err(Unsupported("destination form")),
                        c if c <= b' ' => return Err(Unsupported("destination space")),
                        _ => k += 1,
                    }
                }
                if k >= end {
                    return Err(Unsupported("unclosed destination"));
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
        (references(body, span), crate::syntax::markdown::references::references_pulldown(body, span))
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
        for body in [
            "    code\n",
            "[a]: scripts/a.py\n",
            "x <https://a.b>\n",
            "x <a@b.c>\n",
            "x <1.a@b.c>\n",
            "a <b>c</b>\n",
            "y <!-- x -->\n",
            "<span>\n",
            ">\tquote\n",
            "- a\n\t[x](a.md)\n",
        ] {
            assert!(both(body).0.is_none(), "{body:?}");
        }
    }

    /// The fast path answers, as pulldown-cmark does, with `refs` references.
    fn fast(body: &str, refs: usize) {
        let (fast, slow) = both(body);
        assert_eq!(fast.as_deref(), Some(&slow[..]), "{body:?}");
        assert_eq!(slow.len(), refs, "{body:?}: {slow:?}");
    }

    #[test]
    fn a_less_than_sign_that_cannot_open_html_is_text() {
        fast("a < b and [x](scripts/a.py)\n", 1);
        fast("Wait <5 s, then `scripts/b.py` <= 3 <- x <\n", 1);
        fast("<5 min [x](a.md)\n", 1);
        fast("a <\\b> [x](a.md)\n", 1);
        fast("[a < b](a.md) <\n[c](c.md)\n", 2);
        fast("# <1 [x](a.md)\n", 1);
        // Characters of an email's local part, not followed by `@`.
        fast("<1.a+b [x](a.md)\n", 1);
        assert!(both("<1.a+b@c.d> [x](a.md)\n").0.is_none());
    }

    #[test]
    fn block_quotes_and_their_lazy_lines() {
        fast("> Read [x](references/a.md)\nlazy `scripts/b.py`\n", 2);
        fast("> - item\n>   more [x](a.md)\n> lazy [y](b.md)\n", 2);
        fast("> ```\n> `scripts/no.py`\n> ```\n`scripts/yes.py`\n", 1);
        fast("> ```\n`scripts/yes.py`\n", 1);
        fast(">> nested [x](a.md)\n> > [y](b.md)\n>\n> [z](c.md)\n", 3);
        fast("> a\n---\n[x](a.md)\n", 1);
        fast("> a\n===\n", 0);
        fast("- > q [x](a.md)\n  > r\n> s\n", 1);
        fast("> a\n\n> b [x](a.md)\n", 1);
        fast(">\n>   a [x](a.md)\n>     b\n", 1);
        fast("> [x\n> y](a.md) `scripts/a.py\n> b`\n", 2);
        fast("   > a\n    > b\n", 0);
    }

    #[test]
    fn html_blocks_hide_what_they_hold() {
        fast("<details>\n<summary>[x](a.md)</summary>\n\n[y](b.md)\n", 1);
        fast("<!--\n[x](a.md)\n-->[z](c.md)\n[y](b.md)\n", 1);
        fast("<!-- [x](a.md) --> [y](b.md)\n", 0);
        fast("a [x](a.md)\n<div>\n[y](b.md)\n", 1);
        fast("<pre>\n\n[x](a.md)\n</pre> [z](c.md)\n[y](b.md)\n", 1);
        fast("<?x [a](a.md)\n?>\n<!DOCTYPE x\n[b](b.md)>\n<![CDATA[\n[c](c.md)]]>\n[y](b.md)\n", 1);
        fast("- <div>\n  [x](a.md)\nb [y](b.md)\n", 1);
        fast("> <div>\n> [x](a.md)\n>\n> [y](b.md)\n", 1);
        fast("</DIV>\n[x](a.md)\n", 0);
        fast("<td/>\n[x](a.md)\n", 0);
        fast("<5\n[x](a.md)\n", 1);
        // pulldown-cmark ends `<script>` only at a `</script>` in lower case.
        assert!(both("<script>\n</SCRIPT>\n[x](a.md)\n").0.is_none());
        assert!(both("<div\t>\n").0.is_none());
    }

    /// The kind 6 tag names are the ones pulldown-cmark knows: such a tag interrupts a
    /// paragraph, while another (kind 7) does not.
    #[test]
    fn html_block_tags_are_pulldowns() {
        let others = ["span", "a", "img", "b", "source", "pre", "script", "x", "h7", "di", "divs", "summar"];
        for name in HTML_BLOCK_TAGS.iter().chain(&others) {
            for tag in [format!("<{name}>"), format!("</{}>", name.to_uppercase())] {
                let body = format!("text\n{tag}\n");
                let html_block = pulldown_cmark::Parser::new(&body)
                    .any(|e| matches!(e, pulldown_cmark::Event::Start(pulldown_cmark::Tag::HtmlBlock)));
                let ours = matches!(html_block_start(tag.as_bytes()), Ok(Some(_)));
                assert_eq!(ours, html_block, "{tag}");
            }
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
            2 => Just("<"),
            1 => Just("<5"),
            1 => Just("<="),
            1 => Just("<-"),
            1 => Just("<\\"),
            1 => Just("<1.a+b"),
            1 => Just("<1@a.b>"),
            1 => Just("<`x`@a.b>"),
            1 => Just("<b>"),
            1 => Just("</b>"),
            1 => Just("<!-- c -->"),
            1 => Just("-->"),
            1 => Just("?>"),
            1 => Just("]]>"),
            1 => Just("</pre>"),
            1 => Just("</PRE>"),
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
        // Container prefixes: quotes and list items, nested.
        let container = prop_oneof![
            4 => Just("> "),
            2 => Just(">"),
            1 => Just("  > "),
            1 => Just("    > "),
            1 => Just(">  "),
            1 => Just(">\t"),
            2 => Just("  "),
            2 => Just("- "),
            1 => Just("1. "),
            1 => Just("   "),
        ];
        let containers = proptest::collection::vec(container, 0..3).prop_map(|cs| cs.concat());
        let block = prop_oneof![
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
            1 => Just("</div>"),
            1 => Just("<details>"),
            1 => Just("<DIV "),
            1 => Just("<hr/>"),
            1 => Just("<p\t"),
            1 => Just("<span>"),
            1 => Just("<pre>"),
            1 => Just("<PRE "),
            1 => Just("<script>"),
            1 => Just("<textarea"),
            1 => Just("<!-- "),
            1 => Just("<?php "),
            1 => Just("<!DOCTYPE "),
            1 => Just("<![CDATA["),
            1 => Just("<!x"),
            1 => Just("<5 "),
            1 => Just("< "),
            1 => Just(">> "),
            2 => Just("| "),
        ];
        let prefix = (containers, block).prop_map(|(c, b)| format!("{c}{b}"));
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

    /// The SKILL.md files of the shared corpus of real skills: `SKILL_STUDIO_CORPUS`, else
    /// `../shared/corpus` beside the repository; none when it is absent.
    fn corpus_skills() -> Vec<(std::path::PathBuf, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let dir = std::env::var_os("SKILL_STUDIO_CORPUS").map_or(root.join("../shared/corpus"), Into::into);
        let mut out = vec![];
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else { continue };
            for e in entries.flatten() {
                let path = e.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.file_name().is_some_and(|n| n == "SKILL.md") {
                    if let Ok(text) = std::fs::read_to_string(&path) {
                        out.push((path, text));
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// On real skills: the share the fast path answers, why the others fall back, no
    /// disagreement with pulldown-cmark, and the time of the references pass (run in release
    /// with `--ignored --nocapture`).
    #[test]
    #[ignore = "reads the shared corpus of real skills, which is not part of the repository; run with \
                `--ignored --nocapture`"]
    fn real_skills_fast_path_share_and_agreement() {
        let skills = corpus_skills();
        if skills.is_empty() {
            eprintln!("references_fast: no corpus (SKILL_STUDIO_CORPUS or ../shared/corpus), nothing compared");
            return;
        }
        let bodies: Vec<(&std::path::Path, &str, Span)> =
            skills.iter().map(|(p, t)| (p.as_path(), t.as_str(), crate::syntax::split::split(t).body)).collect();
        let mut fast = 0;
        let mut reasons: std::collections::BTreeMap<&str, usize> = Default::default();
        for &(path, text, body) in &bodies {
            let slow = crate::syntax::markdown::references::references_pulldown(text, body);
            match scan(text, body) {
                Ok(refs) => {
                    assert_eq!(refs, slow, "{}", path.display());
                    fast += 1;
                }
                Err(Unsupported(why)) => *reasons.entry(why).or_default() += 1,
            }
        }
        let mut reasons: Vec<_> = reasons.into_iter().collect();
        reasons.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
        eprintln!("references_fast: {fast} of {} bodies on the fast path; fallbacks: {reasons:?}", bodies.len());
        let time = |f: &dyn Fn(&str, Span) -> usize| {
            let t = std::time::Instant::now();
            let reps = 20;
            for _ in 0..reps {
                for &(_, text, body) in &bodies {
                    std::hint::black_box(f(text, body));
                }
            }
            t.elapsed() / reps
        };
        let with_fast = time(&|t, b| crate::syntax::markdown::references::references(t, b).len());
        let pulldown = time(&|t, b| crate::syntax::markdown::references::references_pulldown(t, b).len());
        eprintln!("references_fast: references pass {with_fast:?} (pulldown only: {pulldown:?})");
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
