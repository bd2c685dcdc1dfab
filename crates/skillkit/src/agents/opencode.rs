//! OpenCode 1.18.33 (`opencode-ai`, a Bun-compiled binary): the skills block at the end of its
//! system prompt and its `skill` tool, captured from the real program (`opencode run`) on every
//! tree in `tests/fixtures/prompt-trees` (goldens in `tests/fixtures/prompt-goldens/
//! opencode-1.18.33`, script `tests/oracles/capture_opencode.sh`), with the loader read in the
//! JavaScript embedded in the binary (`Skill.discovery`, `Skill.load`, `Skill.fmt`,
//! `ConfigMarkdown.parse`).
//!
//! - Locations: `~/.claude/skills` and `~/.agents/skills` (global), every `.claude`/`.agents`
//!   folder from the cwd up to the worktree root (`skills/**/SKILL.md`), then OpenCode's config
//!   folders (`~/.config/opencode`, `.opencode` up the tree, `~/.opencode`) with
//!   `{skill,skills}/**/SKILL.md`, then `skills.paths` from the config. All nine folders are read
//!   in one run (`scopes` capture). Not modelled: which folder a `--source` stands for; the
//!   engine takes the sources as given, lowest priority first, as for the other agents.
//! - Discovery: recursive (`**/SKILL.md`, a `SKILL.md` below another skill's folder counts too),
//!   the file name exactly `SKILL.md` (captured on `tests/fixtures/opencode-discovery`: nested
//!   skills listed, `.hidden-skill/` and `lower-file/skill.md` not). Hidden folders are skipped
//!   in OpenCode's own folders; the `.claude`/`.agents` scans use `dot: true` and would find them
//!   (not modelled: the engine's policy is one per agent).
//! - Duplicates: **not deterministic**. OpenCode parses every file in parallel
//!   (`concurrency: "unbounded"`) into one object keyed by name, so the parse that finishes last
//!   wins. Captured: three `shared` skills in one folder (`same-name`) gave `dup-x`, `dup`,
//!   `dup` in three runs; across folders (`override`) the project copy beat
//!   `~/.config/opencode/skills` in all four runs. skillkit shows the skill found last (the
//!   later `--source`, then the later path in byte order) and, like OpenCode, logs
//!   `level=WARN message="duplicate skill name" name=N existing=P duplicate=Q` for each other
//!   copy (exact on `override`); the others' decision is `shadowed`, not invalid. Everything
//!   but the winner's entry is byte-exact on both trees.
//! - Reading (`ConfigMarkdown.parse`, gray-matter + js-yaml): the frontmatter is the text after a
//!   leading `---` up to the first `\n---` (to the end without one); when js-yaml rejects it, it
//!   is parsed again after OpenCode's fix-up (a top-level `key: value` line whose unquoted value
//!   holds a `:` becomes `key: |-` + the value), else the file is skipped (logged `failed to load
//!   skill`, not shown by `opencode run`). A skill is loaded when the frontmatter is a mapping
//!   whose `name` is a string (no name, a number, no frontmatter → skipped silently) and whose
//!   `description` is absent or a string (`description:` with no value is null → skipped). No
//!   length or character rules.
//! - Text: `Skills provide…`, `Use the skill tool…`, then `<available_skills>` with one
//!   `<skill>` per loaded skill **that has a description** (an empty one counts), sorted by name
//!   with `localeCompare` (ICU root collation, as [`sort_as_claude_code`]); name and
//!   description raw (no escaping; a block scalar keeps its final newline), `<location>` the
//!   XML-escaped absolute `SKILL.md` path. The built-in `customize-opencode` (location
//!   `<built-in>`) is always listed, so there is always a block. No budget.
//! - Placement: the very end of the system message, after `</env>`.
//! - Tool: `skill` with `{name}` ([`skill_tool`], static description). A call with a known name
//!   (listed or not) returns the skill's body with its folder and a sample of its files
//!   ([`activate`]; the files are ripgrep's walk, which skillkit reproduces only by sorting
//!   them); an unknown name fails with `Skill "X" not found. Available skills: …` over every
//!   loaded name in code-unit order.
//!   Sessions ([`session_step`]) answer `skill(name)` with [`activate`]; no slash command.

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::agents::claude_code::sort_as_claude_code;
use crate::agents::compat::js::js_trim;
use crate::agents::gemini_cli::{has_duplicate_keys, js_string};
use crate::library::discover::{Depth, DiscoveryPolicy};
use crate::library::{Entry, Library, NameKey};
use crate::prompt::{self, folder_name, Builder, Decision, Format, Placement, Prompt, RenderInput, ToolDef};
use crate::skill::FileProblem;
use crate::syntax::yaml;
use std::path::Path;

