//! Gemini CLI 0.61.0 (`@google/gemini-cli`): the `# Available Agent Skills` section and the
//! `activate_skill` tool, captured from the real program on every tree in
//! `tests/fixtures/prompt-trees` (goldens in `tests/fixtures/prompt-goldens/gemini-cli-0.61.0`),
//! with the loader, manager, tool and folder listing read in its bundle
//! (`packages/core/src/skills/skillLoader.ts`, `skillManager`, `tools/activate-skill.ts`,
//! `utils/getFolderStructure.ts`).
//!
//! - Locations and precedence: built-in skills, extensions, `~/.gemini/skills`,
//!   `~/.agents/skills`, then (trusted folders only) the project's `.gemini/skills` and
//!   `.agents/skills`; a later location wins a name clash and takes the earlier skill's place in
//!   the list (a JavaScript `Map` keyed by name), with the stderr warning `Skill conflict detected:
//!   "NAME" from "NEW" is overriding the same skill from "OLD".`. `--source` is in the same order
//!   (lowest priority first). Built-in and extension skills and the `skills.disabled` setting are
//!   not modelled (the captures disable the two built-ins).
//! - Discovery: the glob `["SKILL.md", "*/SKILL.md"]` in each location: direct child folders only
//!   (not recursive), hidden folders skipped (glob `dot: false`), `node_modules`/`.git` ignored,
//!   file name exactly `SKILL.md`. The glob also matches a `SKILL.md` in the location itself; the
//!   engine's discovery does not model that case. Within a location the order is the glob's
//!   (descending by path in every capture), clashes included.
//! - Reading: the frontmatter must match `^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?` (so it
//!   ends at the first line starting with `---`); it is parsed by js-yaml and used when both `name`
//!   and `description` are strings (quoted, block, or plain scalars that js-yaml does not read as
//!   null, bool, number or date); otherwise a line reader takes `name:` / `description:` lines
//!   (any indentation, last wins; indented continuation lines join the description with spaces).
//!   No frontmatter, or no name or no description after both → dropped silently. An empty
//!   description is kept. Name characters `:\/<>*?"|` become `-`. No length limits.
//! - Text: the section below, no trailing newline, entries `  <skill>` / `<name>` /
//!   `<description>` / `<location>` with no escaping at all; block scalars keep their final
//!   newline inside `<description>`; the location is the absolute path as found (not resolved).
//!   An empty library sends no section.
//! - Placement: part of the system instruction (`systemInstruction.parts[0]`), after the
//!   sub-agents section and before `# Hook Context`, each separated by a blank line. No budget.
//! - Tool: `activate_skill` ([`activate_skill_tool`]), `name` an enum of the listed names; with no
//!   skills the tool is still offered (its description then says "No skills are currently
//!   available."). Activation ([`activate`]) returns `<activated_skill name="…">` with the body
//!   (text after the frontmatter, JavaScript-trimmed, `$ARGUMENTS` untouched) in `<instructions>`
//!   and the skill folder's listing ([`folder_structure`]) in `<available_resources>`.

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::agents::compat::js::is_js_space;
pub use crate::agents::compat::js::js_trim;
use crate::library::discover::{Depth, DiscoveryPolicy};
use crate::library::{Entry, Library, NameKey};
use crate::prompt::{self, folder_name, Builder, Decision, Format, Placement, Prompt, RenderInput, ToolDef};
use crate::skill::FileProblem;
use crate::syntax::yaml::{self, Node, NodeKind, ScalarStyle};
use std::collections::{HashSet, VecDeque};
use std::path::Path;
use std::sync::OnceLock;

pub static AGENT: Agent = Agent {
    id: "gemini-cli",
    title: "Gemini CLI",
    kind: AgentKind::Agent,
    label: "Gemini CLI 0.61",
    source: "Gemini CLI 0.61.0 (@google/gemini-cli, real program, captured 2026-11-22)",
    lint: LintProfile::DEFAULT,
    discovery: DISCOVERY,
    key: NameKey::Frontmatter,
    prompt: Some(render),
    read: Some(read_all),
    activation: Some(ACTIVATION),
    installs: &[],
};

