//! Starts `skillkit lsp` for Markdown buffers in Zed.
//!
//! The executable is `lsp.skillkit.binary.path` from the settings, else `skillkit` found on the
//! worktree's PATH; the arguments are `lsp.skillkit.binary.arguments`, else `["lsp"]`. The
//! initialization options (`{"agent": "claude-code"}`) are `lsp.skillkit.initialization_options`.

use zed_extension_api::{self as zed, serde_json, settings::LspSettings, LanguageServerId, Result};

struct Skillkit;

impl Skillkit {
    fn settings(id: &LanguageServerId, worktree: &zed::Worktree) -> LspSettings {
        LspSettings::for_worktree(id.as_ref(), worktree).unwrap_or_default()
    }
}

impl zed::Extension for Skillkit {
    fn new() -> Self {
        Skillkit
    }

    fn language_server_command(&mut self, id: &LanguageServerId, worktree: &zed::Worktree) -> Result<zed::Command> {
        let binary = Self::settings(id, worktree).binary;
        let command =
            binary.as_ref().and_then(|b| b.path.clone()).or_else(|| worktree.which("skillkit")).ok_or_else(|| {
                "skillkit is not on PATH: install it (`cargo install --path crates/skillkit-cli` in \
                 the Skill Studio repository) or set `lsp.skillkit.binary.path` in settings.json"
                    .to_string()
            })?;
        let args = binary.as_ref().and_then(|b| b.arguments.clone()).unwrap_or_else(|| vec!["lsp".to_string()]);
        let mut env = worktree.shell_env();
        if let Some(extra) = binary.and_then(|b| b.env) {
            env.extend(extra);
        }
        Ok(zed::Command { command, args, env })
    }

    fn language_server_initialization_options(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        Ok(Self::settings(id, worktree).initialization_options)
    }
}

zed::register_extension!(Skillkit);
