//! `skillkit lsp` over real stdio (the binary, JSON-RPC with Content-Length framing): initialize,
//! diagnostics on open equal to `skillkit check`'s codes, an incremental edit that fixes the
//! error clears them, an unknown request gets MethodNotFound, shutdown and exit end the process.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};

fn send(stdin: &mut ChildStdin, message: Value) {
    let body = message.to_string();
    write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    stdin.flush().unwrap();
}

fn receive(stdout: &mut BufReader<ChildStdout>) -> Value {
    let mut length = 0;
    loop {
        let mut line = String::new();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "the server closed its output");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    stdout.read_exact(&mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

/// The next message with `method` (others, such as log messages, are skipped).
fn next(stdout: &mut BufReader<ChildStdout>, method: &str) -> Value {
    loop {
        let m = receive(stdout);
        if m["method"] == method {
            return m;
        }
    }
}

#[test]
fn diagnostics_follow_the_text_and_the_session_ends_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pdf");
    std::fs::create_dir_all(&dir).unwrap();
    let broken = "---\nname: PDF Tools\ndescription: Reads PDF files. Use for PDFs.\n---\n\nBody.\n";
    std::fs::write(dir.join("SKILL.md"), broken).unwrap();
    let uri = format!("file://{}", dir.join("SKILL.md").display());

    let check =
        Command::new(env!("CARGO_BIN_EXE_skillkit")).args(["check", "--format", "json"]).arg(&dir).output().unwrap();
    let checked: Value = serde_json::from_slice(&check.stdout).unwrap();
    let mut expected: Vec<String> = checked["skills"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    expected.sort();
    assert!(!expected.is_empty());

    let mut child = Command::new(env!("CARGO_BIN_EXE_skillkit"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());

    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "initializationOptions": {"agent": "spec"}}}),
    );
    let init = receive(&mut stdout);
    assert_eq!(init["id"], 1);
    assert_eq!(init["result"]["capabilities"]["textDocumentSync"], 2, "incremental sync");
    send(&mut stdin, json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));

    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": broken}}}),
    );
    let published = next(&mut stdout, "textDocument/publishDiagnostics");
    assert_eq!(published["params"]["uri"], uri);
    let mut codes: Vec<String> = published["params"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    codes.sort();
    assert_eq!(codes, expected, "the same findings as skillkit check");
    let name = published["params"]["diagnostics"].as_array().unwrap().iter().find(|d| d["severity"] == 1).unwrap();
    assert_eq!(name["range"]["start"], json!({"line": 1, "character": 6}), "{name}");

    // Line 2 (0-based 1), `PDF Tools` (characters 6 to 15) becomes `pdf`.
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": {"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 15}}, "text": "pdf"}]}}),
    );
    let after = next(&mut stdout, "textDocument/publishDiagnostics");
    let errors = after["params"]["diagnostics"].as_array().unwrap().iter().filter(|d| d["severity"] == 1).count();
    assert_eq!(errors, 0, "{after}");

    send(&mut stdin, json!({"jsonrpc": "2.0", "id": 2, "method": "skillkit/unknown", "params": {}}));
    let unknown = receive(&mut stdout);
    assert_eq!((unknown["id"].as_i64(), unknown["error"]["code"].as_i64()), (Some(2), Some(-32601)));

    send(&mut stdin, json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}));
    assert_eq!(receive(&mut stdout)["id"], 3);
    send(&mut stdin, json!({"jsonrpc": "2.0", "method": "exit"}));
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}
