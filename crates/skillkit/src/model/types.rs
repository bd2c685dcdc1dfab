//! The wire-neutral request and response: what a caller builds and reads, whichever provider
//! answers. Each wire format (`openai`, `anthropic`) maps these to its own JSON.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who speaks a message.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// System text inside the conversation (most callers use [`ChatRequest::system`] instead).
    System,
    /// Developer instructions (OpenAI's `developer` role; Anthropic has none: see the module doc).
    Developer,
    /// The user; also the message that carries tool results back to the model.
    User,
    /// The model's own earlier turn: text and tool calls.
    Assistant,
}

/// One piece of a message.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Block {
    /// Plain text.
    Text(String),
    /// A tool call the assistant made (in an [`Role::Assistant`] message).
    ToolCall {
        /// The call's id, echoed by the matching [`Block::ToolResult`].
        id: String,
        /// The tool's name.
        name: String,
        /// The call's arguments, a JSON object.
        arguments: Value,
    },
    /// The result of a tool call (by convention in a [`Role::User`] message; each wire format
    /// moves it where it belongs: OpenAI a `tool` message, Anthropic a `tool_result` block).
    ToolResult {
        /// The id of the [`Block::ToolCall`] this answers.
        id: String,
        /// The tool's output.
        content: String,
        /// Whether the tool failed.
        is_error: bool,
    },
}

/// One turn of the conversation.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Message {
    /// Who speaks.
    pub role: Role,
    /// What is said, in order.
    pub content: Vec<Block>,
}

impl Message {
    /// A message of one text block.
    pub fn text(role: Role, text: impl Into<String>) -> Message {
        Message { role, content: vec![Block::Text(text.into())] }
    }

    /// A user message of one text block.
    pub fn user(text: impl Into<String>) -> Message {
        Message::text(Role::User, text)
    }
}

/// A tool the model may call.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Tool {
    /// The tool's name.
    pub name: String,
    /// What the tool does, as the agent describes it to the model.
    pub description: String,
    /// The JSON Schema of the tool's arguments.
    pub parameters: Value,
}

/// What is sent to the model: the same fields whichever provider answers.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ChatRequest {
    /// The model's name, as the provider knows it.
    pub model: String,
    /// The system prompt, if any.
    pub system: Option<String>,
    /// The conversation so far.
    pub messages: Vec<Message>,
    /// The tools offered to the model.
    pub tools: Vec<Tool>,
    /// The sampling temperature; `None` leaves the provider's default.
    pub temperature: Option<f32>,
    /// The most tokens the reply may have.
    pub max_tokens: u32,
}

/// The most tool calls read from one reply: a reply with more is refused whole
/// ([`super::ProviderError::TooLarge`]), before any of its calls is decoded or run.
///
/// Neither API documents a limit, and real models make a handful of parallel calls at most (an
/// agent such as Claude Code runs ten at a time); 128 is OpenAI's limit on the tools one
/// request may offer, so a reply calling every offered tool once still fits. A reply of
/// thousands of calls is a broken or hostile provider: each call is run in the simulator and
/// sent back in the next request, so they cost far more than their bytes.
pub const MAX_TOOL_CALLS: usize = 128;

/// A tool call in the model's reply.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// The provider's id for the call.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments, parsed JSON.
    pub arguments: Value,
}

/// Token counts the provider reported.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Tokens of the request.
    pub input_tokens: u64,
    /// Tokens of the reply.
    pub output_tokens: u64,
}

/// The model's reply, whichever provider gave it.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct ChatResponse {
    /// The reply's text blocks, joined (empty when there is none).
    pub text: String,
    /// The tool calls, in order.
    pub tool_calls: Vec<ToolCall>,
    /// Token counts.
    pub usage: Usage,
    /// Why the model stopped, in the provider's words (`stop`, `tool_calls`, `end_turn`, …).
    pub stop_reason: Option<String>,
}
