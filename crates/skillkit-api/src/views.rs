//! The views that cross to the UI: the engine's diagnostics as they are, and plain, owned views
//! of its other results, each deriving `TS` so that `ui/src/lib/bindings.ts` is generated from
//! them. Conversions only copy; every decision is the engine's.

use serde::{Deserialize, Serialize};
use skillkit::library::{Entry, Library};
use std::path::Path;

// Diagnostics and fixes cross as the engine's own types (their TypeScript comes from the
// engine's `ts` feature).
pub use skillkit::{Applicability, Diagnostic, Edit, Fix, Label, Position, Severity, Span};
// So do the engine's plain values: a resource's kind, a listing decision, a size, a session step.
pub use skillkit::prompt::Decision;
pub use skillkit::resources::ResourceKind;
pub use skillkit::session::{ModelCall, Size, Step};
pub use skillkit::AgentKind;

/// An agent profile the UI can pick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AgentInfo {
    pub id: String,
    pub title: String,
    /// A format, a real agent or a test profile: the engine's grouping, for the pickers.
    pub kind: AgentKind,
    /// A short plain name with the version, for menus ("Claude Code 2.1").
    pub label: String,
    /// The program and version, or document, the profile was verified against.
    pub source: String,
    /// The profile renders a prompt (all but `spec`).
    pub has_prompt: bool,
    /// The profile offers the model a skill tool, so its triggering can be evaluated.
    pub has_skill_tool: bool,
}

/// One folder of skills.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Source {
    /// As the user gave it.
    pub path: String,
    /// Its real path.
    pub root: String,
    pub exists: bool,
}

/// A file in a skill's folder, with the agents whose resource listing shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Resource {
    /// Relative to the skill folder, `/`-separated.
    pub path: String,
    pub kind: ResourceKind,
    pub size: Option<u32>,
    /// Agent ids whose listing shows the file (`deepagents-v2`, `gemini-cli`).
    pub discovered_by: Vec<String>,
}

/// The skill that hides a shadowed one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HiddenBy {
    pub name: String,
    pub source: usize,
    pub dir: String,
}

/// A skill in the library with its lint results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SkillEntry {
    /// Index into the library's sources.
    pub source: usize,
    /// The name the agent knows it by.
    pub name: String,
    /// The skill folder.
    pub dir: String,
    /// The skill file (`SKILL.md`), the path the editor opens and saves.
    pub path: String,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub hidden_by: Option<HiddenBy>,
    pub resources: Vec<Resource>,
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SourceIssue {
    pub source: usize,
    pub path: String,
    pub message: String,
}

/// A library as one agent discovers it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LibraryView {
    pub agent: String,
    /// Lowest priority first.
    pub sources: Vec<Source>,
    /// In source order, then discovery order.
    pub skills: Vec<SkillEntry>,
    pub issues: Vec<SourceIssue>,
    /// The agent the library's project names (`skillkit.toml` or `[tool.skillkit]`), if any: a
    /// folder opened as the library switches the window to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub configured_agent: Option<String>,
    /// Why the project's configuration (`skillkit.toml` or `[tool.skillkit]`) was left out: the
    /// error `skillkit check` there gives (`invalid-settings`). The library is opened without it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub config_error: Option<crate::error::AppError>,
}

pub fn path_string(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn count(ds: &[skillkit::Diagnostic], s: skillkit::Severity) -> usize {
    ds.iter().filter(|d| d.severity == s).count()
}

fn skill_entry(lib: &Library, e: &Entry) -> SkillEntry {
    let resources = e
        .skill
        .resources
        .as_ref()
        .map(|res| {
            let by = skillkit::resources::discovered_by(res);
            res.files
                .iter()
                .zip(by)
                .map(|(f, by)| Resource {
                    path: f.path.clone(),
                    kind: f.kind,
                    size: f.size.map(|s| s.min(u32::MAX as u64) as u32),
                    discovered_by: by.into_iter().map(str::to_string).collect(),
                })
                .collect()
        })
        .unwrap_or_default();
    SkillEntry {
        source: e.source,
        name: e.key.clone(),
        dir: path_string(&e.skill.dir),
        path: path_string(&e.skill.path()),
        errors: count(&e.diagnostics, skillkit::Severity::Error),
        warnings: count(&e.diagnostics, skillkit::Severity::Warning),
        infos: count(&e.diagnostics, skillkit::Severity::Info),
        hidden_by: e.shadowed_by.map(|i| {
            let by = &lib.entries[i];
            HiddenBy { name: by.key.clone(), source: by.source, dir: path_string(&by.skill.dir) }
        }),
        resources,
        diagnostics: e.diagnostics.clone(),
    }
}

impl LibraryView {
    pub fn new(lib: &Library, agent: &str) -> LibraryView {
        LibraryView {
            agent: agent.to_string(),
            sources: lib
                .sources
                .iter()
                .map(|s| Source { path: path_string(&s.path), root: path_string(&s.root), exists: s.exists })
                .collect(),
            skills: lib.entries.iter().map(|e| skill_entry(lib, e)).collect(),
            issues: lib
                .issues
                .iter()
                .map(|i| SourceIssue { source: i.source, path: path_string(&i.path), message: i.message.clone() })
                .collect(),
            configured_agent: None,
            config_error: None,
        }
    }
}

/// One skill's fate in the prompt text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PromptSkill {
    pub name: String,
    pub folder: String,
    pub path: String,
    pub source: Option<usize>,
    pub decision: Decision,
    pub reason: Option<String>,
    /// Byte range of the entry in the text.
    pub range: Option<Span>,
    pub chars: usize,
    pub tokens: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Budget {
    pub limit: usize,
    pub unit: String,
    pub needed: usize,
    pub rule: String,
}

/// Exactly the text an agent injects to advertise the library, and what happened to each skill.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PromptView {
    pub agent: String,
    pub source: String,
    /// Where in the request the text goes, e.g. `system-prompt`.
    pub placement: String,
    pub placement_detail: String,
    pub text: String,
    pub failure: Option<String>,
    pub skills: Vec<PromptSkill>,
    pub warnings: Vec<String>,
    pub budget: Option<Budget>,
    /// The encoding of the token counts, and whether they are an estimate for this agent.
    pub encoding: String,
    pub estimate: bool,
    pub bytes: usize,
    pub chars: usize,
    pub tokens: usize,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub context_window: u64,
    pub percent_of_context: f64,
    /// The agent's own listing settings as the render used them (none for most agents).
    pub settings: Vec<AgentSetting>,
}

