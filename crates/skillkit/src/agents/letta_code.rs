//! Letta Code 0.32.18 (`@letta-ai/letta-code`, `letta.js`, a readable JavaScript bundle) with its
//! experimental **local backend** (`--backend local`, `LETTA_LOCAL_BACKEND_EXPERIMENTAL=1`): the
//! `<available_skills>` block it appends to its system prompt and its `Skill` tool, captured from
//! the real program against a local mock model on the trees in `tests/fixtures/prompt-trees`
//! (goldens in `tests/fixtures/prompt-goldens/letta-code-0.32.18`, script
//! `tests/oracles/capture_letta_code.sh`), with the loader read in the bundle
//! (`src/agent/skills.ts`: `discoverSkills`, `findSkillFiles`, `parseSkillFile`;
//! `src/utils/frontmatter.ts`: `parseFrontmatter`; `src/agent/client-skills.ts`;
//! `src/backend/local/system-prompt-compilation.ts`: `compileAvailableSkillsBlock`;
//! `src/tools/impl/skill.ts`). With the default Cloud backend the prompt is assembled on a Letta
//! server and is not reproduced here (the CLI sends it the skills as `client_skills`).
//!
//! - Locations and precedence: the bundled skills ([`BUNDLED`]: 20 for a local agent, on by
//!   default, left out with `--no-bundled-skills`, our `noBundledSkills=true`, as every golden but
//!   the `*-bundled` ones was captured; sorted in among the library's by id, captured on
//!   `minimal-bundled`) < the global `~/.letta/skills` < the agent's
//!   `~/.letta/agents/{id}/memory/skills` < the legacy project folder `<cwd>/.skills` (or
//!   `--skills DIR`) < the project's `<cwd>/.agents/skills`: a later folder's skill replaces an
//!   earlier one of the same id, silently (captures `override`, `letta-dup`; a library skill
//!   named as a bundled one replaces it from the project and from the global folder alike,
//!   `bundled-names-bundled`, `bundled-names-user-bundled`). With `--source`
//!   (lowest priority first, as for every profile) the later source wins.
//! - Discovery: **recursive**, every folder (hidden ones too; symlinks followed, each real folder
//!   once) and into skill folders, every file whose name is `SKILL.md` in any case
//!   (`letta-nested`, on `tests/fixtures/letta-discovery`: `outer/inner`, `group/deep/leaf`,
//!   `lower/skill.md`, `.hidden`). skillkit
//!   finds `SKILL.md` and `skill.md` (not other spellings) and, like every profile, skips `.git`
//!   and `node_modules`. Two files of one id in one location: the one found **last** wins, and
//!   the walk is deterministic: Node's `readdir` (libuv's scandir) sorts each folder's names in
//!   byte order, and the walk goes depth first (`same-name`: `dup`, `dup-x`, `dup_y` → `dup_y`).
//! - Reading ([`parse_frontmatter`]): not YAML but a line parser. CRLF/CR become LF, a leading BOM
//!   is dropped; the frontmatter is the text between `---\n` and the first `\n---` followed by a
//!   newline or the end (none → no frontmatter: the whole file is the body). Each unindented
//!   `key: value` line sets `key` (the later wins); `|`/`>` with an optional `+`/`-` starts a
//!   block scalar (the indented and blank lines after it); a key with no value collects the
//!   `- item` lines indented by at most two spaces after it (a list; none → `""`); every other
//!   indented line is ignored (a plain value continued on the next line keeps its first line
//!   only). String fields are trimmed and lose one pair of surrounding quotes (escapes are kept
//!   as written). Nothing is ever rejected and nothing is printed about a skill.
//! - Id and description ([`read`]): the id is `id` ∥ `name` ∥ the folder path relative to the
//!   location (`group/deep/leaf`); no name rules (spaces, capitals, ids that differ from the
//!   folder). The description is `description`, else the body's first paragraph (the text up to
//!   the first blank line), else `No description available`; `when_to_use` is appended as
//!   `\n\nWhen to use: …`. `disable-model-invocation: true` (any case, quoted or not) keeps the
//!   skill out of the listing; the tool then refuses it.
//! - Text ([`render`]): `<available_skills>\n`, one line per listed skill, sorted by id with
//!   `localeCompare` (ICU root collation, [`sort_as_claude_code`]):
//!   ``- `ID`: FIRST LINE`` where FIRST LINE is the description trimmed, up to its first `\n`
//!   (no `: ` when that is empty), then `</available_skills>`; no escaping, no budget. With no
//!   listed skill there is no block.
//! - Placement: the very end of the system message (`messages[0]`): the prompt `trimEnd()`ed, a
//!   blank line, the block.
//! - Tool: `Skill` (`{"skill": string}`, a fixed description, [`skill_tool`]), offered whether or
//!   not skills exist. A call answers `Launching skill: ID` and queues a new user message
//!   `<skill_content name="ID">` holding the raw `SKILL.md` (frontmatter included, `<SKILL_DIR>`
//!   and `${CLAUDE_SKILL_DIR}` replaced by the folder), the skill directory and up to 200 of the
//!   folder's files ([`activate`]). An unknown id and a `disable-model-invocation` skill answer
//!   with an error text as the tool result. Sessions ([`session_step`]) do the same; user slash
//!   commands are not modelled.
//!
//! Verdict parity (`tests/oracles/capture_verdicts.sh`, `AGENTS=letta-code`, on `../shared/corpus`,
//! 1,168 skills; the real ids mapped to folders through Letta's debug log): Letta lists 1,167
//! (22 with a description other than the frontmatter's: only its first line, or the parser's
//! reading); `prompt --agent letta-code` agrees on all 1,168 and in listing order; `check` on
//! 1,167 (the one left is a second folder with the same id in one tree, judged alone by `check`).
//!
//! Over 600 lines for one job: one module per agent profile (CONTRIBUTING.md), so the discovery,
//! reading, listing text, budget and activation of one program, and the release they reproduce, are
//! reviewed together against that program's captures.

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::agents::claude_code::sort_as_claude_code;
use crate::agents::compat::js::{is_js_space, js_trim};
use crate::library::discover::{Depth, DiscoveryPolicy};
use crate::library::{Entry, Library, NameKey};
use crate::prompt::{
    self, folder_name, Builder, Decision, Format, Placement, Prompt, PromptSkill, RenderInput, ToolDef,
};
use crate::skill::FileProblem;
use std::collections::HashMap;
use std::path::Path;

