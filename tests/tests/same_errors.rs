//! Same settings, same error (issue #34): the app (the use cases of `skillkit-api` its commands
//! call), the CLI and the language server resolve a project's configuration, its agent and a
//! model provider's settings through the same functions, so the same mistake gets the same code
//! and the same sentence from each: `error[<code>]: <message>` on the CLI's error output, the same
//! line after `skillkit lsp: ` in the language server's message (or as a request's error), and
//! the `AppError` the app's UI receives (a command's error, or the `config_error` of the library
//! it opens). (The language server takes no provider settings.)

use e2e::{skillkit, write_tree};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};
use skillkit_api::settings::ProviderSettings;
use skillkit_api::studio::{OpenLibrary, RenderMatrix, RenderPrompt, RunEval};
use skillkit_api::{AppError, ErrorCode, MemoryHost, Startup, Studio};
use std::path::Path;
use std::sync::Arc;

const SKILL: &str = "---\nname: demo\ndescription: Shows a demo. Use when testing.\n---\n\n# Demo\n\nBody.\n";
const SUITE: &str = "cases:\n  - id: a\n    query: show the demo\n    expect: demo\n";

/// A project: `skillkit.toml` (when given) beside `skills/demo/SKILL.md`.
fn project(toml: Option<&str>) -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(
        tmp.path(),
        &[("skills/demo/SKILL.md", SKILL.as_bytes()), ("skills/demo/evals/triggers.yaml", SUITE.as_bytes())],
    );
    if let Some(toml) = toml {
        write_tree(tmp.path(), &[("skillkit.toml", toml.as_bytes())]);
    }
    let skills = tmp.path().join("skills").canonicalize().unwrap().to_string_lossy().into_owned();
    (tmp, skills)
}

fn studio() -> Studio {
    Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()))
}

/// The CLI's error lines for `args`, after checking it exits 2.
fn cli_errors(args: &[&str]) -> Vec<String> {
    let out = skillkit(args);
    assert_eq!(out.code, 2, "{args:?}: {}{}", out.stdout, out.stderr);
    out.stderr.lines().filter(|l| l.starts_with("error")).map(str::to_string).collect()
}

/// The messages the language server shows when it starts on `root` with `options`, through an
/// in-memory client: initialize, initialized, then shutdown (whose reply comes after every
/// message sent on start) and exit.
fn lsp_messages(root: &Path, options: Value) -> Vec<String> {
    lsp_session(root, options, &[]).0
}

/// [`lsp_messages`], and the error message of each of `requests` (method, params), sent after
/// `initialized` (`None` for a request answered without an error).
fn lsp_session(root: &Path, options: Value, requests: &[(&str, Value)]) -> (Vec<String>, Vec<Option<String>>) {
    let (server, client) = Connection::memory();
    let running = std::thread::spawn(move || skillkit_cli::lsp::serve_on(&server).map_err(|e| e.to_string()));
    let request = |id: i32, method: &str, params: Value| {
        Message::Request(Request { id: RequestId::from(id), method: method.into(), params })
    };
    let uri = format!("file://{}", root.display());
    let params = json!({"capabilities": {}, "workspaceFolders": [{"uri": uri, "name": "root"}], "initializationOptions": options});
    client.sender.send(request(1, "initialize", params)).unwrap();
    let mut shown = vec![];
    let until = |id: i32, shown: &mut Vec<String>| loop {
        match client.receiver.recv_timeout(std::time::Duration::from_secs(60)).expect("the server answers") {
            Message::Response(r) if r.id == RequestId::from(id) => break r.response_result.err().map(|e| e.message),
            Message::Notification(n) if n.method == "window/showMessage" => {
                shown.push(n.params["message"].as_str().unwrap().to_string())
            }
            _ => {}
        }
    };
    until(1, &mut shown);
    client
        .sender
        .send(Message::Notification(Notification { method: "initialized".into(), params: json!({}) }))
        .unwrap();
    let mut errors = vec![];
    for (i, (method, params)) in requests.iter().enumerate() {
        let id = 10 + i as i32;
        client.sender.send(request(id, method, params.clone())).unwrap();
        errors.push(until(id, &mut shown));
    }
    client.sender.send(request(2, "shutdown", Value::Null)).unwrap();
    until(2, &mut shown);
    client.sender.send(Message::Notification(Notification { method: "exit".into(), params: Value::Null })).unwrap();
    running.join().unwrap().unwrap();
    (shown, errors)
}

