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
/// `claude-api`, `update-config`, ...) collide too: the listing then has them among its skills.
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
/// Claude Code 2.1.332's bundled skills, listed after the library's and before `plugin-authoring`
/// (name, description as listed; `settings-bundled-empty`).
pub const BUNDLED: &[(&str, &str)] = &[
    ("dataviz", "Use this skill whenever you are about to create ANY chart, graph, plot, dashboard, or data visualization, in ANY output medium — an HTML or React artifact, inline SVG, plotting code in any library (matplotlib, plotly, d3, Recharts, …), an image/PNG you will render and upload, or a chart shared into Slack. Read it BEFORE writing the first line of chart code, choosing chart colors, building a stat tile / meter / KPI row, or laying out a dashboard. When the destination is a first-party document connector (host-designated, never self-described) that renders live charts, hand it the rows (inline, or as an uploaded data file the chart cites) rather than a rendered PNG/SVG — a picture of a chart loses hover, data inspection and per-value comments. Produces visualizations that read as one system — elegant, accessible, consistent in light and dark — using a brand-neutral placeholder palette you swap for your own. Teaches a design-system-agnostic method: a form heuristic, a color formula with a runnable validator, mark specs, and interaction rules. A validated default palette is documented in `references/palette.md` — swap that file's values for your brand's. Triggers on: \"chart\", \"graph\", \"plot\", \"data viz\", \"visualization\", \"dashboard\", \"analytics\", \"visualize data\", \"categorical colors\", \"sequential / diverging palette\", \"stat tile\", \"sparkline\", \"heatmap\", \"legend\", \"axis\", \"tooltip\", \"chart colors\", \"color by series\"."),
    ("update-config", "Use this skill to configure the Claude Code harness via settings.json. Automated behaviors (\"from now on when X\", \"each time X\", \"whenever X\", \"before/after X\") require hooks configured in settings.json - the harness executes these, not Claude, so memory/preferences cannot fulfill them. Also use for: permissions (\"allow X\", \"add permission\", \"move permission to\"), env vars (\"set X=Y\"), hook troubleshooting, or any changes to settings.json/settings.local.json files. Examples: \"allow npm commands\", \"add bq permission to global settings\", \"move permission to user settings\", \"set DEBUG=true\", \"when claude stops show X\". For simple settings like theme/model, suggest the /config command."),
    ("keybindings-help", "Use when the user wants to customize keyboard shortcuts, rebind keys, add chord bindings, or modify ~/.claude/keybindings.json. Examples: \"rebind ctrl+s\", \"add a chord shortcut\", \"change the submit key\", \"customize keybindings\"."),
    ("code-review", "Review the current diff, or a PR number/branch/path target, for correctness bugs (plus broken CLAUDE.md rules and cleanups where the model's recipe covers them; see /simplify) at the effort level given first, before any target (low|medium|high|xhigh|max: from few high-confidence findings to many, some uncertain); with no level given, it reuses the level you typed last. Pass --comment to post findings as inline PR comments, or --fix to apply them to the working tree after the review. Pass --max-findings <n> to report up to n findings, or --max-findings all for every finding. The choice stays until you pass --max-findings default. - Use the max level only when the user, or instructions such as CLAUDE.md or a skill, explicitly ask for it, never on your own judgment: it is the costliest level and starts many reviewer subagents."),
    ("simplify", "Review the changed code for reuse, simplification, efficiency, and altitude cleanups, then apply the fixes. Quality only — it does not hunt for bugs; use /code-review for that."),
    ("fewer-permission-prompts", "Scan your transcripts for common read-only Bash and MCP tool calls, then add a prioritized allowlist to project .claude/settings.json to reduce permission prompts."),
    ("loop", "Run a prompt or slash command on a recurring interval (e.g. /loop 5m /foo). Omit the interval to let the model self-pace. - When the user wants to set up a recurring task, poll for status, or run something repeatedly on an interval (e.g. \"check the deploy every 5 minutes\", \"keep running /babysit-prs\"). Do NOT invoke for one-off tasks."),
    ("claude-api", "Reference for the Claude API / Anthropic SDK — model ids, pricing, params, streaming, tool use, MCP, agents, caching, token counting, model migration.\nTRIGGER — read FIRST, before you answer, run a command or open a file (already started? read it now); don't skip because it \"looks like a one-liner\" — whenever: the prompt names Claude/Anthropic in any form (Claude, Anthropic, Fable, Opus, Sonnet, Haiku, `anthropic`, `@anthropic-ai`, `claude-*`, `us.anthropic.*`, `[1m]`); the user asks about an LLM (pricing/model choice/limits/caching) — never answer from memory; OR the task is LLM-shaped with provider unstated (agent/MCP/tool-definition/multi-agent/RAG/LLM-judge/computer-use; generate/summarize/extract/classify/rewrite/converse over NL; debugging refusals/cutoffs/streaming/tool-calls/tokens).\nSKIP only when another provider is being worked on (overrides all triggers): OpenAI/GPT/Gemini/Llama/Mistral/Cohere/Ollama named in the query; OR `grep -rE 'openai|langchain_openai|google.generativeai|genai|mistralai|cohere|ollama'` over the project hits (run this grep FIRST if no provider named — don't Read the file; if nothing hits, load this skill)."),
    ("workflow-authoring", "Reference for writing a Workflow tool script (script API and gotchas, resume, quality patterns, worked examples). Load before authoring a script for a workflow the user already opted into; it does not itself authorize running one."),
    ("run", "Launch and drive this project's app to see a change working. Use when asked to run, start, or screenshot the app, or to confirm a change works in the real app (not just tests). First looks for a project skill that already covers launching the app; otherwise falls back to built-in patterns per project type (CLI, server, TUI, Electron, browser-driven, library)."),
];

/// The built-in commands Claude Code 2.1.332 lists as skills after `plugin-authoring`, bundled
/// skills too (`disableBundledSkills` leaves them out).
pub const BUNDLED_COMMANDS: &[(&str, &str)] = &[
    ("init", "Initialize a new CLAUDE.md file with codebase documentation"),
    ("security-review", "Complete a security review of the pending changes on the current branch"),
];