pub static AGENT: Agent = Agent {
    id: "letta-code",
    title: "Letta Code",
    kind: AgentKind::Agent,
    label: "Letta Code 0.32 (local)",
    source: "Letta Code 0.32.18 (@letta-ai/letta-code, local backend, real program, captured 2026-11-28)",
    lint: LintProfile::DEFAULT,
    discovery: DISCOVERY,
    key: NameKey::Frontmatter,
    prompt: Some(render),
    read: Some(read_all),
    activation: Some(ACTIVATION),
    installs: &[],
};

/// Every `SKILL.md` below a location: recursive, hidden folders and skill folders included.
pub const DISCOVERY: DiscoveryPolicy = DiscoveryPolicy {
    depth: Depth::Recursive { max_depth: 64, max_dirs: 100_000 },
    include_hidden: true,
    root_is_skill: false,
    nested: true,
};

/// The local backend's model is the user's; 128k as a common window.
pub const DEFAULT_CONTEXT_WINDOW: u64 = 128_000;

const FORMAT: Format = Format {
    agent: "letta-code",
    source: AGENT.source,
    placement: Placement::SystemPrompt,
    placement_detail: "the very end of the system message (messages[0]): the prompt trimEnd()ed, a blank line, then the block (local backend; the Cloud backend builds its prompt on the server)",
    default_context_window: DEFAULT_CONTEXT_WINDOW,
    estimate: true,
};

pub const TOOL_NAME: &str = "Skill";
const HEAD: &str = "<available_skills>\n";
const TAIL: &str = "\n</available_skills>";
/// The description of a skill with neither a description nor a body.
pub const NO_DESCRIPTION: &str = "No description available";
/// Files an activation lists at most.
pub const MAX_RESOURCES: usize = 200;
const TOOL_DESCRIPTION: &str = "# Skill\n\nExecute a skill within the main conversation\n\nWhen users ask you to perform tasks, check if any of the available skills match. Skills provide specialized capabilities and domain knowledge.\n\nWhen users reference a \"slash command\" or \"/<something>\" (e.g., \"/commit\", \"/review-pr\"), they are referring to a skill. Use this tool to invoke it.\n\nHow to invoke:\n- Use this tool with only the skill name\n- Examples:\n  - `skill: \"pdf\"` - invoke the pdf skill\n  - `skill: \"commit\"` - invoke the commit skill\n  - `skill: \"review-pr\"` - invoke the review-pr skill\n  - `skill: \"ms-office-suite:pdf\"` - invoke using fully qualified name\n\nImportant:\n- Available skills are included in your current prompt context in the conversation\n- When a skill matches the user's request, this is a BLOCKING REQUIREMENT: invoke the relevant Skill tool BEFORE generating any other response about the task\n- NEVER mention a skill without actually calling this tool\n- Do not invoke a skill that is already running\n- Do not use this tool for built-in CLI commands (like /help, /clear, etc.)\n- If you see a <command-name> tag in the current conversation turn, the skill has ALREADY been loaded - follow the instructions directly instead of calling this tool again";

