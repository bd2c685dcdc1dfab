//! One function per request and notification the server answers, and the tables that map each
//! method name to its function ([`REQUESTS`], [`NOTIFICATIONS`]). The lifecycle messages
//! (`shutdown`, `exit`, `$/cancelRequest`) are the message loop's ([`super`]).

use super::convert::{apply, completion, diagnostic, edit, location, offset, to_value, whole};
use super::state::{Doc, Failure, Problem, State, FIX_ALL, FIX_ALL_KIND, PROMPT, PROMPT_SCHEME, SHOW_PROMPT};
use lsp_server::{ErrorCode, Notification, Request};
use lsp_types as lsp;
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use serde_json::{json, Value};
use skillkit::library::watch::FsChange;
use skillkit::syntax::text::LineIndex;
use skillkit::syntax::uri::{file_path, file_uri};
use skillkit::workspace::Workspace;

pub(crate) type RequestHandler = fn(&mut State<'_>, Request) -> Result<Value, Failure>;
pub(crate) type NotificationHandler = fn(&mut State<'_>, Notification) -> Result<(), Problem>;

/// The requests answered, by method. Any other is answered `MethodNotFound`.
pub(crate) const REQUESTS: &[(&str, RequestHandler)] = &[
    (req::HoverRequest::METHOD, hover),
    (req::Completion::METHOD, complete),
    (req::CodeActionRequest::METHOD, code_action),
    (req::GotoDefinition::METHOD, definition),
    (req::DocumentLinkRequest::METHOD, document_links),
    (req::CodeLensRequest::METHOD, code_lenses),
    (req::ExecuteCommand::METHOD, execute_command),
    (PROMPT, prompt),
];

/// The notifications acted on, by method. Any other is ignored.
pub(crate) const NOTIFICATIONS: &[(&str, NotificationHandler)] = &[
    (note::DidOpenTextDocument::METHOD, did_open),
    (note::DidChangeTextDocument::METHOD, did_change),
    (note::DidCloseTextDocument::METHOD, did_close),
    (note::DidChangeWatchedFiles::METHOD, did_change_watched_files),
];

/// The handler of a request's method.
pub(crate) fn request_handler(method: &str) -> Option<RequestHandler> {
    REQUESTS.iter().find(|(m, _)| *m == method).map(|(_, h)| *h)
}

/// The handler of a notification's method.
pub(crate) fn notification_handler(method: &str) -> Option<NotificationHandler> {
    NOTIFICATIONS.iter().find(|(m, _)| *m == method).map(|(_, h)| *h)
}

fn params<T: serde::de::DeserializeOwned>(n: Notification) -> Result<T, Problem> {
    serde_json::from_value(n.params).map_err(|e| Problem::Protocol(format!("skillkit lsp: bad `{}`: {e}", n.method)))
}

fn req_params<T: serde::de::DeserializeOwned>(r: Request) -> Result<T, Failure> {
    serde_json::from_value(r.params).map_err(|e| Failure(ErrorCode::InvalidParams, format!("bad `{}`: {e}", r.method)))
}

// ---- notifications ----

fn did_open(s: &mut State<'_>, n: Notification) -> Result<(), Problem> {
    let p: lsp::DidOpenTextDocumentParams = params(n)?;
    let Some(path) = file_path(p.text_document.uri.as_str()) else { return Ok(()) };
    let uri = p.text_document.uri.as_str().to_string();
    s.documents.insert(uri.clone(), Doc::new(p.text_document.text, path));
    s.edited_now(&uri)
}

fn did_change(s: &mut State<'_>, n: Notification) -> Result<(), Problem> {
    let p: lsp::DidChangeTextDocumentParams = params(n)?;
    let uri = p.text_document.uri.as_str().to_string();
    let Some(doc) = s.documents.get_mut(&uri) else { return Ok(()) };
    for change in p.content_changes {
        apply(&mut doc.text, change);
    }
    doc.lines = LineIndex::new(&doc.text);
    s.edited_now(&uri)
}

fn did_close(s: &mut State<'_>, n: Notification) -> Result<(), Problem> {
    let p: lsp::DidCloseTextDocumentParams = params(n)?;
    if let Some(doc) = s.documents.remove(p.text_document.uri.as_str()) {
        s.ws.close(&doc.path);
        s.dirty = true;
        // What is on disk is published by the next whole-library check.
        s.edited.insert(Workspace::real_path(&doc.path));
    }
    Ok(())
}

fn did_change_watched_files(s: &mut State<'_>, n: Notification) -> Result<(), Problem> {
    let p: lsp::DidChangeWatchedFilesParams = params(n)?;
    let changes: Vec<FsChange> = p
        .changes
        .iter()
        .filter_map(|c| {
            let path = file_path(c.uri.as_str())?;
            Some(match c.typ {
                lsp::FileChangeType::CREATED => FsChange::Created(path),
                lsp::FileChangeType::DELETED => FsChange::Removed(path),
                _ => FsChange::Modified(path),
            })
        })
        .collect();
    s.ws.files_changed(&changes);
    s.dirty = true;
    Ok(())
}

// ---- requests ----

fn hover(s: &mut State<'_>, r: Request) -> Result<Value, Failure> {
    let p: lsp::HoverParams = req_params(r)?;
    let doc = s.doc(&p.text_document_position_params.text_document.uri)?;
    let offset = offset(&doc.text, p.text_document_position_params.position);
    let hover = s.ws.hover(&doc.path, offset).map(|h| lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent { kind: lsp::MarkupKind::Markdown, value: h.markdown }),
        range: Some(doc.range(h.span)),
    });
    Ok(to_value(hover))
}

