//! Each agent's own listing settings, as inputs to its profile (issue #39): one table of what each
//! agent lets a user set about its skill listing ([`SPECS`]: key, type, default, the agent's own
//! name and where it reads it), the values read from their sources with where each came from
//! ([`AgentSettings`], [`Origin`]), and the readers of the agents' own settings files.
//!
//! Sources, lowest precedence first ([`resolve`]): the agent's default; the agent's own settings
//! files (Claude Code: `~/.claude/settings.json` when asked for, then the project's
//! `.claude/settings.json`, then `.claude/settings.local.json`; Codex: `~/.codex/config.toml`
//! when asked for; Qwen Code: `~/.qwen/settings.json` when asked for, then the project's
//! `.qwen/settings.json`); the project's `skillkit.toml` (`[agents.<agent>]`); the command line
//! (`--agent-setting KEY=VALUE`, `--context-window`, `--char-budget`). A later source wins a key;
//! `skillOverrides` is merged skill by skill, as Claude Code merges it (captured: a skill set
//! `name-only` in the user file and `on` in the project file is listed in full).
//!
//! The project's files are read with the engine's one reader ([`crate::files::read_text`]:
//! bounded, regular files only) and only when they resolve inside the project
//! ([`crate::files::confine`]): a library's `.claude/settings.json` that is a symlink to a file
//! outside is not read. The user's files are read only when the caller asks (`--user-settings`),
//! so the same library gives the same listing on every machine unless the user wants their own.
//!
//! A value of the wrong type or out of range is an error naming where it was written (the flag,
//! the `skillkit.toml` table) — never a panic. In an agent's own settings file a bad value makes
//! the agent ignore the whole file (Claude Code 2.1.330 prints "These settings did not load…"
//! and goes on without them, captured); the same happens here, with a warning that names the
//! file and the key.
//!
//! Over 600 lines for one job: each agent's budget setting is one row of [`SPECS`], and every way a
//! value arrives (the agent's own settings file, `skillkit.toml`, `--agent-setting`) goes through
//! the same per-key parser, so a bad value reads the same from each.

use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a setting holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A number greater than 0 and at most 1.
    Fraction,
    /// A whole number greater than 0.
    Count,
    /// `true` or `false`.
    Bool,
    /// Per skill name: `on`, `name-only`, `user-invocable-only` or `off`.
    Overrides,
    /// A list of Qwen Code's skill levels: `project`, `user`, `extension`, `bundled`.
    Levels,
}

/// One setting an agent reads about its skill listing.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Spec {
    /// The profile it belongs to (`claude-code`, `codex`).
    pub agent: &'static str,
    /// The key in `skillkit.toml` and `--agent-setting`: the agent's own name for it.
    pub key: &'static str,
    pub kind: Kind,
    /// The default, as the agent states it (JSON).
    pub default: &'static str,
    /// Where the agent itself reads it.
    pub agent_name: &'static str,
    /// What it does, in words.
    pub doc: &'static str,
}

/// Claude Code's share of the context window (in characters) for the listing.
pub const BUDGET_FRACTION: &str = "skillListingBudgetFraction";
/// Claude Code's cap on each listed description, in UTF-16 code units.
pub const MAX_DESC_CHARS: &str = "skillListingMaxDescChars";
/// Claude Code's per-skill listing overrides.
pub const SKILL_OVERRIDES: &str = "skillOverrides";
/// Claude Code's switch for its bundled skills.
pub const DISABLE_BUNDLED: &str = "disableBundledSkills";
/// Qwen Code's skill levels left out (`["bundled"]` leaves out its bundled skills).
pub const DISABLED_LEVELS: &str = "skills.disabledLevels";
/// Letta Code's `--no-bundled-skills`.
pub const NO_BUNDLED: &str = "noBundledSkills";
/// Claude Code's fixed listing budget in characters (an environment variable).
pub const CHAR_BUDGET: &str = "SLASH_COMMAND_TOOL_CHAR_BUDGET";
/// Codex's context window in tokens (its budget is 2% of it).
pub const CONTEXT_WINDOW: &str = "model_context_window";

