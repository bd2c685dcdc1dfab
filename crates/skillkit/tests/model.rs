//! The model providers against the local mock provider, in both wire formats: what the provider
//! receives, what comes back, the retries, each error, cancellation, record and replay, and the
//! key kept out of everything.

use std::time::{Duration, Instant};

use mock_provider::{Fault, MockServer, Reply, Rule, Script, OUTPUT_TOKENS};
use serde_json::{json, Value};
use skillkit::model::{
    provider, ApiKey, Cancel, ChatRequest, Message, Provider, ProviderConfig, ProviderError, ProviderKind, Recording,
    Replay, Role, Tool, ToolCall, Usage,
};

const KINDS: [ProviderKind; 2] = [ProviderKind::OpenAi, ProviderKind::Anthropic];

/// A config for the mock: short backoff, a generous timeout.
fn config(kind: ProviderKind, server: &MockServer) -> ProviderConfig {
    let mut config = ProviderConfig::new(kind, "model-x");
    config.base_url = Some(server.base_url());
    config.retry_base = Duration::from_millis(10);
    config.timeout = Duration::from_secs(20);
    config
}

fn skill_tool() -> Tool {
    Tool {
        name: "Skill".into(),
        description: "Run a skill. Available: pdf (/home/me/skills/pdf/SKILL.md)".into(),
        parameters: json!({"type": "object", "properties": {"skill": {"type": "string"}}, "required": ["skill"]}),
    }
}

fn request(config: &ProviderConfig, user: &str) -> ChatRequest {
    config.request(Some("You are a coding agent.".into()), vec![Message::user(user)], vec![skill_tool()])
}

fn script(rules: Vec<Rule>) -> Script {
    Script { rules, default: Some(Reply::text("default reply")), ..Script::default() }
}

fn faulty(fault: Fault) -> Script {
    Script { fault: Some(fault), ..Script::always(Reply::text("after the fault")) }
}

#[test]
fn a_tool_call_round_trip() {
    let rule = Rule {
        contains: Some("fill".into()),
        replies: vec![Reply::tool("Skill", json!({"skill": "pdf"}))],
        ..Rule::default()
    };
    for kind in KINDS {
        let server = MockServer::start(script(vec![rule.clone()]));
        let mut config = config(kind, &server);
        config.api_key = Some(ApiKey::new("sk-round-trip"));
        config.temperature = Some(0.0);
        let response = provider(&config).complete(&request(&config, "fill in form.pdf"));
        let Ok(response) = response else { panic!("{kind}: {response:?}") };
        assert_eq!(response.tool_calls.len(), 1, "{kind}");
        let ToolCall { name, arguments, id } = &response.tool_calls[0];
        assert_eq!((name.as_str(), arguments), ("Skill", &json!({"skill": "pdf"})), "{kind}");
        assert!(!id.is_empty());

        let seen = server.requests();
        assert_eq!(seen.len(), 1, "{kind}");
        let body = &seen[0].body;
        assert_eq!(response.usage.input_tokens, serde_json::to_vec(body).map_or(0, |b| b.len() as u64) / 4, "{kind}");
        assert_eq!(response.usage.output_tokens, OUTPUT_TOKENS);
        assert_eq!(seen[0].header("content-type"), Some("application/json"));
        assert_eq!(body["model"], "model-x");
        assert_eq!(body["max_tokens"], 1024);
        assert_eq!(body["temperature"], json!(0.0));
        match kind {
            ProviderKind::OpenAi => {
                assert_eq!(seen[0].path, "/v1/chat/completions");
                assert_eq!(seen[0].header("authorization"), Some("***"));
                assert_eq!(response.stop_reason.as_deref(), Some("tool_calls"));
                assert_eq!(
                    body["messages"],
                    json!([
                        {"role": "system", "content": "You are a coding agent."},
                        {"role": "user", "content": "fill in form.pdf"},
                    ])
                );
                let tool = skill_tool();
                assert_eq!(
                    body["tools"],
                    json!([{"type": "function", "function": {
                        "name": tool.name, "description": tool.description, "parameters": tool.parameters,
                    }}])
                );
            }
            ProviderKind::Anthropic => {
                assert_eq!(seen[0].path, "/v1/messages");
                assert_eq!(seen[0].header("x-api-key"), Some("***"));
                assert_eq!(seen[0].header("anthropic-version"), Some("2023-06-01"));
                assert_eq!(response.stop_reason.as_deref(), Some("tool_use"));
                assert_eq!(body["system"], "You are a coding agent.");
                assert_eq!(body["messages"], json!([{"role": "user", "content": "fill in form.pdf"}]));
                let tool = skill_tool();
                assert_eq!(
                    body["tools"],
                    json!([{"name": tool.name, "description": tool.description, "input_schema": tool.parameters}])
                );
            }
        }
    }
}

