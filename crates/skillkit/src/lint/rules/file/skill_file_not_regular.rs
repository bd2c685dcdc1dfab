use crate::lint::rules::Context;
use crate::skill::FileProblem;
use crate::syntax::text::Span;

declare_rule! {
    /// `SKILL.md` is a directory, FIFO, socket or device instead of a file.
    ///
    /// ## What it does
    /// Reports a `SKILL.md` that exists but is not a regular file. `skillkit` never opens it:
    /// reading a FIFO would block forever.
    ///
    /// ## Why is this bad?
    /// skills-ref checks only that the path exists, then crashes reading a directory or hangs on a
    /// FIFO; agents skip the skill. Either way the skill is not loaded.
    ///
    /// ## Fix
    /// Replace it with a regular Markdown file (or a symlink to one).
    pub SkillFileNotRegular {
        code: "SK002",
        name: "skill-file-not-regular",
        group: File,
        severity: Error,
        fix: None,
        sources: ["skills-ref find_skill_md uses Path.exists(): crashes on a directory, hangs on a FIFO (agentskills fork PR #438)"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    for p in &cx.skill.file_problems {
        if let FileProblem::NotAFile { kind } = p {
            let msg = format!("`{}` is a {kind}, not a file; it was not read", cx.skill.file_name);
            cx.report(Span::empty(0), msg).help("SKILL.md must be a regular file");
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::codes_for_problem;
    use crate::skill::FileProblem;

    #[test]
    fn directory_named_skill_md_is_reported() {
        assert_eq!(codes_for_problem(FileProblem::NotAFile { kind: "directory" }), ["SK002"]);
    }
}
