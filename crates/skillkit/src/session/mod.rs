//! The session simulator: a library as one agent discovers it, the skills loaded so far, and a
//! turn log of every action with the exact text the agent would put in the context and what it
//! costs. Deterministic: the same steps on the same library give the same turns.
//!
//! Each agent's actions live in its profile file (`agents::*::session_step`); this module holds the
//! state every agent works on, below the agents; [`crate::simulate`] (above them) opens a
//! session, applies each step through the agent's own code and keeps the books (context used, the
//! prompt after each step).

pub mod script;

use crate::agent::Agent;
use crate::library::Library;
use crate::prompt::PromptOptions;
use crate::syntax::tokens;
use serde::{Deserialize, Serialize};

/// How `allowed-tools` is enforced (seed 003 §3.4.1 `AllowedToolsPolicy`). Seed 000 §5.2 drops
/// `Restrict`; the studio offers it as an option. Neither changes the prompt text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "Policy"))]
#[serde(rename_all = "lowercase")]
pub enum AllowedToolsPolicy {
    /// Shown in the prompt as `Recommended tools`, never enforced (the default).
    #[default]
    Recommend,
    /// Once a loaded skill lists `allowed-tools`, calls to tools outside the union of the loaded
    /// skills' lists are blocked, except [`crate::agents::deepagents::v2::ALWAYS_ALLOWED_TOOLS`] (seed 003 §3.4.2).
    Restrict,
}

/// How `allowed-tools` is enforced on ordinary tool calls: recommend only (the default) or
/// restrict (seed 003 §3.4).
pub use self::AllowedToolsPolicy as Policy;

/// `max_loaded_skills`' default: at most this many skills loaded at once (DeepAgents V2, seed 000
/// §3.1, §4.1.2).
pub const DEFAULT_MAX_LOADED_SKILLS: usize = 10;

/// Session settings.
#[derive(Clone, Debug, Serialize)]
pub struct Settings {
    /// The model's context window in tokens; `None` uses the agent's default.
    pub context_window: Option<u64>,
    /// At most this many skills loaded at once (DeepAgents V2's `max_loaded_skills`, default 10).
    pub max_loaded_skills: usize,
    pub policy: Policy,
    /// A fixed listing budget in characters (Claude Code's `SLASH_COMMAND_TOOL_CHAR_BUDGET`).
    pub char_budget: Option<usize>,
    /// Claude Code permission rules that pre-approve tools (`Bash(git:*)`, `Read`, `Skill(name)`).
    pub allow: Vec<String>,
    /// The session id Claude Code substitutes for `${CLAUDE_SESSION_ID}`.
    pub session_id: String,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            context_window: None,
            max_loaded_skills: DEFAULT_MAX_LOADED_SKILLS,
            policy: Policy::Recommend,
            char_budget: None,
            allow: vec![],
            session_id: "00000000-0000-4000-8000-000000000000".into(),
        }
    }
}

/// One action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case", tag = "action")]
pub enum Step {
    /// The agent's load tool (`load_skill`).
    Load { skill: String },
    /// The agent's unload tool (`unload_skill`).
    Unload { skill: String },
    /// The model invokes a skill with the agent's own tool (`Skill`, `use_skill`,
    /// `activate_skill`, a `$name` mention, `read_file` of the listed path).
    Invoke {
        skill: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional = nullable))]
        args: Option<String>,
    },
    /// The user types `/name args`.
    Slash { name: String, args: String },
    /// An ordinary tool call, judged by the `allowed-tools` policy.
    Tool {
        name: String,
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        args: serde_json::Value,
    },
    /// The skill's file is edited mid-session: later turns see the new text.
    Edit { skill: String, content: String },
    /// The user's message in a live session: with a model attached, the model answers it
    /// ([`crate::live`]); without one, it only enters the context.
    User { text: String },
    /// The model's reply (recorded from a live session, or written by hand): its text, then its
    /// tool calls, each run through the agent's session as the model made it.
    Model {
        #[serde(default)]
        text: String,
        #[serde(default)]
        calls: Vec<ModelCall>,
    },
}

/// A tool call in a model's reply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ModelCall {
    pub tool: String,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub args: serde_json::Value,
    /// What the tool returned, as the user typed it: tools other than the skill tools are not run
    /// in simulation, and are answered "not run in simulation" without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub result: Option<String>,
}

