//! Cline CLI 3.0.65 (npm `cline`, a Bun-compiled binary bundling `@cline/core` and
//! `@cline/shared` 0.0.86): the `skills` tool whose description ends with the list of skill
//! names, captured from the real program (`cline "say hello"` against a local mock model) on the
//! trees in `tests/fixtures/prompt-trees` (goldens in `tests/fixtures/prompt-goldens/cline-3.0.65`,
//! made by `tests/oracles/capture_cline.sh`), with the loader read in `@cline/core`'s
//! `dist/index.js` (the skills watcher definition, `parseSkillFile`, the `skills` tool).
//!
//! - Locations (`resolveSkillsConfigSearchPaths`), read in this order: the project's
//!   `.clinerules/skills`, `.cline/skills`, `.agents/skills`, then the user's `~/.cline/skills`
//!   and `~/.agents/skills` (`scopes` capture: all five are read, `.claude/skills` and
//!   `~/.claude/skills` are not). Plugin folders (`.cline/*/managed.json`) are not modelled.
//!   With `--source` the sources are taken in the order given, as Cline's folders: the first is
//!   read first.
//! - Discovery: one level. Every entry of a folder that is a directory (or a link to one), hidden
//!   ones included, stands for `<entry>/SKILL.md` (exact case: `lower-file/skill.md` is not read;
//!   a folder without the file is skipped silently). A `SKILL.md` lying in the skills folder
//!   itself counts too, named after the skills folder (not modelled: the engine's sources are
//!   not skills).
//! - Order: **the file system's raw directory order** (`readdir`, unsorted), folder by folder.
//!   On ext4 that is the order of a hash of the names seeded per file system, so the same tree
//!   is listed in another order on another machine: skillkit reads the folder's own order
//!   ([`readdir_order`]), which is Cline's on the same machine; the goldens keep the order Cline
//!   read (`readdir.txt`) and the test replays it ([`load_in`]).
//! - Duplicates: records are a JavaScript `Map` keyed by the name trimmed and lower-cased; a
//!   later skill with the same key replaces the value but keeps the first one's position. So the
//!   last folder read wins the content (`override`: the `.cline/skills` copy beats
//!   `.clinerules/skills`) and two spellings of one name in one folder (`cline-edge`: `case-dup`
//!   then `Case-Dup`) depend on the directory order: which one wins is chance across machines.
//!   No message.
//! - Reading (`parseSkillFile`): a UTF-8 BOM is dropped; the frontmatter is
//!   `/^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/` (no match: no frontmatter, the whole file is
//!   the body, the skill is kept); the YAML is read by the `yaml` package (YAML 1.2 core schema:
//!   `2026-01-31` is a string; a duplicated key is an error). Skipped, silently (the errors are
//!   thrown and dropped, `cline` prints nothing and logs nothing): YAML errors (`Failed to parse
//!   YAML frontmatter: …`), an empty body (`Missing instructions body in skill file.`), a `name` or
//!   `description` that is not a string (`Frontmatter field 'name' must be a string.`), a
//!   `disabled` or `enabled` that is not a boolean. `name` is trimmed, a blank or missing one is
//!   the folder name; `description` is optional. `disabled: true` or `enabled: false`: loaded, not
//!   listed, and the tool answers `Skill "N" is configured but disabled.`. Nothing else is
//!   checked (no length, character or name-folder rule).
//! - Text: the `skills` tool's description ([`TOOL_DESCRIPTION`]) + ` Available skills: ` + the
//!   names joined by `, ` + `.`: names only, as written (case and spaces kept), no escaping, no
//!   budget; a name holding `:` is shown as its key (lower-cased). With no enabled skill the tool
//!   is not offered at all, so there is no text.
//! - Placement: the description of the tool `skills` (not the system prompt).
//! - Tool: `skills` with `{skill, args}` ([`skill_tool`]). A call answers
//!   `<command-name>N</command-name>\n<command-instructions>\nDescription: D\n\nBODY\n</command-instructions>`
//!   (the `Description:` part only when there is one; the body trimmed; with `args`,
//!   `\n<command-args>ARGS</command-args>` after the name, read in the code, not captured) —
//!   [`activate`]. The name is looked up case-insensitively; an unknown one answers
//!   `Skill "X" not found. Available skills: …` (enabled names in `localeCompare` order).
//!   Sessions ([`session_step`]) answer `skills(skill)` with [`activate`]. A slash command in
//!   `cline "PROMPT"` (`/hello-note  be brief `, captured) reaches the model as typed, trimmed,
//!   not expanded: the tool's description tells the model to invoke it with `skills`.

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::agents::claude_code::sort_as_claude_code;
use crate::agents::compat::js::js_trim;
use crate::agents::gemini_cli::has_duplicate_keys;
use crate::library::discover::{Depth, DiscoveryPolicy};
use crate::library::{Entry, Library, NameKey};
use crate::prompt::{
    self, folder_name, Builder, Decision, Format, Placement, Prompt, PromptSkill, RenderInput, ToolDef,
};
use crate::skill::FileProblem;
use crate::syntax::yaml::{self, Node, NodeKind, ScalarStyle};
use crate::syntax::yaml11::{resolve_core, Typed};
use std::collections::HashMap;
use std::path::Path;