pub static AGENT: Agent = Agent {
    id: "opencode",
    title: "OpenCode",
    kind: AgentKind::Agent,
    label: "OpenCode 1.18",
    source: "OpenCode 1.18.33 (opencode-ai, real program, captured 2026-11-28)",
    lint: LintProfile::DEFAULT,
    discovery: DISCOVERY,
    key: NameKey::Frontmatter,
    prompt: Some(render),
    read: Some(read_all),
    activation: Some(ACTIVATION),
    installs: &[],
};

/// `skills/**/SKILL.md`: recursive, into skill folders too, hidden folders skipped (OpenCode's
/// own folders; see the module notes).
pub const DISCOVERY: DiscoveryPolicy = DiscoveryPolicy {
    depth: Depth::Recursive { max_depth: 64, max_dirs: 100_000 },
    include_hidden: false,
    root_is_skill: false,
    nested: true,
};

/// gpt-4o's context window (the model of the captures).
pub const DEFAULT_CONTEXT_WINDOW: u64 = 128_000;

const FORMAT: Format = Format {
    agent: "opencode",
    source: AGENT.source,
    placement: Placement::SystemPrompt,
    placement_detail: "the very end of the system message (messages[0]), right after </env>",
    default_context_window: DEFAULT_CONTEXT_WINDOW,
    estimate: true,
};

pub const TOOL_NAME: &str = "skill";
const HEAD: &str = "Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description.\n<available_skills>\n";
const TAIL: &str = "\n</available_skills>";
/// The built-in skill every listing holds.
pub const BUILTIN_NAME: &str = "customize-opencode";
/// Its location as OpenCode prints it (before escaping).
pub const BUILTIN_LOCATION: &str = "<built-in>";
/// Its description, as OpenCode 1.18.33 registers it in code.
pub const BUILTIN_DESCRIPTION: &str = "Use ONLY when the user is editing or creating opencode's own configuration: opencode.json, opencode.jsonc, files under .opencode/, or files under ~/.config/opencode/. Also use when creating or fixing opencode agents, subagents, skills, plugins, MCP servers, or permission rules. Do not use for the user's own application code, or for any project that is not configuring opencode itself.";
const TOOL_DESCRIPTION: &str = "Load a specialized skill when the task at hand matches one of the skills listed in the system prompt.\n\nUse this tool to inject the skill's instructions and resources into current conversation. The output may contain detailed workflow guidance as well as references to scripts, files, etc in the same directory as the skill.\n\nThe skill name must match one of the skills listed in your system prompt.\n";
/// Files an activation shows at most.
pub const MAX_FILES: usize = 10;

/// A skill OpenCode loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub name: String,
    /// `None`: loaded but not listed (the tool can still load it).
    pub description: Option<String>,
    /// The absolute `SKILL.md` path as found (not escaped).
    pub location: String,
    /// gray-matter's content: the text after the closing `---` line.
    pub body: std::sync::Arc<str>,
    /// Index into [`Library::entries`].
    pub entry: usize,
}

/// gray-matter's split: the frontmatter text and the content after it, or `None` when the file
/// has no frontmatter (then OpenCode sees `{}` and skips the skill).
pub fn matter(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("---")?;
    if rest.starts_with('-') {
        return None;
    }
    // A language name on the opening line (`---yaml`) is sliced off.
    let lang_end =
        rest.find('\n').map_or(rest.len(), |i| if i > 0 && rest.as_bytes()[i - 1] == b'\r' { i - 1 } else { i });
    let rest = &rest[lang_end..];
    match rest.find("\n---") {
        None => Some((rest, "")),
        Some(close) => {
            let mut content = &rest[close + 4..];
            content = content.strip_prefix('\r').unwrap_or(content);
            content = content.strip_prefix('\n').unwrap_or(content);
            Some((&rest[..close], content))
        }
    }
}

