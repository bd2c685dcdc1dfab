use crate::lint::rules::{fields_checkable, Context};
use crate::syntax::text::Span;

declare_rule! {
    /// The description contains `<` or `>`.
    ///
    /// ## What it does
    /// Reports angle brackets in `description` (arrows like `->`, comparisons like `>200MB`, or
    /// XML-like tags).
    ///
    /// ## Why is this bad?
    /// Agents put descriptions inside XML-like listings and treat the brackets differently:
    /// Claude Code 2.1.330 shows `&lt;` and `&gt;`, skills-ref escapes them, Gemini CLI and Codex
    /// pass them raw (so `</description>` in a description breaks the listing), and
    /// quick_validate.py and claude.ai's upload reject them ("Cannot contain XML tags").
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Converts CSV -> Markdown tables. Use when the user asks for a table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Converts CSV to Markdown tables. Use when the user asks for a table.
    /// ---
    /// Body.
    /// ```
    pub DescriptionAngleBrackets {
        code: "SK309",
        name: "description-angle-brackets",
        group: Parity,
        severity: Warning,
        fix: None,
        sources: ["quick_validate.py: Description cannot contain angle brackets (< or >)", "oracles 2026-11-22: Claude Code 2.1.330 escapes < and >, Gemini CLI 0.61.0 does not"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) {
        return;
    }
    let Some(field) = cx.skill.frontmatter.get("description") else { return };
    let Some(value) = field.value.as_str() else { return };
    if !value.contains(['<', '>']) {
        return;
    }
    let raw = field.value.span;
    let at = raw.slice(cx.text()).find(['<', '>']).map(|i| raw.start + i);
    let span = at.map_or(raw, |i| Span::new(i, i + 1));
    cx.report(span, "`<` or `>` in the description: Claude Code shows it as `&lt;`/`&gt;`, quick_validate.py and claude.ai uploads reject it")
        .help("use words (\"to\", \"more than\") instead of angle brackets");
}
