//! GitHub Copilot CLI 1.0.102 (`@github/copilot`, native binary; its skills code is in the Rust
//! runtime, not in readable JavaScript): the `<skill>` section of the system message and the
//! `skill` tool, captured from the real program (BYOK offline mode against a local mock model) on
//! the trees in `tests/fixtures/prompt-trees` (goldens in
//! `tests/fixtures/prompt-goldens/copilot-cli-1.0.102`, made by `tests/oracles/capture_copilot_cli.sh`).
//!
//! - Locations and precedence: the project's `.github/skills`, `.agents/skills`, `.claude/skills`
//!   (trusted folders only), then the user's `~/.copilot/skills` and `~/.agents/skills`
//!   (`~/.claude/skills` is not read), then the bundled skills (disabled in the captures, not
//!   modelled). The first folder in that order wins a duplicated name, silently (no message; the
//!   loser is simply not there). With `--source` (lowest priority first, as for every profile) a
//!   later source wins; a source is a user folder when its path ends in `.copilot/skills` or is
//!   `~/.agents/skills`, a project folder when it ends in `.github/skills`, `.claude/skills` or
//!   (elsewhere) `.agents/skills`, and otherwise the last source is the project's and every earlier one a user folder (the
//!   `override` capture: `override-base` in `~/.copilot/skills`, `override-project` in
//!   `.github/skills`).
//! - Discovery: the direct child folders of each location holding a `SKILL.md` (nested and
//!   hidden folders were not captured; they are not looked into here).
//! - Reading: the frontmatter must open the file (`---`) and close; none →
//!   `missing or malformed YAML frontmatter`; YAML that does not parse (an unquoted `: `) →
//!   `failed to parse YAML frontmatter: …` (the YAML parser's own words follow; ours differ).
//!   `name` (else the folder name) must be a string (`Skill name must be a string`) of at most
//!   64 characters (`Skill name must be at most 64 characters`) that starts with an ASCII letter
//!   or digit and holds only ASCII letters, digits, `-`, `_`, `.`, `:` and spaces ([`NAME_RULE`]);
//!   it is listed with every space replaced by `-`, case kept, even when it differs from the
//!   folder. `description` must be a string (`Skill description must be a string`), kept as
//!   written (leading and trailing spaces, inner newlines) except for the final newline of a
//!   block scalar; `description: ""` lists an empty description; a missing one falls back to the
//!   body ([`body_fallback`]); over 1,024 characters → `Skill description must be at most 1024
//!   characters`. `disable-model-invocation` must be a boolean (`disable-model-invocation must
//!   be a boolean`: `"true"` fails the skill); `true` keeps the skill out of the listing, and the
//!   tool answers "not found". Other fields are ignored. These reasons are printed only by
//!   `copilot skill list` (as `  • PATH: REASON` under `✖ The following skills failed to
//!   load:`); `copilot -p` prints nothing, so [`Prompt::warnings`](crate::prompt::Prompt) stays
//!   empty. Two folders of one location with one name: the first in the byte order of their
//!   `SKILL.md` paths wins, so `k-1/` beats `k/` (`-` sorts before `/`) and `dup-x/` beats `dup/`,
//!   whatever order the file system lists them in (the `same-name` and `copilot-dup-order`
//!   captures, the same winner in three runs; the corpus probe `dup-a`/`dup-b`/`dup-c`, where the
//!   folder's `readdir` order put `dup-b` first).
//! - Text: `<skill>\n<available_skills>\n`, one entry per listed skill
//!   (`<skill>\n  <name>N</name>\n  <description>D</description>\n  <location>L</location>\n</skill>\n`,
//!   L `project` or `user`, the description XML-escaped: `&amp; &lt; &gt; &quot; &apos;`), then
//!   `</available_skills>\n</skill>\n`. Order: the project's skills sorted by name in code-point
//!   order, then the user's, sorted the same way (the `override` capture); the skills of the
//!   project folders are sorted together (a probe with `.github/skills` and `.agents/skills`). With no listed skill the
//!   section is absent and the `skill` tool is not offered.
//! - Budget: entries are added in sorted order while the running total of their characters (the
//!   escaped entry text) stays at most 15,000; the first entry that does not fit and every later
//!   one go, in order, into one line `Additional skills available (invoke by name): a, b` before
//!   `</available_skills>`. That line names skills while it stays within 5,000 characters; the
//!   rest are only counted, `... and N more` after the last name (dropped: not named anywhere,
//!   though the loaded skill still answers the tool) ([`additional_shown`]).
//! - Placement: the system message (`messages[0]`), inside its `<tools>` guidance, as the
//!   section of the tool `skill`, between `</fetch_copilot_cli_documentation>\n` and `<sql>`.
//! - Tool: `skill` (`{"skill": string}`, a fixed description, [`skill_tool`]). A call answers
//!   `Skill "N" loaded successfully. Follow the instructions in the skill context.` and adds a
//!   user message `<skill-context name="N">` with the base directory, the skill folder's other
//!   files (`Related files (use view tool to read):`, absolute paths, sorted; recursion, hidden
//!   files and any limit are not captured) and the body ([`activate`]);
//!   an unknown or hidden name answers `Skill "X" not found. Available skills: a, b`.

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::library::discover::{Depth, DiscoveryPolicy};
use crate::library::{Entry, Library, NameKey};
use crate::prompt::{
    self, folder_name, Budget, Builder, Decision, Format, Placement, Prompt, PromptSkill, RenderInput, ToolDef,
};
use crate::skill::FileProblem;
use std::path::Path;

