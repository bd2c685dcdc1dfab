//! OpenAI Codex CLI 0.171.0 (`@openai/codex`, native binary): the `<skills_instructions>` block
//! captured from the real program on every tree in `tests/fixtures/prompt-trees` (goldens in
//! `tests/fixtures/prompt-goldens/codex-0.171.0`), with the loader, budget and mention rules read in
//! the open-source `codex-rs` (core-skills `loader.rs`/`injection.rs`, ext/skills `render.rs`) and
//! checked against the strings of the 0.169.0 binary and the goldens.
//! Reviewed 0.171.0 (`tests/oracles/drift.sh`): every listing, load-error and mention golden
//! captured from 0.169.0 came back byte-identical; the only change seen is the `login` parameter's
//! description in the `exec_command` tool (now captured as `codex-0.171.0/tool-exec_command.json`).
//! It changes nothing about skills, so no 0.169.0 profile is kept.
//!
//! - Locations: the repo's `.agents/skills` (every folder from the project root down to the cwd),
//!   `$CODEX_HOME/skills` (deprecated), `~/.agents/skills`, `/etc/codex/skills` (admin) and the
//!   bundled system skills (`$CODEX_HOME/skills/.system`, off in the captures). Codex sorts the
//!   listing by scope (repo first, then user, system, admin); with `--source` (lowest priority
//!   first) a later source plays the higher scope: `--source ~/.agents/skills --source
//!   REPO/.agents/skills` lists the repo's skills first, as Codex does.
//! - Discovery: recursive, breadth first, up to 6 folders deep and 2,000 folders per root; names
//!   starting with `.` are skipped; only a file named exactly `SKILL.md` counts; symlinked
//!   folders are followed (repo, user and admin scopes). Codex also keeps descending into a skill
//!   folder (a `SKILL.md` nested inside another skill is a second skill); the engine's discovery
//!   stops at the first skill, so such nested skills are not shown.
//! - Precedence: none by name. Two skills with one name are both listed (the `override` golden
//!   lists both `lint-helper`s); only the same real `SKILL.md` reached from two roots is loaded
//!   once (the higher-priority root keeps it). A `$name` mention of an ambiguous name injects
//!   nothing.
//! - Reading: the frontmatter is the lines between a first line that trims to `---` and the next
//!   line that trims to `---` (`str::lines`, so CRLF is fine); none, unclosed or empty →
//!   `missing YAML frontmatter delimited by ---`. It is parsed as YAML into `name` and
//!   `description` strings (serde_yaml); YAML that does not parse (an unquoted `: ` in a value) is
//!   still read line by line, as the 0.169.0 binary accepts it. Values are collapsed to one line
//!   (whitespace runs → one space, so block scalars join). No name → the folder name. An empty or
//!   missing description → `missing field \`description\``; a name over 64 characters →
//!   `invalid name: exceeds maximum length of 64 characters`. Rejected skills are logged on stderr
//!   as `ERROR codex_core::session::session: failed to load skill PATH: MESSAGE` (here
//!   [`Prompt::warnings`](crate::prompt::Prompt), without the timestamp). Other fields
//!   (`disable-model-invocation`, `allowed-tools`…) are ignored.
//! - Text: `<skills_instructions>` … `</skills_instructions>`, no trailing newline: the intro, a
//!   `### Skill roots` table (`r0`, `r1`… in source order, only roots holding a loaded skill, real
//!   paths), then one line per skill `- {name}: {description} (file: r{N}/{path under the
//!   root})`, sorted by scope, then name (byte order), then path; no escaping. Descriptions over
//!   1,024 characters are cut to their first 1,021 characters + `...`. An empty library (or one
//!   whose skills all fail) injects nothing at all.
//! - Placement: the first `input_text` of `input[1]`, a `developer` message of the Responses
//!   request.
//! - Budget: 2% of the model's context window (gpt-5.5: 272,000 → 5,440) in approximate tokens of
//!   `ceil(bytes / 4)`, counted over the skill lines (each with its `\n`). When the full lines do
//!   not fit, every description starts empty and characters are handed out one at a time, round
//!   robin in listing order, while the budget allows (`budget-60`: 40 skills keep 308 characters
//!   and 20 keep 304); if even the bare lines do not fit, skills are dropped in order. A fixed
//!   `--char-budget` counts characters instead (Codex's fallback without a context window,
//!   8,000). Codex may also pick an absolute-path rendering when that fits better; with roots
//!   short enough (every capture) the aliased one wins, and only it is reproduced.
//! - Tools and activation: no skill tool; the model reads the file itself. A `$name` mention in
//!   the user's message (see [`mentions`]) adds a user item holding the whole file:
//!   `<skill>\n<name>…</name>\n<path>…</path>\n{file}\n</skill>` ([`skill_item`]).
//!
//! Over 600 lines for one job: one module per agent profile (CONTRIBUTING.md), so the discovery,
//! reading, listing text, budget and activation of one program, and the release they reproduce, are
//! reviewed together against that program's captures.

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::library::discover::{Depth, DiscoveryPolicy};
use crate::library::{Entry, Library, NameKey};
use crate::prompt::{
    self, folder_name, Budget, Builder, Decision, Format, Placement, Prompt, PromptSkill, RenderInput,
};
use crate::skill::FileProblem;
use crate::syntax::yaml::{self, Node, NodeKind, ScalarStyle};
use std::collections::HashSet;