/// What one action produced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The call as the model or user made it, e.g. `load_skill("pdf")` or `/pdf some args`.
    pub call: String,
    /// Exactly the text that enters the context (a tool result or a user message). Empty when
    /// nothing enters it.
    pub result: String,
    pub is_error: bool,
    /// More text blocks of the same message after `result` (Claude Code sends the skill's body
    /// as a second block).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<String>,
    /// A note for the author (why nothing was sent, what the agent printed to its user).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Outcome {
    pub fn ok(call: impl Into<String>, result: impl Into<String>) -> Outcome {
        Outcome { call: call.into(), result: result.into(), is_error: false, blocks: vec![], note: None }
    }
    pub fn error(call: impl Into<String>, result: impl Into<String>) -> Outcome {
        Outcome { call: call.into(), result: result.into(), is_error: true, blocks: vec![], note: None }
    }
    pub fn unsupported(call: impl Into<String>, agent: &str, what: &str) -> Outcome {
        Outcome {
            call: call.into(),
            result: String::new(),
            is_error: true,
            blocks: vec![],
            note: Some(format!("{agent} has no {what}")),
        }
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Outcome {
        self.note = Some(note.into());
        self
    }

    /// A tool call the simulator does not judge under the agent (`why`: it does not enforce
    /// `allowed-tools`, or that is not modelled): it would run now.
    pub fn tool_not_judged(name: &str, args: &serde_json::Value, why: &str) -> Outcome {
        Outcome::ok(format!("{name}({args})"), String::new())
            .with_note(format!("{why}; the tool would run now (the simulator runs no tools)"))
    }
}

/// Characters and tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Size {
    pub chars: usize,
    pub tokens: usize,
}

impl Size {
    pub fn of(text: &str) -> Size {
        Size { chars: text.chars().count(), tokens: tokens::count_o200k_ranges(text, &[]).0 }
    }
}

/// The context after a turn: the skills prompt as it is now plus every result so far.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Usage {
    pub prompt: Size,
    pub history: Size,
    pub total: Size,
    pub context_window: u64,
    /// `total.tokens` as a percentage of the window.
    pub percent: f64,
}

/// A skills prompt kept current entry by entry as skills load and unload (DeepAgents V2 marks
/// loaded skills), implemented by the agent that needs it.
pub trait IncrementalPrompt: Send {
    fn text(&self) -> String;
    fn size(&self) -> Size;
    /// Marks `loaded` (and unmarks the rest); the entries whose text changed, old and new.
    fn set_loaded(&mut self, lib: &Library, loaded: &[String]) -> Vec<(String, String)>;
    fn as_any(&self) -> &dyn std::any::Any;
}

/// The skills prompt as the session keeps it (not a language model: those are [`crate::model`]).
pub enum SkillsPrompt {
    /// Agents whose prompt does not change with the session's state: rendered once, and again
    /// after an edit.
    Whole { text: String, size: Size },
    /// Agents whose prompt marks loaded skills: kept current entry by entry.
    Incremental(Box<dyn IncrementalPrompt>),
}

impl SkillsPrompt {
    pub fn text(&self) -> String {
        match self {
            SkillsPrompt::Whole { text, .. } => text.clone(),
            SkillsPrompt::Incremental(p) => p.text(),
        }
    }

    pub fn size(&self) -> Size {
        match self {
            SkillsPrompt::Whole { size, .. } => *size,
            SkillsPrompt::Incremental(p) => p.size(),
        }
    }

    /// The agent's own incremental prompt, when it keeps one of type `T`.
    pub fn prompt_as<T: 'static>(&self) -> Option<&T> {
        match self {
            SkillsPrompt::Incremental(p) => p.as_any().downcast_ref::<T>(),
            SkillsPrompt::Whole { .. } => None,
        }
    }
}

/// Lines removed (`- `) and added (`+ `) from `old` to `new`, by longest common subsequence
/// after trimming the common head and tail.
pub fn line_diff(old: &str, new: &str) -> Vec<String> {
    let (a, b): (Vec<&str>, Vec<&str>) = (old.split('\n').collect(), new.split('\n').collect());
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..].iter().rev().zip(b[head..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    if a.len() * b.len() > 4_000_000 {
        return a.iter().map(|l| format!("- {l}")).chain(b.iter().map(|l| format!("+ {l}"))).collect();
    }
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, vec![]);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(format!("- {}", a[i]));
            i += 1;
        } else {
            out.push(format!("+ {}", b[j]));
            j += 1;
        }
    }
    out
}

/// One step of the log.
#[derive(Clone, Debug, Serialize)]
pub struct Turn {
    pub index: usize,
    pub step: Step,
    #[serde(flatten)]
    pub outcome: Outcome,
    /// What the result costs.
    pub cost: Size,
    /// Loaded skills after the step, in load order.
    pub loaded: Vec<String>,
    pub usage: Usage,
    /// How the skills prompt the next model call sees changed with this step: lines removed
    /// (`- `) and added (`+ `). Empty when it did not change.
    pub prompt_changes: Vec<String>,
}

/// A running session.
pub struct Session {
    pub agent: &'static Agent,
    pub settings: Settings,
    pub library: Library,
    /// Loaded skills, in load order, by the name the agent uses.
    pub loaded: Vec<String>,
    /// Permission rules granted by invoked skills' `allowed-tools` (Claude Code), with the skill.
    pub granted: Vec<(String, String)>,
    pub turns: Vec<Turn>,
    /// The skills prompt before the first step.
    pub initial_prompt: String,
    /// The skills prompt now.
    pub skills_prompt: SkillsPrompt,
    pub(crate) window: u64,
    pub(crate) history: Size,
    /// The agent's own listing settings every render of the session uses.
    pub agent_settings: crate::agent_settings::AgentSettings,
}