/// A frontmatter value as Letta's parser leaves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Str(String),
    List(Vec<String>),
}

/// `parseFrontmatter`'s result: the keys (a later one replaces an earlier one) and the body
/// (trimmed when there is frontmatter, the whole normalised text when not).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frontmatter {
    pub fields: HashMap<String, Value>,
    pub body: String,
}

impl Frontmatter {
    /// `getFrontmatterString`: a string value, trimmed, without one pair of surrounding quotes.
    pub fn string(&self, key: &str) -> Option<String> {
        match self.fields.get(key)? {
            Value::Str(s) => Some(strip_surrounding_quotes(s).to_string()),
            Value::List(_) => None,
        }
    }
}

/// `stripSurroundingQuotes`.
pub fn strip_surrounding_quotes(value: &str) -> &str {
    let t = js_trim(value);
    if t.len() >= 2 && ((t.starts_with('"') && t.ends_with('"')) || (t.starts_with('\'') && t.ends_with('\''))) {
        return &t[1..t.len() - 1];
    }
    if t == "\"" || t == "'" {
        return "";
    }
    t
}

fn trim_start_js(s: &str) -> &str {
    s.trim_start_matches(is_js_space)
}

/// Leading white space, in characters (JavaScript's white space is all in the BMP).
fn indentation(line: &str) -> usize {
    line.chars().count() - trim_start_js(line).chars().count()
}

/// `parseBlockScalar`.
fn block_scalar(lines: &[&str], style: char, chomping: &str) -> String {
    let indent = lines.iter().filter(|l| !js_trim(l).is_empty()).map(|l| indentation(l)).min();
    let deindented: Vec<String> = lines
        .iter()
        .map(|l| match indent {
            Some(n) if !js_trim(l).is_empty() => l.chars().skip(n).collect(),
            _ => String::new(),
        })
        .collect();
    let mut value;
    if style == '|' {
        value = deindented.join("\n");
    } else {
        let mut pending = 0usize;
        value = String::new();
        for line in &deindented {
            if line.is_empty() {
                pending += 1;
                continue;
            }
            if !value.is_empty() {
                if pending > 0 {
                    value.push_str(&"\n".repeat(pending));
                } else {
                    value.push(' ');
                }
            } else if pending > 0 {
                value.push_str(&"\n".repeat(pending));
            }
            value.push_str(line);
            pending = 0;
        }
        value.push_str(&"\n".repeat(pending));
    }
    if chomping == "+" {
        return value + "\n";
    }
    let stripped = value.trim_end_matches('\n');
    if chomping == "-" {
        stripped.to_string()
    } else {
        format!("{stripped}\n")
    }
}

/// Where the frontmatter of a normalised text ends: `^---\n([\s\S]*?)\n---(?:\n([\s\S]*))?$`,
/// as (frontmatter, body) or `None`.
fn split(normalized: &str) -> Option<(&str, Option<&str>)> {
    let rest = normalized.strip_prefix("---\n")?;
    let mut from = 0;
    while let Some(k) = rest[from..].find("\n---") {
        let at = from + k;
        let after = &rest[at + 4..];
        if after.is_empty() {
            return Some((&rest[..at], None));
        }
        if let Some(body) = after.strip_prefix('\n') {
            return Some((&rest[..at], Some(body)));
        }
        from = at + 1;
    }
    None
}

