//! Running a session: opens a library as the agent discovers it, applies each step through the
//! agent's own session code (`agents::*::session_step`), and keeps the books: the context used
//! and how the skills prompt changes after each step. The state is [`crate::session`], below the
//! agents; this module is above them.

use crate::agent::{Agent, SkillCall};
use crate::library::Library;
use crate::prompt::{self, PromptOptions};
use crate::session::{line_diff, ModelCall, Outcome, Session, Settings, Size, SkillsPrompt, Step, Turn, Usage};
use std::path::PathBuf;

/// A whole session: `sources` opened as `agent` discovers them, every step applied in order.
pub fn run(agent: &'static Agent, sources: &[PathBuf], settings: Settings, steps: Vec<Step>) -> Session {
    let mut session = Session::new(agent, sources, settings);
    for step in steps {
        session.apply(step);
    }
    session
}

/// Parses a session script, its agent checked against the registry
/// ([`crate::agents::session_agent`]): how the CLI, the app and the tests read a script.
pub fn parse_script(text: &str) -> Result<crate::session::script::Script, Vec<crate::session::script::ScriptError>> {
    crate::session::script::parse(text, &|id| crate::agents::session_agent(id).map(|_| ()))
}

/// The session a parsed script describes, its sources resolved against the folder of the
/// script's file `path`.
pub fn run_script(script: &crate::session::script::Script, path: &std::path::Path) -> Session {
    let agent = crate::agents::find_agent(&script.agent).expect("the script parser accepts only known agents");
    let sources = script.source_paths(crate::session::script::folder_of(path));
    let mut session =
        Session::with_agent_settings(agent, &sources, script.settings.clone(), script_agent_settings(script, path));
    for step in script.steps.clone() {
        session.apply(step);
    }
    session
}

/// The agent's own listing settings of the script at `path`: its project's files
/// (`.claude/settings.json`), then its `agent_settings` (checked by the parser).
pub fn script_agent_settings(
    script: &crate::session::script::Script,
    path: &std::path::Path,
) -> crate::agent_settings::AgentSettings {
    let found = crate::agent_settings::Sources {
        project: Some(crate::files::project_of(path)),
        assignments: &script.agent_settings,
        ..Default::default()
    };
    crate::agent_settings::resolve(&script.agent, &found).map(|(s, _)| s).unwrap_or_default()
}

/// The skills prompt and the agent's default context window, from one render.
fn build_skills_prompt(agent: &'static Agent, library: &Library, options: &PromptOptions) -> (SkillsPrompt, u64) {
    if let Some(incremental) = crate::agents::session_hooks(agent).and_then(|h| h.prompt) {
        let (p, window) = incremental(&prompt::RenderInput { library, options });
        return (SkillsPrompt::Incremental(p), window);
    }
    let (text, window) =
        agent.render(library, options).map_or((String::new(), 200_000), |p| (p.text, p.totals.context_window));
    (SkillsPrompt::Whole { size: Size::of(&text), text }, window)
}

impl Session {
    /// Opens `sources` (lowest priority first) as `agent` discovers them.
    pub fn new(agent: &'static Agent, sources: &[PathBuf], settings: Settings) -> Session {
        Session::with_agent_settings(agent, sources, settings, Default::default())
    }

    /// [`Session::new`] with the agent's own listing settings ([`crate::agent_settings`]).
    pub fn with_agent_settings(
        agent: &'static Agent,
        sources: &[PathBuf],
        settings: Settings,
        agent_settings: crate::agent_settings::AgentSettings,
    ) -> Session {
        let library = Library::for_agent(sources, agent);
        let options = PromptOptions {
            context_window: settings.context_window,
            char_budget: settings.char_budget,
            loaded: vec![],
            decisions_only: false,
            settings: agent_settings.clone(),
        };
        let (skills_prompt, default_window) = build_skills_prompt(agent, &library, &options);
        let window = settings.context_window.unwrap_or(default_window);
        Session {
            agent,
            initial_prompt: skills_prompt.text(),
            skills_prompt,
            window,
            settings,
            library,
            loaded: vec![],
            granted: vec![],
            turns: vec![],
            history: Size::default(),
            agent_settings,
        }
    }

