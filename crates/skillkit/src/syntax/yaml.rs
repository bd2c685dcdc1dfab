//! YAML with every node's position kept. One parser decides validity: `saphyr-parser` (YAML 1.2,
//! event-based, spans on every event). We build our own small tree from its events so that style
//! facts strict loaders care about (flow style, anchors, tags, duplicate keys) stay visible, and
//! so that size and depth are bounded: aliases are never expanded, nesting and node counts are
//! capped. When the YAML is broken, a lenient line reading (what Claude Code, Codex and Gemini CLI
//! do with, e.g., an unquoted `: `) still gives the app and the rules the top-level fields.

use crate::syntax::text::Span;
use saphyr_parser::{Event, Parser, ScalarStyle as PStyle};

/// Deeper nesting than this is reported instead of parsed; no frontmatter needs it.
pub const MAX_DEPTH: usize = 64;
/// More nodes than this is reported instead of parsed; keeps memory bounded on huge input.
pub const MAX_NODES: usize = 100_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

impl ScalarStyle {
    pub fn is_block(self) -> bool {
        matches!(self, ScalarStyle::Literal | ScalarStyle::Folded)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    Scalar {
        value: String,
        style: ScalarStyle,
    },
    Sequence(Vec<Node>),
    Mapping(Vec<Entry>),
    /// `*name`: never expanded.
    Alias,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    /// Byte span in the file (block scalars include their `|`/`>` indicator).
    pub span: Span,
    /// Written in flow style (`[a, b]`, `{k: v}`).
    pub flow: bool,
    /// Carries an anchor (`&name`).
    pub anchor: bool,
    /// Explicit tag, e.g. `!!str`.
    pub tag: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: Node,
    pub value: Node,
}

impl Node {
    pub fn scalar(&self) -> Option<(&str, ScalarStyle)> {
        match &self.kind {
            NodeKind::Scalar { value, style } => Some((value, *style)),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        self.scalar().map(|(v, _)| v)
    }
    pub fn is_plain(&self) -> bool {
        matches!(self.scalar(), Some((_, ScalarStyle::Plain))) && self.tag.is_none()
    }
    pub fn entries(&self) -> Option<&[Entry]> {
        match &self.kind {
            NodeKind::Mapping(e) => Some(e),
            _ => None,
        }
    }
    pub fn items(&self) -> Option<&[Node]> {
        match &self.kind {
            NodeKind::Sequence(i) => Some(i),
            _ => None,
        }
    }
    /// Every node below and including this one, depth first.
    pub fn walk(&self, f: &mut dyn FnMut(&Node)) {
        f(self);
        match &self.kind {
            NodeKind::Sequence(items) => items.iter().for_each(|n| n.walk(f)),
            NodeKind::Mapping(entries) => entries.iter().for_each(|e| {
                e.key.walk(f);
                e.value.walk(f);
            }),
            _ => {}
        }
    }
    /// A short name for the node's kind, as YAML 1.2 readers type it.
    pub fn kind_name(&self) -> &'static str {
        match &self.kind {
            NodeKind::Scalar { value, style } if *style == ScalarStyle::Plain => {
                crate::syntax::yaml11::resolve_core(value).name()
            }
            NodeKind::Scalar { .. } => "string",
            NodeKind::Sequence(_) => "list",
            NodeKind::Mapping(_) => "mapping",
            NodeKind::Alias => "alias",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    pub message: String,
    /// Where the parser stopped (usually one character).
    pub span: Span,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Yaml {
    /// The document's root node; `None` for an empty document or when parsing failed before it.
    pub root: Option<Node>,
    pub error: Option<YamlError>,
}

/// Converts the parser's character indices into byte offsets, walking from the last answer.
struct Offsets<'a> {
    text: &'a str,
    chars: usize,
    bytes: usize,
}

impl Offsets<'_> {
    fn byte(&mut self, char_index: usize) -> usize {
        while self.chars < char_index {
            match self.text[self.bytes..].chars().next() {
                Some(c) => {
                    self.bytes += c.len_utf8();
                    self.chars += 1;
                }
                None => break,
            }
        }
        while self.chars > char_index {
            let c = self.text[..self.bytes].chars().next_back().unwrap();
            self.bytes -= c.len_utf8();
            self.chars -= 1;
        }
        self.bytes
    }
}

enum Frame {
    Seq(Node, Vec<Node>),
    Map(Node, Vec<Entry>, Option<Node>),
}

fn style(s: PStyle) -> ScalarStyle {
    match s {
        PStyle::Plain => ScalarStyle::Plain,
        PStyle::SingleQuoted => ScalarStyle::SingleQuoted,
        PStyle::DoubleQuoted => ScalarStyle::DoubleQuoted,
        PStyle::Literal => ScalarStyle::Literal,
        PStyle::Folded => ScalarStyle::Folded,
    }
}

/// Move a block scalar's start back to its `|` or `>` indicator.
fn block_indicator_start(text: &str, start: usize) -> usize {
    let b = text.as_bytes();
    let mut i = start;
    while i > 0 && matches!(b[i - 1], b' ' | b'\t' | b'\n' | b'\r') {
        i -= 1;
    }
    while i > 0 && matches!(b[i - 1], b'-' | b'+' | b'0'..=b'9') {
        i -= 1;
    }
    if i > 0 && matches!(b[i - 1], b'|' | b'>') {
        i - 1
    } else {
        start
    }
}

/// Parse `src`, the YAML text found at byte `base` of the file.
/// `parsed` when the caller already has the parse of `src` (see [`crate::skill::Skill::yaml_for`]),
/// else a fresh parse of `src` with offsets from 0.
pub fn parse_or<'a>(src: &str, parsed: Option<&'a Yaml>) -> std::borrow::Cow<'a, Yaml> {
    match parsed {
        Some(y) => std::borrow::Cow::Borrowed(y),
        None => std::borrow::Cow::Owned(parse(src, 0)),
    }
}