pub static AGENT: Agent = Agent {
    id: "copilot-cli",
    title: "GitHub Copilot CLI",
    kind: AgentKind::Agent,
    label: "Copilot CLI 1.0",
    source: "GitHub Copilot CLI 1.0.102 (@github/copilot, real program, captured 2026-11-28)",
    lint: LintProfile::DEFAULT,
    discovery: DISCOVERY,
    key: NameKey::Frontmatter,
    prompt: Some(render),
    read: Some(read_all),
    activation: Some(ACTIVATION),
    installs: &[
        crate::package::format::PackageFormat::CopilotPlugin,
        crate::package::format::PackageFormat::ClaudePlugin,
    ],
};

/// `*/SKILL.md`: direct child folders.
pub const DISCOVERY: DiscoveryPolicy =
    DiscoveryPolicy { depth: Depth::Children, include_hidden: false, root_is_skill: false, nested: false };

/// gpt-5's input window (the model of the captures).
pub const DEFAULT_CONTEXT_WINDOW: u64 = 272_000;

/// The listing budget, in characters of the escaped entries.
pub const BUDGET_CHARS: usize = 15_000;
/// The cap of the "Additional skills available" line, in characters ([`additional_shown`]).
pub const ADDITIONAL_LINE_CHARS: usize = 5_000;
pub const MAX_NAME_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

const FORMAT: Format = Format {
    agent: "copilot-cli",
    source: AGENT.source,
    placement: Placement::SystemPrompt,
    placement_detail: "the system message (messages[0]): the `skill` tool's section of its <tools> guidance, between </fetch_copilot_cli_documentation> and <sql>",
    default_context_window: DEFAULT_CONTEXT_WINDOW,
    estimate: false,
};

pub const TOOL_NAME: &str = "skill";
const HEAD: &str = "<skill>\n<available_skills>\n";
const TAIL: &str = "</available_skills>\n</skill>\n";
const ADDITIONAL: &str = "Additional skills available (invoke by name): ";
const TOOL_DESCRIPTION: &str = "Load a skill into the main conversation\n\n<skills_instructions>\nBefore acting on a task, check current or previously listed <available_skills>. If a skill matches, invoking it is mandatory and must be your first action, before any response; never merely announce it.\n\nCall this tool with only the skill name (for example `skill: \"pdf\"` or `skill: \"xlsx\"`). Use only listed skills unless the user explicitly requests an unlisted skill by name, in which case invoke it. Do not reinvoke a running skill or use this tool for built-in CLI commands such as /help or /clear.\n</skills_instructions>";

/// Which of Copilot's locations a source plays.
/// In listing order: the project's skills come first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    Project,
    User,
}

impl Scope {
    pub fn label(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
        }
    }
}

