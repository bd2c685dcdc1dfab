//! harness9's skills as designed in seed `002_246df5754482a3d2.txt` ("Agent Skills 技术方案").
//! Sections are the seed's own numbering (§1 设计原理 … §9 CLI 启动方式).
//!
//! - Source and discovery: `{workdir}/skills/`; at start harness9 scans every subfolder of it and
//!   loads its `SKILL.md`, a fixed file name (§2). Only direct subfolders, hidden ones included
//!   ("所有子目录"). A missing `skills/` folder gives an empty index, silently (§8).
//! - Reading (§3, §8): YAML frontmatter at the start of the file with `name` (the identifier
//!   `use_skill` takes), `description` (what the index shows) and `trigger` (documentation only,
//!   never shown or matched, §3). A subfolder without `SKILL.md`, or a file without `name` or
//!   `description`, is skipped with a warn log (§8). No other rule: no name pattern, no folder
//!   match, no length limit.
//! - Text (§5): appended at the end of the system prompt by `context.DefaultPromptBuilder` (§5,
//!   §7): [`HEADER`] (`## Available Skills` and the `use_skill` line), then one `- {name}:
//!   {description}` line per skill, exactly as §5 prints them.
//! - Tools (§4.1, §6): `use_skill` with one string argument `skill_name`; it returns the skill
//!   file's body after the frontmatter (the result belongs to the session simulator, as do the
//!   `/skill-name args` slash commands of §4.2, see [`SLASH_ARGS_SEPARATOR`]).
//! - Budget: none; every skill is listed (§1: only name + description go into the prompt).
//!
//! Where the seed is silent (harness9 is not built on DeepAgents, so these are the most literal
//! readings of the seed):
//! - Separators: no blank line between the header, the `use_skill` line and the list, and no
//!   newline after the last entry (the §5 block shows none).
//! - An empty index (no skills folder, or no valid skill) prints nothing: the section is skipped
//!   as §8 does for a missing folder ("返回空 Index，静默跳过"); the `use_skill` tool is still
//!   offered.
//! - Order: subfolders in name order (a directory listing); with several sources, source order
//!   first. Several sources and name clashes are a studio extension (§2 has one folder): a later
//!   skill with the same `name` replaces an earlier one and is listed in its own place.
//! - Frontmatter must start on the first byte (`---`, §3 "开头包含"), and close with a `---`
//!   line; it is parsed as YAML and a YAML error skips the skill like a missing field. A scalar
//!   counts as its text, as written (no trimming); a YAML null or an empty value is missing; a
//!   list or mapping is not a string and skips the skill.
//! - Warn log wording: the seed gives none; [`crate::prompt::Prompt::warnings`] paraphrases §8.
//! - `use_skill`'s description: the seed gives none; [`USE_SKILL_DESCRIPTION`] paraphrases §4.1
//!   and §6. The parameter has no description (the seed shows only its name and type).
//! - Tokens: the seed does not name a model (§4.1 speaks of `tool_use`/`tool_result`), so counts
//!   are marked as estimates.

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::library::discover::DiscoveryPolicy;
use crate::library::{Entry, NameKey};
use crate::prompt::{
    self, folder_name, Builder, Decision, Format, Placement, Prompt, PromptSkill, RenderInput, ToolDef,
};
use crate::skill::FileProblem;
use crate::syntax::yaml::{Node, NodeKind, ScalarStyle};

pub static AGENT: Agent = Agent {
    id: "harness9",
    title: "harness9 (seed design)",
    kind: AgentKind::TestProfile,
    label: "harness9 (seed)",
    source: "seed 002_246df5754482a3d2.txt (## Available Skills, use_skill)",
    lint: LintProfile::DEFAULT,
    discovery: DiscoveryPolicy::CHILDREN,
    key: NameKey::Frontmatter,
    prompt: Some(render),
    read: Some(read_all),
    activation: Some(ACTIVATION),
    installs: &[],
};

const FORMAT: Format = Format {
    agent: "harness9",
    source: AGENT.source,
    placement: Placement::SystemPrompt,
    placement_detail: "appended at the end of the system prompt by context.DefaultPromptBuilder (seed 002 §5, §7)",
    default_context_window: 200_000,
    estimate: true,
};

/// The index's first two lines (seed 002 §5), each ending in a newline.
pub const HEADER: &str =
    "## Available Skills\nUse the `use_skill` tool to load the full content of any skill when needed.\n";