#[test]
fn a_text_reply_and_a_follow_up_turn() {
    for kind in KINDS {
        let server = MockServer::start(script(Vec::new()));
        let config = config(kind, &server);
        let mut req = request(&config, "hello");
        req.messages.insert(0, Message::text(Role::Developer, "Be brief."));
        let response = provider(&config).complete(&req);
        let Ok(response) = response else { panic!("{kind}: {response:?}") };
        assert_eq!(response.text, "default reply");
        assert!(response.tool_calls.is_empty());
        assert_eq!(response.usage.output_tokens, OUTPUT_TOKENS);
        assert!(response.usage.input_tokens > 0);
        let body = &server.requests()[0].body;
        match kind {
            ProviderKind::OpenAi => {
                assert_eq!(body["messages"][1], json!({"role": "developer", "content": "Be brief."}))
            }
            ProviderKind::Anthropic => assert_eq!(body["system"], "You are a coding agent.\n\nBe brief."),
        }
    }
}

#[test]
fn a_429_with_retry_after_is_retried() {
    for kind in KINDS {
        let server = MockServer::start(faulty(Fault {
            status: Some(429),
            retry_after: Some(1),
            times: Some(1),
            ..Fault::default()
        }));
        let start = Instant::now();
        let config = config(kind, &server);
        let response = provider(&config).complete(&request(&config, "q"));
        assert_eq!(response.map(|r| r.text), Ok("after the fault".into()), "{kind}");
        assert_eq!(server.requests().len(), 2, "{kind}");
        // Retry-After: 1 was honoured, not the 10 ms backoff.
        assert!(start.elapsed() >= Duration::from_millis(900), "{kind}: {:?}", start.elapsed());
    }
}

#[test]
fn a_500_is_retried() {
    for kind in KINDS {
        let server = MockServer::start(faulty(Fault { status: Some(500), times: Some(2), ..Fault::default() }));
        let config = config(kind, &server);
        let response = provider(&config).complete(&request(&config, "q"));
        assert_eq!(response.map(|r| r.text), Ok("after the fault".into()), "{kind}");
        assert_eq!(server.requests().len(), 3, "{kind}");
    }
}

#[test]
fn retries_run_out() {
    for kind in KINDS {
        let server = MockServer::start(faulty(Fault { status: Some(429), ..Fault::default() }));
        let mut config = config(kind, &server);
        config.max_retries = 2;
        let response = provider(&config).complete(&request(&config, "q"));
        assert!(matches!(&response, Err(ProviderError::RateLimited { retries: 2, .. })), "{kind}: {response:?}");
        assert_eq!(server.requests().len(), 3, "{kind}");
    }
    for kind in KINDS {
        let server = MockServer::start(faulty(Fault { status: Some(503), ..Fault::default() }));
        let mut config = config(kind, &server);
        config.max_retries = 1;
        let response = provider(&config).complete(&request(&config, "q"));
        assert!(matches!(&response, Err(ProviderError::Server { status: 503, .. })), "{kind}: {response:?}");
        assert_eq!(server.requests().len(), 2, "{kind}");
    }
}

#[test]
fn a_401_is_an_auth_error_without_retry() {
    for kind in KINDS {
        let server = MockServer::start(Script { api_key: Some("sk-right".into()), ..script(Vec::new()) });
        let mut config = config(kind, &server);
        config.api_key = Some(ApiKey::new("sk-wrong"));
        let response = provider(&config).complete(&request(&config, "q"));
        let Err(error @ ProviderError::Auth { status: 401, .. }) = &response else { panic!("{kind}: {response:?}") };
        let message = error.to_string();
        assert!(message.starts_with("the provider refused the API key (401: "), "{message}");
        assert!(message.ends_with(&format!("; set {} or --api-key-env", kind.key_env())), "{message}");
        assert_eq!(server.requests().len(), 1, "{kind}");
        // With the right key, the same provider gets through.
        config.api_key = Some(ApiKey::new("sk-right"));
        assert!(provider(&config).complete(&request(&config, "q")).is_ok(), "{kind}");
    }
}

