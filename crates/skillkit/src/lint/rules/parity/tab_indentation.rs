use crate::lint::rules::{ruamel_mark, yaml_error_kind, Context, YamlErrorKind};
use crate::lint::diagnostic::{Applicability, Edit};

declare_rule! {
    /// A tab is used to indent the frontmatter.
    ///
    /// ## What it does
    /// Reports a tab in the indentation that makes the YAML fail to parse.
    ///
    /// ## Why is this bad?
    /// YAML indentation must be spaces. Every strict loader rejects the frontmatter; editors
    /// often show tabs and spaces alike, so this is hard to see.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// metadata:
    /// 	owner: docs
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
    /// ## Fix
    /// Replace each indenting tab with two spaces (unsafe: check the resulting nesting).
    pub TabIndentation {
        code: "SK306",
        name: "tab-indentation",
        group: Parity,
        severity: Error,
        fix: Unsafe,
        sources: ["YAML 1.2 §6.1: tabs are not allowed in indentation", "skills-ref 0.1.1: found character '\\t' that cannot start any token"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    let Some(YamlErrorKind::Tab { tabs }) = yaml_error_kind(cx.skill) else { return };
    let msg = if cx.skills_ref() {
        format!(
            "Invalid YAML in frontmatter: while scanning for the next token\nfound character '\\t' that cannot start any token\n{}",
            ruamel_mark(cx.skill, tabs.start)
        )
    } else {
        "tab used for indentation: YAML indentation must be spaces".to_string()
    };
    let replacement = tabs.slice(cx.text()).replace('\t', "  ");
    cx.report(tabs, msg).fix("Indent with spaces", Applicability::Unsafe, vec![Edit { span: tabs, replacement }]);
}