pub static AGENT: Agent = Agent {
    id: "cline",
    title: "Cline CLI",
    kind: AgentKind::Agent,
    label: "Cline CLI 3.0",
    source: "Cline CLI 3.0.65 (cline, @cline/core 0.0.86, real program, captured 2026-11-28)",
    lint: LintProfile::DEFAULT,
    discovery: DISCOVERY,
    key: NameKey::Frontmatter,
    prompt: Some(render),
    read: Some(read_all),
    activation: Some(ACTIVATION),
    installs: &[],
};

/// `*/SKILL.md`: the direct child folders, hidden ones included.
pub const DISCOVERY: DiscoveryPolicy =
    DiscoveryPolicy { depth: Depth::Children, include_hidden: true, root_is_skill: false, nested: false };

/// gpt-4o's context window (the model of the captures).
pub const DEFAULT_CONTEXT_WINDOW: u64 = 128_000;

const FORMAT: Format = Format {
    agent: "cline",
    source: AGENT.source,
    placement: Placement::ToolDescription,
    placement_detail:
        "the description of the `skills` tool (tools[0]); the listing is its tail, `Available skills: a, b.`",
    default_context_window: DEFAULT_CONTEXT_WINDOW,
    estimate: true,
};

pub const TOOL_NAME: &str = "skills";
/// The `skills` tool's fixed description, before the listing.
pub const TOOL_DESCRIPTION: &str = "Execute a skill within the main conversation. When users ask you to perform tasks, check if any available skills match. When users reference a slash command, invoke it with this tool. Input: `skill` (required) and optional `args`. Example: `skill: \"pdf\"`, `skill: \"commit\", args: \"-m \\\"Fix bug\\\"\"`, `skill: \"review-pr\", args: \"123\"`, `skill: \"ms-office-suite:pdf\"`. When a skill matches the user's request, invoking this tool is a blocking requirement before any other response. Never mention a skill without invoking this tool.";
const LISTING: &str = " Available skills: ";

/// A skill as Cline keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// Trimmed; the folder name when the frontmatter has none.
    pub name: String,
    /// Trimmed; `None` when absent or blank.
    pub description: Option<String>,
    /// `disabled: true` or `enabled: false`.
    pub disabled: bool,
    /// The body, trimmed.
    pub instructions: std::sync::Arc<str>,
    /// Index into [`Library::entries`].
    pub entry: usize,
}

impl Loaded {
    /// The record key: the name trimmed and lower-cased.
    pub fn id(&self) -> String {
        self.name.trim().to_lowercase()
    }