#[test]
fn a_404_is_an_unknown_model() {
    for kind in KINDS {
        let server = MockServer::start(faulty(Fault { status: Some(404), ..Fault::default() }));
        let mut config = config(kind, &server);
        config.model = "no-such-model".into();
        let response = provider(&config).complete(&request(&config, "q"));
        let Err(error @ ProviderError::UnknownModel { model, .. }) = &response else { panic!("{kind}: {response:?}") };
        assert_eq!(model, "no-such-model");
        assert!(error.to_string().contains("`no-such-model`"), "{error}");
        assert_eq!(server.requests().len(), 1, "{kind}");
    }
}

#[test]
fn a_slow_reply_times_out() {
    for kind in KINDS {
        let server = MockServer::start(faulty(Fault { delay_ms: Some(5_000), ..Fault::default() }));
        let mut config = config(kind, &server);
        config.timeout = Duration::from_millis(300);
        let start = Instant::now();
        let response = provider(&config).complete(&request(&config, "q"));
        assert_eq!(response, Err(ProviderError::Timeout { after: Duration::from_millis(300) }), "{kind}");
        assert!(start.elapsed() < Duration::from_secs(4), "{kind}: {:?}", start.elapsed());
        assert_eq!(server.requests().len(), 1, "{kind}: a timeout is not retried");
    }
}

#[test]
fn a_malformed_reply_is_malformed() {
    for kind in KINDS {
        let server = MockServer::start(faulty(Fault { malformed: true, ..Fault::default() }));
        let config = config(kind, &server);
        let response = provider(&config).complete(&request(&config, "q"));
        let Err(ProviderError::Malformed(what)) = &response else { panic!("{kind}: {response:?}") };
        assert!(what.contains("not JSON"), "{what}");
    }
}

#[test]
fn a_closed_port_is_unreachable() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0");
        let Ok(listener) = listener else { panic!("{listener:?}") };
        listener.local_addr().map(|a| a.port()).unwrap_or_default()
    };
    for kind in KINDS {
        let mut config = ProviderConfig::new(kind, "m");
        config.base_url = Some(format!("http://127.0.0.1:{port}/v1"));
        config.retry_base = Duration::from_millis(10);
        let response = provider(&config).complete(&request(&config, "q"));
        let Err(error @ ProviderError::Unreachable { host, .. }) = &response else { panic!("{kind}: {response:?}") };
        assert_eq!(host, &format!("127.0.0.1:{port}"));
        assert!(error.to_string().starts_with(&format!("cannot reach 127.0.0.1:{port}: ")), "{error}");
    }
}

#[test]
fn cancel_during_a_retry_wait() {
    for kind in KINDS {
        let server = MockServer::start(faulty(Fault { status: Some(429), retry_after: Some(60), ..Fault::default() }));
        let config = config(kind, &server);
        let provider = provider(&config);
        let cancel = Cancel::new();
        let canceller = {
            let cancel = cancel.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                cancel.cancel();
            })
        };
        let start = Instant::now();
        let response = provider.complete_with(&request(&config, "q"), &cancel);
        assert_eq!(response, Err(ProviderError::Cancelled), "{kind}");
        assert!(start.elapsed() < Duration::from_secs(10), "{kind}: {:?}", start.elapsed());
        assert_eq!(server.requests().len(), 1, "{kind}");
        canceller.join().ok();
        // A cancelled token stops the next request before it is sent.
        assert_eq!(provider.complete_with(&request(&config, "q"), &cancel), Err(ProviderError::Cancelled));
        assert_eq!(server.requests().len(), 1, "{kind}");
    }
}

