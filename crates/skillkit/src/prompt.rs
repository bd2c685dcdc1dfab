//! The exact prompt preview: the text an agent injects to advertise a library's skills, with
//! where each skill landed in it, what the agent's listing budget did to it, and token counts.
//! Each agent profile (`crate::agents::*`) renders its own text; this module holds the shared
//! result types and the builder that records byte ranges while the text is written.

use crate::library::{Entry, Library};
use crate::syntax::tokens;
use serde::Serialize;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// What the user chose for a render.
#[derive(Clone, Debug, Default)]
pub struct PromptOptions {
    /// The model's context window in tokens; `None` uses the profile's default.
    pub context_window: Option<u64>,
    /// A fixed listing budget in characters, overriding the agent's rule where the agent has
    /// such a setting (Claude Code's `SLASH_COMMAND_TOOL_CHAR_BUDGET`).
    pub char_budget: Option<usize>,
    /// Skills already loaded in the session (agents that mark them, such as DeepAgents V2).
    pub loaded: Vec<String>,
    /// Only what the agent decides about each skill is wanted (a check's verdict,
    /// [`crate::verdict`]): the render leaves the text's token counts at zero (the listing
    /// budgets that count tokens still do), and may leave out warnings that take a look at the
    /// disk (harness9 lists each source folder for folders without a skill file).
    pub decisions_only: bool,
    /// The agent's own listing settings with their origins ([`crate::agent_settings`]): empty is
    /// every default.
    pub settings: crate::agent_settings::AgentSettings,
}

impl PromptOptions {
    /// The context window: `--context-window`, else the agent's setting for it (Codex's
    /// `model_context_window`), else `None` (the profile's default).
    pub fn window(&self) -> Option<u64> {
        self.context_window.or(self.settings.count(crate::agent_settings::CONTEXT_WINDOW))
    }
}

/// Where in the model request the text goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// Part of the system prompt.
    SystemPrompt,
    /// A system-role message in the conversation.
    SystemMessage,
    /// A developer-role message.
    DeveloperMessage,
    /// A user-role message (a text part of it).
    UserMessage,
    /// Inside a tool's description.
    ToolDescription,
    /// Printed on standard output (a command-line tool, not an agent).
    Stdout,
}

/// What the listing did with a skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// Listed with its description.
    Full,
    /// Listed with a shortened description.
    Truncated,
    /// Listed by name only (over the listing budget).
    NameOnly,
    /// Left out because of the listing budget.
    Dropped,
    /// Left out on purpose (`disable-model-invocation`, disabled by a setting).
    Hidden,
    /// Not loaded: the agent rejects the skill.
    Invalid,
    /// Not listed: a skill of the same name from a higher-priority source wins.
    Shadowed,
}

/// One skill's fate in the rendered text.
#[derive(Clone, Debug, Serialize)]
pub struct PromptSkill {
    /// The name the agent lists (or would list) the skill under.
    pub name: String,
    /// The skill's folder name.
    pub folder: String,
    /// The `SKILL.md` path as the agent would print it; empty for built-ins.
    pub path: String,
    /// Index of the source it came from; `None` for the agent's built-in skills.
    pub source: Option<usize>,
    pub decision: Decision,
    /// Why, for anything but a plain full listing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Byte range of the skill's entry in the text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<Range<usize>>,
    /// Characters (Unicode scalar values) of the entry.
    pub chars: usize,
    /// Tokens of the entry in the prompt's encoding.
    pub tokens: usize,
    /// The skill folder of the library entry this record is about (`None` for built-ins): how
    /// `check` finds each skill's fate ([`crate::verdict`]).
    #[serde(skip)]
    pub dir: Option<std::path::PathBuf>,
    /// What makes this outcome vary between runs of the agent (a race between parallel reads, an
    /// unsorted directory listing), when it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<String>,
}

/// The listing budget an agent applied.
#[derive(Clone, Debug, Serialize)]
pub struct Budget {
    /// The budget, in `unit`s.
    pub limit: usize,
    /// What `limit` and `needed` count: `characters`, `display columns` (Claude Code measures
    /// terminal width: CJK and emoji count 2) or `token units` (Codex: ceil(bytes / 4)).
    pub unit: &'static str,
    /// What the full listing would have needed, measured the agent's way.
    pub needed: usize,
    /// The rule, in words.
    pub rule: String,
}

/// Token counts of a text in the public OpenAI encodings.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct TokenCounts {
    pub o200k_base: usize,
    /// Counted on request ([`Prompt::count_cl100k`]): older OpenAI models' encoding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cl100k_base: Option<usize>,
}

/// The tokenizer a prompt's counts use.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Tokenizer {
    /// The encoding used for `tokens` fields.
    pub encoding: &'static str,
    /// `true` when the agent's model uses another tokenizer that is not public (Claude,
    /// Gemini): the counts are then an estimate of what the agent pays.
    pub estimate: bool,
}

