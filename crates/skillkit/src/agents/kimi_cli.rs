//! Kimi CLI 1.50.0 (PyPI `kimi-cli`, Python; 1.52.0 is a deprecation stub): the `# Skills` section
//! of its system prompt, captured from the real program (`kimi --print -p hello` against a local
//! mock model) on the trees in `tests/fixtures/prompt-trees` (goldens in
//! `tests/fixtures/prompt-goldens/kimi-cli-1.50.0`, script `tests/oracles/capture_kimi_cli.sh`),
//! with the loader read in `kimi_cli/skill/__init__.py` and `kimi_cli/utils/frontmatter.py`.
//!
//! - Locations (highest priority first): the project's `.kimi/skills`, `.claude/skills`,
//!   `.codex/skills` (every existing one: `merge_all_available_skills` defaults to true), then
//!   `.agents/skills`, all at the project root (the nearest `.git` ancestor of the cwd, else the
//!   cwd); then the user's `~/.kimi/skills`, `~/.claude/skills`, `~/.codex/skills`, then the first
//!   existing of `~/.config/agents/skills` and `~/.agents/skills`; then `extra_skill_dirs`, then
//!   the two built-in skills (`kimi-cli-help`, `skill-creator`, in the installed package; no
//!   switch turns them off). Each root is resolved (symlinks followed) before its skills are
//!   read, so the printed paths are real paths. With `--source` (lowest priority first, as for
//!   every profile) a source is a user folder when it is one of those folders under `$HOME`, a
//!   project folder when it ends in `.kimi/skills`, `.claude/skills`, `.codex/skills` or
//!   `.agents/skills` elsewhere, and otherwise the last source is the project's and every earlier
//!   one a user folder (the `override` capture).
//! - Discovery: the direct child folders of a root holding a file `SKILL.md` (hidden folders
//!   too: `iterdir` does not skip them). Not modelled: Kimi also reads flat `<root>/<name>.md`
//!   files (a folder skill of the same name wins).
//! - Duplicates: names are compared case-folded. Across roots the first root wins, silently;
//!   inside one root the later folder in `readdir` order wins (the `collation` capture), which
//!   is why [`load`] reads the source folder's order there. A library skill named like a
//!   built-in hides the built-in (`kimi-edge/skill-creator`).
//! - Reading ([`read`]): the file as text (universal newlines). The frontmatter is the lines
//!   after a first line that is `---` once stripped, up to the next such line, joined and
//!   stripped; none, unclosed or empty → no frontmatter (the skill is still listed). PyYAML
//!   `safe_load` (YAML 1.1 types): an error skips the skill (`Invalid frontmatter YAML.`), a
//!   non-mapping too (`Frontmatter YAML must be a mapping.`). `name` falls back to the folder
//!   name and `description` to the body's first non-blank line that is not `---` (stripped; over
//!   240 characters cut to 239, right-stripped, plus `…`), else `No description provided.`,
//!   whenever the value is falsy in Python (absent, `""`, `0`, `false`, `no`, `[]`). A `type`
//!   other than `standard` or `flow` skips the skill (`Invalid skill type "X"`); a truthy name or
//!   description that is not a string skips it with pydantic's message (`1 validation error for
//!   Skill` …). No length, character or name-folder rules; no escaping; `disable-model-invocation`
//!   is ignored. The reasons are logged (INFO) in `~/.kimi/logs/kimi.log` as `Skipping invalid
//!   skill at PATH: REASON`; nothing is printed, so [`Prompt::warnings`](crate::prompt::Prompt)
//!   stays empty.
//! - Text: the `# Skills` section ([`HEAD`], the entries, [`TAIL`]). The entries are grouped
//!   `### Project`, `### User`, `### Built-in` (empty groups left out, groups joined by a blank
//!   line), each sorted by name in code-point order, one entry `- NAME\n  - Path: PATH\n  -
//!   Description: DESCRIPTION` per skill (the description as read: inner newlines and outer
//!   spaces kept). No budget.
//! - Placement: the system prompt (`messages[0]`), between the AGENTS.md guidance and
//!   `# Ultimate Reminders`.
//! - Activation: Kimi has no skill tool. The section tells the model to read a skill's `SKILL.md`
//!   itself, with `ReadFile` ([`read_file_tool`]; the result is `cat -n` style lines after a
//!   `<system>` line, [`read_file`]). The user's `/skill:NAME ARGS` sends the whole file, stripped
//!   (frontmatter included), then `\n\nUser request:\n{ARGS}` ([`slash_message`]); a name the
//!   command pattern `[a-zA-Z0-9_-]+` cannot spell (spaces, dots) cannot be called that way.
//! - The built-in skills' paths are inside the installed package: skillkit prints them under
//!   [`package_dir`] (`$SKILLKIT_KIMI_CLI_PACKAGE`, else where `uv tool install kimi-cli` puts
//!   it), which is the one part of the text that depends on the machine.
//!
//! Over 600 lines for one job: one module per agent profile (CONTRIBUTING.md), so the discovery,
//! reading, listing text, budget and activation of one program, and the release they reproduce, are
//! reviewed together against that program's captures.

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::agents::compat::python::{py_len, py_prefix, py_str, py_strip};
use crate::library::discover::{Depth, DiscoveryPolicy};
use crate::library::{Entry, Library, NameKey};
use crate::prompt::{
    self, folder_name, Builder, Decision, Format, Placement, Prompt, PromptSkill, RenderInput, ToolDef,
};
use crate::skill::FileProblem;
use crate::syntax::yaml::{self, Node, NodeKind, ScalarStyle};
use crate::syntax::yaml11::{resolve_yaml11, Typed};
use std::path::{Path, PathBuf};

