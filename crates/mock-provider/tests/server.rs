//! The mock over real sockets, with a minimal HTTP client of its own (the mock has no client
//! dependency): both APIs, the reply cycles, faults, the key, the record of requests, the binary.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use mock_provider::{Fault, MockServer, Options, Reply, Rule, Script, EXAMPLE, OUTPUT_TOKENS};
use serde_json::{json, Value};

/// A reply as the test client read it.
struct Got {
    status: u16,
    headers: String,
    body: String,
}

impl Got {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// POSTs `body` to `path` on the server at `port` with extra `headers`.
fn post(port: u16, path: &str, headers: &[(&str, &str)], body: &str) -> Got {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(20))).expect("timeout");
    let mut head = format!("POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("content-length: {}\r\n\r\n", body.len()));
    stream.write_all(head.as_bytes()).expect("write");
    stream.write_all(body.as_bytes()).expect("write");
    let mut raw = String::new();
    stream.read_to_string(&mut raw).expect("read");
    let (head, body) = raw.split_once("\r\n\r\n").expect("a head");
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).expect("a status");
    Got { status, headers: head.to_lowercase(), body: body.to_string() }
}

fn openai(user: &str, tools: &[&str]) -> String {
    let tools: Vec<Value> = tools
        .iter()
        .map(|t| json!({"type": "function", "function": {"name": t, "description": "Skills: /s/pdf/SKILL.md", "parameters": {}}}))
        .collect();
    json!({"model": "gpt-mock", "messages": [
        {"role": "system", "content": "You are an agent."},
        {"role": "user", "content": user},
    ], "tools": tools, "max_tokens": 100})
    .to_string()
}

fn anthropic(user: &str, tools: &[&str]) -> String {
    let tools: Vec<Value> = tools.iter().map(|t| json!({"name": t, "description": "", "input_schema": {}})).collect();
    json!({"model": "claude-mock", "max_tokens": 100,
        "system": "Skills:\n- pdf: forms. Location: /home/me/skills/pdf/SKILL.md",
        "messages": [{"role": "user", "content": [{"type": "text", "text": user}]}], "tools": tools})
    .to_string()
}

fn rule(contains: &str, replies: Vec<Reply>) -> Rule {
    Rule { contains: Some(contains.into()), replies, ..Rule::default() }
}

#[test]
fn openai_text_reply_with_usage() {
    let server = MockServer::start(Script::always(Reply::text("Hello.")));
    let body = openai("hi", &[]);
    let got = post(server.port(), "/v1/chat/completions", &[], &body);
    assert_eq!(got.status, 200, "{}", got.body);
    let reply = got.json();
    assert_eq!(reply["choices"][0]["message"]["content"], "Hello.");
    assert_eq!(reply["choices"][0]["finish_reason"], "stop");
    assert_eq!(reply["usage"]["prompt_tokens"], json!(body.len() / 4));
    assert_eq!(reply["usage"]["completion_tokens"], json!(OUTPUT_TOKENS));
    assert_eq!(reply["model"], "gpt-mock");
    let seen = server.requests();
    assert_eq!(seen.len(), 1);
    assert_eq!((seen[0].method.as_str(), seen[0].path.as_str()), ("POST", "/v1/chat/completions"));
    assert_eq!(seen[0].body, serde_json::from_str::<Value>(&body).expect("json"));
}

#[test]
fn anthropic_tool_call_fills_in_the_skill_path() {
    let reply = Reply { text: Some("Reading it.".into()), ..Reply::tool("Read", json!({"file_path": "{{path:pdf}}"})) };
    let server = MockServer::start(Script::always(reply));
    let got = post(server.port(), "/v1/messages", &[], &anthropic("fill the form", &["Read"]));
    assert_eq!(got.status, 200, "{}", got.body);
    let reply = got.json();
    assert_eq!(reply["content"][0], json!({"type": "text", "text": "Reading it."}));
    assert_eq!(reply["content"][1]["type"], "tool_use");
    assert_eq!(reply["content"][1]["name"], "Read");
    assert_eq!(reply["content"][1]["input"], json!({"file_path": "/home/me/skills/pdf/SKILL.md"}));
    assert_eq!(reply["stop_reason"], "tool_use");
    assert_eq!(reply["usage"]["output_tokens"], json!(OUTPUT_TOKENS));
}

