//! The SKILL.md body as Markdown: file references, the heading outline, and the sanitized HTML
//! preview. Every function takes the whole file text and the body's span, and every span it
//! returns is into the whole file text, so diagnostics and editor marks need no translation.

use crate::syntax::text::Span;
use crate::syntax::tokens;
use pulldown_cmark::{CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::{Arc, Mutex};

mod refscan;
mod target;

pub(crate) use target::code_paths;
use target::scheme_len;
pub use target::{parse_target, RefKind, Reference, Target};

/// One heading and the text it governs.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Section {
    /// 1 to 6; 0 for the text before the first heading.
    pub level: u8,
    /// The heading's plain text (`""` for level 0).
    pub title: String,
    /// The `id` [`render_html`] gives the heading (`""` for level 0): its slug, with `-1`, `-2`…
    /// appended to repeats, as GitHub does.
    pub id: String,
    /// The heading line(s), without the line ending (empty at the section start for level 0).
    pub heading: Span,
    /// From the heading to the next heading of the same or a higher level, or the body's end.
    pub span: Span,
    /// [`tokens::estimate`] of the section's text.
    pub tokens: usize,
}

/// The Markdown dialect used everywhere here (GitHub's: tables, strikethrough, task lists).
fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

// ---------------------------------------------------------------------------------------------
// References

/// A link or image being read: opened by its `Start` event, finished at its `End`.
struct Open<'a> {
    kind: RefKind,
    link_type: LinkType,
    dest: CowStr<'a>,
    id: CowStr<'a>,
    /// The whole link's source range (relative to the body).
    range: Range<usize>,
    /// Where the link text's content ends so far (the `]` comes at or after it).
    text_end: usize,
}

/// The file references in the body: link destinations, image sources, autolinks, reference
/// definitions, and `scripts/`, `references/`, `assets/` or `./` paths in inline code. Code blocks
/// are not read. Sorted by position.
pub fn references(text: &str, body: Span) -> Vec<Reference> {
    // Most bodies are plain Markdown that a scanner reads exactly, much faster than a full parse.
    refscan::references(text, body).unwrap_or_else(|| references_pulldown(text, body))
}

/// [`references`] by a full pulldown-cmark parse.
pub(crate) fn references_pulldown(text: &str, body: Span) -> Vec<Reference> {
    let src = body.slice(text);
    let base = body.start;
    let mut out = Vec::new();
    let mut open: Vec<Open<'_>> = Vec::new();
    let mut used_defs: HashSet<usize> = HashSet::new();
    // Tables, strikethrough and task lists do not change links or code spans: parse plain
    // CommonMark, which is faster.
    let mut events = Parser::new_ext(src, Options::empty()).into_offset_iter();
    while let Some((event, range)) = events.next() {
        match event {
            Event::Start(Tag::Link { link_type, dest_url, id, .. }) => {
                open.push(Open { kind: RefKind::Link, link_type, dest: dest_url, id, text_end: range.start + 1, range })
            }
            Event::Start(Tag::Image { link_type, dest_url, id, .. }) => open.push(Open {
                kind: RefKind::Image,
                link_type,
                dest: dest_url,
                id,
                text_end: range.start + 2,
                range,
            }),
            Event::End(TagEnd::Link | TagEnd::Image) => {
                let Some(link) = open.pop() else { continue };
                if let Some(parent) = open.last_mut() {
                    parent.text_end = parent.text_end.max(link.range.end);
                }
                let found = match link.link_type {
                    LinkType::Inline => inline_destination(src, link.text_end, link.range.end),
                    LinkType::Autolink | LinkType::Email => Some(Span::new(
                        link.range.start + 1,
                        link.range.end.saturating_sub(1).max(link.range.start + 1),
                    )),
                    LinkType::Reference | LinkType::Collapsed | LinkType::Shortcut => {
                        match events.reference_definitions().get(&link.id) {
                            Some(def) if used_defs.insert(def.span.start) => {
                                definition_destination(src, def.span.clone(), &def.dest)
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let Some(span) = found else { continue };
                let target = span.slice(src);
                let parsed =
                    if link.link_type == LinkType::Email { Target::default() } else { parse_target(&link.dest, true) };
                out.push(Reference {
                    target: target.to_string(),
                    path: parsed.path,
                    anchor: parsed.anchor,
                    escapes: parsed.escapes,
                    kind: link.kind,
                    span: Span::new(base + span.start, base + span.end),
                });
            }
            event => {
                if let Some(link) = open.last_mut() {
                    link.text_end = link.text_end.max(range.end);
                } else if let Event::Code(_) = event {
                    code_paths(src, base, range, &mut out);
                }
            }
        }
    }
    // Definitions no link uses still name files.
    for (_, def) in events.reference_definitions().iter() {
        if used_defs.contains(&def.span.start) {
            continue;
        }
        if let Some(span) = definition_destination(src, def.span.clone(), &def.dest) {
            let parsed = parse_target(&def.dest, true);
            out.push(Reference {
                target: span.slice(src).to_string(),
                path: parsed.path,
                anchor: parsed.anchor,
                escapes: parsed.escapes,
                kind: RefKind::Link,
                span: Span::new(base + span.start, base + span.end),
            });
        }
    }
    out.sort_by_key(|r| (r.span.start, r.span.end));
    out
}

/// The destination of an inline link whose text ends at or after `from`, within `..end`: the
/// bytes after `](`, inside `<…>` when bracketed. Relative to `src`.
fn inline_destination(src: &str, from: usize, end: usize) -> Option<Span> {
    let b = src.as_bytes();
    let mut i = from;
    while i < end {
        match b[i] {
            b'\\' => i += 2,
            b']' => break,
            _ => i += 1,
        }
    }
    if i + 1 >= end || b[i + 1] != b'(' {
        return None;
    }
    destination_at(src, i + 2, end, true)
}

/// The destination of a reference definition `[label]: dest "title"` spanning `def`.
fn definition_destination(src: &str, def: Range<usize>, dest: &str) -> Option<Span> {
    let b = src.as_bytes();
    let end = def.end.min(src.len());
    let mut i = def.start + 1;
    while i < end {
        match b[i] {
            b'\\' => i += 2,
            b']' => break,
            _ => i += 1,
        }
    }
    if i + 1 >= end || b[i + 1] != b':' {
        return None;
    }
    let span = destination_at(src, i + 2, end, false)?;
    // A definition laid out across quoted lines (`> `) is not worth a wrong span.
    (span.is_empty() == dest.is_empty()).then_some(span)
}

/// Read a link destination starting at `i` (after optional whitespace, one line ending allowed):
/// `<…>` (the span is inside the brackets) or a run without spaces, where an unbalanced `)` ends
/// an inline destination.
fn destination_at(src: &str, mut i: usize, end: usize, inline: bool) -> Option<Span> {
    let b = src.as_bytes();
    while i < end && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    if i < end && b[i] == b'<' {
        let start = i + 1;
        let mut j = start;
        while j < end && b[j] != b'>' {
            j += if b[j] == b'\\' { 2 } else { 1 };
        }
        return Some(Span::new(start, j.min(end)));
    }
    let start = i;
    let mut depth = 0usize;
    while i < end {
        match b[i] {
            b'\\' => {
                i += 2;
                continue;
            }
            b'(' => depth += 1,
            b')' if inline && depth == 0 => break,
            b')' => depth = depth.saturating_sub(1),
            c if c <= b' ' => break,
            _ => {}
        }
        i += 1;
    }
    let stop = i.min(end);
    src.is_char_boundary(stop).then_some(Span::new(start, stop))
}

// ---------------------------------------------------------------------------------------------
// Outline

/// The body's headings as sections, in order; text before the first heading (if not blank) is a
/// level-0 section.
pub fn outline(text: &str, body: Span) -> Vec<Section> {
    let src = body.slice(text);
    let base = body.start;
    let mut heads: Vec<(u8, String, Span)> = Vec::new();
    let mut current: Option<(u8, String, Span)> = None;
    for (event, range) in Parser::new_ext(src, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                let line = src[range.clone()].trim_end();
                current = Some((level as u8, String::new(), Span::new(range.start, range.start + line.len())));
            }
            Event::End(TagEnd::Heading(_)) => heads.extend(current.take()),
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, title, _)) = current.as_mut() {
                    title.push_str(&t);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some((_, title, _)) = current.as_mut() {
                    title.push(' ');
                }
            }
            _ => {}
        }
    }
    let ids = heading_ids(heads.iter().map(|h| h.1.trim()));
    let mut out = Vec::with_capacity(heads.len() + 1);
    let first = heads.first().map_or(src.len(), |h| h.2.start);
    if !src[..first].trim().is_empty() {
        out.push(Section {
            level: 0,
            title: String::new(),
            id: String::new(),
            heading: Span::empty(base),
            span: Span::new(base, base + first),
            tokens: tokens::estimate(&src[..first]),
        });
    }
    for (i, ((level, title, heading), id)) in heads.iter().zip(ids).enumerate() {
        let end = heads[i + 1..].iter().find(|h| h.0 <= *level).map_or(src.len(), |h| h.2.start);
        out.push(Section {
            level: *level,
            title: title.trim().to_string(),
            id,
            heading: Span::new(base + heading.start, base + heading.end),
            span: Span::new(base + heading.start, base + end),
            tokens: tokens::estimate(&src[heading.start..end]),
        });
    }
    out
}

