//! Model providers: send the prompt an agent would send (system and developer text, the user's
//! turn, the skill tools with their JSON Schemas) to a model, and read which tool it called.
//!
//! - [`types`]: the wire-neutral [`ChatRequest`] and [`ChatResponse`];
//! - [`Provider`]: what answers them; [`provider`] builds one from a [`ProviderConfig`];
//! - [`wire_format`]: each API's encoding (`openai.rs`, `anthropic.rs`): a request becomes a path and exact
//!   body bytes, a reply's status and raw body become a response or a [`ProviderError`];
//! - `api`: the two APIs ([`ProviderKind`], [`OpenAiOptions`]) and what both encodings share
//!   (reading an error reply, JSON, counts), below `openai.rs` and `anthropic.rs`;
//! - `http`: the transport (blocking, one timeout per attempt, retries on 429, 5xx and dropped
//!   connections, honouring `Retry-After`), cancellable between attempts with a [`Cancel`];
//! - [`record`]: [`Recording`] stores each raw reply, [`Replay`] answers from the store.
//!
//! Bounds: a reply body is read up to [`MAX_REPLY_BYTES`] (16 MiB) and a reply may hold at most
//! [`MAX_TOOL_CALLS`] (128) tool calls; a larger one is [`ProviderError::TooLarge`], refused
//! whole before any call is decoded.
//!
//! The API key is an [`ApiKey`]: it prints as `ApiKey(***)`, cannot be serialized, and is
//! scrubbed from every error and reply body, so it appears in no message, log line or record
//! file: as it is, percent-encoded or JSON-escaped (a JSON body is decoded before it is looked
//! through, strings holding JSON included).
//!
//! # Exact request shapes
//!
//! OpenAI Chat Completions, `POST {base}/chat/completions` (default base
//! `https://api.openai.com/v1`), headers `content-type: application/json` and, when there is a
//! key, `authorization: Bearer KEY`:
//!
//! ```json
//! {"model": "gpt-4o",
//!  "messages": [
//!    {"role": "system", "content": "<ChatRequest::system>"},
//!    {"role": "developer", "content": "<a Developer message; role system with developer_as_system>"},
//!    {"role": "user", "content": "<one text block: a string; several: [{\"type\":\"text\",\"text\":…}]>"},
//!    {"role": "assistant", "content": "<text or null>", "tool_calls": [
//!      {"id": "call_1", "type": "function", "function": {"name": "Skill", "arguments": "{\"skill\":\"pdf\"}"}}]},
//!    {"role": "tool", "tool_call_id": "call_1", "content": "<the tool's output>"}],
//!  "tools": [{"type": "function", "function": {"name": "Skill", "description": "…", "parameters": {…}}}],
//!  "max_tokens": 1024,
//!  "temperature": 0.0}
//! ```
//!
//! `arguments` is a JSON *string*; `max_completion_tokens` replaces `max_tokens` with
//! [`OpenAiOptions::max_completion_tokens`]; `tools` and `temperature` are left out when empty or
//! unset. A message's tool results are sent first, as `tool` messages, then its text. The reply's
//! `choices[0].message.content` and `.tool_calls` (arguments parsed back to JSON; an unparseable
//! string is [`ProviderError::Malformed`]), `usage.prompt_tokens` and `.completion_tokens`, and
//! `choices[0].finish_reason` are read.
//!
//! Anthropic Messages, `POST {base}/messages` (default base `https://api.anthropic.com/v1`),
//! headers `content-type: application/json`, `anthropic-version: 2023-06-01` and `x-api-key: KEY`:
//!
//! ```json
//! {"model": "claude-sonnet-4-5",
//!  "max_tokens": 1024,
//!  "system": "<ChatRequest::system>\n\n<each System or Developer message's text>",
//!  "messages": [
//!    {"role": "user", "content": "<one text block: a string; otherwise an array of blocks>"},
//!    {"role": "assistant", "content": [
//!      {"type": "text", "text": "…"},
//!      {"type": "tool_use", "id": "toolu_1", "name": "Skill", "input": {"skill": "pdf"}}]},
//!    {"role": "user", "content": [
//!      {"type": "tool_result", "tool_use_id": "toolu_1", "content": "…"},
//!      {"type": "text", "text": "…"}]}],
//!  "tools": [{"name": "Skill", "description": "…", "input_schema": {…}}],
//!  "temperature": 0.0}
//! ```
//!
//! The Messages API has no developer role, so developer text joins the top-level `system` string,
//! after the system text and a blank line (`\n\n`), in the order the messages come: the model sees
//! it as instructions of the same standing, which is what agents that send developer text mean.
//! `tool_result` blocks come first in their user message (the API requires it) and carry
//! `"is_error": true` only for a failed tool. The reply's `content[]` `text` blocks (concatenated)
//! and `tool_use` blocks, `usage.input_tokens` and `.output_tokens`, and `stop_reason` are read.
//!
//! Error replies: 401/403 → [`ProviderError::Auth`]; 404 with the provider's error body, or a
//! 4xx whose message says the model does not exist → [`ProviderError::UnknownModel`]; 429 after
//! the retries → [`ProviderError::RateLimited`]; 5xx after the retries → [`ProviderError::Server`];
//! other 4xx, a 404 that is not the provider's (a wrong base URL) and a redirect (not followed)
//! → [`ProviderError::Rejected`]. Only 429, 5xx and dropped connections are retried; a timeout
//! is not (it would multiply the wait).

