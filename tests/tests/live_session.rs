//! Live sessions (`skillkit simulate --provider …`): the mock model answers `user` steps; its
//! skill-tool calls run in the simulator, other tools are answered "not run in simulation", the
//! model sees the prompt as it stands after each call, and the saved script replays the same
//! transcript without the model.

use e2e::{skillkit, write_tree};
use mock_provider::{MockServer, Reply, Rule, Script};
use serde_json::{json, Value};

fn library(root: &std::path::Path, agent: &str) {
    let pdf = "---\nname: pdf\ndescription: Fills PDF forms. Use when the user has a PDF form.\n---\n\n# PDF\n\nRun scripts/fill.py.\n";
    let script = format!("agent: {agent}\nsources: [skills]\nsteps:\n  - user: Please fill the PDF form in tax.pdf\n");
    write_tree(root, &[("skills/pdf/SKILL.md", pdf.as_bytes()), ("session.yaml", script.as_bytes())]);
}

fn server(first: Reply) -> MockServer {
    MockServer::start(Script {
        rules: vec![Rule {
            contains: Some("PDF form".into()),
            replies: vec![first, Reply::text("Done.")],
            ..Rule::default()
        }],
        ..Script::default()
    })
}

fn live(root: &std::path::Path, base: &str) -> e2e::Output {
    let script = root.join("session.yaml");
    let saved = root.join("saved.yaml");
    skillkit(&[
        "simulate",
        script.to_str().unwrap(),
        "--provider",
        "openai",
        "--base-url",
        base,
        "--model",
        "m",
        "--save",
        saved.to_str().unwrap(),
        "--format",
        "json",
    ])
}

#[test]
fn a_live_turn_loads_a_skill_through_the_model_and_replays_without_it() {
    let tmp = tempfile::tempdir().unwrap();
    library(tmp.path(), "deepagents-v2");
    let server = server(Reply::tool("load_skill", json!({"skill_name": "pdf"})));
    let out = live(tmp.path(), &server.base_url());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let turns = v["turns"].as_array().unwrap();
    let actions: Vec<&str> = turns.iter().map(|t| t["step"]["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["user", "model", "load", "model"]);
    assert_eq!(turns[2]["loaded"], json!(["pdf"]));
    assert_eq!(turns[3]["step"]["text"], "Done.");

    // The second request carries the tool result and the prompt with pdf marked loaded.
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let second = &requests[1].body["messages"];
    let roles: Vec<&str> = second.as_array().unwrap().iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool"]);
    assert_eq!(second[2]["tool_calls"][0]["function"]["name"], "load_skill");
    assert_eq!(second[3]["content"], turns[2]["result"]);
    assert_ne!(requests[0].body["messages"][0]["content"], second[0]["content"], "the prompt marks pdf loaded");
    assert_eq!(second[0]["content"], v["final_prompt"]);

    // The saved script replays the same transcript with no model.
    let saved = std::fs::read_to_string(tmp.path().join("saved.yaml")).unwrap();
    assert!(saved.contains("  - model: \"\"\n    calls:\n      - tool: \"load_skill\""), "{saved}");
    let replay = skillkit(&["simulate", tmp.path().join("saved.yaml").to_str().unwrap(), "--format", "json"]);
    assert_eq!(replay.code, 0, "{}", replay.stderr);
    assert_eq!(replay.stdout, out.stdout);
    assert_eq!(server.requests().len(), 2, "the replay asked nothing");
}

#[test]
fn other_tools_are_answered_not_run_and_skills_are_invoked_with_the_agents_tool() {
    let tmp = tempfile::tempdir().unwrap();
    library(tmp.path(), "codex");
    let server = MockServer::start(Script {
        rules: vec![Rule {
            contains: Some("PDF form".into()),
            replies: vec![
                Reply::tool("exec_command", json!({"cmd": "ls"})),
                Reply::tool("exec_command", json!({"cmd": "cat {{path:pdf}}"})),
                Reply::text("Done."),
            ],
            ..Rule::default()
        }],
        ..Script::default()
    });
    let out = live(tmp.path(), &server.base_url());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let turns = v["turns"].as_array().unwrap();
    let actions: Vec<&str> = turns.iter().map(|t| t["step"]["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["user", "model", "tool", "model", "invoke", "model"]);
    assert_eq!(turns[2]["result"], "not run in simulation");
    assert_eq!(turns[4]["step"], json!({"action": "invoke", "skill": "pdf"}));
    assert!(turns[4]["result"].as_str().unwrap().contains("pdf"), "{}", turns[4]);
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    // Codex: the developer message, the user, the call, its answer.
    assert_eq!(requests[1].body["messages"][3]["content"], "not run in simulation");
}

#[test]
fn without_a_model_a_user_step_only_enters_the_context_and_a_dead_provider_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    library(tmp.path(), "deepagents-v2");
    let script = tmp.path().join("session.yaml");
    let alone = skillkit(&["simulate", script.to_str().unwrap(), "--format", "json"]);
    assert_eq!(alone.code, 0, "{}", alone.stderr);
    let v: Value = serde_json::from_str(&alone.stdout).unwrap();
    assert_eq!(v["turns"].as_array().unwrap().len(), 1);
    let dead = live(tmp.path(), "http://127.0.0.1:9/v1");
    assert_eq!(dead.code, 2);
    assert!(dead.stderr.contains("the model could not answer"), "{}", dead.stderr);
}

#[test]
fn a_tool_result_typed_by_the_user_goes_back_to_the_model_which_continues() {
    let tmp = tempfile::tempdir().unwrap();
    library(tmp.path(), "codex");
    let script = "agent: codex\nsources: [skills]\nsteps:\n  - user: Please fill the PDF form in tax.pdf\n  - model: \"\"\n    calls:\n      - tool: exec_command\n        args: {cmd: ls}\n        result: \"tax.pdf\\nnotes.txt\"\n";
    std::fs::write(tmp.path().join("session.yaml"), script).unwrap();
    let server = MockServer::start(Script {
        rules: vec![Rule { contains: Some("PDF form".into()), replies: vec![Reply::text("Done.")], ..Rule::default() }],
        ..Script::default()
    });
    let out = live(tmp.path(), &server.base_url());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let turns = v["turns"].as_array().unwrap();
    let actions: Vec<&str> = turns.iter().map(|t| t["step"]["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["user", "model", "tool", "model"]);
    assert_eq!(turns[2]["result"], "tax.pdf\nnotes.txt");
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "only the continuation was asked");
    assert_eq!(requests[0].body["messages"][3]["content"], "tax.pdf\nnotes.txt");
}
