use crate::lint::rules::Context;
use crate::syntax::text::Span;

declare_rule! {
    /// The file does not start with YAML frontmatter.
    ///
    /// ## What it does
    /// Reports a `SKILL.md` that has no `---` line opening a frontmatter block.
    ///
    /// ## Why is this bad?
    /// The frontmatter carries `name` and `description`, which agents index skills by.
    /// DeepAgents, Gemini CLI and skills-ref drop the skill; Codex refuses it (`missing YAML
    /// frontmatter delimited by ---`); Claude Code lists it under the folder name with the first
    /// body line as its description.
    ///
    /// ## Example
    /// ```skill
    /// # PDF tools
    ///
    /// Extract text from PDF files.
    /// ```
    ///
    /// ## Use instead
    /// ```skill folder=pdf-tools
    /// ---
    /// name: pdf-tools
    /// description: Extracts text from PDF files. Use when the user asks about PDFs.
    /// ---
    /// # PDF tools
    /// ```
    ///
    /// ## skills-ref
    /// `SKILL.md must start with YAML frontmatter (---)`
    pub FrontmatterMissing {
        code: "SK101",
        name: "frontmatter-missing",
        group: Frontmatter,
        severity: Error,
        fix: None,
        sources: ["spec: \"The SKILL.md file must contain YAML frontmatter followed by Markdown content\"", "skills-ref: SKILL.md must start with YAML frontmatter (---)", "Codex 0.169.0: missing YAML frontmatter delimited by ---"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !cx.skill.is_readable() || cx.skill.split.has_frontmatter() {
        return;
    }
    let start = cx.skill.split.body.start;
    let first_line = cx.skill.lines.line_span(cx.text(), cx.skill.lines.line_of(start));
    let span = Span::new(start, first_line.end.max(start));
    let msg = if cx.skills_ref() {
        "SKILL.md must start with YAML frontmatter (---)"
    } else {
        "no YAML frontmatter: the file must start with a `---` line"
    };
    cx.report(span, msg).help("start the file with `---`, then `name:` and `description:`, then a closing `---`");
}
