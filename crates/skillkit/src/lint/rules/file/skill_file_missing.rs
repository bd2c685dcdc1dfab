use crate::lint::rules::Context;
use crate::skill::FileProblem;
use crate::syntax::text::Span;

declare_rule! {
    /// A skill folder has no `SKILL.md`.
    ///
    /// ## What it does
    /// Reports a folder that was given as a skill but holds neither `SKILL.md` nor `skill.md`.
    ///
    /// ## Why is this bad?
    /// The file is what makes a folder a skill: every agent looks for `SKILL.md` and ignores the
    /// folder without it, so nothing in it is ever loaded.
    ///
    /// ## Fix
    /// Create `SKILL.md` with a `name` equal to the folder name and a `description`
    /// (`skillkit` cannot guess the description, so there is no automatic fix).
    ///
    /// ## skills-ref
    /// `Missing required file: SKILL.md`
    pub SkillFileMissing {
        code: "SK001",
        name: "skill-file-missing",
        group: File,
        severity: Error,
        fix: None,
        sources: ["spec: \"The SKILL.md file must contain YAML frontmatter\"", "skills-ref: Missing required file: SKILL.md"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if cx.skill.file_problems.contains(&FileProblem::Missing) {
        let msg = if cx.skills_ref() {
            "Missing required file: SKILL.md".to_string()
        } else {
            format!("no SKILL.md in skill folder `{}`", cx.skill.dir_name)
        };
        cx.report(Span::empty(0), msg).help("create SKILL.md with `name` and `description` frontmatter");
    }
}