    /// How the listing names it: the key when it holds a `:` (Cline's plugin skills), else the
    /// name.
    pub fn shown(&self) -> String {
        let id = self.id();
        if id.contains(':') {
            id
        } else {
            self.name.trim().to_string()
        }
    }
}

/// The frontmatter and the body, as Cline's regular expression cuts them; `None` when the file
/// does not match (no frontmatter: the whole text is the body).
pub fn split(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("---")?;
    let rest = rest.strip_prefix("\r\n").or_else(|| rest.strip_prefix('\n'))?;
    let close = rest.find("\n---")?;
    let end = if close > 0 && rest.as_bytes()[close - 1] == b'\r' { close - 1 } else { close };
    let mut body = &rest[close + 4..];
    body = body.strip_prefix('\r').unwrap_or(body);
    body = body.strip_prefix('\n').unwrap_or(body);
    Some((&rest[..end], body))
}

/// A value as the `yaml` package gives it to JavaScript: `Ok(None)` for absent or null,
/// `Ok(Some(string))`, `Err(())` for any other type.
fn yaml_string(n: Option<&Node>) -> Result<Option<String>, ()> {
    let Some(n) = n else { return Ok(None) };
    let NodeKind::Scalar { value, style } = &n.kind else { return Err(()) };
    match n.tag.as_deref() {
        Some("tag:yaml.org,2002:str") => return Ok(Some(value.clone())),
        Some("tag:yaml.org,2002:null") => return Ok(None),
        Some(_) => return Err(()),
        None => {}
    }
    if *style != ScalarStyle::Plain {
        return Ok(Some(value.clone()));
    }
    match resolve_core(value) {
        Typed::Str => Ok(Some(value.clone())),
        Typed::Null => Ok(None),
        _ => Err(()),
    }
}

/// A boolean field: `Ok(None)` absent or null, `Err(())` not a boolean.
fn yaml_bool(n: Option<&Node>) -> Result<Option<bool>, ()> {
    let Some(n) = n else { return Ok(None) };
    let NodeKind::Scalar { value, style } = &n.kind else { return Err(()) };
    if n.tag.is_some() || *style != ScalarStyle::Plain {
        return if n.tag.as_deref() == Some("tag:yaml.org,2002:null") { Ok(None) } else { Err(()) };
    }
    match resolve_core(value) {
        Typed::Null => Ok(None),
        Typed::Bool => Ok(Some(value.eq_ignore_ascii_case("true"))),
        _ => Err(()),
    }
}

/// `SZ(value, field)`: a trimmed string, `None` when absent, null or blank.
fn field(n: Option<&Node>, key: &str) -> Result<Option<String>, String> {
    match yaml_string(n) {
        Err(()) => Err(format!("Frontmatter field '{key}' must be a string.")),
        Ok(v) => Ok(v.map(|s| js_trim(&s).to_string()).filter(|s| !s.is_empty())),
    }
}

fn boolean(n: Option<&Node>, key: &str) -> Result<Option<bool>, String> {
    yaml_bool(n).map_err(|()| format!("Frontmatter field '{key}' must be a boolean."))
}