pub static AGENT: Agent = Agent {
    id: "codex",
    title: "OpenAI Codex CLI",
    kind: AgentKind::Agent,
    label: "Codex CLI 0.171",
    source: "OpenAI Codex CLI 0.171.0 (@openai/codex, real program, captured 2026-11-28)",
    lint: LintProfile::DEFAULT,
    discovery: DISCOVERY,
    key: NameKey::Frontmatter,
    prompt: Some(render),
    read: Some(read_all),
    activation: Some(ACTIVATION),
    installs: &[crate::package::format::PackageFormat::CodexPlugin],
};

/// Codex's scan: breadth first to depth 6, at most 2,000 folders per root, hidden names skipped,
/// into skill folders too (a `SKILL.md` below another skill's is a skill of its own).
pub const DISCOVERY: DiscoveryPolicy = DiscoveryPolicy {
    depth: Depth::Recursive { max_depth: 6, max_dirs: 2_000 },
    include_hidden: false,
    root_is_skill: false,
    nested: true,
};

/// gpt-5.5's context window as Codex 0.171.0 knows it (the model of the captures).
pub const DEFAULT_CONTEXT_WINDOW: u64 = 272_000;

const FORMAT: Format = Format {
    agent: "codex",
    source: AGENT.source,
    placement: Placement::DeveloperMessage,
    placement_detail: "Responses API input[1] (role developer), its first input_text: the <skills_instructions> block",
    default_context_window: DEFAULT_CONTEXT_WINDOW,
    estimate: false,
};

const MAX_NAME: usize = 64;
const MAX_DESCRIPTION: usize = 1024;
const BUDGET_PERCENT: u64 = 2;
/// Codex's budget without a context window, in characters.
pub const FALLBACK_CHAR_BUDGET: usize = 8_000;
const OPEN: &str = "<skills_instructions>";
const CLOSE: &str = "</skills_instructions>";
const INTRO: &str = "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, and a short path that can be expanded into an absolute path using the skill roots table.";
/// The intro of the absolute-path rendering; only its cost matters here (the aliased rendering
/// pays the difference as overhead).
const ABSOLUTE_INTRO: &str = "A skill is a set of instructions provided through a `SKILL.md` source. Below is the list of skills that can be used. Each entry includes a name, description, and source locator. `file` locators are on the host filesystem, `executor package` locators are owned by their execution environment, `cloud package` locators are opaque package identifiers, and `custom resource` locators use their provider's access mechanism.";
const LOAD_ERROR: &str = "ERROR codex_core::session::session: failed to load skill ";
const HOW_TO_USE: &str = r#"- Discovery: The list above is the skills available in this session (name + description + short path). Skill bodies live on disk at the listed paths after expanding the matching alias from `### Skill roots`.
- Trigger rules: If the user names a skill (with `$SkillName` or plain text) OR the task clearly matches a skill's description shown above, you must use that skill for that turn. Multiple mentions mean use them all. Do not carry skills across turns unless re-mentioned.
- Missing/blocked: If a named skill isn't in the list or the path can't be read, say so briefly and continue with the best fallback.
- How to use a skill (progressive disclosure):
  1) After deciding to use a skill, the main agent must expand the listed short `path` with the matching alias from `### Skill roots`, then open and read its `SKILL.md` completely before taking task actions. If a read is truncated or paginated, continue until EOF.
  2) When `SKILL.md` references relative paths (e.g., `scripts/foo.py`), resolve them relative to the directory containing that expanded `SKILL.md` first, and only consider other paths if needed.
  3) If `SKILL.md` points to extra folders such as `references/`, use its routing instructions to identify the files required for the task. The main agent must read each required instruction or reference file itself before acting on it. Do not delegate reading, summarizing, or interpreting skill instructions to a subagent. Subagents may still perform task work when the selected skill allows it.
  4) If `scripts/` exist, prefer running or patching them instead of retyping large code blocks.
  5) If `assets/` or templates exist, reuse them instead of recreating from scratch.
- Coordination and sequencing:
  - If multiple skills apply, choose the minimal set that covers the request and state the order you'll use them.
  - Announce which skill(s) you're using and why (one short line). If you skip an obvious skill, say why.
