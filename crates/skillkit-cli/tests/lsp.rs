//! `skillkit lsp` at the protocol level, over real stdio (the binary, JSON-RPC with
//! Content-Length framing): initialize, diagnostics equal to `skillkit check`'s, library findings
//! on every affected file, files changed on disk, code actions and "Fix all", hover, completion,
//! links, definitions, code lenses and the prompt preview, bad requests, a 5 MB document, a file
//! that is not UTF-8, cancellation, shutdown and exit. The Neovim test (`lsp_neovim.rs`) drives
//! the same server from a real editor.

#[path = "support/lsp_client.rs"]
mod lsp_client;

use lsp_client::{frame, uri, Client};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::Command;

fn codes(diagnostics: &[Value]) -> Vec<String> {
    let mut c: Vec<String> = diagnostics.iter().map(|d| d["code"].as_str().unwrap().to_string()).collect();
    c.sort();
    c
}

fn at(line: u32, character: u32) -> Value {
    json!({"line": line, "character": character})
}

fn check_codes(dir: &Path, agent: &str) -> Vec<String> {
    let check = Command::new(env!("CARGO_BIN_EXE_skillkit"))
        .args(["check", "--format", "json", "--agent", agent])
        .arg(dir)
        .output()
        .unwrap();
    let checked: Value = serde_json::from_slice(&check.stdout).unwrap();
    let d = checked["skills"][0]["diagnostics"].as_array().unwrap().clone();
    codes(&d)
}

fn write(path: &Path, text: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn diagnostics_follow_the_text_and_the_session_ends_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let file = root.join("pdf/SKILL.md");
    let broken = "---\nname: PDF Tools\ndescription: Reads PDF files. Use for PDFs.\n---\n\nBody.\n";
    write(&file, broken);

    for agent in ["spec", "claude-code"] {
        let expected = check_codes(&root.join("pdf"), agent);
        assert!(!expected.is_empty());
        let mut c = Client::start(&[&root], json!({"agent": agent}));
        // Before anything is open, the library's check publishes the file's findings.
        let published = c.diagnostics(&uri(&file));
        assert_eq!(codes(&published), expected, "{agent}: the same findings as skillkit check");
        c.open(&file, broken);
        let opened = c.diagnostics(&uri(&file));
        assert_eq!(codes(&opened), expected, "{agent}: on open");
        if agent == "spec" {
            let name = opened.iter().find(|d| d["severity"] == 1).unwrap();
            assert_eq!(name["range"]["start"], at(1, 6), "{name}");
        }
        // Line 2 (0-based 1), `PDF Tools` (characters 6 to 15) becomes `pdf`: an incremental edit.
        let change = json!({"range": {"start": at(1, 6), "end": at(1, 15)}, "text": "pdf"});
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(&file), "version": 2}, "contentChanges": [change]}),
        );
        c.diagnostics_until(&uri(&file), |d| d.iter().all(|d| d["severity"] != 1));

        let unknown = c.request("skillkit/unknown", json!({}));
        assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
        c.stop();
    }
}

#[test]
fn library_findings_reach_every_affected_file_and_follow_the_disk() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let (mine, team) = (base.join("mine"), base.join("team"));
    let skill =
        |name: &str| format!("---\nname: {name}\ndescription: Does {name} things. Use for {name}.\n---\n\nBody.\n");
    // Two skills named `tables` in one source (SK701 on both), and `charts` in both sources
    // (the first source's is hidden by the second's: SK704 on it).
    let (a, b) = (mine.join("tables/SKILL.md"), mine.join("tables-old/SKILL.md"));
    write(&a, skill("tables"));
    write(&b, skill("tables"));
    let (hidden, winner) = (mine.join("charts/SKILL.md"), team.join("charts/SKILL.md"));
    write(&hidden, skill("charts"));
    write(&winner, skill("charts"));

    let mut c = Client::start(&[&mine, &team], json!({}));
    let mut published: std::collections::HashMap<String, Vec<String>> = Default::default();
    while published.len() < 4 {
        let m = c.next("textDocument/publishDiagnostics");
        published.insert(
            m["params"]["uri"].as_str().unwrap().to_string(),
            codes(m["params"]["diagnostics"].as_array().unwrap()),
        );
    }
    assert!(published[&uri(&a)].contains(&"SK701".to_string()), "{published:?}");
    assert!(published[&uri(&b)].contains(&"SK701".to_string()), "{published:?}");
    assert!(published[&uri(&hidden)].contains(&"SK704".to_string()), "{published:?}");
    assert!(!published[&uri(&winner)].contains(&"SK704".to_string()), "{published:?}");

    // Renaming one `tables` in the editor clears the clash on the other file too.
    c.open(&b, &skill("tables"));
    c.replace(&b, 2, &skill("tables-old"));
    let other = c.diagnostics_until(&uri(&a), |d| !codes(d).contains(&"SK701".to_string()));
    assert!(!codes(&other).contains(&"SK701".to_string()));

    // A skill created on disk outside the editor (the client's file watcher tells the server).
    let new = mine.join("charts-copy/SKILL.md");
    write(&new, skill("tables"));
    c.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": uri(&new), "type": 1}]}));
    let clash = c.diagnostics_until(&uri(&a), |d| codes(d).contains(&"SK701".to_string()));
    assert!(clash.iter().any(|d| d["message"].as_str().unwrap().contains("charts-copy")), "{clash:?}");
    // …and deleted again.
    std::fs::remove_dir_all(mine.join("charts-copy")).unwrap();
    c.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": uri(&new), "type": 3}]}));
    c.diagnostics_until(&uri(&a), |d| !codes(d).contains(&"SK701".to_string()));
    c.stop();
}

