use crate::lint::rules::Context;
use crate::skill::{FileProblem, MAX_FILE_BYTES};
use crate::syntax::text::Span;

declare_rule! {
    /// `SKILL.md` is larger than 10 MiB.
    ///
    /// ## What it does
    /// Reports a `SKILL.md` over 10 MiB (10,485,760 bytes). `skillkit` does not read it.
    ///
    /// ## Why is this bad?
    /// DeepAgents skips such files (`MAX_SKILL_FILE_SIZE`, "to prevent DoS attacks") and its
    /// `load_skill` answers `exceeds maximum size (10485760 bytes)`. A file that size cannot fit
    /// any agent's context anyway.
    ///
    /// ## Fix
    /// Move material into `references/` files the body links to.
    pub SkillFileTooLarge {
        code: "SK004",
        name: "skill-file-too-large",
        group: File,
        severity: Error,
        fix: None,
        sources: ["DeepAgents SkillsMiddleware: MAX_SKILL_FILE_SIZE = 10 * 1024 * 1024, `Skipping %s: content too large (%d bytes)`"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    for p in &cx.skill.file_problems {
        if let FileProblem::TooLarge { size } = p {
            let msg = format!("`{}` is {size} bytes, over the 10 MiB ({MAX_FILE_BYTES} bytes) that DeepAgents loads; it was not read", cx.skill.file_name);
            cx.report(Span::empty(0), msg).help("move detailed material into references/ files");
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::skill::FileProblem;
    use crate::testing::codes_for_problem;

    #[test]
    fn oversized_file_is_reported() {
        assert_eq!(codes_for_problem(FileProblem::TooLarge { size: 11 << 20 }), ["SK004"]);
    }
}