- Context hygiene:
  - Progressive disclosure applies to selecting relevant files, not partially reading a selected instruction file. Do not load unrelated references, scripts, or assets.
  - Avoid deep reference-chasing: prefer opening only files directly linked from `SKILL.md` unless you're blocked.
  - When variants exist (frameworks, providers, domains), pick only the relevant reference file(s) and note that choice.
- Safety and fallback: If a skill can't be applied cleanly (missing files, unclear instructions), state the issue, pick the next-best approach, and continue."#;

/// A skill Codex loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub name: String,
    /// The description on one line, before any cut.
    pub description: String,
    /// The real path of the `SKILL.md`, as Codex prints it.
    pub path: String,
    /// Index into [`Library::entries`].
    pub entry: usize,
}

/// What Codex's loader made of a library: the skills in listing order, the rejected ones (with
/// their decision and reason) and the stderr lines.
#[derive(Clone, Debug, Default)]
pub struct Loading {
    pub skills: Vec<Loaded>,
    pub rejected: Vec<PromptSkill>,
    pub errors: Vec<String>,
}

/// `extract_frontmatter`: the lines between a first line that trims to `---` and the next such
/// line, joined with `\n`; `None` when there is none, it is not closed, or it is empty.
pub fn frontmatter(text: &str) -> Option<String> {
    let mut lines = text.lines();
    if lines.next().map(str::trim) != Some("---") {
        return None;
    }
    let mut out: Vec<&str> = vec![];
    for line in lines {
        if line.trim() == "---" {
            return (!out.is_empty()).then(|| out.join("\n"));
        }
        out.push(line);
    }
    None
}