#[test]
fn actions_hover_completion_links_and_lenses_come_from_the_engine() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let file = root.join("pdf/SKILL.md");
    let text = "---\nname: pdf\ndescription: Reads PDF files. Use when: the user has a PDF.\neffort: \n---\n\nSee [the guide](references/guide.md) and [gone](references/gone.md).\n";
    write(&file, text);
    write(&root.join("pdf/references/guide.md"), "# Guide\n");
    let mut c = Client::start(&[&root], json!({"agent": "claude-code"}));
    c.open(&file, text);
    let found = c.diagnostics(&uri(&file));
    let colon = found.iter().find(|d| d["code"] == "SK301").expect("unquoted colon");
    assert!(codes(&found).contains(&"SK601".to_string()), "the missing reference: {found:?}");

    // The quick fix for the colon, preferred (safe), and "Fix all safe fixes".
    let context = json!({"diagnostics": [colon]});
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&file)}, "range": colon["range"], "context": context}),
    );
    let actions = actions["result"].as_array().unwrap().clone();
    let quick = &actions[0];
    assert_eq!((quick["kind"].as_str(), quick["isPreferred"].as_bool()), (Some("quickfix"), Some(true)), "{actions:?}");
    let fix_all = actions.iter().find(|a| a["kind"] == "source.fixAll.skillkit").expect("fix all");
    let edit = &quick["edit"]["changes"][uri(&file)][0];
    let fixed = {
        let line = text.lines().nth(edit["range"]["start"]["line"].as_u64().unwrap() as usize).unwrap();
        let (s, e) = (
            edit["range"]["start"]["character"].as_u64().unwrap() as usize,
            edit["range"]["end"]["character"].as_u64().unwrap() as usize,
        );
        text.replace(line, &format!("{}{}{}", &line[..s], edit["newText"].as_str().unwrap(), &line[e..]))
    };
    c.replace(&file, 2, &fixed);
    c.diagnostics_until(&uri(&file), |d| !codes(d).contains(&"SK301".to_string()));
    let all = fix_all["edit"]["changes"][uri(&file)][0]["newText"].as_str().unwrap();
    assert!(all.contains("description: \"Reads PDF") || all.contains("description: 'Reads PDF"), "{all}");
    let only = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&file)}, "range": {"start": at(0, 0), "end": at(0, 0)}, "context": {"diagnostics": [], "only": ["source.fixAll"]}}),
    );
    assert!(only["result"].as_array().unwrap().iter().all(|a| a["kind"] == "source.fixAll.skillkit"), "{only}");

    // Hover: a key's documentation, and the description's size and listing per agent.
    let hover = |c: &mut Client, line, character| {
        let r = c.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri(&file)}, "position": at(line, character)}),
        );
        r["result"]["contents"]["value"].as_str().unwrap_or_default().to_string()
    };
    let name = hover(&mut c, 1, 2);
    assert!(name.contains("`name`") && name.contains("Codex") && name.contains("folder"), "{name}");
    let description = hover(&mut c, 2, 20);
    assert!(description.contains("characters") && description.contains("listed by Claude Code"), "{description}");
    assert!(description.contains("listed by Gemini CLI") && description.contains("tokens"), "{description}");
    assert_eq!(hover(&mut c, 6, 2), "", "nothing to say in the body's text");

    // Completion: values of `effort`, then keys on a new line, then files in a link.
    let complete = |c: &mut Client, line, character| -> Vec<String> {
        let r = c.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri(&file)}, "position": at(line, character)}),
        );
        r["result"].as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(complete(&mut c, 3, 8), ["low", "medium", "high", "xhigh", "max"]);
    let keyed = fixed.replace("effort: \n", "effort: \nlic\n");
    c.replace(&file, 3, &keyed);
    c.diagnostics(&uri(&file));
    let keys = complete(&mut c, 4, 3);
    assert!(keys.contains(&"license".to_string()) && !keys.contains(&"name".to_string()), "{keys:?}");
    let linked = keyed.replace("and [gone](references/gone.md)", "and [more](refer");
    c.replace(&file, 4, &linked);
    c.diagnostics(&uri(&file));
    let line = linked.lines().position(|l| l.contains("[more]")).unwrap() as u32;
    let col = linked.lines().nth(line as usize).unwrap().find("refer").unwrap() as u32 + 5;
    assert_eq!(complete(&mut c, line, col), ["references", "references/guide.md"]);

    // Links and go-to-definition open the referenced file.
    let links = c.request("textDocument/documentLink", json!({"textDocument": {"uri": uri(&file)}}));
    let targets: Vec<&str> =
        links["result"].as_array().unwrap().iter().map(|l| l["target"].as_str().unwrap()).collect();
    assert_eq!(targets, [uri(&root.join("pdf/references/guide.md"))]);
    let def =
        c.request("textDocument/definition", json!({"textDocument": {"uri": uri(&file)}, "position": at(line, 20)}));
    assert_eq!(def["result"]["uri"], uri(&root.join("pdf/references/guide.md")), "{def}");

    // Code lenses: what each agent does with the skill; the command opens the prompt preview.
    let lenses = c.request("textDocument/codeLens", json!({"textDocument": {"uri": uri(&file)}}));
    let titles: Vec<&str> =
        lenses["result"].as_array().unwrap().iter().map(|l| l["command"]["title"].as_str().unwrap()).collect();
    assert!(titles.iter().any(|t| t.starts_with("listed by Claude Code · ") && t.ends_with(" tokens")), "{titles:?}");
    assert_eq!(titles.len(), 4, "{titles:?}");
    let command = &lenses["result"][0]["command"];
    let executed = c
        .request("workspace/executeCommand", json!({"command": command["command"], "arguments": command["arguments"]}));
    assert!(executed.get("error").is_none(), "{executed}");
    let show = c.next("window/showDocument");
    assert_eq!(show["params"]["uri"], "skillkit-prompt://claude-code");
    let preview = c.request("skillkit/prompt", json!({"uri": "skillkit-prompt://claude-code"}));
    assert!(preview["result"]["text"].as_str().unwrap().contains("pdf"), "{preview}");
    let lints_only = c.request("skillkit/prompt", json!({"uri": "skillkit-prompt://spec"}));
    assert_eq!(lints_only["error"]["code"], -32602, "{lints_only}");
    c.stop();
}

