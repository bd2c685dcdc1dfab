//! The request and reply bodies of the two APIs (OpenAI Chat Completions, Anthropic Messages),
//! from the server's side: what a request body asks, and the reply and error bodies each provider
//! sends.

use serde_json::{json, Value};

/// Which API a request came in on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// `POST /v1/chat/completions`.
    OpenAi,
    /// `POST /v1/messages`.
    Anthropic,
}

/// What the mock needs from a request body.
pub(crate) struct Asked {
    pub model: String,
    /// The text of the last user message that has text.
    pub user_text: String,
    /// System and developer text, then tool descriptions, in order.
    pub context: Vec<String>,
    pub tools: Vec<String>,
}

/// Output tokens reported for every reply.
pub const OUTPUT_TOKENS: u64 = 10;

impl Api {
    /// The API served at `path`.
    pub(crate) fn for_path(path: &str) -> Option<Api> {
        match path.split('?').next().unwrap_or(path) {
            "/v1/chat/completions" => Some(Api::OpenAi),
            "/v1/messages" => Some(Api::Anthropic),
            _ => None,
        }
    }

    /// Whether `headers` carry `key` where this API wants it.
    pub(crate) fn has_key(self, headers: &[(String, String)], key: &str) -> bool {
        let header = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        match self {
            Api::OpenAi => header("authorization").and_then(|v| v.strip_prefix("Bearer ")) == Some(key),
            Api::Anthropic => header("x-api-key") == Some(key),
        }
    }

    /// The fields of a request body the mock answers from.
    pub(crate) fn asked(self, body: &Value) -> Asked {
        let model = body.get("model").and_then(Value::as_str).unwrap_or_default().to_string();
        let messages = body.get("messages").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        let mut context = Vec::new();
        let mut user_text = String::new();
        let tools = body.get("tools").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        let mut names = Vec::new();
        match self {
            Api::OpenAi => {
                for message in messages {
                    let text = texts(message.get("content"));
                    match message.get("role").and_then(Value::as_str) {
                        Some("system" | "developer") => context.push(text),
                        Some("user") if !text.is_empty() => user_text = text,
                        _ => {}
                    }
                }
                for tool in tools {
                    let function = tool.get("function");
                    names.extend(function.and_then(|f| f.get("name")).and_then(Value::as_str).map(str::to_string));
                    context.extend(
                        function.and_then(|f| f.get("description")).and_then(Value::as_str).map(str::to_string),
                    );
                }
            }
            Api::Anthropic => {
                context.push(texts(body.get("system")));
                for message in messages {
                    let text = texts(message.get("content"));
                    if message.get("role").and_then(Value::as_str) == Some("user") && !text.is_empty() {
                        user_text = text;
                    }
                }
                for tool in tools {
                    names.extend(tool.get("name").and_then(Value::as_str).map(str::to_string));
                    context.extend(tool.get("description").and_then(Value::as_str).map(str::to_string));
                }
            }
        }
        Asked { model, user_text, context, tools: names }
    }

