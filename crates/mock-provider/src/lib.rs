//! mock-provider: a local model provider for tests. It speaks both wire formats on 127.0.0.1:
//! OpenAI Chat Completions (`POST /v1/chat/completions`) and Anthropic Messages
//! (`POST /v1/messages`), so either client's base URL is `http://127.0.0.1:PORT/v1`, and it
//! answers from a script instead of a model.
//!
//! ```no_run
//! use mock_provider::{MockServer, Reply, Script};
//! let server = MockServer::start(Script::always(Reply::text("Hello.")));
//! let base_url = server.base_url(); // give it to the client under test
//! // … send requests …
//! assert_eq!(server.requests().len(), 1);
//! ```
//!
//! The binary serves a script file: `mock-provider --script FILE [--port N] [--log FILE]` prints
//! `listening on http://127.0.0.1:PORT/v1` as its first line of output and serves until killed;
//! `--log` appends each request received to FILE as one JSON line.
//!
//! # The script
//!
//! A JSON file (the serde types [`Script`], [`Rule`], [`Reply`], [`Fault`]):
//!
//! - `rules`: tried in order against the request's *last user text* (the text of the last user
//!   message that has text, so a turn of tool results alone does not count); the first that
//!   matches answers. A rule matches with `contains` (a substring) or `regex` (Rust `regex`
//!   syntax), or always when it has neither; with `context` too, only when the request's system
//!   or developer text or a tool description contains that text (a reply that depends on what
//!   the prompt says, such as a skill's description).
//! - A rule's `replies` are cycled per (rule, user text): the n-th request with the same text gets
//!   reply n modulo their count, counted under a lock, so three concurrent runs of one query
//!   get the three replies in some order, never the same one twice.
//! - `default`: the reply when no rule matches (or the matching rule has no replies); without
//!   one such a request gets a 400 saying no rule matched.
//! - A reply is `{"text": …}`, `{"tool": NAME, "arguments": {…}}`, or both (text, then the call).
//!   In the arguments' string values `{{path:SKILL}}` becomes the first path ending in
//!   `/SKILL/SKILL.md` in the request's system or developer text or tool descriptions (for an
//!   agent whose skill activation is reading that file). A tool the request does not offer is
//!   not called: the reply is the text `no such tool`. `"repeat": N` with a tool makes the call
//!   N times in the one reply (a model that calls many tools at once); `"escaped": true` writes
//!   the reply's JSON with every character of its strings but ASCII letters, digits and spaces
//!   escaped (`\/`, `\u002d`, …): the same JSON in other bytes.
//! - `fault`, on a rule or on the whole script (checked first): `status` answers that status
//!   with the provider's own error body (401 bad key, 404 model not found, 429, 500, 529
//!   overloaded, …; `message` replaces the provider's words), with `retry_after` seconds as a
//!   `Retry-After` header; `delay_ms` waits before answering; `malformed` answers 200 with the
//!   reply's JSON cut in half; `times` limits the fault to the first N requests it applies to.
//!   A rule's reply cycle does not move on a request answered by a status fault.
//! - `api_key`: requests without it (`Authorization: Bearer KEY` for OpenAI, `x-api-key: KEY`
//!   for Anthropic) get the provider's 401.
//!
//! Usage in replies: input tokens are the request body's length in bytes divided by 4 (rounded
//! down); output tokens are always [`OUTPUT_TOKENS`] (10).
//!
//! The example (also [`EXAMPLE`]):
//!
//! ```json
#![doc = include_str!("example.json")]
//! ```
//!
//! Every request received is kept ([`MockServer::requests`]): method, path, headers (the values
//! of `authorization`, `x-api-key` and `api-key` replaced by `***`) and the body as JSON.

mod bodies;
mod http;
mod script;
mod server;

pub use bodies::{Api, OUTPUT_TOKENS};
pub use script::{Fault, Reply, Rule, Script, ScriptError};
pub use server::{MockServer, Options, Received, StartError};

/// The example script of the crate doc.
pub const EXAMPLE: &str = include_str!("example.json");