fn complete(s: &mut State<'_>, r: Request) -> Result<Value, Failure> {
    let p: lsp::CompletionParams = req_params(r)?;
    let doc = s.doc(&p.text_document_position.text_document.uri)?;
    let offset = offset(&doc.text, p.text_document_position.position);
    let items: Vec<lsp::CompletionItem> =
        s.ws.complete(&doc.path, offset).into_iter().map(|c| completion(&doc.text, &doc.lines, c)).collect();
    Ok(to_value(lsp::CompletionResponse::Array(items)))
}

fn code_action(s: &mut State<'_>, r: Request) -> Result<Value, Failure> {
    let p: lsp::CodeActionParams = req_params(r)?;
    Ok(to_value(code_actions(s, p)?))
}

fn definition(s: &mut State<'_>, r: Request) -> Result<Value, Failure> {
    let p: lsp::GotoDefinitionParams = req_params(r)?;
    let doc = s.doc(&p.text_document_position_params.text_document.uri)?;
    let offset = offset(&doc.text, p.text_document_position_params.position);
    let target = s.ws.definition(&doc.path, offset).filter(|t| t.is_file());
    Ok(to_value(target.and_then(|t| location(&t)).map(lsp::GotoDefinitionResponse::Scalar)))
}

fn document_links(s: &mut State<'_>, r: Request) -> Result<Value, Failure> {
    let p: lsp::DocumentLinkParams = req_params(r)?;
    let doc = s.doc(&p.text_document.uri)?;
    let links: Vec<lsp::DocumentLink> =
        s.ws.links(&doc.path)
            .into_iter()
            .filter_map(|l| {
                Some(lsp::DocumentLink {
                    range: doc.range(l.span),
                    target: Some(file_uri(&l.target).parse().ok()?),
                    tooltip: Some(l.target.display().to_string()),
                    data: None,
                })
            })
            .collect();
    Ok(to_value(links))
}

fn code_lenses(s: &mut State<'_>, r: Request) -> Result<Value, Failure> {
    let p: lsp::CodeLensParams = req_params(r)?;
    let doc = s.doc(&p.text_document.uri)?;
    let at = lsp::Range::default();
    let lenses: Vec<lsp::CodeLens> =
        s.ws.lenses(&doc.path)
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
    Ok(to_value(lenses))
}

fn execute_command(s: &mut State<'_>, r: Request) -> Result<Value, Failure> {
    let p: lsp::ExecuteCommandParams = req_params(r)?;
    execute(s, p)?;
    Ok(Value::Null)
}