/// A skill as Copilot CLI keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// With spaces replaced by `-`.
    pub name: String,
    /// Trimmed, not escaped.
    pub description: String,
    /// `disable-model-invocation: true`: loaded, never listed.
    pub hidden: bool,
    /// The text after the frontmatter.
    pub body: std::sync::Arc<str>,
    /// Index into [`Library::entries`].
    pub entry: usize,
}

/// The scope source `si` of `lib` plays (see the module documentation).
pub fn scope_of(lib: &Library, si: usize) -> Scope {
    let path = prompt::path_string(&lib.sources[si].path);
    let path = path.trim_end_matches('/');
    if path.ends_with(".copilot/skills") {
        return Scope::User;
    }
    if path.ends_with(".github/skills") || path.ends_with(".claude/skills") {
        return Scope::Project;
    }
    if path.ends_with(".agents/skills") {
        let home = std::env::var_os("HOME").filter(|h| !h.is_empty());
        let at_home = home.is_some_and(|h| Path::new(path) == Path::new(&h).join(".agents/skills"));
        return if at_home { Scope::User } else { Scope::Project };
    }
    if si + 1 == lib.sources.len() {
        Scope::Project
    } else {
        Scope::User
    }
}

/// `&`, `<`, `>`, `"`, `'` as XML entities.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The description of a skill without one: the body's lines that are neither blank nor
/// Markdown headings, trimmed and joined with spaces (spaces inside a line are kept), as
/// captured on `invalid/no-desc` and `copilot-invalid/body-fallback`; whether a long body is cut
/// was not captured.
pub fn body_fallback(body: &str) -> String {
    body.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect::<Vec<_>>().join(" ")
}

pub const NAME_RULE: &str = "Skill name must start with an ASCII letter or number and contain only ASCII letters (a-z, A-Z), numbers, hyphens, underscores, dots, colons, and spaces";

/// [`NAME_RULE`].
pub fn valid_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | ' '))
}

/// Reads one skill as Copilot does: `Err(reason)` when it fails to load, `Ok(None)` when Copilot
/// never sees the file.
pub fn read(entry: &Entry, index: usize) -> Result<Option<Loaded>, String> {
    let skill = &entry.skill;
    if skill.file_name != "SKILL.md" {
        return Ok(None);
    }
    for p in &skill.file_problems {
        match p {
            FileProblem::Missing | FileProblem::NotAFile { .. } => return Ok(None),
            FileProblem::Unreadable { error } => return Err(format!("cannot be read ({error})")),
            FileProblem::TooLarge { size } => {
                return Err(format!("not read by skillkit: {size} bytes, over its 10 MiB limit"))
            }
            FileProblem::InvalidUtf8 { .. } | FileProblem::Binary { .. } => {}
        }
    }
    if skill.split.yaml.is_none() || skill.split.close.is_none() || skill.split.leading.is_some() {
        return Err("missing or malformed YAML frontmatter".into());
    }
    if let Some(e) = &skill.yaml.error {
        return Err(format!("failed to parse YAML frontmatter: {}", e.message));
    }
    let get = |k: &str| -> Option<&crate::syntax::yaml::Node> {
        skill.yaml.root.as_ref()?.entries()?.iter().find(|e| e.key.as_str() == Some(k)).map(|e| &e.value)
    };
    // A key written with no value (YAML null) counts as absent.
    let field = |k: &str| get(k).filter(|n| n.kind_name() != "null");
    let name = match field("name") {
        None => skill.dir_name.clone(),
        Some(n) if n.kind_name() == "string" => n.as_str().unwrap_or_default().to_string(),
        Some(_) => return Err("Skill name must be a string".into()),
    };
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!("Skill name must be at most {MAX_NAME_CHARS} characters"));
    }
    if !valid_name(&name) {
        return Err(NAME_RULE.into());
    }
    let name = name.replace(' ', "-");
    let body = skill.body();
    let description = match field("description") {
        None => body_fallback(body),
        Some(n) if n.kind_name() == "string" => n.as_str().unwrap_or_default().trim_end_matches('\n').to_string(),
        Some(_) => return Err("Skill description must be a string".into()),
    };
    if description.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(format!("Skill description must be at most {MAX_DESCRIPTION_CHARS} characters"));
    }
    let hidden = match field("disable-model-invocation") {
        None => false,
        Some(n) if n.kind_name() == "boolean" => n.as_str().is_some_and(|v| v.eq_ignore_ascii_case("true")),
        Some(_) => return Err("disable-model-invocation must be a boolean".into()),
    };
    Ok(Some(Loaded { name, description, hidden, body: body.into(), entry: index }))
}