/// A heading's anchor as GitHub makes it: lowercase, letters, digits, `-` and `_` kept, spaces
/// become `-`, other punctuation dropped.
pub fn slug(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    for c in title.trim().chars() {
        if c.is_alphanumeric() || c == '_' || c == '-' {
            out.extend(c.to_lowercase());
        } else if c.is_whitespace() {
            out.push('-');
        }
    }
    out
}

/// Unique ids for headings in order: repeats get `-1`, `-2`…; an empty slug is `section`.
fn heading_ids<'a>(titles: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut seen = HashSet::new();
    // The suffix each slug last got: every smaller one is taken, so the search goes on from
    // there (a title repeated 100,000 times would otherwise try 1, 2, 3… each time).
    let mut last: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for title in titles {
        let mut base = slug(title);
        if base.is_empty() {
            base = "section".to_string();
        }
        let n = last.entry(base.clone()).or_insert(0);
        let mut id = if *n == 0 { base.clone() } else { format!("{base}-{n}") };
        while !seen.insert(id.clone()) {
            *n += 1;
            id = format!("{base}-{n}");
        }
        out.push(id);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// HTML preview

/// What an image source may load.
fn local_image(src: &str) -> Option<String> {
    let s = src.trim();
    if s.is_empty() || s.starts_with('#') || s.starts_with("//") || s.starts_with("\\\\") || scheme_len(s).is_some() {
        return None;
    }
    let t = parse_target(s, true);
    match t.path {
        Some(p) if !t.escapes && !p.is_empty() => Some(p),
        _ => None,
    }
}

/// The body as sanitized HTML for the preview. Tables, strikethrough and task lists are on;
/// headings carry the ids of [`outline`]. Nothing loads from outside: remote images are replaced
/// by their alt text, local images load from `resolve(path)` (a path relative to the skill root,
/// never one leaving it) or are replaced by their alt text when it returns `None`. Scripts, event
/// handlers, `javascript:` and `data:` URLs, styles, iframes, objects and forms are removed; links
/// to http(s) get `rel="noopener noreferrer"`, relative links stay as written.
/// What the preview says of a link to a path: `data-link` (its status), `data-path` (the path
/// relative to the skill root) and a `title` saying it, on the link's `<a>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkMark {
    pub status: &'static str,
    pub path: String,
    pub title: String,
}

/// How much HTML the preview hands to the sanitizer. Its HTML parser (html5ever) takes time in
/// proportion to the elements times how deep they nest: 40,000 nested list items took minutes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HtmlLimits {
    /// The most bytes of Markdown, and of HTML before sanitizing.
    pub max_bytes: usize,
    /// The deepest nesting of elements (lists, block quotes, emphasis, raw HTML), as
    /// [`html_depth`] counts it.
    pub max_depth: usize,
}

impl Default for HtmlLimits {
    /// 2 MiB (a SKILL.md of some 30,000 lines, sixty times what the specification recommends)
    /// and 100 levels (a list nested ten deep is about 25).
    fn default() -> Self {
        HtmlLimits { max_bytes: 2 * 1024 * 1024, max_depth: 100 }
    }
}

/// Why a body was not rendered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Refusal {
    /// The Markdown, or the HTML made from it, is `bytes` long, over `limit`.
    TooLarge { bytes: usize, limit: usize },
    /// Elements nest deeper than `limit`.
    TooDeep { limit: usize },
}

impl Refusal {
    /// One sentence saying so.
    pub fn message(&self) -> String {
        match self {
            Refusal::TooLarge { bytes, limit } => {
                format!("Preview too large: {bytes} bytes to render, over the preview's limit of {limit}.")
            }
            Refusal::TooDeep { limit } => {
                format!("Preview too deep: lists, block quotes or HTML elements nest more than {limit} levels deep.")
            }
        }
    }

    /// What the preview shows instead of the body: the message as a paragraph (no text of the
    /// file in it, so nothing to sanitize).
    pub fn html(&self) -> String {
        format!("<p class=\"preview-refused\">{}</p>\n", self.message())
    }
}