#[test]
fn record_then_replay() {
    for kind in KINDS {
        let dir = tempfile::tempdir();
        let Ok(dir) = dir else { panic!("{dir:?}") };
        let replies = vec![Reply::tool("Skill", json!({"skill": "pdf"})), Reply::text("second")];
        let server = MockServer::start(script(vec![Rule { contains: Some("pdf".into()), replies, ..Rule::default() }]));
        let config = config(kind, &server);
        let recording = Recording::new(dir.path(), provider(&config));
        assert!(recording.describe().contains("recording to"), "{}", recording.describe());
        let first = request(&config, "a pdf task");
        let other = request(&config, "another pdf task");
        let recorded = (recording.complete(&first), recording.complete(&other));
        assert!(recorded.0.is_ok() && recorded.1.is_ok(), "{kind}: {recorded:?}");
        assert_eq!(server.requests().len(), 2);

        let replay = Replay::new(dir.path(), kind);
        let replayed = (replay.complete(&first), replay.complete(&other));
        assert_eq!(replayed, recorded, "{kind}");
        assert_eq!(server.requests().len(), 2, "{kind}: replay sent no request");
        // The same request from another config (another port, another key) replays too.
        let mut elsewhere = config.clone();
        elsewhere.base_url = Some("http://127.0.0.1:1/v1".into());
        elsewhere.api_key = Some(ApiKey::new("sk-other"));
        let fresh = Replay::new(dir.path(), kind);
        assert_eq!(fresh.complete(&request(&elsewhere, "a pdf task")), recorded.0);

        let miss = replay.complete(&request(&config, "never recorded"));
        let Err(ProviderError::Replay(message)) = &miss else { panic!("{kind}: {miss:?}") };
        assert!(message.contains("no recorded reply for this request (key "), "{message}");
        assert!(message.contains("re-run with --record"), "{message}");

        // The record holds the raw body, byte for byte, and the request as JSON.
        let files: Vec<_> = std::fs::read_dir(dir.path()).into_iter().flatten().flatten().collect();
        assert_eq!(files.len(), 2, "{kind}");
        let mut sent: Vec<Value> = server.requests().into_iter().map(|r| r.body).collect();
        let mut stored: Vec<Value> = files
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(f.path()).unwrap_or_default();
                let record: Value = serde_json::from_str(&text).unwrap_or_default();
                assert_eq!(record["responses"][0]["status"], 200);
                assert!(record["responses"][0]["body"].is_string());
                record["request"].clone()
            })
            .collect();
        let key = |v: &Value| v.to_string();
        sent.sort_by_key(key);
        stored.sort_by_key(key);
        assert_eq!(stored, sent, "{kind}");
    }
}

#[test]
fn a_changed_request_misses_the_record() {
    let dir = tempfile::tempdir();
    let Ok(dir) = dir else { panic!("{dir:?}") };
    let server = MockServer::start(script(Vec::new()));
    let config = config(ProviderKind::OpenAi, &server);
    let recorded = Recording::new(dir.path(), provider(&config)).complete(&request(&config, "q"));
    assert!(recorded.is_ok());
    let mut changed = request(&config, "q");
    changed.tools[0].description.push_str(" And docx.");
    let replay = Replay::new(dir.path(), ProviderKind::OpenAi);
    assert!(matches!(replay.complete(&changed), Err(ProviderError::Replay(_))));
    // The same request in the other wire format is another request.
    let anthropic = Replay::new(dir.path(), ProviderKind::Anthropic);
    assert!(matches!(anthropic.complete(&request(&config, "q")), Err(ProviderError::Replay(_))));
}

