//! Mistral Vibe 3.0.3 (PyPI `mistral-vibe`; the CLI is a Rust binary over a Python app server, the
//! prompt assembled by its vendored Rust core): the `<available-skills>` block near the end of its
//! system prompt and its `skill` tool, captured from the real program (`vibe -p hello --trust`
//! against a local mock model) on the trees in `tests/fixtures/prompt-trees` (goldens in
//! `tests/fixtures/prompt-goldens/mistral-vibe-3.0.3`, script `tests/oracles/capture_mistral_vibe.sh`),
//! with the loader read in `vibe/core/skills/{manager,parser,models}.py`.
//!
//! - Locations (first wins): `skill_paths` from the config, then the project's `.vibe/skills` and
//!   `.agents/skills` (a trusted cwd only; no walking up), then the user's `$VIBE_HOME/skills`
//!   (`~/.vibe/skills`) and `~/.agents/skills`. With `--source` (lowest priority first, as for every
//!   profile) the last source is read first.
//! - Discovery: the direct child folders of each location holding a file `SKILL.md`, in the
//!   folder's `readdir` order (whether hidden folders count was not captured; they are skipped here).
//! - Duplicates: the first skill of a name wins, silently (a debug log line only). A skill named
//!   like one of Vibe's reserved built-ins (`vibe`, `skill-creator`) is never loaded, even when those
//!   are disabled (`kimi-edge/skill-creator`; `anthropics-skills/skill-creator` in the corpus): it is
//!   recorded as invalid, with no message from Vibe.
//! - Reading ([`read`]): the frontmatter is what lies between the first two lines matching
//!   `^-{3,}\s*$` (only white space before the first); none → `Missing or invalid YAML frontmatter
//!   (metadata section must start and end with ---)`; PyYAML `safe_load` (an error → `Invalid YAML
//!   frontmatter: …`, a non-mapping → `YAML frontmatter must be a mapping/dictionary`), then
//!   pydantic's `SkillMetadata`: `name` a string of 1–64 characters matching
//!   `^[a-z0-9]+(-[a-z0-9]+)*$`, `description` a string of 1–1,024 characters, `license` and
//!   `compatibility` strings or null, `metadata` a mapping, `allowed-tools` a string or a list of
//!   strings, `user-invocable` and `disable-model-invocation` booleans. Each failure is printed on
//!   stderr as `PATH: Failed to load: REASON` (pydantic's message: the error count, then per field
//!   its name and message; skillkit writes the first two lines exactly). A name that differs from
//!   the folder only logs a warning. `disable-model-invocation: true` keeps the skill out of the
//!   listing and out of the tool's reach. Not modelled: `agents/openai.yaml` policies.
//! - Text: `<available-skills>\n`, one entry per listed skill in discovery order
//!   (`  <skill>\n    <name>N</name>\n    <description>D</description>\n    <path>P</path>\n  </skill>\n`,
//!   name and description XML-escaped: `&amp; &lt; &gt; &quot; &apos;`; the description as read, a
//!   block scalar keeping its final newline), then the bundled plugin's four `vibe:*` skills (which
//!   no setting removes; paths under `$VIBE_HOME/logs/session/plugins/…`), then
//!   `</available-skills>`. No budget.
//! - Placement: the system prompt (`messages[0]`), after `### Searchable connector groups` and
//!   before `## Available plugins`; the instructions are the `## Available Skills` section earlier
//!   in the prompt ([`SECTION`]).
//! - Tool: `skill` (`{"name": string}`, [`skill_tool`]); a call answers `<skill_content>` with the
//!   body, the base directory and up to ten of the folder's other files ([`activate`]). The error
//!   for a name that is not listed is Vibe's JSON error with a "Did you mean" suggestion, not
//!   reproduced byte for byte.

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::agents::compat::python::{py_len, py_str, py_strip};
use crate::library::discover::{Depth, DiscoveryPolicy};
use crate::library::{Entry, Library, NameKey};
use crate::prompt::{
    self, folder_name, Builder, Decision, Format, Placement, Prompt, PromptSkill, RenderInput, ToolDef,
};
use crate::skill::FileProblem;
use crate::syntax::yaml::{self, Node, NodeKind, ScalarStyle};
use crate::syntax::yaml11::{resolve_yaml11, Typed};
use std::path::Path;