impl Session {
    /// The prompt options the current state implies.
    pub fn prompt_options(&self) -> PromptOptions {
        PromptOptions {
            context_window: self.settings.context_window,
            char_budget: self.settings.char_budget,
            loaded: self.loaded.clone(),
            decisions_only: false,
            settings: self.agent_settings.clone(),
        }
    }

    /// The skills text the next model call sees.
    pub fn prompt_text(&self) -> String {
        self.skills_prompt.text()
    }

    /// Index of the library entry the agent knows by `name` (active entries only).
    pub fn entry_named(&self, name: &str) -> Option<usize> {
        self.library.entries.iter().position(|e| e.is_active() && e.key == name)
    }
}

/// The steps other than activation as an agent whose only skill action is its skill tool takes
/// them: no slash command for skills, no unload, and a tool call it does not judge (`why`, see
/// [`Outcome::tool_not_judged`]). Activation (`Invoke`, `Load`) is the agent's own.
pub fn skill_tool_only(step: &Step, agent: &str, why: &str) -> Outcome {
    match step {
        Step::Slash { name, .. } => Outcome::unsupported(format!("/{name}"), agent, "slash command for skills"),
        Step::Unload { skill } => Outcome::unsupported(format!("unload {skill}"), agent, "unload tool"),
        Step::Tool { name, args } => Outcome::tool_not_judged(name, args, why),
        Step::Invoke { .. } | Step::Load { .. } => unreachable!("activation is the agent's own session step"),
        Step::Edit { .. } | Step::User { .. } | Step::Model { .. } => {
            unreachable!("edits and conversation turns are handled by the session")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn library(dir: &std::path::Path, n: usize) {
        for i in 0..n {
            let d = dir.join(format!("skill-{i:02}"));
            std::fs::create_dir_all(d.join("scripts")).unwrap();
            let tools = if i % 2 == 0 { "allowed-tools: Read Bash(git:*)\n" } else { "" };
            std::fs::write(
                d.join("SKILL.md"),
                format!("---\nname: skill-{i:02}\ndescription: Does thing {i} (with care).\n{tools}---\n\n# Skill {i}\n\nRun `scripts/run.py`.\n"),
            )
            .unwrap();
            std::fs::write(d.join("scripts/run.py"), "print(1)\n").unwrap();
        }
    }

    /// The incremental V2 prompt equals a full render, text and counts, after every step.
    #[test]
    fn the_v2_prompt_model_matches_a_full_render() {
        let tmp = tempfile::tempdir().unwrap();
        library(tmp.path(), 6);
        let agent = crate::agents::find_agent("deepagents-v2").unwrap();
        let settings = Settings { max_loaded_skills: 3, ..Settings::default() };
        let mut s = Session::new(agent, &[tmp.path().to_path_buf()], settings);
        let steps = [
            Step::Load { skill: "skill-00".into() },
            Step::Load { skill: "skill-05".into() },
            Step::Load { skill: "skill-03".into() },
            Step::Load { skill: "skill-01".into() },
            Step::Unload { skill: "skill-05".into() },
            Step::Edit {
                skill: "skill-03".into(),
                content: "---\nname: skill-03\ndescription: New text.\n---\nBody\n".into(),
            },
            Step::Load { skill: "skill-05".into() },
            Step::Unload { skill: "skill-00".into() },
        ];
        for step in steps {
            s.apply(step);
            let full = agent.render(&s.library, &s.prompt_options()).unwrap();
            assert_eq!(s.prompt_text(), full.text);
            assert_eq!(s.skills_prompt.size(), Size::of(&full.text));
        }
        assert_eq!(s.loaded, ["skill-03", "skill-05"]);
        let changed: Vec<bool> = s.turns.iter().map(|t| !t.prompt_changes.is_empty()).collect();
        assert_eq!(changed, [true, true, true, false, true, true, true, true]);
    }

    /// Agents whose prompt is rendered once ([`SkillsPrompt::Whole`]) really do not mark session state.
    #[test]
    fn whole_prompts_do_not_depend_on_loaded_skills() {
        let tmp = tempfile::tempdir().unwrap();
        library(tmp.path(), 3);
        for agent in crate::agents::AGENTS.iter().filter(|a| a.prompt.is_some() && a.id != "deepagents-v2") {
            let lib = Library::for_agent(&[tmp.path().to_path_buf()], agent);
            let none = agent.render(&lib, &PromptOptions::default()).unwrap().text;
            let loaded = PromptOptions { loaded: vec!["skill-00".into(), "skill-01".into()], ..Default::default() };
            assert_eq!(agent.render(&lib, &loaded).unwrap().text, none, "{}", agent.id);
        }
    }

    #[test]
    fn line_diffs() {
        assert_eq!(line_diff("a\nb\nc", "a\nB\nc"), ["- b", "+ B"]);
        assert_eq!(line_diff("a\nc", "a\nb\nc"), ["+ b"]);
        assert!(line_diff("same", "same").is_empty());
    }
}
