//! OpenAI Chat Completions (`POST {base}/chat/completions`), also spoken by Ollama, vLLM, LiteLLM
//! and most local servers. The shapes are in the module doc of [`super`].

use serde_json::{json, Map, Value};

use super::api::{
    check_tool_calls, count, parse_json, status_error, temperature, ErrorBody, OpenAiOptions, ProviderKind,
};
use super::error::{quote, ProviderError};
use super::{Block, ChatRequest, ChatResponse, Message, Role, ToolCall, Usage};

/// The path below the base URL.
pub(crate) const PATH: &str = "/chat/completions";

/// The request body for `req`.
pub(crate) fn encode(req: &ChatRequest, options: OpenAiOptions) -> Value {
    let mut messages = Vec::new();
    if let Some(system) = &req.system {
        messages.push(json!({"role": "system", "content": system}));
    }
    for message in &req.messages {
        encode_message(message, options, &mut messages);
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(req.model));
    body.insert("messages".into(), Value::Array(messages));
    if !req.tools.is_empty() {
        let tools = req.tools.iter().map(|t| {
            json!({"type": "function", "function": {
                "name": t.name, "description": t.description, "parameters": t.parameters,
            }})
        });
        body.insert("tools".into(), Value::Array(tools.collect()));
    }
    let limit = if options.max_completion_tokens { "max_completion_tokens" } else { "max_tokens" };
    body.insert(limit.into(), json!(req.max_tokens));
    if let Some(t) = req.temperature {
        body.insert("temperature".into(), temperature(t));
    }
    Value::Object(body)
}

/// Appends the wire messages for `message`: its tool results first, each a `tool` message (they
/// answer the previous assistant turn), then its text (and, for the assistant, its tool calls).
/// Tool calls outside an assistant message are not sent: the API has no place for them.
fn encode_message(message: &Message, options: OpenAiOptions, out: &mut Vec<Value>) {
    let mut texts = Vec::new();
    let mut calls = Vec::new();
    for block in &message.content {
        match block {
            Block::Text(text) => texts.push(text.as_str()),
            Block::ToolCall { id, name, arguments } => calls.push(json!({
                "id": id, "type": "function",
                "function": {"name": name, "arguments": arguments.to_string()},
            })),
            Block::ToolResult { id, content, .. } => {
                out.push(json!({"role": "tool", "tool_call_id": id, "content": content}));
            }
        }
    }
    let role = match message.role {
        Role::System => "system",
        Role::Developer if options.developer_as_system => "system",
        Role::Developer => "developer",
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    let content = match texts.as_slice() {
        [] => Value::Null,
        [one] => json!(one),
        many => Value::Array(many.iter().map(|t| json!({"type": "text", "text": t})).collect()),
    };
    if message.role == Role::Assistant && !calls.is_empty() {
        out.push(json!({"role": role, "content": content, "tool_calls": calls}));
    } else if !content.is_null() || !message.content.iter().any(|b| matches!(b, Block::ToolResult { .. })) {
        // A message of tool results only has been sent whole as `tool` messages.
        let content = if content.is_null() { json!("") } else { content };
        out.push(json!({"role": role, "content": content}));
    }
}

/// The response in a reply, or the error it says.
pub(crate) fn decode(status: u16, body: &str) -> Result<ChatResponse, ProviderError> {
    if !(200..300).contains(&status) {
        let error = parse_json(body).ok().and_then(|v| error_body(&v));
        return Err(status_error(ProviderKind::OpenAi, status, body, error));
    }
    let value = parse_json(body)?;
    let Some(choice) = value.get("choices").and_then(|c| c.get(0)) else {
        if let Some(error) = error_body(&value) {
            return Err(ProviderError::Server { status, message: quote(&error.message) });
        }
        return Err(ProviderError::Malformed(format!("no `choices[0]` in the reply: {}", quote(body))));
    };
    let Some(message) = choice.get("message").filter(|m| m.is_object()) else {
        return Err(ProviderError::Malformed(format!("no `choices[0].message` in the reply: {}", quote(body))));
    };
    let calls = message.get("tool_calls").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    check_tool_calls(calls.len())?;
    let mut tool_calls = Vec::with_capacity(calls.len());
    for call in calls {
        tool_calls.push(decode_call(call)?);
    }
    let usage = value.get("usage").map_or(Usage::default(), |u| Usage {
        input_tokens: count(u, "prompt_tokens"),
        output_tokens: count(u, "completion_tokens"),
    });
    Ok(ChatResponse {
        text: text_of(message.get("content")),
        tool_calls,
        usage,
        stop_reason: choice.get("finish_reason").and_then(Value::as_str).map(str::to_string),
    })
}

/// One `tool_calls[]` entry: `arguments` is a JSON string (an object is accepted too, as some
/// compatible servers send; an empty string means no arguments).
fn decode_call(call: &Value) -> Result<ToolCall, ProviderError> {
    let function = call.get("function");
    let Some(name) = function.and_then(|f| f.get("name")).and_then(Value::as_str) else {
        return Err(ProviderError::Malformed(format!(
            "a tool call has no `function.name`: {}",
            quote(&call.to_string())
        )));
    };
    let arguments = match function.and_then(|f| f.get("arguments")) {
        None | Some(Value::Null) => json!({}),
        Some(Value::String(s)) if s.trim().is_empty() => json!({}),
        Some(Value::String(s)) => serde_json::from_str(s).map_err(|e| {
            ProviderError::Malformed(format!("the arguments of the call to `{name}` are not JSON ({e}): {}", quote(s)))
        })?,
        Some(other) => other.clone(),
    };
    let id = call.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
    Ok(ToolCall { id, name: name.to_string(), arguments })
}

/// `content` as text: a string, or the text parts of an array, concatenated; null is empty.
fn text_of(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect(),
        _ => String::new(),
    }
}