#[test]
fn bad_input_large_and_non_utf8_documents_and_cancellation() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    // A skill file on disk that is not UTF-8: its finding is published, located.
    let latin1 = root.join("latin/SKILL.md");
    write(&latin1, b"---\nname: latin\ndescription: Caf\xe9 menus. Use for menus.\n---\n\nBody.\n");
    let big = root.join("big/SKILL.md");
    let body = "Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n".repeat(5 * 1024 * 1024 / 56);
    let large = format!("---\nname: big\ndescription: Large. Use for tests.\n---\n\n{body}");
    assert!(large.len() >= 5 * 1024 * 1024);
    write(&big, &large);
    let mut c = Client::start(&[&root], json!({}));
    let bad = c.diagnostics_until(&uri(&latin1), |d| !d.is_empty());
    let utf8 = bad.iter().find(|d| d["message"].as_str().unwrap().contains("UTF-8")).expect("the UTF-8 finding");
    assert_eq!(utf8["range"]["start"]["line"], 2, "{utf8}");

    // Bad params: an error for a request, a log line for a notification; the server goes on.
    let r = c.request("textDocument/hover", json!({"textDocument": 7}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    c.notify("textDocument/didOpen", json!({"textDocument": "nope"}));
    let log = c.next("window/logMessage");
    assert!(log["params"]["message"].as_str().unwrap().contains("didOpen"), "{log}");
    let r = c.request("textDocument/hover", json!({"textDocument": {"uri": uri(&big)}, "position": at(1, 1)}));
    assert_eq!(r["error"]["code"], -32602, "not open yet: {r}");

    // A 5 MB document, then a hover and its cancellation in one write: the hover waits behind
    // the document's lint and is cancelled.
    let mut burst = frame(
        &json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri(&big), "languageId": "markdown", "version": 1, "text": large}}}),
    );
    burst.extend(frame(&json!({"jsonrpc": "2.0", "id": 900, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri(&big)}, "position": at(1, 1)}})));
    burst.extend(frame(&json!({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 900}})));
    c.stdin.write_all(&burst).unwrap();
    c.stdin.flush().unwrap();
    let cancelled = c.response(900);
    assert_eq!(cancelled["error"]["code"], -32800, "{cancelled}");
    let found = c.diagnostics(&uri(&big));
    assert!(codes(&found).iter().any(|c| c.starts_with("SK5")), "the body is too long: {found:?}");
    let r = c.request("textDocument/hover", json!({"textDocument": {"uri": uri(&big)}, "position": at(1, 1)}));
    assert!(r["result"]["contents"]["value"].as_str().unwrap().contains("`name`"), "{r}");
    c.stop();
}