/// `*/SKILL.md`: direct child folders, hidden ones skipped.
pub const DISCOVERY: DiscoveryPolicy =
    DiscoveryPolicy { depth: Depth::Children, include_hidden: false, root_is_skill: false, nested: false };

/// gemini-3.1-pro-preview's input window (the model of the captures).
pub const DEFAULT_CONTEXT_WINDOW: u64 = 1_048_576;

const FORMAT: Format = Format {
    agent: "gemini-cli",
    source: AGENT.source,
    placement: Placement::SystemPrompt,
    placement_detail: "systemInstruction.parts[0]: its own section after the sub-agents section and before \"# Hook Context\", blank lines between",
    default_context_window: DEFAULT_CONTEXT_WINDOW,
    estimate: true,
};

pub const TOOL_NAME: &str = "activate_skill";
/// Items the activation's folder listing shows at most.
pub const MAX_ITEMS: usize = 200;
const HEAD: &str = "# Available Agent Skills\n\nYou have access to the following specialized skills. To activate a skill and receive its detailed instructions, call the `activate_skill` tool with the skill's name.\n\n<available_skills>\n";
const TAIL: &str = "\n</available_skills>";

/// A skill as Gemini CLI keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// With `:\/<>*?"|` replaced by `-`.
    pub name: String,
    pub description: String,
    /// The absolute `SKILL.md` path as found.
    pub location: String,
    /// The text after the frontmatter, JavaScript-trimmed.
    pub body: std::sync::Arc<str>,
    /// Index into [`Library::entries`].
    pub entry: usize,
}

/// `/^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/` on the file: the frontmatter and, when a
/// line break follows the closing `---`, the rest. The closing line is the first `---` after a
/// line break, whatever follows it on that line.
pub fn frontmatter_split(text: &str) -> Option<(&str, Option<&str>)> {
    let rest = text.strip_prefix("---")?;
    let rest = rest.strip_prefix("\r\n").or_else(|| rest.strip_prefix('\n'))?;
    let start = text.len() - rest.len();
    let close = rest.find("\n---")?;
    let end = if close > 0 && rest.as_bytes()[close - 1] == b'\r' { close - 1 } else { close };
    let after = &rest[close + 4..];
    let body = after.strip_prefix("\r\n").or_else(|| after.strip_prefix('\n'));
    Some((&text[start..start + end], body))
}

/// `name.replace(/[:\\/<>*?"|]/g, "-")`.
pub fn sanitize_name(name: &str) -> String {
    name.chars().map(|c| if ":\\/<>*?\"|".contains(c) { '-' } else { c }).collect()
}

fn js_plain_typed(v: &str) -> bool {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(concat!(
            r"^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE",
            r"|[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|0o[0-7_]+|[0-9][0-9_]*)",
            r"|[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?",
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
            r"|[0-9]{4}-[0-9]{2}-[0-9]{2}",
            r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$"
        ))
        .expect("valid regex")
    });
    v.is_empty() || (re.is_match(v) && !v.ends_with('_'))
}

/// The value when js-yaml would give a JavaScript string.
pub(crate) fn js_string(n: &Node) -> Option<String> {
    let NodeKind::Scalar { value, style } = &n.kind else { return None };
    match n.tag.as_deref() {
        Some("tag:yaml.org,2002:str") => return Some(value.clone()),
        Some(_) => return None,
        None => {}
    }
    if *style == ScalarStyle::Plain && js_plain_typed(value) {
        return None;
    }
    Some(value.clone())
}

pub(crate) fn has_duplicate_keys(n: &Node) -> bool {
    let mut dup = false;
    n.walk(&mut |m| {
        if let Some(entries) = m.entries() {
            let mut seen = HashSet::new();
            for e in entries {
                if let Some(k) = e.key.as_str() {
                    if !seen.insert(k) {
                        dup = true;
                    }
                }
            }
        }
    });
    dup
}

