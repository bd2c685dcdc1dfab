//! `skillkit lsp`: the engine in any editor, over the Language Server Protocol on stdio. A
//! translation of [`skillkit::workspace::Workspace`]: URIs to paths, UTF-16 positions to byte
//! offsets and back, the engine's answers to the protocol's types. No logic of its own.
//!
//! Built on `lsp-server` (rust-analyzer's synchronous transport): the engine is synchronous and
//! answers in milliseconds, so an async runtime (tower-lsp) would add a dependency tree and
//! nothing else. One thread handles the messages in order; while it works, requests queue, and a
//! `$/cancelRequest` that arrives before its request is handled cancels it. The whole-library
//! check runs when no message has come for [`IDLE`].

mod transport;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use serde_json::{json, Value};
use skillkit::library::watch::FsChange;
use skillkit::syntax::text::{LineIndex, Span};
use skillkit::workspace::{CompletionKind, Workspace};
use std::collections::{HashMap, HashSet, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

type Error = Box<dyn std::error::Error + Send + Sync>;

/// How long the editor must be quiet before the whole library is checked again.
const IDLE: Duration = Duration::from_millis(200);

/// The commands the server runs (`workspace/executeCommand`).
const SHOW_PROMPT: &str = "skillkit.showPrompt";
const FIX_ALL: &str = "skillkit.fixAll";
/// The scheme of the prompt previews (`skillkit-prompt://claude-code`), read with [`PROMPT`].
const PROMPT_SCHEME: &str = "skillkit-prompt://";
/// Custom request: `{ "uri": "skillkit-prompt://AGENT" }` → `{ "text": "…" }`.
const PROMPT: &str = "skillkit/prompt";
/// Custom notification to the client: the previews' texts may have changed.
const PROMPTS_CHANGED: &str = "skillkit/promptsChanged";
/// The code action kind of "Fix all safe fixes".
const FIX_ALL_KIND: &str = "source.fixAll.skillkit";

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
    let mut server = Server {
        connection,
        receiver,
        shutdown: false,
        ws: Workspace::open(&roots, agent).with_project(project),
        documents: HashMap::new(),
        queue: VecDeque::new(),
        dirty: true,
        edited: HashSet::new(),
        next_id: 0,
    };
    for w in warnings {
        server.show(&w)?;
    }
    if watch {
        server.watch_files()?;
    }
    server.serve()
}

/// The workspace folders (else the root) the client opened, as paths.
fn roots(params: &Value) -> Vec<PathBuf> {
    let folders: Vec<PathBuf> = params
        .get("workspaceFolders")
        .and_then(Value::as_array)
        .map(|f| f.iter().filter_map(|f| f.get("uri")?.as_str().and_then(path_of)).collect())
        .unwrap_or_default();
    if !folders.is_empty() {
        return folders;
    }
    let root = params.get("rootUri").and_then(Value::as_str).and_then(path_of);
    root.or_else(|| params.get("rootPath").and_then(Value::as_str).map(PathBuf::from)).into_iter().collect()
}

struct Server<'a> {
    connection: &'a Connection,
    receiver: std::sync::mpsc::Receiver<Message>,
    /// `shutdown` was asked: only `exit` is left to come.
    shutdown: bool,
    ws: Workspace,
    /// The open documents' texts, by URI as the client wrote it.
    documents: HashMap<String, Doc>,
    /// Messages read ahead while looking for cancellations.
    queue: VecDeque<Message>,
    /// Something changed since the last whole-library check.
    dirty: bool,
    /// Open skill files edited since the last whole-library check (published again after it).
    edited: HashSet<PathBuf>,
    next_id: i32,
}

struct Doc {
    text: String,
    path: PathBuf,
}