/// Letta Code's `parseFrontmatter` (`src/utils/frontmatter.ts`).
pub fn parse_frontmatter(content: &str) -> Frontmatter {
    let content = content.strip_prefix('\u{FEFF}').unwrap_or(content);
    let normalized = content.replace("\r\n", "\n").replace('\r', "\n");
    let Some((fm, body)) = split(&normalized) else {
        return Frontmatter { fields: HashMap::new(), body: normalized.clone() };
    };
    let mut fields: HashMap<String, Value> = HashMap::new();
    let lines: Vec<&str> = fm.split('\n').collect();
    let mut current: Option<String> = None;
    let mut items: Vec<String> = vec![];
    let save = |fields: &mut HashMap<String, Value>, current: &mut Option<String>, items: &mut Vec<String>| {
        if let Some(k) = current.take() {
            let v = if items.is_empty() { Value::Str(String::new()) } else { Value::List(std::mem::take(items)) };
            fields.insert(k, v);
        }
        items.clear();
    };
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = js_trim(line);
        let indent = indentation(line);
        if indent > 0 {
            if indent <= 2 && trimmed.starts_with('-') && current.is_some() {
                items.push(js_trim(&trimmed[1..]).to_string());
            }
            i += 1;
            continue;
        }
        save(&mut fields, &mut current, &mut items);
        if let Some(colon) = line.find(':').filter(|&c| c > 0) {
            let key = js_trim(&line[..colon]).to_string();
            let value = js_trim(&line[colon + 1..]);
            let block = {
                let mut cs = value.chars();
                match (cs.next(), cs.next(), cs.next()) {
                    (Some(s @ ('|' | '>')), None, _) => Some((s, "")),
                    (Some(s @ ('|' | '>')), Some(c @ ('+' | '-')), None) => Some((s, if c == '+' { "+" } else { "-" })),
                    _ => None,
                }
            };
            if let Some((style, chomping)) = block {
                let mut j = i + 1;
                while j < lines.len() {
                    let l = lines[j];
                    if !js_trim(l).is_empty() && l == trim_start_js(l) {
                        break;
                    }
                    j += 1;
                }
                fields.insert(key, Value::Str(block_scalar(&lines[i + 1..j], style, chomping)));
                i = j;
                continue;
            }
            if !value.is_empty() {
                fields.insert(key, Value::Str(value.to_string()));
            } else {
                current = Some(key);
                items.clear();
            }
        }
        i += 1;
    }
    save(&mut fields, &mut current, &mut items);
    Frontmatter { fields, body: js_trim(body.unwrap_or("")).to_string() }
}

/// Letta Code 0.32.18's bundled skills as it lists them for a local agent (`minimal-bundled`):
/// id and the listed line (the description's first line).
pub const BUNDLED: &[(&str, &str)] = &[
    ("acquiring-skills", "Discover and install skills from Hermes, ClawHub, GitHub, and other registries. Load this skill whenever a user asks for a capability you don't already have — image generation, social media, email, calendar, finance, DevOps, search, browser automation, etc."),
    ("browser-use", "Control a real browser to navigate pages, click, type, fill forms, inspect rendered UI, take screenshots, or record video. Load only when the user asks to open or automate a browser, interact with or test rendered page UI, scrape a site that needs browser execution, or capture a browser screenshot or video. Do not load for backend logs, traces, API or stream events, source-code inspection, or plain HTTP or web research that does not require a browser."),
    ("context-doctor", "Investigate agent behavior and audit memory structure, organization, and skills; make evidence-backed repairs."),
    ("creating-mods", "Creates and edits trusted local Letta Code mods, including tools, slash commands, local-only model providers, lifecycle/turn events, scoped conversation helpers, panels, and capability-gated behavior. Use when asked to make a mod, add an agent-callable tool, add a slash command, add a local provider/model adapter, transform turns, react to app events, or add lightweight mod UI outside the dedicated /statusline flow."),
    ("creating-skills", "Guide for creating effective skills. This skill should be used when users want to create a new skill (or update an existing skill) that extends Letta Code's capabilities with specialized knowledge, workflows, or tool integrations."),
    ("customizing-commands", "Creates, edits, and enables Letta Code mod-provided slash commands. Use when the user asks to add a custom /command, slash command, command shortcut, scoped conversation-backed command, or command-driven panel behavior."),
    ("customizing-statusline", "Creates, edits, and migrates Letta Code statusline mods. Use when handling the /statusline command or continuing work started by /statusline."),
    ("dispatching-coding-agents", "Dispatch stateless coding agents through Claude Code or Codex. Model catalog checked 2026-08-25: Claude Code includes Sonnet 5, Opus 5, and Fable 5; Codex includes GPT-5.6 Luna, Terra, and Sol. Use when you're stuck, need a second opinion, or need parallel research on a hard problem. They have no memory, so you must provide all context."),
    ("editing-letta-code-desktop-preferences", "Edits Letta Code Desktop (LCD) preferences by safely reading and updating ~/.letta/desktop_preferences.json. Use only when the user asks to change current Desktop/LCD settings such as theme, default working directory, remote access preference, or remote environment name via the preferences JSON."),
    ("finding-agents", "Find other agents on the same server. Use when the user asks about other agents, wants to migrate memory from another agent, or needs to find an agent by name or tags."),
    ("initializing-memory", "Comprehensive guide for initializing or reorganizing agent memory. Load this skill when running /init, when the user asks you to set up your memory, or when you need guidance on creating effective memory files."),
    ("letta-guide", "Read the official Letta documentation (docs.letta.com) through its cached, ETag-checked fetch route. Load before ANY docs.letta.com retrieval — answering how Letta works, what Letta (or you) can do, and looking up Letta API, Agent SDK, or Letta Code reference."),
    ("messaging-agents", "Send a message to another Letta agent, continue a thread with one, check on it, or reply to a message another agent sent you. Use when you need to ask, inform, or coordinate with another agent, or when a message from another agent arrives."),
    ("migrating-memory", "Migrate memory blocks from an existing agent to the current agent. Use when the user wants to copy or share memory from another agent, or during /init when setting up a new agent that should inherit memory from an existing one."),
    ("scheduling-tasks", "Schedules reminders and recurring tasks via the letta cron CLI. Use when the user asks to be reminded of something, wants periodic work or check-ins, or needs to list, inspect, replace, or cancel scheduled tasks."),
    ("self-configuration", "Inspect or modify Letta Code's own memory, model, context window, system prompt, compaction, permissions, toolsets, mods, skills, channels, schedules, agent secrets, and local runtime settings. Use when the user asks how this agent or conversation is configured, asks about account usage, remaining credits, or model quota, asks you to change how you behave or how the harness runs you, or renames you."),
    ("submitting-feedback", "Submits user-approved product feedback and bug reports about Letta Code to the Letta team. Load when the user reports a Letta Code bug, requests a product or developer change, or explicitly asks to send feedback. Do not load for corrections to the current agent's behavior or preferences; those are memory edits. Works with cloud-hosted and local agents. Ask before submitting unless the user already explicitly requested submission."),
    ("syncing-memory-filesystem", "Diagnose and repair MemFS repository setup, remote sync, authentication failures, optional backup remotes, or merge/rebase conflicts. Do not load for routine memory reads or edits."),
    ("using-mcp-tools", "Reference for the `letta mcp` CLI, which finds and invokes MCP tools available to this agent. A system reminder already lists your connected MCP servers and the basic search/schema/call commands; invoke this skill when you need more — browsing a server's tools, passing large or file-based arguments, tuning search, or troubleshooting missing servers, tools, and errors."),
    ("workflow-authoring", "Reference for writing a Workflow tool script (script API and gotchas, pipeline-vs-barrier rules, quality patterns, worked examples). Load before authoring a script for a workflow the user already opted into; it does not itself authorize running one."),
];