/// `parseSkillFile` for one entry: `Ok(None)` when Cline never reads the file, `Err(reason)`
/// when it throws (the skill is then dropped silently).
pub fn read(entry: &Entry, index: usize) -> Result<Option<Loaded>, String> {
    let skill = &entry.skill;
    if skill.file_name != "SKILL.md" {
        return Ok(None);
    }
    for p in &skill.file_problems {
        match p {
            FileProblem::Missing | FileProblem::NotAFile { .. } => return Ok(None),
            FileProblem::Unreadable { error } => return Err(format!("cannot be read ({error}): skipped silently")),
            FileProblem::TooLarge { size } => {
                return Err(format!("not read by skillkit: {size} bytes, over its 10 MiB limit"))
            }
            FileProblem::InvalidUtf8 { .. } | FileProblem::Binary { .. } => {}
        }
    }
    let text = skill.text.strip_prefix('\u{feff}').unwrap_or(&skill.text);
    let silently = |e: String| format!("{e} (Cline drops the skill silently)");
    let (data, body): (Option<std::borrow::Cow<'_, yaml::Yaml>>, &str) = match split(text) {
        None => (None, text),
        Some((fm, body)) => {
            let y = yaml::parse_or(fm, skill.yaml_for(fm));
            if let Some(e) = &y.error {
                return Err(silently(format!("Failed to parse YAML frontmatter: {}", e.message)));
            }
            if y.root.as_ref().is_some_and(has_duplicate_keys) {
                return Err(silently("Failed to parse YAML frontmatter: Map keys must be unique".into()));
            }
            (Some(y), body)
        }
    };
    let instructions = js_trim(body);
    if instructions.is_empty() {
        return Err(silently("Missing instructions body in skill file.".into()));
    }
    let entries = data.as_ref().and_then(|y| y.root.as_ref()).and_then(|r| r.entries()).unwrap_or(&[]);
    let get = |k: &str| entries.iter().find(|e| e.key.as_str() == Some(k)).map(|e| &e.value);
    let name = match field(get("name"), "name").map_err(silently)? {
        Some(n) => n,
        None => js_trim(&skill.dir_name).to_string(),
    };
    if name.is_empty() {
        return Err(silently("Missing skill name.".into()));
    }
    let description = field(get("description"), "description").map_err(silently)?;
    let disabled = boolean(get("disabled"), "disabled").map_err(silently)?;
    let enabled = boolean(get("enabled"), "enabled").map_err(silently)?;
    let disabled = disabled.unwrap_or(enabled == Some(false));
    Ok(Some(Loaded { name, description, disabled, instructions: instructions.into(), entry: index }))
}

/// The position of each entry of `dir` in the order the file system lists it.
pub fn readdir_order(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default()
}

/// What Cline loaded: the records in its `Map` order (disabled ones included), and the skills
/// it dropped or replaced.
#[derive(Clone, Debug, Default)]
pub struct Loading {
    pub skills: Vec<Loaded>,
    pub rejected: Vec<PromptSkill>,
    /// The names (lower-cased) two skills of one folder share: which one wins is the
    /// directory order's, chance across machines.
    pub raced: std::collections::HashSet<String>,
}

/// Why a same-folder duplicate's outcome varies between machines.
pub const DIRECTORY_ORDER: &str =
    "two skills of one folder share the name: Cline keeps the one its file system lists later, an order that differs between machines";

fn record(lib: &Library, i: usize, name: &str) -> PromptSkill {
    let e = &lib.entries[i];
    prompt::skill(name, folder_name(e), prompt::path_string(&e.skill.path()), Some(e.source)).of(e)
}

/// Loads `lib` as Cline does, each source's folders in the file system's order.
pub fn load(lib: &Library) -> Loading {
    load_in(lib, &|dir| readdir_order(dir))
}

