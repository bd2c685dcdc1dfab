//! Anthropic Messages (`POST {base}/messages`). The shapes are in the module doc of [`super`].

use serde_json::{json, Map, Value};

use super::api::{check_tool_calls, count, parse_json, status_error, temperature, ErrorBody, ProviderKind};
use super::error::{quote, ProviderError};
use super::{Block, ChatRequest, ChatResponse, Message, Role, ToolCall, Usage};

/// The path below the base URL.
pub(crate) const PATH: &str = "/messages";

/// The `anthropic-version` header sent with every request.
pub(crate) const VERSION: &str = "2023-06-01";

/// The request body for `req`.
///
/// The API has no developer role and no system messages: the top-level `system` string is
/// [`ChatRequest::system`] followed by the text of every system and developer message, in order,
/// each after a blank line.
pub(crate) fn encode(req: &ChatRequest) -> Value {
    let mut system: Vec<&str> = req.system.iter().map(String::as_str).collect();
    let mut messages = Vec::new();
    for message in &req.messages {
        match message.role {
            Role::System | Role::Developer => system.extend(message.content.iter().filter_map(|b| match b {
                Block::Text(text) => Some(text.as_str()),
                _ => None,
            })),
            Role::User | Role::Assistant => encode_message(message, &mut messages),
        }
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(req.model));
    body.insert("max_tokens".into(), json!(req.max_tokens));
    if !system.is_empty() {
        body.insert("system".into(), json!(system.join("\n\n")));
    }
    body.insert("messages".into(), Value::Array(messages));
    if !req.tools.is_empty() {
        let tools = req
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}));
        body.insert("tools".into(), Value::Array(tools.collect()));
    }
    if let Some(t) = req.temperature {
        body.insert("temperature".into(), temperature(t));
    }
    Value::Object(body)
}

/// Appends the wire message(s) for a user or assistant `message`. A user message lists its
/// `tool_result` blocks first (the API requires it); tool results in an assistant message go to
/// a user message of their own after it. A single text block is sent as a plain string.
fn encode_message(message: &Message, out: &mut Vec<Value>) {
    let mut results = Vec::new();
    let mut others = Vec::new();
    for block in &message.content {
        match block {
            Block::Text(text) => others.push(json!({"type": "text", "text": text})),
            Block::ToolCall { id, name, arguments } => {
                others.push(json!({"type": "tool_use", "id": id, "name": name, "input": arguments}));
            }
            Block::ToolResult { id, content, is_error } => {
                let mut result = json!({"type": "tool_result", "tool_use_id": id, "content": content});
                if *is_error {
                    result["is_error"] = json!(true);
                }
                results.push(result);
            }
        }
    }
    let content = |blocks: Vec<Value>| match blocks.as_slice() {
        [one] if one["type"] == "text" => one["text"].clone(),
        _ => Value::Array(blocks),
    };
    if message.role == Role::Assistant {
        if !others.is_empty() || results.is_empty() {
            out.push(json!({"role": "assistant", "content": content(others)}));
        }
        if !results.is_empty() {
            out.push(json!({"role": "user", "content": Value::Array(results)}));
        }
    } else {
        results.extend(others);
        out.push(json!({"role": "user", "content": content(results)}));
    }
}

/// The response in a reply, or the error it says.
pub(crate) fn decode(status: u16, body: &str) -> Result<ChatResponse, ProviderError> {
    if !(200..300).contains(&status) {
        let error = parse_json(body).ok().and_then(|v| error_body(&v));
        return Err(status_error(ProviderKind::Anthropic, status, body, error));
    }
    let value = parse_json(body)?;
    let Some(content) = value.get("content").and_then(Value::as_array) else {
        if let Some(error) = error_body(&value) {
            return Err(ProviderError::Server { status, message: quote(&error.message) });
        }
        return Err(ProviderError::Malformed(format!("no `content` array in the reply: {}", quote(body))));
    };
    let is_call = |b: &&Value| b.get("type").and_then(Value::as_str) == Some("tool_use");
    check_tool_calls(content.iter().filter(is_call).count())?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in content {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => text.push_str(block.get("text").and_then(Value::as_str).unwrap_or_default()),
            Some("tool_use") => {
                let Some(name) = block.get("name").and_then(Value::as_str) else {
                    let block = quote(&block.to_string());
                    return Err(ProviderError::Malformed(format!("a `tool_use` block has no `name`: {block}")));
                };
                tool_calls.push(ToolCall {
                    id: block.get("id").and_then(Value::as_str).unwrap_or_default().to_string(),
                    name: name.to_string(),
                    arguments: block.get("input").cloned().unwrap_or_else(|| json!({})),
                });
            }
            // Thinking and server-tool blocks say nothing about which tool the model called.
            _ => {}
        }
    }
    let usage = value.get("usage").map_or(Usage::default(), |u| Usage {
        input_tokens: count(u, "input_tokens"),
        output_tokens: count(u, "output_tokens"),
    });
    Ok(ChatResponse {
        text,
        tool_calls,
        usage,
        stop_reason: value.get("stop_reason").and_then(Value::as_str).map(str::to_string),
    })
}