/// Whether the bundled skills are on (no `noBundledSkills=true`, Letta's `--no-bundled-skills`).
pub fn bundled_on(settings: &crate::agent_settings::AgentSettings) -> bool {
    settings.flag(crate::agent_settings::NO_BUNDLED) != Some(true)
}

/// A skill as Letta Code keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// What it is listed and called by.
    pub id: String,
    /// The model description (with `When to use:` appended), trimmed.
    pub description: String,
    /// `disable-model-invocation: true`: loaded, never listed, refused by the tool.
    pub hidden: bool,
    /// The `SKILL.md` path as Letta finds it (the location joined with the relative path).
    pub path: String,
    /// Index into [`Library::entries`].
    pub entry: usize,
}

/// The entry's folder relative to its source, `/`-separated (Letta's default id).
fn relative_dir(lib: &Library, e: &Entry) -> String {
    let root = &lib.sources[e.source].path;
    let rel = e.listed_as.strip_prefix(root).unwrap_or(&e.listed_as);
    let s = prompt::path_string(rel);
    if s.is_empty() {
        "root".into()
    } else {
        s
    }
}

/// The `SKILL.md` path Letta prints and reads.
pub fn location(e: &Entry) -> String {
    prompt::path_string(&prompt::absolute(&e.listed_as).join(&e.skill.file_name))
}

/// `parseSkillFile` on the text of a skill file: (id, model description, hidden).
pub fn describe(text: &str, default_id: &str) -> (String, String, bool) {
    let fm = parse_frontmatter(text);
    let nonempty = |k: &str| fm.string(k).filter(|s| !s.is_empty());
    let id = nonempty("id").or_else(|| nonempty("name")).unwrap_or_else(|| default_id.to_string());
    let description = match nonempty("description") {
        Some(d) => d,
        None => {
            let body = js_trim(&fm.body);
            let para = body.split("\n\n").next().unwrap_or("");
            if para.is_empty() {
                NO_DESCRIPTION.to_string()
            } else {
                para.to_string()
            }
        }
    };
    let description = js_trim(&description).to_string();
    let description = match fm.string("when_to_use").map(|w| js_trim(&w).to_string()).filter(|w| !w.is_empty()) {
        Some(w) => format!("{description}\n\nWhen to use: {w}"),
        None => description,
    };
    let hidden = fm.string("disable-model-invocation").is_some_and(|v| v.to_lowercase() == "true");
    (id, description, hidden)
}