/// Every listing setting of every profile, in one place. Agents not named here have none a user
/// can set (GitHub Copilot CLI 1.0.102's 15,000-character budget is fixed: `copilot help config`
/// and `copilot help environment` name no setting or variable for it; its one skills switch,
/// `--dynamic-retrieval skills=on|off`, retrieves skills by embeddings through GitHub's service
/// and is not modelled).
pub const SPECS: &[Spec] = &[
    Spec {
        agent: "claude-code",
        key: BUDGET_FRACTION,
        kind: Kind::Fraction,
        default: "0.01",
        agent_name: "`skillListingBudgetFraction` in settings.json",
        doc: "share of the context window, counted in characters (3 per token for the default model), that the listing may take before descriptions are dropped",
    },
    Spec {
        agent: "claude-code",
        key: MAX_DESC_CHARS,
        kind: Kind::Count,
        default: "1536",
        agent_name: "`skillListingMaxDescChars` in settings.json",
        doc: "each listed description (with its when_to_use) is cut past this many UTF-16 units to one fewer + `…`",
    },
    Spec {
        agent: "claude-code",
        key: SKILL_OVERRIDES,
        kind: Kind::Overrides,
        default: "{}",
        agent_name: "`skillOverrides` in settings.json",
        doc: "per skill name: `on` (listed), `name-only` (listed without its description, kept whatever the budget), `user-invocable-only` (not listed, /name still runs), `off` (neither)",
    },
    Spec {
        agent: "claude-code",
        key: DISABLE_BUNDLED,
        kind: Kind::Bool,
        default: "false",
        agent_name: "`disableBundledSkills` in settings.json (the environment variable CLAUDE_CODE_DISABLE_BUNDLED_SKILLS is not read)",
        doc: "`true` leaves out the 12 bundled skills Claude Code 2.1.332 lists after the user's (dataviz … security-review, as `claude -p` lists them with an API key; their set depends on Claude Code's feature gates); the built-in plugin skill `plugin-authoring` stays",
    },
    Spec {
        agent: "claude-code",
        key: CHAR_BUDGET,
        kind: Kind::Count,
        default: "null",
        agent_name: "environment variable `SLASH_COMMAND_TOOL_CHAR_BUDGET` (also under `env` in settings.json)",
        doc: "a fixed listing budget in characters, in place of the share of the context window (`--char-budget`)",
    },
    Spec {
        agent: "qwen-code",
        key: DISABLED_LEVELS,
        kind: Kind::Levels,
        default: "[]",
        agent_name: "`skills.disabledLevels` in .qwen/settings.json (the project's, or ~/.qwen/settings.json)",
        doc: "skill levels Qwen Code does not load: `bundled` leaves out its 14 listed bundled skills (0.24.4, 16 in all), `project` and `user` the library's own folders (`extension` has no effect here)",
    },
    Spec {
        agent: "letta-code",
        key: NO_BUNDLED,
        kind: Kind::Bool,
        default: "false",
        agent_name: "command-line flag `--no-bundled-skills`",
        doc: "`true` leaves out the 20 bundled skills Letta Code 0.32.18 sorts in among the user's",
    },
    Spec {
        agent: "codex",
        key: CONTEXT_WINDOW,
        kind: Kind::Count,
        default: "272000",
        agent_name: "`model_context_window` in ~/.codex/config.toml",
        doc: "the model's context window in tokens; Codex's listing budget is a fixed 2% of it (no setting changes the share), 8,000 characters when unknown (`--context-window`)",
    },
];

/// The settings of one profile.
pub fn specs_of(agent: &str) -> impl Iterator<Item = &'static Spec> + '_ {
    SPECS.iter().filter(move |s| s.agent == agent)
}

/// The setting an `--agent-setting KEY=VALUE` names: `KEY`, without a `skillOverrides.NAME` tail
/// (a dotted key that is a setting itself, Qwen Code's `skills.disabledLevels`, stays whole).
pub fn assignment_key(assignment: &str) -> &str {
    let key = assignment.split_once('=').map_or(assignment, |(k, _)| k).trim();
    if SPECS.iter().any(|s| s.key == key) {
        return key;
    }
    key.split('.').next().unwrap_or("").trim()
}

/// Whether `agent` has the setting `assignment` names ([`assignment_key`]): which of several
/// agents an `--agent-setting` goes to.
pub fn takes(agent: &str, assignment: &str) -> bool {
    spec(agent, assignment_key(assignment)).is_some()
}

/// A set of Qwen Code's skill levels (`skills.disabledLevels`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Levels(u8);