pub static AGENT: Agent = Agent {
    id: "mistral-vibe",
    title: "Mistral Vibe",
    kind: AgentKind::Agent,
    label: "Mistral Vibe 3.0",
    source: "Mistral Vibe 3.0.3 (mistral-vibe on PyPI, real program, captured 2026-11-28)",
    lint: LintProfile::DEFAULT,
    discovery: DISCOVERY,
    key: NameKey::Frontmatter,
    prompt: Some(render),
    read: Some(read_all),
    activation: Some(ACTIVATION),
    installs: &[],
};

/// `<location>/*/SKILL.md`.
pub const DISCOVERY: DiscoveryPolicy =
    DiscoveryPolicy { depth: Depth::Children, include_hidden: false, root_is_skill: false, nested: false };

/// Mistral's large models' window (the captures used a mock).
pub const DEFAULT_CONTEXT_WINDOW: u64 = 128_000;
pub const MAX_NAME_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
/// Names Vibe reserves for its own built-in skills.
pub const RESERVED: [&str; 2] = ["vibe", "skill-creator"];

const FORMAT: Format = Format {
    agent: "mistral-vibe",
    source: AGENT.source,
    placement: Placement::SystemPrompt,
    placement_detail: "the system prompt (messages[0]): <available-skills> after `### Searchable connector groups`, before `## Available plugins`",
    default_context_window: DEFAULT_CONTEXT_WINDOW,
    estimate: true,
};

/// The instructions, earlier in the system prompt.
pub const SECTION: &str = "## Available Skills\n\nSkills contain task-specific instructions. When a request matches a skill description, proactively call the `skill` tool with its exact name before starting the task, then follow the loaded instructions. If that skill's full instructions are already present in the current context, follow them without calling `skill` again. Load every skill that materially applies.\n\nCall `skill` only with a name listed in `<available-skills>`. Connector names and unlisted names in skill instructions are not skills.\n\nDo not read a root `SKILL.md` path with `read_file` after loading a skill. Use `read_file` only for support or reference files mentioned by the loaded skill.";
pub const TOOL_NAME: &str = "skill";
const TOOL_DESCRIPTION: &str = "Load a specialized skill that provides domain-specific instructions and workflows. When a task matches one of the available skills listed in your system prompt, call this tool with the exact skill name to load the full skill instructions. Only listed names are valid. Call exactly with {\"name\":\"<exact name>\"}; no other argument keys are accepted.";
/// The plugin package folder the `vibe:*` skills live in, under `$VIBE_HOME`.
pub const PLUGIN_PACKAGE: &str =
    "logs/session/plugins/packages/5d/5db90f7ef97bd2ddc3355c301916efd78891c91b8aee11dc64e8418e3071d8ea";