/// Reads one skill as Letta Code does: `Err(reason)` only when the file cannot be read.
pub fn read(lib: &Library, e: &Entry, index: usize) -> Result<Loaded, String> {
    let skill = &e.skill;
    for p in &skill.file_problems {
        match p {
            FileProblem::Unreadable { error } => return Err(format!("cannot be read ({error}): skipped")),
            FileProblem::TooLarge { size } => {
                return Err(format!("not read by skillkit: {size} bytes, over its 10 MiB limit"))
            }
            FileProblem::Missing | FileProblem::NotAFile { .. } => return Err("no skill file".into()),
            FileProblem::InvalidUtf8 { .. } | FileProblem::Binary { .. } => {}
        }
    }
    let (id, description, hidden) = describe(&skill.text, &relative_dir(lib, e));
    Ok(Loaded { id, description, hidden, path: location(e), entry: index })
}

/// What Letta loaded: one skill per id (hidden ones included, flagged) in listing order, and
/// the ones it skipped or replaced.
#[derive(Clone, Debug, Default)]
pub struct Loading {
    pub skills: Vec<Loaded>,
    pub rejected: Vec<PromptSkill>,
}

fn record(lib: &Library, i: usize, name: &str) -> PromptSkill {
    let e = &lib.entries[i];
    prompt::skill(name, folder_name(e), location(e), Some(e.source)).of(e)
}

/// Loads `lib` as Letta Code does: sources in order, each in its walk order, a later skill
/// replacing an earlier one of the same id; then sorted by id (`localeCompare`).
pub fn load(lib: &Library) -> Loading {
    let mut out = Loading::default();
    let mut slots: HashMap<String, usize> = HashMap::new();
    let mut winners: Vec<Loaded> = vec![];
    for si in 0..lib.sources.len() {
        let mut found: Vec<(usize, Loaded)> = vec![];
        for (i, e) in lib.entries.iter().enumerate().filter(|(_, e)| e.source == si) {
            let reading = e.reading("letta-code", "", |e| read(lib, e, i));
            match reading.as_ref() {
                Err(reason) => {
                    out.rejected.push(record(lib, i, e.skill.display_name()).decided(Decision::Invalid, reason.clone()))
                }
                Ok(l) => found.push((i, Loaded { entry: i, ..l.clone() })),
            }
        }
        // Node's `readdir` (libuv's scandir) sorts each folder's names in byte order and the walk
        // goes depth first: the order of the paths compared component by component.
        found.sort_by(|a, b| {
            let path = |i: usize| lib.entries[i].listed_as.join(&lib.entries[i].skill.file_name);
            path(a.0).cmp(&path(b.0))
        });
        for (_, l) in found {
            match slots.get(&l.id).copied() {
                Some(k) => {
                    let old = std::mem::replace(&mut winners[k], l);
                    let new = &winners[k];
                    let why = if lib.entries[old.entry].source == si {
                        format!(
                            "`{}` at {} has the same id and comes later in Letta's walk (names in byte order, depth first), which wins",
                            new.id, new.path
                        )
                    } else {
                        format!("`{}` at {} has the same id in a later location, which wins", new.id, new.path)
                    };
                    out.rejected.push(record(lib, old.entry, &old.id).decided(Decision::Shadowed, why));
                }
                None => {
                    slots.insert(l.id.clone(), winners.len());
                    winners.push(l);
                }
            }
        }
    }
    sort_as_claude_code(&mut winners, |s| s.id.clone());
    out.skills = winners;
    out
}

/// One listing line (without its newline): ``- `ID`: FIRST LINE``.
pub fn entry_text(id: &str, description: &str) -> String {
    let first = js_trim(description).split('\n').next().unwrap_or("");
    if first.is_empty() {
        format!("- `{id}`")
    } else {
        format!("- `{id}`: {first}")
    }
}

/// The `Skill` tool Letta Code offers (static).
pub fn skill_tool() -> ToolDef {
    ToolDef {
        name: TOOL_NAME.into(),
        description: TOOL_DESCRIPTION.into(),
        parameters: serde_json::json!({
            "type": "object",
            "properties": {"skill": {"type": "string", "description": "The skill name. E.g., \"commit\", \"review-pr\", or \"pdf\""}},
            "required": ["skill"],
            "additionalProperties": false,
            "$schema": "https://json-schema.org/draft/2020-12/schema"
        }),
    }
}