pub static AGENT: Agent = Agent {
    id: "kimi-cli",
    title: "Kimi CLI",
    kind: AgentKind::Agent,
    label: "Kimi CLI 1.50",
    source: "Kimi CLI 1.50.0 (kimi-cli on PyPI, real program, captured 2026-11-28)",
    lint: LintProfile::DEFAULT,
    discovery: DISCOVERY,
    key: NameKey::Frontmatter,
    prompt: Some(render),
    read: Some(read_all),
    activation: Some(ACTIVATION),
    installs: &[],
};

/// `<root>/*/SKILL.md`, hidden folders included.
pub const DISCOVERY: DiscoveryPolicy =
    DiscoveryPolicy { depth: Depth::Children, include_hidden: true, root_is_skill: false, nested: false };

/// The captures' `max_context_size` (Kimi K2's window).
pub const DEFAULT_CONTEXT_WINDOW: u64 = 262_144;

/// The body fallback's length limit, in characters.
pub const FALLBACK_MAX_CHARS: usize = 240;
pub const NO_DESCRIPTION: &str = "No description provided.";

const FORMAT: Format = Format {
    agent: "kimi-cli",
    source: AGENT.source,
    placement: Placement::SystemPrompt,
    placement_detail: "the system prompt (messages[0]): its `# Skills` section, before `# Ultimate Reminders`",
    default_context_window: DEFAULT_CONTEXT_WINDOW,
    estimate: true,
};

/// The section up to the entries.
pub const HEAD: &str = "# Skills\n\nSkills are reusable, composable capabilities that enhance your abilities. Each skill is a self-contained directory with a `SKILL.md` file that contains instructions, examples, and/or reference material.\n\n## What are skills?\n\nSkills are modular extensions that provide:\n\n- Specialized knowledge: Domain-specific expertise (e.g., PDF processing, data analysis)\n- Workflow patterns: Best practices for common tasks\n- Tool integrations: Pre-configured tool chains for specific operations\n- Reference material: Documentation, templates, and examples\n\n## Available skills\n\nSkills are grouped by scope (`Project`, `User`, `Extra`, `Built-in`) so you can tell where each came from. When the user refers to \"the skill in this project\" or \"the user-scope skill\", use the scope heading to disambiguate. When multiple scopes define a skill with the same name, the more specific scope takes precedence: **Project overrides User overrides Extra overrides Built-in**.\n\n";
/// The section after the entries.
pub const TAIL: &str = "\n\n## How to use skills\n\nIdentify the skills that are likely to be useful for the tasks you are currently working on, read the `SKILL.md` file for detailed instructions, guidelines, scripts and more.\n\nOnly read skill details when needed to conserve the context window.";

/// The built-in skills, with the descriptions Kimi CLI 1.50.0 ships.
pub const BUILTINS: [(&str, &str); 2] = [
    ("kimi-cli-help", "Answer Kimi Code CLI usage, configuration, and troubleshooting questions. Use when user asks about Kimi Code CLI installation, setup, configuration, slash commands, keyboard shortcuts, MCP integration, providers, environment variables, how something works internally, or any questions about Kimi Code CLI itself."),
    ("skill-creator", "Guide for creating effective skills. This skill should be used when users want to create a new skill (or update an existing skill) that extends Kimi's capabilities with specialized knowledge, workflows, or tool integrations."),
];