/// A recognisable key through every error path and the record file: it must show up nowhere.
#[test]
fn the_key_never_leaks() {
    const KEY: &str = "sk-LEAKCHECK-7f3a9c2e51";
    let echo = format!("Incorrect API key provided: {KEY}");
    let mut printed = Vec::new();
    for kind in KINDS {
        let cases = [
            (Script { api_key: Some("sk-other".into()), ..script(Vec::new()) }, "auth"),
            (faulty(Fault { status: Some(401), message: Some(echo.clone()), ..Fault::default() }), "auth echo"),
            (faulty(Fault { status: Some(404), message: Some(echo.clone()), ..Fault::default() }), "model"),
            (faulty(Fault { status: Some(400), message: Some(echo.clone()), ..Fault::default() }), "rejected"),
            (faulty(Fault { status: Some(429), message: Some(echo.clone()), ..Fault::default() }), "rate"),
            (faulty(Fault { status: Some(500), message: Some(echo.clone()), ..Fault::default() }), "server"),
            (faulty(Fault { malformed: true, ..Fault::default() }), "malformed"),
            (faulty(Fault { delay_ms: Some(2_000), ..Fault::default() }), "timeout"),
            (Script::always(Reply::text(format!("Your key is {KEY}."))), "echoed by the model"),
        ];
        for (script, case) in cases {
            let dir = tempfile::tempdir();
            let Ok(dir) = dir else { panic!("{dir:?}") };
            let server = MockServer::start(script);
            let mut config = config(kind, &server);
            config.api_key = Some(ApiKey::new(KEY));
            config.max_retries = 1;
            config.timeout = Duration::from_millis(500);
            printed.push(format!("{config:?}"));
            let recording = Recording::new(dir.path(), provider(&config));
            printed.push(recording.describe());
            let result = recording.complete(&request(&config, "q"));
            printed.push(format!("{kind} {case}: {result:?}"));
            if let Err(e) = &result {
                printed.push(e.to_string());
            }
            for file in std::fs::read_dir(dir.path()).into_iter().flatten().flatten() {
                printed.push(std::fs::read_to_string(file.path()).unwrap_or_default());
            }
            printed.push(format!("{:?}", server.requests()));
        }
        let mut config = ProviderConfig::new(kind, "m");
        config.base_url = Some("http://127.0.0.1:1/v1".into());
        config.api_key = Some(ApiKey::new(KEY));
        printed.push(format!("{:?}", provider(&config).complete(&request(&config, "q"))));
        let dir = tempfile::tempdir();
        let Ok(dir) = dir else { panic!("{dir:?}") };
        printed.push(format!("{:?}", Replay::new(dir.path(), kind).complete(&request(&config, "q"))));
    }
    let all = printed.join("\n");
    assert!(!all.contains(KEY), "the key leaked:\n{all}");
    // The paths above were taken: the redacted echo and the model's reply are there, masked.
    assert!(all.contains("Incorrect API key provided: ***"), "{all}");
    assert!(all.contains("Your key is ***."), "{all}");
    assert!(all.contains("Timeout") && all.contains("Malformed") && all.contains("Unreachable"), "{all}");
}

#[test]
fn usage_adds_up_over_a_run() {
    for kind in KINDS {
        let server = MockServer::start(script(Vec::new()));
        let config = config(kind, &server);
        let provider = provider(&config);
        let mut total = Usage::default();
        for query in ["one", "two", "three"] {
            let response = provider.complete(&request(&config, query));
            let Ok(response) = response else { panic!("{kind}: {response:?}") };
            total.input_tokens += response.usage.input_tokens;
            total.output_tokens += response.usage.output_tokens;
        }
        let expected: u64 =
            server.requests().iter().map(|r| serde_json::to_vec(&r.body).map_or(0, |b| b.len() as u64) / 4).sum();
        assert_eq!(total, Usage { input_tokens: expected, output_tokens: 3 * OUTPUT_TOKENS }, "{kind}");
    }
}

/// Reads one HTTP request (head and Content-Length body) from `stream`.
fn read_request(stream: &mut std::net::TcpStream) -> Vec<u8> {
    use std::io::Read;
    let mut data = Vec::new();
    let mut buf = [0; 4096];
    loop {
        let Ok(n) = stream.read(&mut buf) else { return data };
        if n == 0 {
            return data;
        }
        data.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&data).to_string();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_string()))
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(0);
            if body.len() >= length {
                return data;
            }
        }
    }
}

#[test]
fn a_dropped_connection_is_retried() {
    use std::io::Write;
    let listener = std::net::TcpListener::bind("127.0.0.1:0");
    let Ok(listener) = listener else { panic!("{listener:?}") };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
    let server = std::thread::spawn(move || {
        // The first connection is closed without a reply; the second gets one.
        if let Ok((mut stream, _)) = listener.accept() {
            read_request(&mut stream);
        }
        if let Ok((mut stream, _)) = listener.accept() {
            read_request(&mut stream);
            let body =
                r#"{"choices":[{"message":{"role":"assistant","content":"second try"},"finish_reason":"stop"}]}"#;
            let reply = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(reply.as_bytes());
        }
    });
    let mut config = ProviderConfig::new(ProviderKind::OpenAi, "m");
    config.base_url = Some(format!("http://127.0.0.1:{port}/v1"));
    config.retry_base = Duration::from_millis(10);
    config.timeout = Duration::from_secs(20);
    let response = provider(&config).complete(&request(&config, "q"));
    assert_eq!(response.map(|r| r.text), Ok("second try".to_string()));
    server.join().ok();
}

