//! The body as sanitized HTML for the preview ([`render_html`]): heading ids, images from inside
//! the skill only, links to paths marked with what the engine found there, and refused (with a
//! [`Refusal`]) above the [`HtmlLimits`], before any of it reaches the sanitizer.

use super::depth::html_depth;
use super::options;
use super::outline::heading_ids;
use super::sanitize::sanitizer;
use super::target::{parse_target, scheme_len};
use crate::syntax::text::Span;
use pulldown_cmark::{Event, LinkType, Parser, Tag, TagEnd};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

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
    /// [`html_depth`](super::depth::html_depth) counts it.
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

/// The body as sanitized HTML for the preview. Tables, strikethrough and task lists are on;
/// headings carry the ids of [`outline`]. Nothing loads from outside: remote images are replaced
/// by their alt text, local images load from `resolve(path)` (a path relative to the skill root,
/// never one leaving it) or are replaced by their alt text when it returns `None`. Scripts, event
/// handlers, `javascript:` and `data:` URLs, styles, iframes, objects and forms are removed; links
/// to http(s) get `rel="noopener noreferrer"`, relative links stay as written.
///
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::markdown::testing::doc;

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
}
