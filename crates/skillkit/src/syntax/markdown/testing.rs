//! What the tests of the Markdown files share.

use crate::syntax::text::Span;

/// The body of a file `head + body` and the file text.
pub(crate) fn doc(body: &str) -> (String, Span) {
    let head = "---\nname: a\ndescription: d\n---\n";
    (format!("{head}{body}"), Span::new(head.len(), head.len() + body.len()))
}
