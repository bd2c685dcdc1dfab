use crate::lint::rules::{fields_checkable, Context};
use crate::lint::diagnostic::{Applicability, Edit};
use crate::syntax::text::Span;
use crate::syntax::yaml::NodeKind;

declare_rule! {
    /// `allowed-tools` is a YAML list instead of a space-separated string.
    ///
    /// ## What it does
    /// Reports `allowed-tools` written as a list (block or flow).
    ///
    /// ## Why is this bad?
    /// The specification says "A space-separated string" (since agentskills `6f92fcd`). Loaders
    /// differ: Claude Code and DeepAgents read lists, skills-ref accepts a block list but rejects
    /// a flow list, and DeepAgents versions between February and July 2026 dropped list support.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// allowed-tools:
    ///   - Read
    ///   - Bash(python3:*)
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// allowed-tools: Read Bash(python3:*)
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Fix
    /// Join the items with spaces (safe); unsafe when an item itself contains a space
    /// (`Bash(git add:*)`), because loaders split the string on whitespace.
    pub AllowedToolsList {
        code: "SK232",
        name: "allowed-tools-list",
        group: Spec,
        severity: Warning,
        fix: Safe,
        sources: ["spec: allowed-tools \"A space-separated string of tools\"", "agentskills #65, #144, PR #283", "DeepAgents d62534c86: list support restored"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) {
        return;
    }
    let Some(field) = cx.skill.frontmatter.get("allowed-tools") else { return };
    let NodeKind::Sequence(items) = &field.value.kind else { return };
    let tools: Option<Vec<&str>> = items.iter().map(|i| i.as_str()).collect();
    let report = cx.report(field.value.span, "`allowed-tools` should be a space-separated string, not a list");
    let Some(tools) = tools else { return };
    let Some(last) = items.last() else { return };
    let end = if field.value.flow { field.value.span.end } else { last.span.end };
    let spaced = tools.iter().any(|t| t.contains(char::is_whitespace));
    report.fix(
        "Join the tools into one space-separated string",
        if spaced { Applicability::Unsafe } else { Applicability::Safe },
        vec![Edit { span: Span::new(field.key_span.end + 1, end), replacement: format!(" {}", tools.join(" ")) }],
    );
}