/// [`load`] with each source folder's entries in the order `order` gives (the names of its
/// entries, as `readdir` lists them); entries it does not name follow, in path order.
pub fn load_in(lib: &Library, order: &dyn Fn(&Path) -> Vec<String>) -> Loading {
    let mut out = Loading::default();
    let mut slots: HashMap<String, usize> = HashMap::new();
    for si in 0..lib.sources.len() {
        let mut found: Vec<(usize, &Entry)> = lib.entries.iter().enumerate().filter(|(_, e)| e.source == si).collect();
        found.sort_by(|a, b| a.1.listed_as.cmp(&b.1.listed_as));
        let rank: HashMap<String, usize> =
            order(&lib.sources[si].path).into_iter().enumerate().map(|(k, n)| (n, k)).collect();
        found.sort_by_key(|(_, e)| rank.get(&folder_name(e)).copied().unwrap_or(usize::MAX));
        let mut in_source: HashMap<String, usize> = HashMap::new();
        for (i, e) in found {
            let reading = e.reading("cline", "", |e| read(e, i));
            match reading.as_ref() {
                Ok(None) => {}
                Err(reason) => {
                    out.rejected.push(record(lib, i, e.skill.display_name()).decided(Decision::Invalid, reason.clone()))
                }
                Ok(Some(l)) => {
                    let new = Loaded { entry: i, ..l.clone() };
                    let id = new.id();
                    match slots.get(&id).copied() {
                        None => {
                            slots.insert(id.clone(), out.skills.len());
                            out.skills.push(new);
                        }
                        Some(k) => {
                            let chance = in_source.contains_key(&id);
                            let old = std::mem::replace(&mut out.skills[k], new);
                            let winner = &out.skills[k];
                            let wpath = prompt::path_string(&lib.entries[winner.entry].skill.path());
                            let why = if chance {
                                format!("`{}` at {wpath}, later in the same folder's directory order, has the same name (case-insensitive): it replaces this one at this one's place in the listing. Which comes later depends on the file system's directory order, so on another machine the outcome can be the other way round", winner.name)
                            } else {
                                format!("`{}` at {wpath}, in a folder Cline reads later, has the same name (case-insensitive): it replaces this one at this one's place in the listing", winner.name)
                            };
                            let mut rec = record(lib, old.entry, &old.name).decided(Decision::Shadowed, why);
                            if chance {
                                rec = rec.by_chance(DIRECTORY_ORDER);
                                out.raced.insert(id.clone());
                            } else {
                                // A later folder's copy wins whatever the order before it.
                                out.raced.remove(&id);
                            }
                            out.rejected.push(rec);
                        }
                    }
                    in_source.insert(id, i);
                }
            }
        }
    }
    out
}

/// The `skills` tool's description for `names` (the listed names, in order): the fixed text
/// alone when there are none.
pub fn description(names: &[String]) -> String {
    if names.is_empty() {
        TOOL_DESCRIPTION.to_string()
    } else {
        format!("{TOOL_DESCRIPTION}{LISTING}{}.", names.join(", "))
    }
}

/// The `skills` tool Cline offers when a skill is enabled, with `description` (see
/// [`description`]).
pub fn skill_tool(description: String) -> ToolDef {
    ToolDef {
        name: TOOL_NAME.into(),
        description,
        parameters: serde_json::json!({
            "type": "object",
            "properties": {
                "skill": {"type": "string", "minLength": 1, "description": "Name of the skill to execute."},
                "args": {
                    "description": "Arguments for the skill; use null when omitted",
                    "anyOf": [{"type": "string"}, {"type": "null"}]
                }
            },
            "required": ["skill"],
            "additionalProperties": false
        }),
    }
}

/// The rendered text and records for a loading (shared by [`render`] and the tests that
/// replay a captured directory order).
pub fn render_loading(input: &RenderInput<'_>, loading: Loading) -> Prompt {
    let lib = input.library;
    let mut b = Builder::default();
    let listed: Vec<&Loaded> = loading.skills.iter().filter(|s| !s.disabled).collect();
    if !listed.is_empty() {
        b.push(TOOL_DESCRIPTION);
        b.push(LISTING);
        for (k, s) in listed.iter().enumerate() {
            if k > 0 {
                b.push(", ");
            }
            let mut rec = record(lib, s.entry, &s.shown()).decided(
                Decision::NameOnly,
                "Cline lists names only (no description); the order is the file system's directory order",
            );
            if loading.raced.contains(&s.id()) {
                rec = rec.by_chance(DIRECTORY_ORDER);
            }
            b.entry(rec, |t| t.push_str(&s.shown()));
        }
        b.push(".");
    }
    for s in loading.skills.iter().filter(|s| s.disabled) {
        b.absent(record(lib, s.entry, &s.shown()).decided(
            Decision::Hidden,
            "`disabled: true` or `enabled: false`: loaded but not listed; the tool answers \"is configured but disabled\"",
        ));
    }
    for r in loading.rejected {
        b.absent(r);
    }
    let tools = if listed.is_empty() { vec![] } else { vec![skill_tool(b.text.clone())] };
    prompt::finish(&FORMAT, input.options, b, None, tools)
}