/// `ConfigMarkdown.sanitize` on the frontmatter text: top-level `key: value` lines whose
/// unquoted value holds a `:` become a `|-` block scalar.
pub fn sanitize(fm: &str) -> String {
    let key_re = |line: &str| -> Option<(String, String)> {
        let b = line.as_bytes();
        if b.is_empty() || !(b[0].is_ascii_alphabetic() || b[0] == b'_') {
            return None;
        }
        let k = line.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(line.len());
        let after = line[k..].trim_start_matches(|c: char| c.is_whitespace());
        let value = after.strip_prefix(':')?;
        Some((line[..k].to_string(), value.to_string()))
    };
    let mut out: Vec<String> = vec![];
    for line in fm.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let t = js_trim(line);
        if t.starts_with('#') || t.is_empty() || line.starts_with(char::is_whitespace) {
            out.push(line.to_string());
            continue;
        }
        let Some((key, value)) = key_re(line) else {
            out.push(line.to_string());
            continue;
        };
        let v = js_trim(&value);
        if v.is_empty() || v == ">" || v == "|" || v.starts_with('"') || v.starts_with('\'') || !v.contains(':') {
            out.push(line.to_string());
            continue;
        }
        out.push(format!("{key}: |-"));
        out.push(format!("  {v}"));
    }
    out.join("\n")
}

/// What js-yaml makes of `name` and `description`: `Err` when it throws (after the fix-up, too),
/// `Ok(None)` when the frontmatter is not a mapping with a string name and an absent or string
/// description, else the name and the description (`None` when absent).
pub fn fields(fm: &str, parsed: Option<&yaml::Yaml>) -> Result<Option<(String, Option<String>)>, String> {
    fn of(y: &yaml::Yaml) -> Result<Option<(String, Option<String>)>, String> {
        if let Some(e) = &y.error {
            return Err(e.message.clone());
        }
        let Some(root) = &y.root else { return Ok(None) };
        if has_duplicate_keys(root) {
            return Err("duplicated mapping key".into());
        }
        let Some(entries) = root.entries() else { return Ok(None) };
        let get = |k: &str| entries.iter().find(|e| e.key.as_str() == Some(k)).map(|e| &e.value);
        let Some(name) = get("name").and_then(js_string) else { return Ok(None) };
        let description = match get("description") {
            None => None,
            Some(v) => match js_string(v) {
                Some(d) => Some(d),
                None => return Ok(None),
            },
        };
        Ok(Some((name, description)))
    }
    // gray-matter reads a block of only comments and blank lines as `{}`.
    let blank = fm.lines().all(|l| {
        let t = l.trim_start();
        t.is_empty() || (t.starts_with('#') && !t[1..].trim().is_empty()) || t == "#"
    });
    if blank || fm.trim().is_empty() {
        return Ok(None);
    }
    let first = yaml::parse_or(fm, parsed);
    match of(&first) {
        Ok(v) => Ok(v),
        Err(_) => of(&yaml::parse(&sanitize(fm), 0)),
    }
}

/// The absolute `SKILL.md` path as OpenCode finds it (glob `absolute: true`, not resolved).
pub fn location(entry: &Entry) -> String {
    prompt::path_string(&prompt::absolute(&entry.listed_as).join(&entry.skill.file_name))
}

/// `Skill.load` for one file: `Ok(None)` when OpenCode never sees it (not named exactly
/// `SKILL.md`), `Err(reason)` when it skips it.
pub fn read(entry: &Entry, index: usize) -> Result<Option<Loaded>, String> {
    let skill = &entry.skill;
    if skill.file_name != "SKILL.md" {
        return Ok(None);
    }
    for p in &skill.file_problems {
        match p {
            FileProblem::Missing | FileProblem::NotAFile { .. } => return Ok(None),
            FileProblem::Unreadable { error } => return Err(format!("cannot be read ({error}): skipped")),
            FileProblem::TooLarge { size } => {
                return Err(format!("not read by skillkit: {size} bytes, over its 10 MiB limit"))
            }
            FileProblem::InvalidUtf8 { .. } | FileProblem::Binary { .. } => {}
        }
    }
    let Some((fm, body)) = matter(&skill.text) else {
        return Err("no frontmatter (the file does not start with `---`): skipped silently".into());
    };
    match fields(fm, skill.yaml_for(fm)) {
        Err(e) => Err(format!("failed to load skill: the frontmatter is not YAML ({e}): skipped")),
        Ok(None) => {
            Err("no string `name` in the frontmatter, or a `description` that is not a string: skipped silently".into())
        }
        Ok(Some((name, description))) => {
            Ok(Some(Loaded { name, description, location: location(entry), body: body.into(), entry: index }))
        }
    }
}

/// What OpenCode loaded: the skills (one per name), the skipped and shadowed ones, and its log
/// lines.
#[derive(Clone, Debug, Default)]
pub struct Loading {
    /// In no particular order; [`listing_order`] sorts them.
    pub skills: Vec<Loaded>,
    pub rejected: Vec<prompt::PromptSkill>,
    pub warnings: Vec<String>,
    /// The names more than one skill has: which of them OpenCode keeps is a race.
    pub raced: std::collections::HashSet<String>,
}

