use crate::lint::rules::Context;
use crate::lint::diagnostic::{Applicability, Edit};
use crate::syntax::text::Span;

declare_rule! {
    /// The frontmatter has no closing `---` line.
    ///
    /// ## What it does
    /// Reports an opening `---` without a matching closing line. When a line starts with `---`
    /// followed by text (`---# Title`), it points there: the body was glued to the delimiter.
    ///
    /// ## Why is this bad?
    /// Without the closing line the whole file is frontmatter: there is no body, and the YAML
    /// usually fails to parse. Every agent drops or misreads the skill.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// # My skill
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// # My skill
    /// ```
    ///
    /// ## Fix
    /// When a glued `---text` line is found, split it into `---` and the text (safe).
    ///
    /// ## skills-ref
    /// `SKILL.md frontmatter not properly closed with ---`
    pub FrontmatterUnclosed {
        code: "SK103",
        name: "frontmatter-unclosed",
        group: Frontmatter,
        severity: Error,
        fix: Safe,
        sources: ["skills-ref: SKILL.md frontmatter not properly closed with ---"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    let split = &cx.skill.split;
    let (Some(open), None) = (split.open, split.close) else { return };
    let glued = split.glued_close;
    let msg = if cx.skills_ref() {
        "SKILL.md frontmatter not properly closed with ---".to_string()
    } else {
        "frontmatter is not closed: no `---` line after it".to_string()
    };
    let newline = if split.crlf { "\r\n" } else { "\n" };
    let report = cx.report(open, msg);
    match glued {
        Some(line) => {
            report
                .label(line, "this line starts with `---` but has text after it")
                .fix(
                    "Put the text after `---` on its own line",
                    Applicability::Safe,
                    vec![Edit { span: Span::empty(line.start + 3), replacement: newline.to_string() }],
                );
        }
        None => {
            report.help("add a `---` line after the last frontmatter field");
        }
    }
}