pub const READ_TOOL: &str = "ReadFile";
const READ_DESCRIPTION: &str = "Read text content from a file.\n\n**Tips:**\n- Make sure you follow the description of each tool parameter.\n- A `<system>` tag will be given before the read file content.\n- The system will notify you when there is anything wrong when reading the file.\n- This tool is a tool that you typically want to use in parallel. Always read multiple files in one response when possible.\n- This tool can only read text files. To read images or videos, use other appropriate tools. To list directories, use the Glob tool or `ls` command via the Shell tool. To read other file types, use appropriate commands via the Shell tool.\n- If the file doesn't exist or path is invalid, an error will be returned.\n- If you want to search for a certain content/pattern, prefer Grep tool over ReadFile.\n- Content will be returned with a line number before each line like `cat -n` format.\n- Use `line_offset` and `n_lines` parameters when you only need to read a part of the file.\n- Use negative `line_offset` to read from the end of the file (e.g. `line_offset=-100` reads the last 100 lines). This is useful for viewing the tail of log files. The absolute value cannot exceed 1000.\n- The tool always returns the total number of lines in the file in its message, which you can use to plan subsequent reads.\n- The maximum number of lines that can be read at once is 1000.\n- Any lines longer than 2000 characters will be truncated, ending with \"...\".\n";
/// ReadFile's limits: lines per call, characters per line, bytes per call.
pub const READ_MAX_LINES: usize = 1000;
pub const READ_MAX_LINE_CHARS: usize = 2000;
pub const READ_MAX_BYTES: usize = 100 << 10;

/// The installed `kimi_cli` package folder the built-in skills' paths are printed under:
/// `$SKILLKIT_KIMI_CLI_PACKAGE`, else `~/.local/share/uv/tools/kimi-cli/lib/python3.13/site-packages/kimi_cli`.
pub fn package_dir() -> String {
    if let Some(p) = std::env::var_os("SKILLKIT_KIMI_CLI_PACKAGE").filter(|p| !p.is_empty()) {
        return p.to_string_lossy().trim_end_matches('/').to_string();
    }
    let home = std::env::var("HOME").unwrap_or_default();
    format!("{}/.local/share/uv/tools/kimi-cli/lib/python3.13/site-packages/kimi_cli", home.trim_end_matches('/'))
}

/// Where a skill comes from, in the order the groups are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    Project,
    User,
    BuiltIn,
}

impl Scope {
    pub fn heading(self) -> &'static str {
        match self {
            Scope::Project => "Project",
            Scope::User => "User",
            Scope::BuiltIn => "Built-in",
        }
    }
}

/// A skill as Kimi keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub name: String,
    pub description: String,
    /// The `SKILL.md` path Kimi prints (its root resolved).
    pub path: String,
    /// Index into [`Library::entries`].
    pub entry: usize,
}

/// The scope source `si` of `lib` plays (see the module documentation).
pub fn scope_of(lib: &Library, si: usize) -> Scope {
    let path = prompt::path_string(&lib.sources[si].path);
    let path = path.trim_end_matches('/');
    let home = std::env::var("HOME").ok().filter(|h| !h.is_empty());
    if let Some(h) = home {
        let h = h.trim_end_matches('/');
        let user = [".kimi/skills", ".claude/skills", ".codex/skills", ".config/agents/skills", ".agents/skills"];
        if user.iter().any(|u| path == format!("{h}/{u}")) {
            return Scope::User;
        }
    }
    if [".kimi/skills", ".claude/skills", ".codex/skills", ".agents/skills"].iter().any(|s| path.ends_with(s)) {
        return Scope::Project;
    }
    if si + 1 == lib.sources.len() {
        Scope::Project
    } else {
        Scope::User
    }
}

/// The lines of Python's `str.splitlines(keepends)` (on text already read with universal
/// newlines) one at a time, so that a reader that needs only the
/// first lines (the frontmatter) does not split the whole body.
fn py_lines(s: &str, keep_ends: bool) -> impl Iterator<Item = &str> {
    let mut rest = s.char_indices();
    let mut start = 0;
    std::iter::from_fn(move || {
        for (i, c) in rest.by_ref() {
            if matches!(
                c,
                '\n' | '\r' | '\x0b' | '\x0c' | '\x1c' | '\x1d' | '\x1e' | '\u{85}' | '\u{2028}' | '\u{2029}'
            ) {
                let line = &s[start..if keep_ends { i + c.len_utf8() } else { i }];
                start = i + c.len_utf8();
                return Some(line);
            }
        }
        (start < s.len()).then(|| std::mem::replace(&mut start, s.len())).map(|from| &s[from..])
    })
}

/// The text as Python's `read_text` gives it: `\r\n` and `\r` read as `\n`.
pub fn universal_newlines(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains('\r') {
        s.replace("\r\n", "\n").replace('\r', "\n").into()
    } else {
        s.into()
    }
}