/// One of an agent's listing settings (`skillkit::agent_settings`), as a render used it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AgentSetting {
    /// The key `agent_settings` take (`skillListingBudgetFraction`), the agent's own name for it.
    pub key: String,
    /// `fraction`, `count`, `bool` or `overrides` (per skill: on, name-only,
    /// user-invocable-only, off).
    pub kind: String,
    /// Where the agent itself reads it.
    pub agent_name: String,
    /// The value used, as JSON text.
    pub value: String,
    /// The agent's default, as JSON text.
    pub default: String,
    /// Where the value came from: `default`, a settings file's path, or the flag.
    pub origin: String,
}

impl From<skillkit::prompt::Prompt> for PromptView {
    fn from(p: skillkit::prompt::Prompt) -> PromptView {
        let placement = serde_json::to_value(p.placement).ok().and_then(|v| v.as_str().map(str::to_string));
        PromptView {
            agent: p.agent.to_string(),
            source: p.source.to_string(),
            placement: placement.unwrap_or_default(),
            placement_detail: p.placement_detail.to_string(),
            failure: p.failure,
            skills: p
                .skills
                .into_iter()
                .map(|s| PromptSkill {
                    name: s.name,
                    folder: s.folder,
                    path: s.path,
                    source: s.source,
                    decision: s.decision,
                    reason: s.reason,
                    range: s.range.map(|r| Span { start: r.start, end: r.end }),
                    chars: s.chars,
                    tokens: s.tokens,
                })
                .collect(),
            warnings: p.warnings,
            budget: p.budget.map(|b| Budget {
                limit: b.limit,
                unit: b.unit.to_string(),
                needed: b.needed,
                rule: b.rule,
            }),
            encoding: p.tokenizer.encoding.to_string(),
            estimate: p.tokenizer.estimate,
            bytes: p.totals.bytes,
            chars: p.totals.chars,
            tokens: p.totals.tokens.o200k_base,
            context_window: p.totals.context_window,
            percent_of_context: p.totals.percent_of_context,
            settings: p
                .settings
                .iter()
                .map(|e| AgentSetting {
                    key: e.key.to_string(),
                    kind: serde_json::to_value(e.kind)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default(),
                    agent_name: e.agent_name.to_string(),
                    value: e.value.to_string(),
                    default: e.default.to_string(),
                    origin: e.origin.describe(),
                })
                .collect(),
            text: p.text,
        }
    }
}

/// One step of the session log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Turn {
    pub index: usize,
    pub step: Step,
    /// The call as the model or user made it, e.g. `load_skill("pdf")`.
    pub call: String,
    /// Exactly the text that enters the context.
    pub result: String,
    pub is_error: bool,
    pub blocks: Vec<String>,
    pub note: Option<String>,
    pub cost: Size,
    pub loaded: Vec<String>,
    /// Prompt plus history after the step.
    pub used: Size,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub context_window: u64,
    pub percent: f64,
    pub prompt_changes: Vec<String>,
}

impl From<&skillkit::session::Turn> for Turn {
    fn from(t: &skillkit::session::Turn) -> Turn {
        Turn {
            index: t.index,
            step: t.step.clone(),
            call: t.outcome.call.clone(),
            result: t.outcome.result.clone(),
            is_error: t.outcome.is_error,
            blocks: t.outcome.blocks.clone(),
            note: t.outcome.note.clone(),
            cost: t.cost,
            loaded: t.loaded.clone(),
            used: t.usage.total,
            context_window: t.usage.context_window,
            percent: t.usage.percent,
            prompt_changes: t.prompt_changes.clone(),
        }
    }
}

/// A session after its steps: the transcript and the skills prompt the next model call sees.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SessionView {
    pub agent: String,
    pub initial_prompt: String,
    pub turns: Vec<Turn>,
    pub prompt: String,
    pub loaded: Vec<String>,
}

/// How the window was left: its layout, theme and open file, kept in the app's config folder
/// (`ui-state.json`) and restored on the next start. The shell only keeps it; the UI reads each
/// value with its own bounds and defaults, so a stale or hand-edited file cannot break a start.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(default)]
pub struct UiState {
    /// Panel sizes in CSS pixels by panel (`library`, `side`, `bottom`, `form`, `preview`).
    pub sizes: std::collections::BTreeMap<String, f64>,
    /// The panels the user collapsed (`library`, `side`, `bottom`).
    pub collapsed: Vec<String>,
    /// `system`, `light` or `dark`.
    pub theme: String,
    /// The tab of the side panel (`prompt`, `session`, `evals`).
    pub side_tab: String,
    /// The file open in the editor when the window was left.
    pub last_file: Option<String>,
    /// Whether the frontmatter form and the preview were shown beside the text.
    pub show_form: Option<bool>,
    pub show_preview: Option<bool>,
}