/// A live session (`skillkit::live`) on one skill, the model answering its one user step.
fn live_session(kind: ProviderKind, server: &MockServer, max_rounds: usize) -> skillkit::live::Live {
    let dir = tempfile::tempdir();
    let Ok(dir) = dir else { panic!("{dir:?}") };
    let skill = "---\nname: pdf\ndescription: Fills PDF forms. Use for PDF forms.\n---\n\nBody.\n";
    let file = dir.path().join("skills/pdf/SKILL.md");
    let written = std::fs::create_dir_all(dir.path().join("skills/pdf")).and_then(|()| std::fs::write(&file, skill));
    assert!(written.is_ok(), "{written:?}");
    let config = config(kind, server);
    let provider = provider(&config);
    let cancel = Cancel::new();
    let Some(agent) = skillkit::find_agent("deepagents-v2") else { panic!("no deepagents-v2") };
    let model = skillkit::live::LiveModel { provider: provider.as_ref(), config: &config, cancel: &cancel, max_rounds };
    let steps = vec![skillkit::session::Step::User { text: "Please fill the PDF form".into() }];
    let sources = [dir.path().join("skills")];
    skillkit::live::run(agent, &sources, skillkit::session::Settings::default(), steps, Some(&model))
}

fn load_pdf(times: u32) -> Reply {
    Reply { repeat: Some(times), ..Reply::tool("load_skill", json!({"skill_name": "pdf"})) }
}

/// A model reply of 10,000 tool calls (the unbounded session took 85 s and 1.9 GB on 40,000):
/// refused whole, before any call is decoded or run, with an error that says where and why.
#[test]
fn a_live_reply_with_thousands_of_tool_calls_is_refused_whole() {
    for kind in KINDS {
        let server = MockServer::start(Script::always(load_pdf(10_000)));
        let live = live_session(kind, &server, 8);
        let Some(error) = &live.error else { panic!("{kind}: no error, {} steps", live.steps.len()) };
        assert_eq!((error.step, error.reply), (0, 1), "{kind}");
        assert!(matches!(&error.error, ProviderError::TooLarge(_)), "{kind}: {error:?}");
        assert_eq!(
            error.to_string(),
            "step 1, the model's reply 1: the provider's reply is too large: \
             10000 tool calls in one reply, more than the 128 handled",
            "{kind}"
        );
        assert_eq!(live.steps.len(), 1, "{kind}: only the user's step, none of the calls");
        assert_eq!(live.session.turns.len(), 1, "{kind}: no call ran");
        assert!(live.session.loaded.is_empty(), "{kind}");
        assert_eq!(server.requests().len(), 1, "{kind}: not asked again");
    }
}

/// Up to the limit, every call of a reply runs.
#[test]
fn a_live_reply_with_the_most_tool_calls_allowed_runs_them_all() {
    let server = MockServer::start(Script::always(load_pdf(skillkit::model::MAX_TOOL_CALLS as u32)));
    let live = live_session(ProviderKind::OpenAi, &server, 1);
    assert!(live.error.is_none(), "{:?}", live.error);
    let Some(skillkit::session::Step::Model { calls, .. }) = live.steps.get(1) else { panic!("{:?}", live.steps) };
    assert_eq!(calls.len(), skillkit::model::MAX_TOOL_CALLS);
    assert_eq!(live.session.turns.len(), 2 + skillkit::model::MAX_TOOL_CALLS, "the user, the reply, each call");
}