impl Levels {
    /// Qwen Code's level names, in its precedence order.
    pub const NAMES: [&'static str; 4] = ["project", "user", "extension", "bundled"];

    pub fn contains(self, level: &str) -> bool {
        Self::NAMES.iter().position(|n| *n == level).is_some_and(|i| self.0 & (1 << i) != 0)
    }

    fn with(self, level: &str) -> Option<Levels> {
        Self::NAMES.iter().position(|n| *n == level).map(|i| Levels(self.0 | (1 << i)))
    }

    pub fn names(self) -> Vec<&'static str> {
        Self::NAMES.iter().copied().filter(|n| self.contains(n)).collect()
    }
}

impl Serialize for Levels {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.names().serialize(s)
    }
}

fn spec(agent: &str, key: &str) -> Option<&'static Spec> {
    specs_of(agent).find(|s| s.key == key)
}

/// A `skillOverrides` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkillOverride {
    On,
    NameOnly,
    UserInvocableOnly,
    Off,
}

impl SkillOverride {
    pub fn parse(s: &str) -> Option<SkillOverride> {
        Some(match s {
            "on" => SkillOverride::On,
            "name-only" => SkillOverride::NameOnly,
            "user-invocable-only" => SkillOverride::UserInvocableOnly,
            "off" => SkillOverride::Off,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SkillOverride::On => "on",
            SkillOverride::NameOnly => "name-only",
            SkillOverride::UserInvocableOnly => "user-invocable-only",
            SkillOverride::Off => "off",
        }
    }
}

impl Origin {
    /// In words, for a person: `default`, the file's path, or the flag.
    pub fn describe(&self) -> String {
        match self {
            Origin::Default => "default".into(),
            Origin::AgentFile { path } | Origin::Config { path } => path.display().to_string(),
            Origin::CommandLine { flag } => flag.clone(),
        }
    }
}

/// Where an effective value came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Origin {
    /// The agent's default (nothing set it).
    Default,
    /// The agent's own settings file.
    AgentFile { path: PathBuf },
    /// The project's `skillkit.toml` (or `[tool.skillkit]`), `[agents.<agent>]`.
    Config { path: PathBuf },
    /// The command line (or the app), with the flag.
    CommandLine { flag: String },
}

/// A scalar value.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Scalar {
    Number(f64),
    Count(u64),
    Bool(bool),
    Levels(Levels),
}

/// One source's values, before merging.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layer {
    pub scalars: BTreeMap<&'static str, Scalar>,
    pub overrides: BTreeMap<String, SkillOverride>,
}

/// The effective settings of a render, each with its origin.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentSettings {
    scalars: BTreeMap<&'static str, (Scalar, Origin)>,
    overrides: BTreeMap<String, (SkillOverride, Origin)>,
}

impl AgentSettings {
    /// `layer` on top of what is there.
    pub fn apply(&mut self, layer: Layer, origin: &Origin) {
        for (k, v) in layer.scalars {
            self.scalars.insert(k, (v, origin.clone()));
        }
        for (k, v) in layer.overrides {
            self.overrides.insert(k, (v, origin.clone()));
        }
    }

    /// Sets one value from the command line (`flag` names it for the report).
    pub fn set_scalar(&mut self, key: &'static str, value: Scalar, flag: &str) {
        self.scalars.insert(key, (value, Origin::CommandLine { flag: flag.to_string() }));
    }

    pub fn number(&self, key: &str) -> Option<f64> {
        match self.scalars.get(key) {
            Some((Scalar::Number(n), _)) => Some(*n),
            Some((Scalar::Count(n), _)) => Some(*n as f64),
            _ => None,
        }
    }

    pub fn count(&self, key: &str) -> Option<u64> {
        match self.scalars.get(key) {
            Some((Scalar::Count(n), _)) => Some(*n),
            _ => None,
        }
    }

    pub fn flag(&self, key: &str) -> Option<bool> {
        match self.scalars.get(key) {
            Some((Scalar::Bool(b), _)) => Some(*b),
            _ => None,
        }
    }

    /// A [`Kind::Levels`] setting (`None`: unset, the default `[]`).
    pub fn levels(&self, key: &str) -> Option<Levels> {
        match self.scalars.get(key) {
            Some((Scalar::Levels(l), _)) => Some(*l),
            _ => None,
        }
    }

    /// Where a scalar setting came from (`None`: unset).
    pub fn origin(&self, key: &str) -> Option<&Origin> {
        self.scalars.get(key).map(|(_, o)| o)
    }

    /// The `skillOverrides` entry for a skill name (`None`: on).
    pub fn skill_override(&self, name: &str) -> Option<SkillOverride> {
        self.overrides.get(name).map(|(v, _)| *v)
    }

