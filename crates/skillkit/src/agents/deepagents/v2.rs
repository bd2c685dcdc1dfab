//! DeepAgents `SkillsMiddleware` V2 as designed in seed `000_248ad29e8601cff1.txt` (V2 design,
//! final revision, 2026-02-18), with the `RESTRICT` option of the earlier draft, seed
//! `003_32eee1f43a409d1e.txt` (2026-02-16). Sections are the seeds' own numbering.
//!
//! - Source and discovery: unchanged from V1 (seed 000 §1.2 lists them as already implemented,
//!   §1.3 P0 keeps V1's API, §3.3 `before_agent` still calls `_list_skills` per source): direct
//!   child folders with `SKILL.md`, sources in order, "后面的 source 覆盖前面的（last one wins）"
//!   (§1.2) through `all_skills[skill["name"]] = skill` (§3.3), so the winner keeps the slot of
//!   the skill it replaced. The loader is shared with `deepagents-v1`
//!   ([`crate::agents::deepagents::load`], which reads with the real [`crate::agents::deepagents::read`]):
//!   seed 000 §6.1 keeps `SkillMetadata`'s 7 fields, §1.2 the name validation and the 10 MB limit.
//! - Text: [`SKILLS_SYSTEM_PROMPT`], the literal of §3.6.3 evaluated as Python evaluates it (its
//!   `\`-newline continuations joined): it begins with two newlines (the line after `"""` and the
//!   blank line) and ends with one. `modify_request` formats it and appends it to the system
//!   message with `append_to_system_message` on every model call (§3.6.2); it has no load-warnings
//!   slot. `{skills_list}` is `_format_skills_list` (§3.6.1), one entry per skill joined with
//!   `\n`, each entry its lines joined with `\n`:
//!   - `- **{name}**{ [Loaded]}: {description}` plus ` ({annotations})` when license or
//!     compatibility is set;
//!   - `  -> Recommended tools: a, b` when `allowed-tools` is set (§3.6.1, §5.3: recommend only);
//!   - for a loaded skill with resources, `  -> Resources: {summary}` (§3.6.1
//!     `_format_resource_summary`: counts per type, types in sorted order, `s` when the count is
//!     over 1; so `1 reference, 2 scripts` — §5.3's example `2 scripts, 1 reference` is not
//!     sorted and contradicts the code; the code wins);
//!   - for a skill not loaded, ``  -> Use `load_skill("{name}")` to read full instructions``.
//!
//!   An empty library prints `(No skills available yet. You can create skills in {a} or {b})`
//!   (§3.6.1). Loaded skills come from [`crate::prompt::PromptOptions::loaded`] (the session's
//!   `skills_loaded`, §2.2); names that are not listed skills are ignored, and more than
//!   [`DEFAULT_MAX_LOADED_SKILLS`] are rendered as given (a session cannot reach that state).
//!   Resources of a loaded skill are what `load_skill` discovered lazily (§3.2, §3.2.1): files
//!   directly in `scripts/`, `references/`, `assets/` and files at the skill root other than
//!   `SKILL.md` (`other`); nothing deeper ([`crate::resources::ResourceView::DeepagentsV2`], on
//!   the folder as it is now).
//! - Where seed 000 is silent (from the real DeepAgents 0.7.32, which V2 extends):
//!   `{skills_locations}` (`_format_skills_locations` is called in §3.6.2 but not shown) is 0.7.32's
//!   `**{label} Skills**: `{source}`` lines with ` (higher priority)` on the last
//!   ([`crate::agents::deepagents::locations`]); `_format_skill_annotations` is 0.7.32's
//!   `License: …, Compatibility: …`; the order within a source is 0.7.32's path order.
//! - Budget: no description budget, every discovered skill is listed in full (§1.4, §4.1.1);
//!   descriptions over 1,024 characters are still cut by the unchanged V1 reader. The content
//!   budget is `max_loaded_skills` ([`DEFAULT_MAX_LOADED_SKILLS`] = 10, §3.1, §4.1.2), enforced
//!   by `load_skill`, not by the listing.
//! - Tools (§3.4, §3.5): `load_skill(skill_name)` and `unload_skill(skill_name)`, with the
//!   `StructuredTool.from_function` descriptions and the `Annotated` parameter descriptions of the
//!   seed, as LangChain turns them into a JSON Schema. Their results (§3.4.1, §3.5.1, §7) belong to
//!   the session simulator.
//! - `allowed-tools` policy: seed 000 keeps only `RECOMMEND` (§5.2); seed 003 §3.4.1 adds
//!   `RESTRICT` ([`AllowedToolsPolicy`]), which blocks tool calls outside the loaded skills'
//!   `allowed-tools` except [`ALWAYS_ALLOWED_TOOLS`] (§3.4.2). It changes tool calls only, never
//!   the prompt text (seed 003 §3.4.2 acts in `wrap_tool_call`).

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::agents::deepagents::v1::{self, template_parts};
use crate::agents::deepagents::Metadata;
use crate::agents::deepagents::{self, Loaded};
use crate::library::discover::DiscoveryPolicy;
use crate::library::{Entry, NameKey};
use crate::prompt::{self, Builder, Format, Placement, Prompt, RenderInput, ToolDef};
use crate::resources::{self, ResourceKind, ResourceView};
use std::borrow::Cow;