/// The body as sanitized HTML, or why not: above `limits` nothing reaches the sanitizer (and no
/// image is looked up). The Markdown's size is checked first, then the depth and size of its
/// HTML, then the size of the HTML with its links marked.
pub fn render_html(
    text: &str,
    body: Span,
    resolve: &dyn Fn(&str) -> Option<String>,
    mark_link: &dyn Fn(&str) -> Option<LinkMark>,
    limits: HtmlLimits,
) -> Result<String, Refusal> {
    let src = body.slice(text);
    let too_large =
        |bytes: usize| (bytes > limits.max_bytes).then_some(Refusal::TooLarge { bytes, limit: limits.max_bytes });
    if let Some(r) = too_large(src.len()) {
        return Err(r);
    }
    // pulldown-cmark parses deep nesting in linear time; its HTML is what must be measured.
    let events: Vec<Event<'_>> = Parser::new_ext(src, options()).collect();
    let mut probe = String::with_capacity(src.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut probe, events.iter().cloned());
    if html_depth(&probe, limits.max_depth) > limits.max_depth {
        return Err(Refusal::TooDeep { limit: limits.max_depth });
    }
    if let Some(r) = too_large(probe.len()) {
        return Err(r);
    }
    // The HTML grows by each marked link's attributes; stop marking (each mark looks at the
    // disk) once they alone would take it over the limit.
    let mut size = probe.len();
    drop(probe);

    // Heading titles, for their ids; image paths, for resolving; raw HTML that may hold images.
    let mut titles: Vec<String> = Vec::new();
    let mut in_heading = false;
    let mut raw_images = false;
    let mut resolved: HashMap<String, Option<String>> = HashMap::new();
    for event in &events {
        match event {
            Event::Start(Tag::Heading { .. }) => {
                in_heading = true;
                titles.push(String::new());
            }
            Event::End(TagEnd::Heading(_)) => in_heading = false,
            Event::Text(t) | Event::Code(t) if in_heading => titles.last_mut().unwrap().push_str(t),
            Event::SoftBreak | Event::HardBreak if in_heading => titles.last_mut().unwrap().push(' '),
            Event::Start(Tag::Image { dest_url, .. }) => {
                if let Some(path) = local_image(dest_url) {
                    resolved.entry(path).or_insert(None);
                }
            }
            Event::Html(h) | Event::InlineHtml(h) => {
                raw_images |= h.as_bytes().windows(4).any(|w| w.eq_ignore_ascii_case(b"<img"));
            }
            _ => {}
        }
    }
    for (path, url) in resolved.iter_mut() {
        *url = resolve(path);
    }
    let ids = heading_ids(titles.iter().map(|t| t.trim()));

    // Headings get ids; images that may not load become their alt text.
    let mut out: Vec<Event<'_>> = Vec::with_capacity(events.len());
    let mut heading = 0;
    let mut dropped_image = 0usize;
    let mut marked_links: Vec<bool> = Vec::new();
    for event in events {
        if dropped_image > 0 {
            match event {
                Event::Start(Tag::Image { .. }) => dropped_image += 1,
                Event::End(TagEnd::Image) => dropped_image -= 1,
                Event::Text(t) | Event::Code(t) => out.push(Event::Text(t)),
                Event::SoftBreak | Event::HardBreak => out.push(Event::Text(" ".into())),
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(Tag::Heading { level, classes, attrs, .. }) => {
                let id = ids.get(heading).cloned().unwrap_or_default();
                heading += 1;
                out.push(Event::Start(Tag::Heading { level, id: Some(id.into()), classes, attrs }));
            }
            Event::Start(Tag::Image { ref dest_url, .. })
                if !local_image(dest_url).is_some_and(|p| matches!(resolved.get(&p), Some(Some(_)))) =>
            {
                dropped_image = 1;
            }
            // A link to a path carries what the engine found there.
            Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
                let mark = if link_type == LinkType::Email { None } else { mark_link(&dest_url) };
                marked_links.push(mark.is_some());
                match mark {
                    Some(m) => {
                        let a = marked_link(&dest_url, &title, &m);
                        size += a.len();
                        if let Some(r) = too_large(size) {
                            return Err(r);
                        }
                        out.push(Event::InlineHtml(a.into()));
                    }
                    None => out.push(Event::Start(Tag::Link { link_type, dest_url, title, id })),
                }
            }
            Event::End(TagEnd::Link) if marked_links.pop() == Some(true) => out.push(Event::InlineHtml("</a>".into())),
            event => out.push(event),
        }
    }
    let mut html = String::with_capacity(src.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, out.into_iter());
    // Marked links carry a title each.
    if let Some(r) = too_large(html.len()) {
        return Err(r);
    }

    // Images written as raw HTML: find their sources with a first pass, then resolve them too.
    if raw_images {
        let found = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = Arc::clone(&found);
        sanitizer(move |element, attribute, value| {
            if element == "img" && attribute == "src" {
                sink.lock().unwrap().push(value.to_string());
            }
            Some(Cow::Borrowed(value))
        })
        .clean(&html);
        let found = std::mem::take(&mut *found.lock().unwrap());
        for path in found.iter().filter_map(|s| local_image(s)) {
            if let std::collections::hash_map::Entry::Vacant(e) = resolved.entry(path) {
                let url = resolve(e.key());
                e.insert(url);
            }
        }
    }
    Ok(sanitizer(move |element, attribute, value| {
        if element == "img" && attribute == "src" {
            let path = local_image(value)?;
            return resolved.get(&path).cloned().flatten().map(Cow::Owned);
        }
        Some(Cow::Borrowed(value))
    })
    .clean(&html)
    .to_string())
}

/// HTML's void elements: their start tag opens nothing.
const VOID_ELEMENTS: [&str; 19] = [
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image", "img", "input", "keygen",
    "link", "meta", "param", "source", "track", "wbr",
];

/// Elements whose start tag closes an open one of the same name (`<p>a<p>b`, `<li>`).
const CLOSED_BY_SIBLING: [&str; 8] = ["p", "li", "dt", "dd", "option", "tr", "td", "th"];

/// Elements whose content is text up to their end tag (scripting on, as the sanitizer parses).
const RAW_TEXT: [&str; 9] =
    ["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript"];

/// Elements that start foreign content: SVG and MathML.
const FOREIGN: [&str; 2] = ["svg", "math"];

/// Start tags that end foreign content: the parser pops the SVG or MathML elements and reads the
/// tag as HTML (the HTML standard's "breakout" list; `font` is counted as one whatever its
/// attributes).
const BREAKOUT: [&str; 45] = [
    "b",
    "big",
    "blockquote",
    "body",
    "br",
    "center",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "hr",
    "i",
    "img",
    "li",
    "listing",
    "menu",
    "meta",
    "nobr",
    "ol",
    "p",
    "pre",
    "ruby",
    "s",
    "small",
    "span",
    "strong",
    "strike",
    "sub",
    "sup",
    "table",
    "tt",
    "u",
    "ul",
    "var",
    "font",
];

/// Foreign elements whose content is read as HTML again (integration points).
const INTEGRATION: [&str; 8] = ["foreignobject", "desc", "title", "annotation-xml", "mi", "mo", "mn", "ms"];