impl Server<'_> {
    fn serve(&mut self) -> Result<(), Error> {
        loop {
            let message = match self.queue.pop_front() {
                Some(m) => m,
                None if self.dirty => match self.receiver.recv_timeout(IDLE) {
                    Ok(m) => m,
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                        self.check_library()?;
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
                        self.connection.sender.send(Response::new_ok(request.id, ()).into())?;
                        continue;
                    }
                    if self.shutdown {
                        let response =
                            Response::new_err(request.id, ErrorCode::InvalidRequest as i32, "shutting down".into());
                        self.connection.sender.send(response.into())?;
                        continue;
                    }
                    if self.cancelled(&request.id) {
                        let response =
                            Response::new_err(request.id, ErrorCode::RequestCanceled as i32, "cancelled".into());
                        self.connection.sender.send(response.into())?;
                        continue;
                    }
                    let id = request.id.clone();
                    let response = match self.request(request) {
                        Ok(result) => Response::new_ok(id, result),
                        Err(Failure(code, message)) => Response::new_err(id, code as i32, message),
                    };
                    self.connection.sender.send(response.into())?;
                }
                Message::Notification(n) if n.method == lsp::notification::Exit::METHOD => {
                    return if self.shutdown { Ok(()) } else { Err("`exit` before `shutdown`".into()) };
                }
                Message::Notification(_) if self.shutdown => {}
                Message::Notification(n) => {
                    if let Err(e) = self.notification(n) {
                        match e {
                            Problem::Protocol(message) => self.log(&message)?,
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

    fn send_notification<N: lsp::notification::Notification>(&self, params: N::Params) -> Result<(), Error> {
        self.connection.sender.send(Notification::new(N::METHOD.into(), params).into())?;
        Ok(())
    }

    fn send_request<R: lsp::request::Request>(&mut self, params: R::Params) -> Result<(), Error> {
        self.next_id += 1;
        let request = Request::new(RequestId::from(format!("skillkit-{}", self.next_id)), R::METHOD.into(), params);
        self.connection.sender.send(request.into())?;
        Ok(())
    }

    /// A message for the user (`window/showMessage`, a warning).
    fn show(&self, message: &str) -> Result<(), Error> {
        let typ = lsp::MessageType::WARNING;
        self.send_notification::<lsp::notification::ShowMessage>(lsp::ShowMessageParams {
            typ,
            message: message.into(),
        })
    }

    /// A line for the client's log (`window/logMessage`).
    fn log(&self, message: &str) -> Result<(), Error> {
        let typ = lsp::MessageType::ERROR;
        self.send_notification::<lsp::notification::LogMessage>(lsp::LogMessageParams { typ, message: message.into() })
    }

    /// Asks the client to send every file change (`workspace/didChangeWatchedFiles`).
    fn watch_files(&mut self) -> Result<(), Error> {
        let options = lsp::DidChangeWatchedFilesRegistrationOptions {
            watchers: vec![lsp::FileSystemWatcher {
                glob_pattern: lsp::GlobPattern::String("**/*".into()),
                kind: None,
            }],
        };
        let registration = lsp::Registration {
            id: "skillkit-watch".into(),
            method: lsp::notification::DidChangeWatchedFiles::METHOD.into(),
            register_options: Some(serde_json::to_value(options)?),
        };
        self.send_request::<lsp::request::RegisterCapability>(lsp::RegistrationParams {
            registrations: vec![registration],
        })
    }

    fn notification(&mut self, n: Notification) -> Result<(), Problem> {
        use lsp::notification::*;
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let p: lsp::DidOpenTextDocumentParams = params(n)?;
                let Some(path) = path_of(p.text_document.uri.as_str()) else { return Ok(()) };
                let uri = p.text_document.uri.as_str().to_string();
                self.documents.insert(uri.clone(), Doc { text: p.text_document.text, path });
                self.edited_now(&uri)?;
            }
            DidChangeTextDocument::METHOD => {
                let p: lsp::DidChangeTextDocumentParams = params(n)?;
                let uri = p.text_document.uri.as_str().to_string();
                let Some(doc) = self.documents.get_mut(&uri) else { return Ok(()) };
                for change in p.content_changes {
                    apply(&mut doc.text, change);
                }
                self.edited_now(&uri)?;
            }
            DidCloseTextDocument::METHOD => {
                let p: lsp::DidCloseTextDocumentParams = params(n)?;
                if let Some(doc) = self.documents.remove(p.text_document.uri.as_str()) {
                    self.ws.close(&doc.path);
                    self.dirty = true;
                    // What is on disk is published by the next whole-library check.
                    self.edited.insert(Workspace::real_path(&doc.path));
                }
            }
            DidChangeWatchedFiles::METHOD => {
                let p: lsp::DidChangeWatchedFilesParams = params(n)?;
                let changes: Vec<FsChange> = p
                    .changes
                    .iter()
                    .filter_map(|c| {
                        let path = path_of(c.uri.as_str())?;
                        Some(match c.typ {
                            lsp::FileChangeType::CREATED => FsChange::Created(path),
                            lsp::FileChangeType::DELETED => FsChange::Removed(path),
                            _ => FsChange::Modified(path),
                        })
                    })
                    .collect();
                self.ws.files_changed(&changes);
                self.dirty = true;
            }
            _ => {}
        }
        Ok(())
    }

    /// The document changed: its own diagnostics now, the library's when the editor is idle.
    fn edited_now(&mut self, uri: &str) -> Result<(), Problem> {
        let doc = &self.documents[uri];
        let Some(found) = self.ws.edit(&doc.path, &doc.text) else { return Ok(()) };
        let diagnostics = found.iter().map(diagnostic).collect();
        self.edited.insert(Workspace::real_path(&doc.path));
        self.dirty = true;
        self.publish(uri, diagnostics).map_err(Problem::Channel)
    }

    fn publish(&self, uri: &str, diagnostics: Vec<lsp::Diagnostic>) -> Result<(), Error> {
        let uri: lsp::Uri = uri.parse().map_err(|_| format!("not a URI: {uri}"))?;
        self.send_notification::<lsp::notification::PublishDiagnostics>(lsp::PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        })
    }

    /// `skillkit check` on the whole library: publishes every file whose findings changed, and
    /// every open file edited since the last check.
    fn check_library(&mut self) -> Result<(), Error> {
        self.dirty = false;
        let changed = self.ws.check();
        let mut publish: Vec<PathBuf> = changed.into_iter().map(|(p, _)| p).collect();
        publish.extend(self.edited.drain());
        publish.sort();
        publish.dedup();
        for path in publish {
            let open = self.documents.iter().find(|(_, d)| Workspace::real_path(&d.path) == path);
            let uri = open.map_or_else(|| uri_of(&path), |(uri, _)| uri.clone());
            let diagnostics = self.ws.diagnostics(&path).iter().map(diagnostic).collect();
            self.publish(&uri, diagnostics)?;
        }
        self.connection.sender.send(Notification::new(PROMPTS_CHANGED.into(), json!({})).into())?;
        Ok(())
    }

    fn doc(&self, uri: &lsp::Uri) -> Result<&Doc, Failure> {
        self.documents
            .get(uri.as_str())
            .ok_or_else(|| Failure(ErrorCode::InvalidParams, format!("{} is not open", uri.as_str())))
    }

    fn request(&mut self, request: Request) -> Result<Value, Failure> {
        use lsp::request::*;
        let r = request;
        Ok(match r.method.as_str() {
            HoverRequest::METHOD => {
                let p: lsp::HoverParams = req_params(r)?;
                let doc = self.doc(&p.text_document_position_params.text_document.uri)?;
                let offset = offset(&doc.text, p.text_document_position_params.position);
                let hover = self.ws.hover(&doc.path, offset).map(|h| lsp::Hover {
                    contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                        kind: lsp::MarkupKind::Markdown,
                        value: h.markdown,
                    }),
                    range: Some(range(&doc.text, h.span)),
                });
                to_value(hover)
            }
            Completion::METHOD => {
                let p: lsp::CompletionParams = req_params(r)?;
                let doc = self.doc(&p.text_document_position.text_document.uri)?;
                let offset = offset(&doc.text, p.text_document_position.position);
                let items: Vec<lsp::CompletionItem> =
                    self.ws.complete(&doc.path, offset).into_iter().map(|c| completion(&doc.text, c)).collect();
                to_value(lsp::CompletionResponse::Array(items))
            }
            CodeActionRequest::METHOD => {
                let p: lsp::CodeActionParams = req_params(r)?;
                to_value(self.code_actions(p)?)
            }
            GotoDefinition::METHOD => {
                let p: lsp::GotoDefinitionParams = req_params(r)?;
                let doc = self.doc(&p.text_document_position_params.text_document.uri)?;
                let offset = offset(&doc.text, p.text_document_position_params.position);
                let target = self.ws.definition(&doc.path, offset).filter(|t| t.is_file());
                to_value(target.and_then(|t| location(&t)).map(lsp::GotoDefinitionResponse::Scalar))
            }
            DocumentLinkRequest::METHOD => {
                let p: lsp::DocumentLinkParams = req_params(r)?;
                let doc = self.doc(&p.text_document.uri)?;
                let links: Vec<lsp::DocumentLink> = self
                    .ws
                    .links(&doc.path)
                    .into_iter()
                    .filter_map(|l| {
                        Some(lsp::DocumentLink {
                            range: range(&doc.text, l.span),
                            target: Some(uri_of(&l.target).parse().ok()?),
                            tooltip: Some(l.target.display().to_string()),
                            data: None,
                        })
                    })
                    .collect();
                to_value(links)
            }
            CodeLensRequest::METHOD => {
                let p: lsp::CodeLensParams = req_params(r)?;
                let doc = self.doc(&p.text_document.uri)?;
                let at = lsp::Range::default();
                let lenses: Vec<lsp::CodeLens> = self
                    .ws
                    .lenses(&doc.path)
                    .into_iter()
                    .map(|l| lsp::CodeLens {
                        range: at,
                        command: Some(lsp::Command {
                            title: l.title,
                            command: SHOW_PROMPT.into(),
                            arguments: Some(vec![json!(l.agent)]),
                        }),
                        data: None,
                    })
                    .collect();
                to_value(lenses)
            }
            ExecuteCommand::METHOD => {
                let p: lsp::ExecuteCommandParams = req_params(r)?;
                self.execute(p)?;
                Value::Null
            }
            PROMPT => {
                let uri = r.params.get("uri").and_then(Value::as_str).unwrap_or_default();
                let id = uri.strip_prefix(PROMPT_SCHEME).unwrap_or(uri).trim_end_matches('/');
                let agent = skillkit::find_agent(id)
                    .ok_or_else(|| Failure(ErrorCode::InvalidParams, skillkit::agents::unknown_agent(id)))?;
                let prompt = self.ws.prompt(agent).ok_or_else(|| {
                    Failure(ErrorCode::InvalidParams, format!("`{}` only lints; it injects no prompt", agent.id))
                })?;
                json!({ "text": prompt.text })
            }
            _ => {
                return Err(Failure(ErrorCode::MethodNotFound, format!("skillkit lsp does not answer `{}`", r.method)))
            }
        })
    }

    fn code_actions(&self, p: lsp::CodeActionParams) -> Result<Vec<lsp::CodeActionOrCommand>, Failure> {
        let doc = self.doc(&p.text_document.uri)?;
        let want = |kind: &lsp::CodeActionKind| {
            p.context.only.as_ref().is_none_or(|only| only.iter().any(|o| kind.as_str().starts_with(o.as_str())))
        };
        let (start, end) = (offset(&doc.text, p.range.start), offset(&doc.text, p.range.end));
        let mut actions = vec![];
        if want(&lsp::CodeActionKind::QUICKFIX) {
            // The engine's order: the preferred fix (the one that clears the most there and adds no
            // error) first.
            let at = skillkit::Span::new(start.min(end), end.max(start));
            for (i, d) in self.ws.quick_fixes(&doc.path, at).into_iter().enumerate() {
                let Some(fix) = &d.fix else { continue };
                let edits = fix
                    .edits
                    .iter()
                    .map(|e| lsp::TextEdit { range: range(&doc.text, e.span), new_text: e.replacement.clone() })
                    .collect();
                actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                    title: fix.message.clone(),
                    kind: Some(lsp::CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diagnostic(&d)]),
                    edit: Some(edit(&p.text_document.uri, edits)),
                    is_preferred: Some(i == 0),
                    ..Default::default()
                }));
            }
        }
        let fix_all = lsp::CodeActionKind::new(FIX_ALL_KIND);
        if want(&fix_all) {
            if let Some(fixed) = self.ws.fix_all(&doc.path, &doc.text) {
                actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                    title: "Fix all safe fixes (skillkit)".into(),
                    kind: Some(fix_all),
                    edit: Some(edit(&p.text_document.uri, vec![whole(&doc.text, fixed)])),
                    ..Default::default()
                }));
            }
        }
        Ok(actions)
    }

    fn execute(&mut self, p: lsp::ExecuteCommandParams) -> Result<(), Failure> {
        let arg = p.arguments.first().and_then(Value::as_str).unwrap_or_default().to_string();
        let sent = match p.command.as_str() {
            SHOW_PROMPT => {
                let agent = skillkit::find_agent(&arg)
                    .ok_or_else(|| Failure(ErrorCode::InvalidParams, skillkit::agents::unknown_agent(&arg)))?;
                let uri = format!("{PROMPT_SCHEME}{}", agent.id).parse().map_err(|_| Failure::internal("bad URI"))?;
                self.send_request::<lsp::request::ShowDocument>(lsp::ShowDocumentParams {
                    uri,
                    external: Some(false),
                    take_focus: Some(true),
                    selection: None,
                })
            }
            FIX_ALL => {
                let uri: lsp::Uri =
                    arg.parse().map_err(|_| Failure(ErrorCode::InvalidParams, format!("not a URI: {arg}")))?;
                let doc = self.doc(&uri)?;
                let Some(fixed) = self.ws.fix_all(&doc.path, &doc.text) else { return Ok(()) };
                let edit = edit(&uri, vec![whole(&doc.text, fixed)]);
                self.send_request::<lsp::request::ApplyWorkspaceEdit>(lsp::ApplyWorkspaceEditParams {
                    label: Some("Fix all safe fixes".into()),
                    edit,
                })
            }
            other => return Err(Failure(ErrorCode::InvalidParams, format!("unknown command `{other}`"))),
        };
        sent.map_err(|e| Failure::internal(&e.to_string()))
    }
}

