//! A small Language Server Protocol client over the real binary's stdio (JSON-RPC with
//! Content-Length framing), shared by the protocol tests (`tests/lsp.rs`) and the latency
//! benchmark (`benches/lsp.rs`).
#![allow(dead_code)] // each user takes what it needs

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

pub struct Client {
    pub child: Child,
    pub stdin: ChildStdin,
    pub stdout: BufReader<ChildStdout>,
    next_id: i64,
    /// Messages that came while waiting for a response, for [`Client::next`].
    backlog: std::collections::VecDeque<Value>,
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

pub fn frame(message: &Value) -> Vec<u8> {
    let body = message.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

impl Client {
    /// Starts the server and initializes it on the workspace folders `roots`.
    pub fn start(roots: &[&Path], options: Value) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skillkit"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        // A server that stops answering fails the test (its output closes) instead of hanging it.
        // (Until `stop` has waited for it, the process keeps its id, exited or not.)
        let pid = child.id().to_string();
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = done.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(90));
            if !stopped.load(std::sync::atomic::Ordering::SeqCst) {
                let _ = Command::new("kill").args(["-9", &pid]).status();
            }
        });
        let mut c = Client { child, stdin, stdout, next_id: 0, backlog: Default::default(), done };
        let folders: Vec<Value> = roots.iter().map(|r| json!({"uri": uri(r), "name": "root"})).collect();
        let init = c.request(
            "initialize",
            json!({"capabilities": {}, "workspaceFolders": folders, "initializationOptions": options}),
        );
        assert!(init["result"]["capabilities"].is_object(), "{init}");
        c.notify("initialized", json!({}));
        c
    }

    pub fn send(&mut self, message: Value) {
        self.stdin.write_all(&frame(&message)).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    pub fn receive(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the server closed its output");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    /// Sends a request and returns its response (skipping notifications and server requests).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(id)
    }

    pub fn response(&mut self, id: i64) -> Value {
        loop {
            let m = self.receive();
            if m["id"] == id && m.get("method").is_none() {
                return m;
            }
            self.backlog.push_back(m);
        }
    }

    /// The next message with `method` (others are skipped).
    pub fn next(&mut self, method: &str) -> Value {
        loop {
            let m = match self.backlog.pop_front() {
                Some(m) => m,
                None => self.receive(),
            };
            if m["method"] == method {
                return m;
            }
        }
    }

    /// The next diagnostics published for `uri`.
    pub fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let m = self.next("textDocument/publishDiagnostics");
            if m["params"]["uri"] == uri {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    /// Diagnostics published for `uri` until ones satisfying `done` come.
    pub fn diagnostics_until(&mut self, uri: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        loop {
            let d = self.diagnostics(uri);
            if done(&d) {
                return d;
            }
        }
    }

    /// Diagnostics published before a change are stale: forget the ones waiting.
    pub fn forget_diagnostics(&mut self) {
        self.backlog.retain(|m| m["method"] != "textDocument/publishDiagnostics");
    }

    pub fn open(&mut self, path: &Path, text: &str) {
        self.forget_diagnostics();
        let doc = json!({"uri": uri(path), "languageId": "markdown", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": doc}));
    }

    pub fn replace(&mut self, path: &Path, version: i64, text: &str) {
        self.forget_diagnostics();
        let params =
            json!({"textDocument": {"uri": uri(path), "version": version}, "contentChanges": [{"text": text}]});
        self.notify("textDocument/didChange", params);
    }

    pub fn stop(mut self) {
        let id = self.next_id + 1;
        self.next_id = id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "shutdown"}));
        let _ = self.response(id);
        self.notify("exit", Value::Null);
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        self.done.store(true, std::sync::atomic::Ordering::SeqCst);
        assert!(status.success(), "{status:?}");
    }
}