/// Totals against the context window.
#[derive(Clone, Debug, Serialize)]
pub struct Totals {
    pub bytes: usize,
    pub chars: usize,
    pub tokens: TokenCounts,
    pub context_window: u64,
    /// `tokens` in the prompt's encoding as a percentage of the context window.
    pub percent_of_context: f64,
}

/// A tool the agent offers the model for skills.
#[derive(Clone, Debug, Serialize)]
pub struct ToolDef {
    pub name: String,
    pub description: String,
    /// JSON Schema of the parameters.
    pub parameters: serde_json::Value,
}

/// The rendered preview.
#[derive(Clone, Debug, Serialize)]
pub struct Prompt {
    pub agent: &'static str,
    /// The program and version, or document, the format was verified against.
    pub source: &'static str,
    pub placement: Placement,
    /// Where exactly, in words.
    pub placement_detail: &'static str,
    /// Exactly the text the agent injects (empty when it injects nothing).
    pub text: String,
    /// The agent refuses to produce the text at all (skills-ref's `to-prompt` fails as a whole on
    /// one bad skill): its error, as it prints it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// What the agent's command exits with when it refused (`failure`): 1 unless the profile
    /// says otherwise (skills-ref: 2 for its usage error).
    #[serde(skip)]
    pub failure_exit_code: i32,
    pub skills: Vec<PromptSkill>,
    /// What the agent itself reports while loading (its log lines), in order.
    pub warnings: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
    pub tokenizer: Tokenizer,
    pub totals: Totals,
    pub tools: Vec<ToolDef>,
    /// The agent's listing settings as this render used them, each with its origin (empty for an
    /// agent without any).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<crate::agent_settings::Effective>,
}

impl Prompt {
    /// The skill the render names `name` (listed or not: a model may ask for any), by its
    /// listed name.
    pub fn skill_named(&self, name: &str) -> Option<&PromptSkill> {
        self.skills.iter().find(|s| s.name == name)
    }

    /// The skill whose `SKILL.md` is at `path`: its printed path exactly, or (for a path relative
    /// to a root alias or a working folder, such as Codex's `r0/pdf/SKILL.md`) the printed path
    /// that ends with it after its first component, at a component boundary.
    pub fn skill_at_path(&self, path: &str) -> Option<&PromptSkill> {
        let path = path.trim_matches(|c: char| c == '"' || c == '\'' || c == '`');
        if path.is_empty() {
            return None;
        }
        if let Some(s) = self.skills.iter().find(|s| !s.path.is_empty() && s.path == path) {
            return Some(s);
        }
        let rest = path.split_once('/').map_or(path, |(_, rest)| rest);
        let tail = format!("/{rest}");
        self.skills.iter().find(|s| !rest.is_empty() && s.path.ends_with(&tail))
    }

    /// The skill a shell command reads: the first word of `command` naming a skill's `SKILL.md`
    /// ([`Prompt::skill_at_path`]).
    pub fn skill_read_by(&self, command: &str) -> Option<&PromptSkill> {
        command
            .split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '(' | ')' | '<' | '>'))
            .filter(|w| w.contains("SKILL.md") || w.contains("skill.md"))
            .find_map(|w| self.skill_at_path(w))
    }

    /// The exit code of the agent's own command for this render: 0, or for an agent that
    /// refused (`failure`), what it exits with (skills-ref: 2 for its usage error, else 1).
    pub fn exit_code(&self) -> i32 {
        match &self.failure {
            None => 0,
            Some(_) => self.failure_exit_code,
        }
    }

    /// Adds the cl100k_base count of the whole text to the totals.
    pub fn count_cl100k(&mut self) {
        self.totals.tokens.cl100k_base = Some(tokens::count_cl100k(&self.text));
    }
}

/// What a profile renders from.
pub struct RenderInput<'a> {
    pub library: &'a Library,
    pub options: &'a PromptOptions,
}

impl RenderInput<'_> {
    /// The source path as the user gave it, as a string.
    pub fn source_path(&self, source: usize) -> String {
        path_string(&self.library.sources[source].path)
    }
}

/// A path as a string with `/` separators.
pub fn path_string(p: &Path) -> String {
    let s = p.to_string_lossy();
    if std::path::MAIN_SEPARATOR == '\\' {
        s.replace('\\', "/")
    } else {
        s.into_owned()
    }
}