fn line_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.trim_start_matches(|c: char| c.is_whitespace() || is_js_space(c)).strip_prefix(key)?;
    let rest = rest.strip_prefix(':')?;
    // `.` does not match line terminators, and `$` is the end of the line here.
    if rest.contains(['\r', '\u{2028}', '\u{2029}']) {
        return None;
    }
    Some(js_trim(rest))
}

/// `parseSimpleFrontmatter`: `name:` and `description:` lines, description continuation lines.
pub fn simple_frontmatter(fm: &str) -> Option<(String, String)> {
    let lines: Vec<&str> = fm.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let (mut name, mut description) = (None, None);
    let mut i = 0;
    while i < lines.len() {
        if let Some(v) = line_value(lines[i], "name") {
            name = Some(v.to_string());
        } else if let Some(v) = line_value(lines[i], "description") {
            let mut parts = vec![v.to_string()];
            while i + 1 < lines.len() {
                let next = lines[i + 1];
                let indent = next.len() - next.trim_start_matches([' ', '\t']).len();
                if indent > 0 && next[indent..].chars().next().is_some_and(|c| !is_js_space(c)) {
                    parts.push(js_trim(next).to_string());
                    i += 1;
                } else {
                    break;
                }
            }
            description = Some(parts.into_iter().filter(|p| !p.is_empty()).collect::<Vec<_>>().join(" "));
        }
        i += 1;
    }
    Some((name?, description?))
}

/// `parseFrontmatter`: js-yaml when it gives two strings, else the line reader.
pub fn parse_frontmatter(fm: &str) -> Option<(String, String)> {
    parse_frontmatter_with(fm, None)
}

/// [`parse_frontmatter`], reusing an existing parse of the same text.
fn parse_frontmatter_with(fm: &str, parsed: Option<&yaml::Yaml>) -> Option<(String, String)> {
    let y = yaml::parse_or(fm, parsed);
    if y.error.is_none() {
        if let Some(root) = y.root.as_ref().filter(|r| !has_duplicate_keys(r)) {
            if let Some(entries) = root.entries() {
                let get =
                    |k: &str| entries.iter().find(|e| e.key.as_str() == Some(k)).and_then(|e| js_string(&e.value));
                if let (Some(n), Some(d)) = (get("name"), get("description")) {
                    return Some((n, d));
                }
            }
        }
    }
    simple_frontmatter(fm)
}

/// The absolute `SKILL.md` path as Gemini finds it (glob `absolute: true`, not resolved).
pub fn location(entry: &Entry) -> String {
    prompt::path_string(&prompt::absolute(&entry.listed_as).join(&entry.skill.file_name))
}

/// [`location`], remembered with the entry.
fn located(entry: &Entry) -> String {
    (*entry.reading("gemini-cli/location", "", location)).clone()
}

/// `loadSkillFromFile`: `Err(reason)` when Gemini drops the skill; `Ok(None)` when it never sees
/// the file (not named exactly `SKILL.md`).
pub fn read(entry: &Entry, index: usize) -> Result<Option<Loaded>, String> {
    read_at(entry, index, location(entry))
}

/// [`read`] with the entry's [`location`] already known.
fn read_at(entry: &Entry, index: usize, location: String) -> Result<Option<Loaded>, String> {
    let skill = &entry.skill;
    if skill.file_name != "SKILL.md" {
        return Ok(None);
    }
    for p in &skill.file_problems {
        match p {
            FileProblem::Missing | FileProblem::NotAFile { .. } => return Ok(None),
            FileProblem::Unreadable { error } => return Err(format!("cannot be read ({error}): dropped")),
            FileProblem::TooLarge { size } => {
                return Err(format!("not read by skillkit: {size} bytes, over its 10 MiB limit"))
            }
            // Node decodes with U+FFFD and carries on; so does the engine's text.
            FileProblem::InvalidUtf8 { .. } | FileProblem::Binary { .. } => {}
        }
    }
    let Some((fm, body)) = frontmatter_split(&skill.text) else {
        return Err("no frontmatter matching ^---\\n…\\n--- at the start of the file: dropped silently".into());
    };
    let Some((name, description)) = parse_frontmatter_with(fm, skill.yaml_for(fm)) else {
        return Err("no `name` or no `description` in the frontmatter: dropped silently".into());
    };
    Ok(Some(Loaded {
        name: sanitize_name(&name),
        description,
        location,
        body: body.map_or("", js_trim).into(),
        entry: index,
    }))
}