/// The skill file harness9 loads from each subfolder (seed 002 §2).
pub const SKILL_FILE: &str = "SKILL.md";

/// `use_skill`'s description. The seed gives none: this paraphrases §4.1 and §6.
pub const USE_SKILL_DESCRIPTION: &str =
    "Load the full content of a skill by name: the SKILL.md body after its frontmatter.";

/// A slash command's prompt is the skill body, then this, then the arguments
/// (`/go-refactor 清理 main.go → prompt = skill body + "\n\n" + "清理 main.go"`, seed 002 §4.2).
pub const SLASH_ARGS_SEPARATOR: &str = "\n\n";

/// What harness9 keeps of a skill (`skills.Skill`, seed 002 §3, §7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metadata {
    pub name: String,
    pub description: String,
    /// Documentation only (§3).
    pub trigger: Option<String>,
}

/// A frontmatter value as a Go string: a scalar's text, empty for a YAML null.
fn string_value(n: &Node) -> Result<String, &'static str> {
    match &n.kind {
        NodeKind::Scalar { value, style } => {
            let null = *style == ScalarStyle::Plain
                && n.tag.is_none()
                && matches!(value.as_str(), "" | "~" | "null" | "Null" | "NULL");
            Ok(if null { String::new() } else { value.clone() })
        }
        _ => Err("not a string"),
    }
}

/// Reads a skill as harness9 does (seed 002 §3, §8): its metadata, or why it is skipped.
pub fn read(entry: &Entry) -> Result<Metadata, String> {
    let skill = &entry.skill;
    if skill.file_name != SKILL_FILE {
        return Err(format!("no {SKILL_FILE} in the folder (only `{}`)", skill.file_name));
    }
    for p in &skill.file_problems {
        match p {
            FileProblem::Missing => return Err(format!("no {SKILL_FILE} in the folder")),
            FileProblem::NotAFile { kind } => return Err(format!("{SKILL_FILE} is a {kind}, not a file")),
            FileProblem::Unreadable { error } => return Err(format!("cannot read {SKILL_FILE}: {error}")),
            FileProblem::TooLarge { size } => {
                return Err(format!("not read: {size} bytes, over the studio's 10 MiB limit (harness9 sets none)"))
            }
            FileProblem::InvalidUtf8 { .. } | FileProblem::Binary { .. } => {}
        }
    }
    let split = &skill.split;
    if split.bom || split.leading.is_some() || !split.has_frontmatter() {
        return Err("missing name or description: the file does not start with YAML frontmatter".into());
    }
    if !split.is_closed() {
        return Err("missing name or description: the frontmatter has no closing `---` line".into());
    }
    if let Some(e) = &skill.yaml.error {
        return Err(format!("invalid YAML frontmatter: {}", e.message));
    }
    let entries = skill.yaml.root.as_ref().and_then(Node::entries).unwrap_or_default();
    let get = |key: &str| -> Result<String, String> {
        match entries.iter().rev().find(|e| e.key.as_str() == Some(key)) {
            None => Ok(String::new()),
            Some(e) => string_value(&e.value).map_err(|why| format!("`{key}` is {why}")),
        }
    };
    let name = get("name")?;
    let description = get("description")?;
    if name.is_empty() || description.is_empty() {
        return Err("missing name or description".into());
    }
    let trigger = get("trigger").ok().filter(|t| !t.is_empty());
    Ok(Metadata { name, description, trigger })
}

/// The warn log for subfolders of `source` without a `SKILL.md` (seed 002 §8), which discovery
/// does not list as skills.
fn folders_without_skill_file(input: &RenderInput<'_>, source: usize) -> Vec<String> {
    let src = &input.library.sources[source];
    let Ok(read) = std::fs::read_dir(&src.path) else { return vec![] };
    // Folders the library found a skill file in need no second look.
    let known: std::collections::HashSet<String> = input
        .library
        .entries
        .iter()
        .filter(|e| e.source == source && e.skill.file_name == SKILL_FILE)
        .map(crate::prompt::folder_name)
        .collect();
    let mut dirs: Vec<String> = read
        .flatten()
        .filter(|e| !known.contains(e.file_name().to_string_lossy().as_ref()))
        .filter(|e| e.path().is_dir() && std::fs::symlink_metadata(e.path().join(SKILL_FILE)).is_err())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let given = input.source_path(source);
    let sep = if given.ends_with('/') { "" } else { "/" };
    dirs.into_iter().map(|d| format!("skipping {given}{sep}{d}: no {SKILL_FILE}")).collect()
}

