//! Editing one frontmatter field in a skill file's text, for the app's form: [`set_field`] rewrites
//! only the bytes of that field's value and leaves every other byte alone (other lines, comments,
//! the key, the value's anchor or `!!str` tag, a comment after the value, blank lines and comment
//! lines after a block, the body). A field that is missing is added as a new line at the end of
//! the frontmatter (inside the braces when the frontmatter is a flow mapping, before the last
//! field when the file ends inside that field's block value); a file without frontmatter gets
//! one. [`form_fields`] reads the scalar fields the form shows.
//!
//! The new value is written in the old value's style when that style can hold it (double-quoted
//! stays double-quoted, a literal block stays a literal block), else plain when it reads back as
//! the same string, else double-quoted, with escapes for every character that would not be read
//! as written; a value with line breaks becomes a literal block (`|`, `|-` or `|+` for its final
//! line breaks, with an indentation indicator when its first line starts with a space) when each
//! of its lines can be written as it is. The file's line ending (LF or CRLF) is used.
//!
//! "Reads back as the same string" holds for three readers: the engine's own parser (YAML 1.2,
//! [`crate::syntax::yaml`]), PyYAML (YAML 1.1, where a plain `yes`, `1_000`, `2024-01-31` or `=` is not a
//! string ([`crate::syntax::yaml11`]), NEL, LS and PS are line breaks, a tab ends a plain scalar and a
//! control character anywhere is refused) and strictyaml (every scalar a string). The writing rules
//! keep to what all three read alike, and every result is parsed again before it is returned: a
//! rendering after which the field does not read back as the value, another field reads
//! differently, the keys or the body change, is not used. A double-quoted value with escapes can
//! hold any string, so [`EditError::Unwritable`] is left for places that cannot take a new value
//! at all (a value whose anchor other fields use, a value with a type tag, a key without `:`).
//! When the frontmatter is not valid YAML to begin with, its fields are read line by line
//! ([`Reading::Lenient`]): a rendering is used when the field reads back through that reading and
//! the other fields read as before, or when the edit has made the YAML valid (the broken line was
//! this field's: the edit repairs it, and the other fields then read as the YAML says); else the
//! edit is refused, asking for the YAML to be fixed first.
//!
//! Over 600 lines for one job, setting one field while keeping every other byte: finding the
//! field's place, choosing its rendering (plain, single- or double-quoted, literal block) and
//! reading the result back are the steps of one edit, sharing the parsed frontmatter and its spans.

use crate::skill::Skill;
use crate::syntax::frontmatter::{Frontmatter, Reading};
use crate::syntax::split::Split;
use crate::syntax::yaml::{Entry, Node, NodeKind, ScalarStyle, Yaml};
use crate::syntax::yaml11::{resolve_core, resolve_yaml11, Typed};

/// Why a field cannot be set from the form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// The frontmatter's root is not a mapping (e.g. a list): there are no fields to set.
    NotAMapping,
    /// The field holds a mapping, a list or an alias; it is edited in the text.
    NotAScalar { key: String },
    /// The key is empty or cannot be written as a plain key.
    BadKey { key: String },
    /// The field's place cannot take a new value without changing what the file means (another
    /// field uses the value through its anchor, the value carries a type tag, ...); `reason` says
    /// what is in the way.
    Unwritable { key: String, reason: String },
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::NotAMapping => write!(f, "the frontmatter is not a mapping of fields"),
            EditError::NotAScalar { key } => write!(f, "`{key}` is not a single value; edit it in the text"),
            EditError::BadKey { key } => write!(f, "`{key}` cannot be written as a frontmatter key"),
            EditError::Unwritable { key, reason } => {
                write!(f, "`{key}` cannot be set from the form: {reason}; edit it in the text")
            }
        }
    }
}

impl std::error::Error for EditError {}

/// A top-level field as the form shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormField {
    pub key: String,
    /// The string value; `None` when it is not a scalar (a mapping, a list, an alias).
    pub value: Option<String>,
}

/// The top-level fields of the text's frontmatter, in file order (the last of duplicates wins,
/// as YAML loaders that accept duplicates do).
pub fn form_fields(text: &str) -> Vec<FormField> {
    let skill = Skill::parse(".", "SKILL.md", text.to_string());
    let mut out: Vec<FormField> = Vec::new();
    for f in &skill.frontmatter.fields {
        let value = match &f.value.kind {
            NodeKind::Scalar { value, .. } => Some(value.clone()),
            _ => None,
        };
        match out.iter_mut().find(|o| o.key == f.key) {
            Some(o) => o.value = value,
            None => out.push(FormField { key: f.key.clone(), value }),
        }
    }
    out
}

fn plain_key(key: &str) -> bool {
    !key.is_empty()
        && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !key.starts_with(['-', '.'])
}

/// The tag `!!str` as the parser reports it: the only tag a string value may keep.
const STR_TAG: &str = "tag:yaml.org,2002:str";

