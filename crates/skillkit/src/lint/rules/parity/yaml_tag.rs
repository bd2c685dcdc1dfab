use crate::lint::rules::{line_bounds, strictyaml_scan_error, Context};
use crate::syntax::frontmatter::Reading;
use crate::syntax::text::Span;

declare_rule! {
    /// A value carries an explicit YAML tag such as `!!str`.
    ///
    /// ## What it does
    /// Reports explicit tags (`!!str`, `!!int`, `!custom`).
    ///
    /// ## Why is this bad?
    /// skills-ref rejects them ("Found disallowed tag tokens (do not specify types in markup)"),
    /// and custom tags make other parsers fail. Quote the value to make it a string instead.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// metadata:
    ///   version: !!str 1.0
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// metadata:
    ///   version: "1.0"
    /// ---
    /// Body.
    /// ```
    ///
    /// ## skills-ref
    /// `Invalid YAML in frontmatter: While scanning ... Found disallowed tag tokens (do not
    /// specify types in markup)`
    pub YamlTag {
        code: "SK305",
        name: "yaml-tag",
        group: Parity,
        severity: Warning,
        fix: None,
        sources: ["skills-ref 0.1.1 (strictyaml): Found disallowed tag tokens (do not specify types in markup)"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if cx.skill.frontmatter.reading != Reading::Yaml && cx.skill.frontmatter.reading != Reading::NotMapping {
        return;
    }
    let Some(root) = &cx.skill.yaml.root else { return };
    let text = &cx.skill.text;
    let mut found: Vec<Span> = vec![];
    root.walk(&mut |n| {
        if n.tag.is_some() {
            let (line_start, line_end) = line_bounds(cx.skill, n.span.start);
            let at = text[n.span.start..line_end].find('!').map(|i| n.span.start + i).or_else(|| text[line_start..n.span.start].rfind('!').map(|i| line_start + i));
            if let Some(mut at) = at {
                while at > line_start && text.as_bytes()[at - 1] == b'!' {
                    at -= 1;
                }
                let len = text[at..].find(char::is_whitespace).unwrap_or(text.len() - at);
                found.push(Span::new(at, at + len));
            }
        }
    });
    found.sort_by_key(|s| s.start);
    for span in found {
        if cx.skills_ref() {
            let what = "Found disallowed tag tokens (do not specify types in markup)";
            let msg = strictyaml_scan_error(cx.skill, span.end, what, span.start);
            cx.report(span, msg);
            break;
        }
        cx.report(span, "explicit YAML tag: skills-ref rejects tags").help("quote the value to make it a string");
    }
}
