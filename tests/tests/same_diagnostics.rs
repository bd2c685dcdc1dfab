//! Same text, same answers (issue #34): the app's editor (the use cases of `skillkit-api` its
//! commands call) and the language server (`skillkit lsp`) both answer from the engine's
//! `Workspace`, so an unsaved text of a library's skill gets the same diagnostics, the same hover
//! and the same completions from each, with the project's configuration applied by both.

use e2e::write_tree;
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};
use skillkit_api::studio::{AssistAt, LintText, OpenLibrary};
use skillkit_api::{MemoryHost, Startup, Studio};
use std::sync::Arc;
use std::time::Duration;

const OTHER: &str = "---\nname: other\ndescription: Another skill. Use when testing clashes.\n---\n\nBody.\n";
const DEMO: &str = "---\nname: demo\ndescription: Shows a demo. Use when testing.\n---\n\n# Demo\n\nBody.\n";
/// The editor's unsaved text of `demo/SKILL.md`: the name of the source's other skill (a clash
/// only the library sees) and not its folder's, a link to a file that is not there, a key begun
/// on line 4, an unknown key, a description with an unquoted colon.
const UNSAVED: &str = "---\nname: other\ndescription: Use when: the user asks for a démo\nlic\nflavour: x\n---\n\n# Demo\n\nRead [the guide](references/guide.md) and [a](assets/\n";

/// The language server on `root` for `agent`: the diagnostics it publishes when `path` is opened
/// with `text`, then its hover and its completions at each of `places` (0-based line and UTF-16
/// column, as the protocol counts).
fn lsp(
    root: &std::path::Path,
    agent: &str,
    path: &str,
    text: &str,
    places: &[(u32, u32)],
) -> (Value, Vec<(Value, Value)>) {
    let (server, client) = Connection::memory();
    let running = std::thread::spawn(move || skillkit_cli::lsp::serve_on(&server).map_err(|e| e.to_string()));
    let send = |m: Message| client.sender.send(m).unwrap();
    let request = |id: i32, method: &str, params: Value| {
        Message::Request(Request { id: RequestId::from(id), method: method.into(), params })
    };
    let notification =
        |method: &str, params: Value| Message::Notification(Notification { method: method.into(), params });
    let next = || client.receiver.recv_timeout(Duration::from_secs(60)).expect("the server answers");
    let reply = |id: i32| loop {
        if let Message::Response(r) = next() {
            if r.id == RequestId::from(id) {
                break r.response_result.expect("the request succeeds");
            }
        }
    };
    let root_uri = format!("file://{}", root.display());
    let init = json!({"capabilities": {}, "workspaceFolders": [{"uri": root_uri, "name": "root"}], "initializationOptions": {"agent": agent}});
    send(request(1, "initialize", init));
    reply(1);
    send(notification("initialized", json!({})));
    let uri = format!("file://{path}");
    let doc = json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}});
    send(notification("textDocument/didOpen", doc));
    let published = loop {
        if let Message::Notification(n) = next() {
            if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri.as_str() {
                break n.params["diagnostics"].clone();
            }
        }
    };
    let mut id = 10;
    let mut answers = vec![];
    for &(line, character) in places {
        let at = json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
        send(request(id, "textDocument/hover", at.clone()));
        let hover = reply(id);
        send(request(id + 1, "textDocument/completion", at));
        let completion = reply(id + 1);
        answers.push((hover, completion));
        id += 2;
    }
    send(request(2, "shutdown", Value::Null));
    reply(2);
    send(notification("exit", Value::Null));
    running.join().unwrap().unwrap();
    (published, answers)
}