    /// Where the `skillOverrides` entry of a skill came from.
    pub fn override_origin(&self, name: &str) -> Option<&Origin> {
        self.overrides.get(name).map(|(_, o)| o)
    }

    pub fn is_empty(&self) -> bool {
        self.scalars.is_empty() && self.overrides.is_empty()
    }

    /// Every setting of `agent` with its effective value and origin (the default when unset), for
    /// `skillkit prompt --format json` and the app.
    pub fn effective(&self, agent: &str) -> Vec<Effective> {
        specs_of(agent)
            .map(|s| {
                let default: serde_json::Value = serde_json::from_str(s.default).unwrap_or(serde_json::Value::Null);
                if s.kind == Kind::Overrides {
                    let skills: BTreeMap<String, OverrideEntry> = self
                        .overrides
                        .iter()
                        .map(|(k, (v, o))| (k.clone(), OverrideEntry { value: *v, origin: o.clone() }))
                        .collect();
                    let value =
                        serde_json::to_value(skills.iter().map(|(k, e)| (k, e.value)).collect::<BTreeMap<_, _>>())
                            .unwrap_or_default();
                    let origin = if skills.is_empty() {
                        Origin::Default
                    } else {
                        skills.values().last().map(|e| e.origin.clone()).unwrap_or(Origin::Default)
                    };
                    return Effective {
                        key: s.key,
                        kind: s.kind,
                        agent_name: s.agent_name,
                        value,
                        default,
                        origin,
                        skills: Some(skills),
                    };
                }
                let (value, origin) = match self.scalars.get(s.key) {
                    Some((v, o)) => (serde_json::to_value(v).unwrap_or_default(), o.clone()),
                    None => (default.clone(), Origin::Default),
                };
                Effective { key: s.key, kind: s.kind, agent_name: s.agent_name, value, default, origin, skills: None }
            })
            .collect()
    }
}

/// One setting as the render used it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Effective {
    pub key: &'static str,
    pub kind: Kind,
    /// Where the agent itself reads it.
    pub agent_name: &'static str,
    pub value: serde_json::Value,
    pub default: serde_json::Value,
    /// Where the value came from (for `skillOverrides`, the entry of the skill last in name
    /// order; each entry's own is in `skills`).
    pub origin: Origin,
    /// `skillOverrides` only: each skill's entry and where it came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skills: Option<BTreeMap<String, OverrideEntry>>,
}

/// One `skillOverrides` entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OverrideEntry {
    pub value: SkillOverride,
    pub origin: Origin,
}

/// Reads `value` as `agent`'s setting `key` (the error says what was expected; the caller adds
/// where it was written). `overrides_of` is the skill name for a `skillOverrides.NAME` key.
fn parse_into(agent: &str, key: &str, value: &serde_json::Value, layer: &mut Layer) -> Result<(), String> {
    use serde_json::Value as J;
    if let Some(skill) = key.strip_prefix("skillOverrides.").filter(|_| spec(agent, SKILL_OVERRIDES).is_some()) {
        if skill.is_empty() {
            return Err("`skillOverrides.` needs a skill name: `skillOverrides.NAME=off`".into());
        }
        let v = value.as_str().and_then(SkillOverride::parse).ok_or_else(|| {
            format!(
                "skillOverrides.{skill} must be \"on\", \"name-only\", \"user-invocable-only\" or \"off\", not {value}"
            )
        })?;
        layer.overrides.insert(skill.to_string(), v);
        return Ok(());
    }
    let Some(s) = spec(agent, key) else {
        let known: Vec<&str> = specs_of(agent).map(|s| s.key).collect();
        return Err(if known.is_empty() {
            format!("`{key}`: {agent} has no listing setting a user can change")
        } else {
            format!("no setting `{key}` for {agent} (its settings: {})", known.join(", "))
        });
    };
    match s.kind {
        Kind::Fraction => {
            let n = value.as_f64().filter(|n| *n > 0.0 && *n <= 1.0).ok_or_else(|| {
                format!("{key} must be a number greater than 0 and at most 1 (0.01 is 1%), not {value}")
            })?;
            layer.scalars.insert(s.key, Scalar::Number(n));
        }
        Kind::Count => {
            let n = value
                .as_u64()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{key} must be a whole number greater than 0, not {value}"))?;
            layer.scalars.insert(s.key, Scalar::Count(n));
        }
        Kind::Bool => {
            let b = value.as_bool().ok_or_else(|| format!("{key} must be true or false, not {value}"))?;
            layer.scalars.insert(s.key, Scalar::Bool(b));
        }
        Kind::Levels => {
            let bad =
                || format!("{key} must be a list of \"project\", \"user\", \"extension\", \"bundled\", not {value}");
            let J::Array(items) = value else { return Err(bad()) };
            let mut levels = Levels::default();
            for item in items {
                levels = item.as_str().and_then(|l| levels.with(l)).ok_or_else(bad)?;
            }
            layer.scalars.insert(s.key, Scalar::Levels(levels));
        }
        Kind::Overrides => {
            let J::Object(map) = value else {
                return Err(format!("{key} must be a table of skill name = \"on\" | \"name-only\" | \"user-invocable-only\" | \"off\", not {value}"));
            };
            for (skill, v) in map {
                parse_into(agent, &format!("skillOverrides.{skill}"), v, layer)?;
            }
        }
    }
    Ok(())
}

