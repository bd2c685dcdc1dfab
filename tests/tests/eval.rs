//! `skillkit eval` against the mock provider (`crates/mock-provider`), for every agent profile
//! with a skill tool and both wire formats: the counts are exactly what the mock's script
//! implies, the model is sent exactly what `skillkit prompt` renders with the agent's skill
//! tools, record → replay is byte-identical, a 429 is retried, and failures exit 2.

use e2e::{skillkit, write_tree};
use mock_provider::{Fault, MockServer, Reply, Rule, Script};
use serde_json::{json, Value};
use std::path::Path;

/// Agents with a skill tool, with the call that activates skill `{{S}}` under each.
const AGENTS: &[(&str, &str, &str)] = &[
    ("claude-code", "Skill", r#"{"skill": "S"}"#),
    ("gemini-cli", "activate_skill", r#"{"name": "S"}"#),
    ("deepagents", "read_file", r#"{"file_path": "{{path:S}}"}"#),
    ("deepagents-v1", "read_file", r#"{"file_path": "{{path:S}}"}"#),
    ("deepagents-v2", "load_skill", r#"{"skill_name": "S"}"#),
    ("codex", "exec_command", r#"{"cmd": "sed -n '1,200p' {{path:S}}"}"#),
    ("harness9", "use_skill", r#"{"skill_name": "S"}"#),
    ("copilot-cli", "skill", r#"{"skill": "S"}"#),
    ("opencode", "skill", r#"{"name": "S"}"#),
    ("cline", "skills", r#"{"skill": "S", "args": null}"#),
    ("qwen-code", "skill", r#"{"skill": "S"}"#),
    ("letta-code", "Skill", r#"{"skill": "S"}"#),
    ("kimi-cli", "ReadFile", r#"{"path": "{{path:S}}"}"#),
    ("mistral-vibe", "skill", r#"{"name": "S"}"#),
];

fn library(root: &Path) {
    let skill = |name: &str, what: &str| {
        format!("---\nname: {name}\ndescription: {what} Use when the user asks about {name} files.\n---\n\n# {name}\n\nSteps.\n")
    };
    let (pdf, csv, notes) = (
        skill("pdf", "Extracts text and tables from PDF files."),
        skill("csv", "Turns CSV files into Markdown tables."),
        skill("notes", "Writes meeting notes from a transcript."),
    );
    write_tree(
        root,
        &[
            ("skills/pdf/SKILL.md", pdf.as_bytes()),
            ("skills/csv/SKILL.md", csv.as_bytes()),
            ("skills/notes/SKILL.md", notes.as_bytes()),
            (
                "evals.yaml",
                b"sources: [skills]\ncases:\n  - id: pdf-tables\n    query: Pull the tables out of report.pdf\n    expect: pdf\n  - id: csv-table\n    query: Make a table from data.csv\n    expect: csv\n  - id: weather\n    query: What is the weather like?\n    expect: none\n  - id: notes\n    query: Summarise this meeting transcript\n    expect: notes\n",
            ),
        ],
    );
}

fn rule(contains: &str, replies: Vec<Reply>) -> Rule {
    Rule { contains: Some(contains.into()), replies, ..Rule::default() }
}

fn call(agent: usize, skill: &str) -> Reply {
    let (_, tool, args) = AGENTS[agent];
    Reply::tool(tool, serde_json::from_str(&args.replace('S', skill)).unwrap())
}

/// pdf: activated 2 of 3 times; csv: always; weather: never; notes: csv takes it twice.
fn script(agent: usize) -> Script {
    Script {
        rules: vec![
            rule("report.pdf", vec![call(agent, "pdf"), Reply::text("Sure."), call(agent, "pdf")]),
            rule("data.csv", vec![call(agent, "csv")]),
            rule("weather", vec![Reply::text("Sunny.")]),
            rule("transcript", vec![call(agent, "csv"), call(agent, "notes"), call(agent, "csv")]),
        ],
        ..Script::default()
    }
}

fn eval(root: &Path, agent: &str, api: &str, base: &str, extra: &[&str]) -> e2e::Output {
    let suite = root.join("evals.yaml");
    let mut args = vec![
        "eval",
        suite.to_str().unwrap(),
        "--agent",
        agent,
        "--provider",
        api,
        "--base-url",
        base,
        "--model",
        "test-model",
    ];
    if !extra.contains(&"--format") {
        args.extend_from_slice(&["--format", "json"]);
    }
    args.extend_from_slice(extra);
    skillkit(&args)
}

fn counts(v: &Value) -> Vec<(String, Value)> {
    v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["id"].as_str().unwrap().to_string(), c["activated"].clone()))
        .collect()
}

#[test]
fn every_agent_on_both_wire_formats_gives_the_counts_the_script_implies() {
    for (i, (agent, tool, _)) in AGENTS.iter().enumerate() {
        for api in ["openai", "anthropic"] {
            let tmp = tempfile::tempdir().unwrap();
            library(tmp.path());
            let server = MockServer::start(script(i));
            let out = eval(tmp.path(), agent, api, &server.base_url(), &["--concurrency", "3"]);
            assert_eq!(out.code, 0, "{agent} {api}: {}", out.stderr);
            let v: Value = serde_json::from_str(&out.stdout).unwrap();
            assert_eq!(
                counts(&v),
                vec![
                    ("pdf-tables".into(), json!({"pdf": 2, "none": 1})),
                    ("csv-table".into(), json!({"csv": 3})),
                    ("weather".into(), json!({"none": 3})),
                    ("notes".into(), json!({"csv": 2, "notes": 1})),
                ],
                "{agent} {api}"
            );
            assert_eq!(v["cases"][3]["pass"], false);
            let csv = v["skills"].as_array().unwrap().iter().find(|s| s["name"] == "csv").unwrap();
            assert_eq!((csv["tp"].as_u64(), csv["fp"].as_u64(), csv["fn"].as_u64()), (Some(3), Some(2), Some(0)));
            // tp 6 (pdf 2, csv 3, notes 1), fp 2, fn 3; 9 of 12 runs right.
            assert_eq!(v["summary"]["precision"], json!(0.75), "{agent} {api}");
            assert_eq!(v["summary"]["recall"], json!(0.6667));
            assert_eq!(v["summary"]["accuracy"], json!(0.75));
            assert_eq!(v["summary"]["requests"], json!(12));
            // The confusion table: csv took notes's queries twice; pdf's went to no skill once.
            assert_eq!(
                v["confusion"],
                json!([
                    {"agent": agent, "expected": "notes", "took": "csv", "count": 2},
                    {"agent": agent, "expected": "pdf", "took": "none", "count": 1},
                ]),
                "{agent} {api}"
            );
            assert_eq!(
                (v["agent"].as_str(), v["provider"].as_str(), v["runs"].as_u64()),
                (Some(*agent), Some(api), Some(3))
            );

            // What the model was sent: the agent's text where it puts it, its tools, the query.
            let requests = server.requests();
            assert_eq!(requests.len(), 12);
            let prompt =
                skillkit(&["prompt", "--agent", agent, "--source", tmp.path().join("skills").to_str().unwrap()]);
            let tools_json = skillkit(&[
                "prompt",
                "--agent",
                agent,
                "--format",
                "json",
                "--source",
                tmp.path().join("skills").to_str().unwrap(),
            ]);
            let rendered: Value = serde_json::from_str(&tools_json.stdout).unwrap();
            let body = &requests[0].body;
            let (text, tools): (String, Vec<Value>) = if api == "openai" {
                let messages = body["messages"].as_array().unwrap();
                let role = if *agent == "codex" { "developer" } else { "system" };
                assert_eq!(messages[0]["role"], role, "{agent}");
                assert_eq!(messages[1]["role"], "user");
                let tools = body["tools"].as_array().unwrap().iter().map(|t| t["function"].clone()).collect();
                (messages[0]["content"].as_str().unwrap().to_string(), tools)
            } else {
                let tools = body["tools"].as_array().unwrap().iter().map(
                    |t| json!({"name": t["name"], "description": t["description"], "parameters": t["input_schema"]}),
                );
                (body["system"].as_str().unwrap().to_string(), tools.collect())
            };
            assert_eq!(text, prompt.stdout, "{agent} {api}: the skills text is `skillkit prompt`'s");
            assert_eq!(tools.iter().filter(|t| t["name"] == *tool).count(), 1, "{agent}: offers {tool}");
            for t in rendered["tools"].as_array().unwrap() {
                let sent = tools.iter().find(|s| s["name"] == t["name"]).unwrap_or_else(|| panic!("{agent}: {t}"));
                assert_eq!(sent["parameters"], t["parameters"], "{agent}: the schema is the profile's");
                assert_eq!(sent["description"], t["description"]);
            }
        }
    }
}

/// The text report's confusion table names, per agent, the skill whose queries another took.
#[test]
fn the_text_report_says_which_skill_took_which_skills_queries() {
    for (i, agent) in [(0, "claude-code"), (5, "codex")] {
        let tmp = tempfile::tempdir().unwrap();
        library(tmp.path());
        let server = MockServer::start(script(i));
        let out = eval(tmp.path(), agent, "openai", &server.base_url(), &["--format", "text"]);
        assert_eq!(out.code, 0, "{agent}: {}", out.stderr);
        let table: Vec<&str> =
            out.stdout.lines().skip_while(|l| !l.starts_with("queries taken by another skill")).take(3).collect();
        assert_eq!(
            table,
            [
                format!("queries taken by another skill under {agent}:").as_str(),
                "  notes's queries taken by csv (2)",
                ""
            ],
            "{}",
            out.stdout
        );
    }
}

#[test]
fn record_then_replay_is_byte_identical_and_offline() {
    let tmp = tempfile::tempdir().unwrap();
    library(tmp.path());
    let records = tmp.path().join("records");
    let recorded = {
        let server = MockServer::start(script(0));
        let out =
            eval(tmp.path(), "claude-code", "anthropic", &server.base_url(), &["--record", records.to_str().unwrap()]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout
    };
    // The mock is gone: the replay makes no request.
    for format in ["json", "text", "junit"] {
        let replayed = eval(
            tmp.path(),
            "claude-code",
            "anthropic",
            "http://127.0.0.1:9",
            &["--replay", records.to_str().unwrap(), "--format", format],
        );
        assert_eq!(replayed.code, 0, "{}", replayed.stderr);
        if format == "json" {
            assert_eq!(replayed.stdout, recorded);
        }
    }
    // A request not recorded (another query) fails the replay with exit 2.
    std::fs::write(
        tmp.path().join("evals.yaml"),
        "sources: [skills]\ncases:\n  - {query: Something new, expect: none}\n",
    )
    .unwrap();
    let miss =
        eval(tmp.path(), "claude-code", "anthropic", "http://127.0.0.1:9", &["--replay", records.to_str().unwrap()]);
    assert_eq!(miss.code, 2);
    assert!(miss.stderr.contains("no recorded reply for this request"), "{}", miss.stderr);
}

#[test]
fn a_429_is_retried_after_its_retry_after() {
    let tmp = tempfile::tempdir().unwrap();
    library(tmp.path());
    let mut s = script(0);
    s.fault = Some(Fault { status: Some(429), retry_after: Some(1), times: Some(1), ..Fault::default() });
    let server = MockServer::start(s);
    let out = eval(tmp.path(), "claude-code", "openai", &server.base_url(), &["--runs", "1", "--concurrency", "1"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(server.requests().len(), 5, "4 cases and one retry");
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["summary"]["requests"], json!(4));
}

#[test]
fn thresholds_and_failures_set_the_exit_code() {
    let tmp = tempfile::tempdir().unwrap();
    library(tmp.path());
    let server = MockServer::start(script(0));
    let base = server.base_url();
    let below = eval(tmp.path(), "claude-code", "openai", &base, &["--min-recall", "0.9"]);
    assert_eq!(below.code, 1);
    assert!(below.stderr.contains("recall 0.67 is below --min-recall 0.9"), "{}", below.stderr);
    assert_eq!(eval(tmp.path(), "claude-code", "openai", &base, &["--min-precision", "0.7"]).code, 0);

    let mut refusing = script(0);
    refusing.fault = Some(Fault { status: Some(401), ..Fault::default() });
    let server = MockServer::start(refusing);
    let out = eval(tmp.path(), "claude-code", "openai", &server.base_url(), &[]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("401"), "{}", out.stderr);
    assert!(server.requests().len() <= 4, "a refused key is not retried");

    let unreachable = eval(tmp.path(), "claude-code", "openai", "http://127.0.0.1:9", &[]);
    assert_eq!(unreachable.code, 2, "{}", unreachable.stderr);
    let lint_only = eval(tmp.path(), "agentskills", "openai", &base, &[]);
    assert_eq!(lint_only.code, 2);
    assert!(lint_only.stderr.contains("offers the model no skill tool"), "{}", lint_only.stderr);
    let unknown = eval(tmp.path(), "nope", "openai", &base, &[]);
    assert_eq!(unknown.code, 2);
}

#[test]
fn a_skill_creator_list_is_read_with_its_skill() {
    let tmp = tempfile::tempdir().unwrap();
    library(tmp.path());
    std::fs::write(
        tmp.path().join("trigger.json"),
        r#"[{"query": "Pull the tables out of report.pdf", "should_trigger": true}, {"query": "What is the weather?", "should_trigger": false}]"#,
    )
    .unwrap();
    let server = MockServer::start(script(0));
    let suite = tmp.path().join("trigger.json");
    let skills = tmp.path().join("skills");
    let out = skillkit(&[
        "eval",
        suite.to_str().unwrap(),
        "--skill",
        "pdf",
        "--agent",
        "claude-code",
        "--source",
        skills.to_str().unwrap(),
        "--provider",
        "openai",
        "--base-url",
        &server.base_url(),
        "--model",
        "m",
        "--format",
        "junit",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("<?xml"), "{}", out.stdout);
    assert!(out.stdout.contains("tests=\"2\" failures=\"0\""), "{}", out.stdout);
}
