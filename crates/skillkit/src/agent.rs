//! The agent profile type: which rules apply and how strictly (its [`LintProfile`]), how the agent
//! discovers skills, and how it reads and advertises them to the model. The profiles themselves
//! and their registry are in [`crate::agents`], one file each, citing the program and version (or
//! seed document) each was verified against.

use crate::library::discover::DiscoveryPolicy;
use crate::library::NameKey;
pub use crate::lint::profile::{Level, LintProfile};
use crate::lint::rules::RuleMeta;
use crate::prompt::{Prompt, RenderInput, ToolDef};

/// What a profile stands for, so that a picker can group them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum AgentKind {
    /// A document's rules, lint only or a validator of them (`spec`, `agentskills`).
    Format,
    /// A program people use, reproduced at a version.
    Agent,
    /// A design from a seed document, reproduced to test against (no program ships it).
    TestProfile,
}

#[derive(Debug)]
pub struct Agent {
    pub id: &'static str,
    pub title: &'static str,
    /// What the profile stands for: a format, a real agent, or a test profile (a seed design).
    pub kind: AgentKind,
    /// A short plain name with the version it matches, for menus ("Claude Code 2.1").
    pub label: &'static str,
    /// The program and version, or document, the profile was verified against.
    pub source: &'static str,
    /// How strictly the rules apply, and in whose words.
    pub lint: LintProfile,
    /// How the agent finds skills in a source.
    pub discovery: DiscoveryPolicy,
    /// How the agent keys skills when sources clash.
    pub key: NameKey,
    /// Renders the exact text the agent injects to advertise skills; `None` for profiles that
    /// only lint (`spec`).
    pub prompt: Option<fn(&RenderInput<'_>) -> Prompt>,
    /// Reads every skill of a library the way the agent's loader does and remembers each reading
    /// in its entry ([`crate::library::Entry::reading`]), so that renders only format and count.
    /// [`crate::library::Library::for_agent`] runs it.
    pub read: Option<fn(&crate::library::Library)>,
    /// How a model activates a skill under this agent (trigger evals, live sessions); `None`
    /// when the agent offers the model no way to (`spec`, `agentskills`).
    pub activation: Option<Activation>,
    /// The package formats the agent installs skills from (its plugins, marketplaces, uploads);
    /// empty when it reads skill folders only.
    pub installs: &'static [crate::package::format::PackageFormat],
}

/// How a model activates a skill under an agent: the tools the agent offers for skills, with
/// their exact schemas, and which skill a call of one of them activates.
#[derive(Debug, Clone, Copy)]
pub struct Activation {
    /// In words: "`Skill` with `skill: S`".
    pub rule: &'static str,
    /// The tools the model is offered with this render (the same code as `skillkit prompt`'s).
    pub tools: fn(&Prompt) -> Vec<ToolDef>,
    /// What a call of tool `name` with `arguments` does with a skill (as the render names it),
    /// when it is one of the agent's skill-tool calls.
    pub call: fn(&Prompt, &str, &serde_json::Value) -> Option<SkillCall>,
}

/// A skill-tool call of the model, as the agent's session handles it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkillCall {
    /// The skill is invoked (read, activated), with the call's arguments for it.
    Invoke { skill: String, args: Option<String> },
    /// The skill is loaded into the session (DeepAgents V2's `load_skill`).
    Load(String),
    /// The skill is unloaded (DeepAgents V2's `unload_skill`).
    Unload(String),
}

impl SkillCall {
    /// An invocation without arguments.
    pub fn invoke(skill: String) -> SkillCall {
        SkillCall::Invoke { skill, args: None }
    }

    /// The skill the call activates (an invocation or a load; an unload activates none).
    pub fn activates(&self) -> Option<&str> {
        match self {
            SkillCall::Invoke { skill, .. } | SkillCall::Load(skill) => Some(skill),
            SkillCall::Unload(_) => None,
        }
    }
}

impl Agent {
    pub fn level(&self, rule: &RuleMeta) -> Level {
        self.lint.level(rule.name)
    }
}

impl AsRef<LintProfile> for Agent {
    fn as_ref(&self) -> &LintProfile {
        &self.lint
    }
}

impl Agent {
    /// Renders the agent's prompt for a library opened with its discovery
    /// ([`crate::library::Library::for_agent`]); `None` when the profile only lints.
    pub fn render(&self, library: &crate::library::Library, options: &crate::prompt::PromptOptions) -> Option<Prompt> {
        self.prompt.map(|f| f(&RenderInput { library, options }))
    }
}