/// How deep the elements of `html` nest, as an HTML parser will build them, counted from above:
/// start tags open, void elements do not, an end tag closes only the innermost element and only
/// when it has that name (parsers also close elements implicitly, which only makes the real
/// tree shallower), and comments, doctypes, quoted attribute values and the text of raw-text
/// elements (`<script>`, `<textarea>`…) are skipped as the tokenizer skips them. Inside SVG and
/// MathML (foreign content) a self-closing tag (`<path/>`) opens nothing, raw-text names are
/// plain elements, `<![CDATA[…]]>` is text, and an end tag closes every foreign element up to the
/// one it names; a breakout tag (`<div>`, `<p>`, …) pops the foreign elements, and an integration
/// point (`<foreignObject>`, `<mi>`, …) reads its content as HTML. After a raw-text element inside
/// a `<select>` (which ignores it), every further `<` counts three levels (a tag opens at most
/// three elements: `<td>` in a table opens `<tbody><tr><td>`). Counting stops once past `cap`.
pub fn html_depth(html: &str, cap: usize) -> usize {
    let b = html.as_bytes();
    // Open elements, each with whether it is foreign and not an integration point.
    let mut open: Vec<(&[u8], bool)> = Vec::new();
    let mut selects = 0usize;
    let mut deepest = 0;
    let mut i = 0;
    let named = |list: &[&str], name: &[u8]| list.iter().any(|x| x.as_bytes().eq_ignore_ascii_case(name));
    while let Some(at) = memchr::memchr(b'<', &b[i..]).map(|n| i + n) {
        let next = b.get(at + 1).copied();
        let foreign = open.last().is_some_and(|&(_, f)| f);
        i = match next {
            _ if b[at..].starts_with(b"<!--") => comment_end(b, at + 4),
            _ if foreign && b[at..].starts_with(b"<![CDATA[") => {
                memchr::memmem::find(&b[at + 9..], b"]]>").map_or(b.len(), |n| at + 9 + n + 3)
            }
            // Doctypes, `<![CDATA[` outside foreign content and processing instructions are
            // bogus comments to the next `>`.
            Some(b'!' | b'?') => after(b, b'>', at + 2),
            Some(b'/') => match b.get(at + 2) {
                Some(c) if c.is_ascii_alphabetic() => {
                    let Some((name, end, _)) = tag_of(b, at + 2) else { break };
                    if foreign {
                        // Closes the foreign elements up to the innermost of that name, if any.
                        let mut k = open.len();
                        while k > 0 && open[k - 1].1 {
                            k -= 1;
                            if open[k].0.eq_ignore_ascii_case(name) {
                                open.truncate(k);
                                break;
                            }
                        }
                    } else if open.last().is_some_and(|(top, _)| top.eq_ignore_ascii_case(name)) {
                        open.pop();
                        selects -= usize::from(name.eq_ignore_ascii_case(b"select"));
                    }
                    end
                }
                Some(b'>') => at + 3,
                Some(_) => after(b, b'>', at + 2),
                None => break,
            },
            Some(c) if c.is_ascii_alphabetic() => {
                let Some((name, end, self_closing)) = tag_of(b, at + 1) else { break };
                let mut foreign = foreign;
                if foreign && named(&BREAKOUT, name) {
                    while open.last().is_some_and(|&(_, f)| f) {
                        open.pop();
                    }
                    foreign = false;
                }
                let raw = !foreign && (named(&RAW_TEXT, name) || name.eq_ignore_ascii_case(b"plaintext"));
                if raw && selects > 0 {
                    let rest = memchr::memchr_iter(b'<', &b[end..]).count();
                    return deepest.max(open.len().saturating_add(1).saturating_add(rest.saturating_mul(3)));
                }
                if foreign || named(&FOREIGN, name) {
                    if !self_closing {
                        let point = named(&INTEGRATION, name) || (name.eq_ignore_ascii_case(b"mtext"));
                        open.push((name, !point));
                        deepest = deepest.max(open.len());
                    } else {
                        deepest = deepest.max(open.len() + 1);
                    }
                    if deepest > cap {
                        return deepest;
                    }
                    end
                } else if raw {
                    deepest = deepest.max(open.len() + 1);
                    match raw_text_end(b, end, name) {
                        Some(after_end) if !name.eq_ignore_ascii_case(b"plaintext") => after_end,
                        _ => break,
                    }
                } else {
                    if !named(&VOID_ELEMENTS, name) {
                        if named(&CLOSED_BY_SIBLING, name)
                            && open.last().is_some_and(|(t, _)| t.eq_ignore_ascii_case(name))
                        {
                            open.pop();
                        }
                        open.push((name, false));
                        selects += usize::from(name.eq_ignore_ascii_case(b"select"));
                        deepest = deepest.max(open.len());
                        if deepest > cap {
                            return deepest;
                        }
                    }
                    end
                }
            }
            // A `<` that starts no tag is text.
            _ => at + 1,
        };
    }
    deepest
}

/// Whether `b[at..]` is `name` (any case) followed by a space, `/` or `>`.
fn named_at(b: &[u8], at: usize, name: &[u8]) -> bool {
    b.get(at..at + name.len()).is_some_and(|n| n.eq_ignore_ascii_case(name))
        && b.get(at + name.len()).is_some_and(|&c| c == b'/' || c == b'>' || is_html_space(c))
}

/// Where the text of raw-text element `name`, starting at `from`, ends: after its end tag
/// (`</name` then a space, `/` or `>`), or `None` when it runs to the end. A script's text
/// follows the tokenizer's escapes: after `<!--`, a `<script>` hides the next `</script>`,
/// until `-->`.
fn raw_text_end(b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let script = name.eq_ignore_ascii_case(b"script");
    #[derive(PartialEq)]
    enum State {
        Text,
        Escaped,
        DoubleEscaped,
    }
    let mut state = State::Text;
    let mut i = from;
    while i < b.len() {
        let special: &[u8] = if script && state != State::Text { b"<-" } else { b"<<" };
        let Some(at) = memchr::memchr2(special[0], special[1], &b[i..]).map(|n| i + n) else { break };
        i = at + 1;
        if b[at] == b'-' {
            if b[at..].starts_with(b"-->") {
                state = State::Text;
                i = at + 3;
            }
            continue;
        }
        let end_tag = b.get(at + 1) == Some(&b'/') && named_at(b, at + 2, name);
        match state {
            State::Text | State::Escaped if end_tag => return tag(b, at + 2).map(|(_, end)| end),
            // `<!--`: its dashes may also close it (`<!-->`).
            State::Text if script && b[at..].starts_with(b"<!--") => {
                state = State::Escaped;
                i = at + 2;
            }
            State::Escaped if named_at(b, at + 1, b"script") => state = State::DoubleEscaped,
            State::DoubleEscaped if end_tag => {
                state = State::Escaped;
                i = at + 2 + name.len();
            }
            _ => {}
        }
    }
    None
}

fn is_html_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// Just past the first `c` at or after `from`, or the end.
fn after(b: &[u8], c: u8, from: usize) -> usize {
    memchr::memchr(c, &b[from.min(b.len())..]).map_or(b.len(), |n| from + n + 1)
}

/// Where a comment whose text starts at `from` (after `<!--`) ends: `<!-->` and `<!--->` are
/// whole comments, else the first `-->` or `--!>`, else the end.
fn comment_end(b: &[u8], from: usize) -> usize {
    let rest = &b[from.min(b.len())..];
    if rest.starts_with(b">") {
        return from + 1;
    }
    if rest.starts_with(b"->") {
        return from + 2;
    }
    let mut i = from;
    while let Some(d) = memchr::memchr(b'-', &b[i..]).map(|n| i + n) {
        if b[d..].starts_with(b"-->") {
            return d + 3;
        }
        if b[d..].starts_with(b"--!>") {
            return d + 4;
        }
        i = d + 1;
    }
    b.len()
}

