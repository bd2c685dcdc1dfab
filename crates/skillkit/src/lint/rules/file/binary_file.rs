use crate::lint::rules::Context;
use crate::skill::FileProblem;
use crate::syntax::text::Span;

declare_rule! {
    /// `SKILL.md` contains NUL bytes: it is a binary file.
    ///
    /// ## What it does
    /// Reports the first NUL byte. A file with NUL bytes is not parsed further.
    ///
    /// ## Why is this bad?
    /// A binary file (an image or archive saved under the wrong name, or a UTF-16 file) is no
    /// skill: agents either skip it or put garbage into the model's context.
    ///
    /// ## Fix
    /// Replace the file with UTF-8 Markdown text.
    pub BinaryFile {
        code: "SK006",
        name: "binary-file",
        group: File,
        severity: Error,
        fix: None,
        sources: ["spec: SKILL.md is YAML frontmatter followed by Markdown"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    for p in &cx.skill.file_problems {
        if let FileProblem::Binary { offset } = p {
            // The text is decoded lossily, so find the NUL there rather than reuse the byte offset.
            let at = cx.text().find('\0').unwrap_or(0);
            let msg = format!("binary content: NUL byte at offset {offset}; the file was not parsed");
            cx.report(Span::new(at, (at + 1).min(cx.text().len())), msg)
                .help("SKILL.md must be UTF-8 text; UTF-16 files also look like this");
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::agents::SPEC;
    use crate::lint::lint;
    use crate::skill::Skill;

    #[test]
    fn nul_byte_is_located_and_nothing_else_reported() {
        let skill = Skill::from_bytes("/x/a", "SKILL.md", b"---\nname: a\x00\n---\n".to_vec());
        let d = lint(&skill, &SPEC);
        assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), ["SK006"]);
        assert_eq!(d[0].start.line, 2);
    }
}