/// `{"error": {"message", "code" | "type"}}`, or `{"error": "text"}` (Ollama's native shape).
fn error_body(value: &Value) -> Option<ErrorBody> {
    let error = value.get("error")?;
    if let Some(text) = error.as_str() {
        return Some(ErrorBody { message: text.to_string(), code: None });
    }
    let message = error.get("message").and_then(Value::as_str)?.to_string();
    let code = error.get("code").or_else(|| error.get("type")).and_then(Value::as_str).map(str::to_string);
    Some(ErrorBody { message, code })
}

#[cfg(test)]
mod tests {
    use super::super::testing::conversation;
    use super::super::MAX_TOOL_CALLS;
    use super::*;

    #[test]
    fn encodes_every_kind_of_turn() {
        let body = encode(&conversation(), OpenAiOptions::default());
        let expected = json!({
            "model": "gpt-test",
            "messages": [
                {"role": "system", "content": "You are an agent."},
                {"role": "developer", "content": "Skills live in /skills."},
                {"role": "user", "content": "Fill in form.pdf"},
                {"role": "assistant", "content": "Reading the skill.", "tool_calls": [{
                    "id": "call_1", "type": "function",
                    "function": {"name": "Skill", "arguments": "{\"skill\":\"pdf\"}"},
                }]},
                {"role": "tool", "tool_call_id": "call_1", "content": "# PDF skill"},
                {"role": "user", "content": "Go on."},
            ],
            "tools": [{"type": "function", "function": {
                "name": "Skill",
                "description": "Run a skill.",
                "parameters": {"type": "object", "properties": {"skill": {"type": "string"}}, "required": ["skill"]},
            }}],
            "max_tokens": 256,
            "temperature": 0.5,
        });
        assert_eq!(body, expected);
    }

    #[test]
    fn options_rename_the_developer_role_and_the_limit() {
        let options = OpenAiOptions { developer_as_system: true, max_completion_tokens: true };
        let body = encode(&conversation(), options);
        assert_eq!(body["messages"][1], json!({"role": "system", "content": "Skills live in /skills."}));
        assert_eq!(body["max_completion_tokens"], json!(256));
        assert!(body.get("max_tokens").is_none());
    }

