use crate::lint::rules::Context;

declare_rule! {
    /// `SKILL.md` is longer than 500 lines.
    ///
    /// ## What it does
    /// Counts the file's lines and points at line 501.
    ///
    /// ## Why is this bad?
    /// The whole file enters the context when the skill is activated. The specification
    /// recommends keeping `SKILL.md` under 500 lines and moving detailed material into files the
    /// body references, which the agent reads only when needed.
    ///
    /// ## Fix
    /// Move reference material (API details, long examples, tables) into `references/*.md` and
    /// link to it from the body.
    pub BodyTooLong {
        code: "SK501",
        name: "body-too-long",
        group: Body,
        severity: Warning,
        fix: None,
        sources: ["spec: \"Keep your main SKILL.md under 500 lines\"", "best-practices.mdx: under 500 lines and 5,000 tokens"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !cx.skill.is_readable() {
        return;
    }
    let n = cx.skill.lines.line_count(cx.text());
    if n > 500 {
        let span = cx.skill.lines.line_span(cx.text(), 500);
        cx.report(span, format!("SKILL.md is {n} lines; keep it under 500 and move detail into references/ files"));
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::codes;

    #[test]
    fn counts_lines_of_the_whole_file() {
        let head = "---\nname: a\ndescription: d\n---\n";
        let ok = format!("{head}{}", "x\n".repeat(496));
        assert!(!codes("a", &ok).contains(&"SK501"));
        let long = format!("{head}{}", "x\n".repeat(497));
        assert!(codes("a", &long).contains(&"SK501"));
    }
}