/// One `--agent-setting KEY=VALUE`: the value is read as JSON when it is JSON (`0.02`, `true`,
/// `{"a": "off"}`), else as a string (`off`).
pub fn parse_assignment(agent: &str, assignment: &str, layer: &mut Layer) -> Result<(), String> {
    let at = |m: String| format!("--agent-setting {assignment}: {m}");
    let Some((key, raw)) = assignment.split_once('=') else {
        return Err(at("expected KEY=VALUE".into()));
    };
    let key = key.trim();
    let raw = raw.trim();
    let value =
        serde_json::from_str::<serde_json::Value>(raw).unwrap_or_else(|_| serde_json::Value::String(raw.into()));
    parse_into(agent, key, &value, layer).map_err(at)
}

/// An `[agents.<agent>]` table of `skillkit.toml`: `where_` names it in errors
/// (`[agents.claude-code]`).
pub fn parse_table(agent: &str, table: &toml::Table, where_: &str) -> Result<Layer, String> {
    let mut layer = Layer::default();
    for (key, value) in table {
        // `[agents.qwen-code.skills] disabledLevels = […]` is the dotted key `skills.disabledLevels`.
        if let Some(inner) = value.as_table().filter(|_| spec(agent, key).is_none()) {
            for (k, v) in inner {
                let dotted = format!("{key}.{k}");
                if spec(agent, &dotted).is_some() {
                    let json = serde_json::to_value(v).map_err(|e| format!("{where_} {dotted}: {e}"))?;
                    parse_into(agent, &dotted, &json, &mut layer).map_err(|m| format!("{where_} {dotted}: {m}"))?;
                    continue;
                }
                return Err(format!("{where_} {dotted}: {agent} has no setting `{dotted}`"));
            }
            continue;
        }
        let json = serde_json::to_value(value).map_err(|e| format!("{where_} {key}: {e}"))?;
        parse_into(agent, key, &json, &mut layer).map_err(|m| format!("{where_} {key}: {m}"))?;
    }
    Ok(layer)
}

/// The listing settings in one of Claude Code's `settings.json` files. `Err` (the key and why)
/// when Claude Code would not load the file: JSON that does not parse, or a value its schema
/// refuses.
pub fn parse_claude_settings(text: &str) -> Result<Layer, String> {
    let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let Some(obj) = doc.as_object() else { return Err("not a JSON object".into()) };
    let mut layer = Layer::default();
    for key in [BUDGET_FRACTION, MAX_DESC_CHARS, SKILL_OVERRIDES, DISABLE_BUNDLED] {
        if let Some(v) = obj.get(key) {
            parse_into("claude-code", key, v, &mut layer).map_err(|m| format!("({key}): {m}"))?;
        }
    }
    // `env` sets environment variables; a value that is not a positive whole number leaves the
    // budget unset, as Claude Code's parse of the variable does.
    if let Some(v) = obj.get("env").and_then(|e| e.get(CHAR_BUDGET)) {
        let n = v.as_str().and_then(|s| s.trim().parse::<u64>().ok()).or_else(|| v.as_u64()).filter(|n| *n > 0);
        if let Some(n) = n {
            layer.scalars.insert(CHAR_BUDGET, Scalar::Count(n));
        }
    }
    Ok(layer)
}

/// The listing settings in Codex's `config.toml`: its top-level `model_context_window`.
pub fn parse_codex_config(text: &str) -> Result<Layer, String> {
    let doc: toml::Table = toml::from_str(text).map_err(|e| format!("not TOML: {}", e.message()))?;
    let mut layer = Layer::default();
    if let Some(v) = doc.get(CONTEXT_WINDOW) {
        let json = serde_json::to_value(v).unwrap_or_default();
        parse_into("codex", CONTEXT_WINDOW, &json, &mut layer).map_err(|m| format!("({CONTEXT_WINDOW}): {m}"))?;
    }
    Ok(layer)
}