/// `text` with the top-level field `key` set to `value`.
pub fn set_field(text: &str, key: &str, value: &str) -> Result<String, EditError> {
    let before = Parsed::new(text);
    let eol = if before.split.crlf { "\r\n" } else { "\n" };
    if before.fm.reading == Reading::NotMapping {
        return Err(EditError::NotAMapping);
    }
    let unwritable = |reason: String| EditError::Unwritable { key: key.into(), reason };
    let existing = before.fm.get(key);
    let tries = match existing {
        Some(field) => {
            if !matches!(field.value.kind, NodeKind::Scalar { .. }) {
                return Err(EditError::NotAScalar { key: key.into() });
            }
            existing_field(text, &before, field, value, eol).map_err(unwritable)?
        }
        None if !plain_key(key) => return Err(EditError::BadKey { key: key.into() }),
        None => new_field(text, &before, key, value, eol).map_err(unwritable)?,
    };
    let added = existing.is_none().then(|| new_field_index(text, &before));
    if let Some(out) = tries.iter().find(|out| reads_back(&before, text, out, key, value, added)) {
        return Ok(out.clone());
    }
    if before.fm.reading == Reading::Lenient {
        if let Some(out) = tries.iter().find(|out| reads_back_lenient(text, out, key, value)) {
            return Ok(out.clone());
        }
        return Err(unwritable(
            "the frontmatter is not valid YAML and no way of writing this value reads back the same in it; \
             fix the YAML first"
                .into(),
        ));
    }
    Err(unwritable("no way of writing this value here reads back the same".into()))
}

/// A text's frontmatter as the engine reads it.
struct Parsed {
    split: Split,
    yaml: Yaml,
    fm: Frontmatter,
}

impl Parsed {
    fn new(text: &str) -> Parsed {
        let split = crate::syntax::split::split(text);
        let yaml = split.yaml.map(|y| crate::syntax::yaml::parse(y.slice(text), y.start)).unwrap_or_default();
        let fm = Frontmatter::from_yaml(text, &split, &yaml);
        Parsed { split, yaml, fm }
    }

    /// The root mapping, when the frontmatter is valid YAML.
    fn root(&self) -> Option<&Node> {
        self.yaml.root.as_ref().filter(|_| self.fm.reading == Reading::Yaml)
    }

    fn entries(&self) -> &[Entry] {
        self.root().and_then(Node::entries).unwrap_or(&[])
    }

    fn keys(&self) -> Vec<&str> {
        self.fm.fields.iter().map(|f| f.key.as_str()).collect()
    }

    /// Where the YAML text ends (the closing line, or the end of the file).
    fn yaml_end(&self, text: &str) -> usize {
        self.split.yaml.map_or(text.len(), |y| y.end)
    }
}

/// Whether `out` (the text after an edit of `before`) has `key` reading back as `value`, the same
/// keys in the same order (with `key` added at index `added` of the fields, when it is new), every
/// other field's value and the body unchanged.
fn reads_back(before: &Parsed, text: &str, out: &str, key: &str, value: &str, added: Option<usize>) -> bool {
    let after = Parsed::new(out);
    if after.fm.reading != Reading::Yaml || after.split.body.slice(out) != before.split.body.slice(text) {
        return false;
    }
    let mut keys = before.keys();
    if let Some(i) = added {
        keys.insert(i, key);
    }
    if after.keys() != keys {
        return false;
    }
    let Some(field) = after.fm.get(key) else { return false };
    if field.value.as_str() != Some(value) || !matches!(field.value.tag.as_deref(), None | Some(STR_TAG)) {
        return false;
    }
    if before.fm.reading != Reading::Yaml {
        return true;
    }
    let old = before.entries();
    let new: Vec<&Entry> = after.entries().iter().filter(|e| added.is_none() || e.key.as_str() != Some(key)).collect();
    let edited = if added.is_some() { None } else { old.iter().rposition(|e| e.key.as_str() == Some(key)) };
    old.len() == new.len()
        && old
            .iter()
            .zip(new)
            .enumerate()
            .all(|(i, (o, n))| same(&o.key, &n.key) && (Some(i) == edited || same(&o.value, &n.value)))
}

/// [`reads_back`] for frontmatter that is not valid YAML before the edit (its fields read line by
/// line): `key` reads back as `value` through the same reading the form uses, and every other field
/// reads as before; or the edit has made the frontmatter valid YAML (the broken line was the edited
/// field's), in which case the other fields keep their keys and order and read as YAML now says.
fn reads_back_lenient(text: &str, out: &str, key: &str, value: &str) -> bool {
    let after = Parsed::new(out);
    let before_body = crate::syntax::split::split(text).body.slice(text).to_string();
    if after.split.body.slice(out) != before_body {
        return false;
    }
    let (old, new) = (form_fields(text), form_fields(out));
    if new.iter().find(|f| f.key == key).map(|f| f.value.as_deref()) != Some(Some(value)) {
        return false;
    }
    let others = |fields: &[FormField]| -> Vec<FormField> { fields.iter().filter(|f| f.key != key).cloned().collect() };
    if after.fm.reading == Reading::Yaml {
        let keys = |fields: Vec<FormField>| -> Vec<String> { fields.into_iter().map(|f| f.key).collect() };
        keys(others(&old)) == keys(others(&new))
    } else {
        others(&old) == others(&new)
    }
}

