use crate::lint::rules::Context;
use crate::syntax::text::Span;

declare_rule! {
    /// The skill file is named `skill.md` instead of `SKILL.md`.
    ///
    /// ## What it does
    /// Reports a skill whose only skill file is the lowercase `skill.md`.
    ///
    /// ## Why is this bad?
    /// skills-ref accepts `skill.md`, but the client guide says to look for a file "named exactly
    /// `SKILL.md`", and DeepAgents, Claude Code and quick_validate.py do: on a case-sensitive file
    /// system they never see this skill.
    ///
    /// ## Fix
    /// Rename the file to `SKILL.md`.
    pub LowercaseSkillFile {
        code: "SK007",
        name: "lowercase-skill-file",
        group: File,
        severity: Warning,
        fix: None,
        sources: ["agentskills client guide: \"a file named exactly `SKILL.md`\"", "skills-ref find_skill_md: tries SKILL.md then skill.md"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if cx.skill.file_name == "skill.md" && cx.skill.is_readable() {
        cx.report(Span::empty(0), "skill file is named `skill.md`: skills-ref reads it, but DeepAgents, Claude Code and other loaders look for `SKILL.md` only")
            .help("rename the file to SKILL.md");
    }
}

#[cfg(test)]
mod tests {
    use crate::agents::SPEC;
    use crate::lint::lint;
    use crate::skill::Skill;

    #[test]
    fn lowercase_file_name_warns() {
        let text = "---\nname: a\ndescription: d\n---\nBody\n".to_string();
        let lower = lint(&Skill::parse("/x/a", "skill.md", text.clone()), &SPEC);
        assert!(lower.iter().any(|d| d.code == "SK007"));
        let upper = lint(&Skill::parse("/x/a", "SKILL.md", text), &SPEC);
        assert!(upper.iter().all(|d| d.code != "SK007"));
    }
}