/// The server run on `input` (stdin closed after it): its exit code (`None` when a signal ended
/// it, as an abort does), the messages it wrote and its stderr.
fn raw_session(input: &[u8]) -> (Option<i32>, Vec<Value>, String) {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_skillkit"))
        .arg("lsp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The server may stop reading before all is written (it refuses a frame): a broken pipe then.
    let _ = stdin.write_all(input);
    drop(stdin);
    let mut stdout = vec![];
    child.stdout.take().unwrap().read_to_end(&mut stdout).unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    let mut messages = vec![];
    let mut rest = stdout.as_slice();
    while let Some(end) = rest.windows(4).position(|w| w == b"\r\n\r\n") {
        let head = std::str::from_utf8(&rest[..end]).unwrap();
        let length: usize = head.trim().strip_prefix("Content-Length: ").unwrap().parse().unwrap();
        let body = &rest[end + 4..end + 4 + length];
        messages.push(serde_json::from_slice(body).unwrap());
        rest = &rest[end + 4 + length..];
    }
    (status.code(), messages, stderr)
}

fn initialize_and_stop(id: i64) -> Vec<u8> {
    let mut out =
        lsp_client::frame(&json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {"capabilities": {}}}));
    out.extend(lsp_client::frame(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}})));
    out.extend(lsp_client::frame(&json!({"jsonrpc": "2.0", "id": id + 1, "method": "shutdown"})));
    out.extend(lsp_client::frame(&json!({"jsonrpc": "2.0", "method": "exit"})));
    out
}

/// A `Content-Length` over the limit (100 GB: the old transport aborted the process allocating
/// it), negative or not a number cannot be framed past: the server says so and exits with code 1
/// (a normal exit, not an abort), whether it came before `initialize` or after.
#[test]
fn a_bad_content_length_ends_the_session_with_a_message_not_an_abort() {
    for (length, says) in [("100000000000", "over the limit"), ("-5", "not a number"), ("twelve", "not a number")] {
        let bad = format!("Content-Length: {length}\r\n\r\n{{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}}");
        let (code, messages, stderr) = raw_session(bad.as_bytes());
        assert_eq!(code, Some(1), "{length}: {stderr}");
        assert!(stderr.contains("Content-Length") && stderr.contains(says), "{length}: {stderr}");
        assert!(messages.is_empty(), "{messages:?}");

        // After a valid initialize, the same: the initialize is answered, then the session ends.
        let mut input = lsp_client::frame(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
        );
        input.extend(bad.as_bytes());
        let (code, messages, stderr) = raw_session(&input);
        assert_eq!(code, Some(1), "{length}: {stderr}");
        assert!(stderr.contains(says), "{length}: {stderr}");
        assert!(messages.iter().any(|m| m["id"] == 1 && m["result"]["capabilities"].is_object()), "{messages:?}");
    }
}

