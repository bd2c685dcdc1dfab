use crate::lint::rules::Context;
use crate::lint::diagnostic::{Applicability, Edit};
use crate::syntax::frontmatter::Reading;
use crate::syntax::text::Span;

declare_rule! {
    /// A line meant to continue a block description is read as a new key.
    ///
    /// ## What it does
    /// Finds a top-level "key" containing spaces right after a `|` or `>` block value, such as
    /// `Triggers — activate on any of: …` written without indentation after a blank line. YAML
    /// ends the block at the blank line and reads the prose line as a new key.
    ///
    /// ## Why is this bad?
    /// The description silently loses everything from that line on, in every loader, and the
    /// prose becomes an unknown key (which skills-ref rejects). Seen in public libraries
    /// (aws/agent-toolkit-for-aws).
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: >-
    ///   Formats Markdown tables.
    ///
    /// Use when: the user pastes CSV.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: >-
    ///   Formats Markdown tables.
    ///
    ///   Use when: the user pastes CSV.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Fix
    /// Indent the line like the block above it (unsafe: check that it belongs there).
    pub BlockScalarCut {
        code: "SK308",
        name: "block-scalar-cut",
        group: Parity,
        severity: Warning,
        fix: Unsafe,
        sources: ["YAML 1.2 §8.1: a less-indented line ends a block scalar", "research report §5: aws/agent-toolkit-for-aws flink skill"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if cx.skill.frontmatter.reading != Reading::Yaml {
        return;
    }
    let fields = &cx.skill.frontmatter.fields;
    for pair in fields.windows(2) {
        let (prev, this) = (&pair[0], &pair[1]);
        let block = matches!(prev.value.scalar(), Some((_, s)) if s.is_block());
        if !block || !this.key.contains(char::is_whitespace) {
            continue;
        }
        // The block's indentation: its first content line.
        let text = cx.text();
        let first = cx.skill.lines.line_of(prev.value.span.start) + 1;
        let line = cx.skill.lines.line_span(text, first).slice(text);
        let indent = &line[..line.len() - line.trim_start().len()];
        let indent = if indent.is_empty() { "  " } else { indent };
        let msg = format!("this line is read as a new key `{}`, so `{}` ends before it", this.key, prev.key);
        let line_start = cx.skill.lines.line_start(cx.skill.lines.line_of(this.key_span.start));
        cx.report(this.key_span, msg)
            .label(prev.value.span, "the block value ends here")
            .fix("Indent the line to continue the block", Applicability::Unsafe, vec![Edit { span: Span::empty(line_start), replacement: indent.to_string() }]);
    }
}