/// A reply body over the limit is refused once that much has come, without reading the rest.
#[test]
fn a_reply_body_over_the_limit_is_refused() {
    let limit = skillkit::model::MAX_REPLY_BYTES as usize;
    let server = MockServer::start(Script::always(Reply::text("x".repeat(limit + 1))));
    let config = config(ProviderKind::Anthropic, &server);
    let result = provider(&config).complete(&request(&config, "q"));
    let Err(ProviderError::TooLarge(what)) = &result else { panic!("{:?}", result.map(|r| r.text.len())) };
    assert!(what.contains("larger than 16777216 bytes"), "{what}");
}

/// Every string in `value`, strings that hold JSON opened too (a tool call's `arguments`), each
/// also percent-decoded: the texts a reader of a record file could recover.
fn decoded_strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => {
            if let Ok(inner) = serde_json::from_str::<Value>(s) {
                if inner.is_object() || inner.is_array() || inner.is_string() {
                    decoded_strings(&inner, out);
                }
            }
            let mut bytes = vec![];
            let mut rest = s.as_bytes();
            while let Some((&b, tail)) = rest.split_first() {
                let hex = tail.get(..2).and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
                match (b, hex) {
                    (b'%', Some(h)) => {
                        bytes.push(h);
                        rest = &tail[2..];
                    }
                    _ => {
                        bytes.push(b);
                        rest = tail;
                    }
                }
            }
            out.push(String::from_utf8_lossy(&bytes).into_owned());
            out.push(s.clone());
        }
        Value::Array(items) => items.iter().for_each(|v| decoded_strings(v, out)),
        Value::Object(map) => map.iter().for_each(|(k, v)| {
            decoded_strings(&Value::String(k.clone()), out);
            decoded_strings(v, out);
        }),
        _ => {}
    }
}

/// A provider echoing the key JSON-escaped (`\u002d`, `\/`) or percent-encoded, in text, in a
/// tool call's arguments: the record store holds it in none of those forms.
#[test]
fn the_key_reaches_no_record_escaped_or_encoded() {
    const KEY: &str = "sk-LEAK/CHECK-7f3a9c2e51";
    let pct_upper = KEY.replace('-', "%2D").replace('/', "%2F");
    let pct_lower = KEY.replace('/', "%2f");
    let escaped = |r: Reply| Reply { escaped: true, ..r };
    let replies = [
        escaped(Reply::text(format!("Your key is {KEY}."))),
        Reply::text(format!("Open https://x.test/?key={pct_upper}&k2={pct_lower}")),
        escaped(Reply::text(format!("Open https://x.test/?key={pct_upper}"))),
        escaped(Reply::tool("Skill", json!({"skill": KEY}))),
        Reply::tool(
            "Skill",
            json!({"skill": pct_lower, "again": serde_json::Map::from_iter([(KEY.into(), json!([KEY]))])}),
        ),
    ];
    for kind in KINDS {
        for (n, reply) in replies.iter().enumerate() {
            let dir = tempfile::tempdir();
            let Ok(dir) = dir else { panic!("{dir:?}") };
            let server = MockServer::start(Script::always(reply.clone()));
            let mut config = config(kind, &server);
            config.api_key = Some(ApiKey::new(KEY));
            let response = Recording::new(dir.path(), provider(&config)).complete(&request(&config, "q"));
            let Ok(response) = response else { panic!("{kind} {n}: {response:?}") };
            let said = format!("{} {:?}", response.text, response.tool_calls);
            assert!(said.contains("***") && !said.contains(KEY), "{kind} {n}: {said}");
            let files: Vec<_> = std::fs::read_dir(dir.path()).into_iter().flatten().flatten().collect();
            assert_eq!(files.len(), 1, "{kind} {n}");
            let text = std::fs::read_to_string(files[0].path()).unwrap_or_default();
            let record: Value = serde_json::from_str(&text).unwrap_or_default();
            let mut seen = vec![text.clone()];
            decoded_strings(&record, &mut seen);
            let body = record["responses"][0]["body"].as_str().unwrap_or_default().to_string();
            assert!(body.contains("***"), "{kind} {n}: {body}");
            for s in &seen {
                for form in [KEY, &pct_upper, &pct_lower, "sk\\u002dLEAK\\/CHECK", "sk\\\\u002dLEAK\\\\/CHECK"] {
                    assert!(!s.contains(form), "{kind} {n}: the key, as {form}, in the record:\n{text}");
                }
            }
        }
    }
}