/// A body that is not JSON gets a JSON-RPC parse error (id null), one that is JSON but not a
/// message an invalid-request error with its id; the server serves on.
#[test]
fn a_body_that_is_not_json_gets_a_parse_error_and_the_server_goes_on() {
    let garbage = b"this is { not JSON";
    let mut input = format!("Content-Length: {}\r\n\r\n", garbage.len()).into_bytes();
    input.extend(garbage);
    input.extend(lsp_client::frame(&json!({"jsonrpc": "2.0", "id": 5, "params": "no method"})));
    input.extend(initialize_and_stop(1));
    let (code, messages, stderr) = raw_session(&input);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(messages[0]["error"]["code"], -32700, "{messages:?}");
    assert_eq!(messages[0]["id"], Value::Null, "{messages:?}");
    assert_eq!(messages[1]["error"]["code"], -32600, "{messages:?}");
    assert_eq!(messages[1]["id"], 5, "{messages:?}");
    assert!(messages.iter().any(|m| m["id"] == 1 && m["result"]["capabilities"].is_object()), "{messages:?}");
    assert!(messages.iter().any(|m| m["id"] == 2 && m.get("error").is_none()), "shutdown answered: {messages:?}");
}

/// A body cut short by the end of input: the server says so and exits with code 1.
#[test]
fn a_body_shorter_than_its_length_at_the_end_of_input_ends_cleanly() {
    let mut input = initialize_and_stop(1);
    input.truncate(input.len() - lsp_client::frame(&json!({"jsonrpc": "2.0", "method": "exit"})).len());
    input.extend(b"Content-Length: 100\r\n\r\n{\"jsonrpc\": \"2.0\"");
    let (code, messages, stderr) = raw_session(&input);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("ended") && stderr.contains("Content-Length 100"), "{stderr}");
    assert!(messages.iter().any(|m| m["id"] == 2), "shutdown answered before: {messages:?}");
}

/// A skill file opened outside the workspace folders is linted alone: its own findings, and
/// nothing of the folder around it (here, a folder of 40 more skills, as a SKILL.md in `/etc`
/// or the home folder has thousands of folders below it) is discovered, linted or published.
#[test]
fn a_skill_file_outside_the_workspace_is_linted_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let (root, outside) = (base.join("workspace"), base.join("elsewhere"));
    write(&root.join("pdf/SKILL.md"), "---\nname: pdf\ndescription: Reads PDF files. Use for PDFs.\n---\n\nBody.\n");
    let broken = |name: &str| format!("---\nname: {name}\ndescription: Broken. Use for tests.\n---\n\nBody.\n");
    for i in 0..40 {
        write(&outside.join(format!("sub{i}/SKILL.md")), broken(&format!("Sub {i}")));
        write(&outside.join(format!("sub{i}/more/deeper/SKILL.md")), broken("Deeper"));
    }
    let file = outside.join("SKILL.md");
    let text = broken("Not Valid");
    write(&file, &text);

    let mut c = Client::start(&[&root], json!({}));
    c.next("skillkit/promptsChanged");
    c.open(&file, &text);
    let mut published = vec![];
    loop {
        let m = c.receive();
        if m["method"] == "skillkit/promptsChanged" {
            break;
        }
        if m["method"] == "textDocument/publishDiagnostics" {
            let codes = codes(m["params"]["diagnostics"].as_array().unwrap());
            published.push((m["params"]["uri"].as_str().unwrap().to_string(), codes));
        }
    }
    let uris: std::collections::BTreeSet<&str> = published.iter().map(|(u, _)| u.as_str()).collect();
    assert_eq!(uris.into_iter().collect::<Vec<_>>(), [uri(&file).as_str()], "{published:?}");
    // A check of the same text in a folder of the same name, alone.
    let copy = base.join("copy/elsewhere");
    write(&copy.join("SKILL.md"), &text);
    let expected = check_codes(&copy, "spec");
    assert!(expected.contains(&"SK205".to_string()), "{expected:?}");
    for (_, codes) in &published {
        assert_eq!(codes, &expected, "the same rule findings as a check of such a skill: {published:?}");
    }
    let hover = c.request("textDocument/hover", json!({"textDocument": {"uri": uri(&file)}, "position": at(1, 2)}));
    assert!(hover["result"]["contents"]["value"].as_str().unwrap().contains("`name`"), "{hover}");
    c.stop();
}