pub fn render(input: &RenderInput<'_>) -> Prompt {
    render_loading(input, load(input.library))
}

/// `skills({skill, args})`'s result (`executeSkill`): `Ok` with the command text, `Err` with the
/// message for a name that is unknown, ambiguous or disabled.
pub fn activate_in(loading: &Loading, skill: &str, args: Option<&str>) -> Result<String, String> {
    let want = js_trim(skill).trim_start_matches('/').to_lowercase();
    if want.is_empty() {
        return Err("Missing skill name.".into());
    }
    let found = match loading.skills.iter().find(|s| s.id() == want) {
        Some(s) => s,
        None => {
            let tail = want.rsplit(':').next().unwrap_or(&want).to_string();
            let matches: Vec<&Loaded> =
                loading.skills.iter().filter(|s| s.id() == tail || s.id().ends_with(&format!(":{tail}"))).collect();
            let enabled: Vec<&Loaded> = matches.iter().copied().filter(|s| !s.disabled).collect();
            match (enabled.len(), matches.len()) {
                (1, _) => enabled[0],
                (n, _) if n > 1 => {
                    let ids: Vec<String> = enabled.iter().map(|s| s.id()).collect();
                    return Err(format!("Skill \"{skill}\" is ambiguous. Use one of: {}", ids.join(", ")));
                }
                (_, 1) => return Err(format!("Skill \"{}\" is configured but disabled.", matches[0].name)),
                (_, m) if m > 1 => {
                    let ids: Vec<String> = matches.iter().map(|s| s.id()).collect();
                    return Err(format!(
                        "Skill \"{skill}\" is ambiguous, and all matches are disabled: {}",
                        ids.join(", ")
                    ));
                }
                _ => {
                    let mut names: Vec<String> =
                        loading.skills.iter().filter(|s| !s.disabled).map(|s| s.name.trim().to_string()).collect();
                    names.retain(|n| !n.is_empty());
                    sort_as_claude_code(&mut names, |n| n.clone());
                    return Err(if names.is_empty() {
                        "No skills are currently available.".into()
                    } else {
                        format!("Skill \"{skill}\" not found. Available skills: {}", names.join(", "))
                    });
                }
            }
        }
    };
    if found.disabled {
        return Err(format!("Skill \"{}\" is configured but disabled.", found.name));
    }
    let args = args.map(js_trim).filter(|a| !a.is_empty());
    let args = args.map(|a| format!("\n<command-args>{a}</command-args>")).unwrap_or_default();
    let description = found.description.as_deref().map(|d| format!("Description: {d}\n\n")).unwrap_or_default();
    Ok(format!(
        "<command-name>{}</command-name>{args}\n<command-instructions>\n{description}{}\n</command-instructions>",
        found.name, found.instructions
    ))
}

/// [`activate_in`] on `lib` as loaded now.
pub fn activate(lib: &Library, skill: &str, args: Option<&str>) -> Result<String, String> {
    activate_in(&load(lib), skill, args)
}

/// One session step as Cline handles it: the model calls `skills({skill, args})`.
pub fn session_step(s: &mut crate::session::Session, step: &crate::session::Step) -> crate::session::Outcome {
    use crate::session::{Outcome, Step};
    match step {
        Step::Invoke { skill, args } => invoke(s, skill, args.as_deref()),
        Step::Load { skill } => invoke(s, skill, None),
        Step::Slash { name, args } => {
            let typed = js_trim(&format!("/{name} {args}")).to_string();
            Outcome::ok(format!("/{name}"), typed).with_note(
                "`cline \"PROMPT\"` sends a slash command to the model as typed (trimmed, not expanded); the `skills` tool's description tells the model to invoke the skill with the tool",
            )
        }
        Step::Unload { skill } => Outcome::unsupported(format!("unload {skill}"), "cline", "unload tool"),
        Step::Tool { name, args } => Outcome::tool_not_judged(name, args, "Cline does not enforce allowed-tools"),
        Step::Edit { .. } | Step::User { .. } | Step::Model { .. } => {
            unreachable!("edits and conversation turns are handled by the session")
        }
    }
}