pub static AGENT: Agent = Agent {
    id: "deepagents-v2",
    title: "DeepAgents V2 (seed design)",
    kind: AgentKind::TestProfile,
    label: "DeepAgents V2 (seed)",
    source: "seed 000_248ad29e8601cff1.txt (V2 template, load_skill) and seed 003_32eee1f43a409d1e.txt (RESTRICT)",
    lint: LintProfile::DEFAULT,
    discovery: DiscoveryPolicy::CHILDREN,
    key: NameKey::Frontmatter,
    prompt: Some(render),
    read: Some(crate::agents::deepagents::read_all),
    activation: Some(ACTIVATION),
    installs: &[],
};

const FORMAT: Format = Format {
    agent: "deepagents-v2",
    source: AGENT.source,
    placement: Placement::SystemPrompt,
    placement_detail: "appended to the system message by modify_request (append_to_system_message) on every model call (seed 000 §3.6.2); the section itself starts with two newlines and ends with one (§3.6.3)",
    default_context_window: DEFAULT_CONTEXT_WINDOW,
    estimate: false,
};

/// `SKILLS_SYSTEM_PROMPT` of seed 000 §3.6.3, as Python evaluates the literal.
pub const SKILLS_SYSTEM_PROMPT: &str = concat!(
    "\n\n## Skills System\n\n",
    "You have access to a skills library that provides specialized capabilities and domain knowledge.\n\n",
    "{skills_locations}\n\n",
    "**Available Skills:**\n\n",
    "{skills_list}\n\n",
    "**How to Use Skills (Progressive Disclosure):**\n\n",
    "Skills follow a **progressive disclosure** pattern - you see their name and description above, but only read full instructions when needed:\n\n",
    "1. **Recognize when a skill applies**: Check if the user's task matches a skill's description\n",
    "2. **Load the skill**: Use `load_skill(\"skill-name\")` to read full instructions and discover resources\n",
    "3. **Follow the skill's instructions**: The loaded content contains step-by-step workflows, best practices, and examples\n",
    "4. **Access supporting files**: Use the resource paths shown in the loaded skill output with `read_file`\n",
    "5. **Unload when done**: Use `unload_skill(\"skill-name\")` to free up a loading slot when a skill is no longer needed\n\n",
    "**When to Use Skills:**\n",
    "- User's request matches a skill's domain (e.g., \"research X\" -> web-research skill)\n",
    "- You need specialized knowledge or structured workflows\n",
    "- A skill provides proven patterns for complex tasks\n\n",
    "Remember: Skills make you more capable and consistent. When in doubt, check if a skill exists for the task!\n",
);

/// The context window assumed when none is given (the seed names no model).
pub const DEFAULT_CONTEXT_WINDOW: u64 = 200_000;

pub use crate::session::DEFAULT_MAX_LOADED_SKILLS;