/// What Copilot loaded: the skills in listing order (hidden ones included, flagged), with the
/// scope each came from, and the ones that failed or lost a name clash.
#[derive(Clone, Debug, Default)]
pub struct Loading {
    pub skills: Vec<(Loaded, Scope)>,
    pub rejected: Vec<PromptSkill>,
}

fn record(lib: &Library, i: usize, name: &str) -> PromptSkill {
    let e = &lib.entries[i];
    prompt::skill(name, folder_name(e), prompt::path_string(&e.skill.path()), Some(e.source)).of(e)
}

/// Whether two readable entries of one source share a name (only then does the order matter).
fn has_duplicates(found: &[(usize, &Entry)]) -> bool {
    let mut names = std::collections::HashSet::new();
    found.iter().any(|(i, e)| match e.reading("copilot-cli", "", |e| read(e, *i)).as_ref() {
        Ok(Some(l)) => !names.insert(l.name.clone()),
        _ => false,
    })
}

/// Loads `lib` as Copilot CLI does: the highest-priority source first, the first skill of a name
/// winning; then the project's skills sorted by name (code points), then the user's.
pub fn load(lib: &Library) -> Loading {
    let mut out = Loading::default();
    let mut seen: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for si in (0..lib.sources.len()).rev() {
        let scope = scope_of(lib, si);
        let mut found: Vec<(usize, &Entry)> = lib.entries.iter().enumerate().filter(|(_, e)| e.source == si).collect();
        found.sort_by(|a, b| a.1.listed_as.cmp(&b.1.listed_as));
        if has_duplicates(&found) {
            // Copilot takes the skills of a folder in the byte order of their `SKILL.md` paths
            // (`k-1/SKILL.md` before `k/SKILL.md`): the first of a name wins.
            found.sort_by_cached_key(|(_, e)| format!("{}/", folder_name(e)).into_bytes());
        }
        for (i, e) in found {
            let reading = e.reading("copilot-cli", "", |e| read(e, i));
            match reading.as_ref() {
                Ok(None) => {}
                Err(reason) => {
                    out.rejected.push(record(lib, i, e.skill.display_name()).decided(Decision::Invalid, reason.clone()))
                }
                Ok(Some(l)) => {
                    let l = Loaded { entry: i, ..l.clone() };
                    let path = prompt::path_string(&e.skill.path());
                    if let Some(winner) = seen.get(&l.name) {
                        out.rejected.push(record(lib, i, &l.name).decided(
                            Decision::Shadowed,
                            format!("`{}` from {winner} comes first (the first folder wins, silently)", l.name),
                        ));
                        continue;
                    }
                    seen.insert(l.name.clone(), path);
                    out.skills.push((l, scope));
                }
            }
        }
    }
    out.skills.sort_by(|a, b| (a.1, &a.0.name).cmp(&(b.1, &b.0.name)));
    out
}

/// One `<skill>` entry with its newline.
pub fn entry_text(s: &Loaded, scope: Scope) -> String {
    format!(
        "<skill>\n  <name>{}</name>\n  <description>{}</description>\n  <location>{}</location>\n</skill>\n",
        s.name,
        xml_escape(&s.description),
        scope.label()
    )
}

/// How many of `names` (in listing order) the "Additional skills available" line names: names
/// are added while the line, its lead-in and the names joined by `, `, stays within
/// [`ADDITIONAL_LINE_CHARS`] characters; the rest are only counted, `... and N more` right after
/// the last name shown (the corpus's github-awesome-copilot: 211 of 385 named, a line of 4,977
/// characters before the count; the `copilot-more` captures pin the bound).
pub fn additional_shown<'a>(names: impl IntoIterator<Item = &'a str>) -> usize {
    let mut line = ADDITIONAL.chars().count();
    let mut shown = 0;
    for (k, name) in names.into_iter().enumerate() {
        line += name.chars().count() + if k > 0 { 2 } else { 0 };
        if line > ADDITIONAL_LINE_CHARS {
            break;
        }
        shown += 1;
    }
    shown
}

