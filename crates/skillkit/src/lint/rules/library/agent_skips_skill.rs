use crate::lint::rules::Context;

declare_rule! {
    /// The chosen agent does not load this skill.
    ///
    /// ## What it does
    /// Under the profile of an agent that loads skills (`claude-code`, `codex`, `gemini-cli`,
    /// `deepagents`, `deepagents-v1`, `deepagents-v2`, `harness9`), reports the skills that agent's
    /// loader skips or rejects, with the agent's own reason: the same decision `skillkit prompt
    /// --agent NAME` shows, from the same code, so `check` and `prompt` never disagree. Under such
    /// a profile this is the only error a skill can get: what the specification forbids but the
    /// agent loads anyway is a warning that says so (see `crate::verdict`). It runs where a
    /// library is checked (`skillkit check --agent NAME`, the app's library), not on a lone text.
    ///
    /// ## Why is this bad?
    /// The skill is not in the agent's listing: the model never learns it exists, and the user
    /// gets no word of it from most agents (Claude Code and Gemini CLI skip such folders silently;
    /// Codex and DeepAgents log one line the user rarely sees).
    ///
    /// ## Fix
    /// Fix what the agent names: usually YAML it cannot parse, or a missing `name` or
    /// `description`.
    pub AgentSkipsSkill {
        code: "SK702",
        name: "agent-skips-skill",
        group: Library,
        severity: Error,
        fix: None,
        sources: [
            "each agent profile's loader (crates/skillkit/src/agents/), held to the real programs' captured listings",
        ],
    }
}

/// A library-level rule: see [`crate::verdict::judge_library`]. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