/// What Gemini loaded: the skills in listing order, the dropped and overridden ones, and the
/// warnings it prints.
#[derive(Clone, Debug, Default)]
pub struct Loading {
    pub skills: Vec<Loaded>,
    pub rejected: Vec<prompt::PromptSkill>,
    pub warnings: Vec<String>,
}

/// Loads `lib` as Gemini CLI does: sources in order, each in descending order of folder path, later names
/// replacing earlier ones in place.
pub fn load(lib: &Library) -> Loading {
    let mut out = Loading::default();
    // Name -> slot in `out.skills`.
    let mut slots: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for si in 0..lib.sources.len() {
        let mut found: Vec<(String, usize, &Entry)> =
            lib.entries.iter().enumerate().filter(|(_, e)| e.source == si).map(|(i, e)| (located(e), i, e)).collect();
        // Descending by the folder's path, without its `/SKILL.md`: `foo.x` and `foo-bar` come
        // before `foo` (captured on `tests/fixtures/prompt-trees/name-order`).
        let folder = |at: &str| at.rsplit_once('/').map_or(at, |(dir, _)| dir).to_string();
        found.sort_by_cached_key(|(at, i, _)| (std::cmp::Reverse(folder(at)), *i));
        for (at, i, e) in found {
            let reading = e.reading("gemini-cli", "", |e| read_at(e, i, at.clone()));
            match reading.as_ref().clone().map(|l| l.map(|l| Loaded { entry: i, ..l })) {
                Ok(None) => {}
                Err(reason) => out.rejected.push(
                    prompt::skill(e.skill.display_name(), folder_name(e), location(e), Some(si))
                        .of(e)
                        .decided(Decision::Invalid, reason),
                ),
                Ok(Some(new)) => match slots.get(&new.name).map(|&k| &mut out.skills[k]) {
                    Some(slot) => {
                        let old = std::mem::replace(slot, new);
                        if old.location != slot.location {
                            out.warnings.push(format!(
                                "Skill conflict detected: \"{}\" from \"{}\" is overriding the same skill from \"{}\".",
                                slot.name, slot.location, old.location
                            ));
                        }
                        let oe = &lib.entries[old.entry];
                        out.rejected.push(
                            prompt::skill(&old.name, folder_name(oe), &old.location, Some(oe.source)).of(oe).decided(
                                Decision::Shadowed,
                                format!(
                                    "`{}` from {} overrides it (a later location wins, in the earlier one's place)",
                                    slot.name, slot.location
                                ),
                            ),
                        );
                    }
                    None => {
                        slots.insert(new.name.clone(), out.skills.len());
                        out.skills.push(new)
                    }
                },
            }
        }
    }
    out
}

/// One `<skill>` entry, without the joining newline.
pub fn entry_text(s: &Loaded) -> String {
    format!(
        "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    <location>{}</location>\n  </skill>",
        s.name, s.description, s.location
    )
}

/// `getActivateSkillDeclaration`: the tool for the listed names, in listing order.
pub fn activate_skill_tool(names: &[&str]) -> ToolDef {
    let hint = if names.is_empty() {
        String::new()
    } else {
        format!(" (Available: {})", names.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", "))
    };
    let name_schema = if names.is_empty() {
        serde_json::json!({"type": "string", "description": "No skills are currently available."})
    } else {
        serde_json::json!({"type": "string", "enum": names, "description": "The name of the skill to activate."})
    };
    ToolDef {
        name: TOOL_NAME.into(),
        description: format!("Activates a specialized agent skill by name{hint}. Returns the skill's instructions wrapped in `<activated_skill>` tags. These provide specialized guidance for the current task. Use this when you identify a task that matches a skill's description. ONLY use names exactly as they appear in the `<available_skills>` section."),
        parameters: serde_json::json!({
            "type": "object",
            "properties": {"name": name_schema},
            "required": ["name"],
            "additionalProperties": false,
            "$schema": "http://json-schema.org/draft-07/schema#"
        }),
    }
}