/// `sanitize_single_line`: whitespace runs become one space, ends trimmed.
pub fn single_line(s: &str) -> String {
    // Already one line with single spaces (the common case): as is.
    let b = s.as_bytes();
    if s.is_ascii()
        && !b.first().is_some_and(|c| c.is_ascii_whitespace())
        && !b.last().is_some_and(|c| c.is_ascii_whitespace())
        && !b.iter().any(|&c| c.is_ascii_whitespace() && c != b' ')
        && !s.contains("  ")
    {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

fn type_name(n: &Node) -> &'static str {
    match &n.kind {
        NodeKind::Mapping(_) => "map",
        NodeKind::Sequence(_) => "sequence",
        NodeKind::Alias => "alias",
        NodeKind::Scalar { .. } => "string",
    }
}

fn is_null(n: &Node) -> bool {
    matches!(&n.kind, NodeKind::Scalar { value, style: ScalarStyle::Plain } if matches!(value.as_str(), "" | "~" | "null" | "Null" | "NULL"))
}

/// A string field as serde reads `Option<String>`: absent or null → `None`.
fn string_field(entries: &[crate::syntax::yaml::Entry], key: &str) -> Result<Option<String>, String> {
    let mut found = entries.iter().filter(|e| e.key.as_str() == Some(key));
    let Some(e) = found.next() else { return Ok(None) };
    if found.next().is_some() {
        return Err(format!("invalid YAML: duplicate field `{key}`"));
    }
    if is_null(&e.value) {
        return Ok(None);
    }
    match &e.value.kind {
        NodeKind::Scalar { value, .. } => Ok(Some(value.clone())),
        _ => Err(format!("invalid YAML: {key}: invalid type: {}, expected a string", type_name(&e.value))),
    }
}

/// The `name` and `description` Codex reads from the frontmatter text, before defaults.
fn fields(fm: &str, parsed: Option<&yaml::Yaml>) -> Result<(Option<String>, Option<String>), String> {
    let y = yaml::parse_or(fm, parsed);
    if y.error.is_some() {
        // The 0.169.0 binary accepts what strict YAML rejects (an unquoted `: ` in a value):
        // read `key: value` lines.
        let f = yaml::lenient_fields(fm, 0);
        let get = |k: &str| f.iter().rev().find(|x| x.key == k).map(|x| x.value.clone());
        return Ok((get("name"), get("description")));
    }
    let Some(root) = &y.root else { return Ok((None, None)) };
    if is_null(root) {
        return Ok((None, None));
    }
    let Some(entries) = root.entries() else {
        return Err(format!("invalid YAML: invalid type: {}, expected struct SkillFrontmatter", type_name(root)));
    };
    if let Some(m) = entries.iter().find(|e| e.key.as_str() == Some("metadata")) {
        if !is_null(&m.value) && m.value.entries().is_none() {
            return Err(format!(
                "invalid YAML: metadata: invalid type: {}, expected struct SkillFrontmatterMetadata",
                type_name(&m.value)
            ));
        }
    }
    Ok((string_field(entries, "name")?, string_field(entries, "description")?))
}

/// `parse_skill_file`: the name and one-line description, or Codex's error message. `Ok(None)`
/// when Codex would not see the file at all (not named exactly `SKILL.md`, not a file).
pub fn read(entry: &Entry) -> Result<Option<(String, String)>, String> {
    let skill = &entry.skill;
    if skill.file_name != "SKILL.md" {
        return Ok(None);
    }
    for p in &skill.file_problems {
        match p {
            FileProblem::Missing | FileProblem::NotAFile { .. } => return Ok(None),
            FileProblem::Unreadable { error } => return Err(format!("failed to read file: {error}")),
            FileProblem::InvalidUtf8 { .. } => {
                return Err("failed to read file: stream did not contain valid UTF-8".into())
            }
            FileProblem::TooLarge { size } => {
                return Err(format!("not read by skillkit: {size} bytes, over its 10 MiB limit"))
            }
            FileProblem::Binary { .. } => {}
        }
    }
    let fm = frontmatter(&skill.text).ok_or("missing YAML frontmatter delimited by ---")?;
    // The engine parsed the same YAML text when its frontmatter span holds exactly these lines
    // (spans differ, values do not): reuse that parse.
    let (name, description) = fields(&fm, skill.yaml_for(&fm))?;
    let name = name.map(|n| single_line(&n)).filter(|n| !n.is_empty()).unwrap_or_else(|| {
        Some(single_line(&folder_name(entry))).filter(|n| !n.is_empty()).unwrap_or_else(|| "skill".into())
    });
    let description = description.map(|d| single_line(&d)).unwrap_or_default();
    if name.chars().count() > MAX_NAME {
        return Err(format!("invalid name: exceeds maximum length of {MAX_NAME} characters"));
    }
    if description.is_empty() {
        return Err("missing field `description`".into());
    }
    Ok(Some((name, description)))
}

fn skill_path(entry: &Entry) -> String {
    prompt::path_string(&entry.skill.dir.join(&entry.skill.file_name))
}

/// Loads every skill of `lib` the way Codex does, in listing order: later sources (higher
/// scopes) first, then by name in byte order, then by path.
pub fn load(lib: &Library) -> Loading {
    let mut out = Loading::default();
    let mut seen: HashSet<String> = HashSet::new();
    let mut loaded: Vec<(usize, Loaded)> = vec![];
    let mut errors: Vec<(usize, String, String)> = vec![];
    for si in (0..lib.sources.len()).rev() {
        for (i, e) in lib.entries.iter().enumerate().filter(|(_, e)| e.source == si) {
            let path = skill_path(e);
            match (*e.reading("codex", "", read)).clone() {
                Ok(None) => {}
                Ok(Some((name, description))) => {
                    if !seen.insert(path.clone()) {
                        out.rejected.push(prompt::skill(&name, folder_name(e), &path, Some(si)).of(e).decided(
                            Decision::Shadowed,
                            "the same SKILL.md is already loaded from a higher-priority source (Codex dedupes by path)",
                        ));
                        continue;
                    }
                    loaded.push((si, Loaded { name, description, path, entry: i }));
                }
                Err(message) => {
                    out.rejected.push(
                        prompt::skill(e.skill.display_name(), folder_name(e), &path, Some(si))
                            .of(e)
                            .decided(Decision::Invalid, message.clone()),
                    );
                    errors.push((si, path, message));
                }
            }
        }
    }
    loaded.sort_by(|(sa, a), (sb, b)| sb.cmp(sa).then_with(|| a.name.cmp(&b.name)).then_with(|| a.path.cmp(&b.path)));
    out.skills = loaded.into_iter().map(|(_, l)| l).collect();
    errors.sort();
    out.errors = errors.into_iter().map(|(_, path, message)| format!("{LOAD_ERROR}{path}: {message}")).collect();
    out
}

/// The description as listed before any budget: over 1,024 characters → the first 1,021 + `...`.
pub fn capped_description(description: &str) -> (String, bool) {
    if description.chars().count() > MAX_DESCRIPTION {
        let cut: String = description.chars().take(MAX_DESCRIPTION - 3).collect();
        (format!("{cut}..."), true)
    } else {
        (description.to_string(), false)
    }
}

/// One listing line without its newline.
pub fn line(name: &str, description: &str, path: &str) -> String {
    if description.is_empty() {
        format!("- {name}: (file: {path})")
    } else {
        format!("- {name}: {description} (file: {path})")
    }
}

/// The unit Codex measures its skills budget in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetUnit {
    /// `ceil(bytes / 4)`: 2% of the context window.
    Tokens(usize),
    /// Characters (Unicode scalar values).
    Chars(usize),
}

