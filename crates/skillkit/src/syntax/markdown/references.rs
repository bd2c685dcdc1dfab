//! The file references in the body: link destinations, image sources, autolinks, reference
//! definitions and paths in inline code, each with the exact span of its destination. The fast
//! scanner ([`super::references_fast`]) reads most bodies; a full pulldown-cmark parse reads the
//! rest.

use super::references_fast;
use super::target::{code_paths, parse_target, RefKind, Reference, Target};
use crate::syntax::text::Span;
use pulldown_cmark::{CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};
use std::collections::HashSet;
use std::ops::Range;

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
    references_fast::references(text, body).unwrap_or_else(|| references_pulldown(text, body))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::markdown::testing::doc;

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