/// Files an activation shows at most.
pub const MAX_FILES: usize = 10;
/// The bundled `vibe` plugin's skills, always listed after the library's: name, description as
/// listed (already XML-escaped), folder under the plugin's `skills/`.
pub const PLUGIN_SKILLS: [(&str, &str, &str); 4] = [
    ("vibe:create-plugin", "Create a Vibe plugin package — the Agent Plugins 1.0 format with optional Vibe extensions for skills, MCP servers, hooks, knowledge, agents, libraries, and connectors. Use when the user wants to create, scaffold, or author a plugin for Mistral Vibe.", "create-plugin"),
    ("vibe:skill-creator", "Load this skill before creating, updating, or deleting a Vibe skill, or whenever you plan to add or modify SKILL.md files under a skills directory. It explains Vibe&apos;s SKILL.md frontmatter, discovery order, support files, and the permission flow.", "skill-creator"),
    ("vibe:vibe", "Authoritative reference for Mistral Vibe — the CLI agent you (the model) are running inside.\n\nLOAD when the user:\n- asks anything about Vibe itself, even by indirect name (&quot;this CLI&quot;, &quot;this tool&quot;, &quot;you&quot;);\n- wants to change, inspect, or reset their setup;\n- asks why the agent did or did not act;\n- asks how to make the CLI do X, where X lives, or what a flag/command/setting does;\n- asks any meta question about your own behavior;\n- is unsure whether a command, flag, env var, or file is in scope — this skill is the source of truth.\n\nSCOPE: config under `~/.vibe/` and project-local `.vibe/`; `VIBE_*` and `LOG_*` env vars; models and providers; agents and subagents; skills; tools and their permission model; every slash command and CLI flag; hooks; MCP servers; connectors; plugins; trusted folders; `@`-file mentions; logs; themes; voice.", "vibe"),
    ("vibe:worktree", "Create, reuse, and clean up git worktrees under $VIBE_HOME/worktrees. Use when the user wants to work in an isolated git worktree, create a worktree for a task, or list/remove existing worktrees.", "worktree"),
];

/// `$VIBE_HOME`, else `~/.vibe`.
pub fn vibe_home() -> String {
    if let Some(p) = std::env::var_os("VIBE_HOME").filter(|p| !p.is_empty()) {
        return p.to_string_lossy().trim_end_matches('/').to_string();
    }
    format!("{}/.vibe", std::env::var("HOME").unwrap_or_default().trim_end_matches('/'))
}

/// A skill as Vibe keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub name: String,
    /// As read, not escaped.
    pub description: String,
    /// `disable-model-invocation: true`.
    pub hidden: bool,
    /// The body, stripped.
    pub body: String,
    /// The `SKILL.md` path as found.
    pub path: String,
    /// Index into [`Library::entries`].
    pub entry: usize,
}

fn is_py_space(c: char) -> bool {
    crate::agents::compat::python::is_py_space(c)
}

/// Where `^-{3,}\s*$` (multi-line) matches at line start `at`: the end of the match.
fn boundary_at(text: &str, at: usize) -> Option<usize> {
    let rest = &text[at..];
    let dashes = rest.len() - rest.trim_start_matches('-').len();
    if dashes < 3 {
        return None;
    }
    let after = &rest[dashes..];
    let ws = after.len() - after.trim_start_matches(is_py_space).len();
    // Backtrack from the longest run to a position where `$` holds (end of text or before `\n`).
    let base = at + dashes;
    (0..=ws).rev().map(|k| base + k).find(|&p| p == text.len() || text.as_bytes()[p] == b'\n')
}

/// `parse_skill_markdown`'s split: `(frontmatter text, body)`, or `None` without two boundaries
/// (or with text before the first).
pub fn split(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start_matches('\u{feff}');
    let mut found = vec![];
    let mut at = 0;
    while found.len() < 2 && at <= text.len() {
        let line_start = at == 0 || text.as_bytes()[at - 1] == b'\n';
        if line_start {
            if let Some(end) = boundary_at(text, at) {
                found.push((at, end));
                at = if end > at { end } else { at + 1 };
                continue;
            }
        }
        match text[at..].find('\n') {
            Some(i) => at += i + 1,
            None => break,
        }
    }
    let [(s1, e1), (s2, e2)] = found[..] else { return None };
    if !py_strip(&text[..s1]).is_empty() {
        return None;
    }
    Some((&text[e1..s2], &text[e2..]))
}

/// Python's type name for what PyYAML makes of `node`.
fn py_type(node: &Node) -> &'static str {
    match &node.kind {
        NodeKind::Mapping(_) => "dict",
        NodeKind::Sequence(_) => "list",
        NodeKind::Scalar { value, style } => {
            if *style != ScalarStyle::Plain || node.tag.as_deref().is_some_and(|t| t.ends_with("str")) {
                return "str";
            }
            match resolve_yaml11(value) {
                Typed::Null => "NoneType",
                Typed::Bool => "bool",
                Typed::Int => "int",
                Typed::Float => "float",
                Typed::Timestamp => {
                    if value.len() > 10 {
                        "datetime"
                    } else {
                        "date"
                    }
                }
                Typed::Str => "str",
            }
        }
        _ => "object",
    }
}