/// `parse_frontmatter`'s frontmatter text: `None` when there is none (no opening or closing
/// `---` line, or nothing between them).
pub fn frontmatter_text(text: &str) -> Option<String> {
    let mut lines = py_lines(text, false);
    if lines.next().is_none_or(|l| py_strip(l) != "---") {
        return None;
    }
    let mut inside = vec![];
    loop {
        // No closing line: the lines ran out before one.
        let l = lines.next()?;
        if py_strip(l) == "---" {
            break;
        }
        inside.push(l);
    }
    let fm = inside.join("\n");
    let fm = py_strip(&fm);
    (!fm.is_empty()).then(|| fm.to_string())
}

/// `strip_frontmatter`: the text after the closing `---` line, or all of it.
pub fn strip_frontmatter(text: &str) -> &str {
    let mut lines = py_lines(text, true);
    let Some(first) = lines.next().filter(|l| py_strip(l) == "---") else {
        return text;
    };
    let mut at = first.len();
    for l in lines {
        at += l.len();
        if py_strip(l) == "---" {
            return &text[at..];
        }
    }
    text
}

/// The description of a skill without one: the first body line that is neither blank nor `---`,
/// stripped and cut to [`FALLBACK_MAX_CHARS`]; else [`NO_DESCRIPTION`].
pub fn body_fallback(text: &str) -> String {
    let line = py_lines(strip_frontmatter(text), false).map(py_strip).find(|l| !l.is_empty() && *l != "---");
    match line {
        None => NO_DESCRIPTION.into(),
        Some(l) if py_len(l) <= FALLBACK_MAX_CHARS => l.to_string(),
        Some(l) => format!(
            "{}…",
            py_prefix(l, FALLBACK_MAX_CHARS - 1).trim_end_matches(crate::agents::compat::python::is_py_space)
        ),
    }
}