/// One index line (seed 002 §5), without the joining newline.
fn entry_text(m: &Metadata) -> String {
    format!("- {}: {}", m.name, m.description)
}

/// The `use_skill` tool (seed 002 §4.1, §6).
pub fn tools() -> Vec<ToolDef> {
    vec![ToolDef {
        name: "use_skill".into(),
        description: USE_SKILL_DESCRIPTION.into(),
        parameters: serde_json::json!({
            "type": "object",
            "properties": { "skill_name": { "type": "string" } },
            "required": ["skill_name"],
        }),
    }]
}

pub fn render(input: &RenderInput<'_>) -> Prompt {
    let lib = input.library;
    let mut b = Builder::default();
    let mut valid: Vec<(Metadata, usize)> = vec![];
    let mut absent: Vec<PromptSkill> = vec![];
    for (si, src) in lib.sources.iter().enumerate() {
        if !src.exists {
            continue;
        }
        if !input.options.decisions_only {
            b.warnings.extend(folders_without_skill_file(input, si));
        }
        for (i, e) in lib.entries.iter().enumerate().filter(|(_, e)| e.source == si) {
            let path = prompt::listed_file(input, e);
            match (*e.reading("harness9", "", read)).clone() {
                Ok(m) => valid.push((m, i)),
                Err(why) => {
                    // A `skill.md`-only folder was already logged as lacking `SKILL.md`.
                    if e.skill.file_name == SKILL_FILE {
                        b.warnings.push(format!("skipping {path}: {why}"));
                    }
                    absent.push(
                        prompt::skill(e.skill.display_name(), folder_name(e), &path, Some(si))
                            .of(e)
                            .decided(Decision::Invalid, why),
                    );
                }
            }
        }
    }
    // A later skill of the same name wins.
    let winner = |name: &str| valid.iter().rposition(|(m, _)| m.name == name);
    let mut listed = vec![];
    for (n, (m, i)) in valid.iter().enumerate() {
        let e = &lib.entries[*i];
        let rec = prompt::skill(&m.name, folder_name(e), prompt::listed_file(input, e), Some(e.source)).of(e);
        match winner(&m.name) {
            Some(w) if w != n => {
                let we = &lib.entries[valid[w].1];
                let reason = format!(
                    "`{}` from {} wins: a later skill of the same name replaces an earlier one",
                    m.name,
                    prompt::listed_file(input, we)
                );
                absent.push(rec.decided(Decision::Shadowed, reason));
            }
            _ => listed.push((m, rec)),
        }
    }
    if !listed.is_empty() {
        b.push(HEADER);
    }
    for (n, (m, rec)) in listed.into_iter().enumerate() {
        if n > 0 {
            b.push("\n");
        }
        b.entry(rec, |t| t.push_str(&entry_text(m)));
    }
    for a in absent {
        b.absent(a);
    }
    prompt::finish(&FORMAT, input.options, b, None, tools())
}

// ---------------------------------------------------------------------------------------------
// The session: `use_skill` (seed 002 §4.1, §6) and `/name args` (§4.2).

/// The skills harness9 indexes, by name, with their library entries (later sources win).
fn index(lib: &crate::library::Library) -> Vec<(Metadata, usize)> {
    let mut out: Vec<(Metadata, usize)> = vec![];
    let mut slots: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, e) in lib.entries.iter().enumerate() {
        if let Ok(m) = (*e.reading("harness9", "", read)).clone() {
            match slots.get(&m.name) {
                Some(&k) => out[k] = (m, i),
                None => {
                    slots.insert(m.name.clone(), out.len());
                    out.push((m, i))
                }
            }
        }
    }
    out
}

/// The body after the frontmatter, which `use_skill` returns and `/name` sends (seed 002 §4.1:
/// "frontmatter 之后的完整 body 内容").
pub fn body(entry: &Entry) -> String {
    entry.skill.body().to_string()
}

/// `use_skill(skill_name)`: the body, or an error naming the available skills (seed 002 §8: "返回
/// 包含可用名称列表的错误信息"; the wording is the studio's, the seed gives none).
pub fn use_skill(lib: &crate::library::Library, skill_name: &str) -> (String, bool) {
    let idx = index(lib);
    match idx.iter().find(|(m, _)| m.name == skill_name) {
        Some((_, i)) => (body(&lib.entries[*i]), true),
        None => {
            let names: Vec<&str> = idx.iter().map(|(m, _)| m.name.as_str()).collect();
            (format!("skill \"{skill_name}\" not found; available skills: {}", names.join(", ")), false)
        }
    }
}

