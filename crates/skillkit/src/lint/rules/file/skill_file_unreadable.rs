use crate::lint::rules::Context;
use crate::skill::FileProblem;
use crate::syntax::text::Span;

declare_rule! {
    /// `SKILL.md` could not be read (permissions or an I/O error).
    ///
    /// ## What it does
    /// Reports the operating system's error for a `SKILL.md` that exists but cannot be opened or
    /// read.
    ///
    /// ## Why is this bad?
    /// An agent that cannot read the file skips the skill, usually without telling the user.
    ///
    /// ## Fix
    /// Fix the file's permissions (`chmod a+r SKILL.md`) or ownership.
    pub SkillFileUnreadable {
        code: "SK003",
        name: "skill-file-unreadable",
        group: File,
        severity: Error,
        fix: None,
        sources: ["DeepAgents: `Cannot load SKILL.md at %s: %s; skipping`"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    for p in &cx.skill.file_problems {
        if let FileProblem::Unreadable { error } = p {
            let msg = format!("cannot read `{}`: {error}", cx.skill.file_name);
            cx.report(Span::empty(0), msg);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::skill::FileProblem;
    use crate::testing::codes_for_problem;

    #[test]
    fn unreadable_file_is_reported() {
        assert_eq!(codes_for_problem(FileProblem::Unreadable { error: "denied".into() }), ["SK003"]);
    }
}