#[test]
fn openai_tool_call_arguments_are_a_string() {
    let server = MockServer::start(Script::always(Reply::tool("Skill", json!({"skill": "pdf"}))));
    let reply = post(server.port(), "/v1/chat/completions", &[], &openai("q", &["Skill"])).json();
    let call = &reply["choices"][0]["message"]["tool_calls"][0];
    assert_eq!(call["function"]["name"], "Skill");
    assert_eq!(call["function"]["arguments"], json!("{\"skill\":\"pdf\"}"));
    assert_eq!(reply["choices"][0]["finish_reason"], "tool_calls");
    assert_eq!(reply["choices"][0]["message"]["content"], Value::Null);
}

#[test]
fn a_tool_not_offered_is_not_called() {
    let server = MockServer::start(Script::always(Reply::tool("Skill", json!({}))));
    let reply = post(server.port(), "/v1/messages", &[], &anthropic("q", &["Read"])).json();
    assert_eq!(reply["content"], json!([{"type": "text", "text": "no such tool"}]));
    assert_eq!(reply["stop_reason"], "end_turn");
}

#[test]
fn replies_cycle_per_query_even_when_concurrent() {
    let replies = vec![
        Reply::tool("Skill", json!({"skill": "pdf"})),
        Reply::tool("Skill", json!({"skill": "pdf"})),
        Reply::text("no"),
    ];
    let script = Script { rules: vec![rule("pdf", replies)], ..Script::default() };
    let server = MockServer::start(script);
    let port = server.port();
    let threads: Vec<_> = (0..3)
        .map(|_| {
            std::thread::spawn(move || post(port, "/v1/messages", &[], &anthropic("a pdf task", &["Skill"])).json())
        })
        .collect();
    let mut kinds: Vec<String> = threads
        .into_iter()
        .map(|t| t.join().expect("thread")["stop_reason"].as_str().unwrap_or_default().to_string())
        .collect();
    kinds.sort();
    assert_eq!(kinds, ["end_turn", "tool_use", "tool_use"]);
    // Another query text has a cycle of its own, starting at the first reply.
    let other = post(port, "/v1/messages", &[], &anthropic("another pdf task", &["Skill"])).json();
    assert_eq!(other["stop_reason"], "tool_use");
}

#[test]
fn rules_match_in_order_with_regex_and_default() {
    let script = Script {
        rules: vec![
            Rule { regex: Some("(?i)^WORD".into()), replies: vec![Reply::text("regex")], ..Rule::default() },
            rule("word", vec![Reply::text("contains")]),
        ],
        default: Some(Reply::text("default")),
        ..Script::default()
    };
    let server = MockServer::start(script);
    let text = |q: &str| {
        post(server.port(), "/v1/chat/completions", &[], &openai(q, &[])).json()["choices"][0]["message"]["content"]
            .clone()
    };
    assert_eq!(text("word first"), "regex");
    assert_eq!(text("a word"), "contains");
    assert_eq!(text("nothing"), "default");
}

#[test]
fn an_unmatched_request_is_a_400_and_an_unknown_path_a_404() {
    let server = MockServer::start(Script { rules: vec![rule("x", vec![Reply::text("x")])], ..Script::default() });
    let got = post(server.port(), "/v1/messages", &[], &anthropic("nothing", &[]));
    assert_eq!(got.status, 400);
    assert!(got.json()["error"]["message"].as_str().is_some_and(|m| m.contains("no rule matches")), "{}", got.body);
    assert_eq!(post(server.port(), "/v2/other", &[], "{}").status, 404);
}

#[test]
fn the_key_is_checked_and_never_recorded() {
    let script = Script { api_key: Some("sk-right".into()), ..Script::always(Reply::text("ok")) };
    let server = MockServer::start(script);
    let wrong = post(server.port(), "/v1/chat/completions", &[("Authorization", "Bearer sk-wrong")], &openai("q", &[]));
    assert_eq!(wrong.status, 401);
    assert_eq!(wrong.json()["error"]["code"], "invalid_api_key");
    let right = post(server.port(), "/v1/chat/completions", &[("Authorization", "Bearer sk-right")], &openai("q", &[]));
    assert_eq!(right.status, 200);
    let anthropic_wrong = post(server.port(), "/v1/messages", &[("x-api-key", "sk-wrong")], &anthropic("q", &[]));
    assert_eq!(anthropic_wrong.json()["error"]["type"], "authentication_error");
    assert_eq!(post(server.port(), "/v1/messages", &[("x-api-key", "sk-right")], &anthropic("q", &[])).status, 200);
    let seen = format!("{:?}", server.requests());
    assert!(!seen.contains("sk-right") && !seen.contains("sk-wrong"), "{seen}");
    assert_eq!(server.requests()[0].header("authorization"), Some("***"));
}

