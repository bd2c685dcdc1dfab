//! What a reference is ([`Reference`], [`RefKind`]) and how its destination is read
//! ([`parse_target`], the paths in inline code): shared by the fast reference scan
//! (`references_fast.rs`) and the rest of `markdown/`, below both.

use crate::syntax::text::Span;
use crate::syntax::uri::percent_decode;
use std::borrow::Cow;
use std::ops::Range;

/// How the body refers to a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefKind {
    /// A link destination: `[text](references/a.md)`, a reference definition, or an autolink.
    Link,
    /// An image source: `![alt](assets/diagram.png)`.
    Image,
    /// A path in inline code: `` `python3 scripts/extract.py` ``.
    Code,
}

/// A file (or URL) the body refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// The destination as written in the file (still percent-encoded, with its `#anchor`).
    pub target: String,
    /// The path relative to the skill root, normalised and `/`-separated (`./a/../b.md` is
    /// `b.md`, a folder has no trailing slash, the root itself is `""`). `None` for URLs (any
    /// `scheme:`), protocol-relative `//host` links and pure `#anchors`. When `escapes` is set,
    /// it keeps the leading `..` components or `/`.
    pub path: Option<String>,
    /// The fragment after `#`, without the `#`.
    pub anchor: Option<String>,
    /// The path leaves the skill folder: `..` past the root, or an absolute path.
    pub escapes: bool,
    pub kind: RefKind,
    /// The exact bytes of `target` in the file.
    pub span: Span,
}

/// A destination split into the parts the rules need (see [`Reference`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Target {
    pub path: Option<String>,
    pub anchor: Option<String>,
    pub escapes: bool,
}

/// Folders whose paths count as references when written in inline code.
const CODE_PREFIXES: [&str; 4] = ["scripts/", "references/", "assets/", "./"];

/// Paths in the inline code span at `range` (backticks included).
pub(crate) fn code_paths(src: &str, base: usize, range: Range<usize>, out: &mut Vec<Reference>) {
    let code = &src[range.clone()];
    let start = range.start + (code.len() - code.trim_start_matches('`').len());
    let end = range.start + code.trim_end_matches('`').len();
    if end <= start {
        return;
    }
    let b = src.as_bytes();
    let mut i = start;
    while i < end {
        while i < end && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let token_start = i;
        while i < end && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        if let Some(span) = code_path(src, token_start, i) {
            let target = span.slice(src);
            let parsed = parse_target(target, false);
            out.push(Reference {
                target: target.to_string(),
                path: parsed.path,
                anchor: parsed.anchor,
                escapes: parsed.escapes,
                kind: RefKind::Code,
                span: Span::new(base + span.start, base + span.end),
            });
        }
    }
}

/// The path in one whitespace-separated token of inline code, if it is one: quotes and brackets
/// around it, trailing punctuation and a `:line` suffix are not part of it; globs and
/// placeholders (`scripts/*.py`, `references/<name>.md`, `$DIR`) are not paths.
fn code_path(src: &str, mut start: usize, mut end: usize) -> Option<Span> {
    let b = src.as_bytes();
    while start < end && matches!(b[start], b'(' | b'[' | b'"' | b'\'') {
        start += 1;
    }
    if start >= end || !matches!(b[start], b's' | b'r' | b'a' | b'.') {
        return None;
    }
    let token = &src[start..end];
    if !CODE_PREFIXES.iter().any(|p| token.starts_with(p)) {
        return None;
    }
    while end > start + 2 && matches!(b[end - 1], b',' | b'.' | b':' | b';' | b')' | b']' | b'"' | b'\'' | b'!' | b'?')
    {
        end -= 1;
    }
    // `scripts/run.py:12` or `:12:5`: a line (and column) number.
    for _ in 0..2 {
        let t = &src[start..end];
        match t.rfind(':') {
            Some(c) if c + 1 < t.len() && t[c + 1..].bytes().all(|d| d.is_ascii_digit()) => end = start + c,
            _ => break,
        }
    }
    let mut dots = 0;
    for &c in &b[start..end] {
        dots = if c == b'.' { dots + 1 } else { 0 };
        if dots == 3 || matches!(c, b'*' | b'?' | b'{' | b'}' | b'<' | b'>' | b'$' | b'|' | b'%') {
            return None;
        }
    }
    Some(Span::new(start, end))
}

