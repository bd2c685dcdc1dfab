use crate::lint::rules::Context;

declare_rule! {
    /// A skill is hidden by a skill of the same name in a later source.
    ///
    /// ## What it does
    /// Reports a skill that a skill of the same name in a later source hides, naming the one that
    /// wins (a library-level check: it runs when several sources are checked together, such as
    /// `skillkit check a/ b/` or the folders of a multi-root editor workspace, not on a single
    /// file). Within one source a clash is `duplicate-skill-name` (SK701) instead.
    ///
    /// ## Why is this bad?
    /// It is often meant (a project overriding a personal skill), but nothing in the hidden skill
    /// says so: edits to it change nothing the agent sees. Loaders merge their sources by name and
    /// keep one skill per name; DeepAgents keeps the later source's, as `skillkit` orders them.
    ///
    /// ## Fix
    /// Rename one of the two skills, or delete the one that is hidden.
    pub ShadowedSkill {
        code: "SK704",
        name: "shadowed-skill",
        group: Library,
        severity: Info,
        fix: None,
        sources: ["DeepAgents SkillsMiddleware: all_skills[skill[\"name\"]] = skill (last source wins)", "Gemini CLI 0.61.0 skill discovery: later wins by name (conflict warning)"],
    }
}

/// A library-level rule: see [`crate::verdict::judge_library`]. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
