//! The command line as clap parses it: the commands, their arguments and value types. The
//! completions and the manual page are generated from these definitions too
//! (`commands/completions.rs`, `commands/man.rs`).

use crate::commands::eval::EvalArgs;
use crate::provider::ProviderArgs;
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "skillkit", version = env!("SKILLKIT_VERSION"), about = "Check, explain and preview Agent Skills (SKILL.md folders).")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
    /// The configuration file (default: `skillkit.toml`, or `[tool.skillkit]` in `pyproject.toml`,
    /// in the checked folder or the nearest folder above it, else above the current folder).
    #[arg(long, global = true, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum Format {
    Text,
    Json,
    Sarif,
    Github,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum TreeFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum MatrixFormat {
    Text,
    Json,
    Markdown,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum RequireBar {
    Full,
    Listed,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum PreviewFormat {
    Html,
    Json,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum SchemaKind {
    /// The SKILL.md frontmatter's.
    Frontmatter,
    /// skillkit.toml's (and `[tool.skillkit]`'s in pyproject.toml).
    Config,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub(crate) enum RulesFormat {
    Text,
    Markdown,
    Json,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Lint skills: a skill folder, a SKILL.md, or a folder searched for skills.
    Check {
        /// Skill folders, SKILL.md files, or folders to search (default: the current folder).
        paths: Vec<PathBuf>,
        /// The agent whose rules apply: spec, agentskills (as strict as skills-ref), or any profile
        /// `skillkit agents` lists (default: the configuration's `agent`, else spec).
        #[arg(long)]
        agent: Option<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Count warnings as errors for the exit code.
        #[arg(long)]
        strict: bool,
        /// Accept every finding of this check: write them to the baseline file (the
        /// configuration's `baseline`, else skillkit-baseline.json beside the configuration or in
        /// the current folder); later checks report only findings not in it.
        #[arg(long)]
        write_baseline: bool,
        #[arg(long, value_enum, default_value = "auto")]
        color: Color,
        /// Keep watching the paths and print the results again after every change.
        #[arg(long)]
        watch: bool,
        /// Stop watching after this many changes (for tests).
        #[arg(long, hide = true)]
        watch_changes: Option<usize>,
        /// Check the paths as packages (a plugin, a marketplace, a folder of plugins, an upload
        /// .zip) even where none is detected: a folder as a plugin, a file as an archive.
        #[arg(long)]
        package: bool,
    },
    /// Build a package from a checked skill or library: an upload .zip, a Claude Code plugin,
    /// an Agent Plugins or Codex plugin, or a digest lock. Refused (exit 1) when a skill has
    /// errors or the upload would refuse the archive (with the upload's own message).
    Pack(crate::commands::pack::PackArgs),
    /// Check an installed copy of skills against a digest lock (`skills-lock.json`): each file
    /// changed, missing or extra is named. Exit 1 when any skill differs.
    Verify(crate::commands::pack::VerifyArgs),
    /// Show a library: sources in priority order, skills, what hides what, and each skill's files
    /// with the agents that would discover them.
    Tree {
        /// Skill sources, lowest priority first (default: the current folder).
        #[arg(long = "source")]
        sources: Vec<PathBuf>,
        /// The agent whose discovery and rules apply (default: the configuration's, else spec).
        #[arg(long)]
        agent: Option<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: TreeFormat,
    },
    /// Print exactly the text an agent injects to advertise the library's skills.
    Prompt {
        /// The agent whose prompt to render (`skillkit agents` lists them; default: the
        /// configuration's `agent`).
        #[arg(long)]
        agent: Option<String>,
        /// Skill sources, lowest priority first (default: the current folder).
        #[arg(long = "source")]
        sources: Vec<PathBuf>,
        /// The model's context window in tokens (default: the agent's).
        #[arg(long)]
        context_window: Option<u64>,
        /// A fixed listing budget in characters where the agent has one (Claude Code's
        /// SLASH_COMMAND_TOOL_CHAR_BUDGET).
        #[arg(long)]
        char_budget: Option<usize>,
        /// Skills already loaded in the session (for agents that mark them).
        #[arg(long)]
        loaded: Vec<String>,
        #[command(flatten)]
        settings: AgentSettingArgs,
        /// text: the exact injected text, nothing added; json: the text with each skill's byte
        /// range, counts and budget decision.
        #[arg(long, value_enum, default_value = "text")]
        format: TreeFormat,
    },
    /// Show which agents list each skill: for every skill and agent, listed in full, description
    /// shortened, name only, dropped by the budget, hidden, shadowed, skipped (with the agent's
    /// reason) or not discovered, and whether it depends on chance.
    Matrix {
        /// Skill sources, lowest priority first (default: the configuration's, else the current
        /// folder).
        paths: Vec<PathBuf>,
        /// The agents to show, in this order (repeatable; default: every agent with a loader).
        #[arg(long)]
        agent: Vec<String>,
        /// Exit 1 when a skill misses this bar for any of the agents shown: `full` (listed with
        /// its whole description) or `listed` (listed at all). A cell that depends on chance
        /// misses either.
        #[arg(long, value_enum)]
        require: Option<RequireBar>,
        /// The model's context window in tokens (default: each agent's).
        #[arg(long)]
        context_window: Option<u64>,
        /// A fixed listing budget in characters where an agent has one (Claude Code's
        /// SLASH_COMMAND_TOOL_CHAR_BUDGET).
        #[arg(long)]
        char_budget: Option<usize>,
        /// text: a table with each cell's reason; json: everything; markdown: a table for a README.
        #[arg(long, value_enum, default_value = "text")]
        format: MatrixFormat,
        /// Each --agent-setting applies to the agents shown that have that setting.
        #[command(flatten)]
        settings: AgentSettingArgs,
    },
    /// Run a session script (YAML: agent, sources, settings, steps) and print the transcript:
    /// every step's exact result text, the loaded skills, the prompt changes and the context used.
    ///
    /// With a model (--provider, --model), the script's `user` steps are live: the model answers
    /// each one through the agent's prompt and skill tools, its skill-tool calls run in the
    /// simulator, other tools are answered "not run in simulation"; --save writes the script with
    /// the model's turns, which then replays without the model.
    Simulate {
        /// The session script.
        script: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: TreeFormat,
        #[command(flatten)]
        model: ProviderArgs,
        /// Model turns at most per user turn.
        #[arg(long, default_value_t = skillkit_api::settings::DEFAULT_MAX_ROUNDS)]
        max_rounds: usize,
        /// Write the script as run (the model's turns included) to FILE.
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
    },
    /// Print the sanitized HTML the app previews for a skill's body.
    ///
    /// No scripts, event handlers or remote loads; images from inside the skill folder are
    /// embedded as data: URLs. A body too large or nested too deep to preview is not rendered: the
    /// HTML is a sentence saying so (also on standard error).
    Preview {
        /// A SKILL.md, or the skill folder holding it.
        path: PathBuf,
        /// html: the HTML only; json: the HTML with the heading outline, the images shown as
        /// their alt text and why, and whether the body was too large or deep to render.
        #[arg(long, value_enum, default_value = "html")]
        format: PreviewFormat,
    },
    /// Run a trigger suite against a model: does each query activate the skill it should,
    /// through the agent's exact prompt and skill tools? Exit 0, 1 below a --min-* threshold,
    /// 2 on usage or provider errors, 130 when interrupted (after the partial report).
    Eval(EvalArgs),
    /// Serve the Language Server Protocol on stdin/stdout: diagnostics on open and on every
    /// change, as `skillkit check` reports them (the agent from the initialization options).
    Lsp,
    /// List the lint rules.
    Rules {
        #[arg(long, value_enum, default_value = "text")]
        format: RulesFormat,
    },
    /// Show a rule's documentation, by code (SK201) or name (name-missing).
    Explain { rule: String },
    /// Print a JSON Schema: the SKILL.md frontmatter's (default) or skillkit.toml's.
    Schema {
        #[arg(value_enum, default_value = "frontmatter")]
        which: SchemaKind,
    },
    /// Print shell completions: `skillkit completions bash > ~/.local/share/bash-completion/completions/skillkit`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `skillkit man | man -l -`.
    Man,
    /// List the agent profiles.
    Agents,
}

/// An agent's own listing settings on the command line (`skillkit::agent_settings`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct AgentSettingArgs {
    /// One of the agent's own listing settings, KEY=VALUE, repeatable: Claude Code's
    /// skillListingBudgetFraction=0.02, skillListingMaxDescChars=200, skillOverrides.NAME=off
    /// (on, name-only, user-invocable-only, off), SLASH_COMMAND_TOOL_CHAR_BUDGET=8000; Codex's
    /// model_context_window=200000. Wins over skillkit.toml's [agents.AGENT] and the agent's own
    /// settings files (the project's .claude/settings.json and .claude/settings.local.json).
    #[arg(long = "agent-setting", value_name = "KEY=VALUE")]
    pub agent_setting: Vec<String>,
    /// Also read the user's own settings files of the agent (~/.claude/settings.json,
    /// ~/.codex/config.toml), below the project's: from DIR instead of the home folder when given.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "~")]
    pub user_settings: Option<PathBuf>,
}