/// Whether `s` starts with a URL scheme (`https:`, `mailto:`, `c:`).
pub(super) fn scheme_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let n = b.iter().position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'.' | b'-')))?;
    (b[n] == b':').then_some(n)
}

/// Prefixes that stand for the skill's folder.
const SKILL_ROOT_PLACEHOLDERS: [&str; 4] = ["{baseDir}", "${CLAUDE_SKILL_DIR}", "$CLAUDE_SKILL_DIR", "{{baseDir}}"];

/// A path that is a template's blank to fill in, not a file: it holds `<…>`, `{…}`, `[…]`, `…`
/// or `...` as a part, or spells out `path/to/`.
fn is_template_placeholder(path: &str) -> bool {
    path.contains(['<', '>', '{', '}', '[', ']', '…', '*'])
        || path.split('/').any(|part| part == "..." || part.starts_with("...") && part.len() > 3)
        || path.contains("path/to/")
        || path.starts_with("path/to")
}

/// Split a destination into its path relative to the skill root, its anchor, and whether it
/// leaves the folder. `percent` decodes `%20`-style escapes (Markdown links; not code).
pub fn parse_target(target: &str, percent: bool) -> Target {
    let s = target.trim();
    if s.is_empty() {
        return Target::default();
    }
    let (before, anchor) = match s.split_once('#') {
        Some((p, a)) => (p, Some(if percent { percent_decode(a).into_owned() } else { a.to_string() })),
        None => (s, None),
    };
    if before.is_empty() {
        return Target { path: None, anchor, escapes: false };
    }
    match scheme_len(before) {
        // `C:\x` or `C:/x`: a Windows drive, not a URL.
        Some(1) if matches!(before.as_bytes().get(2), Some(b'/' | b'\\')) => {
            return Target { path: Some(before.replace('\\', "/")), anchor, escapes: true };
        }
        Some(_) => return Target::default(),
        None => {}
    }
    if before.starts_with("//") || before.starts_with("\\\\") {
        return Target::default();
    }
    let before = before.split('?').next().unwrap_or(before);
    // `{baseDir}/…` (a placeholder of published libraries) and `${CLAUDE_SKILL_DIR}/…` (which
    // Claude Code replaces with the skill's folder) name the skill root.
    let before = SKILL_ROOT_PLACEHOLDERS
        .iter()
        .find_map(|p| {
            before.strip_prefix(p).and_then(|rest| rest.strip_prefix('/').or((rest.is_empty()).then_some("")))
        })
        .map_or(before, |rest| if rest.is_empty() { "./" } else { rest });
    if is_template_placeholder(before) {
        return Target { path: None, anchor, escapes: false };
    }
    let decoded = if percent { percent_decode(before) } else { Cow::Borrowed(before) };
    // Most paths are already normal: `scripts/run.py`.
    let d = decoded.as_bytes();
    let normal = !d.is_empty()
        && d[0] != b'/'
        && d[0] != b'.'
        && !d.ends_with(b"/")
        && !decoded.contains("//")
        && !decoded.contains("/.");
    if normal {
        return Target { path: Some(decoded.into_owned()), anchor, escapes: false };
    }
    let absolute = decoded.starts_with('/');
    let mut escapes = absolute;
    let mut parts: Vec<&str> = Vec::new();
    for part in decoded.split('/') {
        match part {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&last) if last != ".." => {
                    parts.pop();
                }
                _ if absolute => {}
                _ => {
                    escapes = true;
                    parts.push("..");
                }
            },
            part => parts.push(part),
        }
    }
    let mut path = String::with_capacity(decoded.len());
    if absolute {
        path.push('/');
    }
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            path.push('/');
        }
        path.push_str(part);
    }
    Target { path: Some(path), anchor, escapes }
}