pub fn parse(src: &str, base: usize) -> Yaml {
    let mut offs = Offsets { text: src, chars: 0, bytes: 0 };
    let mut parser = Parser::new_from_str(src).keep_tags(true);
    let mut stack: Vec<Frame> = Vec::new();
    let mut out = Yaml::default();
    let mut nodes = 0usize;
    let mut documents = 0usize;
    let point = |at: usize| {
        let len = src[at..].chars().next().map_or(0, |c| if c == '\n' { 0 } else { c.len_utf8() });
        Span::new(base + at, base + at + len)
    };

    loop {
        let (event, pspan) = match parser.next_event() {
            None => break,
            Some(Ok(e)) => e,
            Some(Err(e)) => {
                let at = offs.byte(e.marker().index());
                out.error = Some(YamlError { message: e.info().to_string(), span: point(at) });
                break;
            }
        };
        let is_seq_event = matches!(event, Event::SequenceStart(..));
        let start = offs.byte(pspan.start.index());
        let end = offs.byte(pspan.end.index());
        let node = |kind, start: usize, end: usize, anchor: usize, tag: Option<String>| Node {
            kind,
            span: Span::new(base + start, base + end),
            flow: false,
            anchor: anchor != 0,
            tag,
        };
        let done: Option<Node> = match event {
            Event::StreamEnd => break,
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    out.error = Some(YamlError { message: "more than one YAML document".into(), span: point(start) });
                    break;
                }
                None
            }
            Event::StreamStart | Event::DocumentEnd | Event::Nothing => None,
            Event::Alias(_) => Some(node(NodeKind::Alias, start, end, 0, None)),
            Event::Scalar(value, st, anchor, tag) => {
                let st = style(st);
                let s = if st.is_block() { block_indicator_start(src, start) } else { start };
                Some(node(
                    NodeKind::Scalar { value: value.into_owned(), style: st },
                    s,
                    end,
                    anchor,
                    tag.map(|t| format!("{}{}", t.handle, t.suffix)),
                ))
            }
            Event::SequenceStart(anchor, tag) | Event::MappingStart(anchor, tag) => {
                let is_seq = is_seq_event;
                if stack.len() >= MAX_DEPTH {
                    out.error = Some(YamlError {
                        message: format!("nesting deeper than {MAX_DEPTH} levels"),
                        span: point(start),
                    });
                    break;
                }
                let mut n =
                    node(NodeKind::Alias, start, start, anchor, tag.map(|t| format!("{}{}", t.handle, t.suffix)));
                n.flow = matches!(src.as_bytes().get(start), Some(b'[' | b'{'));
                stack.push(if is_seq { Frame::Seq(n, Vec::new()) } else { Frame::Map(n, Vec::new(), None) });
                None
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let close = if matches!(src.as_bytes().get(start), Some(b']' | b'}')) { end } else { start };
                match stack.pop() {
                    Some(Frame::Seq(mut n, items)) => {
                        n.kind = NodeKind::Sequence(items);
                        n.span.end = (base + close).max(n.span.start);
                        Some(n)
                    }
                    Some(Frame::Map(mut n, entries, _)) => {
                        n.kind = NodeKind::Mapping(entries);
                        n.span.end = (base + close).max(n.span.start);
                        Some(n)
                    }
                    None => None,
                }
            }
        };
        let Some(done) = done else { continue };
        nodes += 1;
        if nodes > MAX_NODES {
            out.error = Some(YamlError {
                message: format!("more than {MAX_NODES} YAML nodes"),
                span: Span::new(done.span.start, done.span.start),
            });
            break;
        }
        match stack.last_mut() {
            None => out.root = Some(done),
            Some(Frame::Seq(_, items)) => items.push(done),
            Some(Frame::Map(_, entries, pending)) => match pending.take() {
                None => *pending = Some(done),
                Some(key) => entries.push(Entry { key, value: done }),
            },
        }
    }
    if out.error.is_some() {
        out.root = None;
    }
    out
}