fn str_repr(s: &str) -> String {
    crate::agents::compat::python::str_repr(s)
}

/// pydantic's `input_value`: the repr of the value.
fn input_repr(node: &Node) -> String {
    match py_type(node) {
        "str" => str_repr(node.as_str().unwrap_or_default()),
        _ => py_str(node),
    }
}

/// pydantic's lax `bool`.
fn lax_bool(node: &Node) -> Option<bool> {
    match py_type(node) {
        "bool" => Some(py_str(node) == "True"),
        "int" => match py_str(node).as_str() {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        },
        "str" => match node.as_str().unwrap_or_default().to_ascii_lowercase().as_str() {
            "0" | "off" | "f" | "false" | "n" | "no" => Some(false),
            "1" | "on" | "t" | "true" | "y" | "yes" => Some(true),
            _ => None,
        },
        _ => None,
    }
}

/// Reads one skill as Vibe does: `Err(reason)` when it fails to load (stderr's words),
/// `Ok(None)` when Vibe never sees the file.
pub fn read(entry: &Entry, index: usize) -> Result<Option<Loaded>, String> {
    let skill = &entry.skill;
    if skill.file_name != "SKILL.md" {
        return Ok(None);
    }
    for p in &skill.file_problems {
        match p {
            FileProblem::Missing | FileProblem::NotAFile { .. } => return Ok(None),
            FileProblem::Unreadable { error } => return Err(format!("Cannot read file: {error}")),
            FileProblem::TooLarge { size } => {
                return Err(format!("not read by skillkit: {size} bytes, over its 10 MiB limit"))
            }
            FileProblem::InvalidUtf8 { .. } | FileProblem::Binary { .. } => {}
        }
    }
    let Some((fm, body)) = split(&skill.text) else {
        return Err("Missing or invalid YAML frontmatter (metadata section must start and end with ---)".into());
    };
    let y = yaml::parse(fm, 0);
    if let Some(e) = &y.error {
        return Err(format!("Invalid YAML frontmatter: {}", e.message));
    }
    let empty: Vec<yaml::Entry> = vec![];
    let entries: &[yaml::Entry] = match &y.root {
        None => &empty,
        Some(r) if r.kind_name() == "null" => &empty,
        Some(r) => match r.entries() {
            Some(e) => e,
            None => return Err("YAML frontmatter must be a mapping/dictionary".into()),
        },
    };
    let get = |k: &str| entries.iter().rev().find(|e| e.key.as_str() == Some(k)).map(|e| &e.value);
    let dict_repr = || {
        let items: Vec<String> = entries
            .iter()
            .map(|e| format!("{}: {}", str_repr(e.key.as_str().unwrap_or_default()), input_repr(&e.value)))
            .collect();
        format!("{{{}}}", items.join(", "))
    };
    let mut errors: Vec<String> = vec![];
    let mut err = |field: &str, msg: String, ty: &str, input: String| {
        errors.push(format!("{field}\n  {msg} [type={ty}, input_value={input}, input_type="));
    };
    let mut types: Vec<&'static str> = vec![];
    let mut string = |field: &str,
                      min: usize,
                      max: usize,
                      pattern: bool,
                      types: &mut Vec<&'static str>|
     -> Option<String> {
        let Some(n) = get(field) else {
            err(field, "Field required".into(), "missing", dict_repr());
            types.push("dict");
            return None;
        };
        let t = py_type(n);
        if t != "str" {
            err(field, "Input should be a valid string".into(), "string_type", input_repr(n));
            types.push(t);
            return None;
        }
        let v = n.as_str().unwrap_or_default().to_string();
        let len = py_len(&v);
        let unit = |k: usize| if k == 1 { "character" } else { "characters" };
        if len < min {
            err(field, format!("String should have at least {min} {}", unit(min)), "string_too_short", str_repr(&v));
        } else if len > max {
            err(field, format!("String should have at most {max} {}", unit(max)), "string_too_long", str_repr(&v));
        } else if pattern && !valid_name(&v) {
            err(
                field,
                "String should match pattern '^[a-z0-9]+(-[a-z0-9]+)*$'".into(),
                "string_pattern_mismatch",
                str_repr(&v),
            );
        } else {
            return Some(v);
        }
        types.push("str");
        None
    };
    let name = string("name", 1, MAX_NAME_CHARS, true, &mut types);
    let description = string("description", 1, MAX_DESCRIPTION_CHARS, false, &mut types);
    let mut more: Vec<(String, &'static str)> = vec![];
    for field in ["license", "compatibility"] {
        if let Some(n) = get(field) {
            let t = py_type(n);
            if t != "str" && t != "NoneType" {
                more.push((
                    format!(
                        "{field}\n  Input should be a valid string [type=string_type, input_value={}, input_type=",
                        input_repr(n)
                    ),
                    t,
                ));
            }
        }
    }
    if let Some(n) = get("metadata") {
        let t = py_type(n);
        if t != "dict" && t != "NoneType" {
            return Err(format!("'{t}' object has no attribute 'items'"));
        }
    }
    if let Some(n) = get("allowed-tools") {
        if let NodeKind::Sequence(items) = &n.kind {
            for (k, i) in items.iter().enumerate() {
                let t = py_type(i);
                if t != "str" {
                    more.push((format!("allowed-tools.{k}\n  Input should be a valid string [type=string_type, input_value={}, input_type=", input_repr(i)), t));
                }
            }
        } else {
            let t = py_type(n);
            if t != "str" && t != "NoneType" {
                return Err(format!("'{t}' object is not iterable"));
            }
        }
    }
    let mut hidden = false;
    for field in ["user-invocable", "disable-model-invocation"] {
        if let Some(n) = get(field) {
            match lax_bool(n) {
                Some(b) => {
                    if field == "disable-model-invocation" {
                        hidden = b;
                    }
                }
                None => more.push((
                    format!(
                        "{field}\n  Input should be a valid boolean [type=bool_type, input_value={}, input_type=",
                        input_repr(n)
                    ),
                    py_type(n),
                )),
            }
        }
    }
    let mut all: Vec<String> = errors.into_iter().zip(types).map(|(e, t)| format!("{e}{t}]")).collect();
    all.extend(more.into_iter().map(|(e, t)| format!("{e}{t}]")));
    if !all.is_empty() {
        let n = all.len();
        return Err(format!(
            "{n} validation error{} for SkillMetadata\n{}",
            if n == 1 { "" } else { "s" },
            all.join("\n")
        ));
    }
    let (Some(name), Some(description)) = (name, description) else { unreachable!("no errors") };
    let path = prompt::path_string(&prompt::absolute(&entry.listed_as).join("SKILL.md"));
    Ok(Some(Loaded { name, description, hidden, body: py_strip(body).to_string(), path, entry: index }))
}

/// `^[a-z0-9]+(-[a-z0-9]+)*$`.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

/// `&`, `<`, `>`, `"`, `'` as XML entities.
pub fn xml_escape(s: &str) -> String {
    crate::agents::copilot_cli::xml_escape(s)
}

/// What Vibe loaded, in discovery order (hidden ones included, flagged), and the ones it skipped.
#[derive(Clone, Debug, Default)]
pub struct Loading {
    pub skills: Vec<Loaded>,
    pub rejected: Vec<PromptSkill>,
}

fn record(lib: &Library, l: &Loaded) -> PromptSkill {
    let e = &lib.entries[l.entry];
    prompt::skill(&l.name, folder_name(e), &l.path, Some(e.source)).of(e)
}

/// The position of each entry of `dir` in the order the file system lists them.
fn readdir_order(dir: &Path) -> std::collections::HashMap<String, usize> {
    std::fs::read_dir(dir)
        .map(|rd| rd.flatten().enumerate().map(|(k, e)| (e.file_name().to_string_lossy().into_owned(), k)).collect())
        .unwrap_or_default()
}

/// Loads `lib` as Vibe does: the highest-priority source first, each in `readdir` order, the first
/// skill of a name winning.
pub fn load(lib: &Library) -> Loading {
    let mut out = Loading::default();
    let mut seen: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for si in (0..lib.sources.len()).rev() {
        let order = readdir_order(&lib.sources[si].path);
        let mut found: Vec<(usize, &Entry)> = lib.entries.iter().enumerate().filter(|(_, e)| e.source == si).collect();
        found.sort_by(|a, b| a.1.listed_as.cmp(&b.1.listed_as));
        found.sort_by_key(|(_, e)| order.get(&folder_name(e)).copied().unwrap_or(usize::MAX));
        for (i, e) in found {
            let reading = e.reading("mistral-vibe", "", |e| read(e, i));
            match reading.as_ref() {
                Ok(None) => {}
                Err(reason) => out.rejected.push(
                    prompt::skill(
                        e.skill.display_name(),
                        folder_name(e),
                        prompt::path_string(&e.skill.path()),
                        Some(e.source),
                    )
                    .of(e)
                    .decided(Decision::Invalid, format!("Failed to load: {reason}")),
                ),
                Ok(Some(l)) => {
                    let l = Loaded { entry: i, ..l.clone() };
                    if RESERVED.contains(&l.name.as_str()) {
                        out.rejected.push(record(lib, &l).decided(
                            Decision::Invalid,
                            format!("`{}` is the name of one of Vibe's built-in skills, which are reserved: skipped silently (a debug log line only)", l.name),
                        ));
                        continue;
                    }
                    if let Some(winner) = seen.get(&l.name) {
                        out.rejected.push(record(lib, &l).decided(
                            Decision::Shadowed,
                            format!("`{}` from {winner} comes first (the first found wins, silently)", l.name),
                        ));
                        continue;
                    }
                    seen.insert(l.name.clone(), l.path.clone());
                    out.skills.push(l);
                }
            }
        }
    }
    out
}

/// One `<skill>` entry with its newline (name and description escaped here).
pub fn entry_text(name: &str, description: &str, path: &str) -> String {
    format!(
        "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <path>{path}</path>\n  </skill>\n",
        xml_escape(name),
        xml_escape(description)
    )
}

/// The `skill` tool Vibe offers.
pub fn skill_tool() -> ToolDef {
    ToolDef {
        name: TOOL_NAME.into(),
        description: TOOL_DESCRIPTION.into(),
        parameters: serde_json::json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {"name": {"type": "string", "description": "The exact name of the skill to load from the available skills.", "minLength": 1}},
            "required": ["name"]
        }),
    }
}