pub fn render(input: &RenderInput<'_>) -> Prompt {
    let lib = input.library;
    let loading = load(lib);
    let mut b = Builder::default();
    // A library skill, or a bundled one (id, line).
    let mut listed: Vec<Result<&Loaded, (&str, &str)>> = loading.skills.iter().filter(|s| !s.hidden).map(Ok).collect();
    if bundled_on(&input.options.settings) {
        for (id, line) in BUNDLED {
            match loading.skills.iter().find(|s| s.id == *id) {
                Some(s) => b.absent(prompt::skill(*id, "", "", None).decided(
                    Decision::Shadowed,
                    format!(
                        "Letta Code's bundled `{id}` gives way to the library's `{}` at {} (bundled skills come first and any later location replaces them, silently)",
                        s.id, s.path
                    ),
                )),
                None => listed.push(Err((id, line))),
            }
        }
        sort_as_claude_code(&mut listed, |i| match i {
            Ok(s) => s.id.clone(),
            Err((id, _)) => id.to_string(),
        });
    }
    if !listed.is_empty() {
        b.push(HEAD);
        for (n, s) in listed.iter().enumerate() {
            if n > 0 {
                b.push("\n");
            }
            let s = match s {
                Ok(s) => s,
                Err((id, line)) => {
                    let rec = prompt::skill(*id, "", "", None).decided(
                        Decision::Full,
                        "one of Letta Code's bundled skills: `--no-bundled-skills` (noBundledSkills=true) leaves them out",
                    );
                    b.entry(rec, |t| t.push_str(&entry_text(id, line)));
                    continue;
                }
            };
            let mut rec = record(lib, s.entry, &s.id);
            if js_trim(&s.description).contains('\n') {
                rec = rec.decided(Decision::Truncated, "only the first line of the description is listed");
            }
            b.entry(rec, |t| t.push_str(&entry_text(&s.id, &s.description)));
        }
        b.push(TAIL);
    }
    for s in loading.skills.iter().filter(|s| s.hidden) {
        b.absent(record(lib, s.entry, &s.id).decided(
            Decision::Hidden,
            "`disable-model-invocation: true`: loaded but not listed, and the `Skill` tool refuses it",
        ));
    }
    for r in loading.rejected {
        b.absent(r);
    }
    prompt::finish(&FORMAT, input.options, b, None, vec![skill_tool()])
}

/// `escapeXmlText`: `&`, `<`, `>`.
fn escape_text(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// `listSkillResources`: the skill folder's files (not `SKILL.md`/`ROOT_MEMORY.md` at its top),
/// relative, each folder's entries sorted with `localeCompare`, depth first, symlinks not
/// followed; at most [`MAX_RESOURCES`], then `truncated`.
pub fn resources(dir: &Path) -> (Vec<String>, bool) {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) -> bool {
        let Ok(rd) = std::fs::read_dir(dir) else { return false };
        let mut entries: Vec<(String, std::fs::FileType)> = rd
            .flatten()
            .filter_map(|e| Some((e.file_name().to_string_lossy().into_owned(), e.file_type().ok()?)))
            .collect();
        sort_as_claude_code(&mut entries, |e| e.0.clone());
        for (name, ft) in entries {
            let path = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
            let upper = path.to_uppercase();
            if upper == "SKILL.MD" || upper == "ROOT_MEMORY.MD" {
                continue;
            }
            if out.len() >= MAX_RESOURCES {
                return true;
            }
            if ft.is_dir() {
                if walk(&dir.join(&name), &path, out) {
                    return true;
                }
            } else if ft.is_file() {
                out.push(path);
            }
        }
        false
    }
    let mut out = vec![];
    let truncated = walk(dir, "", &mut out);
    (out, truncated)
}

/// The `Skill` tool's answer for `name`: `Ok((tool result, the user message queued after it))`,
/// or `Err(tool result)` (an unknown id, a `disable-model-invocation` skill).
pub fn activate(lib: &Library, name: &str) -> Result<(String, String), String> {
    activate_with(lib, name, true)
}

/// [`activate`], with the bundled skills on or off. A bundled skill's content is not reproduced:
/// its message says so.
pub fn activate_with(lib: &Library, name: &str, bundled: bool) -> Result<(String, String), String> {
    let loading = load(lib);
    if bundled && !loading.skills.iter().any(|s| s.id == name) && BUNDLED.iter().any(|(id, _)| *id == name) {
        return Ok((
            format!("Launching skill: {name}"),
            format!("(Letta Code's bundled skill `{name}`: its content is not reproduced by skillkit)"),
        ));
    }
    let Some(s) = loading.skills.iter().find(|s| s.id == name) else {
        return Err(format!(
            "Skill \"{name}\" not found. Check that the skill name is correct and that it appears in the available skills list."
        ));
    };
    if s.hidden {
        return Err(format!(
            "Skill \"{name}\" is marked disable-model-invocation and can only be invoked directly by the user."
        ));
    }
    let e = &lib.entries[s.entry];
    let dir = Path::new(&s.path).parent().map(prompt::path_string).unwrap_or_default();
    let text = e.skill.text.replace("<SKILL_DIR>", &dir).replace("${CLAUDE_SKILL_DIR}", &dir);
    let (files, truncated) = resources(&prompt::absolute(&e.listed_as));
    let mut lines: Vec<String> = files.iter().map(|f| format!("  <file>{}</file>", escape_text(f))).collect();
    if truncated {
        lines.push("  <truncated>true</truncated>".into());
    }
    let section = if lines.is_empty() {
        String::new()
    } else {
        format!("\n\n<skill_resources>\n{}\n</skill_resources>", lines.join("\n"))
    };
    let content = format!(
        "{text}\n\nSkill directory: {dir}\nRelative paths in this skill are relative to the skill directory.{section}"
    );
    Ok((
        format!("Launching skill: {name}"),
        format!("<skill_content name=\"{}\">\n{content}\n</skill_content>", escape_text(name).replace('"', "&quot;")),
    ))
}