/// ICU root collation, roughly (`localeCompare`): spaces, punctuation and symbols, digits, then
/// letters case-insensitively; lower case before upper case on a tie; then code points.
fn collation_key(s: &str) -> (Vec<(u8, u32)>, Vec<u8>, String) {
    const PUNCT: &str = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";
    let primary = s
        .chars()
        .map(|c| {
            if let Some(p) = PUNCT.find(c) {
                (0, p as u32)
            } else if c.is_numeric() {
                (1, c.to_digit(10).unwrap_or(c as u32))
            } else if c.is_alphabetic() {
                (2, c.to_lowercase().next().unwrap_or(c) as u32)
            } else {
                (0, 64 + c as u32)
            }
        })
        .collect();
    let tertiary = s.chars().map(|c| u8::from(c.is_uppercase())).collect();
    (primary, tertiary, s.to_string())
}

struct Folder {
    name: String,
    files: Vec<String>,
    subs: Vec<usize>,
    ignored: bool,
    more_files: bool,
    more_subs: bool,
}

/// `getFolderStructure(dir)` with its defaults: breadth first, at most [`MAX_ITEMS`] files and
/// folders, each folder's files before its folders, `node_modules`, `.git`, `dist` and
/// `__pycache__` shown as `name/...` and not opened, symlinks left out.
pub fn folder_structure(dir: &Path) -> String {
    const IGNORED: [&str; 4] = ["node_modules", ".git", "dist", "__pycache__"];
    let root_path = prompt::absolute(dir);
    let mut nodes = vec![Folder {
        name: String::new(),
        files: vec![],
        subs: vec![],
        ignored: false,
        more_files: false,
        more_subs: false,
    }];
    let mut queue = VecDeque::from([(0usize, root_path.clone())]);
    let mut count = 0usize;
    while let Some((id, path)) = queue.pop_front() {
        if count >= MAX_ITEMS {
            continue;
        }
        let mut entries: Vec<(String, std::fs::FileType)> = match std::fs::read_dir(&path) {
            Ok(rd) => rd
                .flatten()
                .filter_map(|e| Some((e.file_name().to_string_lossy().into_owned(), e.file_type().ok()?)))
                .collect(),
            Err(_) if id == 0 => {
                return format!(
                    "Error: Could not read directory \"{}\". Check path and permissions.",
                    prompt::path_string(&root_path)
                )
            }
            Err(_) => continue,
        };
        entries.sort_by_cached_key(|(n, _)| collation_key(n));
        for (name, ft) in &entries {
            if ft.is_file() {
                if count >= MAX_ITEMS {
                    nodes[id].more_files = true;
                    break;
                }
                nodes[id].files.push(name.clone());
                count += 1;
            }
        }
        for (name, ft) in &entries {
            if ft.is_dir() {
                if count >= MAX_ITEMS {
                    nodes[id].more_subs = true;
                    break;
                }
                let ignored = IGNORED.contains(&name.as_str());
                nodes.push(Folder {
                    name: name.clone(),
                    files: vec![],
                    subs: vec![],
                    ignored,
                    more_files: false,
                    more_subs: false,
                });
                let sub = nodes.len() - 1;
                nodes[id].subs.push(sub);
                count += 1;
                if !ignored {
                    queue.push_back((sub, path.join(name)));
                }
            }
        }
    }
    fn format(nodes: &[Folder], id: usize, indent: &str, last: bool, root: bool, out: &mut Vec<String>) {
        let n = &nodes[id];
        let connector = if last { "└───" } else { "├───" };
        if !root || n.ignored {
            out.push(format!("{indent}{connector}{}/{}", n.name, if n.ignored { "..." } else { "" }));
        }
        let child_indent =
            if root { String::new() } else { format!("{indent}{}", if last { "    " } else { "│   " }) };
        for (i, f) in n.files.iter().enumerate() {
            let last_file = i + 1 == n.files.len() && n.subs.is_empty() && !n.more_subs;
            out.push(format!("{child_indent}{}{f}", if last_file { "└───" } else { "├───" }));
        }
        if n.more_files {
            let c = if n.subs.is_empty() && !n.more_subs { "└───" } else { "├───" };
            out.push(format!("{child_indent}{c}..."));
        }
        for (i, &s) in n.subs.iter().enumerate() {
            format(nodes, s, &child_indent, i + 1 == n.subs.len() && !n.more_subs, false, out);
        }
        if n.more_subs {
            out.push(format!("{child_indent}└───..."));
        }
    }
    fn truncated(nodes: &[Folder], id: usize) -> bool {
        let n = &nodes[id];
        n.more_files || n.more_subs || n.ignored || n.subs.iter().any(|&s| truncated(nodes, s))
    }
    let mut lines = vec![];
    format(&nodes, 0, "", true, true, &mut lines);
    let mut summary = format!("Showing up to {MAX_ITEMS} items (files + folders).");
    if truncated(&nodes, 0) {
        summary.push_str(&format!(" Folders or files indicated with ... contain more items not shown, were ignored, or the display limit ({MAX_ITEMS} items) was reached."));
    }
    format!("{summary}\n\n{}/\n{}", prompt::path_string(&root_path), lines.join("\n"))
}