/// Why a duplicate name's outcome varies between runs of OpenCode.
pub const RACE: &str =
    "OpenCode parses skill files in parallel and keeps whichever of the skills named alike it finishes last";

/// Loads `lib` as OpenCode does, with the duplicate winner fixed to the skill found last
/// (sources in order, each in path order).
pub fn load(lib: &Library) -> Loading {
    let mut out = Loading::default();
    let mut slots: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut order: Vec<(usize, String, usize)> =
        lib.entries.iter().enumerate().map(|(i, e)| (e.source, location(e), i)).collect();
    order.sort();
    for (_, at, i) in order {
        let e = &lib.entries[i];
        let reading = e.reading("opencode", "", |e| read(e, i));
        match reading.as_ref().clone().map(|l| l.map(|l| Loaded { entry: i, ..l })) {
            Ok(None) => {}
            Err(reason) => out.rejected.push(
                prompt::skill(e.skill.display_name(), folder_name(e), &at, Some(e.source))
                    .of(e)
                    .decided(Decision::Invalid, reason),
            ),
            Ok(Some(new)) => match slots.get(&new.name).copied() {
                Some(k) => {
                    out.warnings.push(format!(
                        "level=WARN message=\"duplicate skill name\" name={} existing={} duplicate={}",
                        new.name, out.skills[k].location, new.location
                    ));
                    out.raced.insert(new.name.clone());
                    let old = std::mem::replace(&mut out.skills[k], new);
                    let oe = &lib.entries[old.entry];
                    out.rejected.push(
                        prompt::skill(&old.name, folder_name(oe), &old.location, Some(oe.source)).of(oe).decided(
                            Decision::Shadowed,
                            format!(
                                "`{}` at {} has the same name; OpenCode's winner is a race between its parallel parses (skillkit shows the last found)",
                                out.skills[k].name, out.skills[k].location
                            ),
                        ).by_chance(RACE),
                    );
                }
                None => {
                    slots.insert(new.name.clone(), out.skills.len());
                    out.skills.push(new);
                }
            },
        }
    }
    out
}

/// `escapeXml`: `&<>"'` as entities (`&#39;` for `'`).
pub fn escape_xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One `<skill>` entry, without the joining newline.
pub fn entry_text(name: &str, description: &str, location: &str) -> String {
    format!(
        "  <skill>\n    <name>{name}</name>\n    <description>{description}</description>\n    <location>{}</location>\n  </skill>",
        escape_xml(location)
    )
}

/// The listed skills (those with a description) plus the built-in, sorted as OpenCode sorts
/// them: `None` stands for the built-in (a skill of the library named `customize-opencode`
/// replaces it).
pub fn listing_order(loading: &Loading) -> Vec<Option<&Loaded>> {
    let mut v: Vec<Option<&Loaded>> = loading.skills.iter().filter(|s| s.description.is_some()).map(Some).collect();
    if !loading.skills.iter().any(|s| s.name == BUILTIN_NAME) {
        v.push(None);
    }
    sort_as_claude_code(&mut v, |s| s.map_or(BUILTIN_NAME, |s| s.name.as_str()).to_string());
    v
}

/// The `skill` tool OpenCode offers (static).
pub fn skill_tool() -> ToolDef {
    ToolDef {
        name: TOOL_NAME.into(),
        description: TOOL_DESCRIPTION.into(),
        parameters: serde_json::json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {"name": {"type": "string", "description": "The name of the skill from available_skills"}},
            "required": ["name"]
        }),
    }
}

/// Up to [`MAX_FILES`] files of `dir` other than `SKILL.md`, as absolute paths. OpenCode lists
/// them with ripgrep (`rg --files`), whose walk order is its own; skillkit sorts them.
pub fn sample_files(dir: &Path) -> Vec<String> {
    let mut out = vec![];
    let mut stack = vec![prompt::absolute(dir)];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                stack.push(e.path());
            } else if ft.is_file() && !(d == prompt::absolute(dir) && name == "SKILL.md") {
                out.push(prompt::path_string(&e.path()));
            }
        }
    }
    out.sort();
    out.truncate(MAX_FILES);
    out
}