fn invoke(s: &mut crate::session::Session, skill: &str, args: Option<&str>) -> crate::session::Outcome {
    use crate::session::Outcome;
    let a = args.map_or("null".to_string(), |a| serde_json::to_string(a).unwrap_or_default());
    let call = format!("skills({{\"skill\": {}, \"args\": {a}}})", serde_json::to_string(skill).unwrap_or_default());
    match activate(&s.library, skill, args) {
        Ok(text) => {
            let loading = load(&s.library);
            let want = js_trim(skill).trim_start_matches('/').to_lowercase();
            let name = loading.skills.iter().find(|l| l.id() == want).map_or(skill.to_string(), |l| l.shown());
            if !s.loaded.contains(&name) {
                s.loaded.push(name);
            }
            Outcome::ok(call, text)
        }
        Err(text) => Outcome::error(call, text),
    }
}

/// Reads every skill as [`load`] does, remembering each reading ([`Agent::read`]).
pub fn read_all(lib: &Library) {
    load(lib);
}

/// A skill is activated by `skills` naming it (case-insensitively, as Cline looks it up).
pub const ACTIVATION: crate::agent::Activation = crate::agent::Activation {
    rule: "`skills` with `skill: S`",
    tools: |p| p.tools.clone(),
    call: |p, name, args| {
        if name != TOOL_NAME {
            return None;
        }
        let want = js_trim(args.get("skill")?.as_str()?).trim_start_matches('/').to_lowercase();
        let s = p.skills.iter().find(|s| s.range.is_some() && s.name.to_lowercase() == want)?;
        let a = args.get("args").and_then(|a| a.as_str()).map(str::to_string);
        Some(crate::agent::SkillCall::Invoke { skill: s.name.clone(), args: a })
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_regex_cut() {
        assert_eq!(split("---\nname: a\n---\nbody\n"), Some(("name: a", "body\n")));
        assert_eq!(split("---\r\nname: a\r\n---\r\n\r\nbody"), Some(("name: a", "\r\nbody")));
        assert_eq!(split("---\nname: a\n---x"), Some(("name: a", "x")));
        assert_eq!(split("---\n---\nbody"), None);
        assert_eq!(split("# no"), None);
        assert_eq!(split("---\nname: a\n"), None);
    }

    #[test]
    fn yaml_1_2_core_types() {
        let y = yaml::parse("name: 2026-01-31\nn: 42\nq: '42'\nz: ~\nb: True\n", 0);
        let entries = y.root.as_ref().unwrap().entries().unwrap();
        let get = |k: &str| entries.iter().find(|e| e.key.as_str() == Some(k)).map(|e| &e.value);
        assert_eq!(yaml_string(get("name")), Ok(Some("2026-01-31".into())));
        assert_eq!(yaml_string(get("n")), Err(()));
        assert_eq!(yaml_string(get("q")), Ok(Some("42".into())));
        assert_eq!(yaml_string(get("z")), Ok(None));
        assert_eq!(yaml_bool(get("b")), Ok(Some(true)));
        assert_eq!(yaml_bool(get("q")), Err(()));
    }

    #[test]
    fn names_holding_a_colon_are_shown_by_their_key() {
        let l = |name: &str| Loaded {
            name: name.into(),
            description: None,
            disabled: false,
            instructions: "b".into(),
            entry: 0,
        };
        assert_eq!(l("Team:Helper").shown(), "team:helper");
        assert_eq!(l("Padded Name").shown(), "Padded Name");
        assert_eq!(description(&[]), TOOL_DESCRIPTION);
        assert!(description(&["a".into(), "B c".into()]).ends_with(" Available skills: a, B c."));
    }
}