pub fn render(input: &RenderInput<'_>) -> Prompt {
    let lib = input.library;
    let loading = load(lib);
    let mut b = Builder::default();
    b.push("<available-skills>\n");
    for s in loading.skills.iter().filter(|s| !s.hidden) {
        b.entry(record(lib, s), |t| t.push_str(&entry_text(&s.name, &s.description, &s.path)));
    }
    let home = vibe_home();
    for (name, description, folder) in PLUGIN_SKILLS {
        b.push(&format!(
            "  <skill>\n    <name>{name}</name>\n    <description>{description}</description>\n    <path>{home}/{PLUGIN_PACKAGE}/skills/{folder}/SKILL.md</path>\n  </skill>\n"
        ));
    }
    b.push("</available-skills>");
    for s in loading.skills.iter().filter(|s| s.hidden) {
        b.absent(record(lib, s).decided(
            Decision::Hidden,
            "`disable-model-invocation: true`: loaded but not listed, and the `skill` tool refuses it",
        ));
    }
    for r in loading.rejected {
        b.absent(r);
    }
    prompt::finish(&FORMAT, input.options, b, None, vec![skill_tool()])
}

/// Up to [`MAX_FILES`] files below `dir` other than its `SKILL.md`, relative, sorted.
pub fn sample_files(dir: &Path) -> Vec<String> {
    let mut out = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let Ok(ft) = e.file_type() else { continue };
            let p = e.path();
            if ft.is_dir() {
                stack.push(p);
            } else if ft.is_file() && !(d == dir && e.file_name() == "SKILL.md") {
                out.push(prompt::path_string(p.strip_prefix(dir).unwrap_or(&p)));
            }
        }
    }
    out.sort();
    out.truncate(MAX_FILES);
    out
}