/// The `activate_skill` result for `name` (the function response's `output`): `Ok` with the
/// `<activated_skill>` text, or `Err` with the error text the model gets for an unknown name.
pub fn activate(lib: &Library, name: &str) -> Result<String, String> {
    let loading = load(lib);
    let Some(s) = loading.skills.iter().find(|s| s.name == name) else {
        let names: Vec<&str> = loading.skills.iter().map(|s| s.name.as_str()).collect();
        return Err(format!("Error: Skill \"{name}\" not found. Available skills are: {}", names.join(", ")));
    };
    let dir = Path::new(&s.location).parent().unwrap_or(Path::new("/"));
    Ok(format!(
        "<activated_skill name=\"{name}\">\n  <instructions>\n    {}\n  </instructions>\n\n  <available_resources>\n    {}\n  </available_resources>\n</activated_skill>",
        s.body,
        folder_structure(dir)
    ))
}

pub fn render(input: &RenderInput<'_>) -> Prompt {
    let loading = load(input.library);
    let mut b = Builder { warnings: loading.warnings, ..Default::default() };
    if !loading.skills.is_empty() {
        b.push(HEAD);
        for (n, s) in loading.skills.iter().enumerate() {
            if n > 0 {
                b.push("\n");
            }
            let e = &input.library.entries[s.entry];
            let mut rec = prompt::skill(&s.name, folder_name(e), &s.location, Some(e.source)).of(e);
            if e.skill.frontmatter.str("name").is_some_and(|raw| raw != s.name && sanitize_name(raw) == s.name) {
                rec.reason = Some("name characters `:\\/<>*?\"|` replaced by `-`".into());
            }
            b.entry(rec, |t| t.push_str(&entry_text(s)));
        }
        b.push(TAIL);
    }
    for r in loading.rejected {
        b.absent(r);
    }
    let names: Vec<&str> = loading.skills.iter().map(|s| s.name.as_str()).collect();
    let tools = vec![activate_skill_tool(&names)];
    prompt::finish(&FORMAT, input.options, b, None, tools)
}

// ---------------------------------------------------------------------------------------------
// The session: `activate_skill`.