/// A request's failure: the protocol's error code and a message.
struct Failure(ErrorCode, String);

impl Failure {
    fn internal(message: &str) -> Failure {
        Failure(ErrorCode::InternalError, message.into())
    }
}

/// What went wrong handling a notification: bad params (logged, the server goes on) or the
/// connection (the server stops).
enum Problem {
    Protocol(String),
    Channel(Error),
}

fn params<T: serde::de::DeserializeOwned>(n: Notification) -> Result<T, Problem> {
    serde_json::from_value(n.params).map_err(|e| Problem::Protocol(format!("skillkit lsp: bad `{}`: {e}", n.method)))
}

fn req_params<T: serde::de::DeserializeOwned>(r: Request) -> Result<T, Failure> {
    serde_json::from_value(r.params).map_err(|e| Failure(ErrorCode::InvalidParams, format!("bad `{}`: {e}", r.method)))
}

fn to_value<T: serde::Serialize>(v: T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn edit(uri: &lsp::Uri, edits: Vec<lsp::TextEdit>) -> lsp::WorkspaceEdit {
    #[allow(clippy::mutable_key_type)] // `Uri` caches its parts; the protocol's type is keyed by it.
    let changes = HashMap::from([(uri.clone(), edits)]);
    lsp::WorkspaceEdit { changes: Some(changes), ..Default::default() }
}

/// One edit replacing the whole text.
fn whole(text: &str, new_text: String) -> lsp::TextEdit {
    lsp::TextEdit { range: range(text, Span::new(0, text.len())), new_text }
}

fn location(path: &Path) -> Option<lsp::Location> {
    Some(lsp::Location { uri: uri_of(path).parse().ok()?, range: lsp::Range::default() })
}

fn completion(text: &str, c: skillkit::workspace::Completion) -> lsp::CompletionItem {
    let kind = match c.kind {
        CompletionKind::Key => lsp::CompletionItemKind::PROPERTY,
        CompletionKind::Value => lsp::CompletionItemKind::ENUM_MEMBER,
        CompletionKind::File => lsp::CompletionItemKind::FILE,
        CompletionKind::Folder => lsp::CompletionItemKind::FOLDER,
    };
    let documentation =
        (!c.documentation.is_empty()).then_some(lsp::Documentation::MarkupContent(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: c.documentation,
        }));
    lsp::CompletionItem {
        label: c.label,
        kind: Some(kind),
        detail: Some(c.detail),
        documentation,
        text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
            range: range(text, c.span),
            new_text: c.insert,
        })),
        ..Default::default()
    }
}