#[test]
fn a_fault_with_times_applies_to_the_first_requests_only() {
    let fault = Fault { status: Some(429), retry_after: Some(1), times: Some(1), ..Fault::default() };
    let script = Script {
        rules: vec![Rule { fault: Some(fault), ..rule("q", vec![Reply::text("a"), Reply::text("b")]) }],
        ..Script::default()
    };
    let server = MockServer::start(script);
    let first = post(server.port(), "/v1/chat/completions", &[], &openai("q", &[]));
    assert_eq!(first.status, 429);
    assert!(first.headers.contains("retry-after: 1"), "{}", first.headers);
    assert_eq!(first.json()["error"]["code"], "rate_limit_exceeded");
    // The fault did not move the cycle: the retry gets the first reply.
    let second = post(server.port(), "/v1/chat/completions", &[], &openai("q", &[]));
    assert_eq!(second.json()["choices"][0]["message"]["content"], "a");
}

#[test]
fn status_faults_use_each_providers_error_body() {
    for (status, openai_code, anthropic_type) in [
        (401, "invalid_api_key", "authentication_error"),
        (404, "model_not_found", "not_found_error"),
        (500, "server_error", "api_error"),
        (529, "server_error", "overloaded_error"),
    ] {
        let script = Script {
            fault: Some(Fault { status: Some(status), ..Fault::default() }),
            ..Script::always(Reply::text("x"))
        };
        let server = MockServer::start(script);
        let o = post(server.port(), "/v1/chat/completions", &[], &openai("q", &[]));
        assert_eq!((o.status, o.json()["error"]["code"].clone()), (status, json!(openai_code)));
        let a = post(server.port(), "/v1/messages", &[], &anthropic("q", &[]));
        assert_eq!((a.status, a.json()["error"]["type"].clone()), (status, json!(anthropic_type)));
    }
    let script =
        Script { fault: Some(Fault { status: Some(404), ..Fault::default() }), ..Script::always(Reply::text("x")) };
    let server = MockServer::start(script);
    let o = post(server.port(), "/v1/chat/completions", &[], &openai("q", &[])).json();
    assert_eq!(o["error"]["message"], "The model `gpt-mock` does not exist or you do not have access to it.");
}

#[test]
fn malformed_cuts_the_body_and_delay_waits() {
    let script = Script {
        fault: Some(Fault { malformed: true, delay_ms: Some(200), ..Fault::default() }),
        ..Script::always(Reply::text("x"))
    };
    let server = MockServer::start(script);
    let start = std::time::Instant::now();
    let got = post(server.port(), "/v1/messages", &[], &anthropic("q", &[]));
    assert!(start.elapsed() >= Duration::from_millis(200));
    assert_eq!(got.status, 200);
    assert!(serde_json::from_str::<Value>(&got.body).is_err(), "{}", got.body);
    assert!(got.body.starts_with('{'));
}

#[test]
fn the_log_gets_a_json_line_per_request() {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("requests.jsonl");
    let options = Options { log: Some(log.clone()), ..Options::default() };
    let server = MockServer::try_start(Script::always(Reply::text("x")), options).expect("start");
    post(server.port(), "/v1/messages", &[("x-api-key", "sk-secret")], &anthropic("one", &[]));
    post(server.port(), "/v1/messages", &[], &anthropic("two", &[]));
    let text = std::fs::read_to_string(&log).expect("log");
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["body"]["messages"][0]["content"][0]["text"], "two");
    assert!(!text.contains("sk-secret"));
}

/// Kills the child process when dropped, so a failed assertion leaves no server behind.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_binary_prints_its_address_and_serves_the_example() {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("script.json");
    std::fs::write(&script, EXAMPLE).expect("write");
    let mut child = Killed(
        Command::new(env!("CARGO_BIN_EXE_mock-provider"))
            .arg("--script")
            .arg(&script)
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn"),
    );
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().expect("stdout")).read_line(&mut line).expect("a first line");
    let port: u16 = line
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .and_then(|r| r.strip_suffix("/v1"))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("first line: {line:?}"));
    let body = openai("please fill the PDF form", &["Skill"]);
    let got = post(port, "/v1/chat/completions", &[("authorization", "Bearer sk-mock")], &body);
    assert_eq!(got.status, 200, "{}", got.body);
    assert_eq!(got.json()["choices"][0]["message"]["content"], "I'll use the pdf skill.");
    let refused = post(port, "/v1/chat/completions", &[], &body);
    assert_eq!(refused.status, 401);
}

#[test]
fn the_binary_explains_a_bad_script() {
    let output = Command::new(env!("CARGO_BIN_EXE_mock-provider"))
        .args(["--script", "/nonexistent/script.json"])
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot read the script"));
}