/// `MAX_SKILL_FILE_SIZE`, kept from V1 (seed 000 附录 C); `load_skill` refuses larger files
/// (§3.4.1).
pub const MAX_SKILL_FILE_SIZE: u64 = v1::MAX_SKILL_FILE_SIZE;

/// `RESOURCE_TYPE_MAP` (seed 000 §3.2.1, 附录 C): standard resource folder → resource type. Other
/// files at the skill root are `other`.
pub const RESOURCE_TYPE_MAP: [(&str, &str); 3] =
    [("scripts", "script"), ("references", "reference"), ("assets", "asset")];

/// The `load_skill` tool's description (seed 000 §3.4, `StructuredTool.from_function`).
pub const LOAD_SKILL_DESCRIPTION: &str = "Load a skill's full instructions and discover its resources. Use this instead of read_file when you need to activate a skill from the available skills list.";
/// `load_skill`'s `skill_name` parameter (its `Annotated` description, seed 000 §3.4).
pub const LOAD_SKILL_PARAMETER: &str = "Name of the skill to load from the available skills list.";
/// The `unload_skill` tool's description (seed 000 §3.5).
pub const UNLOAD_SKILL_DESCRIPTION: &str = "Unload a previously loaded skill to free up a loading slot. Use this when you have reached the maximum number of loaded skills and need to load a different one.";
/// `unload_skill`'s `skill_name` parameter (seed 000 §3.5).
pub const UNLOAD_SKILL_PARAMETER: &str = "Name of the loaded skill to unload.";

pub use crate::session::AllowedToolsPolicy;

/// `_ALWAYS_ALLOWED_TOOLS` (seed 003 §3.4.2): never blocked under `Restrict`. (Seed 000 §9.5,
/// sketching a later reintroduction, lists "`load_skill`, `unload_skill`, `read_file`, `ls` 等";
/// the policy itself is seed 003's.)
pub const ALWAYS_ALLOWED_TOOLS: [&str; 4] = ["load_skill", "write_todos", "read_file", "ls"];

/// `_format_resource_summary` (seed 000 §3.6.1): counts per type in sorted type order, `s` for
/// more than one (`1 reference, 2 scripts`).
pub fn resource_summary(kinds: impl IntoIterator<Item = ResourceKind>) -> String {
    let mut by_type: Vec<(&'static str, usize)> = vec![];
    for k in kinds {
        match by_type.iter_mut().find(|(t, _)| *t == k.as_str()) {
            Some((_, n)) => *n += 1,
            None => by_type.push((k.as_str(), 1)),
        }
    }
    by_type.sort();
    by_type.iter().map(|(t, n)| format!("{n} {t}{}", if *n > 1 { "s" } else { "" })).collect::<Vec<_>>().join(", ")
}

/// The kinds of the resources `load_skill` discovers for a skill (seed 000 §3.2.1): first-level
/// files of the three standard folders and root files other than `SKILL.md`.
pub fn discovered_resources(entry: &Entry) -> Vec<ResourceKind> {
    let scanned: Cow<'_, resources::Resources> = match &entry.skill.resources {
        Some(r) => Cow::Borrowed(r),
        None => Cow::Owned(resources::scan(&entry.skill.dir, "SKILL.md", resources::ScanOptions::default())),
    };
    ResourceView::DeepagentsV2.visible(&scanned).iter().map(|f| f.kind).collect()
}

/// One `_format_skills_list` entry (seed 000 §3.6.1), without the joining newline. `resources`
/// is the summary shown for a loaded skill (`None` when it has none).
fn entry_text(m: &Metadata, loaded: bool, resources: Option<&str>) -> String {
    let status = if loaded { " [Loaded]" } else { "" };
    let mut lines = vec![format!("- **{}**{status}: {}", m.name, m.description)];
    if let Some(a) = deepagents::annotations(m) {
        lines[0].push_str(&format!(" ({a})"));
    }
    if !m.allowed_tools.is_empty() {
        lines.push(format!("  -> Recommended tools: {}", m.allowed_tools.join(", ")));
    }
    if loaded {
        if let Some(r) = resources {
            lines.push(format!("  -> Resources: {r}"));
        }
    } else {
        lines.push(format!("  -> Use `load_skill(\"{}\")` to read full instructions", m.name));
    }
    lines.join("\n")
}