    /// Applies a step and logs it. A model's reply is logged, then each of its tool calls as
    /// the step it amounts to under the agent ([`Session::step_for_call`]), each a turn of its own.
    pub fn apply(&mut self, step: Step) -> &Turn {
        let calls = match &step {
            Step::Model { calls, .. } => calls.clone(),
            _ => vec![],
        };
        self.apply_one(step, None);
        for call in calls {
            let derived = self.step_for_call(&call);
            let answer = call.result.clone().unwrap_or_else(|| NOT_RUN.to_string());
            self.apply_one(derived, Some(answer));
        }
        self.turns.last().expect("just pushed")
    }

    /// The step a model's tool call amounts to: what the agent's skill tools do with it
    /// ([`crate::agent::Activation::call`]: an invoke, a load or an unload), else an ordinary tool
    /// call (judged by the policy, not run).
    pub fn step_for_call(&self, call: &ModelCall) -> Step {
        let activation = self.agent.activation;
        let prompt = activation.and_then(|_| self.agent.render(&self.library, &self.prompt_options()));
        let skill_call = activation.zip(prompt.as_ref()).and_then(|(a, p)| (a.call)(p, &call.tool, &call.args));
        match skill_call {
            Some(SkillCall::Invoke { skill, args }) => Step::Invoke { skill, args },
            Some(SkillCall::Load(skill)) => Step::Load { skill },
            Some(SkillCall::Unload(skill)) => Step::Unload { skill },
            None => Step::Tool { name: call.tool.clone(), args: call.args.clone() },
        }
    }

    /// Applies one step; `tool_answer` is what an ordinary tool call the model made returns.
    fn apply_one(&mut self, step: Step, tool_answer: Option<String>) -> &Turn {
        let mut outcome = match &step {
            Step::Edit { skill, content } => self.edit(skill, content),
            Step::User { text } => Outcome::ok("user", text.clone()),
            Step::Model { text, calls } => {
                let outcome = Outcome::ok("model", text.clone());
                if calls.is_empty() {
                    outcome
                } else {
                    let names: Vec<&str> = calls.iter().map(|c| c.tool.as_str()).collect();
                    outcome.with_note(format!("the model calls {}", names.join(", ")))
                }
            }
            _ => dispatch(self, &step),
        };
        if let (Step::Tool { .. }, Some(answer)) = (&step, tool_answer) {
            if !outcome.is_error && outcome.result.is_empty() {
                outcome.result = answer;
            }
        }
        let mut cost = Size::of(&outcome.result);
        for b in &outcome.blocks {
            let n = Size::of(b);
            cost.chars += n.chars;
            cost.tokens += n.tokens;
        }
        self.history.chars += cost.chars;
        self.history.tokens += cost.tokens;
        let prompt_changes = match (&step, &mut self.skills_prompt) {
            (Step::Edit { .. }, _) => {
                let old = self.skills_prompt.text();
                self.skills_prompt = build_skills_prompt(self.agent, &self.library, &self.prompt_options()).0;
                line_diff(&old, &self.skills_prompt.text())
            }
            (_, SkillsPrompt::Incremental(p)) => {
                p.set_loaded(&self.library, &self.loaded).iter().flat_map(|(old, new)| line_diff(old, new)).collect()
            }
            (_, SkillsPrompt::Whole { .. }) => vec![],
        };
        let p = self.skills_prompt.size();
        let window = self.window;
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
            prompt_changes,
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
        self.library.set_text(i, content, self.agent);
        Outcome::ok(call, String::new()).with_note("the file's text changed; nothing enters the context")
    }
}

/// What an ordinary tool call of the model returns when the user typed no result: the simulator
/// runs no tools.
pub const NOT_RUN: &str = "not run in simulation";

/// The agent's own handling of a step.
fn dispatch(s: &mut Session, step: &Step) -> Outcome {
    match crate::agents::session_hooks(s.agent) {
        Some(hooks) => (hooks.step)(s, step),
        None => Outcome::unsupported(format!("{step:?}"), s.agent.id, "session simulation yet"),
    }
}