impl BudgetUnit {
    pub fn limit(self) -> usize {
        match self {
            BudgetUnit::Tokens(n) | BudgetUnit::Chars(n) => n,
        }
    }

    pub fn cost(self, text: &str) -> usize {
        self.cost_of(text.len(), text.chars().count())
    }

    fn cost_of(self, bytes: usize, chars: usize) -> usize {
        match self {
            BudgetUnit::Tokens(_) => bytes.div_ceil(4),
            BudgetUnit::Chars(_) => chars,
        }
    }
}

/// The budget for a render: a fixed character budget when given, else 2% of the context window.
pub fn budget_for(options: &prompt::PromptOptions) -> BudgetUnit {
    match options.char_budget {
        Some(c) => BudgetUnit::Chars(c),
        None => {
            let window = options.window().unwrap_or(DEFAULT_CONTEXT_WINDOW);
            if window == 0 {
                BudgetUnit::Chars(FALLBACK_CHAR_BUDGET)
            } else {
                BudgetUnit::Tokens(((window * BUDGET_PERCENT / 100) as usize).max(1))
            }
        }
    }
}

/// How many description characters each line keeps under `budget` (after `overhead`): all of
/// them when everything fits; else characters handed out one at a time, round robin; `None` for
/// a line dropped because even the bare lines do not fit. `lines` are (name, description, path).
pub fn allocate(lines: &[(&str, &str, &str)], budget: BudgetUnit, overhead: usize) -> Vec<Option<usize>> {
    let available = budget.limit().saturating_sub(overhead);
    // Per line: the bare line's bytes and chars (with its newline), and each description prefix's.
    let bare: Vec<(usize, usize)> = lines
        .iter()
        .map(|(n, _, p)| {
            let l = line(n, "", p);
            (l.len() + 1, l.chars().count() + 1)
        })
        .collect();
    let prefix: Vec<Vec<usize>> = lines
        .iter()
        .map(|(_, d, _)| {
            let mut v = vec![0];
            let mut at = 0;
            for c in d.chars() {
                at += c.len_utf8();
                v.push(at);
            }
            v
        })
        .collect();
    let cost = |i: usize, count: usize| {
        let extra = usize::from(count > 0);
        budget.cost_of(bare[i].0 + prefix[i][count] + extra, bare[i].1 + count + extra)
    };
    let full: Vec<usize> = (0..lines.len()).map(|i| prefix[i].len() - 1).collect();
    let full_cost: usize = (0..lines.len()).map(|i| cost(i, full[i])).sum();
    if full_cost <= available {
        return full.into_iter().map(Some).collect();
    }
    let mut counts: Vec<Option<usize>> = vec![Some(0); lines.len()];
    let minimum: usize = (0..lines.len()).map(|i| cost(i, 0)).sum();
    if minimum > available {
        let mut remaining = available;
        for (i, c) in counts.iter_mut().enumerate() {
            if cost(i, 0) <= remaining {
                remaining -= cost(i, 0);
            } else {
                *c = None;
            }
        }
        return counts;
    }
    let mut remaining = available - minimum;
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..lines.len() {
            let Some(n) = counts[i] else { continue };
            if n >= full[i] {
                continue;
            }
            let delta = cost(i, n + 1) - cost(i, n);
            if delta <= remaining {
                counts[i] = Some(n + 1);
                remaining -= delta;
                changed = true;
            }
        }
    }
    counts
}

/// The item Codex adds for an explicitly mentioned skill (`SkillInstructions`): the whole file,
/// frontmatter included, unchanged.
pub fn skill_item(name: &str, path: &str, contents: &str) -> String {
    format!("<skill>\n<name>{name}</name>\n<path>{path}</path>\n{contents}\n</skill>")
}

/// A skill a user message mentions, with the item Codex injects for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mention {
    pub name: String,
    pub path: String,
    /// The text of the user item added after the message ([`skill_item`]).
    pub item: String,
}

fn is_mention_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b':')
}

fn is_common_env_var(name: &str) -> bool {
    matches!(
        name.to_ascii_uppercase().as_str(),
        "PATH" | "HOME" | "USER" | "SHELL" | "PWD" | "TMPDIR" | "TEMP" | "TMP" | "LANG" | "TERM" | "XDG_CONFIG_HOME"
    )
}