/// The listing settings in one of Qwen Code's `settings.json` files: `skills.disabledLevels`.
pub fn parse_qwen_settings(text: &str) -> Result<Layer, String> {
    let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let Some(obj) = doc.as_object() else { return Err("not a JSON object".into()) };
    let mut layer = Layer::default();
    if let Some(v) = obj.get("skills").and_then(|s| s.get("disabledLevels")) {
        parse_into("qwen-code", DISABLED_LEVELS, v, &mut layer).map_err(|m| format!("({DISABLED_LEVELS}): {m}"))?;
    }
    Ok(layer)
}

/// An agent's own settings file: where it is and how to read it.
struct AgentFile {
    /// Relative to the project, or to the home folder.
    rel: &'static str,
    user: bool,
    parse: fn(&str) -> Result<Layer, String>,
}

/// Each agent's own settings files, lowest precedence first.
fn agent_files(agent: &str) -> &'static [AgentFile] {
    const CLAUDE: &[AgentFile] = &[
        AgentFile { rel: ".claude/settings.json", user: true, parse: parse_claude_settings },
        AgentFile { rel: ".claude/settings.json", user: false, parse: parse_claude_settings },
        AgentFile { rel: ".claude/settings.local.json", user: false, parse: parse_claude_settings },
    ];
    const CODEX: &[AgentFile] = &[AgentFile { rel: ".codex/config.toml", user: true, parse: parse_codex_config }];
    const QWEN: &[AgentFile] = &[
        AgentFile { rel: ".qwen/settings.json", user: true, parse: parse_qwen_settings },
        AgentFile { rel: ".qwen/settings.json", user: false, parse: parse_qwen_settings },
    ];
    match agent {
        "claude-code" => CLAUDE,
        "codex" => CODEX,
        "qwen-code" => QWEN,
        _ => &[],
    }
}

/// Where the settings of a render come from.
#[derive(Clone, Debug, Default)]
pub struct Sources<'a> {
    /// The project whose agent settings files are read (`.claude/settings.json`…); `None` reads
    /// none.
    pub project: Option<PathBuf>,
    /// The user's home folder, when the user's own settings files are wanted.
    pub home: Option<PathBuf>,
    /// The `[agents.<agent>]` table of the project's configuration, already checked, and the file.
    pub config: Option<(Layer, PathBuf)>,
    /// `--agent-setting KEY=VALUE`, in order.
    pub assignments: &'a [String],
}

/// The effective settings of `agent` from `sources`, and warnings (an agent's file it would not
/// load). `Err` for a bad `--agent-setting`.
pub fn resolve(agent: &str, sources: &Sources<'_>) -> Result<(AgentSettings, Vec<String>), String> {
    let mut out = AgentSettings::default();
    let mut warnings = vec![];
    for f in agent_files(agent) {
        let path = if f.user {
            match &sources.home {
                Some(h) => h.join(f.rel),
                None => continue,
            }
        } else {
            let Some(project) = &sources.project else { continue };
            // A library's own file must stay inside it, symlinks resolved.
            match crate::files::confine(project, project, f.rel, f.rel) {
                Ok(p) => p,
                Err(e) => {
                    warnings.push(format!("{}: not read: {e}", project.join(f.rel).display()));
                    continue;
                }
            }
        };
        let text = match crate::files::read_text_if_present(&path, 1 << 20) {
            Ok(Some(t)) => t,
            Ok(None) => continue,
            Err(e) => {
                warnings.push(format!("{}: not read: {}", path.display(), crate::files::reason(&e)));
                continue;
            }
        };
        match (f.parse)(&text) {
            Ok(layer) => out.apply(layer, &Origin::AgentFile { path: path.clone() }),
            Err(m) => warnings.push(format!(
                "{} {m}: the agent does not load this file, so none of its settings apply",
                path.display()
            )),
        }
    }
    if let Some((layer, path)) = &sources.config {
        out.apply(layer.clone(), &Origin::Config { path: path.clone() });
    }
    for a in sources.assignments {
        let mut layer = Layer::default();
        parse_assignment(agent, a, &mut layer)?;
        out.apply(layer, &Origin::CommandLine { flag: format!("--agent-setting {a}") });
    }
    Ok((out, warnings))
}