mod anthropic;
mod api;
mod cancel;
mod config;
mod error;
mod http;
mod key;
mod openai;
pub mod record;
mod retry;
pub mod types;
pub mod wire_format;

#[cfg(test)]
mod testing;

pub use api::{OpenAiOptions, ProviderKind};
pub use cancel::Cancel;
pub use config::ProviderConfig;
pub use error::ProviderError;
pub use http::{provider, HttpProvider, MAX_REPLY_BYTES};
pub use key::{choose as choose_key, ApiKey, KeyOrigin, MissingKey};
pub use record::{Recording, Replay};
pub use types::{Block, ChatRequest, ChatResponse, Message, Role, Tool, ToolCall, Usage, MAX_TOOL_CALLS};
pub use wire_format::{WireFormat, WireReply, WireRequest};

/// Something that answers a [`ChatRequest`]: a provider over HTTP, a recorder around one, or a
/// replay store.
///
/// Every provider speaks a [`WireFormat`]: [`Provider::complete_with`] encodes the request,
/// hands the exact bytes to [`Provider::exchange`], and decodes the raw reply. Wrappers such as
/// [`Recording`] work at that level, so what they store is what was on the wire.
pub trait Provider: Send + Sync {
    /// The wire format requests are encoded in and replies decoded from.
    fn wire(&self) -> WireFormat;

    /// Sends one encoded request (retrying as the provider does) and returns the raw reply, of
    /// whatever status; `Err` when there is no reply to decode (unreachable, timeout, cancelled).
    fn exchange(&self, request: &WireRequest, cancel: &Cancel) -> Result<WireReply, ProviderError>;

    /// Where the requests go, for messages: `openai at http://127.0.0.1:4000/v1`.
    fn describe(&self) -> String;

    /// The model's reply to `req`.
    fn complete(&self, req: &ChatRequest) -> Result<ChatResponse, ProviderError> {
        self.complete_with(req, &Cancel::new())
    }

    /// The model's reply to `req`, giving up with [`ProviderError::Cancelled`] once `cancel` is
    /// cancelled (before an attempt or during a wait between retries).
    fn complete_with(&self, req: &ChatRequest, cancel: &Cancel) -> Result<ChatResponse, ProviderError> {
        let wire = self.wire();
        let reply = self.exchange(&wire.encode(req), cancel)?;
        wire.decode(reply.status, &reply.body).map_err(|e| e.in_context(&req.model, reply.retries))
    }
}