/// The `$name` tokens of a message and the paths of `[$name](path)` links
/// (`extract_tool_mentions`): names are `[A-Za-z0-9_:-]+`; common environment variables
/// (`$PATH`, `$HOME`…) are ignored.
pub fn mentioned(message: &str) -> (Vec<&str>, Vec<&str>) {
    let b = message.as_bytes();
    let (mut names, mut paths) = (vec![], vec![]);
    let name_end = |start: usize| {
        let mut e = start;
        while e < b.len() && is_mention_char(b[e]) {
            e += 1;
        }
        e
    };
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'[' && b.get(i + 1) == Some(&b'$') {
            let e = name_end(i + 2);
            if e > i + 2 && b.get(e) == Some(&b']') {
                let mut p = e + 1;
                while p < b.len() && b[p].is_ascii_whitespace() {
                    p += 1;
                }
                if b.get(p) == Some(&b'(') {
                    if let Some(close) = message[p + 1..].find(')') {
                        let path = message[p + 1..p + 1 + close].trim();
                        if !path.is_empty() {
                            let name = &message[i + 2..e];
                            if !is_common_env_var(name) {
                                paths.push(path.strip_prefix("skill://").unwrap_or(path));
                            }
                            i = p + 1 + close + 1;
                            continue;
                        }
                    }
                }
            }
        }
        if b[i] != b'$' {
            i += 1;
            continue;
        }
        let e = name_end(i + 1);
        if e == i + 1 {
            i += 1;
            continue;
        }
        let name = &message[i + 1..e];
        if !is_common_env_var(name) {
            names.push(name);
        }
        i = e;
    }
    (names, paths)
}

/// The skills a user message mentions and the items Codex adds after it, in listing order:
/// `[$name](path)` links by exact path first, then each plain `$name` that exactly one loaded
/// skill has (an ambiguous name injects nothing; so does a folder name that is not the name).
pub fn mentions(lib: &Library, message: &str) -> Vec<Mention> {
    let loading = load(lib);
    let (names, paths) = mentioned(message);
    let mut picked: Vec<&Loaded> = loading.skills.iter().filter(|s| paths.contains(&s.path.as_str())).collect();
    let mut seen_names: HashSet<&str> = picked.iter().map(|s| s.name.as_str()).collect();
    for s in &loading.skills {
        if picked.iter().any(|p| p.path == s.path) || !names.contains(&s.name.as_str()) {
            continue;
        }
        if loading.skills.iter().filter(|o| o.name == s.name).count() != 1 {
            continue;
        }
        if seen_names.insert(&s.name) {
            picked.push(s);
        }
    }
    picked
        .into_iter()
        .map(|s| Mention {
            name: s.name.clone(),
            path: s.path.clone(),
            item: skill_item(&s.name, &s.path, &lib.entries[s.entry].skill.text),
        })
        .collect()
}

pub fn render(input: &RenderInput<'_>) -> Prompt {
    let lib = input.library;
    let loading = load(lib);
    let mut b = Builder { warnings: loading.errors.clone(), ..Default::default() };
    if loading.skills.is_empty() {
        for r in loading.rejected {
            b.absent(r);
        }
        return prompt::finish(&FORMAT, input.options, b, None, vec![]);
    }
    // Roots: the sources holding a loaded skill, in source order, by real path.
    let mut roots: Vec<String> = vec![];
    for (si, src) in lib.sources.iter().enumerate() {
        let root = prompt::path_string(&src.root);
        if !roots.contains(&root) && loading.skills.iter().any(|s| lib.entries[s.entry].source == si) {
            roots.push(root);
        }
    }
    let short = |path: &str| -> String {
        roots
            .iter()
            .enumerate()
            .filter(|(_, r)| path.starts_with(&format!("{r}/")))
            .max_by_key(|(_, r)| r.len())
            .map(|(k, r)| format!("r{k}/{}", &path[r.len() + 1..]))
            .unwrap_or_else(|| path.to_string())
    };
    let root_lines: Vec<String> = roots.iter().enumerate().map(|(k, r)| format!("- `r{k}` = `{r}`")).collect();
    let budget = budget_for(input.options);
    let overhead = budget
        .cost(&format!("\n## Skills\n{INTRO}\n### Skill roots\n{}\n### Available skills\n", root_lines.join("\n")))
        .saturating_sub(budget.cost(&format!("\n## Skills\n{ABSOLUTE_INTRO}\n### Available skills\n")));
    let listed: Vec<(String, bool, String)> = loading
        .skills
        .iter()
        .map(|s| {
            let (d, capped) = capped_description(&s.description);
            (d, capped, short(&s.path))
        })
        .collect();
    let args: Vec<(&str, &str, &str)> =
        loading.skills.iter().zip(&listed).map(|(s, (d, _, p))| (s.name.as_str(), d.as_str(), p.as_str())).collect();
    let counts = allocate(&args, budget, overhead);
    let needed = overhead + args.iter().map(|(n, d, p)| budget.cost(&format!("{}\n", line(n, d, p)))).sum::<usize>();

    b.push(&format!("{OPEN}\n## Skills\n{INTRO}\n### Skill roots\n{}\n### Available skills\n", root_lines.join("\n")));
    for ((s, (d, capped, p)), count) in loading.skills.iter().zip(&listed).zip(&counts) {
        let e = &lib.entries[s.entry];
        let rec = prompt::skill(&s.name, folder_name(e), &s.path, Some(e.source)).of(e);
        let Some(count) = *count else {
            b.absent(rec.decided(
                Decision::Dropped,
                "over the skills budget: even the bare `- name: (file: path)` lines do not all fit",
            ));
            continue;
        };
        let total = d.chars().count();
        let rec = if count < total {
            rec.decided(
                Decision::Truncated,
                format!("over the skills budget: description cut to {count} of {total} characters (round robin)"),
            )
        } else if *capped {
            rec.decided(Decision::Truncated, "description over 1,024 characters: first 1,021 + `...`")
        } else {
            rec
        };
        let kept: String = d.chars().take(count).collect();
        b.entry(rec, |t| t.push_str(&line(&s.name, &kept, p)));
        b.push("\n");
    }
    b.push(&format!("### How to use skills\n{HOW_TO_USE}\n{CLOSE}"));
    for r in loading.rejected {
        b.absent(r);
    }
    let (unit, kind, limit) = match budget {
        BudgetUnit::Tokens(n) => ("budget tokens of ceil(bytes / 4), 2% of the context window", "token units", n),
        BudgetUnit::Chars(n) => ("characters (a fixed budget)", "characters", n),
    };
    let budget = Budget {
        limit,
        unit: kind,
        needed,
        rule: format!(
            "{limit} {unit}, over the skill lines with their newlines (plus any extra the roots table costs over the absolute-path header); over it, descriptions share the budget round robin"
        ),
    };
    prompt::finish(&FORMAT, input.options, b, Some(budget), vec![])
}