/// The tag whose name starts at `from`: its name and where it ends (after its `>`), reading
/// attributes as the tokenizer does (a `>` inside a quoted value does not end the tag). `None`
/// when the text ends inside the tag, which the tokenizer then drops.
fn tag(b: &[u8], from: usize) -> Option<(&[u8], usize)> {
    tag_of(b, from).map(|(name, end, _)| (name, end))
}

/// [`tag`], and whether the tag is self-closing (`/>`, the `/` not part of an unquoted value).
fn tag_of(b: &[u8], from: usize) -> Option<(&[u8], usize, bool)> {
    let mut j = from;
    while j < b.len() && !is_html_space(b[j]) && b[j] != b'/' && b[j] != b'>' {
        j += 1;
    }
    let name = &b[from..j];
    loop {
        let skip = j;
        while j < b.len() && (is_html_space(b[j]) || b[j] == b'/') {
            j += 1;
        }
        match b.get(j)? {
            b'>' => return Some((name, j + 1, j > skip && b[j - 1] == b'/')),
            // An attribute name: its first character may be anything, even `=`.
            _ => j += 1,
        }
        while j < b.len() && !is_html_space(b[j]) && !matches!(b[j], b'/' | b'>' | b'=') {
            j += 1;
        }
        while j < b.len() && is_html_space(b[j]) {
            j += 1;
        }
        if b.get(j) != Some(&b'=') {
            continue;
        }
        j += 1;
        while j < b.len() && is_html_space(b[j]) {
            j += 1;
        }
        match b.get(j)? {
            // A quoted value runs to its closing quote; without one, the tag is dropped.
            &q @ (b'"' | b'\'') => j = memchr::memchr(q, &b[j + 1..]).map(|n| j + n + 2)?,
            b'>' => return Some((name, j + 1, false)),
            _ => {
                while j < b.len() && !is_html_space(b[j]) && b[j] != b'>' {
                    j += 1;
                }
            }
        }
    }
}

/// The opening `<a>` of a marked link, written as pulldown-cmark writes a link (the same escaping).
fn marked_link(dest: &str, title: &str, m: &LinkMark) -> String {
    let mut a = String::from("<a href=\"");
    let _ = pulldown_cmark_escape::escape_href(&mut a, dest);
    a.push_str("\" title=\"");
    let title = if title.is_empty() { m.title.clone() } else { format!("{title}\n{}", m.title) };
    let _ = pulldown_cmark_escape::escape_html(&mut a, &title);
    a.push_str("\" data-link=\"");
    a.push_str(m.status);
    a.push_str("\" data-path=\"");
    let _ = pulldown_cmark_escape::escape_html(&mut a, &m.path);
    a.push_str("\">");
    a
}