/// What a frontmatter value is to Python after `yaml.safe_load`.
enum Value {
    Falsy,
    Str(String),
    /// Truthy, not a string: pydantic's `input_value` and `input_type`.
    Other(String, &'static str),
}

fn value(node: &Node) -> Value {
    match &node.kind {
        NodeKind::Mapping(e) if e.is_empty() => Value::Falsy,
        NodeKind::Sequence(i) if i.is_empty() => Value::Falsy,
        NodeKind::Mapping(_) => Value::Other(py_str(node), "dict"),
        NodeKind::Sequence(_) => Value::Other(py_str(node), "list"),
        NodeKind::Scalar { value: v, style } => {
            if *style != ScalarStyle::Plain || node.tag.as_deref().is_some_and(|t| t.ends_with("str")) {
                return if v.is_empty() { Value::Falsy } else { Value::Str(v.clone()) };
            }
            let s = py_str(node);
            match resolve_yaml11(v) {
                Typed::Null => Value::Falsy,
                Typed::Bool if s == "False" => Value::Falsy,
                Typed::Bool => Value::Other(s, "bool"),
                Typed::Int if s == "0" => Value::Falsy,
                Typed::Int => Value::Other(s, "int"),
                Typed::Float if s == "0.0" || s == "-0.0" => Value::Falsy,
                Typed::Float => Value::Other(s, "float"),
                Typed::Timestamp => Value::Other(date_repr(v), if v.len() > 10 { "datetime" } else { "date" }),
                Typed::Str => {
                    if v.is_empty() {
                        Value::Falsy
                    } else {
                        Value::Str(v.clone())
                    }
                }
            }
        }
        _ => Value::Other(py_str(node), "object"),
    }
}

fn is_block(n: &Node) -> bool {
    matches!(&n.kind, NodeKind::Scalar { style, .. } if style.is_block())
}

/// `repr()` of the `datetime.date` PyYAML makes of `YYYY-MM-DD` (a datetime is shown as written).
fn date_repr(v: &str) -> String {
    let parts: Vec<&str> = v.split('-').collect();
    if v.len() == 10 && parts.len() == 3 {
        let n: Vec<String> = parts.iter().map(|p| p.trim_start_matches('0').to_string()).collect();
        let n: Vec<&str> = n.iter().map(|p| if p.is_empty() { "0" } else { p.as_str() }).collect();
        return format!("datetime.date({}, {}, {})", n[0], n[1], n[2]);
    }
    v.to_string()
}

/// `parse_skill_text` for one skill folder: `Ok(None)` when Kimi never sees it (no `SKILL.md`
/// file), `Err(reason)` when it skips it (the log's words).
pub fn read(entry: &Entry, path: &str, index: usize) -> Result<Option<Loaded>, String> {
    let skill = &entry.skill;
    if skill.file_name != "SKILL.md" {
        return Ok(None);
    }
    for p in &skill.file_problems {
        match p {
            FileProblem::Missing | FileProblem::NotAFile { .. } => return Ok(None),
            FileProblem::Unreadable { error } => return Err(format!("unreadable ({error}): skipped")),
            FileProblem::TooLarge { size } => {
                return Err(format!("not read by skillkit: {size} bytes, over its 10 MiB limit"))
            }
            FileProblem::InvalidUtf8 { .. } => {
                return Err(
                    "not UTF-8: Kimi's read_text raises UnicodeDecodeError, which its discovery does not catch".into()
                )
            }
            FileProblem::Binary { .. } => {}
        }
    }
    let text = universal_newlines(&skill.text);
    let fm = frontmatter_text(&text);
    let parsed = fm.as_deref().map(|f| yaml::parse(f, 0));
    let entries: &[yaml::Entry] = match &parsed {
        None => &[],
        Some(y) => {
            if y.error.is_some() {
                return Err("Invalid frontmatter YAML.".into());
            }
            match y.root.as_ref().and_then(Node::entries) {
                Some(e) => e,
                None => return Err("Frontmatter YAML must be a mapping.".into()),
            }
        }
    };
    // PyYAML builds a dict: the last of duplicate keys wins.
    let get = |k: &str| entries.iter().rev().find(|e| e.key.as_str() == Some(k)).map(|e| &e.value);
    // Kimi strips the frontmatter text, so a block scalar that ends it has no final line break
    // left to keep (`blocks`): PyYAML gives no trailing newline there.
    let fm_len = fm.as_deref().map_or(0, str::len);
    let field = |k: &str| {
        get(k).map_or(Value::Falsy, |n| match value(n) {
            Value::Str(v) if is_block(n) && n.span.end >= fm_len => {
                let v = v.strip_suffix('\n').map(str::to_string).unwrap_or(v);
                if v.is_empty() {
                    Value::Falsy
                } else {
                    Value::Str(v)
                }
            }
            v => v,
        })
    };
    let name = field("name");
    let description = field("description");
    if let Some(t) = get("type") {
        if !matches!(value(t), Value::Falsy) {
            let t = py_str(t);
            if t != "standard" && t != "flow" {
                return Err(format!("Invalid skill type \"{t}\""));
            }
        }
    }
    let mut errors = vec![];
    for (field, v) in [("name", &name), ("description", &description)] {
        if let Value::Other(repr, ty) = v {
            errors.push(format!(
                "{field}\n  Input should be a valid string [type=string_type, input_value={repr}, input_type={ty}]\n    For further information visit https://errors.pydantic.dev/2.12/v/string_type"
            ));
        }
    }
    if !errors.is_empty() {
        let n = errors.len();
        return Err(format!("{n} validation error{} for Skill\n{}", if n == 1 { "" } else { "s" }, errors.join("\n")));
    }
    let name = match name {
        Value::Str(s) => s,
        _ => skill.dir_name.clone(),
    };
    let description = match description {
        Value::Str(s) => s,
        _ => body_fallback(&text),
    };
    Ok(Some(Loaded { name, description, path: path.to_string(), entry: index }))
}

/// Kimi's key for a name (`str.casefold`, approximated by Unicode lower-casing).
pub fn key(name: &str) -> String {
    name.to_lowercase()
}

/// What Kimi loaded: the skills in listing order with their scope (built-ins not included), and
/// the ones skipped or hidden by a duplicate.
#[derive(Clone, Debug, Default)]
pub struct Loading {
    pub skills: Vec<(Loaded, Scope)>,
    pub rejected: Vec<PromptSkill>,
}

/// The position of each entry of `dir` in the order the file system lists them.
fn readdir_order(dir: &Path) -> std::collections::HashMap<String, usize> {
    std::fs::read_dir(dir)
        .map(|rd| rd.flatten().enumerate().map(|(k, e)| (e.file_name().to_string_lossy().into_owned(), k)).collect())
        .unwrap_or_default()
}

/// The root as Kimi prints it: resolved.
fn root_of(dir: &Path) -> PathBuf {
    std::fs::canonicalize(dir).unwrap_or_else(|_| prompt::absolute(dir))
}

/// Loads `lib` as Kimi CLI does: the highest-priority source first, the first root of a name
/// winning; inside a root the last folder (in `readdir` order) of a name.
pub fn load(lib: &Library) -> Loading {
    let mut out = Loading::default();
    let mut seen: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for si in (0..lib.sources.len()).rev() {
        let scope = scope_of(lib, si);
        let root = root_of(&lib.sources[si].path);
        let mut found: Vec<(usize, &Entry)> = lib.entries.iter().enumerate().filter(|(_, e)| e.source == si).collect();
        found.sort_by(|a, b| a.1.listed_as.cmp(&b.1.listed_as));
        let mut here: Vec<(Loaded, usize)> = vec![];
        let mut slot: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let readings: Vec<_> = found
            .iter()
            .map(|(i, e)| {
                let path = prompt::path_string(&root.join(folder_name(e)).join("SKILL.md"));
                let r = e.reading("kimi-cli", &path, |e| read(e, &path, *i));
                (*i, *e, path, r)
            })
            .collect();
        let dup = {
            let mut keys = std::collections::HashSet::new();
            readings.iter().any(|(_, _, _, r)| matches!(r.as_ref(), Ok(Some(l)) if !keys.insert(key(&l.name))))
        };
        let order = if dup { readdir_order(&lib.sources[si].path) } else { Default::default() };
        let mut readings = readings;
        if dup {
            readings.sort_by_key(|(_, e, _, _)| order.get(&folder_name(e)).copied().unwrap_or(usize::MAX));
        }
        for (i, e, path, reading) in readings {
            match reading.as_ref() {
                Ok(None) => {}
                Err(reason) => out.rejected.push(
                    prompt::skill(e.skill.display_name(), folder_name(e), &path, Some(e.source))
                        .of(e)
                        .decided(Decision::Invalid, reason.clone()),
                ),
                Ok(Some(l)) => {
                    let l = Loaded { entry: i, ..l.clone() };
                    let k = key(&l.name);
                    if let Some(&at) = slot.get(&k) {
                        let (old, _) = std::mem::replace(&mut here[at], (l, i));
                        let oe = &lib.entries[old.entry];
                        out.rejected.push(
                            prompt::skill(&old.name, folder_name(oe), &old.path, Some(oe.source)).of(oe).decided(
                                Decision::Shadowed,
                                format!(
                                    "`{}` at {} has the same name (case-folded) and comes later in the folder's listing order: the later one wins, silently",
                                    here[at].0.name, here[at].0.path
                                ),
                            ),
                        );
                    } else {
                        slot.insert(k, here.len());
                        here.push((l, i));
                    }
                }
            }
        }
        for (l, _) in here {
            let k = key(&l.name);
            if let Some(winner) = seen.get(&k) {
                let e = &lib.entries[l.entry];
                out.rejected.push(prompt::skill(&l.name, folder_name(e), &l.path, Some(e.source)).of(e).decided(
                    Decision::Shadowed,
                    format!("`{}` from {winner} comes first (the first root wins, silently)", l.name),
                ));
                continue;
            }
            seen.insert(k, l.path.clone());
            out.skills.push((l, scope));
        }
    }
    out.skills.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    out
}

/// The built-in skills not hidden by a library skill of the same name, with their paths.
pub fn builtins(loading: &Loading) -> Vec<(&'static str, &'static str, String)> {
    let pkg = package_dir();
    BUILTINS
        .iter()
        .filter(|(n, _)| !loading.skills.iter().any(|(s, _)| key(&s.name) == key(n)))
        .map(|(n, d)| (*n, *d, format!("{pkg}/skills/{n}/SKILL.md")))
        .collect()
}

/// One entry, without a trailing newline.
pub fn entry_text(name: &str, path: &str, description: &str) -> String {
    format!("- {name}\n  - Path: {path}\n  - Description: {description}")
}

/// The `ReadFile` tool Kimi offers (the model activates a skill by reading its `SKILL.md`).
pub fn read_file_tool() -> ToolDef {
    ToolDef {
        name: READ_TOOL.into(),
        description: READ_DESCRIPTION.into(),
        parameters: serde_json::json!({
            "properties": {
                "path": {"description": "The path to the file to read. Absolute paths are required when reading files outside the working directory.", "type": "string"},
                "line_offset": {"default": 1, "description": "The line number to start reading from. By default read from the beginning of the file. Set this when the file is too large to read at once. Negative values read from the end of the file (e.g. -100 reads the last 100 lines). The absolute value of negative offset cannot exceed 1000.", "type": "integer"},
                "n_lines": {"default": 1000, "description": "The number of lines to read. By default read up to 1000 lines, which is the max allowed value. Set this value when the file is too large to read at once.", "minimum": 1, "type": "integer"}
            },
            "required": ["path"],
            "type": "object"
        }),
    }
}

pub fn render(input: &RenderInput<'_>) -> Prompt {
    let lib = input.library;
    let loading = load(lib);
    let mut b = Builder::default();
    b.push(HEAD);
    let builtins = builtins(&loading);
    let mut first_group = true;
    for scope in [Scope::Project, Scope::User] {
        let group: Vec<&(Loaded, Scope)> = loading.skills.iter().filter(|(_, s)| *s == scope).collect();
        if group.is_empty() {
            continue;
        }
        if !first_group {
            b.push("\n\n");
        }
        first_group = false;
        b.push(&format!("### {}", scope.heading()));
        for (s, _) in group {
            b.push("\n");
            let e = &lib.entries[s.entry];
            let rec = prompt::skill(&s.name, folder_name(e), &s.path, Some(e.source)).of(e);
            b.entry(rec, |t| t.push_str(&entry_text(&s.name, &s.path, &s.description)));
        }
    }
    if !builtins.is_empty() {
        if !first_group {
            b.push("\n\n");
        }
        first_group = false;
        b.push("### Built-in");
        for (n, d, p) in &builtins {
            b.push("\n");
            b.push(&entry_text(n, p, d));
        }
    }
    if first_group {
        b.push("No skills found.");
    }
    b.push(TAIL);
    for r in loading.rejected {
        b.absent(r);
    }
    prompt::finish(&FORMAT, input.options, b, None, vec![read_file_tool()])
}

/// What `ReadFile` answers for a whole file read with its defaults: the `<system>` line, then
/// each line numbered as `cat -n` does (at most [`READ_MAX_LINES`] lines and about
/// [`READ_MAX_BYTES`] bytes; longer lines cut to [`READ_MAX_LINE_CHARS`] with `...`).
pub fn read_file(text: &str) -> String {
    let text = universal_newlines(text);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let total = lines.len();
    let (mut out, mut bytes, mut taken, mut cut) = (String::new(), 0usize, 0usize, vec![]);
    let (mut max_lines, mut max_bytes) = (false, false);
    for (k, line) in lines.iter().enumerate() {
        let t = truncate_line(line);
        if t != *line {
            cut.push(k + 1);
        }
        out.push_str(&format!("{:6}\t{t}", k + 1));
        bytes += t.len();
        taken += 1;
        if taken >= READ_MAX_LINES {
            max_lines = taken < total;
            break;
        }
        if bytes >= READ_MAX_BYTES {
            max_bytes = taken < total;
            break;
        }
    }
    let mut message = if taken > 0 {
        format!("{taken} lines read from file starting from line 1.")
    } else {
        "No lines read from file.".into()
    };
    message.push_str(&format!(" Total lines in file: {total}."));
    if max_lines {
        message.push_str(&format!(" Max {READ_MAX_LINES} lines reached."));
    } else if max_bytes {
        message.push_str(&format!(" Max {READ_MAX_BYTES} bytes reached."));
    } else if taken < READ_MAX_LINES {
        message.push_str(" End of file reached.");
    }
    if !cut.is_empty() {
        let list: Vec<String> = cut.iter().map(|n| n.to_string()).collect();
        message.push_str(&format!(" Lines [{}] were truncated.", list.join(", ")));
    }
    format!("<system>{message}</system>{out}")
}

fn truncate_line(line: &str) -> std::borrow::Cow<'_, str> {
    if line.chars().count() <= READ_MAX_LINE_CHARS {
        return line.into();
    }
    let body = line.trim_end_matches(['\r', '\n']);
    let end = format!("...{}", &line[body.len()..]);
    let keep = READ_MAX_LINE_CHARS.max(end.chars().count()) - end.chars().count();
    format!("{}{end}", py_prefix(line, keep)).into()
}