    #[test]
    fn a_bare_request_has_no_tools_or_temperature() {
        let mut req = conversation();
        req.tools.clear();
        req.temperature = None;
        req.system = None;
        let body = encode(&req, OpenAiOptions::default());
        assert!(body.get("tools").is_none() && body.get("temperature").is_none());
        assert_eq!(body["messages"][0]["role"], "developer");
    }

    #[test]
    fn decodes_a_tool_call() {
        let body = r#"{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":null,
            "tool_calls":[{"id":"call_9","type":"function","function":{"name":"Skill","arguments":"{\"skill\":\"pdf\"}"}}]},
            "finish_reason":"tool_calls"}],"usage":{"prompt_tokens":120,"completion_tokens":9,"total_tokens":129}}"#;
        let response = decode(200, body);
        assert_eq!(
            response,
            Ok(ChatResponse {
                text: String::new(),
                tool_calls: vec![ToolCall {
                    id: "call_9".into(),
                    name: "Skill".into(),
                    arguments: json!({"skill": "pdf"})
                }],
                usage: Usage { input_tokens: 120, output_tokens: 9 },
                stop_reason: Some("tool_calls".into()),
            })
        );
    }

    #[test]
    fn decodes_text() {
        let body = r#"{"choices":[{"message":{"role":"assistant","content":"Hello."},"finish_reason":"stop"}],
            "usage":{"prompt_tokens":5,"completion_tokens":2}}"#;
        let response = decode(200, body).ok();
        assert_eq!(response.as_ref().map(|r| r.text.as_str()), Some("Hello."));
        assert_eq!(response.as_ref().map(|r| r.usage), Some(Usage { input_tokens: 5, output_tokens: 2 }));
        assert_eq!(response.and_then(|r| r.stop_reason), Some("stop".into()));
    }

    #[test]
    fn malformed_bodies_say_what_is_wrong() {
        let not_json = decode(200, r#"{"choices":[{"mess"#);
        assert!(matches!(&not_json, Err(ProviderError::Malformed(m)) if m.contains("not JSON")), "{not_json:?}");
        let no_choices = decode(200, r#"{"id":"x"}"#);
        assert!(matches!(&no_choices, Err(ProviderError::Malformed(m)) if m.contains("choices[0]")), "{no_choices:?}");
        let bad_args = decode(
            200,
            r#"{"choices":[{"message":{"tool_calls":[{"id":"c","function":{"name":"Read","arguments":"{oops"}}]}}]}"#,
        );
        assert!(matches!(&bad_args, Err(ProviderError::Malformed(m)) if m.contains("`Read`")), "{bad_args:?}");
        let long = format!("<html>{}</html>", "x".repeat(5000));
        let Err(e) = decode(200, &long) else { panic!("html decoded") };
        assert!(e.to_string().len() < 400, "{e}");
    }

    #[test]
    fn a_reply_with_too_many_tool_calls_is_refused_whole() {
        let call = r#"{"id":"c","type":"function","function":{"name":"Skill","arguments":"{}"}}"#;
        let body = |n: usize| {
            let calls = vec![call; n].join(",");
            format!(r#"{{"choices":[{{"message":{{"role":"assistant","tool_calls":[{calls}]}}}}]}}"#)
        };
        assert_eq!(decode(200, &body(MAX_TOOL_CALLS)).map(|r| r.tool_calls.len()), Ok(MAX_TOOL_CALLS));
        let Err(e) = decode(200, &body(MAX_TOOL_CALLS + 1)) else { panic!("decoded") };
        assert_eq!(
            e.to_string(),
            "the provider's reply is too large: 129 tool calls in one reply, more than the 128 handled"
        );
    }

    #[test]
    fn decodes_error_bodies() {
        let body = r#"{"error":{"message":"The model `gpt-9` does not exist","type":"invalid_request_error","code":"model_not_found"}}"#;
        assert!(matches!(decode(404, body), Err(ProviderError::UnknownModel { .. })));
        let auth = r#"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}"#;
        let Err(e) = decode(401, auth) else { panic!("401 decoded") };
        assert_eq!(
            e.to_string(),
            "the provider refused the API key (401: Incorrect API key provided); set OPENAI_API_KEY or --api-key-env"
        );
    }
}