/// The `skill` tool's answer for `name`: `Ok` with the `<skill_content>` text, `Err` when Vibe
/// does not offer the name (its JSON error, with a "Did you mean" suggestion, is not reproduced).
pub fn activate(lib: &Library, name: &str) -> Result<String, String> {
    let loading = load(lib);
    let Some(s) = loading.skills.iter().find(|s| s.name == name && !s.hidden) else {
        let names: Vec<String> =
            loading.skills.iter().filter(|s| !s.hidden).map(|s| format!("\"{}\"", s.name)).collect();
        return Err(format!("Skill \"{name}\" is not available. Available skills: {}", names.join(", ")));
    };
    let dir = std::fs::canonicalize(prompt::absolute(&lib.entries[s.entry].listed_as))
        .unwrap_or_else(|_| prompt::absolute(&lib.entries[s.entry].listed_as));
    let files: Vec<String> = sample_files(&dir).iter().map(|f| format!("<file>{f}</file>")).collect();
    Ok(format!(
        "<skill_content name=\"{name}\">\n# Skill: {name}\n\n{}\n\nBase directory for this skill: {}\nRelative paths in this skill are relative to this base directory.\nNote: file list is sampled.\n\n<skill_files>\n{}\n</skill_files>\n</skill_content>",
        s.body,
        prompt::path_string(&dir),
        files.join("\n")
    ))
}