#[test]
fn the_app_and_the_language_server_answer_the_same_for_the_same_text() {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(
        tmp.path(),
        &[
            ("skills/demo/SKILL.md", DEMO.as_bytes()),
            ("skills/demo/assets/logo.txt", b"logo"),
            ("skills/other/SKILL.md", OTHER.as_bytes()),
            // The project turns one rule off and another into an error: both front ends apply it.
            ("skillkit.toml", b"[rules]\nSK604 = \"off\"\nSK102 = \"error\"\n"),
        ],
    );
    let skills = tmp.path().join("skills").canonicalize().unwrap();
    let path = skills.join("demo/SKILL.md").to_string_lossy().into_owned();
    let source = skills.to_string_lossy().into_owned();
    // Places: on the key `name`, in the description's value, after `lic`, after `assets/`.
    let places = [(1, 2), (2, 20), (3, 3), (9, 53)];
    for agent in ["spec", "claude-code", "deepagents"] {
        let app = Studio::new(
            Startup { sources: vec![], agent: agent.into(), examples: None },
            Arc::new(MemoryHost::default()),
        );
        app.open_library(OpenLibrary { sources: vec![source.clone()], agent: agent.into() }).unwrap();
        let linted = app.lint_text(LintText { path: path.clone(), text: UNSAVED.into(), agent: agent.into() }).unwrap();
        let (published, answers) = lsp(&skills, agent, &path, UNSAVED, &places);

        // Diagnostics: code, severity, message (and help), range.
        let severity = |s: skillkit::Severity| match s {
            skillkit::Severity::Error => 1,
            skillkit::Severity::Warning => 2,
            skillkit::Severity::Info => 3,
        };
        let from_app: Vec<Value> = linted
            .diagnostics
            .iter()
            .map(|d| {
                json!({
                    "code": d.code,
                    "severity": severity(d.severity),
                    "message": match &d.help { Some(h) => format!("{}\n{h}", d.message), None => d.message.clone() },
                    "range": [d.start.line - 1, d.start.column_utf16 - 1, d.end.line - 1, d.end.column_utf16 - 1],
                })
            })
            .collect();
        let from_lsp: Vec<Value> = published
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let r = &d["range"];
                json!({
                    "code": d["code"],
                    "severity": d["severity"],
                    "message": d["message"],
                    "range": [r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"]],
                })
            })
            .collect();
        assert!(from_app.len() >= 3, "{agent}: {from_app:#?}");
        assert_eq!(from_app, from_lsp, "{agent}: the app's diagnostics, then the language server's");
        let codes: Vec<&str> = linted.diagnostics.iter().map(|d| d.code).collect();
        assert!(!codes.contains(&"SK604"), "{agent}: the project turns SK604 off: {codes:?}");
        // The clash with the other skill is the library's finding: the text linted alone misses it.
        assert!(codes.contains(&"SK701"), "{agent}: {codes:?}");

        // Hover and completion at each place.
        for (&(line, character), (hover, completion)) in places.iter().zip(&answers) {
            let at = AssistAt {
                path: path.clone(),
                text: UNSAVED.into(),
                agent: agent.into(),
                line: line as usize + 1,
                column_utf16: character as usize + 1,
            };
            let app_hover = app.hover(at.clone()).unwrap().hover;
            assert_eq!(
                app_hover.as_ref().map(|h| h.markdown.as_str()),
                hover.get("contents").and_then(|c| c["value"].as_str()),
                "{agent}: hover at {line}:{character}"
            );
            let app_labels: Vec<String> = app.complete(at).unwrap().items.into_iter().map(|c| c.label).collect();
            let lsp_labels: Vec<String> = completion
                .as_array()
                .map(|items| items.iter().map(|c| c["label"].as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            assert_eq!(app_labels, lsp_labels, "{agent}: completions at {line}:{character}");
        }
        assert!(answers[0].0.get("contents").is_some(), "{agent}: a hover on `name`");
        assert!(answers[2].1.as_array().is_some_and(|a| !a.is_empty()), "{agent}: keys offered after `lic`");
        assert!(
            answers[3].1.as_array().is_some_and(|a| a.iter().any(|c| c["label"] == "assets/logo.txt")),
            "{agent}: the skill's files offered in a link: {:?}",
            answers[3].1
        );
    }
}