fn skill_name_parameter(description: &str) -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": { "skill_name": { "type": "string", "description": description } },
        "required": ["skill_name"],
    })
}

/// The two tools of seed 000 §2.3, §3.4, §3.5 (`self.tools`).
pub fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef {
            name: "load_skill".into(),
            description: LOAD_SKILL_DESCRIPTION.into(),
            parameters: skill_name_parameter(LOAD_SKILL_PARAMETER),
        },
        ToolDef {
            name: "unload_skill".into(),
            description: UNLOAD_SKILL_DESCRIPTION.into(),
            parameters: skill_name_parameter(UNLOAD_SKILL_PARAMETER),
        },
    ]
}

pub fn render(input: &RenderInput<'_>) -> Prompt {
    let Loaded { skills, absent, warnings } = deepagents::load(input);
    let loaded = &input.options.loaded;
    let [head, middle, tail] = template_parts(SKILLS_SYSTEM_PROMPT);
    let mut b = Builder { warnings, ..Builder::default() };
    b.push(head);
    b.push(&deepagents::locations(input));
    b.push(middle);
    if skills.is_empty() {
        b.push(&deepagents::empty_list(input));
    }
    for (n, (m, i)) in skills.iter().enumerate() {
        if n > 0 {
            b.push("\n");
        }
        let is_loaded = loaded.contains(&m.name);
        let mut rec = deepagents::listed(input, m, *i);
        let summary = if is_loaded {
            let kinds = discovered_resources(&input.library.entries[*i]);
            let summary = (!kinds.is_empty()).then(|| resource_summary(kinds));
            let note = match &summary {
                Some(s) => format!("loaded in the session: marked [Loaded], resources {s}"),
                None => "loaded in the session: marked [Loaded], no resources".to_string(),
            };
            rec.reason = Some(match rec.reason.take() {
                Some(r) => format!("{r}; {note}"),
                None => note,
            });
            summary
        } else {
            None
        };
        b.entry(rec, |t| t.push_str(&entry_text(m, is_loaded, summary.as_deref())));
    }
    b.push(tail);
    for a in absent {
        b.absent(a);
    }
    prompt::finish(&FORMAT, input.options, b, None, tools())
}

/// The V2 prompt kept current through a session: the loader runs once, and a load or unload
/// re-renders only the entries whose `[Loaded]` mark changed and recounts only their tokens. The
/// text is [`render`]'s exactly (tested); token counts are exact because the text is cut only
/// after a newline that a `-` follows, where o200k's pre-tokenizer always starts a new piece.
pub struct SessionPrompt {
    /// The listed skills (the loader's dict), with their library entries.
    pub skills: Vec<(Metadata, usize)>,
    head: String,
    tail: String,
    entries: Vec<String>,
    loaded: Vec<bool>,
    /// Tokens of each entry with what follows it up to the next entry (its `\n`; the tail for
    /// the last).
    tokens: Vec<usize>,
    chars: Vec<usize>,
    head_tokens: usize,
    /// Tokens of the tail alone, when there are no entries.
    tail_tokens: usize,
    fixed_chars: usize,
    /// Skill name → index in `skills`.
    by_name: std::collections::HashMap<String, usize>,
    /// Indices currently marked `[Loaded]`.
    marked: Vec<usize>,
}