/// The `skill` tool Copilot offers when it lists a skill.
pub fn skill_tool() -> ToolDef {
    ToolDef {
        name: TOOL_NAME.into(),
        description: TOOL_DESCRIPTION.into(),
        parameters: serde_json::json!({
            "type": "object",
            "properties": {"skill": {"type": "string", "description": "The skill name to invoke. E.g., \"pdf\" or \"code-reviewer\""}},
            "required": ["skill"]
        }),
    }
}

pub fn render(input: &RenderInput<'_>) -> Prompt {
    let lib = input.library;
    let loading = load(lib);
    let limit = input.options.char_budget.unwrap_or(BUDGET_CHARS);
    let mut b = Builder::default();
    let listed: Vec<&(Loaded, Scope)> = loading.skills.iter().filter(|(s, _)| !s.hidden).collect();
    let (mut used, mut needed, mut over) = (0usize, 0usize, false);
    let mut names_only = vec![];
    if !listed.is_empty() {
        b.push(HEAD);
    }
    for (s, scope) in &listed {
        let text = entry_text(s, *scope);
        let n = text.chars().count();
        needed += n;
        let rec = record(lib, s.entry, &s.name);
        if !over && used + n <= limit {
            used += n;
            let mut rec = rec;
            if s.name != lib.entries[s.entry].skill.display_name() && s.name.contains('-') {
                rec.reason = Some("spaces in the name replaced by `-`".into());
            }
            b.entry(rec, |t| t.push_str(&text));
        } else {
            over = true;
            names_only.push((s.name.clone(), rec));
        }
    }
    if !names_only.is_empty() {
        b.push(ADDITIONAL);
        let count = names_only.len();
        let shown = additional_shown(names_only.iter().map(|(n, _)| n.as_str()));
        for (k, (name, rec)) in names_only.into_iter().enumerate() {
            if k < shown {
                let reason = format!(
                    "over the {limit}-character budget: named in the \"Additional skills available\" line ({count} skills)"
                );
                b.entry(rec.decided(Decision::NameOnly, reason), |t| t.push_str(&name));
                if k + 1 < shown {
                    b.push(", ");
                }
            } else {
                b.absent(rec.decided(
                    Decision::Dropped,
                    format!(
                        "over the {limit}-character budget and past the {ADDITIONAL_LINE_CHARS}-character cap of the \"Additional skills available\" line: only counted (`... and {} more`), not named",
                        count - shown
                    ),
                ));
            }
        }
        if shown < count {
            b.push(&format!("... and {} more", count - shown));
        }
        b.push("\n");
    }
    if !listed.is_empty() {
        b.push(TAIL);
    }
    for (s, _) in loading.skills.iter().filter(|(s, _)| s.hidden) {
        b.absent(record(lib, s.entry, &s.name).decided(
            Decision::Hidden,
            "`disable-model-invocation: true`: loaded but not listed, and the `skill` tool answers \"not found\"",
        ));
    }
    for r in loading.rejected {
        b.absent(r);
    }
    let tools = if listed.is_empty() { vec![] } else { vec![skill_tool()] };
    let budget = Budget {
        limit,
        unit: "characters",
        needed,
        rule: format!("{limit} characters over the escaped entries, in listing order; from the first entry that does not fit, every later one is only named in the \"Additional skills available\" line"),
    };
    prompt::finish(&FORMAT, input.options, b, Some(budget), tools)
}

/// The `skill` tool's answer for `name`: `Ok((tool result, the user message added after it))`,
/// or `Err(tool result)` for a name Copilot does not list.
pub fn activate(lib: &Library, name: &str) -> Result<(String, String), String> {
    let loading = load(lib);
    let Some((s, _)) = loading.skills.iter().find(|(s, _)| s.name == name && !s.hidden) else {
        let names: Vec<&str> = loading.skills.iter().filter(|(s, _)| !s.hidden).map(|(s, _)| s.name.as_str()).collect();
        return Err(format!("Skill \"{name}\" not found. Available skills: {}", names.join(", ")));
    };
    let dir = prompt::absolute(&lib.entries[s.entry].listed_as);
    let mut files = vec![];
    related_files(&dir, &dir, &mut files);
    files.sort();
    let related = if files.is_empty() {
        String::new()
    } else {
        let lines: String = files.iter().map(|f| format!("  - {f}\n")).collect();
        format!("Related files (use view tool to read):\n{lines}\n")
    };
    Ok((
        format!("Skill \"{name}\" loaded successfully. Follow the instructions in the skill context."),
        format!(
            "<skill-context name=\"{name}\">\nBase directory for this skill: {}\n\n{related}{}\n</skill-context>",
            prompt::path_string(&dir),
            s.body.trim_start()
        ),
    ))
}

