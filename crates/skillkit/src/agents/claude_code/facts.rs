//! What Claude Code states and the listing, the loader and the sessions read: its limits, the
//! listing's format, the built-in commands and the Skill tool. Below the other files of the
//! profile; `mod.rs` assembles the profile from them.

use crate::prompt::{Format, Placement, ToolDef};

/// The program and version this profile reproduces.
pub const SOURCE: &str = "Claude Code CLI 2.1.332 (@anthropic-ai/claude-code, real program)";

/// How the listing is placed and counted.
pub(super) const FORMAT: Format = Format {
    agent: "claude-code",
    source: SOURCE,
    placement: Placement::SystemMessage,
    placement_detail: "a role \"system\" message in the middle of the conversation (messages[1], after the first user turn), one text block starting \"# Environment\": the listing follows the agent-type list after \"\\n\\n\" and is followed by \"\\n\\nToday's date is …\"; the text here is the listing from its header line to its last entry",
    default_context_window: DEFAULT_CONTEXT_WINDOW,
    estimate: true,
};

/// The context window of Claude Code 2.1.332's default model, `claude-opus-5-5`.
pub const DEFAULT_CONTEXT_WINDOW: u64 = 1_000_000;
/// Characters per token Claude Code assumes for the default model (4 for older models).
pub const CHARS_PER_TOKEN: u64 = 3;
/// `skillListingMaxDescChars`' default: the combined description is cut past this many UTF-16 units.
pub const MAX_LISTING_DESCRIPTION: usize = 1536;
/// `skillListingBudgetFraction`'s default: the listing's share of the context window.
pub const DEFAULT_BUDGET_FRACTION: f64 = 0.01;
/// Skill files larger than this are skipped.
pub const MAX_SKILL_FILE_BYTES: u64 = 1_048_576;
/// `name` values longer than this (UTF-16 units) are ignored.
pub const MAX_NAME: usize = 256;

/// The header line and blank line before the entries.
pub const HEADER: &str = "The following skills are available for use with the Skill tool:\n\n";

/// The built-in plugin skill Claude Code 2.1.332 always lists last.
pub const BUILTIN_NAME: &str = "plugin-authoring";
pub const BUILTIN_DESCRIPTION: &str = "Make a mod: a change to Claude's own interface or behaviour, such as a theme, a panel or pane that stays beside the chat and updates, a band, status line, toast, slash command, or hook on tool calls. Use to make, change or debug a mod or its hooks module.";

/// The Skill tool's description, exactly.
pub const SKILL_TOOL_DESCRIPTION: &str = "Invoke a skill.\n\nA skill is a packaged set of instructions the user or project has set up for a particular kind of task (deploy steps, a review checklist, a repo-specific workflow). Available skills appear in a listing from the system with one-line descriptions. When the task at hand is one a listed skill covers, call this tool first \u{2014} the skill's instructions load into the turn for you to follow in place of your default approach; some skills instead run in a subagent and return the finished result. A skill that runs in the background returns only the agent's name \u{2014} its result arrives later as a task notification, so don't wait on it or invoke it again in the meantime. Users may also ask for one by name (`/<name>`, or \"slash command\"); that's a request to invoke it.\n\n- `skill`: exact name from the listing, no leading slash. Plugin skills use `plugin:skill`. Directory-scoped skills are listed with a path prefix (`apps/web:deploy`); when both scoped and unscoped variants of a name exist, pick the one whose directory contains the files you're working on (most specific wins; unscoped otherwise).\n- `args`: optional arguments to pass through.\n\nOnly names from the listing (or that the user typed explicitly) are valid. Built-in CLI commands (`/help`, `/clear`, \u{2026}) aren't skills. If a `<command-name>` block is already present this turn, the skill is loaded \u{2014} follow it directly rather than calling again.\n";

/// The built-in commands a display name collides with: a skill whose `name` is one of these is
/// listed under its folder alone, in the full and the names-only listing alike (issue #39, 6b).
/// Captured, not read: 538 command-like names taken from the 2.1.332 bundle (`name:` values,
/// command aliases, the names commands are defined under) were each given as the `name` of a
/// skill in another folder (`claude -p`, API key, bundled skills off), and these 72 are the
/// ones listed without the `(name)` suffix; 2.1.330 gives the same set. Aliases (`cost`,
/// `stats`, ...) do not count, nor commands the bundle holds but this mode does not enable
/// (`upgrade`, `extra-usage`, `privacy-settings`, `install-github-app`, `chrome`, `desktop`,
/// `remote-env`, `todos`). With bundled skills on, the bundled skills' names (`simplify`,
/// `claude-api`, `update-config`, ...) collide too; the profile models them off, as captured.
/// Fixture and goldens: `tests/fixtures/prompt-trees/builtin-names`.
pub const BUILTIN_COMMANDS: &[&str] = &[
    "add-dir",
    "agents",
    "auto-mode-setup",
    "autocompact",
    "background",
    "branch",
    "btw",
    "bug",
    "cd",
    "clear",
    "color",
    "compact",
    "config",
    "context",
    "copy",
    "diff",
    "doctor",
    "effort",
    "exit",
    "export",
    "fast",
    "feedback",
    "focus",
    "fork",
    "goal",
    "heapdump",
    "help",
    "hooks",
    "ide",
    "init",
    "insights",
    "keybindings",
    "list-agents",
    "login",
    "logout",
    "mcp",
    "memory",
    "mobile",
    "model",
    "output-style",
    "passes",
    "permissions",
    "plan",
    "plugin",
    "powerup",
    "pro-trial-expired",
    "radio",
    "recap",
    "release-notes",
    "reload-plugins",
    "reload-skills",
    "rename",
    "resume",
    "rewind",
    "sandbox",
    "scroll-speed",
    "security-review",
    "setup-bedrock",
    "setup-vertex",
    "skills",
    "status",
    "statusline",
    "stickers",
    "subtask",
    "tasks",
    "team-onboarding",
    "terminal-setup",
    "theme",
    "tui",
    "usage",
    "workflow-launch-exec",
    "workflows",
];

/// The Skill tool as Claude Code declares it.
pub fn skill_tool() -> ToolDef {
    ToolDef {
        name: "Skill".into(),
        description: SKILL_TOOL_DESCRIPTION.into(),
        parameters: serde_json::json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "skill": {
                    "description": "The name of a skill from the available-skills list. Do not guess names.",
                    "type": "string"
                },
                "args": {"description": "Optional arguments for the skill", "type": "string"}
            },
            "required": ["skill"],
            "additionalProperties": false
        }),
    }
}
