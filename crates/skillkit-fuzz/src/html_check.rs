//! Active content in HTML, found the way a browser would find it: the HTML is parsed with
//! html5ever's tree builder (through `scraper`) as a fragment of a `<body>`, where the app puts the
//! preview, and every element and attribute of the tree is looked at. Substring checks would
//! miss `<ScRiPt>`, entities in URLs (`&#106;avascript:`) or control characters browsers skip.

use scraper::node::Node;
use scraper::Html;

/// Elements that run code, load or restyle the page, or submit data.
const ACTIVE_ELEMENTS: &[&str] =
    &["script", "iframe", "frame", "frameset", "object", "embed", "applet", "style", "form", "meta", "link", "base"];

/// Attributes whose value is a URL a browser follows or loads.
const URL_ATTRIBUTES: &[&str] =
    &["href", "src", "action", "formaction", "poster", "background", "data", "lowsrc", "dynsrc", "ping", "xlink:href"];

/// URL schemes that run code or render a document from the URL itself.
const ACTIVE_SCHEMES: &[&str] =
    &["javascript:", "vbscript:", "livescript:", "data:text/html", "data:application/xhtml"];

/// One piece of active content found in the HTML.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Active {
    /// A stable description: `element <script>`, `attribute onerror`, `javascript: URL in href`...
    pub what: String,
    /// The element it was found on.
    pub element: String,
}

/// A URL as a browser reads its scheme: leading and trailing C0 controls and spaces removed, tabs
/// and line breaks removed everywhere, lowercased.
pub fn normalise_url(value: &str) -> String {
    value
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Everything active in `html`, parsed as a fragment of a page's body.
pub fn active_content(html: &str) -> Vec<Active> {
    let doc = Html::parse_fragment(html);
    let mut found = vec![];
    for node in doc.tree.nodes() {
        let Node::Element(el) = node.value() else { continue };
        let element = el.name().to_ascii_lowercase();
        if ACTIVE_ELEMENTS.contains(&element.as_str()) {
            found.push(Active { what: format!("element <{element}>"), element: element.clone() });
        }
        for (name, value) in el.attrs() {
            let name = name.to_ascii_lowercase();
            if name.starts_with("on") {
                found.push(Active { what: format!("event handler attribute {name}"), element: element.clone() });
            }
            if name == "srcdoc" || name == "srcset" {
                found.push(Active { what: format!("attribute {name}"), element: element.clone() });
            }
            if URL_ATTRIBUTES.contains(&name.as_str()) {
                let url = normalise_url(value);
                if let Some(scheme) = ACTIVE_SCHEMES.iter().find(|s| url.starts_with(*s)) {
                    found.push(Active { what: format!("{scheme} URL in {name}"), element: element.clone() });
                }
            }
            if name == "style" {
                let style = value.to_ascii_lowercase();
                if style.contains("url(") || style.contains("expression") || style.contains("@import") {
                    found.push(Active { what: "style attribute that loads or runs".into(), element: element.clone() });
                }
            }
        }
    }
    found
}

/// Every URL the HTML would load by itself (not on a click): `src` attributes on any element.
pub fn loaded_urls(html: &str) -> Vec<(String, String)> {
    let doc = Html::parse_fragment(html);
    let mut out = vec![];
    for node in doc.tree.nodes() {
        let Node::Element(el) = node.value() else { continue };
        for (name, value) in el.attrs() {
            if matches!(name.to_ascii_lowercase().as_str(), "src" | "poster" | "background" | "data" | "lowsrc") {
                out.push((el.name().to_ascii_lowercase(), value.to_string()));
            }
        }
    }
    out
}

/// The elements in `html` with their attribute names (and `data-link`'s value), for the
/// fuzzer's features.
pub fn element_names(html: &str) -> Vec<(String, Vec<String>)> {
    let doc = Html::parse_fragment(html);
    doc.tree
        .nodes()
        .filter_map(|n| n.value().as_element())
        .map(|e| {
            let attributes =
                e.attrs().map(|(n, v)| if n == "data-link" { format!("{n}={v}") } else { n.to_string() }).collect();
            (e.name().to_ascii_lowercase(), attributes)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whats(html: &str) -> Vec<String> {
        active_content(html).into_iter().map(|a| a.what).collect()
    }

    #[test]
    fn scripts_handlers_and_script_urls_are_found_whatever_their_spelling() {
        assert_eq!(whats("<ScRiPt>x</script>"), ["element <script>"]);
        assert_eq!(whats("<img src=x OnError=alert(1)>"), ["event handler attribute onerror"]);
        assert_eq!(whats("<a href=\"&#106;ava\tscript:x\">a</a>"), ["javascript: URL in href"]);
        assert_eq!(whats("<a href=\" \x01JAVASCRIPT:x\">a</a>"), ["javascript: URL in href"]);
        assert_eq!(
            whats("<iframe src=\"data:text/html,x\"></iframe>"),
            ["element <iframe>", "data:text/html URL in src"]
        );
        assert_eq!(whats("<svg><script>x</script></svg>"), ["element <script>"]);
        assert_eq!(whats("<td style=\"background: url(http://x)\">"), Vec::<String>::new()); // a stray <td> is dropped
        assert_eq!(whats("<table><tr><td style=\"background: url(http://x)\">x</td></tr></table>").len(), 1);
    }

    #[test]
    fn what_the_preview_writes_is_not_active() {
        let html = "<h1 id=\"t\">T</h1>\n<p><a href=\"https://example.com\" rel=\"noopener noreferrer\">x</a> \
                    <img src=\"data:image/png;base64,AAAA\" alt=\"d\"><input type=\"checkbox\" disabled=\"\"></p>\n\
                    <table><tr><td style=\"text-align: left\">c</td></tr></table>";
        assert!(active_content(html).is_empty(), "{:?}", active_content(html));
        assert_eq!(loaded_urls(html), [("img".to_string(), "data:image/png;base64,AAAA".to_string())]);
    }
}