// ---------------------------------------------------------------------------------------------
// The session: `$name` mentions.

/// One session step as Codex handles it: invoking a skill is a user message mentioning
/// `$name` (with the arguments after it); each resolved mention adds a `<skill>` item.
pub fn session_step(s: &mut crate::session::Session, step: &crate::session::Step) -> crate::session::Outcome {
    use crate::session::{Outcome, Step};
    match step {
        Step::Invoke { skill, args } => mention(s, skill, args.as_deref().unwrap_or("")),
        Step::Slash { name, args } => mention(s, name, args),
        Step::Load { skill } => mention(s, skill, ""),
        Step::Unload { skill } => Outcome::unsupported(format!("unload {skill}"), "codex", "unload tool"),
        Step::Tool { name, args } => Outcome::ok(format!("{name}({args})"), String::new())
            .with_note("Codex does not read allowed-tools; the tool would run under its sandbox policy (the simulator runs no tools)"),
        Step::Edit { .. } | Step::User { .. } | Step::Model { .. } => {
            unreachable!("edits and conversation turns are handled by the session")
        }
    }
}

fn mention(s: &crate::session::Session, skill: &str, args: &str) -> crate::session::Outcome {
    use crate::session::Outcome;
    let message = if args.is_empty() { format!("use ${skill}") } else { format!("use ${skill} {args}") };
    let found = mentions(&s.library, &message);
    if found.is_empty() {
        return Outcome::ok(message, String::new())
            .with_note(format!("`${skill}` matches no single listed skill: Codex injects nothing"));
    }
    let items: Vec<String> = found.into_iter().map(|m| m.item).collect();
    Outcome::ok(message, items.join("\n")).with_note("the user message, then one `<skill>` item per mention")
}

/// Reads every skill as [`load`] does, remembering each reading ([`Agent::read`]).
pub fn read_all(lib: &Library) {
    load(lib);
}

/// A skill is activated by a shell command that reads its `SKILL.md` (the listing says to open
/// it before acting): `exec_command` with a `cmd` naming the file, by its absolute path or its
/// root alias (`r0/pdf/SKILL.md`).
pub const ACTIVATION: crate::agent::Activation = crate::agent::Activation {
    rule: "`exec_command` whose `cmd` reads S's SKILL.md",
    tools: |_| vec![exec_command_tool()],
    call: |p, name, args| {
        if name != "exec_command" {
            return None;
        }
        p.skill_read_by(args.get("cmd")?.as_str()?).map(|s| crate::agent::SkillCall::invoke(s.name.clone()))
    },
};

