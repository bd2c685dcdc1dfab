//! The body's heading outline: one [`Section`] per heading (and the text before the first), with
//! the ids GitHub gives headings, which the preview's HTML carries too.

use super::options;
use crate::syntax::text::Span;
use crate::syntax::tokens;
use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use std::collections::{HashMap, HashSet};

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
pub(super) fn heading_ids<'a>(titles: impl Iterator<Item = &'a str>) -> Vec<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::markdown::testing::doc;

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
}
