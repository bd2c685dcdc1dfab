//! The session simulator: a library as one agent discovers it, the skills loaded so far, and a
//! turn log of every action with the exact text the agent would put in the context and what it
//! costs. Deterministic: the same steps on the same library give the same turns.
//!
//! Each agent's actions live in its profile file (`agents::*::session`); this module holds the
//! state, the bookkeeping (context used, the prompt after each step) and the dispatch.

use crate::agent::Agent;
use crate::library::Library;
use crate::prompt::{self, PromptOptions};
use crate::tokens;
use serde::Serialize;
use std::path::PathBuf;

/// How `allowed-tools` is enforced on ordinary tool calls: recommend only (the default) or
/// restrict (seed 003 §3.4).
pub use crate::agents::deepagents_v2::AllowedToolsPolicy as Policy;

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
            max_loaded_skills: crate::agents::deepagents_v2::DEFAULT_MAX_LOADED_SKILLS,
            policy: Policy::Recommend,
            char_budget: None,
            allow: vec![],
            session_id: "00000000-0000-4000-8000-000000000000".into(),
        }
    }
}

/// One action.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
        #[serde(skip_serializing_if = "Option::is_none")]
        args: Option<String>,
    },
    /// The user types `/name args`.
    Slash { name: String, args: String },
    /// An ordinary tool call, judged by the `allowed-tools` policy.
    Tool { name: String, args: serde_json::Value },
    /// The skill's file is edited mid-session: later turns see the new text.
    Edit { skill: String, content: String },
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
}

/// Characters and tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Size {
    pub chars: usize,
    pub tokens: usize,
}

impl Size {
    pub fn of(text: &str) -> Size {
        Size { chars: text.chars().count(), tokens: tokens::count_o200k(text) }
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
    /// The skills prompt changed with this step.
    pub prompt_changed: bool,
    /// The skills prompt the next model call sees.
    pub prompt: String,
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
    history: Size,
}

impl Session {
    /// Opens `sources` (lowest priority first) as `agent` discovers them.
    pub fn new(agent: &'static Agent, sources: &[PathBuf], settings: Settings) -> Session {
        let library = Library::open(sources, agent);
        let mut s = Session {
            agent,
            settings,
            library,
            loaded: vec![],
            granted: vec![],
            turns: vec![],
            initial_prompt: String::new(),
            history: Size::default(),
        };
        s.initial_prompt = s.prompt_text();
        s
    }

    /// The prompt options the current state implies.
    pub fn prompt_options(&self) -> PromptOptions {
        PromptOptions {
            context_window: self.settings.context_window,
            char_budget: self.settings.char_budget,
            loaded: self.loaded.clone(),
        }
    }

    /// The skills text the next model call sees.
    pub fn prompt_text(&self) -> String {
        prompt::render(self.agent, &self.library, &self.prompt_options()).map(|p| p.text).unwrap_or_default()
    }

    /// The context window in effect.
    pub fn context_window(&self) -> u64 {
        self.settings.context_window.unwrap_or_else(|| {
            prompt::render(self.agent, &self.library, &self.prompt_options())
                .map_or(200_000, |p| p.totals.context_window)
        })
    }

    /// Index of the library entry the agent knows by `name` (active entries only).
    pub fn entry_named(&self, name: &str) -> Option<usize> {
        self.library.entries.iter().position(|e| e.is_active() && e.key == name)
    }

    /// Applies a step and logs it.
    pub fn apply(&mut self, step: Step) -> &Turn {
        let outcome = match &step {
            Step::Edit { skill, content } => self.edit(skill, content),
            _ => dispatch(self, &step),
        };
        let mut cost = Size::of(&outcome.result);
        for b in &outcome.blocks {
            let n = Size::of(b);
            cost.chars += n.chars;
            cost.tokens += n.tokens;
        }
        self.history.chars += cost.chars;
        self.history.tokens += cost.tokens;
        let prompt = self.prompt_text();
        let previous = self.turns.last().map_or(&self.initial_prompt, |t| &t.prompt);
        let prompt_changed = &prompt != previous;
        let p = Size::of(&prompt);
        let window = self.context_window();
        let total = Size { chars: p.chars + self.history.chars, tokens: p.tokens + self.history.tokens };
        let usage = Usage {
            prompt: p,
            history: self.history,
            total,
            context_window: window,
            percent: if window == 0 { 0.0 } else { total.tokens as f64 * 100.0 / window as f64 },
        };
        self.turns.push(Turn {
            index: self.turns.len() + 1,
            step,
            outcome,
            cost,
            loaded: self.loaded.clone(),
            usage,
            prompt_changed,
            prompt,
        });
        self.turns.last().expect("just pushed")
    }

    /// Replaces a skill's SKILL.md text in memory (the file on disk is not touched): later turns
    /// read the new text, earlier results stay as they were.
    fn edit(&mut self, name: &str, content: &str) -> Outcome {
        let call = format!("edit {name}");
        let Some(i) =
            self.entry_named(name).or_else(|| self.library.entries.iter().position(|e| prompt::folder_name(e) == name))
        else {
            return Outcome::error(call, String::new()).with_note(format!("no skill `{name}` in the library"));
        };
        let e = &mut self.library.entries[i];
        let mut skill = crate::Skill::parse(e.skill.dir.clone(), &e.skill.file_name.clone(), content.to_string());
        skill.resources = e.skill.resources.take();
        e.diagnostics = crate::lint(&skill, self.agent);
        e.skill = skill;
        Outcome::ok(call, String::new()).with_note("the file's text changed; nothing enters the context")
    }
}

/// The agent's own handling of a step.
fn dispatch(s: &mut Session, step: &Step) -> Outcome {
    use crate::agents::*;
    match s.agent.id {
        "deepagents-v2" => deepagents_v2::session_step(s, step),
        "claude-code" => claude_code::session_step(s, step),
        "codex" => codex::session_step(s, step),
        "gemini-cli" => gemini_cli::session_step(s, step),
        "harness9" => harness9::session_step(s, step),
        id => Outcome::unsupported(format!("{step:?}"), id, "session simulation yet"),
    }
}