/// The entry's folder name as found in the source.
pub fn folder_name(entry: &Entry) -> String {
    entry.listed_as.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Writes the text and records each skill's byte range as it goes.
#[derive(Default)]
pub struct Builder {
    pub text: String,
    pub skills: Vec<PromptSkill>,
    pub warnings: Vec<String>,
}

impl Builder {
    pub fn push(&mut self, s: &str) {
        self.text.push_str(s);
    }

    /// Appends a skill's entry written by `write`, recording its range.
    pub fn entry(&mut self, mut skill: PromptSkill, write: impl FnOnce(&mut String)) {
        let start = self.text.len();
        write(&mut self.text);
        skill.range = Some(start..self.text.len());
        self.skills.push(skill);
    }

    /// Records a skill that is not in the text.
    pub fn absent(&mut self, skill: PromptSkill) {
        self.skills.push(skill);
    }
}

/// A skill record with no range yet.
pub fn skill(
    name: impl Into<String>,
    folder: impl Into<String>,
    path: impl Into<String>,
    source: Option<usize>,
) -> PromptSkill {
    PromptSkill {
        name: name.into(),
        folder: folder.into(),
        path: path.into(),
        source,
        decision: Decision::Full,
        reason: None,
        range: None,
        chars: 0,
        tokens: 0,
        dir: None,
        chance: None,
    }
}

impl PromptSkill {
    /// The outcome depends on chance, for the reason `why`.
    pub fn by_chance(mut self, why: impl Into<String>) -> PromptSkill {
        self.chance = Some(why.into());
        self
    }

    /// The record is about the library entry in folder `dir`.
    pub fn in_dir(mut self, dir: Option<std::path::PathBuf>) -> PromptSkill {
        self.dir = dir;
        self
    }

    /// The record is about library entry `e`.
    pub fn of(mut self, e: &Entry) -> PromptSkill {
        self.dir = Some(e.skill.dir.clone());
        self
    }

    pub fn decided(mut self, decision: Decision, reason: impl Into<String>) -> PromptSkill {
        self.decision = decision;
        self.reason = Some(reason.into());
        self
    }
}

/// The fixed facts of a profile's prompt.
pub struct Format {
    pub agent: &'static str,
    pub source: &'static str,
    pub placement: Placement,
    pub placement_detail: &'static str,
    /// Context window used when the user gives none.
    pub default_context_window: u64,
    /// Whether the agent's model tokenizer is not public (counts are estimates).
    pub estimate: bool,
}

/// Finishes a render: counts characters and tokens per skill and in total.
pub fn finish(
    format: &Format,
    options: &PromptOptions,
    b: Builder,
    budget: Option<Budget>,
    tools: Vec<ToolDef>,
) -> Prompt {
    let Builder { text, mut skills, warnings } = b;
    // Ranges in text order for the one-pass count; skills keep the order the profile gave.
    let mut order: Vec<usize> = (0..skills.len()).filter(|&i| skills[i].range.is_some()).collect();
    order.sort_by_key(|&i| skills[i].range.as_ref().map(|r| r.start));
    let ranges: Vec<Range<usize>> = order.iter().filter_map(|&i| skills[i].range.clone()).collect();
    let (o200k, per) =
        if options.decisions_only { (0, vec![0; ranges.len()]) } else { tokens::count_o200k_ranges(&text, &ranges) };
    for (&i, n) in order.iter().zip(per) {
        let s = &mut skills[i];
        s.tokens = n;
        s.chars = s.range.as_ref().map_or(0, |r| text[r.clone()].chars().count());
    }
    let context_window = options.window().unwrap_or(format.default_context_window);
    let totals = Totals {
        bytes: text.len(),
        chars: text.chars().count(),
        tokens: TokenCounts { o200k_base: o200k, cl100k_base: None },
        context_window,
        percent_of_context: if context_window == 0 { 0.0 } else { o200k as f64 * 100.0 / context_window as f64 },
    };
    Prompt {
        agent: format.agent,
        source: format.source,
        placement: format.placement,
        placement_detail: format.placement_detail,
        text,
        failure: None,
        failure_exit_code: 1,
        skills,
        warnings,
        budget,
        tokenizer: Tokenizer { encoding: "o200k_base", estimate: format.estimate },
        totals,
        tools,
        settings: options.settings.effective(format.agent),
    }
}

/// Python's `str.capitalize()`: the first character upper-cased, the rest lower-cased.
pub fn py_capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        None => String::new(),
        Some(first) => first.to_uppercase().chain(chars.flat_map(|c| c.to_lowercase())).collect(),
    }
}

/// `html.escape(s, quote=True)` of Python.
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// The path of an entry's skill file under the source as given: `{source}/{folder}/{file}`.
pub fn listed_file(input: &RenderInput<'_>, entry: &Entry) -> String {
    let src = input.source_path(entry.source);
    let folder = folder_name(entry);
    let sep = if src.ends_with('/') { "" } else { "/" };
    format!("{src}{sep}{folder}/{}", entry.skill.file_name)
}

/// An entry's path joined as the agent's real path (for agents that print absolute paths): made
/// absolute against the working directory and normalised as Node's `path.resolve` does (`.`
/// dropped, `..` taking off the folder before it); symlinks are kept.
pub fn absolute(p: &Path) -> PathBuf {
    let p = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_string_helpers() {
        assert_eq!(py_capitalize("override-base"), "Override-base");
        assert_eq!(py_capitalize("SKILLS"), "Skills");
        assert_eq!(html_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#x27;");
    }
}