/// The `skill` tool's result for `name`: `Ok` with the `<skill_content>` text, `Err` with the
/// error the model gets for an unknown name. The built-in skill is not reproduced (its body is
/// OpenCode's own document).
pub fn activate(lib: &Library, name: &str) -> Result<String, String> {
    let loading = load(lib);
    let Some(s) = loading.skills.iter().find(|s| s.name == name) else {
        let mut names: Vec<&str> = loading.skills.iter().map(|s| s.name.as_str()).collect();
        if !names.contains(&BUILTIN_NAME) {
            names.push(BUILTIN_NAME);
        }
        names.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
        return Err(format!("Skill \"{name}\" not found. Available skills: {}", names.join(", ")));
    };
    let dir = Path::new(&s.location).parent().unwrap_or(Path::new("/"));
    let files: Vec<String> = sample_files(dir).iter().map(|f| format!("<file>{f}</file>")).collect();
    Ok(format!(
        "<skill_content name=\"{name}\">\n# Skill: {name}\n\n{}\n\nBase directory for this skill: {}\nRelative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.\nNote: file list is sampled.\n\n<skill_files>\n{}\n</skill_files>\n</skill_content>",
        js_trim(&s.body),
        prompt::path_string(dir),
        files.join("\n"),
    ))
}

pub fn render(input: &RenderInput<'_>) -> Prompt {
    let loading = load(input.library);
    let mut b = Builder { warnings: loading.warnings.clone(), ..Default::default() };
    b.push(HEAD);
    for (n, s) in listing_order(&loading).into_iter().enumerate() {
        if n > 0 {
            b.push("\n");
        }
        match s {
            None => b.push(&entry_text(BUILTIN_NAME, BUILTIN_DESCRIPTION, BUILTIN_LOCATION)),
            Some(s) => {
                let e = &input.library.entries[s.entry];
                let mut rec = prompt::skill(&s.name, folder_name(e), &s.location, Some(e.source)).of(e);
                if loading.raced.contains(&s.name) {
                    rec = rec.by_chance(RACE);
                }
                let d = s.description.as_deref().unwrap_or_default();
                b.entry(rec, |t| t.push_str(&entry_text(&s.name, d, &s.location)));
            }
        }
    }
    b.push(TAIL);
    for s in loading.skills.iter().filter(|s| s.description.is_none()) {
        let e = &input.library.entries[s.entry];
        b.absent(prompt::skill(&s.name, folder_name(e), &s.location, Some(e.source)).of(e).decided(
            Decision::Invalid,
            "no `description`: loaded (the skill tool can load it by name) but never listed",
        ));
    }
    for r in loading.rejected {
        b.absent(r);
    }
    prompt::finish(&FORMAT, input.options, b, None, vec![skill_tool()])
}

/// One session step as OpenCode handles it: the model calls `skill(name)`.
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
        other => crate::session::skill_tool_only(other, "opencode", "OpenCode does not enforce allowed-tools"),
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
    fn gray_matter_split() {
        assert_eq!(matter("---\nname: a\n---\nbody\n"), Some(("\nname: a", "body\n")));
        assert_eq!(matter("---\r\nname: a\r\n---\r\n\r\nbody"), Some(("\r\nname: a\r", "\r\nbody")));
        assert_eq!(matter("----\nx"), None);
        assert_eq!(matter("# no"), None);
        assert_eq!(matter("---\nname: a\n"), Some(("\nname: a\n", "")));
    }

    #[test]
    fn colons_become_block_scalars() {
        assert_eq!(
            sanitize("name: a\ndescription: Use when: b\n  more: x"),
            "name: a\ndescription: |-\n  Use when: b\n  more: x"
        );
        assert_eq!(sanitize("description: \"q: x\""), "description: \"q: x\"");
        let (n, d) = fields("\nname: c\ndescription: Use this when: colons", None).unwrap().unwrap();
        assert_eq!((n.as_str(), d.as_deref()), ("c", Some("Use this when: colons")));
    }

    #[test]
    fn names_must_be_strings_descriptions_absent_or_strings() {
        assert_eq!(fields("\nname: 42\ndescription: d", None).unwrap(), None);
        assert_eq!(fields("\ndescription: d", None).unwrap(), None);
        assert_eq!(fields("\nname: a\ndescription:", None).unwrap(), None);
        assert_eq!(fields("\nname: a", None).unwrap(), Some(("a".into(), None)));
        assert_eq!(
            fields("\nname: a\ndescription: >\n  x\n  y", None).unwrap(),
            Some(("a".into(), Some("x y\n".into())))
        );
        assert!(fields("\nname: a\ndescription: [unclosed", None).is_err());
    }

    #[test]
    fn only_the_location_is_escaped() {
        assert_eq!(
            entry_text("a<b", "x & y", "/p/'q'/<&>\"/SKILL.md"),
            "  <skill>\n    <name>a<b</name>\n    <description>x & y</description>\n    <location>/p/&#39;q&#39;/&lt;&amp;&gt;&quot;/SKILL.md</location>\n  </skill>"
        );
    }
}