/// Codex's shell tool as 0.171.0 sends it (`tools[0]` of its Responses API request, captured
/// from the real program: `codex-0.171.0/tool-exec_command.json`): how its model reads a skill's
/// file. 0.169.0 described `login` as "True runs the shell with -l/-i semantics; false disables
/// them. Defaults to true."
pub fn exec_command_tool() -> crate::prompt::ToolDef {
    let s = |d: &str| serde_json::json!({"type": "string", "description": d});
    let n = |d: &str| serde_json::json!({"type": "number", "description": d});
    let b = |d: &str| serde_json::json!({"type": "boolean", "description": d});
    crate::prompt::ToolDef {
        name: "exec_command".into(),
        description: "Runs a command in a PTY, returning output or a session ID for ongoing interaction.".into(),
        parameters: serde_json::json!({
            "type": "object",
            "properties": {
                "cmd": s("Shell command to execute."),
                "justification": s("User-facing approval question for `require_escalated`; omit otherwise."),
                "login": b("Request login-shell startup. Omit to inherit."),
                "max_output_tokens": n("Output token budget. Defaults to 10000 tokens; larger requests may be capped by policy."),
                "prefix_rule": {
                    "type": "array",
                    "description": "Reusable approval prefix for `cmd`, only with `sandbox_permissions: \"require_escalated\"`; for example [\"git\", \"pull\"].",
                    "items": {"type": "string"}
                },
                "sandbox_permissions": {
                    "type": "string",
                    "description": "Per-command sandbox override. Defaults to `use_default`; use `require_escalated` for unsandboxed execution.",
                    "enum": ["use_default", "require_escalated"]
                },
                "shell": s("Shell binary to launch. Defaults to the user's default shell."),
                "tty": b("True allocates a PTY for the command; false or omitted uses plain pipes."),
                "workdir": s("Working directory for the command. Defaults to the turn cwd."),
                "yield_time_ms": n("Wait before yielding output. Defaults to 10000 ms; effective range is 250-30000 ms.")
            },
            "required": ["cmd"],
            "additionalProperties": false
        }),
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_needs_a_closed_non_empty_block() {
        assert_eq!(frontmatter("---\r\nname: a\r\n---\r\nbody").as_deref(), Some("name: a"));
        assert_eq!(frontmatter("  ---  \nname: a\n --- \n").as_deref(), Some("name: a"));
        assert_eq!(frontmatter("---\nname: a"), None);
        assert_eq!(frontmatter("---\n---\n"), None);
        assert_eq!(frontmatter("# x\n---\nname: a\n---\n"), None);
    }

    #[test]
    fn descriptions_over_1024_chars_keep_1021_plus_dots() {
        let d = "é".repeat(1025);
        let (c, capped) = capped_description(&d);
        assert!(capped);
        assert_eq!(c.chars().count(), 1024);
        assert!(c.starts_with(&"é".repeat(1021)) && c.ends_with("..."));
        assert_eq!(capped_description(&"é".repeat(1024)), ("é".repeat(1024), false));
    }

    #[test]
    fn block_scalars_and_colons_become_one_line() {
        assert_eq!(
            fields("description: >\n  a\n  b\n", None).unwrap().1.map(|d| single_line(&d)).as_deref(),
            Some("a b")
        );
        assert_eq!(
            fields("description: |\n  a\n  b\n", None).unwrap().1.map(|d| single_line(&d)).as_deref(),
            Some("a b")
        );
        assert_eq!(fields("name: x\ndescription: Use when: y\n", None).unwrap().1.as_deref(), Some("Use when: y"));
        assert_eq!(fields("name: ~\n", None).unwrap().0, None);
        assert!(fields("name: [a]\ndescription: d\n", None).unwrap_err().contains("invalid type: sequence"));
    }

    #[test]
    fn round_robin_gives_characters_in_turn() {
        let d = "abcdefghij".repeat(4);
        let lines = [("a", d.as_str(), "r0/a/SKILL.md"), ("b", d.as_str(), "r0/b/SKILL.md")];
        let bare = BudgetUnit::Chars(0).cost(&format!("{}\n", line("a", "", "r0/a/SKILL.md")));
        // Room for the bare lines plus 11 characters: 1 for each separating space, 9 shared.
        let counts = allocate(&lines, BudgetUnit::Chars(2 * bare + 11), 0);
        assert_eq!(counts, [Some(5), Some(4)]);
        assert_eq!(allocate(&lines, BudgetUnit::Chars(bare), 0), [Some(0), None]);
        assert_eq!(allocate(&lines, BudgetUnit::Chars(10_000), 0), [Some(40), Some(40)]);
    }

    #[test]
    fn mentions_are_names_of_mention_characters() {
        let (names, paths) = mentioned("use $a-b:c, $PATH and [$x](skill:///p/SKILL.md) $ end");
        assert_eq!(names, ["a-b:c"]);
        assert_eq!(paths, ["/p/SKILL.md"]);
    }

    #[test]
    fn budget_is_two_percent_of_the_window() {
        assert_eq!(budget_for(&Default::default()), BudgetUnit::Tokens(5_440));
        let o = prompt::PromptOptions { char_budget: Some(100), ..Default::default() };
        assert_eq!(budget_for(&o), BudgetUnit::Chars(100));
    }
}
