//! Live sessions: a session whose `user` turns a real model answers. The model sees what the
//! agent would send at that point (the current skills prompt where the agent puts it, its skill
//! tools, the conversation so far); each reply becomes a `model` step, so its skill-tool calls
//! run in the simulator as scripted ones do, any other tool call is answered "not run in
//! simulation", and the steps as run (the model's turns included) replay without the model.

use crate::agent::Agent;
use crate::model::{
    Block, Cancel, ChatRequest, Message, Provider, ProviderConfig, ProviderError, Role, Tool, MAX_TOOL_CALLS,
};
use crate::prompt::Placement;
use crate::session::{ModelCall, Session, Settings, Step};
use std::path::PathBuf;

/// The model a live session asks.
pub struct LiveModel<'a> {
    pub provider: &'a dyn Provider,
    pub config: &'a ProviderConfig,
    pub cancel: &'a Cancel,
    /// Model turns at most per user turn (a model that keeps calling tools is cut off).
    pub max_rounds: usize,
}

/// A live session's result: the session, the steps as run (each `user` step followed by the
/// model's turns), and the provider's error when a turn could not be asked (the session then
/// stops there).
pub struct Live {
    pub session: Session,
    pub steps: Vec<Step>,
    pub error: Option<LiveError>,
}

/// Why a live session stopped early, and where: the provider's error (unreachable, refused, a
/// reply too large: more than [`MAX_TOOL_CALLS`] tool calls or a body over
/// [`crate::model::MAX_REPLY_BYTES`]) for one of the model's replies to one step. Nothing of
/// the failed reply is run or kept.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveError {
    /// The index in [`Live::steps`] of the step the model was answering (a `user` step, or the
    /// `model` step whose tool results it continued from).
    pub step: usize,
    /// Which of the model's replies to that step failed, from 1.
    pub reply: usize,
    pub error: ProviderError,
}

impl std::fmt::Display for LiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "step {}, the model's reply {}: {}", self.step + 1, self.reply, self.error)
    }
}

/// The system text and the messages before the conversation, as the agent places its skills
/// text: a developer message for Codex, the system prompt for the others.
pub fn frame(placement: Placement, text: &str) -> (Option<String>, Vec<Message>) {
    match placement {
        Placement::DeveloperMessage => (None, vec![Message::text(Role::Developer, text.to_string())]),
        _ => (Some(text.to_string()), vec![]),
    }
}

/// Runs `steps`: with `model`, every `user` step not already followed by a `model` step is
/// answered by the model, turn after turn while it calls tools (at most `max_rounds`); when the
/// steps end with a `model` step that calls tools (the user typed a tool's result and goes on),
/// the model continues from there.
pub fn run(
    agent: &'static Agent,
    sources: &[PathBuf],
    settings: Settings,
    steps: Vec<Step>,
    model: Option<&LiveModel<'_>>,
) -> Live {
    run_with(agent, sources, settings, Default::default(), steps, model)
}