/// The user message `/skill:NAME ARGS` sends: the whole `SKILL.md`, stripped, then the request.
pub fn slash_message(text: &str, args: &str) -> String {
    let text = universal_newlines(text);
    let body = py_strip(&text);
    let extra = py_strip(args);
    if extra.is_empty() {
        body.to_string()
    } else {
        format!("{body}\n\nUser request:\n{extra}")
    }
}

/// Whether `/skill:NAME` can reach a skill of this name (the command pattern).
pub fn slash_reachable(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// One session step as Kimi CLI handles it: the model reads the listed `SKILL.md` with
/// `ReadFile` (`invoke`), or the user types `/skill:NAME ARGS`.
pub fn session_step(s: &mut crate::session::Session, step: &crate::session::Step) -> crate::session::Outcome {
    use crate::session::{Outcome, Step};
    let loading = load(&s.library);
    let find = |name: &str| loading.skills.iter().find(|(l, _)| l.name == name).map(|(l, _)| l.clone());
    match step {
        Step::Invoke { skill, .. } | Step::Load { skill } => {
            let Some(l) = find(skill) else {
                return Outcome::error(format!("ReadFile for `{skill}`"), String::new())
                    .with_note(format!("`{skill}` is not in the listing, so the model has no path to read"));
            };
            let call = format!("ReadFile({{\"path\": \"{}\"}})", l.path);
            let text = read_file(&s.library.entries[l.entry].skill.text);
            if !s.loaded.contains(&l.name) {
                s.loaded.push(l.name.clone());
            }
            Outcome::ok(call, text)
        }
        Step::Slash { name, args } => {
            let name = name.strip_prefix("skill:").unwrap_or(name);
            let call = format!("/skill:{name} {args}");
            let l = find(name).filter(|_| slash_reachable(name));
            let Some(l) = l else {
                return Outcome::error(call, format!("Unknown slash command \"/skill:{name}\"."));
            };
            if !s.loaded.contains(&l.name) {
                s.loaded.push(l.name.clone());
            }
            Outcome::ok(call, slash_message(&s.library.entries[l.entry].skill.text, args))
                .with_note("the user message Kimi sends in place of the command")
        }
        Step::Unload { skill } => Outcome::unsupported(format!("unload {skill}"), "kimi-cli", "unload tool"),
        Step::Tool { name, args } => Outcome::tool_not_judged(name, args, "Kimi CLI does not read allowed-tools"),
        Step::Edit { .. } | Step::User { .. } | Step::Model { .. } => {
            unreachable!("edits and conversation turns are handled by the session")
        }
    }
}

/// Reads every skill as [`load`] does, remembering each reading ([`Agent::read`]).
pub fn read_all(lib: &Library) {
    load(lib);
}

/// A skill is activated by reading its `SKILL.md` with `ReadFile` (the section says to).
pub const ACTIVATION: crate::agent::Activation = crate::agent::Activation {
    rule: "`ReadFile` with `path` S's SKILL.md",
    tools: |p| p.tools.clone(),
    call: |p, name, args| {
        let skill = if name == READ_TOOL { crate::agents::activation::skill_file_in(p, args, "path") } else { None };
        skill.map(crate::agent::SkillCall::invoke)
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    /// `str.splitlines(keepends)` all at once, as the loader split its text before #39: the
    /// reference the lazy lines are held to.
    fn splitlines_reference(s: &str, keep_ends: bool) -> Vec<&str> {
        let mut out = vec![];
        let mut start = 0;
        for (i, c) in s.char_indices() {
            if matches!(
                c,
                '\n' | '\r' | '\x0b' | '\x0c' | '\x1c' | '\x1d' | '\x1e' | '\u{85}' | '\u{2028}' | '\u{2029}'
            ) {
                out.push(&s[start..if keep_ends { i + c.len_utf8() } else { i }]);
                start = i + c.len_utf8();
            }
        }
        if start < s.len() {
            out.push(&s[start..]);
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn lazy_lines_are_splitlines(s in "(a|é| |-|---|\n|\r|\u{0b}|\u{1c}|\u{85}|\u{2028}){0,30}") {
            for keep in [false, true] {
                proptest::prop_assert_eq!(py_lines(&s, keep).collect::<Vec<_>>(), splitlines_reference(&s, keep));
            }
        }
    }

    #[test]
    fn frontmatter_needs_both_lines_and_some_text() {
        assert_eq!(frontmatter_text("---\nname: a\n---\nbody"), Some("name: a".into()));
        assert_eq!(frontmatter_text(" --- \n  name: a  \n---  \n"), Some("name: a".into()));
        assert_eq!(frontmatter_text("---\n---\nbody"), None);
        assert_eq!(frontmatter_text("---\nname: a\n"), None);
        assert_eq!(frontmatter_text("# t\n---\n"), None);
    }

    #[test]
    fn the_body_stands_in() {
        assert_eq!(body_fallback("---\nname: a\n---\n\n---\n  First.  \nSecond."), "First.");
        assert_eq!(body_fallback("---\nname: a\n---\n"), NO_DESCRIPTION);
        assert_eq!(body_fallback("---\nname: a\n\nOpen frontmatter."), "name: a");
        let long = format!("{} tail", "x".repeat(238));
        assert_eq!(body_fallback(&long), format!("{}…", "x".repeat(238)));
        assert_eq!(py_len(&body_fallback(&"y".repeat(300))), 240);
    }

    #[test]
    fn slash_messages_strip_and_append_the_request() {
        assert_eq!(
            slash_message("---\nname: a\n---\n\nBody.\n", "  do it "),
            "---\nname: a\n---\n\nBody.\n\nUser request:\ndo it"
        );
        assert_eq!(slash_message("Body.\r\n", ""), "Body.");
        assert!(slash_reachable("a-b_c9") && !slash_reachable("a b") && !slash_reachable("a.b"));
    }

    #[test]
    fn read_file_numbers_lines() {
        assert_eq!(
            read_file("a\nb\n"),
            "<system>2 lines read from file starting from line 1. Total lines in file: 2. End of file reached.</system>     1\ta\n     2\tb\n"
        );
        assert_eq!(
            read_file(""),
            "<system>No lines read from file. Total lines in file: 0. End of file reached.</system>"
        );
    }
}