    /// A 200 body: `text` and/or `times` calls of `tool` with `arguments`.
    pub(crate) fn reply(
        self,
        n: u64,
        model: &str,
        text: Option<&str>,
        call: Option<(&str, &Value, usize)>,
        input_tokens: u64,
    ) -> Value {
        // The first call's id is the reply's number; more calls add `_2`, `_3`, ….
        let id = |i: usize| if i == 0 { n.to_string() } else { format!("{n}_{}", i + 1) };
        match self {
            Api::OpenAi => {
                let mut message = json!({"role": "assistant", "content": text});
                if let Some((name, arguments, times)) = call {
                    let calls = (0..times).map(|i| {
                        json!({
                            "id": format!("call_mock_{}", id(i)),
                            "type": "function",
                            "function": {"name": name, "arguments": arguments.to_string()},
                        })
                    });
                    message["tool_calls"] = Value::Array(calls.collect());
                }
                json!({
                    "id": format!("chatcmpl-mock-{n}"),
                    "object": "chat.completion",
                    "created": 0,
                    "model": model,
                    "choices": [{
                        "index": 0,
                        "message": message,
                        "finish_reason": if call.is_some() { "tool_calls" } else { "stop" },
                    }],
                    "usage": {
                        "prompt_tokens": input_tokens,
                        "completion_tokens": OUTPUT_TOKENS,
                        "total_tokens": input_tokens + OUTPUT_TOKENS,
                    },
                })
            }
            Api::Anthropic => {
                let mut content: Vec<Value> = text.map(|t| json!({"type": "text", "text": t})).into_iter().collect();
                if let Some((name, arguments, times)) = call {
                    content.extend((0..times).map(|i| {
                        json!({"type": "tool_use", "id": format!("toolu_mock_{}", id(i)), "name": name, "input": arguments})
                    }));
                }
                json!({
                    "id": format!("msg_mock_{n}"),
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": content,
                    "stop_reason": if call.is_some() { "tool_use" } else { "end_turn" },
                    "stop_sequence": null,
                    "usage": {"input_tokens": input_tokens, "output_tokens": OUTPUT_TOKENS},
                })
            }
        }
    }

    /// The provider's error body for `status` (with `message`, or the provider's usual words).
    pub(crate) fn error(self, status: u16, message: Option<&str>, model: &str) -> Value {
        let (kind, usual) = match (self, status) {
            (Api::OpenAi, 401) => ("invalid_api_key", "Incorrect API key provided: sk-***. You can find your API key at https://platform.openai.com/account/api-keys.".to_string()),
            (Api::OpenAi, 404) => ("model_not_found", format!("The model `{model}` does not exist or you do not have access to it.")),
            (Api::OpenAi, 429) => ("rate_limit_exceeded", "Rate limit reached for requests. Please try again later.".into()),
            (Api::OpenAi, 500..=599) => ("server_error", "The server had an error while processing your request. Sorry about that!".into()),
            (Api::OpenAi, _) => ("invalid_request_error", "Invalid request.".into()),
            (Api::Anthropic, 401) => ("authentication_error", "invalid x-api-key".into()),
            (Api::Anthropic, 403) => ("permission_error", "Your API key does not have permission to use the specified resource.".into()),
            (Api::Anthropic, 404) => ("not_found_error", format!("model: {model}")),
            (Api::Anthropic, 429) => ("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit.".into()),
            (Api::Anthropic, 529) => ("overloaded_error", "Overloaded".into()),
            (Api::Anthropic, 500..=599) => ("api_error", "Internal server error".into()),
            (Api::Anthropic, _) => ("invalid_request_error", "Invalid request.".into()),
        };
        let message = message.map_or(usual, str::to_string);
        match self {
            Api::OpenAi => {
                let kind_of_error = if status >= 500 { "server_error" } else { "invalid_request_error" };
                json!({"error": {"message": message, "type": kind_of_error, "param": null, "code": kind}})
            }
            Api::Anthropic => json!({"type": "error", "error": {"type": kind, "message": message}}),
        }
    }
}

/// `value` as JSON text with every character of its strings (and keys) but ASCII letters, digits
/// and spaces escaped: `\/` for `/`, `\u00XX` (UTF-16 units) for the others.
pub(crate) fn escaped(value: &Value) -> String {
    let string = |s: &str| {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                c if c.is_ascii_alphanumeric() || c == ' ' => out.push(c),
                '/' => out.push_str("\\/"),
                c => c.encode_utf16(&mut [0; 2]).iter().for_each(|u| out.push_str(&format!("\\u{u:04x}"))),
            }
        }
        out.push('"');
        out
    };
    match value {
        Value::String(s) => string(s),
        Value::Array(items) => format!("[{}]", items.iter().map(escaped).collect::<Vec<_>>().join(",")),
        Value::Object(map) => {
            let entries: Vec<String> = map.iter().map(|(k, v)| format!("{}:{}", string(k), escaped(v))).collect();
            format!("{{{}}}", entries.join(","))
        }
        other => other.to_string(),
    }
}