impl crate::session::IncrementalPrompt for SessionPrompt {
    fn text(&self) -> String {
        SessionPrompt::text(self)
    }
    fn size(&self) -> crate::session::Size {
        SessionPrompt::size(self)
    }
    fn set_loaded(&mut self, lib: &crate::library::Library, loaded: &[String]) -> Vec<(String, String)> {
        SessionPrompt::set_loaded(self, lib, loaded)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl SessionPrompt {
    pub fn new(input: &RenderInput<'_>) -> SessionPrompt {
        let Loaded { skills, .. } = deepagents::load(input);
        let [head, middle, tail] = template_parts(SKILLS_SYSTEM_PROMPT);
        let mut h = format!("{head}{}{middle}", deepagents::locations(input));
        if skills.is_empty() {
            h.push_str(&deepagents::empty_list(input));
        }
        let mut p = SessionPrompt {
            head_tokens: crate::syntax::tokens::count_o200k(&h),
            tail_tokens: if skills.is_empty() { crate::syntax::tokens::count_o200k(tail) } else { 0 },
            head: h,
            tail: tail.to_string(),
            entries: vec![],
            loaded: vec![false; skills.len()],
            tokens: vec![],
            chars: vec![],
            fixed_chars: 0,
            by_name: skills.iter().enumerate().map(|(i, (m, _))| (m.name.clone(), i)).collect(),
            marked: vec![],
            skills,
        };
        p.fixed_chars = p.head.chars().count() + p.tail.chars().count();
        p.entries = p.skills.iter().map(|(m, _)| entry_text(m, false, None)).collect();
        p.tokens = (0..p.entries.len()).map(|i| p.count(i)).collect();
        p.chars = p.entries.iter().map(|e| e.chars().count()).collect();
        p.set_loaded(input.library, &input.options.loaded);
        p
    }

    fn count(&self, i: usize) -> usize {
        let after = if i + 1 == self.entries.len() { self.tail.as_str() } else { "\n" };
        crate::syntax::tokens::count_o200k(&format!("{}{after}", self.entries[i]))
    }

    /// The listed skill named `name`.
    pub fn find(&self, name: &str) -> Option<&(Metadata, usize)> {
        self.by_name.get(name).map(|&i| &self.skills[i])
    }

    /// Brings the marks in line with `loaded`; returns each changed entry's old and new text.
    pub fn set_loaded(&mut self, lib: &crate::library::Library, loaded: &[String]) -> Vec<(String, String)> {
        let mut changed = vec![];
        let want: Vec<usize> = loaded.iter().filter_map(|n| self.by_name.get(n).copied()).collect();
        let mut touched: Vec<usize> = self.marked.iter().chain(&want).copied().collect();
        touched.sort_unstable();
        touched.dedup();
        self.marked = want.clone();
        for i in touched {
            let now = want.contains(&i);
            if now == self.loaded[i] {
                continue;
            }
            self.loaded[i] = now;
            let (m, e) = &self.skills[i];
            let summary = if now {
                let kinds = discovered_resources(&lib.entries[*e]);
                (!kinds.is_empty()).then(|| resource_summary(kinds))
            } else {
                None
            };
            let new = entry_text(m, now, summary.as_deref());
            let old = std::mem::replace(&mut self.entries[i], new);
            self.tokens[i] = self.count(i);
            self.chars[i] = self.entries[i].chars().count();
            changed.push((old, self.entries[i].clone()));
        }
        changed
    }

    /// The whole text.
    pub fn text(&self) -> String {
        let mut t = String::with_capacity(
            self.head.len() + self.tail.len() + self.entries.iter().map(|e| e.len() + 1).sum::<usize>(),
        );
        t.push_str(&self.head);
        t.push_str(&self.entries.join("\n"));
        t.push_str(&self.tail);
        t
    }

    /// Characters and o200k tokens of the whole text.
    pub fn size(&self) -> crate::session::Size {
        let chars = self.fixed_chars + self.chars.iter().sum::<usize>() + self.entries.len().saturating_sub(1);
        let tokens = self.head_tokens + self.tail_tokens + self.tokens.iter().sum::<usize>();
        crate::session::Size { chars, tokens }
    }
}

// ---------------------------------------------------------------------------------------------
// The session: `load_skill`, `unload_skill` (seed 000 §3.4.1, §3.5.1, §7) and the RESTRICT policy
// (seed 003 §3.4.2).

/// `load_skill(skill_name)`: the skill's whole `SKILL.md` plus, when it has resources, the
/// `**Skill Resources:**` list, or one of the error strings of seed 000 §3.4.1 / §7.2.
/// `loaded` is `skills_loaded` before the call; on success the caller appends the name.
pub fn load_skill(
    skills: &[(Metadata, usize)],
    index: Option<&std::collections::HashMap<String, usize>>,
    lib: &crate::library::Library,
    loaded: &[String],
    max_loaded: usize,
    skill_name: &str,
) -> (String, bool) {
    let found = match index {
        Some(map) => map.get(skill_name).map(|&i| &skills[i]),
        None => skills.iter().find(|(m, _)| m.name == skill_name),
    };
    let Some((target, i)) = found else {
        let available: Vec<&str> = skills.iter().map(|(m, _)| m.name.as_str()).collect();
        return (format!("Error: Skill '{skill_name}' not found. Available skills: {}", available.join(", ")), false);
    };
    if loaded.iter().any(|l| l == skill_name) {
        return (format!("Skill '{skill_name}' is already loaded. Its instructions are already active."), false);
    }
    if loaded.len() >= max_loaded {
        return (
            format!(
                "Error: Cannot load skill '{skill_name}'. Maximum number of simultaneously loaded skills reached ({max_loaded}). Currently loaded: {}. Use `unload_skill(\"skill-name\")` to unload a skill you no longer need, then retry loading.",
                loaded.join(", ")
            ),
            false,
        );
    }
    let entry = &lib.entries[*i];
    let path = &target.path;
    let content = match read_skill_file(entry) {
        Ok(c) => c,
        Err(ReadError::Failed(error)) => {
            return (format!("Error: Failed to read skill file at {path}: {error}"), false)
        }
        Err(ReadError::TooLarge) => {
            return (format!("Error: Skill file at {path} exceeds maximum size ({MAX_SKILL_FILE_SIZE} bytes)"), false)
        }
        Err(ReadError::Decode(e)) => return (format!("Error: Failed to decode skill file: {e}"), false),
    };
    let mut parts = vec![content];
    let resources = discovered_resource_paths(entry, path);
    if !resources.is_empty() {
        parts.push("\n\n---\n**Skill Resources:**\n".to_string());
        for (kind, p) in resources {
            parts.push(format!("- [{kind}] `{p}`"));
        }
    }
    (parts.join("\n"), true)
}

enum ReadError {
    Failed(String),
    TooLarge,
    Decode(String),
}

/// `backend.download_files([path])` and the checks after it (seed 000 §3.4.1): the text as it is
/// now (a session edit included).
fn read_skill_file(entry: &Entry) -> Result<String, ReadError> {
    use crate::skill::FileProblem;
    for p in &entry.skill.file_problems {
        match p {
            FileProblem::Missing => return Err(ReadError::Failed("file_not_found".into())),
            FileProblem::NotAFile { .. } => return Err(ReadError::Failed("is_directory".into())),
            FileProblem::Unreadable { .. } => return Err(ReadError::Failed("permission_denied".into())),
            FileProblem::TooLarge { .. } => return Err(ReadError::TooLarge),
            FileProblem::InvalidUtf8 { offset, .. } => {
                return Err(ReadError::Decode(
                    crate::agents::deepagents::read_file::file_decode_error(&entry.skill.path())
                        .unwrap_or_else(|| format!("'utf-8' codec can't decode byte in position {offset}")),
                ))
            }
            FileProblem::Binary { .. } => {}
        }
    }
    if entry.skill.text.len() as u64 > MAX_SKILL_FILE_SIZE {
        return Err(ReadError::TooLarge);
    }
    Ok(entry.skill.text.clone())
}

/// `_discover_resources` (seed 000 §3.2.1) as `(type, path)` in the backend's listing order:
/// root files other than `SKILL.md` (`other`) and the first level of the three standard folders,
/// each path under the skill folder of `skill_md_path`.
pub fn discovered_resource_paths(entry: &Entry, skill_md_path: &str) -> Vec<(&'static str, String)> {
    let dir = skill_md_path.rsplit_once('/').map_or("", |(d, _)| d);
    let scanned: Cow<'_, resources::Resources> = match &entry.skill.resources {
        Some(r) => Cow::Borrowed(r),
        None => Cow::Owned(resources::scan(&entry.skill.dir, "SKILL.md", resources::ScanOptions::default())),
    };
    ResourceView::DeepagentsV2
        .visible(&scanned)
        .into_iter()
        .map(|f| (f.kind.as_str(), format!("{dir}/{}", f.path)))
        .collect()
}

/// `unload_skill(skill_name)` (seed 000 §3.5.1, §7.3): the message, and whether it unloaded.
/// `loaded` is `skills_loaded` after removal when it succeeds.
pub fn unload_skill(loaded: &mut Vec<String>, max_loaded: usize, skill_name: &str) -> (String, bool) {
    let Some(at) = loaded.iter().position(|l| l == skill_name) else {
        let current = if loaded.is_empty() { "(none)".to_string() } else { loaded.join(", ") };
        return (
            format!("Error: Skill '{skill_name}' is not currently loaded. Currently loaded skills: {current}."),
            false,
        );
    };
    loaded.remove(at);
    let remaining = loaded.len();
    let available = max_loaded as i64 - remaining as i64;
    (
        format!(
            "Skill '{skill_name}' has been unloaded. Currently loaded: {remaining}/{max_loaded} ({available} slot(s) available). Note: The skill's instructions from the previous load_skill call are still in the conversation history but will no longer be marked as [Loaded] in the skills list."
        ),
        true,
    )
}

/// `_check_allowed_tools` (seed 003 §3.4.2): `None` when the call may run, or the error
/// `ToolMessage` content that blocks it. Only under [`AllowedToolsPolicy::Restrict`].
pub fn check_allowed_tools(skills: &[(Metadata, usize)], loaded: &[String], tool_name: &str) -> Option<String> {
    if ALWAYS_ALLOWED_TOOLS.contains(&tool_name) || loaded.is_empty() {
        return None;
    }
    let mut allowed: Vec<&str> = vec![];
    let mut restricted = false;
    for (m, _) in skills {
        if loaded.contains(&m.name) && !m.allowed_tools.is_empty() {
            restricted = true;
            allowed.extend(m.allowed_tools.iter().map(String::as_str));
        }
    }
    if !restricted || allowed.contains(&tool_name) {
        return None;
    }
    allowed.sort_unstable();
    allowed.dedup();
    Some(format!(
        "Tool '{tool_name}' is not in the allowed-tools list for the currently loaded skills. Allowed tools: {}. If you believe this tool is necessary, explain your reasoning.",
        allowed.join(", ")
    ))
}

/// The incremental skills prompt a DeepAgents V2 session keeps current, and the default context
/// window.
pub fn session_prompt(input: &RenderInput<'_>) -> (Box<dyn crate::session::IncrementalPrompt>, u64) {
    (Box::new(SessionPrompt::new(input)), DEFAULT_CONTEXT_WINDOW)
}

/// One session step as DeepAgents V2 handles it.
pub fn session_step(s: &mut crate::session::Session, step: &crate::session::Step) -> crate::session::Outcome {
    use crate::session::{Outcome, Policy, Step};
    let Some(model) = s.skills_prompt.prompt_as::<SessionPrompt>() else {
        unreachable!("a deepagents-v2 session keeps its prompt model")
    };
    let skills = &model.skills;
    let max = s.settings.max_loaded_skills;
    match step {
        Step::Load { skill } | Step::Invoke { skill, .. } => {
            let call = format!("load_skill(\"{skill}\")");
            let (text, ok) = load_skill(skills, Some(&model.by_name), &s.library, &s.loaded, max, skill);
            if ok {
                s.loaded.push(skill.clone());
                Outcome::ok(call, text)
            } else if text.starts_with("Error: ") {
                Outcome::error(call, text)
            } else {
                Outcome::ok(call, text)
            }
        }
        Step::Unload { skill } => {
            let call = format!("unload_skill(\"{skill}\")");
            let (text, ok) = unload_skill(&mut s.loaded, max, skill);
            if ok {
                Outcome::ok(call, text)
            } else {
                Outcome::error(call, text)
            }
        }
        Step::Tool { name, args } => {
            let call = format!("{name}({args})");
            match s.settings.policy {
                Policy::Restrict => match check_allowed_tools(skills, &s.loaded, name) {
                    Some(block) => Outcome::error(call, block).with_note("blocked by the RESTRICT policy"),
                    None => Outcome::ok(call, String::new())
                        .with_note("allowed under RESTRICT; the tool would run now (the simulator runs no tools)"),
                },
                Policy::Recommend => Outcome::ok(call, String::new())
                    .with_note("RECOMMEND never blocks; the tool would run now (the simulator runs no tools)"),
            }
        }
        Step::Slash { name, .. } => Outcome::unsupported(format!("/{name}"), "deepagents-v2", "slash commands"),
        Step::Edit { .. } | Step::User { .. } | Step::Model { .. } => {
            unreachable!("edits and conversation turns are handled by the session")
        }
    }
}

/// A skill is activated by `load_skill` naming it (seed 000 §3.4); `unload_skill` unloads one
/// (§3.5: any name, the tool answers for a skill not loaded).
pub const ACTIVATION: crate::agent::Activation = crate::agent::Activation {
    rule: "`load_skill` with `skill_name: S`",
    tools: |p| p.tools.clone(),
    call: |p, name, args| match name {
        "load_skill" => {
            crate::agents::activation::skill_named_by(p, args, "skill_name").map(crate::agent::SkillCall::Load)
        }
        "unload_skill" => args.get("skill_name")?.as_str().map(|s| crate::agent::SkillCall::Unload(s.to_string())),
        _ => None,
    },
};
#[cfg(test)]
mod tests {
    use super::*;
    use ResourceKind::*;