/// `/name args` (seed 002 §4.2): the prompt is the body, plus `"\n\n"` and the arguments when
/// given. `None` when no skill has that name (harness9 prints an error to stderr and sends
/// nothing, §8).
pub fn slash(lib: &crate::library::Library, name: &str, args: &str) -> Option<String> {
    let idx = index(lib);
    let (_, i) = idx.iter().find(|(m, _)| m.name == name)?;
    let mut prompt = body(&lib.entries[*i]);
    if !args.is_empty() {
        prompt.push_str(SLASH_ARGS_SEPARATOR);
        prompt.push_str(args);
    }
    Some(prompt)
}

/// One session step as harness9 handles it.
pub fn session_step(s: &mut crate::session::Session, step: &crate::session::Step) -> crate::session::Outcome {
    use crate::session::{Outcome, Step};
    match step {
        Step::Invoke { skill, .. } | Step::Load { skill } => {
            let call = format!("use_skill(\"{skill}\")");
            match use_skill(&s.library, skill) {
                (text, true) => Outcome::ok(call, text),
                (text, false) => Outcome::error(call, text),
            }
        }
        Step::Slash { name, args } => {
            let call = if args.is_empty() { format!("/{name}") } else { format!("/{name} {args}") };
            match slash(&s.library, name, args) {
                Some(p) => Outcome::ok(call, p).with_note("sent as the user's prompt"),
                None => Outcome::error(call, String::new())
                    .with_note(format!("no skill `{name}`: harness9 prints an error to stderr and sends nothing")),
            }
        }
        Step::Unload { skill } => Outcome::unsupported(format!("unload {skill}"), "harness9", "unload tool"),
        Step::Tool { name, args } => Outcome::tool_not_judged(name, args, "harness9 does not enforce allowed-tools"),
        Step::Edit { .. } | Step::User { .. } | Step::Model { .. } => {
            unreachable!("edits and conversation turns are handled by the session")
        }
    }
}

/// Reads every skill as [`render`] does, remembering each reading ([`Agent::read`]).
pub fn read_all(lib: &crate::library::Library) {
    index(lib);
}

/// A skill is activated by `use_skill` naming it (seed 002 §4.1).
pub const ACTIVATION: crate::agent::Activation =
    crate::agents::activation::by_skill_tool!("use_skill", "skill_name", "`use_skill` with `skill_name: S`");
#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn entry(text: &str) -> Entry {
        let skill = crate::skill::Skill::parse("/w/skills/go-refactor", "SKILL.md", text.to_string());
        Entry {
            source: 0,
            listed_as: PathBuf::from("/w/skills/go-refactor"),
            skill: Box::new(skill),
            diagnostics: vec![],
            key: "go-refactor".into(),
            shadowed_by: None,
            readings: Default::default(),
        }
    }

    #[test]
    fn reads_the_three_fields() {
        let m = read(&entry(
            "---\nname: go-refactor\ndescription: Use when refactoring Go code — team conventions and patterns\ntrigger: \"refactor, clean up, restructure, simplify\"\n---\n# Go 重构指南\n",
        ))
        .unwrap();
        assert_eq!(m.name, "go-refactor");
        assert_eq!(entry_text(&m), "- go-refactor: Use when refactoring Go code — team conventions and patterns");
        assert_eq!(m.trigger.as_deref(), Some("refactor, clean up, restructure, simplify"));
    }

    #[test]
    fn skips_what_lacks_name_or_description() {
        for text in [
            "---\nname: a\n---\nbody\n",
            "---\ndescription: d\n---\n",
            "---\nname: ~\ndescription: d\n---\n",
            "# no frontmatter\n",
            "\n---\nname: a\ndescription: d\n---\n",
            "---\nname: a\ndescription: d\n",
            "---\nname: [a]\ndescription: d\n---\n",
            "---\nname: a\ndescription: d: e\n---\n",
        ] {
            assert!(read(&entry(text)).is_err(), "{text:?}");
        }
    }

    #[test]
    fn no_rules_beyond_presence() {
        let m = read(&entry("---\nname: Not_The_Folder\ndescription: 123\n---\n")).unwrap();
        assert_eq!((m.name.as_str(), m.description.as_str()), ("Not_The_Folder", "123"));
    }
}
