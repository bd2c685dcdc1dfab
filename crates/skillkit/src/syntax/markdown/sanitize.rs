//! The preview's HTML policy, as an `ammonia` sanitizer.

use std::borrow::Cow;
use std::collections::HashSet;

/// The preview's HTML policy: ammonia's defaults (no scripts, handlers, styles, iframes, objects
/// or forms; `rel="noopener noreferrer"` on links) narrowed to http(s) and mailto URLs, plus
/// heading ids, disabled task-list checkboxes and table alignment.
pub(super) fn sanitizer<F>(filter: F) -> ammonia::Builder<'static>
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