/// The user's home folder (`HOME`, or `USERPROFILE` on Windows).
pub fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .map(PathBuf::from)
        .filter(|p| !p.as_os_str().is_empty())
}

/// The project a render's agent settings files are read from: the configuration's folder, else
/// the project of the first source ([`crate::files::project_of`]).
pub fn project_for(config_dir: Option<&Path>, first_source: Option<&Path>) -> Option<PathBuf> {
    match (config_dir, first_source) {
        (Some(d), _) => {
            Some(crate::scope::resolve_lenient(&std::path::absolute(d).unwrap_or_else(|_| d.to_path_buf())))
        }
        (None, Some(s)) => Some(crate::files::project_of(s)),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assign(agent: &str, a: &str) -> Result<Layer, String> {
        let mut l = Layer::default();
        parse_assignment(agent, a, &mut l).map(|_| l)
    }

    #[test]
    fn assignments_are_typed_and_checked() {
        let l = assign("claude-code", "skillListingBudgetFraction=0.002").unwrap();
        assert_eq!(l.scalars[BUDGET_FRACTION], Scalar::Number(0.002));
        let l = assign("claude-code", "skillOverrides.pdf=name-only").unwrap();
        assert_eq!(l.overrides["pdf"], SkillOverride::NameOnly);
        let l = assign("claude-code", r#"skillOverrides={"a": "off", "b": "user-invocable-only"}"#).unwrap();
        assert_eq!(l.overrides.len(), 2);
        for (bad, says) in [
            ("skillListingBudgetFraction=2", "greater than 0 and at most 1"),
            ("skillListingBudgetFraction=0", "greater than 0"),
            ("skillListingBudgetFraction=much", "not \"much\""),
            ("skillListingMaxDescChars=0", "greater than 0"),
            ("skillListingMaxDescChars=1.5", "whole number"),
            ("skillOverrides.pdf=hidden", "\"on\", \"name-only\""),
            ("disableBundledSkills=yes", "true or false"),
            ("skillListingBudget=1", "no setting `skillListingBudget`"),
            ("nothing", "KEY=VALUE"),
        ] {
            let e = assign("claude-code", bad).unwrap_err();
            assert!(e.starts_with(&format!("--agent-setting {bad}: ")), "{e}");
            assert!(e.contains(says), "{bad}: {e}");
        }
        assert!(assign("copilot-cli", "budget=1").unwrap_err().contains("no listing setting"));
        assert_eq!(
            assign("codex", "model_context_window=100000").unwrap().scalars[CONTEXT_WINDOW],
            Scalar::Count(100_000)
        );
    }

    #[test]
    fn each_agents_bundled_switch_is_its_own_setting() {
        assert_eq!(
            assign("claude-code", "disableBundledSkills=false").unwrap().scalars[DISABLE_BUNDLED],
            Scalar::Bool(false)
        );
        assert_eq!(assign("letta-code", "noBundledSkills=true").unwrap().scalars[NO_BUNDLED], Scalar::Bool(true));
        let l = assign("qwen-code", r#"skills.disabledLevels=["bundled"]"#).unwrap();
        let Scalar::Levels(levels) = l.scalars[DISABLED_LEVELS] else { panic!() };
        assert!(levels.contains("bundled") && !levels.contains("user"));
        assert_eq!(serde_json::to_value(levels).unwrap(), serde_json::json!(["bundled"]));
        assert!(assign("qwen-code", r#"skills.disabledLevels=["builtin"]"#).unwrap_err().contains("list of"));
        assert!(assign("qwen-code", "skills.disabledLevels=bundled").unwrap_err().contains("list of"));
        assert!(
            takes("qwen-code", r#"skills.disabledLevels=["bundled"]"#)
                && !takes("claude-code", "skills.disabledLevels=[]")
        );
        assert!(takes("claude-code", "skillOverrides.pdf=off"));
        let t: toml::Table = toml::from_str("[skills]\ndisabledLevels = [\"bundled\", \"user\"]").unwrap();
        let l = parse_table("qwen-code", &t, "[agents.qwen-code]").unwrap();
        assert_eq!(
            l.scalars[DISABLED_LEVELS],
            Scalar::Levels(Levels::default().with("bundled").unwrap().with("user").unwrap())
        );
        let l = parse_qwen_settings(r#"{"skills": {"disabledLevels": ["bundled"]}, "model": {}}"#).unwrap();
        assert!(matches!(l.scalars[DISABLED_LEVELS], Scalar::Levels(l) if l.contains("bundled")));
        assert!(parse_qwen_settings(r#"{"skills": {"disabledLevels": "bundled"}}"#).is_err());
    }

    #[test]
    fn claude_settings_files_are_read_as_claude_code_reads_them() {
        let l = parse_claude_settings(
            r#"{"skillListingMaxDescChars": 80, "skillOverrides": {"a": "off"}, "env": {"SLASH_COMMAND_TOOL_CHAR_BUDGET": "4000"}, "model": "x"}"#,
        )
        .unwrap();
        assert_eq!(l.scalars[MAX_DESC_CHARS], Scalar::Count(80));
        assert_eq!(l.scalars[CHAR_BUDGET], Scalar::Count(4000));
        assert_eq!(l.overrides["a"], SkillOverride::Off);
        // Captured: skillListingMaxDescChars 0 makes Claude Code drop the whole file.
        assert!(parse_claude_settings(r#"{"skillListingMaxDescChars": 0}"#)
            .unwrap_err()
            .contains("(skillListingMaxDescChars)"));
        assert!(parse_claude_settings("{").is_err());
        assert_eq!(
            parse_claude_settings(r#"{"env": {"SLASH_COMMAND_TOOL_CHAR_BUDGET": "lots"}}"#).unwrap(),
            Layer::default()
        );
    }

    #[test]
    fn later_sources_win_and_overrides_merge_per_skill() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let proj = dir.path().join("proj");
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::create_dir_all(proj.join(".claude")).unwrap();
        std::fs::write(
            home.join(".claude/settings.json"),
            r#"{"skillListingMaxDescChars": 50, "skillOverrides": {"a": "name-only", "b": "off"}}"#,
        )
        .unwrap();
        std::fs::write(
            proj.join(".claude/settings.json"),
            r#"{"skillListingMaxDescChars": 80, "skillOverrides": {"a": "on"}}"#,
        )
        .unwrap();
        std::fs::write(proj.join(".claude/settings.local.json"), r#"{"skillListingBudgetFraction": 0.5}"#).unwrap();
        let cli = vec!["skillListingBudgetFraction=0.02".to_string()];
        let proj = crate::scope::resolve_lenient(&proj);
        let sources =
            Sources { project: Some(proj.clone()), home: Some(home.clone()), config: None, assignments: &cli };
        let (s, w) = resolve("claude-code", &sources).unwrap();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(s.count(MAX_DESC_CHARS), Some(80));
        assert_eq!(s.number(BUDGET_FRACTION), Some(0.02));
        assert_eq!(s.skill_override("a"), Some(SkillOverride::On));
        assert_eq!(s.skill_override("b"), Some(SkillOverride::Off));
        assert_eq!(s.override_origin("b"), Some(&Origin::AgentFile { path: home.join(".claude/settings.json") }));
        let eff = s.effective("claude-code");
        let frac = eff.iter().find(|e| e.key == BUDGET_FRACTION).unwrap();
        assert!(matches!(&frac.origin, Origin::CommandLine { flag } if flag.contains("0.02")));
        let bundled = eff.iter().find(|e| e.key == DISABLE_BUNDLED).unwrap();
        assert_eq!((bundled.value.clone(), bundled.origin.clone()), (serde_json::json!(false), Origin::Default));
        // Without the home folder, the user's file is not read.
        let (s, _) = resolve("claude-code", &Sources { home: None, ..sources.clone() }).unwrap();
        assert_eq!(s.skill_override("b"), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_librarys_settings_file_leading_outside_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.json");
        std::fs::write(&outside, r#"{"skillOverrides": {"a": "off"}}"#).unwrap();
        let proj = dir.path().join("proj");
        std::fs::create_dir_all(proj.join(".claude")).unwrap();
        std::fs::write(proj.join(".git"), "").unwrap();
        std::os::unix::fs::symlink(&outside, proj.join(".claude/settings.json")).unwrap();
        let sources = Sources { project: Some(crate::scope::resolve_lenient(&proj)), ..Default::default() };
        let (s, w) = resolve("claude-code", &sources).unwrap();
        assert_eq!(s.skill_override("a"), None);
        assert!(w.iter().any(|w| w.contains("outside the project")), "{w:?}");
        // A FIFO is refused by the one reader, not waited on.
        let fifo = proj.join(".claude/settings.local.json");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let (_, w) = resolve("claude-code", &sources).unwrap();
        assert!(w.iter().any(|w| w.contains("settings.local.json") && w.contains("not read")), "{w:?}");
    }
}