fn assert_same(api: &AppError, code: ErrorCode, cli: &[String], lsp: Option<&[String]>) {
    assert_eq!(api.code, code, "{api:?}");
    let line = api.to_string();
    assert!(line.starts_with(&format!("error[{}]: ", code.as_str())), "{line}");
    assert_eq!(cli, std::slice::from_ref(&line), "the CLI");
    if let Some(lsp) = lsp {
        assert_eq!(lsp, [format!("skillkit lsp: {line}")], "the language server");
    }
}

#[test]
fn an_unknown_agent_in_the_projects_configuration() {
    let (tmp, skills) = project(Some("agent = \"nobody\"\n"));
    // The app: the library opens (its report shows the file's trouble); what reads the
    // configuration (the prompt, the matrix) refuses.
    let app = studio();
    let view = app.open_library(OpenLibrary { sources: vec![skills.clone()], agent: "spec".into() }).unwrap();
    let render = RenderPrompt {
        sources: vec![skills.clone()],
        agent: "claude-code".into(),
        context_window: None,
        char_budget: None,
        loaded: vec![],
        agent_settings: vec![],
    };
    let api = app.render_prompt(render).unwrap_err();
    assert!(api.message.contains("unknown agent `nobody`"), "{}", api.message);
    assert_eq!(skillkit_api::resolve::project(Path::new(&skills)).unwrap_err(), api);
    assert_eq!(view.config_error.as_ref(), Some(&api), "the opened library says why it has no configuration");
    let cli = cli_errors(&["check", &skills]);
    let lsp = lsp_messages(tmp.path(), json!({}));
    assert_same(&api, ErrorCode::InvalidSettings, &cli, Some(&lsp));
}

#[test]
fn an_unknown_agent_asked_for() {
    let (tmp, skills) = project(None);
    let api = studio().open_library(OpenLibrary { sources: vec![skills.clone()], agent: "nobody".into() }).unwrap_err();
    assert!(api.message.starts_with("unknown agent `nobody`; known agents: "), "{}", api.message);
    let cli = cli_errors(&["check", &skills, "--agent", "nobody"]);
    let lsp = lsp_messages(tmp.path(), json!({"agent": "nobody"}));
    assert_same(&api, ErrorCode::UnknownAgent, &cli, Some(&lsp));
    // The language server's requests that name an agent (a prompt preview, the command that shows
    // one) answer with the same line.
    let requests = [
        ("skillkit/prompt", json!({"uri": "skillkit-prompt://nobody"})),
        ("workspace/executeCommand", json!({"command": "skillkit.showPrompt", "arguments": ["nobody"]})),
    ];
    let (_, errors) = lsp_session(tmp.path(), json!({}), &requests);
    assert_eq!(errors, vec![Some(api.to_string()); 2], "the language server's requests");
    // `eval` reads the agent the same way.
    let suite = format!("{skills}/demo/evals/triggers.yaml");
    let eval = cli_errors(&["eval", &suite, "--agent", "nobody", "--source", &skills]);
    assert_same(&api, ErrorCode::UnknownAgent, &eval, None);
}

/// A `skillkit.toml` that is not TOML: the CLI refuses to check, the language server says so and
/// goes on, and the app opens the library without it, the reply's `config_error` saying why.
#[test]
fn a_broken_project_configuration_on_open() {
    let (tmp, skills) = project(Some("agent = \"codex\"\n[rules\n"));
    let view = studio().open_library(OpenLibrary { sources: vec![skills.clone()], agent: "spec".into() }).unwrap();
    assert_eq!(view.skills.len(), 1, "the library opens");
    let api = view.config_error.expect("the configuration's error reaches the app");
    assert_eq!(skillkit_api::resolve::project(Path::new(&skills)).unwrap_err(), api);
    let cli = cli_errors(&["check", &skills]);
    let lsp = lsp_messages(tmp.path(), json!({}));
    assert_same(&api, ErrorCode::InvalidSettings, &cli, Some(&lsp));
}

