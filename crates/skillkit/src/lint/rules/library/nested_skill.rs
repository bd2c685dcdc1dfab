use crate::lint::rules::Context;

declare_rule! {
    /// A skill's folder is inside another skill's folder.
    ///
    /// ## What it does
    /// Reports each skill found below another skill's folder (`outer/inner/SKILL.md` next to
    /// `outer/SKILL.md`), saying which agents discover it. `skillkit check` and `skillkit tree`
    /// look for every `SKILL.md`, so such a skill is linted like any other. Under the profile of an
    /// agent that does not look inside skill folders, the agent's verdict is that it skips the
    /// skill (`agent-skips-skill`, SK702).
    ///
    /// ## Why is this bad?
    /// Agents disagree: Codex scans into skill folders and lists the inner skill; Claude Code,
    /// Gemini CLI and DeepAgents stop at the outer skill, so the inner one is only a resource of
    /// it. Which of the two the author meant, the listing shows only for some agents.
    ///
    /// ## Fix
    /// Move the inner skill next to the outer one, or make it a plain resource (rename its
    /// `SKILL.md`).
    pub NestedSkill {
        code: "SK703",
        name: "nested-skill",
        group: Library,
        severity: Info,
        fix: None,
        sources: [
            "Codex 0.169.0 skill scan (breadth first, into skill folders)",
            "Claude Code, Gemini CLI, DeepAgents: one level of skill folders under each source",
        ],
    }
}

/// A library-level rule: see [`crate::verdict::judge_library`]. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