/// A top-level field read line by line, the way lenient loaders read frontmatter that is not
/// valid YAML: `key: rest of the line`, with indented continuation lines joined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LenientField {
    pub key: String,
    pub key_span: Span,
    pub value: String,
    pub value_span: Span,
}

/// Read `src` (at byte `base` of the file) leniently.
pub fn lenient_fields(src: &str, base: usize) -> Vec<LenientField> {
    let mut out: Vec<LenientField> = Vec::new();
    let mut at = 0;
    for raw in src.split_inclusive('\n') {
        let line_start = at;
        at += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let indented = line.starts_with([' ', '\t']);
        if indented {
            if let Some(last) = out.last_mut() {
                let piece = line.trim();
                let piece = piece.strip_prefix("- ").unwrap_or(piece);
                if !last.value.is_empty() {
                    last.value.push(' ');
                }
                last.value.push_str(piece);
                last.value_span.end = base + line_start + line.len();
            }
            continue;
        }
        let Some(colon) = line.find(':') else {
            continue;
        };
        let key = line[..colon].trim_end();
        if key.is_empty() || key.starts_with(['-', '[', '{', '"', '\'']) {
            continue;
        }
        let rest = &line[colon + 1..];
        let value_off = colon + 1 + (rest.len() - rest.trim_start().len());
        let mut value = rest.trim().to_string();
        if matches!(value.as_str(), "|" | ">" | "|-" | ">-" | "|+" | ">+") {
            value.clear();
        } else if value.len() >= 2
            && ((value.starts_with('"') && value.ends_with('"')) || (value.starts_with('\'') && value.ends_with('\'')))
        {
            value = value[1..value.len() - 1].to_string();
        }
        out.push(LenientField {
            key: key.to_string(),
            key_span: Span::new(base + line_start, base + line_start + key.len()),
            value,
            value_span: Span::new(base + line_start + value_off, base + line_start + line.len()),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(src: &str) -> Node {
        let y = parse(src, 0);
        assert!(y.error.is_none(), "{:?}", y.error);
        y.root.unwrap()
    }

    #[test]
    fn spans_point_at_keys_and_values_in_bytes() {
        let src = "name: café\ndescription: \"é q\"\n";
        let r = root(src);
        let e = r.entries().unwrap();
        assert_eq!(e[0].key.span.slice(src), "name");
        assert_eq!(e[0].value.span.slice(src), "café");
        assert_eq!(e[1].value.span.slice(src), "\"é q\"");
        assert_eq!(e[1].value.as_str(), Some("é q"));
    }

    #[test]
    fn flow_style_anchors_and_tags_are_recorded() {
        let src = "a: [x, y]\nb: &k 1\nc: *k\nd: !!str 2\n";
        let r = root(src);
        let e = r.entries().unwrap();
        assert!(e[0].value.flow);
        assert_eq!(e[0].value.span.slice(src), "[x, y]");
        assert!(e[1].value.anchor);
        assert_eq!(e[2].value.kind, NodeKind::Alias);
        assert_eq!(e[3].value.tag.as_deref(), Some("tag:yaml.org,2002:str"));
    }

    #[test]
    fn block_scalars_span_from_their_indicator() {
        let src = "d: >-\n  one\n  two\nx: 1\n";
        let r = root(src);
        let v = &r.entries().unwrap()[0].value;
        assert_eq!(v.as_str(), Some("one two"));
        assert!(v.span.slice(src).starts_with(">-"));
    }

    #[test]
    fn errors_are_located() {
        let src = "description: Use when: the user\n";
        let y = parse(src, 10);
        let e = y.error.unwrap();
        assert_eq!(e.span.start - 10, src.find(": the").unwrap());
    }

    #[test]
    fn depth_and_alias_bombs_are_bounded() {
        let deep = format!("a: {}", "[".repeat(10_000));
        assert!(parse(&deep, 0).error.is_some());
        let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for i in 0..20 {
            bomb.push_str(&format!("b{i}: &b{i} [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"));
        }
        let y = parse(&bomb, 0);
        assert!(y.error.is_none());
    }

    #[test]
    fn lenient_reading_keeps_colons_and_joins_continuations() {
        let src = "name: x\ndescription: Use when: the user asks\n  and more\n";
        let f = lenient_fields(src, 0);
        assert_eq!(f[1].value, "Use when: the user asks and more");
        assert_eq!(f[1].key_span.slice(src), "description");
    }
}