/// The preview's HTML policy: ammonia's defaults (no scripts, handlers, styles, iframes, objects
/// or forms; `rel="noopener noreferrer"` on links) narrowed to http(s) and mailto URLs, plus
/// heading ids, disabled task-list checkboxes and table alignment.
fn sanitizer<F>(filter: F) -> ammonia::Builder<'static>
where
    F: for<'v> Fn(&str, &str, &'v str) -> Option<Cow<'v, str>> + Send + Sync + 'static,
{
    let mut b = ammonia::Builder::default();
    b.url_schemes(HashSet::from(["http", "https", "mailto"]))
        .add_tags(["input"])
        .add_tag_attributes("input", ["checked"])
        .set_tag_attribute_value("input", "type", "checkbox")
        .set_tag_attribute_value("input", "disabled", "")
        .add_clean_content_tags(["iframe", "object", "embed", "noscript", "template", "textarea", "select"])
        .add_tag_attributes("a", ["data-link", "data-path"])
        .filter_style_properties(HashSet::from(["text-align"]))
        .attribute_filter(filter);
    for h in ["h1", "h2", "h3", "h4", "h5", "h6"] {
        b.add_tag_attributes(h, ["id"]);
    }
    for cell in ["th", "td"] {
        b.add_tag_attributes(cell, ["style"]);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The body of a file `head + body` and the file text.
    fn doc(body: &str) -> (String, Span) {
        let head = "---\nname: a\ndescription: d\n---\n";
        (format!("{head}{body}"), Span::new(head.len(), head.len() + body.len()))
    }

    fn refs(body: &str) -> (String, Vec<Reference>) {
        let (text, span) = doc(body);
        let r = references(&text, span);
        (text, r)
    }

    fn targets(body: &str) -> Vec<(String, Option<String>, RefKind)> {
        refs(body).1.into_iter().map(|r| (r.target, r.path, r.kind)).collect()
    }

    fn s(x: &str) -> Option<String> {
        Some(x.to_string())
    }

    #[test]
    fn links_images_and_autolinks() {
        let (text, r) = refs(
            "See [the guide](references/guide.md) and ![diagram](assets/d.png \"Title\").\n\
             Also <https://example.com/x> and [home](https://example.com).\n",
        );
        let got: Vec<_> = r.iter().map(|r| (r.span.slice(&text), r.path.as_deref(), r.kind)).collect();
        assert_eq!(
            got,
            [
                ("references/guide.md", Some("references/guide.md"), RefKind::Link),
                ("assets/d.png", Some("assets/d.png"), RefKind::Image),
                ("https://example.com/x", None, RefKind::Link),
                ("https://example.com", None, RefKind::Link),
            ]
        );
        assert!(r.iter().all(|r| r.span.slice(&text) == r.target));
    }

    #[test]
    fn spans_are_exact_after_non_ascii_text_and_in_crlf_bodies() {
        let (text, r) = refs(
            "# Überschrift 😀\r\n\r\nLies [den Leitfaden — bitte](references/leitfaden.md#teil-2) zuerst.\r\n\r\n\
             `python3 scripts/ä.py`\r\n",
        );
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].span.slice(&text), "references/leitfaden.md#teil-2");
        assert_eq!(r[0].path, s("references/leitfaden.md"));
        assert_eq!(r[0].anchor, s("teil-2"));
        assert_eq!(r[1].span.slice(&text), "scripts/ä.py");
        assert_eq!(r[1].kind, RefKind::Code);
    }

    #[test]
    fn tricky_link_texts_and_destinations() {
        let (text, r) = refs(
            "[a `](x)` b](references/a.md) [c \\] d](<references/my file.md>) [e](references/f(1).md 'ti)tle')\n\
             [![img](assets/i.png)](references/outer.md) [](scripts/empty.py)\n",
        );
        let got: Vec<_> = r.iter().map(|r| (r.span.slice(&text), r.path.clone().unwrap())).collect();
        assert_eq!(
            got,
            [
                ("references/a.md", "references/a.md".to_string()),
                ("references/my file.md", "references/my file.md".to_string()),
                ("references/f(1).md", "references/f(1).md".to_string()),
                ("assets/i.png", "assets/i.png".to_string()),
                ("references/outer.md", "references/outer.md".to_string()),
                ("scripts/empty.py", "scripts/empty.py".to_string()),
            ]
        );
    }

    #[test]
    fn reference_definitions_point_at_the_definition() {
        let (text, r) = refs(
            "Read [the guide][g], then [the guide][g] and [old].\n\n[g]: references/guide.md \"Guide\"\n\
             [old]: <references/old%20notes.md>\n[unused]: scripts/x.py\n",
        );
        let got: Vec<_> = r.iter().map(|r| (r.span.slice(&text), r.path.clone().unwrap())).collect();
        assert_eq!(
            got,
            [
                ("references/guide.md", "references/guide.md".to_string()),
                ("references/old%20notes.md", "references/old notes.md".to_string()),
                ("scripts/x.py", "scripts/x.py".to_string()),
            ]
        );
    }

    #[test]
    fn inline_code_tokens_with_known_prefixes() {
        let (text, r) = refs(
            "Run `python3 scripts/extract.py input.pdf` and `cat references/a.md, assets/b.txt.` or `(./run.sh)`.\n\
             Not `src/main.rs`, `scripts/*.py`, `references/<name>.md`; line `scripts/x.py:12`.\n",
        );
        let got: Vec<_> = r.iter().map(|r| r.span.slice(&text)).collect();
        assert_eq!(got, ["scripts/extract.py", "references/a.md", "assets/b.txt", "./run.sh", "scripts/x.py"]);
        assert_eq!(r[3].path, s("run.sh"));
    }

    #[test]
    fn code_blocks_are_not_references() {
        let body = "```bash\npython3 scripts/a.py\n[x](references/b.md)\n```\n\n    [y](references/c.md)\n\nText.\n";
        assert!(targets(body).is_empty());
    }

    #[test]
    fn urls_anchors_and_mail_have_no_path() {
        let r = refs("[a](#usage) [b](mailto:x@y.z) [c](HTTPS://x.y) [d](//cdn.x/y.png) <me@x.org> [e](ftp://x)\n").1;
        assert_eq!(r.len(), 6);
        assert!(r.iter().all(|r| r.path.is_none() && !r.escapes), "{r:#?}");
        assert_eq!(r[0].anchor, s("usage"));
        assert_eq!(r[4].target, "me@x.org");
    }

    #[test]
    fn normalisation_and_escapes() {
        let t = |x: &str| parse_target(x, true);
        assert_eq!(t("./a/../b.md").path, s("b.md"));
        assert_eq!(
            t("references//./a.md?x=1#top"),
            Target { path: s("references/a.md"), anchor: s("top"), escapes: false }
        );
        assert_eq!(t("scripts/").path, s("scripts"));
        assert_eq!(t("my%20file.md").path, s("my file.md"));
        assert_eq!(t("%C3%BC.md").path, s("ü.md"));
        assert_eq!(t("50%.md").path, s("50%.md"));
        assert_eq!(t("../shared/x.md"), Target { path: s("../shared/x.md"), anchor: None, escapes: true });
        assert_eq!(t("a/../../x.md"), Target { path: s("../x.md"), anchor: None, escapes: true });
        assert_eq!(t("/etc/passwd"), Target { path: s("/etc/passwd"), anchor: None, escapes: true });
        assert!(t("C:\\x\\y.md").escapes);
        assert!(!t("a/b/../c.md").escapes);
        assert_eq!(parse_target("my%20file.md", false).path, s("my%20file.md"));
        let (text, r) = refs("[up](../other-skill/SKILL.md) `./../x.sh`\n");
        assert!(r.iter().all(|r| r.escapes));
        assert_eq!(r[0].span.slice(&text), "../other-skill/SKILL.md");
    }

    #[test]
    fn outline_sections_nest_and_count_tokens() {
        let body = "Intro text.\n\n# Title\n\nHello.\n\n## Usage `cli`\n\nRun it.\n\n### Deep\n\nx\n\n\
                    ## Usage `cli`\n\nAgain\n\n# Next\nEnd\n";
        let (text, span) = doc(body);
        let o = outline(&text, span);
        let got: Vec<_> = o.iter().map(|s| (s.level, s.title.as_str(), s.id.as_str())).collect();
        assert_eq!(
            got,
            [
                (0, "", ""),
                (1, "Title", "title"),
                (2, "Usage cli", "usage-cli"),
                (3, "Deep", "deep"),
                (2, "Usage cli", "usage-cli-1"),
                (1, "Next", "next")
            ]
        );
        assert_eq!(o[0].span.slice(&text), "Intro text.\n\n");
        assert_eq!(o[1].heading.slice(&text), "# Title");
        assert!(o[1].span.slice(&text).starts_with("# Title") && o[1].span.slice(&text).ends_with("Again\n\n"));
        assert_eq!(o[2].span.slice(&text), "## Usage `cli`\n\nRun it.\n\n### Deep\n\nx\n\n");
        assert_eq!(o[5].span.end, span.end);
        assert_eq!(o[3].tokens, tokens::estimate(o[3].span.slice(&text)));
        assert!(o[1].tokens > o[2].tokens);
        // No leading section when the body starts with a heading; setext and CRLF headings.
        let (text, span) = doc("\nTitle\r\n=====\r\n\r\nx\r\n");
        let o = outline(&text, span);
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].heading.slice(&text), "Title\r\n=====");
        assert!(outline(&doc("   \n").0, doc("   \n").1).is_empty());
    }

    fn render(body: &str) -> String {
        let (text, span) = doc(body);
        let resolve = |p: &str| (p != "assets/missing.png").then(|| format!("asset://skill/{p}"));
        render_html(&text, span, &resolve, &|_| None, HtmlLimits::default()).unwrap()
    }

    #[test]
    fn html_has_tables_tasks_strikethrough_and_heading_ids() {
        let html = render(
            "# Hello, World!\n\n| a | b |\n|:-:|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n\n~~old~~\n\n\
             # Hello, World!\n",
        );
        assert!(html.contains("<h1 id=\"hello-world\">Hello, World!</h1>"), "{html}");
        assert!(html.contains("<h1 id=\"hello-world-1\">"), "{html}");
        assert!(html.contains("<table>") && html.contains("<th style=\"text-align:center\">a</th>"), "{html}");
        // Attribute order varies; both boxes are disabled checkboxes, the first checked.
        let inputs: Vec<&str> = html.split("<input").skip(1).map(|rest| &rest[..rest.find('>').unwrap()]).collect();
        assert_eq!(inputs.len(), 2, "{html}");
        assert!(inputs.iter().all(|i| i.contains("type=\"checkbox\"") && i.contains("disabled")), "{html}");
        assert!(inputs[0].contains("checked") && !inputs[1].contains("checked"), "{html}");
        assert!(html.contains("<del>old</del>"), "{html}");
    }

    #[test]
    fn hostile_html_is_removed() {
        let html = render(
            "<img src=x onerror=alert(1)>\n\n<a href=\"javascript:alert(1)\">click</a>\n\n<script>alert(2)</script>\n\n\
             <iframe src=\"https://evil.example\"></iframe>\n\n\
             <form action=\"https://evil\"><input type=text name=q></form>\n\n\
             <style>body{}</style> <div style=\"background:url(https://evil/x)\" onclick=\"x()\">d</div>\n\n\
             [js](javascript:alert(3)) [data](data:text/html;base64,PHNjcmlwdD4=) ![d](data:image/png;base64,AAAA)\n\n\
             <object data=\"x.swf\"></object> <embed src=\"x.swf\">\n",
        );
        for bad in [
            "onerror",
            "alert",
            "javascript",
            "<script",
            "iframe",
            "<form",
            "style=\"background",
            "onclick",
            "data:",
            "<object",
            "<embed",
            "evil",
        ] {
            assert!(!html.contains(bad), "{bad} survived:\n{html}");
        }
        assert!(html.contains("<img src=\"asset://skill/x\">"), "{html}");
        assert!(html.contains("click") && html.contains(">d</div>") && html.contains(">js</a>"), "{html}");
    }

    #[test]
    fn images_resolve_locally_and_never_load_remotely() {
        let html = render(
            "![chart *one*](assets/chart.png) ![remote](https://example.com/t.png) ![proto](//cdn.x/y.png)\n\
             ![gone](assets/missing.png) ![outside](../x.png) ![space](<assets/my chart.png>)\n\n\
             <img src=\"https://example.com/p.gif\" alt=\"pixel\"> <IMG SRC=\"./assets/raw.png\">\n",
        );
        assert!(html.contains("<img src=\"asset://skill/assets/chart.png\" alt=\"chart one\">"), "{html}");
        assert!(html.contains("<img src=\"asset://skill/assets/my chart.png\""), "{html}");
        assert!(html.contains("<img src=\"asset://skill/assets/raw.png\">"), "{html}");
        assert!(!html.contains("example.com") && !html.contains("cdn.x") && !html.contains("missing.png"), "{html}");
        for alt in ["remote", "proto", "gone", "outside"] {
            assert!(html.contains(alt), "alt text {alt} kept:\n{html}");
        }
        assert!(!html.contains("alt=\"remote\""), "{html}");
        // `resolve` only sees paths inside the folder.
        let (text, span) = doc("![a](../up.png) ![b](/etc/x.png) ![c](assets/ok.png) <img src=\"../../z.png\">\n");
        let seen = std::cell::RefCell::new(vec![]);
        render_html(
            &text,
            span,
            &|p: &str| {
                seen.borrow_mut().push(p.to_string());
                None
            },
            &|_| None,
            HtmlLimits::default(),
        )
        .unwrap();
        assert_eq!(*seen.borrow(), ["assets/ok.png"]);
    }

    #[test]
    fn links_keep_relative_targets_and_protect_remote_ones() {
        let html = render("[guide](references/guide.md#intro) [site](https://example.com) [mail](mailto:a@b.c)\n");
        assert!(html.contains("<a href=\"references/guide.md#intro\" rel=\"noopener noreferrer\">guide</a>"), "{html}");
        assert!(html.contains("<a href=\"https://example.com\" rel=\"noopener noreferrer\">site</a>"), "{html}");
        assert!(html.contains("href=\"mailto:a@b.c\""), "{html}");
    }

    #[test]
    fn html_depth_counts_what_a_parser_nests() {
        let d = |html: &str| html_depth(html, 1000);
        assert_eq!(d("<p>text</p><p>more</p>"), 1);
        assert_eq!(d("<ul>\n<li>a<ul>\n<li>b</li>\n</ul>\n</li>\n</ul>\n"), 4);
        // Void elements open nothing, in any case; a self-closing slash does not close a div.
        assert_eq!(d("<div><BR><img src=x><hr/><input></div>"), 1);
        assert_eq!(d("<div/><div/>"), 2);
        // A `>` inside a quoted value, comments and doctypes hide what looks like tags.
        assert_eq!(d("<div title=\"></div>\">x<span a='>'>y</span></div>"), 2);
        assert_eq!(d("<!DOCTYPE html><!-- <div><div> --><div><!--></div>--><?x <div>?></div>"), 1);
        assert_eq!(d("<div><!--->--><div>"), 2);
        // An end tag closes only the innermost element, and only of its name; `<p>` and `<li>`
        // close an open one of theirs.
        assert_eq!(d("<div><b></div><div>"), 3);
        assert_eq!(d("<div><b></b></div><div>"), 2);
        assert_eq!(d("<p>a<p>b<p>c<li>x<li>y"), 2);
        // `<` as text, and a tag cut off by the end.
        assert_eq!(d("a < b <3 </ c <div"), 0);
        // The text of raw-text elements is skipped to their end tag, a script's as the
        // tokenizer escapes it.
        assert_eq!(d("<div><script><div><div></scripts></SCRIPT ><p>"), 2);
        assert_eq!(d("<script><!--<script></script><div></script><p>"), 1);
        assert_eq!(d("<script><!--<script>--></script><p>"), 1);
        assert_eq!(d("<script><!--></script><p><p>"), 1);
        assert_eq!(d("<textarea></div><div>"), 1);
        // Foreign content: self-closing tags open nothing, CDATA is text, an end tag closes up
        // to its element, a breakout tag pops the foreign elements, and what follows the SVG
        // counts as HTML again.
        assert_eq!(d("<svg><![CDATA[></svg></div>]]>"), 1);
        assert_eq!(d("<svg><g><path d='x'/><path/><circle/></g></svg><div></div>"), 3);
        assert_eq!(d("<svg><g><g><g></svg><div>"), 4);
        assert_eq!(d("<svg><style><x><y></style>"), 4);
        assert_eq!(d("<svg><g><div><div/><div>"), 3);
        assert_eq!(d("<svg><foreignObject><div/><div/>"), 4);
        assert_eq!(d("<svg><a href=x/><b>"), 2);
        assert_eq!(d(&format!("<svg>{}</svg>{}", "<path/>".repeat(500), "<p>x</p>".repeat(500))), 2);
        // After a raw-text element a `<select>` ignores, every `<` counts three levels.
        assert_eq!(d("<select><iframe></select><div>"), 2 + 3 * 2);
        assert_eq!(d("<select></select><iframe></select><div>"), 1);
    }

    /// Pieces of HTML that make parsers close, reopen, skip and ignore elements.
    const PIECES: &[&str] = &[
        "<div>",
        "</div>",
        "<b>",
        "</b>",
        "<i id=1>",
        "</i>",
        "<p>",
        "</p>",
        "<li>",
        "</li>",
        "<ul>",
        "</ul>",
        "<table>",
        "</table>",
        "<tr>",
        "<td>",
        "</td>",
        "</tr>",
        "<caption>",
        "<col>",
        "<select>",
        "</select>",
        "<option>",
        "<script>",
        "</script>",
        "<textarea>",
        "</textarea>",
        "<iframe>",
        "</iframe>",
        "<noscript>",
        "</noscript>",
        "<template>",
        "</template>",
        "<!--",
        "-->",
        "--!>",
        "<div title=\">",
        "\">",
        "<a href='x'>",
        "</a>",
        "<br>",
        "</br>",
        "<span>",
        "</span>",
        "<h1>",
        "</h1>",
        "<h2>",
        "<button>",
        "<nobr>",
        "<em>",
        "</em>",
        "<dd>",
        "<dt>",
        "<form>",
        "</form>",
        "<!DOCTYPE html>",
        "<plaintext>",
        "<svg>",
        "</svg>",
        "<math>",
        "<mi>",
        "<g>",
        "</g>",
        "<path/>",
        "<foreignObject>",
        "</foreignObject>",
        "<![CDATA[",
        "]]>",
        "<title>",
        "<style>",
        "<font>",
        "x",
        " ",
        "<",
        "</",
        ">",
    ];

    /// The depth of well-formed HTML as html5ever writes it out: every element but a void one
    /// has its end tag, raw text runs to its end tag, comments are gone.
    fn written_depth(html: &str) -> usize {
        let b = html.as_bytes();
        let (mut depth, mut deepest, mut i) = (0usize, 0, 0);
        while let Some(at) = memchr::memchr(b'<', &b[i..]).map(|n| i + n) {
            // A script's text is written as it is, and may hold anything after `<!--<script>`:
            // what follows it is then measured as well as can be.
            let Some((name, end)) = tag(b, at + 1 + usize::from(b[at + 1] == b'/')) else { break };
            if b[at + 1] == b'/' {
                depth = depth.saturating_sub(1);
                i = end;
            } else if RAW_TEXT.iter().chain(&["plaintext"]).any(|r| r.as_bytes() == name) {
                deepest = deepest.max(depth + 1);
                i = raw_text_end(b, end, name).unwrap_or(b.len());
            } else {
                depth += usize::from(!VOID_ELEMENTS.iter().any(|v| v.as_bytes() == name));
                deepest = deepest.max(depth);
                i = end;
            }
        }
        deepest
    }

    proptest::proptest! {
        /// The depth counted is an upper bound, up to a factor of three, of the depth html5ever
        /// builds: the sanitizer, told to keep every element, writes out the tree it parsed,
        /// well-formed, whose depth is then exact.
        #[test]
        fn html_depth_bounds_the_parsers_depth(pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..60)) {
            let html: String = pieces.concat();
            let tags = [
                "div", "b", "i", "p", "li", "ul", "table", "tbody", "tr", "td", "caption", "colgroup", "col", "select",
                "option", "script", "textarea", "iframe", "noscript", "template", "a", "br", "span", "h1", "h2", "button",
                "nobr", "em", "dd", "dt", "form", "plaintext", "svg", "math", "mi", "g", "path", "foreignobject", "title",
                "style", "font",
            ];
            let parsed = ammonia::Builder::empty()
                .clean_content_tags(HashSet::new())
                .tags(HashSet::from(tags))
                .strip_comments(true)
                .clean(&html)
                .to_string();
            let real = written_depth(&parsed);
            let counted = html_depth(&html, usize::MAX);
            proptest::prop_assert!(real <= 3 * counted + 1, "{html}\nparsed: {parsed}\nreal {real}, counted {counted}");
        }
    }

    #[test]
    fn html_depth_stops_past_the_cap() {
        let deep = "<div>".repeat(100_000);
        assert_eq!(html_depth(&deep, 50), 51);
    }

    /// `body` rendered within `limits` (no images, no links marked).
    fn render_within(body: &str, limits: HtmlLimits) -> Result<String, Refusal> {
        let (text, span) = doc(body);
        render_html(&text, span, &|_| None, &|_| None, limits)
    }

    #[test]
    fn deep_lists_quotes_and_html_are_refused_before_the_sanitizer() {
        let limits = HtmlLimits { max_bytes: 1 << 30, max_depth: 100 };
        let deep = [
            format!("{}x\n", "- ".repeat(100_000)),
            format!("{} x\n", ">".repeat(100_000)),
            format!("{}x\n", "> - ".repeat(100_000)),
            format!("{}x\n", "<div>".repeat(100_000)),
            format!("{}x\n", "<div></b>".repeat(100_000)),
            // End tags that a parser does not see as tags close nothing here either.
            format!("{}x\n", "<div title=\"></div>\">".repeat(100_000)),
            format!("{}x\n", "<div><!--</div>-->".repeat(100_000)),
            format!("{}x\n", "<div><script></div></script>".repeat(100_000)),
            format!("{}x\n", "<select><iframe></select><div>".repeat(100_000)),
        ];
        for body in &deep {
            assert_eq!(render_within(body, limits), Err(Refusal::TooDeep { limit: 100 }), "{}", &body[..20]);
        }
        // Nesting within the cap renders.
        let ok = format!("{}x\n", "- ".repeat(20));
        assert!(render_within(&ok, limits).unwrap().matches("<li>").count() == 20);
    }

    #[test]
    fn large_bodies_and_html_are_refused() {
        let limits = HtmlLimits { max_bytes: 1000, max_depth: 100 };
        let body = "word ".repeat(300);
        assert_eq!(render_within(&body, limits), Err(Refusal::TooLarge { bytes: 1500, limit: 1000 }));
        // Under the cap as Markdown, over it as HTML: `&` is written `&amp;`.
        let body = "&".repeat(900);
        assert_eq!(render_within(&body, limits), Err(Refusal::TooLarge { bytes: 4508, limit: 1000 }));
        assert!(render_within("&&&\n", limits).is_ok());
    }

    #[test]
    fn marking_links_stops_once_the_marks_would_pass_the_size_limit() {
        let (text, span) = doc(&"[a](r) ".repeat(1000));
        let calls = std::cell::Cell::new(0);
        let mark = |dest: &str| {
            calls.set(calls.get() + 1);
            Some(LinkMark { status: "missing", path: dest.to_string(), title: "t".repeat(100) })
        };
        let limits = HtmlLimits { max_bytes: 20_000, max_depth: 100 };
        let r = render_html(&text, span, &|_| None, &mark, limits);
        assert!(matches!(r, Err(Refusal::TooLarge { limit: 20_000, .. })), "{r:?}");
        assert!(calls.get() < 20, "{} links marked", calls.get());
    }

    #[test]
    fn refusals_say_why_in_a_paragraph() {
        let deep = Refusal::TooDeep { limit: 100 };
        assert_eq!(
            deep.html(),
            "<p class=\"preview-refused\">Preview too deep: lists, block quotes or HTML elements nest more than 100 levels deep.</p>\n"
        );
        let large = Refusal::TooLarge { bytes: 3_000_000, limit: 2_097_152 };
        assert!(large.message().starts_with("Preview too large: 3000000 bytes"), "{}", large.message());
        assert_eq!(serde_json::to_value(deep).unwrap(), serde_json::json!({"kind": "too-deep", "limit": 100}));
    }

    #[test]
    fn many_references() {
        let mut body = String::new();
        for i in 0..40 {
            body.push_str(&format!(
                "## Step {i}\n\nRead [the guide](references/guide.md) and run `python3 scripts/run.py --n {i}`.\n\n\
                 - item with **bold** text\n\n"
            ));
        }
        let (text, span) = doc(&body);
        assert_eq!(references(&text, span).len(), 80);
    }
}