/// A message's text: a string, or its text blocks joined by newlines.
fn texts(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// `{{path:SKILL}}` in every string of `value` replaced by the first path ending in
/// `/SKILL/SKILL.md` (or `\SKILL\SKILL.md`) in `context`.
pub(crate) fn fill_paths(value: &Value, context: &[String]) -> Value {
    match value {
        Value::String(s) => Value::String(fill_string(s, context)),
        Value::Array(items) => Value::Array(items.iter().map(|v| fill_paths(v, context)).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), fill_paths(v, context))).collect()),
        other => other.clone(),
    }
}

fn fill_string(s: &str, context: &[String]) -> String {
    const OPEN: &str = "{{path:";
    let mut out = String::new();
    let mut rest = s;
    while let Some(start) = rest.find(OPEN) {
        let after = &rest[start + OPEN.len()..];
        let Some(end) = after.find("}}") else { break };
        let skill = &after[..end];
        out.push_str(&rest[..start]);
        match context.iter().find_map(|text| skill_path(text, skill)) {
            Some(path) => out.push_str(path),
            None => out.push_str(&rest[start..start + OPEN.len() + end + 2]),
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

/// The first path in `text` that ends in `/SKILL/SKILL.md` (either separator).
fn skill_path<'t>(text: &'t str, skill: &str) -> Option<&'t str> {
    let needles = [format!("/{skill}/SKILL.md"), format!("\\{skill}\\SKILL.md")];
    let mut best: Option<&'t str> = None;
    let mut best_start = usize::MAX;
    for needle in &needles {
        let mut from = 0;
        while let Some(at) = text[from..].find(needle.as_str()).map(|i| i + from) {
            let end = at + needle.len();
            from = at + 1;
            if text[end..].chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let start = text[..at]
                .char_indices()
                .rev()
                .find(|(_, c)| c.is_whitespace() || "\"'`<>()[]{},;=".contains(*c))
                .map_or(0, |(i, c)| i + c.len_utf8());
            if start < best_start {
                best_start = start;
                best = Some(&text[start..end]);
            }
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_found_in_context() {
        let context = vec![
            "Skills:\n- pdf: forms (file: /home/u/.claude/skills/pdf/SKILL.md)".to_string(),
            "<location>C:\\skills\\docx\\SKILL.md</location>".to_string(),
        ];
        let args = json!({"file_path": "{{path:pdf}}", "other": ["x {{path:docx}} y", "{{path:none}}"]});
        assert_eq!(
            fill_paths(&args, &context),
            json!({"file_path": "/home/u/.claude/skills/pdf/SKILL.md", "other": ["x C:\\skills\\docx\\SKILL.md y", "{{path:none}}"]})
        );
    }

    #[test]
    fn a_longer_name_is_not_a_match() {
        assert_eq!(skill_path("/a/xpdf/SKILL.md and /b/pdf/SKILL.mdx", "pdf"), None);
        assert_eq!(skill_path("see `/b/pdf/SKILL.md`.", "pdf"), Some("/b/pdf/SKILL.md"));
    }

    #[test]
    fn the_last_user_text_is_read_in_both_formats() {
        let openai = json!({"model": "m", "messages": [
            {"role": "system", "content": "sys"},
            {"role": "user", "content": "first"},
            {"role": "user", "content": [{"type": "text", "text": "second"}]},
            {"role": "tool", "tool_call_id": "c", "content": "out"},
        ], "tools": [{"type": "function", "function": {"name": "Skill", "description": "d"}}]});
        let asked = Api::OpenAi.asked(&openai);
        assert_eq!(
            (asked.user_text.as_str(), asked.tools.clone(), asked.context.clone()),
            ("second", vec!["Skill".to_string()], vec!["sys".to_string(), "d".to_string()])
        );
        let anthropic = json!({"model": "m", "system": "sys", "messages": [
            {"role": "user", "content": "ask"},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x"}]},
        ]});
        assert_eq!(Api::Anthropic.asked(&anthropic).user_text, "ask");
    }
}