fn prompt(s: &mut State<'_>, r: Request) -> Result<Value, Failure> {
    let uri = r.params.get("uri").and_then(Value::as_str).unwrap_or_default();
    let id = uri.strip_prefix(PROMPT_SCHEME).unwrap_or(uri).trim_end_matches('/');
    let agent = skillkit_api::resolve::agent(id)?;
    let prompt =
        s.ws.prompt(agent).ok_or_else(|| Failure(ErrorCode::InvalidParams, skillkit::agents::only_lints(agent.id)))?;
    Ok(json!({ "text": prompt.text }))
}

fn code_actions(s: &State<'_>, p: lsp::CodeActionParams) -> Result<Vec<lsp::CodeActionOrCommand>, Failure> {
    let doc = s.doc(&p.text_document.uri)?;
    let want = |kind: &lsp::CodeActionKind| {
        p.context.only.as_ref().is_none_or(|only| only.iter().any(|o| kind.as_str().starts_with(o.as_str())))
    };
    let (start, end) = (offset(&doc.text, p.range.start), offset(&doc.text, p.range.end));
    let mut actions = vec![];
    if want(&lsp::CodeActionKind::QUICKFIX) {
        // The engine's order: the preferred fix (the one that clears the most there and adds no
        // error) first.
        let at = skillkit::Span::new(start.min(end), end.max(start));
        for (i, d) in s.ws.quick_fixes(&doc.path, at).into_iter().enumerate() {
            let Some(fix) = &d.fix else { continue };
            let edits = fix
                .edits
                .iter()
                .map(|e| lsp::TextEdit { range: doc.range(e.span), new_text: e.replacement.clone() })
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
        if let Some(fixed) = s.ws.fix_all(&doc.path, &doc.text) {
            actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: "Fix all safe fixes (skillkit)".into(),
                kind: Some(fix_all),
                edit: Some(edit(&p.text_document.uri, vec![whole(&doc.text, &doc.lines, fixed)])),
                ..Default::default()
            }));
        }
    }
    Ok(actions)
}

fn execute(s: &mut State<'_>, p: lsp::ExecuteCommandParams) -> Result<(), Failure> {
    let arg = p.arguments.first().and_then(Value::as_str).unwrap_or_default().to_string();
    let sent = match p.command.as_str() {
        SHOW_PROMPT => {
            let agent = skillkit_api::resolve::agent(&arg)?;
            let uri = format!("{PROMPT_SCHEME}{}", agent.id).parse().map_err(|_| Failure::internal("bad URI"))?;
            s.send_request::<lsp::request::ShowDocument>(lsp::ShowDocumentParams {
                uri,
                external: Some(false),
                take_focus: Some(true),
                selection: None,
            })
        }
        FIX_ALL => {
            let uri: lsp::Uri =
                arg.parse().map_err(|_| Failure(ErrorCode::InvalidParams, format!("not a URI: {arg}")))?;
            let doc = s.doc(&uri)?;
            let Some(fixed) = s.ws.fix_all(&doc.path, &doc.text) else { return Ok(()) };
            let edit = edit(&uri, vec![whole(&doc.text, &doc.lines, fixed)]);
            s.send_request::<lsp::request::ApplyWorkspaceEdit>(lsp::ApplyWorkspaceEditParams {
                label: Some("Fix all safe fixes".into()),
                edit,
            })
        }
        other => return Err(Failure(ErrorCode::InvalidParams, format!("unknown command `{other}`"))),
    };
    sent.map_err(|e| Failure::internal(&e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_method_has_one_handler() {
        let mut methods: Vec<&str> =
            REQUESTS.iter().map(|(m, _)| *m).chain(NOTIFICATIONS.iter().map(|(m, _)| *m)).collect();
        let n = methods.len();
        methods.sort_unstable();
        methods.dedup();
        assert_eq!(methods.len(), n, "a method listed twice");
        assert!(request_handler("textDocument/hover").is_some());
        assert!(request_handler("textDocument/didOpen").is_none(), "a notification is not a request");
        assert!(notification_handler("textDocument/didChange").is_some());
        assert!(request_handler("textDocument/formatting").is_none());
    }
}
