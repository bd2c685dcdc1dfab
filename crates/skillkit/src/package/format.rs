//! The package formats an agent installs skills from (a field of each agent profile,
//! [`crate::agent::Agent::installs`]). On its own, below the rest of `package`, so that the
//! profiles can name the formats without reaching the package stage.

/// A package format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PackageFormat {
    /// A Claude Code plugin (`.claude-plugin/plugin.json`, `skills/<name>/SKILL.md`).
    ClaudePlugin,
    /// A Claude Code marketplace (`.claude-plugin/marketplace.json`).
    ClaudeMarketplace,
    /// An Agent Plugins 1.0.0 package (root `plugin.json` with its `$schema`).
    AgentPlugin,
    /// A Codex plugin (`.codex-plugin/plugin.json`).
    CodexPlugin,
    /// A GitHub Copilot plugin (a root `plugin.json`, which wins over `.claude-plugin/plugin.json`).
    CopilotPlugin,
    /// The skill upload's `.zip` (Claude.ai, Claude Desktop, Teams, the Claude API).
    Upload,
}

#[cfg(test)]
mod tests {
    use super::PackageFormat;

    /// The profiles say where each agent installs from: Claude Code from its plugins and
    /// marketplaces, Codex from its plugins, Copilot from a root `plugin.json` or Claude Code's.
    #[test]
    fn the_profiles_name_the_formats_they_install_from() {
        let installs = |id: &str| crate::find_agent(id).unwrap().installs;
        assert_eq!(installs("claude-code"), [PackageFormat::ClaudePlugin, PackageFormat::ClaudeMarketplace]);
        assert_eq!(installs("codex"), [PackageFormat::CodexPlugin]);
        assert_eq!(installs("copilot-cli"), [PackageFormat::CopilotPlugin, PackageFormat::ClaudePlugin]);
        assert!(installs("spec").is_empty());
    }
}