    fn meta(name: &str) -> Metadata {
        Metadata {
            name: name.into(),
            description: "Research topics using web search".into(),
            truncated: false,
            path: format!("/skills/user/{name}/SKILL.md"),
            license: None,
            compatibility: None,
            allowed_tools: vec![],
        }
    }

    #[test]
    fn template_is_the_python_literal() {
        assert!(SKILLS_SYSTEM_PROMPT.starts_with("\n\n## Skills System\n\nYou have access to a skills library that provides specialized capabilities and domain knowledge.\n\n{skills_locations}\n\n"));
        assert!(SKILLS_SYSTEM_PROMPT.ends_with("When in doubt, check if a skill exists for the task!\n"));
        assert!(!SKILLS_SYSTEM_PROMPT.contains('\\'));
        assert!(!SKILLS_SYSTEM_PROMPT.contains("Executing Skill Scripts"));
        let [_, middle, _] = template_parts(SKILLS_SYSTEM_PROMPT);
        assert_eq!(middle, "\n\n**Available Skills:**\n\n");
    }

    #[test]
    fn resource_summary_sorts_types_and_pluralises() {
        assert_eq!(resource_summary([Script, Reference, Script]), "1 reference, 2 scripts");
        assert_eq!(resource_summary([Other, Asset, Other, Script]), "1 asset, 2 others, 1 script");
        assert_eq!(resource_summary([]), "");
    }

