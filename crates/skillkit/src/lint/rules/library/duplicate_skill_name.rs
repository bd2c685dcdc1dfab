use crate::lint::rules::Context;

declare_rule! {
    /// Two skills in one source have the same name.
    ///
    /// ## What it does
    /// Reports a name used twice within a single source folder (a library-level check: it runs
    /// when a library or a folder of skills is loaded, not on a single file). Across sources a
    /// clash is normal: the later source wins and the other skill is shown as hidden.
    ///
    /// In an editor (the app, the language server) both skills are marked, since either may be
    /// the one to rename. A `check` report gives each clash once, on the later skill in path
    /// order, naming the earlier, as compilers report a name defined twice: `check` reports each
    /// skill as soon as it and the skills before it are read, and keeps only their names.
    ///
    /// ## Why is this bad?
    /// Loaders keep one of the two without a word: DeepAgents keeps the later in path order, other
    /// agents the first they list. Which one the agent gets depends on folder order.
    ///
    /// ## Fix
    /// Rename one skill (its `name` and its folder).
    pub DuplicateSkillName {
        code: "SK701",
        name: "duplicate-skill-name",
        group: Library,
        severity: Error,
        fix: None,
        sources: ["DeepAgents SkillsMiddleware: all_skills[skill[\"name\"]] = skill (last wins)", "agentskills client guide: name collisions"],
    }
}

/// A library-level rule: see `Library::resolve`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