/// One session step as Vibe handles it: the model calls `skill(name)`.
pub fn session_step(s: &mut crate::session::Session, step: &crate::session::Step) -> crate::session::Outcome {
    use crate::session::{Outcome, Step};
    match step {
        Step::Invoke { skill, .. } | Step::Load { skill } => {
            let call = format!("skill({{\"name\": \"{skill}\"}})");
            match activate(&s.library, skill) {
                Ok(text) => {
                    if !s.loaded.contains(skill) {
                        s.loaded.push(skill.clone());
                    }
                    Outcome::ok(call, text)
                }
                Err(text) => Outcome::error(call, text),
            }
        }
        other => {
            crate::session::skill_tool_only(other, "mistral-vibe", "allowed-tools is not modelled for Mistral Vibe")
        }
    }
}

/// Reads every skill as [`load`] does, remembering each reading ([`Agent::read`]).
pub fn read_all(lib: &Library) {
    load(lib);
}

/// A skill is activated by `skill` naming it.
pub const ACTIVATION: crate::agent::Activation =
    crate::agents::activation::by_skill_tool!(TOOL_NAME, "name", "`skill` with `name: S`");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_are_dash_lines() {
        assert_eq!(split("---\nname: a\n---\n\nBody"), Some(("\nname: a\n", "\nBody")));
        assert_eq!(split("\n-----  \nname: a\n---"), Some(("\nname: a\n", "")));
        assert_eq!(split("# no\n---\nname: a\n---\n"), None);
        assert_eq!(split("---\nname: a\n"), None);
        assert_eq!(split("--- x\nname: a\n---\n"), None);
    }

    #[test]
    fn names_are_lowercase_words_joined_by_hyphens() {
        assert!(valid_name("a-b1") && valid_name("9"));
        assert!(!valid_name("A") && !valid_name("a--b") && !valid_name("-a") && !valid_name("a_b") && !valid_name(""));
    }
}