/// Every file below the skill folder but its `SKILL.md`, as absolute paths (symlinks not
/// followed).
fn related_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let Ok(ft) = e.file_type() else { continue };
        let path = e.path();
        if ft.is_dir() {
            related_files(root, &path, out);
        } else if ft.is_file() && !(dir == root && e.file_name() == "SKILL.md") {
            out.push(prompt::path_string(&path));
        }
    }
}

/// One session step as Copilot CLI handles it: the model calls `skill(name)`; the tool result,
/// then the `<skill-context>` user message Copilot adds after it.
pub fn session_step(s: &mut crate::session::Session, step: &crate::session::Step) -> crate::session::Outcome {
    use crate::session::{Outcome, Step};
    match step {
        Step::Invoke { skill, .. } | Step::Load { skill } => {
            let call = format!("skill({{\"skill\": \"{skill}\"}})");
            match activate(&s.library, skill) {
                Ok((result, message)) => {
                    if !s.loaded.contains(skill) {
                        s.loaded.push(skill.clone());
                    }
                    Outcome::ok(call, format!("{result}\n\n{message}"))
                        .with_note("the tool result, then a new user message with the skill context")
                }
                Err(text) => Outcome::error(call, text),
            }
        }
        other => crate::session::skill_tool_only(other, "copilot-cli", "allowed-tools is not modelled for Copilot CLI"),
    }
}

/// Reads every skill as [`load`] does, remembering each reading ([`Agent::read`]).
pub fn read_all(lib: &Library) {
    load(lib);
}

/// A skill is activated by `skill` naming it.
pub const ACTIVATION: crate::agent::Activation =
    crate::agents::activation::by_skill_tool!(TOOL_NAME, "skill", "`skill` with `skill: S`");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_escape_five_characters() {
        assert_eq!(xml_escape("<a> & \"b\" 'c'"), "&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos;");
    }

    #[test]
    fn project_folders_sort_together_and_user_folders_follow() {
        let t = tempfile::tempdir().unwrap();
        let skill = |dir: &str, name: &str| {
            let d = t.path().join(dir).join(name);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("SKILL.md"), format!("---\nname: {name}\ndescription: d\n---\n\nBody.\n")).unwrap();
        };
        skill("home/.copilot/skills", "aa-user");
        skill("p/.agents/skills", "alpha-a");
        skill("p/.agents/skills", "mid-a");
        skill("p/.github/skills", "zeta-g");
        let sources: Vec<std::path::PathBuf> =
            ["home/.copilot/skills", "p/.agents/skills", "p/.github/skills"].iter().map(|s| t.path().join(s)).collect();
        let lib = Library::for_agent(&sources, &AGENT);
        let text = AGENT.render(&lib, &Default::default()).unwrap().text;
        let listed: Vec<(&str, &str)> = text
            .split("<skill>\n  <name>")
            .skip(1)
            .map(|e| (e.split('<').next().unwrap(), e.split("<location>").nth(1).unwrap().split('<').next().unwrap()))
            .collect();
        assert_eq!(listed, [("alpha-a", "project"), ("mid-a", "project"), ("zeta-g", "project"), ("aa-user", "user")]);
    }

    #[test]
    fn names_are_ascii_with_a_few_marks() {
        assert!(valid_name("MM Named:x_y.z-1"));
        assert!(!valid_name("_lead") && !valid_name("q&a") && !valid_name("zürich") && !valid_name(""));
    }

    #[test]
    fn the_body_stands_in_collapsed() {
        assert_eq!(body_fallback("\n# Title\n\nOne\n  two  too.\n\nThree.\n"), "One two  too. Three.");
    }
}