/// The file a `file:` URI names.
fn path_of(uri: &str) -> Option<PathBuf> {
    let s = uri.strip_prefix("file://")?;
    let decoded = percent_decode(s)?;
    Some(PathBuf::from(decoded))
}

/// The `file:` URI of a path, percent-encoding what a URI path cannot hold.
fn uri_of(path: &Path) -> String {
    let mut out = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The engine's diagnostic as the protocol's: 0-based lines and UTF-16 columns.
fn diagnostic(d: &skillkit::Diagnostic) -> lsp::Diagnostic {
    let position = |p: &skillkit::Position| lsp::Position {
        line: p.line.saturating_sub(1) as u32,
        character: p.column_utf16.saturating_sub(1) as u32,
    };
    let severity = match d.severity {
        skillkit::Severity::Error => lsp::DiagnosticSeverity::ERROR,
        skillkit::Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        skillkit::Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
    };
    lsp::Diagnostic {
        range: lsp::Range { start: position(&d.start), end: position(&d.end) },
        severity: Some(severity),
        code: Some(lsp::NumberOrString::String(d.code.to_string())),
        source: Some("skillkit".into()),
        message: match &d.help {
            Some(help) => format!("{}\n{help}", d.message),
            None => d.message.clone(),
        },
        ..Default::default()
    }
}

/// A byte span of `text` as a protocol range.
fn range(text: &str, span: Span) -> lsp::Range {
    let lines = LineIndex::new(text);
    let position = |offset: usize| {
        let p = lines.position(text, offset);
        lsp::Position { line: (p.line - 1) as u32, character: (p.column_utf16 - 1) as u32 }
    };
    lsp::Range { start: position(span.start), end: position(span.end) }
}

/// Applies one change: the whole text, or a range (0-based line, UTF-16 column) replaced.
fn apply(text: &mut String, change: lsp::TextDocumentContentChangeEvent) {
    match change.range {
        None => *text = change.text,
        Some(range) => {
            let start = offset(text, range.start);
            let end = offset(text, range.end).max(start);
            text.replace_range(start..end, &change.text);
        }
    }
}

/// The byte offset of a protocol position in `text`, clamped to the line's end and the text's.
fn offset(text: &str, p: lsp::Position) -> usize {
    let mut line_start = 0;
    for _ in 0..p.line {
        match memchr_newline(&text[line_start..]) {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = memchr_newline(&text[line_start..]).map_or(text.len(), |i| line_start + i);
    let mut units = 0u32;
    for (i, c) in text[line_start..line_end].char_indices() {
        if units >= p.character {
            return line_start + i;
        }
        units += c.len_utf16() as u32;
    }
    line_end
}

fn memchr_newline(s: &str) -> Option<usize> {
    s.bytes().position(|b| b == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_clamp() {
        let text = "ab\né😀x\nlast";
        let at = |line, character| offset(text, lsp::Position { line, character });
        assert_eq!(at(1, 0), 3);
        assert_eq!(at(1, 1), 5);
        assert_eq!(at(1, 3), 9);
        assert_eq!(at(1, 99), 10);
        assert_eq!(at(9, 0), text.len());
        let mut t = text.to_string();
        let r =
            lsp::Range { start: lsp::Position { line: 1, character: 1 }, end: lsp::Position { line: 1, character: 3 } };
        apply(&mut t, lsp::TextDocumentContentChangeEvent { range: Some(r), range_length: None, text: "-".into() });
        assert_eq!(t, "ab\né-x\nlast");
        assert_eq!(range(text, Span::new(5, 9)), r);
        assert_eq!(percent_decode("/a%20b/SKILL.md").as_deref(), Some("/a b/SKILL.md"));
        assert_eq!(uri_of(Path::new("/a b/é/SKILL.md")), "file:///a%20b/%C3%A9/SKILL.md");
        assert_eq!(path_of(&uri_of(Path::new("/a b/é/SKILL.md"))), Some(PathBuf::from("/a b/é/SKILL.md")));
    }
}