/// [`run`] with the agent's own listing settings ([`crate::agent_settings`]; a script's:
/// [`crate::simulate::script_agent_settings`]).
pub fn run_with(
    agent: &'static Agent,
    sources: &[PathBuf],
    settings: Settings,
    agent_settings: crate::agent_settings::AgentSettings,
    steps: Vec<Step>,
    model: Option<&LiveModel<'_>>,
) -> Live {
    let mut session = Session::with_agent_settings(agent, sources, settings, agent_settings);
    let mut conversation: Vec<Message> = vec![];
    let mut ran = vec![];
    let mut calls_made = 0usize;
    let mut pending = steps.into_iter().peekable();
    while let Some(step) = pending.next() {
        let answered = matches!(pending.peek(), Some(Step::Model { .. }));
        match &step {
            Step::User { text } => conversation.push(Message::user(text.clone())),
            Step::Model { .. } => record_reply(&mut session, &step, &mut conversation, &mut calls_made),
            _ => {}
        }
        let is_user = matches!(step, Step::User { .. });
        let continues = matches!(&step, Step::Model { calls, .. } if !calls.is_empty()) && pending.peek().is_none();
        if !matches!(step, Step::Model { .. }) {
            session.apply(step.clone());
        }
        ran.push(step);
        let Some(model) = model.filter(|_| (is_user && !answered) || continues) else { continue };
        let answering = ran.len() - 1;
        for round in 0..model.max_rounds.max(1) {
            let request = match request(&session, &conversation, model.config) {
                Some(r) => r,
                None => break,
            };
            let reply = model.provider.complete_with(&request, model.cancel).and_then(|reply| {
                // The wire decoders refuse such a reply already; any provider is held to it.
                let n = reply.tool_calls.len();
                match n > MAX_TOOL_CALLS {
                    true => Err(ProviderError::TooLarge(format!(
                        "{n} tool calls in one reply, more than the {MAX_TOOL_CALLS} handled"
                    ))),
                    false => Ok(reply),
                }
            });
            let reply = match reply {
                Ok(r) => r,
                Err(error) => {
                    let error = LiveError { step: answering, reply: round + 1, error };
                    return Live { session, steps: ran, error: Some(error) };
                }
            };
            let calls: Vec<ModelCall> = reply
                .tool_calls
                .iter()
                .map(|c| ModelCall { tool: c.name.clone(), args: c.arguments.clone(), result: None })
                .collect();
            let step = Step::Model { text: reply.text.clone(), calls };
            record_reply(&mut session, &step, &mut conversation, &mut calls_made);
            let more = !reply.tool_calls.is_empty();
            ran.push(step);
            if !more {
                break;
            }
        }
    }
    Live { session, steps: ran, error: None }
}

/// Applies a model step and adds it to the conversation: the reply with its calls, then each
/// call's result as the simulator answered it.
fn record_reply(session: &mut Session, step: &Step, conversation: &mut Vec<Message>, calls_made: &mut usize) {
    let Step::Model { text, calls } = step else { return };
    let ids: Vec<String> = calls
        .iter()
        .map(|_| {
            *calls_made += 1;
            format!("call_{}", *calls_made)
        })
        .collect();
    let mut content = vec![];
    if !text.is_empty() {
        content.push(Block::Text(text.clone()));
    }
    for (c, id) in calls.iter().zip(&ids) {
        content.push(Block::ToolCall { id: id.clone(), name: c.tool.clone(), arguments: c.args.clone() });
    }
    conversation.push(Message { role: Role::Assistant, content });
    session.apply(step.clone());
    if calls.is_empty() {
        return;
    }
    let answers = &session.turns[session.turns.len() - calls.len()..];
    let results = answers
        .iter()
        .zip(&ids)
        .map(|(turn, id)| {
            let mut content = turn.outcome.result.clone();
            for b in &turn.outcome.blocks {
                content.push_str("\n\n");
                content.push_str(b);
            }
            if content.is_empty() {
                content = turn.outcome.note.clone().unwrap_or_default();
            }
            Block::ToolResult { id: id.clone(), content, is_error: turn.outcome.is_error }
        })
        .collect();
    conversation.push(Message { role: Role::User, content: results });
}

/// The next request: the skills prompt as it stands now, the agent's skill tools, the
/// conversation. `None` for an agent with no prompt.
fn request(session: &Session, conversation: &[Message], config: &ProviderConfig) -> Option<ChatRequest> {
    let prompt = session.agent.render(&session.library, &session.prompt_options())?;
    let (system, mut messages) = frame(prompt.placement, &session.skills_prompt.text());
    messages.extend(conversation.iter().cloned());
    let tools: Vec<Tool> = session
        .agent
        .activation
        .map(|a| (a.tools)(&prompt))
        .unwrap_or_default()
        .into_iter()
        .map(|t| Tool { name: t.name, description: t.description, parameters: t.parameters })
        .collect();
    Some(config.request(system, messages, tools))
}
