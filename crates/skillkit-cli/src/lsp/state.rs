//! What the language server holds between messages: the engine's [`Workspace`], the open
//! documents (each with its line index), what changed since the last whole-library check, and the
//! way out to the client. The handlers ([`super::handlers`]) work on it.

use super::convert::diagnostic;
use lsp_server::{Connection, ErrorCode, Notification, Request, RequestId};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use serde_json::json;
use skillkit::syntax::text::LineIndex;
use skillkit::syntax::uri::file_uri;
use skillkit::workspace::Workspace;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

pub(crate) type Error = Box<dyn std::error::Error + Send + Sync>;

/// The commands the server runs (`workspace/executeCommand`).
pub(crate) const SHOW_PROMPT: &str = "skillkit.showPrompt";
pub(crate) const FIX_ALL: &str = "skillkit.fixAll";
/// The scheme of the prompt previews (`skillkit-prompt://claude-code`), read with [`PROMPT`].
pub(crate) const PROMPT_SCHEME: &str = "skillkit-prompt://";
/// Custom request: `{ "uri": "skillkit-prompt://AGENT" }` → `{ "text": "…" }`.
pub(crate) const PROMPT: &str = "skillkit/prompt";
/// Custom notification to the client: the previews' texts may have changed.
const PROMPTS_CHANGED: &str = "skillkit/promptsChanged";
/// The code action kind of "Fix all safe fixes".
pub(crate) const FIX_ALL_KIND: &str = "source.fixAll.skillkit";

/// A request's failure: the protocol's error code and a message.
pub(crate) struct Failure(pub(crate) ErrorCode, pub(crate) String);

impl Failure {
    pub(crate) fn internal(message: &str) -> Failure {
        Failure(ErrorCode::InternalError, message.into())
    }
}

/// A use case's error (an agent resolved as every front end resolves it): invalid params, with
/// the line the CLI prints (`error[<code>]: <message>`).
impl From<skillkit_api::AppError> for Failure {
    fn from(e: skillkit_api::AppError) -> Failure {
        Failure(ErrorCode::InvalidParams, e.to_string())
    }
}

/// What went wrong handling a notification: bad params (logged, the server goes on) or the
/// connection (the server stops).
pub(crate) enum Problem {
    Protocol(String),
    Channel(Error),
}

/// An open document: its text as the client has it, its line index, and its file.
pub(crate) struct Doc {
    pub(crate) text: String,
    /// The line index of `text`, built when the text is opened or changed.
    pub(crate) lines: LineIndex,
    pub(crate) path: PathBuf,
}

impl Doc {
    pub(crate) fn new(text: String, path: PathBuf) -> Doc {
        Doc { lines: LineIndex::new(&text), text, path }
    }

    /// A byte span of the text as a protocol range.
    pub(crate) fn range(&self, span: skillkit::Span) -> lsp::Range {
        super::convert::range(&self.text, &self.lines, span)
    }
}

pub(crate) struct State<'a> {
    pub(crate) connection: &'a Connection,
    pub(crate) ws: Workspace,
    /// The open documents' texts, by URI as the client wrote it.
    pub(crate) documents: HashMap<String, Doc>,
    /// Something changed since the last whole-library check.
    pub(crate) dirty: bool,
    /// Open skill files edited since the last whole-library check (published again after it).
    pub(crate) edited: HashSet<PathBuf>,
    pub(crate) next_id: i32,
}

impl State<'_> {
    pub(crate) fn send_notification<N: lsp::notification::Notification>(&self, params: N::Params) -> Result<(), Error> {
        self.connection.sender.send(Notification::new(N::METHOD.into(), params).into())?;
        Ok(())
    }

    pub(crate) fn send_request<R: lsp::request::Request>(&mut self, params: R::Params) -> Result<(), Error> {
        self.next_id += 1;
        let request = Request::new(RequestId::from(format!("skillkit-{}", self.next_id)), R::METHOD.into(), params);
        self.connection.sender.send(request.into())?;
        Ok(())
    }

    /// A message for the user (`window/showMessage`, a warning).
    pub(crate) fn show(&self, message: &str) -> Result<(), Error> {
        let typ = lsp::MessageType::WARNING;
        self.send_notification::<lsp::notification::ShowMessage>(lsp::ShowMessageParams {
            typ,
            message: message.into(),
        })
    }

    /// A line for the client's log (`window/logMessage`).
    pub(crate) fn log(&self, message: &str) -> Result<(), Error> {
        let typ = lsp::MessageType::ERROR;
        self.send_notification::<lsp::notification::LogMessage>(lsp::LogMessageParams { typ, message: message.into() })
    }

    /// Asks the client to send every file change (`workspace/didChangeWatchedFiles`).
    pub(crate) fn watch_files(&mut self) -> Result<(), Error> {
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

    /// The document changed: its own diagnostics now, the library's when the editor is idle.
    pub(crate) fn edited_now(&mut self, uri: &str) -> Result<(), Problem> {
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
    pub(crate) fn check_library(&mut self) -> Result<(), Error> {
        self.dirty = false;
        let changed = self.ws.check();
        let mut publish: Vec<PathBuf> = changed.into_iter().map(|(p, _)| p).collect();
        publish.extend(self.edited.drain());
        publish.sort();
        publish.dedup();
        for path in publish {
            let open = self.documents.iter().find(|(_, d)| Workspace::real_path(&d.path) == path);
            let uri = open.map_or_else(|| file_uri(&path), |(uri, _)| uri.clone());
            let diagnostics = self.ws.diagnostics(&path).iter().map(diagnostic).collect();
            self.publish(&uri, diagnostics)?;
        }
        self.connection.sender.send(Notification::new(PROMPTS_CHANGED.into(), json!({})).into())?;
        Ok(())
    }

    pub(crate) fn doc(&self, uri: &lsp::Uri) -> Result<&Doc, Failure> {
        self.documents
            .get(uri.as_str())
            .ok_or_else(|| Failure(ErrorCode::InvalidParams, format!("{} is not open", uri.as_str())))
    }
}
