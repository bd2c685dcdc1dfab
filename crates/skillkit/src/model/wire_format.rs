//! The wire format of each API ([`WireFormat`]): a [`ChatRequest`] encoded to the path and
//! exact JSON body a provider receives, and a reply's status and raw body decoded to a
//! [`ChatResponse`], by the format of each API (`openai.rs`, `anthropic.rs`; what they share is in `api.rs`). No I/O here: the
//! transport (`http`) and the record store (`record`) move the bytes.

use super::api::{OpenAiOptions, ProviderKind};
use super::error::ProviderError;
use super::types::{ChatRequest, ChatResponse};
use super::{anthropic, openai};

/// A wire format, with its options: what [`WireFormat::encode`] and [`WireFormat::decode`] do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WireFormat {
    /// OpenAI Chat Completions.
    OpenAi(OpenAiOptions),
    /// Anthropic Messages.
    Anthropic,
}

impl From<ProviderKind> for WireFormat {
    fn from(kind: ProviderKind) -> WireFormat {
        match kind {
            ProviderKind::OpenAi => WireFormat::OpenAi(OpenAiOptions::default()),
            ProviderKind::Anthropic => WireFormat::Anthropic,
        }
    }
}

/// An encoded request: the path below the base URL and the exact body bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireRequest {
    /// The path after the base URL, with its leading slash: `/chat/completions`, `/messages`.
    pub path: &'static str,
    /// The JSON body, exactly as sent.
    pub body: Vec<u8>,
}

/// A reply as received: its status and its body, raw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireReply {
    /// The HTTP status.
    pub status: u16,
    /// The body, exactly as received.
    pub body: String,
    /// How many retries were made before this reply.
    pub retries: u32,
}

impl WireFormat {
    /// The API this format speaks.
    pub fn kind(self) -> ProviderKind {
        match self {
            WireFormat::OpenAi(_) => ProviderKind::OpenAi,
            WireFormat::Anthropic => ProviderKind::Anthropic,
        }
    }

    /// The path and body the provider receives for `req`.
    pub fn encode(self, req: &ChatRequest) -> WireRequest {
        let (path, body) = match self {
            WireFormat::OpenAi(options) => (openai::PATH, openai::encode(req, options)),
            WireFormat::Anthropic => (anthropic::PATH, anthropic::encode(req)),
        };
        // Serializing a `Value` cannot fail; an empty body would be refused by the provider.
        WireRequest { path, body: serde_json::to_vec(&body).unwrap_or_default() }
    }

    /// The response in a reply of status `status` with body `body`, or the error it says.
    pub fn decode(self, status: u16, body: &str) -> Result<ChatResponse, ProviderError> {
        match self {
            WireFormat::OpenAi(_) => openai::decode(status, body),
            WireFormat::Anthropic => anthropic::decode(status, body),
        }
    }
}
