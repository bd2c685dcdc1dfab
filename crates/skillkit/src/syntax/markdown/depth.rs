//! How deep an HTML parser would nest a piece of HTML ([`html_depth`]), counted without parsing
//! it, so that the preview can refuse a body before the sanitizer's parser takes its time over it.
//! A tokenizer's view of tags, comments, raw text and foreign content, with the tree builder's
//! rules that matter for depth.

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

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
}