/// One session step as Letta Code handles it: the model calls `Skill(skill)`; the tool result,
/// then the `<skill_content>` user message queued after it.
pub fn session_step(s: &mut crate::session::Session, step: &crate::session::Step) -> crate::session::Outcome {
    use crate::session::{Outcome, Step};
    match step {
        Step::Invoke { skill, .. } | Step::Load { skill } => {
            let call = format!("Skill({{\"skill\": \"{skill}\"}})");
            match activate_with(&s.library, skill, bundled_on(&s.agent_settings)) {
                Ok((result, message)) => {
                    if !s.loaded.contains(skill) {
                        s.loaded.push(skill.clone());
                    }
                    Outcome::ok(call, format!("{result}\n\n{message}"))
                        .with_note("the tool result, then a new user message with the skill content")
                }
                Err(text) => Outcome::error(call, text),
            }
        }
        other => crate::session::skill_tool_only(other, "letta-code", "allowed-tools is not modelled for Letta Code"),
    }
}

/// Reads every skill as [`load`] does, remembering each reading ([`Agent::read`]).
pub fn read_all(lib: &Library) {
    load(lib);
}

/// A skill is activated by `Skill` naming it.
pub const ACTIVATION: crate::agent::Activation =
    crate::agents::activation::by_skill_tool!(TOOL_NAME, "skill", "`Skill` with `skill: S`");

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::Str(v.into())
    }

    #[test]
    fn frontmatter_is_read_line_by_line() {
        let fm = parse_frontmatter(
            "---\nname: a\ndescription: Use when: x\n  more\nlist:\n  - one\n  -two\n    - deep\n---\n\nBody.\n\n",
        );
        assert_eq!(fm.fields.get("name"), Some(&s("a")));
        assert_eq!(fm.fields.get("description"), Some(&s("Use when: x")));
        assert_eq!(fm.fields.get("list"), Some(&Value::List(vec!["one".into(), "two".into()])));
        assert_eq!(fm.body, "Body.");
        let none = parse_frontmatter("---\r\nname: a\r\n---x\r\n");
        assert!(none.fields.is_empty());
        assert_eq!(none.body, "---\nname: a\n---x\n");
        assert_eq!(parse_frontmatter("---\nk:\n---").fields.get("k"), Some(&s("")));
    }

    #[test]
    fn block_scalars_fold_and_chomp() {
        let get = |t: &str| parse_frontmatter(t).fields.get("d").cloned();
        assert_eq!(get("---\nd: |\n  a\n   b\n\nx: 1\n---\n"), Some(s("a\n b\n")));
        assert_eq!(get("---\nd: >-\n  a\n  b\n\n  c\n---\n"), Some(s("a b\nc")));
        assert_eq!(get("---\nd: |+\n  a\n\n---\n"), Some(s("a\n\n")));
        assert_eq!(get("---\nd: |2\n  a\n---\n"), Some(s("|2")));
    }

    #[test]
    fn ids_descriptions_and_the_hidden_flag() {
        assert_eq!(describe("---\nid: i\nname: n\n---\n", "f"), ("i".into(), NO_DESCRIPTION.into(), false));
        assert_eq!(describe("# T\n\nx\n", "g/h"), ("g/h".into(), "# T".into(), false));
        assert_eq!(
            describe(
                "---\nname: 'q'\ndescription: \" d \"\nwhen_to_use: w\ndisable-model-invocation: \"True\"\n---\n",
                "f"
            ),
            ("q".into(), "d\n\nWhen to use: w".into(), true)
        );
    }

    #[test]
    fn entries_show_the_first_line() {
        assert_eq!(entry_text("a", "  one  \ntwo"), "- `a`: one  ");
        assert_eq!(entry_text("a", "   "), "- `a`");
        assert_eq!(strip_surrounding_quotes(" \"x\\\"\" "), "x\\\"");
    }
}
