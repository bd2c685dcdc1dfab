//! Test data shared by the wire formats' tests.

use serde_json::json;

use super::{Block, ChatRequest, Message, Role, Tool};

/// A request with every kind of turn: system text, developer text, a user turn, a tool, an
/// assistant turn with text and a tool call, and a user turn with the tool's result and more text.
pub(crate) fn conversation() -> ChatRequest {
    ChatRequest {
        model: "gpt-test".into(),
        system: Some("You are an agent.".into()),
        messages: vec![
            Message::text(Role::Developer, "Skills live in /skills."),
            Message::user("Fill in form.pdf"),
            Message {
                role: Role::Assistant,
                content: vec![
                    Block::Text("Reading the skill.".into()),
                    Block::ToolCall { id: "call_1".into(), name: "Skill".into(), arguments: json!({"skill": "pdf"}) },
                ],
            },
            Message {
                role: Role::User,
                content: vec![
                    Block::ToolResult { id: "call_1".into(), content: "# PDF skill".into(), is_error: false },
                    Block::Text("Go on.".into()),
                ],
            },
        ],
        tools: vec![Tool {
            name: "Skill".into(),
            description: "Run a skill.".into(),
            parameters: json!({"type": "object", "properties": {"skill": {"type": "string"}}, "required": ["skill"]}),
        }],
        temperature: Some(0.5),
        max_tokens: 256,
    }
}
