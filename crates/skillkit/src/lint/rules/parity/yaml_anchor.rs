use crate::lint::rules::{line_bounds, strictyaml_scan_error, Context};
use crate::skill::Skill;
use crate::syntax::frontmatter::Reading;
use crate::syntax::text::Span;
use crate::syntax::yaml::NodeKind;

declare_rule! {
    /// The frontmatter uses YAML anchors (`&name`) or aliases (`*name`).
    ///
    /// ## What it does
    /// Reports each anchor and alias. `skillkit` never expands aliases, so "billion laughs"
    /// alias bombs cost nothing.
    ///
    /// ## Why is this bad?
    /// skills-ref rejects them ("Found confusing disallowed anchor token"), and a frontmatter of a
    /// few short fields gains nothing from them: repeat the value instead.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: &d Formats tables. Use when the user asks for a Markdown table.
    /// metadata:
    ///   summary: *d
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## skills-ref
    /// `Invalid YAML in frontmatter: While scanning ... Found confusing disallowed anchor token
    /// (surround with ' and ' to make text appear literally)`
    pub YamlAnchor {
        code: "SK304",
        name: "yaml-anchor",
        group: Parity,
        severity: Warning,
        fix: None,
        sources: ["skills-ref 0.1.1 (strictyaml): Found confusing disallowed anchor token"],
    }
}

/// The `&name` or `*name` token at or after `from` on the same line.
fn token(skill: &Skill, from: usize, sigil: char) -> Option<Span> {
    let text = skill.text.as_str();
    let (line_start, line_end) = line_bounds(skill, from);
    let at = text[from..line_end].find(sigil).map(|i| from + i).or_else(|| text[line_start..from].rfind(sigil).map(|i| line_start + i))?;
    let len = text[at..].find(|c: char| c.is_whitespace() || c == ',' || c == ']' || c == '}').unwrap_or(text.len() - at);
    Some(Span::new(at, at + len))
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if cx.skill.frontmatter.reading != Reading::Yaml && cx.skill.frontmatter.reading != Reading::NotMapping {
        return;
    }
    let Some(root) = &cx.skill.yaml.root else { return };
    let mut found: Vec<(Span, bool)> = vec![];
    root.walk(&mut |n| {
        if n.anchor {
            if let Some(t) = token(cx.skill, n.span.start, '&') {
                found.push((t, true));
            }
        }
        if n.kind == NodeKind::Alias {
            found.push((n.span, false));
        }
    });
    found.sort_by_key(|(s, _)| s.start);
    for (span, is_anchor) in found {
        if cx.skills_ref() {
            if is_anchor {
                let what = "Found confusing disallowed anchor token (surround with ' and ' to make text appear literally)";
                let msg = strictyaml_scan_error(cx.skill, span.start, what, span.end);
                cx.report(span, msg);
                break;
            }
            continue;
        }
        let msg = if is_anchor { "YAML anchor: skills-ref rejects anchors and aliases" } else { "YAML alias: skills-ref rejects anchors and aliases" };
        cx.report(span, msg).help("write the value out instead");
    }
}
