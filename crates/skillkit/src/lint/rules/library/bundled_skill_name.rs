use crate::lint::rules::Context;

declare_rule! {
    /// A skill has the name of a skill an agent bundles.
    ///
    /// ## What it does
    /// Reports a skill whose folder name or `name` is the name of one of the skills an agent
    /// ships with (its bundled or built-in skills, on by default), naming the agent and which of
    /// the two it keeps. The names are the agent profiles' own lists, captured from the real
    /// programs: Claude Code 2.1.332's twelve (`dataviz` … `run`, `init`, `security-review`) and
    /// its built-in `plugin-authoring`, Qwen Code 0.24.4's sixteen (fourteen listed, two hidden),
    /// Letta Code 0.32.18's twenty. Under `spec` and `agentskills` every such agent is named;
    /// under one of these agents' profiles, that agent alone; under another agent's, nothing. It
    /// runs where a library or a package is checked (a library-level rule), on plugin skills too.
    ///
    /// ## Why is this bad?
    /// Each of these agents keeps one skill per name, silently. All three let the user's copy
    /// win: Claude Code lists the library's skill in the bundled one's place, Qwen Code ranks
    /// project and user skills above bundled ones, Letta Code lets any skill folder replace a
    /// bundled skill of the same id. The bundled skill is then unavailable wherever this one is
    /// installed, with no word to the user, and a user who turns the bundled skills off
    /// (`disableBundledSkills`, `skills.disabledLevels: ["bundled"]`, `--no-bundled-skills`) gets
    /// a different set of skills than one who does not.
    ///
    /// ## Example
    /// A skill folder `skills/simplify/` (`name: simplify`):
    ///
    /// ```text
    /// info[SK706]: `simplify` is the name of a skill Claude Code 2.1.332 and Qwen Code 0.24.4 bundle: where this skill is installed it replaces theirs, silently
    /// ```
    ///
    /// ## Use instead
    /// A name of your own, such as `simplify-diff`.
    ///
    /// ## Fix
    /// Rename the skill (folder and `name`), unless replacing the agent's own skill is the point.
    pub BundledSkillName {
        code: "SK706",
        name: "bundled-skill-name",
        group: Library,
        severity: Info,
        fix: None,
        sources: [
            "Claude Code 2.1.332: a library skill folder named as a bundled skill replaces it (captured on bundled-names)",
            "Qwen Code 0.24.4: project beats user, user beats bundled (captured on bundled-names)",
            "Letta Code 0.32.18: bundled < global < agent < project; a later location replaces (captured on bundled-names-bundled)",
        ],
    }
}

/// A library-level rule: see [`crate::verdict::library_levels`]. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