/// Two nodes read alike: same kind, values, styles, anchors and tags, wherever they are.
fn same(a: &Node, b: &Node) -> bool {
    let kinds = match (&a.kind, &b.kind) {
        (NodeKind::Scalar { value: x, style: s }, NodeKind::Scalar { value: y, style: t }) => x == y && s == t,
        (NodeKind::Sequence(x), NodeKind::Sequence(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (NodeKind::Mapping(x), NodeKind::Mapping(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(&x.key, &y.key) && same(&x.value, &y.value))
        }
        (NodeKind::Alias, NodeKind::Alias) => true,
        _ => false,
    };
    kinds && a.flow == b.flow && a.anchor == b.anchor && a.tag == b.tag
}

/// The end of the line `at` is on, before its `\n` or `\r\n`.
fn line_end(text: &str, at: usize) -> usize {
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    if end > at && text.as_bytes()[end - 1] == b'\r' {
        end - 1
    } else {
        end
    }
}

/// How far the line holding `at` is indented (spaces before its first other character).
fn indent_of_line(text: &str, at: usize) -> usize {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[start..].bytes().take_while(|&b| b == b' ').count()
}

/// Where a field's old value is. The new value goes at `a` (after a space when `space`); `b..c` is
/// the rest of the line the old value (or its block indicator) ends on: spaces and a comment, kept
/// after the new value or after a new block's indicator; `c..d` are the old block's lines,
/// replaced; from `d` on (the line break ending the old value's last line) everything is kept.
struct Place {
    a: usize,
    b: usize,
    c: usize,
    d: usize,
    space: bool,
    /// The indentation of the mapping the field is in; a block's lines go deeper.
    n: usize,
    /// The old block's content indentation, kept for a new block.
    old_pad: usize,
}

/// The renderings of `value` for an existing field, best first, each as the whole new text.
fn existing_field(
    text: &str,
    parsed: &Parsed,
    field: &crate::syntax::frontmatter::Field,
    value: &str,
    eol: &str,
) -> Result<Vec<String>, String> {
    let node = &field.value;
    let NodeKind::Scalar { style, .. } = node.kind else { unreachable!("checked by the caller") };
    let yaml = parsed.fm.reading == Reading::Yaml;
    if let Some(tag) = node.tag.as_deref().filter(|t| *t != STR_TAG) {
        return Err(format!("its value has the tag `{tag}`, which a string would not match"));
    }
    let anchor = text[node.span.start..node.span.end]
        .split([' ', '\t', '\r', '\n'])
        .take_while(|p| p.starts_with(['&', '!']))
        .find(|p| p.starts_with('&'));
    if let Some(name) = anchor.filter(|_| yaml && node.anchor) {
        let alias = format!("*{}", &name[1..]);
        let mut used = false;
        if let Some(root) = parsed.root() {
            root.walk(&mut |n| used |= n.kind == NodeKind::Alias && n.span.slice(text).trim_end() == alias);
        }
        if used {
            return Err(format!("other fields use its value through the anchor `{name}`"));
        }
    }
    let place = place_of(text, parsed, field, style, yaml)?;
    let flow = parsed.root().is_some_and(|r| r.flow);
    let tail = Tail::after(text, place.d, parsed.yaml_end(text));
    let at = BlockAt {
        n: place.n,
        min_pad: tail.min_pad.max(place.old_pad),
        blank_after: tail.blank_after,
        break_after: tail.break_after,
    };
    let block = || (!flow && !tail.tab && block_ok(value)).then(|| literal_block(value, &at, eol)).flatten();
    let mut tries: Vec<Written> = Vec::new();
    let mut push = |w: Written| {
        if !tries.contains(&w) {
            tries.push(w);
        }
    };
    match style {
        ScalarStyle::DoubleQuoted => push(Written::Inline(double_quoted(value))),
        ScalarStyle::SingleQuoted if single_ok(value) => push(Written::Inline(single_quoted(value))),
        ScalarStyle::Plain if plain_ok(value, flow) => push(Written::Inline(value.to_string())),
        _ => {}
    }
    if let Some(b) = block() {
        push(b);
    }
    if plain_ok(value, flow) {
        push(Written::Inline(value.to_string()));
    }
    push(Written::Inline(double_quoted(value)));
    Ok(tries.iter().map(|w| place.write(text, w)).collect())
}

fn place_of(
    text: &str,
    parsed: &Parsed,
    field: &crate::syntax::frontmatter::Field,
    style: ScalarStyle,
    yaml: bool,
) -> Result<Place, String> {
    let node = &field.value;
    let n = indent_of_line(text, field.key_span.start);
    let mut a = node.span.start;
    let mut props_end = a;
    if yaml {
        // Keep the value's anchor and tag (`&name`, `!!str`): only the value itself changes.
        let b = text.as_bytes();
        while a < node.span.end && matches!(b[a], b'&' | b'!') {
            while a < node.span.end && !matches!(b[a], b' ' | b'\t' | b'\r' | b'\n') {
                a += 1;
            }
            props_end = a;
            while a < node.span.end && matches!(b[a], b' ' | b'\t' | b'\r' | b'\n') {
                a += 1;
            }
        }
    }
    if node.span.is_empty() || a >= node.span.end {
        // No value (null): write it after the key's colon or after the anchor.
        let at = if node.span.is_empty() {
            let key_end = field.key_span.end;
            let colon = text[key_end..line_end(text, key_end)].find(':').ok_or("its key has no `:` after it")?;
            key_end + colon + 1
        } else {
            props_end
        };
        let c = line_end(text, at);
        return Ok(Place { a: at, b: at, c, d: c, space: true, n, old_pad: 0 });
    }
    let bytes = text.as_bytes();
    let end = match style {
        ScalarStyle::Literal | ScalarStyle::Folded => {
            if !matches!(bytes[a], b'|' | b'>') {
                return Err("its block indicator was not found".into());
            }
            let b =
                a + 1 + bytes[a + 1..].iter().take_while(|c| c.is_ascii_digit() || matches!(c, b'+' | b'-')).count();
            let explicit = bytes[a + 1..b].iter().find(|c| c.is_ascii_digit()).map(|d| n + usize::from(d - b'0'));
            let c = line_end(text, b);
            let (d, old_pad) = block_end(text, c, parsed.yaml_end(text), n, explicit);
            return Ok(Place { a, b, c, d, space: false, n, old_pad });
        }
        ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
            quoted_end(bytes, a, style == ScalarStyle::DoubleQuoted).ok_or("its closing quote was not found")?
        }
        // The parser's span of a plain value may run over the spaces after it.
        ScalarStyle::Plain => a + text[a..node.span.end].trim_end().len(),
    };
    let c = line_end(text, end);
    Ok(Place { a, b: end, c, d: c, space: false, n, old_pad: 0 })
}

/// The offset after the quote closing the quoted scalar that starts at `a`.
fn quoted_end(b: &[u8], a: usize, double: bool) -> Option<usize> {
    let quote = b[a];
    let mut i = a + 1;
    while i < b.len() {
        match b[i] {
            b'\\' if double => i += 2,
            b'\'' if !double && b.get(i + 1) == Some(&b'\'') => i += 2,
            c if c == quote => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The end of an old block's last content line, and its content indentation, given the end of
/// its indicator's line (`c`), the end of the YAML, the mapping's indentation and the indentation
/// an explicit indicator sets. Blank lines and less-indented comment lines after the content are
/// not the block's text: they stay where they are.
fn block_end(text: &str, c: usize, limit: usize, n: usize, explicit: Option<usize>) -> (usize, usize) {
    let mut pad = explicit;
    let mut end = c;
    let mut at = text[c..].find('\n').map_or(limit, |i| c + i + 1);
    while at < limit {
        let stop = line_end(text, at).min(limit);
        let line = &text[at..stop];
        let spaces = line.bytes().take_while(|&b| b == b' ').count();
        let content = match pad {
            // The first line with more than spaces sets the indentation.
            None if spaces == line.len() => false,
            None if spaces > n => {
                pad = Some(spaces);
                true
            }
            None => break,
            // A line longer than the indentation is content, even if it is only spaces.
            Some(p) if spaces >= p && line.len() > p => true,
            Some(_) if spaces == line.len() => false,
            Some(_) => break,
        };
        if content {
            end = stop;
        }
        at = text[stop..].find('\n').map_or(limit, |i| stop + i + 1);
    }
    (end, pad.unwrap_or(0))
}

/// What follows a value's last line, as far as a new block there is concerned.
#[derive(Default)]
struct Tail {
    /// Blank lines right after it: a kept (`|+`) block would take them in as line breaks.
    blank_after: usize,
    /// The block's lines must be indented at least this far for the blank and comment lines after
    /// it to stay outside it.
    min_pad: usize,
    /// A tab in a blank or comment line's indentation: PyYAML reads those lines differently.
    tab: bool,
    /// A line break ends the value's last line (not so at the end of an unclosed frontmatter).
    break_after: bool,
}

impl Tail {
    fn after(text: &str, d: usize, limit: usize) -> Tail {
        let mut tail = Tail { break_after: d < limit, ..Tail::default() };
        let mut seen_other = false;
        let mut at = text[d..].find('\n').map_or(limit, |i| d + i + 1);
        while at < limit {
            let stop = line_end(text, at).min(limit);
            let line = &text[at..stop];
            let spaces = line.bytes().take_while(|&b| b == b' ').count();
            let rest = line[spaces..].trim_start_matches([' ', '\t']);
            if rest.len() < line.len() - spaces {
                tail.tab = true;
            }
            if rest.is_empty() {
                tail.min_pad = tail.min_pad.max(spaces);
                tail.blank_after += usize::from(!seen_other);
            } else if rest.starts_with('#') {
                tail.min_pad = tail.min_pad.max(spaces + 1);
                seen_other = true;
            } else {
                break;
            }
            at = text[stop..].find('\n').map_or(limit, |i| stop + i + 1);
        }
        tail
    }
}

/// Where a new block goes: the mapping's indentation and what the lines after it need.
struct BlockAt {
    n: usize,
    min_pad: usize,
    blank_after: usize,
    break_after: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Written {
    /// A value on one line (plain or quoted).
    Inline(String),
    /// A block: its indicator, then its lines (each after a line break, none after the last).
    Block(String, String),
}

impl Place {
    fn write(&self, text: &str, w: &Written) -> String {
        let (head, lines) = match w {
            Written::Inline(s) => (s.as_str(), ""),
            Written::Block(h, l) => (h.as_str(), l.as_str()),
        };
        let space = if self.space { " " } else { "" };
        let (before, rest, after) = (&text[..self.a], &text[self.b..self.c], &text[self.d..]);
        format!("{before}{space}{head}{rest}{lines}{after}")
    }
}

/// The renderings of a new field, best first, each as the whole new text.
fn new_field(text: &str, parsed: &Parsed, key: &str, value: &str, eol: &str) -> Result<Vec<String>, String> {
    let split = &parsed.split;
    // A key PyYAML would type (`yes`, `1`) is quoted, so that every loader sees the same keys.
    let key = if looks_typed(key) { double_quoted(key) } else { key.to_string() };
    if let Some(root) = parsed.root().filter(|r| r.flow) {
        // A flow mapping: the new entry goes before its closing brace.
        let close = root.span.end.saturating_sub(1);
        if text.as_bytes().get(close) != Some(&b'}') {
            return Err("the end of the frontmatter's flow mapping was not found".into());
        }
        let at = text[..close].trim_end().len();
        let sep = match text[..at].chars().next_back() {
            Some('{') => "",
            Some(',') => " ",
            _ => ", ",
        };
        let mut tries = vec![];
        if plain_ok(value, true) {
            tries.push(value.to_string());
        }
        tries.push(double_quoted(value));
        return Ok(tries.iter().map(|v| format!("{}{sep}{key}: {v}{}", &text[..at], &text[at..])).collect());
    }
    let n = parsed.fm.fields.first().map_or(0, |f| indent_of_line(text, f.key_span.start));
    let last_block =
        (new_field_index(text, parsed) < parsed.fm.fields.len()).then(|| parsed.fm.fields.last()).flatten();
    let at = BlockAt { n, min_pad: 0, blank_after: 0, break_after: true };
    let mut tries: Vec<Written> = Vec::new();
    tries.extend(block_ok(value).then(|| literal_block(value, &at, eol)).flatten());
    if plain_ok(value, false) {
        tries.push(Written::Inline(value.to_string()));
    }
    tries.push(Written::Inline(double_quoted(value)));
    let indent = " ".repeat(n);
    let lines = tries.iter().map(|w| match w {
        Written::Inline(s) => format!("{indent}{key}: {s}{eol}"),
        Written::Block(h, l) => format!("{indent}{key}: {h}{l}{eol}"),
    });
    Ok(match split.yaml {
        Some(_) if last_block.is_some() => {
            let key_start = last_block.expect("checked").key_span.start;
            let at = text[..key_start].rfind('\n').map_or(0, |i| i + 1);
            lines.map(|line| format!("{}{line}{}", &text[..at], &text[at..])).collect()
        }
        Some(yaml) => {
            let at = yaml.end;
            let before = &text[..at];
            let sep = if before.is_empty() || before.ends_with('\n') { "" } else { eol };
            lines.map(|line| format!("{before}{sep}{line}{}", &text[at..])).collect()
        }
        None if split.has_frontmatter() => {
            // An empty frontmatter (`---` right before `---`): add the line after the opener.
            let open = split.open.expect("frontmatter has an opening line");
            let at = text[open.end..].find('\n').map(|i| open.end + i + 1).unwrap_or(text.len());
            lines.map(|line| format!("{}{line}{}", &text[..at], &text[at..])).collect()
        }
        None => {
            let start = if split.bom { 3 } else { 0 };
            lines.map(|line| format!("{}---{eol}{line}---{eol}{}", &text[..start], &text[start..])).collect()
        }
    })
}

/// Where a new field goes among the fields: at the end, except when the frontmatter ends inside
/// the last field's block value without a line break (an unclosed frontmatter at the end of the
/// file): PyYAML reads that block without a final line break and the engine with one, and a line
/// after it would give it one for every reader. The new field goes before it instead.
fn new_field_index(text: &str, parsed: &Parsed) -> usize {
    let fields = &parsed.fm.fields;
    let ends_in_block = parsed.split.yaml.is_some_and(|y| !y.is_empty() && !y.slice(text).ends_with('\n'))
        && fields.last().is_some_and(|f| f.value.scalar().is_some_and(|(_, style)| style.is_block()));
    fields.len() - usize::from(ends_in_block)
}

/// Whether every reader keeps `c` as written in any scalar style: not a control character (C0,
/// DEL, C1 with NEL, which YAML 1.1 reads as a line break, and which PyYAML refuses anywhere), not
/// LS or PS (line breaks in YAML 1.1), not a byte order mark (the engine's parser refuses one
/// inside a document), not U+FFFE or U+FFFF (PyYAML refuses them).
fn keeps(c: char) -> bool {
    !c.is_control() && !matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}')
}

/// Whether some YAML 1.1 or 1.2 loader reads `v`, written plain, as something other than a string
/// (the types [`crate::syntax::yaml11`] models, PyYAML's `=` and `<<`, and YAML 1.1's other spellings).
fn looks_typed(v: &str) -> bool {
    if resolve_core(v) != Typed::Str || resolve_yaml11(v) != Typed::Str || matches!(v, "=" | "<<") {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "~" | "null" | "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | ".inf" | "-.inf" | "+.inf" | ".nan"
    ) {
        return true;
    }
    let digits = v.trim_start_matches(['-', '+']);
    if digits.starts_with(|c: char| c.is_ascii_digit() || c == '.') && v.parse::<f64>().is_ok() {
        return true;
    }
    let b = v.as_bytes();
    // Integers in other bases, and dates (`2024-01-31`), sexagesimals (`1:30`).
    lower.starts_with("0x")
        || lower.starts_with("0o")
        || lower.starts_with("0b")
        || (b.len() >= 10 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-')
        || (v.contains(':') && v.chars().all(|c| c.is_ascii_digit() || c == ':' || c == '.'))
        || digits.chars().all(|c| c.is_ascii_digit() || c == '_') && !digits.is_empty()
}

/// Whether `v` written plain is read back as the same string, in block context or, when `flow`,
/// inside a flow mapping (where `,[]{}` end it, and PyYAML also stops at `?` and `:`).
fn plain_ok(v: &str, flow: bool) -> bool {
    // A tab is not kept (PyYAML ends a plain scalar at one), nor are spaces at either end.
    if v.is_empty() || v != v.trim() || !v.chars().all(keeps) || looks_typed(v) {
        return false;
    }
    let mut chars = v.chars();
    let first = chars.next().unwrap_or(' ');
    let then_solid = chars.next().is_some_and(|c| c != ' ');
    let first_ok = match first {
        '-' => then_solid,
        '?' | ':' => then_solid && !flow,
        c => !"-?:,[]{}#&*!|>'\"%@`".contains(c),
    };
    first_ok
        && !(v.contains(": ") || v.contains(" #") || v.ends_with(':'))
        && !(flow && v.contains([',', '[', ']', '{', '}', '?', ':', '#']))
}

/// Whether `v` fits single quotes on one line: no line break of any YAML version, nothing
/// [`keeps`] refuses but tabs (kept inside quotes).
fn single_ok(v: &str) -> bool {
    v.chars().all(|c| c == '\t' || keeps(c))
}

fn single_quoted(v: &str) -> String {
    format!("'{}'", v.replace('\'', "''"))
}

/// `v` double-quoted: escapes for the quote, the backslash and every character [`keeps`] refuses,
/// so that it holds any string on one line.
fn double_quoted(v: &str) -> String {
    let mut out = String::with_capacity(v.len() + 2);
    out.push('"');
    for c in v.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\0' => out.push_str("\\0"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{85}' => out.push_str("\\N"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            c if !keeps(c) && (c as u32) < 0x100 => out.push_str(&format!("\\x{:02X}", c as u32)),
            c if !keeps(c) => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether `v` can be a literal block read back as itself: it has a line break and text, and each
/// line is kept as written: no `\r` (a block reads it as a line break), no spaces or tabs at a
/// line's end (whitespace-only lines are read differently by indentation, and editors strip
/// them), nothing [`keeps`] refuses but tabs.
fn block_ok(v: &str) -> bool {
    v.contains('\n')
        && v.trim_end_matches('\n').contains(|c| c != '\n')
        && v.split('\n').all(|line| !line.ends_with([' ', '\t']) && line.chars().all(|c| c == '\t' || keeps(c)))
}

/// `v` as a literal block at `at`: `|` for one final line break, `|-` for none, `|+` for more
/// (when the blank lines after it leave room), an indentation indicator when the first line
/// with text starts with whitespace (the indentation would otherwise be read from it).
fn literal_block(v: &str, at: &BlockAt, eol: &str) -> Option<Written> {
    let body = v.trim_end_matches('\n');
    let breaks = v.len() - body.len();
    let pad = at.min_pad.max(at.n + 2);
    let first = body.split('\n').find(|l| !l.is_empty()).unwrap_or("");
    let indicator = if first.starts_with([' ', '\t']) {
        let i = pad - at.n;
        if i > 9 {
            return None;
        }
        i.to_string()
    } else {
        String::new()
    };
    // A kept block takes in the blank lines after it: write only the line breaks they don't give.
    let (chomp, extra) = match breaks {
        0 => ("-", 0),
        1 => ("", 0),
        _ => ("+", (breaks - 1).checked_sub(at.blank_after)?),
    };
    let indent = " ".repeat(pad);
    let mut lines = String::new();
    for line in body.split('\n') {
        lines.push_str(eol);
        if !line.is_empty() {
            lines.push_str(&indent);
            lines.push_str(line);
        }
    }
    for _ in 0..extra {
        lines.push_str(eol);
    }
    if !at.break_after {
        lines.push_str(eol);
    }
    Some(Written::Block(format!("|{indicator}{chomp}"), lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_of(text: &str, key: &str) -> Option<String> {
        form_fields(text).into_iter().find(|f| f.key == key).and_then(|f| f.value)
    }

    #[test]
    fn only_the_value_changes_and_comments_stay() {
        let text = "---\n# leading comment\nname: demo # the name\ndescription: Old text.\nlicense: MIT\n---\n# Body\n";
        let out = set_field(text, "description", "New text, longer.").unwrap();
        assert_eq!(
            out,
            "---\n# leading comment\nname: demo # the name\ndescription: New text, longer.\nlicense: MIT\n---\n# Body\n"
        );
        let out = set_field(&out, "name", "renamed").unwrap();
        assert!(out.contains("name: renamed # the name\n"), "{out}");
    }

    #[test]
    fn quoting_is_kept_or_added_when_needed() {
        let text = "---\nname: \"demo\"\ndescription: 'It''s old'\n---\n";
        let out = set_field(text, "name", "new \"one\"").unwrap();
        assert!(out.contains("name: \"new \\\"one\\\"\"\n"), "{out}");
        let out = set_field(&out, "description", "It's new").unwrap();
        assert!(out.contains("description: 'It''s new'\n"), "{out}");
        assert_eq!(value_of(&out, "description").as_deref(), Some("It's new"));
        // Plain values that YAML would read as something else, or misread, get quotes.
        let plain = "---\nlicense: MIT\n---\n";
        for v in ["true", "no", "1.0", "2024-01-31", "key: value", "a #b", "- item", "", " padded", "0x1F", "42"] {
            let out = set_field(plain, "license", v).unwrap();
            assert_eq!(value_of(&out, "license").as_deref(), Some(v), "{v}: {out}");
            assert!(out.contains("license: \""), "{v} should be quoted: {out}");
        }
        let out = set_field(plain, "license", "Apache-2.0").unwrap();
        assert_eq!(out, "---\nlicense: Apache-2.0\n---\n");
    }

    #[test]
    fn block_scalars_stay_blocks() {
        let text = "---\nname: demo\ndescription: |\n  Line one.\n  Line two.\nlicense: MIT # keep\n---\nBody\n";
        let out = set_field(text, "description", "First.\nSecond.\nThird.\n").unwrap();
        assert_eq!(
            out,
            "---\nname: demo\ndescription: |\n  First.\n  Second.\n  Third.\nlicense: MIT # keep\n---\nBody\n"
        );
        assert_eq!(value_of(&out, "description").as_deref(), Some("First.\nSecond.\nThird.\n"));
        // Without a final line break: `|-`; a single line in a block stays readable.
        let out = set_field(text, "description", "One\nTwo").unwrap();
        assert_eq!(value_of(&out, "description").as_deref(), Some("One\nTwo"));
        assert!(out.contains("description: |-\n  One\n  Two\nlicense"), "{out}");
        let out = set_field(text, "description", "Just one line.").unwrap();
        assert_eq!(value_of(&out, "description").as_deref(), Some("Just one line."));
        assert!(out.ends_with("license: MIT # keep\n---\nBody\n"), "{out}");
        // A plain value given line breaks becomes a block.
        let out = set_field("---\nname: a\ndescription: short\n---\n", "description", "a\nb\n").unwrap();
        assert_eq!(out, "---\nname: a\ndescription: |\n  a\n  b\n---\n");
        let out = set_field("---\ndescription: short # why\nname: a\n---\n", "description", "a\nb").unwrap();
        assert_eq!(out, "---\ndescription: |- # why\n  a\n  b\nname: a\n---\n");
        assert_eq!(value_of(&out, "description").as_deref(), Some("a\nb"));
    }

    #[test]
    fn a_missing_field_is_added_at_the_end_of_the_frontmatter() {
        let text = "---\nname: demo # n\n---\nBody\n";
        let out = set_field(text, "description", "Added.").unwrap();
        assert_eq!(out, "---\nname: demo # n\ndescription: Added.\n---\nBody\n");
        let out = set_field("# Just a body\n", "name", "demo").unwrap();
        assert_eq!(out, "---\nname: demo\n---\n# Just a body\n");
        assert_eq!(value_of(&out, "name").as_deref(), Some("demo"));
        let out = set_field("---\n---\nBody\n", "name", "demo").unwrap();
        assert_eq!(value_of(&out, "name").as_deref(), Some("demo"), "{out}");
        assert!(out.ends_with("---\nBody\n"));
        assert_eq!(set_field(text, "bad key", "x"), Err(EditError::BadKey { key: "bad key".into() }));
    }

    #[test]
    fn an_empty_value_and_crlf_files() {
        let text = "---\r\nname:\r\ndescription: d\r\n---\r\nBody\r\n";
        let out = set_field(text, "name", "demo").unwrap();
        assert_eq!(out, "---\r\nname: demo\r\ndescription: d\r\n---\r\nBody\r\n");
        let out = set_field(&out, "license", "MIT").unwrap();
        assert_eq!(out, "---\r\nname: demo\r\ndescription: d\r\nlicense: MIT\r\n---\r\nBody\r\n");
        let out = set_field(&out, "description", "x\ny").unwrap();
        assert!(out.contains("description: |-\r\n  x\r\n  y\r\nlicense"), "{out:?}");
    }

    #[test]
    fn broken_yaml_takes_only_values_that_read_back_through_the_line_by_line_reading() {
        // `name: [x` breaks the YAML; a block scalar would be folded by the line-by-line reading.
        let text = "---\nname: [x\ndescription: d\n---\n";
        match set_field(text, "description", "a\nb") {
            Ok(out) => assert_eq!(value_of(&out, "description").as_deref(), Some("a\nb"), "{out:?}"),
            Err(e) => assert!(matches!(e, EditError::Unwritable { .. }), "{e:?}"),
        }
        assert_eq!(
            value_of(&set_field(text, "description", "plain").unwrap(), "description").as_deref(),
            Some("plain")
        );
        // Fixing the broken field makes the YAML valid: the others then read as YAML says.
        let out = set_field("---\nname: a b: c\nmetadata: {}\n---\n", "name", "x").unwrap();
        assert_eq!(out, "---\nname: x\nmetadata: {}\n---\n");
    }

    #[test]
    fn mappings_lists_and_non_mappings_are_refused() {
        let text = "---\nname: demo\nmetadata:\n  version: \"1\"\n---\n";
        assert_eq!(set_field(text, "metadata", "x"), Err(EditError::NotAScalar { key: "metadata".into() }));
        assert_eq!(set_field("---\n- a\n- b\n---\n", "name", "x"), Err(EditError::NotAMapping));
        let fields = form_fields(text);
        assert_eq!(fields[0], FormField { key: "name".into(), value: Some("demo".into()) });
        assert_eq!(fields[1], FormField { key: "metadata".into(), value: None });
    }
}

/// A length limit on a frontmatter field under an agent's profile: what the form counts a field
/// against, as the rule that reports it counts (characters, Unicode scalar values).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FieldLimit {
    /// The field's key, e.g. `description`.
    pub key: &'static str,
    pub max_chars: usize,
    /// How the agent's profile reports a value over it.
    pub severity: crate::Severity,
    /// The rule's code, e.g. `SK213`.
    pub code: &'static str,
    /// Who sets the limit, in a few words: "the specification", "Claude Code's listing".
    pub by: &'static str,
}

/// The length limits of the frontmatter's fields under `agent`'s profile, tightest first for
/// each field; a rule the profile turns off sets none.
pub fn field_limits(agent: &crate::Agent) -> Vec<FieldLimit> {
    use crate::lint::profile::Level;
    use crate::lint::rules::spec::{compatibility_invalid, description_too_long, name_too_long};
    const LIMITS: [(&str, &str, usize, &str); 4] = [
        ("name", "name-too-long", name_too_long::MAX_CHARS, "the specification"),
        ("description", "description-too-long", description_too_long::MAX_CHARS, "the specification"),
        (
            "description",
            "description-listing-truncated",
            crate::lint::rules::parity::description_listing_truncated::MAX_CHARS,
            "Claude Code's listing",
        ),
        ("compatibility", "compatibility-invalid", compatibility_invalid::MAX_CHARS, "the specification"),
    ];
    let mut out = vec![];
    for (key, rule, max_chars, by) in LIMITS {
        let Some(meta) = crate::lint::rules::RULES.iter().map(|r| r.meta()).find(|m| m.name == rule) else { continue };
        let severity = match agent.lint.level(rule) {
            Level::Off => continue,
            Level::Default => meta.severity,
            Level::Set(s) => s,
        };
        out.push(FieldLimit { key, max_chars, severity, code: meta.code, by });
    }
    out.sort_by_key(|l| (l.key, l.max_chars));
    out
}