    #[test]
    fn entry_lines_follow_format_skills_list() {
        assert_eq!(
            entry_text(&meta("web-research"), false, None),
            "- **web-research**: Research topics using web search\n  -> Use `load_skill(\"web-research\")` to read full instructions"
        );
        let m = Metadata {
            compatibility: Some("requires: search".into()),
            allowed_tools: vec!["search".into(), "read_file".into()],
            ..meta("web-research")
        };
        // Seed 000 §5.3's example, with its resources in the code's (sorted) order.
        assert_eq!(
            entry_text(&m, true, Some("1 reference, 2 scripts")),
            "- **web-research** [Loaded]: Research topics using web search (Compatibility: requires: search)\n  -> Recommended tools: search, read_file\n  -> Resources: 1 reference, 2 scripts"
        );
        assert_eq!(entry_text(&meta("a"), true, None), "- **a** [Loaded]: Research topics using web search");
    }

    #[test]
    fn tools_have_the_seed_names_and_parameters() {
        let t = tools();
        assert_eq!(t.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["load_skill", "unload_skill"]);
        assert_eq!(t[0].parameters["required"], serde_json::json!(["skill_name"]));
        assert_eq!(t[1].parameters["properties"]["skill_name"]["description"], "Name of the loaded skill to unload.");
    }
}
