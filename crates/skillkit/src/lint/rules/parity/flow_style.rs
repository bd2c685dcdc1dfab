use crate::lint::rules::{strictyaml_scan_error, Context};
use crate::syntax::frontmatter::Reading;
use crate::syntax::text::Span;

declare_rule! {
    /// A list or mapping is written in flow style (`[a, b]`, `{k: v}`).
    ///
    /// ## What it does
    /// Reports each flow collection in the frontmatter, including `[]` and `{}`.
    ///
    /// ## Why is this bad?
    /// skills-ref's strictyaml refuses all flow style ("Found ugly disallowed JSONesque flow
    /// mapping"), so `agentskills validate` fails; other loaders read it. It is also how
    /// `argument-hint: [issue]` accidentally becomes a list.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// metadata: {owner: docs}
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
    ///   owner: docs
    /// ---
    /// Body.
    /// ```
    ///
    /// ## skills-ref
    /// `Invalid YAML in frontmatter: While scanning ... Found ugly disallowed JSONesque flow
    /// mapping (surround with ' and ' to make text appear literally)`
    pub FlowStyle {
        code: "SK302",
        name: "flow-style",
        group: Parity,
        severity: Warning,
        fix: None,
        sources: ["skills-ref 0.1.1 (strictyaml): Found ugly disallowed JSONesque flow mapping", "vercel-labs/skills #1525 (argument-hint: [x])"],
    }
}

const WHAT: &str = "Found ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)";

pub(crate) fn check(cx: &mut Context<'_>) {
    let mut starts: Vec<Span> = vec![];
    match cx.skill.frontmatter.reading {
        Reading::Yaml | Reading::NotMapping => {
            if let Some(root) = &cx.skill.yaml.root {
                root.walk(&mut |n| {
                    if n.flow {
                        starts.push(n.span);
                    }
                });
            }
        }
        // Broken YAML: strictyaml still stops at the first `[` or `{` it scans.
        Reading::Lenient => {
            for f in &cx.skill.frontmatter.fields {
                if f.value.span.slice(cx.text()).starts_with(['[', '{']) {
                    starts.push(f.value.span);
                }
            }
        }
        Reading::None | Reading::Empty => {}
    }
    for (i, span) in starts.into_iter().enumerate() {
        if cx.skills_ref() {
            if i > 0 {
                break;
            }
            let msg = strictyaml_scan_error(cx.skill, span.start, WHAT, span.start + 1);
            cx.report(Span::new(span.start, span.start + 1), msg);
        } else {
            let bracket = &cx.text()[span.start..span.start + 1];
            let kind = if bracket == "[" { "list" } else { "mapping" };
            cx.report(Span::new(span.start, span.start + 1), format!("flow-style {kind}: skills-ref rejects flow style; use block style"))
                .label(span, "written in flow style");
        }
    }
}

/// Whether strictyaml would stop at a flow collection before the parse error (used by
/// `yaml-syntax` to stay quiet under skills-ref's profile).
pub(crate) fn lenient_flow_before(cx: &Context<'_>, offset: usize) -> bool {
    cx.skill.frontmatter.reading == Reading::Lenient
        && cx.skill.frontmatter.fields.iter().any(|f| f.value.span.start <= offset && f.value.span.slice(cx.text()).starts_with(['[', '{']))
}