/// One session step as Gemini CLI handles it: the model calls `activate_skill(name)`.
pub fn session_step(s: &mut crate::session::Session, step: &crate::session::Step) -> crate::session::Outcome {
    use crate::session::{Outcome, Step};
    match step {
        Step::Invoke { skill, .. } | Step::Load { skill } => {
            let call = format!("activate_skill({{\"name\": \"{skill}\"}})");
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
        other => crate::session::skill_tool_only(other, "gemini-cli", "Gemini CLI does not enforce allowed-tools"),
    }
}

/// Reads every skill as [`load`] does, remembering each reading ([`Agent::read`]).
pub fn read_all(lib: &Library) {
    load(lib);
}

/// A skill is activated by `activate_skill` naming it.
pub const ACTIVATION: crate::agent::Activation =
    crate::agents::activation::by_skill_tool!(TOOL_NAME, "name", "`activate_skill` with `name: S`");
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_path_and_glob_characters() {
        assert_eq!(sanitize_name("a:b\\c/d<e>f*g?h\"i|j k"), "a-b-c-d-e-f-g-h-i-j k");
    }

    #[test]
    fn js_yaml_strings_or_the_line_reader() {
        assert_eq!(parse_frontmatter("name: a\ndescription: >\n  x\n  y\n").unwrap().1, "x y\n");
        assert_eq!(parse_frontmatter("name: a\ndescription: \"\"\n").unwrap().1, "");
        // Not valid YAML: the line reader keeps the colon.
        assert_eq!(parse_frontmatter("name: a\ndescription: Use when: b\n").unwrap().1, "Use when: b");
        // A number is not a string: the line reader reads the raw text.
        assert_eq!(parse_frontmatter("name: 123\ndescription: d\n").unwrap().0, "123");
        assert_eq!(parse_frontmatter("name: 'a'\ndescription: |\n  x\n  y\n").unwrap().1, "x\ny\n");
        assert!(parse_frontmatter("description: d\n").is_none());
        assert_eq!(
            simple_frontmatter("name: a: b\ndescription: one\n  two\n\tthree\nother: x").unwrap(),
            ("a: b".into(), "one two three".into())
        );
    }

    #[test]
    fn frontmatter_ends_at_the_first_dashes_line() {
        let (fm, body) = frontmatter_split("---\r\nname: a\r\n---\r\n\r\nbody\r\n").unwrap();
        assert_eq!(fm, "name: a");
        assert_eq!(js_trim(body.unwrap()), "body");
        assert!(frontmatter_split("---\nname: a\n---").unwrap().1.is_none());
        assert!(frontmatter_split("\n---\nname: a\n---\n").is_none());
        assert_eq!(frontmatter_split("---\n\n---\nb").unwrap(), ("", Some("b")));
        assert_eq!(frontmatter_split("---\na: 1\n----x\nb").unwrap(), ("a: 1", None));
        assert_eq!(frontmatter_split("---\na: 1\n---x\nb").unwrap(), ("a: 1", None));
    }

    #[test]
    fn js_trim_is_not_rust_trim() {
        assert_eq!(js_trim("\u{feff} a \u{85}"), "a \u{85}");
    }

    #[test]
    fn files_sort_like_locale_compare() {
        let mut v = vec!["b.md", "A.md", "a.md", "_x", "1.txt", "Zeta"];
        v.sort_by_cached_key(|n| collation_key(n));
        assert_eq!(v, ["_x", "1.txt", "a.md", "A.md", "b.md", "Zeta"]);
    }

    #[test]
    fn folder_listing_caps_at_200_items() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("SKILL.md"), "x").unwrap();
        std::fs::create_dir_all(t.path().join("node_modules/x")).unwrap();
        for i in 0..250 {
            std::fs::write(t.path().join(format!("f{i:03}.txt")), "x").unwrap();
        }
        let s = folder_structure(t.path());
        assert!(s.starts_with("Showing up to 200 items (files + folders). Folders or files indicated with ..."));
        assert!(s.ends_with("├───f199.txt\n├───...\n└───..."), "{s}");
        let t2 = tempfile::tempdir().unwrap();
        std::fs::write(t2.path().join("SKILL.md"), "x").unwrap();
        std::fs::create_dir_all(t2.path().join("node_modules/x")).unwrap();
        assert!(folder_structure(t2.path()).ends_with("├───SKILL.md\n└───node_modules/..."));
    }
}
