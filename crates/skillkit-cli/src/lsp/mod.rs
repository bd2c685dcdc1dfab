//! `skillkit lsp`: the engine in any editor, over the Language Server Protocol on stdio. A
//! translation of [`skillkit::workspace::Workspace`]: URIs to paths, UTF-16 positions to byte
//! offsets and back, the engine's answers to the protocol's types. No logic of its own.
//!
//! Built on `lsp-server` (rust-analyzer's synchronous transport): the engine is synchronous and
//! answers in milliseconds, so an async runtime (tower-lsp) would add a dependency tree and
//! nothing else. One thread handles the messages in order; while it works, requests queue, and a
//! `$/cancelRequest` that arrives before its request is handled cancels it. The whole-library
//! check runs when no message has come for [`IDLE`].
//!
//! The message loop and the lifecycle (`initialize`, `shutdown`, `exit`, cancellation) are here;
//! each other method's handler is in [`handlers`], found through its table; what the handlers
//! share is [`state`]; the protocol's types from the engine's, and back, in [`convert`]; the
//! stdio framing in [`transport`].

mod convert;
mod handlers;
mod state;
mod transport;

use lsp_server::{Connection, ErrorCode, Message, RequestId, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use serde_json::Value;
use skillkit::syntax::uri::file_path;
use skillkit::workspace::Workspace;
use state::{Error, Failure, Problem, State, FIX_ALL, FIX_ALL_KIND, SHOW_PROMPT};
use std::collections::{HashMap, HashSet, VecDeque};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// How long the editor must be quiet before the whole library is checked again.
const IDLE: Duration = Duration::from_millis(200);

/// Runs the server on stdin/stdout until the client's `exit`. Returns the exit code.
///
/// The transport is our own ([`transport`]): a client's bad framing ends the session with a
/// message on `err` and code 1, a body that is not a message is answered with an error.
pub fn serve(err: &mut dyn Write) -> std::io::Result<i32> {
    let (connection, transport) = transport::stdio();
    let result = run(&connection);
    drop(connection);
    let failure = transport.failure();
    transport.join();
    if let Some(why) = failure {
        writeln!(err, "skillkit lsp: bad input from the client, stopping: {why}")?;
        return Ok(1);
    }
    match result {
        Ok(()) => Ok(0),
        Err(e) => {
            writeln!(err, "skillkit lsp: {e}")?;
            Ok(1)
        }
    }
}

/// Serves one client over `connection` (an in-memory pair in tests; [`serve`] uses stdio).
pub fn serve_on(connection: &Connection) -> Result<(), Error> {
    run(connection)
}

fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        position_encoding: Some(lsp::PositionEncodingKind::UTF16),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(lsp::TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
            ..Default::default()
        })),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec!["(".into(), "/".into(), ":".into()]),
            ..Default::default()
        }),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(lsp::CodeActionOptions {
            code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX, lsp::CodeActionKind::new(FIX_ALL_KIND)]),
            ..Default::default()
        })),
        definition_provider: Some(lsp::OneOf::Left(true)),
        document_link_provider: Some(lsp::DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: Default::default(),
        }),
        code_lens_provider: Some(lsp::CodeLensOptions { resolve_provider: Some(false) }),
        execute_command_provider: Some(lsp::ExecuteCommandOptions {
            commands: vec![SHOW_PROMPT.into(), FIX_ALL.into()],
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn run(connection: &Connection) -> Result<(), Error> {
    let params = connection.initialize(serde_json::to_value(capabilities())?)?;
    let roots = roots(&params);
    let mut warnings = vec![];
    let asked = params.get("initializationOptions").and_then(|o| o.get("agent")).and_then(Value::as_str);
    // The project and the agent as every front end resolves them (`skillkit_api::resolve`); a
    // mistake is shown, and the server goes on with the `spec` profile.
    let project = match roots.first().map(|r| skillkit_api::resolve::project(r)) {
        Some(Ok(found)) => found,
        Some(Err(e)) => {
            warnings.push(format!("skillkit lsp: {e}"));
            None
        }
        None => None,
    };
    warnings.extend(project.iter().flat_map(|p| p.warnings.iter().map(|w| format!("skillkit lsp: {w}"))));
    let agent = match skillkit_api::resolve::chosen_agent(asked, project.as_ref(), Some("spec")) {
        Some(Ok(a)) => a,
        Some(Err(e)) => {
            warnings.push(format!("skillkit lsp: {e}"));
            &skillkit::agents::SPEC
        }
        None => &skillkit::agents::SPEC,
    };
    let watch = params
        .pointer("/capabilities/workspace/didChangeWatchedFiles/dynamicRegistration")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    // Messages are read ahead into an unbounded queue while the server works, so that a
    // cancellation can overtake the request it cancels (the connection's own channel holds none).
    let (forward, receiver) = std::sync::mpsc::channel();
    let incoming = connection.receiver.clone();
    std::thread::spawn(move || {
        for m in incoming {
            if forward.send(m).is_err() {
                break;
            }
        }
    });
    let state = State {
        connection,
        ws: Workspace::open(&roots, agent).with_project(project),
        documents: HashMap::new(),
        dirty: true,
        edited: HashSet::new(),
        next_id: 0,
    };
    let mut server = Server { state, receiver, shutdown: false, queue: VecDeque::new() };
    for w in warnings {
        server.state.show(&w)?;
    }
    if watch {
        server.state.watch_files()?;
    }
    server.serve()
}

/// The workspace folders (else the root) the client opened, as paths.
fn roots(params: &Value) -> Vec<PathBuf> {
    let folders: Vec<PathBuf> = params
        .get("workspaceFolders")
        .and_then(Value::as_array)
        .map(|f| f.iter().filter_map(|f| f.get("uri")?.as_str().and_then(file_path)).collect())
        .unwrap_or_default();
    if !folders.is_empty() {
        return folders;
    }
    let root = params.get("rootUri").and_then(Value::as_str).and_then(file_path);
    root.or_else(|| params.get("rootPath").and_then(Value::as_str).map(PathBuf::from)).into_iter().collect()
}

/// The message loop: reads ahead for cancellations, answers the lifecycle, and hands every
/// other message to its handler.
struct Server<'a> {
    state: State<'a>,
    receiver: std::sync::mpsc::Receiver<Message>,
    /// `shutdown` was asked: only `exit` is left to come.
    shutdown: bool,
    /// Messages read ahead while looking for cancellations.
    queue: VecDeque<Message>,
}

impl Server<'_> {
    fn serve(&mut self) -> Result<(), Error> {
        let connection = self.state.connection;
        loop {
            let message = match self.queue.pop_front() {
                Some(m) => m,
                None if self.state.dirty => match self.receiver.recv_timeout(IDLE) {
                    Ok(m) => m,
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                        self.state.check_library()?;
                        continue;
                    }
                    Err(_) => return Ok(()),
                },
                None => match self.receiver.recv() {
                    Ok(m) => m,
                    Err(_) => return Ok(()),
                },
            };
            match message {
                Message::Request(request) => {
                    if request.method == lsp::request::Shutdown::METHOD {
                        self.shutdown = true;
                        connection.sender.send(Response::new_ok(request.id, ()).into())?;
                        continue;
                    }
                    if self.shutdown {
                        let response =
                            Response::new_err(request.id, ErrorCode::InvalidRequest as i32, "shutting down".into());
                        connection.sender.send(response.into())?;
                        continue;
                    }
                    if self.cancelled(&request.id) {
                        let response =
                            Response::new_err(request.id, ErrorCode::RequestCanceled as i32, "cancelled".into());
                        connection.sender.send(response.into())?;
                        continue;
                    }
                    let id = request.id.clone();
                    let answer = match handlers::request_handler(&request.method) {
                        Some(handle) => handle(&mut self.state, request),
                        None => Err(Failure(
                            ErrorCode::MethodNotFound,
                            format!("skillkit lsp does not answer `{}`", request.method),
                        )),
                    };
                    let response = match answer {
                        Ok(result) => Response::new_ok(id, result),
                        Err(Failure(code, message)) => Response::new_err(id, code as i32, message),
                    };
                    connection.sender.send(response.into())?;
                }
                Message::Notification(n) if n.method == lsp::notification::Exit::METHOD => {
                    return if self.shutdown { Ok(()) } else { Err("`exit` before `shutdown`".into()) };
                }
                Message::Notification(_) if self.shutdown => {}
                Message::Notification(n) => {
                    let Some(handle) = handlers::notification_handler(&n.method) else { continue };
                    if let Err(e) = handle(&mut self.state, n) {
                        match e {
                            Problem::Protocol(message) => self.state.log(&message)?,
                            Problem::Channel(e) => return Err(e),
                        }
                    }
                }
                Message::Response(_) => {}
            }
        }
    }

    /// Whether a `$/cancelRequest` for `id` is waiting (reading ahead what has arrived).
    fn cancelled(&mut self, id: &RequestId) -> bool {
        while let Ok(m) = self.receiver.try_recv() {
            self.queue.push_back(m);
        }
        let is_cancel = |m: &Message| match m {
            Message::Notification(n) if n.method == lsp::notification::Cancel::METHOD => {
                serde_json::from_value::<lsp::CancelParams>(n.params.clone()).is_ok_and(|p| match p.id {
                    lsp::NumberOrString::Number(n) => *id == RequestId::from(n),
                    lsp::NumberOrString::String(s) => *id == RequestId::from(s),
                })
            }
            _ => false,
        };
        match self.queue.iter().position(is_cancel) {
            Some(i) => {
                self.queue.remove(i);
                true
            }
            None => false,
        }
    }
}