/// `{"type": "error", "error": {"type", "message"}}`.
fn error_body(value: &Value) -> Option<ErrorBody> {
    let error = value.get("error")?;
    let message = error.get("message").and_then(Value::as_str)?.to_string();
    let code = error.get("type").and_then(Value::as_str).map(str::to_string);
    Some(ErrorBody { message, code })
}

#[cfg(test)]
mod tests {
    use super::super::testing::conversation;
    use super::*;

    #[test]
    fn a_reply_with_too_many_tool_calls_is_refused_whole() {
        let call = r#"{"type":"tool_use","id":"t","name":"Skill","input":{}}"#;
        let body = |n: usize| format!(r#"{{"content":[{{"type":"text","text":"hi"}},{}]}}"#, vec![call; n].join(","));
        let max = super::super::MAX_TOOL_CALLS;
        assert_eq!(decode(200, &body(max)).map(|r| r.tool_calls.len()), Ok(max));
        let Err(e) = decode(200, &body(max + 1)) else { panic!("decoded") };
        assert!(matches!(&e, ProviderError::TooLarge(m) if m.contains("129 tool calls")), "{e:?}");
    }

    #[test]
    fn encodes_every_kind_of_turn() {
        let body = encode(&conversation());
        let expected = json!({
            "model": "gpt-test",
            "max_tokens": 256,
            "system": "You are an agent.\n\nSkills live in /skills.",
            "messages": [
                {"role": "user", "content": "Fill in form.pdf"},
                {"role": "assistant", "content": [
                    {"type": "text", "text": "Reading the skill."},
                    {"type": "tool_use", "id": "call_1", "name": "Skill", "input": {"skill": "pdf"}},
                ]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "call_1", "content": "# PDF skill"},
                    {"type": "text", "text": "Go on."},
                ]},
            ],
            "tools": [{
                "name": "Skill",
                "description": "Run a skill.",
                "input_schema": {"type": "object", "properties": {"skill": {"type": "string"}}, "required": ["skill"]},
            }],
            "temperature": 0.5,
        });
        assert_eq!(body, expected);
    }

    #[test]
    fn a_failed_tool_result_says_so() {
        let mut req = conversation();
        req.messages[3].content[0] = Block::ToolResult { id: "call_1".into(), content: "no".into(), is_error: true };
        assert_eq!(encode(&req)["messages"][2]["content"][0]["is_error"], json!(true));
    }

    #[test]
    fn without_system_text_there_is_no_system_field() {
        let mut req = conversation();
        req.system = None;
        req.messages.remove(0);
        req.tools.clear();
        req.temperature = None;
        let body = encode(&req);
        for field in ["system", "tools", "temperature"] {
            assert!(body.get(field).is_none(), "{field}");
        }
    }

    #[test]
    fn decodes_text_and_tool_use() {
        let body = r#"{"id":"msg_1","type":"message","role":"assistant","model":"claude-x",
            "content":[{"type":"text","text":"I'll use the skill."},
                       {"type":"tool_use","id":"toolu_1","name":"Skill","input":{"skill":"pdf"}}],
            "stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":300,"output_tokens":20}}"#;
        assert_eq!(
            decode(200, body),
            Ok(ChatResponse {
                text: "I'll use the skill.".into(),
                tool_calls: vec![ToolCall {
                    id: "toolu_1".into(),
                    name: "Skill".into(),
                    arguments: json!({"skill": "pdf"})
                }],
                usage: Usage { input_tokens: 300, output_tokens: 20 },
                stop_reason: Some("tool_use".into()),
            })
        );
    }

    #[test]
    fn malformed_bodies_say_what_is_wrong() {
        let cut = decode(200, r#"{"content":[{"type":"te"#);
        assert!(matches!(&cut, Err(ProviderError::Malformed(m)) if m.contains("not JSON")), "{cut:?}");
        let missing = decode(200, r#"{"id":"msg_1"}"#);
        assert!(matches!(&missing, Err(ProviderError::Malformed(m)) if m.contains("`content`")), "{missing:?}");
        let nameless = decode(200, r#"{"content":[{"type":"tool_use","id":"t"}]}"#);
        assert!(matches!(&nameless, Err(ProviderError::Malformed(m)) if m.contains("`name`")), "{nameless:?}");
    }

    #[test]
    fn decodes_error_bodies() {
        let auth = r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#;
        assert!(matches!(decode(401, auth), Err(ProviderError::Auth { status: 401, .. })));
        let model = r#"{"type":"error","error":{"type":"not_found_error","message":"model: claude-9"}}"#;
        assert!(matches!(decode(404, model), Err(ProviderError::UnknownModel { .. })));
        let overloaded = r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        assert_eq!(decode(529, overloaded), Err(ProviderError::Server { status: 529, message: "Overloaded".into() }));
    }
}
