//! `skillkit lsp`: the engine in any editor, over the Language Server Protocol on stdio. This
//! first slice publishes diagnostics: on open and on every change (incremental sync), the same
//! codes, spans and messages as `skillkit check`, under the agent named in the initialization
//! options (`{"agent": "claude-code"}`; `spec` by default). The server holds no logic: it keeps the
//! open documents' text and translates positions and diagnostics.
//!
//! Built on `lsp-server` (rust-analyzer's synchronous transport): the engine is synchronous and
//! lints a document in milliseconds, so an async runtime (tower-lsp) would add a dependency tree
//! and nothing else.

use lsp_server::{Connection, ErrorCode, Message, Notification, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::{
    Diagnostic, DiagnosticSeverity, NumberOrString, Position, PublishDiagnosticsParams, Range, ServerCapabilities,
    TextDocumentContentChangeEvent, TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

/// Runs the server on stdin/stdout until the client's `exit`. Returns the exit code.
pub fn serve(err: &mut dyn Write) -> std::io::Result<i32> {
    let (connection, io_threads) = Connection::stdio();
    let code = match run(&connection) {
        Ok(()) => 0,
        Err(e) => {
            writeln!(err, "skillkit lsp: {e}")?;
            1
        }
    };
    drop(connection);
    io_threads.join()?;
    Ok(code)
}

fn run(connection: &Connection) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::INCREMENTAL)),
        ..ServerCapabilities::default()
    };
    let params = connection.initialize(serde_json::to_value(capabilities)?)?;
    let agent_id = params
        .get("initializationOptions")
        .and_then(|o| o.get("agent"))
        .and_then(|a| a.as_str())
        .unwrap_or("spec")
        .to_string();
    let agent = skillkit::find_agent(&agent_id).unwrap_or(&skillkit::agents::SPEC);
    if agent.id != agent_id {
        show(connection, &skillkit::agents::unknown_agent(&agent_id))?;
    }
    // Keyed by the URI as text (`Uri` caches its parts, which clippy counts as a mutable key).
    let mut documents: HashMap<String, String> = HashMap::new();
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(());
                }
                let error = format!("skillkit lsp does not answer `{}` yet", request.method);
                let response = Response::new_err(request.id, ErrorCode::MethodNotFound as i32, error);
                connection.sender.send(response.into())?;
            }
            Message::Notification(n) => match n.method.as_str() {
                DidOpenTextDocument::METHOD => {
                    let p: lsp_types::DidOpenTextDocumentParams = serde_json::from_value(n.params)?;
                    documents.insert(p.text_document.uri.as_str().to_string(), p.text_document.text);
                    publish(connection, agent, &p.text_document.uri, &documents)?;
                }
                DidChangeTextDocument::METHOD => {
                    let p: lsp_types::DidChangeTextDocumentParams = serde_json::from_value(n.params)?;
                    if let Some(text) = documents.get_mut(p.text_document.uri.as_str()) {
                        for change in p.content_changes {
                            apply(text, change);
                        }
                    }
                    publish(connection, agent, &p.text_document.uri, &documents)?;
                }
                DidCloseTextDocument::METHOD => {
                    let p: lsp_types::DidCloseTextDocumentParams = serde_json::from_value(n.params)?;
                    documents.remove(p.text_document.uri.as_str());
                    send_diagnostics(connection, p.text_document.uri, vec![])?;
                }
                _ => {}
            },
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// A message for the user (`window/showMessage`, a warning).
fn show(connection: &Connection, message: &str) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let params = lsp_types::ShowMessageParams { typ: lsp_types::MessageType::WARNING, message: message.into() };
    let n = Notification::new(lsp_types::notification::ShowMessage::METHOD.into(), params);
    connection.sender.send(n.into())?;
    Ok(())
}

/// The file a `file:` URI names.
fn path_of(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str().strip_prefix("file://")?;
    let decoded = percent_decode(s)?;
    Some(PathBuf::from(decoded))
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

/// Lints the document (a `SKILL.md` only) and publishes its diagnostics.
fn publish(
    connection: &Connection,
    agent: &skillkit::Agent,
    uri: &Uri,
    documents: &HashMap<String, String>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (Some(text), Some(path)) = (documents.get(uri.as_str()), path_of(uri)) else { return Ok(()) };
    if !skillkit::read::is_skill_file(&path) {
        return Ok(());
    }
    let found = skillkit::check::lint_text(&path, text.clone(), agent, None);
    send_diagnostics(connection, uri.clone(), found.iter().map(diagnostic).collect())
}

fn send_diagnostics(
    connection: &Connection,
    uri: Uri,
    diagnostics: Vec<Diagnostic>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let params = PublishDiagnosticsParams { uri, diagnostics, version: None };
    connection.sender.send(Notification::new(PublishDiagnostics::METHOD.into(), params).into())?;
    Ok(())
}

/// The engine's diagnostic as the protocol's: 0-based lines and UTF-16 columns.
fn diagnostic(d: &skillkit::Diagnostic) -> Diagnostic {
    let position = |p: &skillkit::Position| Position {
        line: p.line.saturating_sub(1) as u32,
        character: p.column_utf16.saturating_sub(1) as u32,
    };
    let severity = match d.severity {
        skillkit::Severity::Error => DiagnosticSeverity::ERROR,
        skillkit::Severity::Warning => DiagnosticSeverity::WARNING,
        skillkit::Severity::Info => DiagnosticSeverity::INFORMATION,
    };
    Diagnostic {
        range: Range { start: position(&d.start), end: position(&d.end) },
        severity: Some(severity),
        code: Some(NumberOrString::String(d.code.to_string())),
        source: Some("skillkit".into()),
        message: match &d.help {
            Some(help) => format!("{}\n{help}", d.message),
            None => d.message.clone(),
        },
        ..Diagnostic::default()
    }
}

/// Applies one change: the whole text, or a range (0-based line, UTF-16 column) replaced.
fn apply(text: &mut String, change: TextDocumentContentChangeEvent) {
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
fn offset(text: &str, p: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..p.line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[line_start..].find('\n').map_or(text.len(), |i| line_start + i);
    let mut units = 0u32;
    for (i, c) in text[line_start..line_end].char_indices() {
        if units >= p.character {
            return line_start + i;
        }
        units += c.len_utf16() as u32;
    }
    line_end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_clamp() {
        let text = "ab\né😀x\nlast";
        assert_eq!(offset(text, Position { line: 1, character: 0 }), 3);
        assert_eq!(offset(text, Position { line: 1, character: 1 }), 5);
        assert_eq!(offset(text, Position { line: 1, character: 3 }), 9);
        assert_eq!(offset(text, Position { line: 1, character: 99 }), 10);
        assert_eq!(offset(text, Position { line: 9, character: 0 }), text.len());
        let mut t = text.to_string();
        let range = Range { start: Position { line: 1, character: 1 }, end: Position { line: 1, character: 3 } };
        apply(&mut t, TextDocumentContentChangeEvent { range: Some(range), range_length: None, text: "-".into() });
        assert_eq!(t, "ab\né-x\nlast");
        assert_eq!(percent_decode("/a%20b/SKILL.md").as_deref(), Some("/a b/SKILL.md"));
    }
}