#[test]
fn provider_settings_out_of_range() {
    let (_tmp, skills) = project(None);
    let app = studio();
    app.open_library(OpenLibrary { sources: vec![skills.clone()], agent: "spec".into() }).unwrap();
    let suite = format!("{skills}/demo/evals/triggers.yaml");
    let good =
        ProviderSettings { model: "mock-model".into(), base_url: "http://127.0.0.1:9".into(), ..Default::default() };
    let cases: [(ProviderSettings, &[&str]); 4] = [
        (ProviderSettings { runs: 0, ..good.clone() }, &["--runs", "0"]),
        (ProviderSettings { concurrency: 33, ..good.clone() }, &["--concurrency", "33"]),
        (ProviderSettings { temperature: Some(3.0), ..good.clone() }, &["--temperature", "3"]),
        (
            ProviderSettings { base_url: "file:///etc/passwd".into(), ..good.clone() },
            &["--base-url", "file:///etc/passwd"],
        ),
    ];
    for (settings, flags) in cases {
        let run = RunEval {
            path: suite.clone(),
            text: SUITE.into(),
            agent: "claude-code".into(),
            provider: settings.clone(),
            compare: None,
        };
        let api = app.run_eval(run).unwrap_err();
        assert_eq!(settings.check().unwrap_err(), api, "{flags:?}");
        let mut args = vec!["eval", &suite, "--agent", "claude-code", "--source", &skills];
        args.extend(["--provider", "openai", "--model", "mock-model"]);
        if !flags.contains(&"--base-url") {
            args.extend(["--base-url", "http://127.0.0.1:9"]);
        }
        args.extend(flags);
        assert_same(&api, ErrorCode::InvalidSettings, &cli_errors(&args), None);
    }
}

/// The profile that only lints (`spec`), asked for a prompt, a session or an eval: one sentence,
/// `skillkit::agents::only_lints`, from the app, the CLI and a session script; and one for an agent
/// that cannot be a matrix column, from the app and the CLI.
#[test]
fn a_profile_that_only_lints() {
    let (_tmp, skills) = project(None);
    let sentence = skillkit::agents::only_lints("spec");
    assert!(
        sentence
            .starts_with("`spec` only lints; it injects no prompt (agents with a prompt: agentskills, deepagents, "),
        "{sentence}"
    );
    let render = RenderPrompt {
        sources: vec![skills.clone()],
        agent: "spec".into(),
        context_window: None,
        char_budget: None,
        loaded: vec![],
        agent_settings: vec![],
    };
    let app = studio();
    app.open_library(OpenLibrary { sources: vec![skills.clone()], agent: "spec".into() }).unwrap();
    let api = app.render_prompt(render).unwrap_err();
    assert_eq!((api.code, api.message.as_str()), (ErrorCode::NoPrompt, sentence.as_str()));
    assert_eq!(cli_errors(&["prompt", "--agent", "spec", "--source", &skills]), vec![format!("error: {sentence}")]);
    let script = tempfile::tempdir().unwrap();
    let path = script.path().join("s.yaml");
    std::fs::write(&path, "agent: spec\nsteps: []\n").unwrap();
    let session = skillkit(&["simulate", path.to_str().unwrap()]);
    assert_eq!(session.code, 2);
    assert!(session.stderr.lines().any(|l| l.ends_with(&format!(":1:8: error: {sentence}"))), "{}", session.stderr);

    let column = skillkit::matrix::not_a_column("spec");
    let matrix = RenderMatrix {
        sources: vec![skills.clone()],
        agents: vec!["spec".into()],
        context_window: None,
        char_budget: None,
        edit: None,
    };
    assert_eq!(app.render_matrix(matrix).unwrap_err().message, column);
    assert_eq!(cli_errors(&["matrix", "--agent", "spec", &skills]), vec![format!("error: {column}")]);
}
