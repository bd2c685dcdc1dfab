//! What LangChain DeepAgents' `read_file` tool returns to the model, verified against PyPI
//! `deepagents` 0.7.32 (langchain 1.4.7, langchain-core 1.7.2, langgraph 1.2.22, Python 3.11.7,
//! without the optional `[video]` extra) run as a real agent on real files (goldens in
//! `tests/fixtures/deepagents-read-file/cases.json`, made by
//! `tests/oracles/deepagents_read_file.py`). The skills listing ([`crate::agents::deepagents`]) tells the
//! model to call `read_file` on the listed `SKILL.md` path with `limit=1000`.
//!
//! The code path, with `create_deep_agent`'s `FilesystemMiddleware(backend=FilesystemBackend(...))`
//! (virtual mode, no permission rules, `tool_token_limit_before_evict=20000`):
//!
//! 1. `middleware/filesystem.py` `sync_read_file`: `backends/utils.py` `validate_path` normalises
//!    the argument (`os.path.normpath`, a leading `/`) or refuses it (`Error: Path traversal not
//!    allowed: …`, `Error: Windows absolute paths are not supported: …`).
//! 2. `backends/filesystem.py` `FilesystemBackend.read`: a path containing `..` anywhere (say
//!    `/a..b/SKILL.md`, which `validate_path` lets through) raises `ValueError` from
//!    `_resolve_path`, and the default ToolNode error handling re-raises it: the run ends with no
//!    ToolMessage. A missing path and anything that is not a regular file (a folder) is
//!    `File '…' not found`. Media extensions (`_EXTENSION_TO_FILE_TYPE`, plus `.mkv`) are read as
//!    bytes and base64-encoded. Everything else is decoded as strict UTF-8 in text mode
//!    (universal newlines: `\r\n` and `\r` become `\n`); a decode error or an `OSError` is
//!    `Error reading file '…': <exception>`. A blank file (empty or `str.isspace`) is replaced by
//!    the text `EMPTY_CONTENT_WARNING`, with no pagination. Otherwise `backends/utils.py`
//!    `slice_read_response` clamps the window (`normalize_read_bounds`), answers a zero `limit`
//!    with `no_lines_requested`, splits with `str.splitlines(keepends=True)` (so `\x0b`, `\x0c`,
//!    `\x1c`–`\x1e`, `\x85`, U+2028 and U+2029 end lines too), refuses an offset at or past the
//!    end (`Line offset N exceeds file length (T lines)`), and reports `start_line`,
//!    `end_line`, `total_lines` and `next_offset`.
//! 3. `middleware/filesystem.py` `_handle_read_result`: errors become `Error: <error>` with status
//!    "error". Empty content of the whole file becomes `check_empty_content`'s reminder (or
//!    `NO_LINES_REQUESTED_WARNING` for `limit <= 0`). Media become one multimodal content block.
//!    Text goes through `_prepare_read_window` (`_pad_blank_rows`, `_format_source_block`:
//!    verbatim lines, one trailing newline dropped, blank rows padded up to the window's line
//!    count when `splitlines` counted separators that `split("\n")` does not) and
//!    `_truncate_paginated_read`: the optional clamp notice
//!    (`[Requested offset -3 is before the start of the file; read from line 1 instead.]`), then
//!    the status header `@@ lines A-B of T | next offset N @@`, then the lines.
//!
//! Facts worth knowing (all in the goldens):
//! - 0.7.32 has **no line-number gutter**: `format_content_with_line_numbers` and its
//!   `MAX_LINE_LENGTH` (5,000) continuation markers are no longer used by `read_file` (only by
//!   message eviction); lines of any length come back verbatim.
//! - A blank file is *not* answered with the bare reminder: the backend hands the reminder text
//!   over as the file's content, so the model gets `@@ lines 1-1 @@\nSystem reminder: File exists
//!   but has empty contents` (no `of T`; `lines 6-6` for `offset=5`). Only a blank media file gets
//!   the bare reminder.
//! - The budget is `NUM_CHARS_PER_TOKEN * tool_token_limit_before_evict` = 80,000 code points.
//!   A result of 80,000 or more is cut at the last whole line that fits with the
//!   `[Output was truncated …]` notice above the header and `| truncated due to size` in it;
//!   when not even the first line fits, that line is cut with
//!   `| truncated mid-line | S of N chars`. `read_file` is excluded from tool-result eviction.
//!
//! Not reproduced: the `[video]` extra (frame sampling, a different description and schema),
//! permission rules, custom tool descriptions, and other backends. The 1 GiB video cap is
//! implemented on the bytes given but has no golden. Media `mime_type`s are those of the capture
//! machine's `mimetypes` table.

use crate::agents::compat::python::{is_py_space, py_len, py_prefix, str_repr};
use crate::prompt::ToolDef;

/// `DEFAULT_READ_OFFSET` (`middleware/filesystem.py`).
pub const DEFAULT_OFFSET: usize = 0;
/// `DEFAULT_READ_LIMIT` (`middleware/filesystem.py`).
pub const DEFAULT_LIMIT: usize = 100;
/// `FilesystemMiddleware(tool_token_limit_before_evict=20000)`, the default `create_deep_agent`
/// keeps.
pub const TOOL_TOKEN_LIMIT: usize = 20_000;
/// `NUM_CHARS_PER_TOKEN` (`middleware/filesystem.py`).
pub const NUM_CHARS_PER_TOKEN: usize = 4;
/// `MAX_VIDEO_INPUT_BYTES` (`backends/utils.py`).
pub const MAX_VIDEO_INPUT_BYTES: usize = 1024 * 1024 * 1024;
/// `EMPTY_CONTENT_WARNING` (`backends/utils.py`).
pub const EMPTY_CONTENT_WARNING: &str = "System reminder: File exists but has empty contents";

/// `READ_FILE_TOOL_DESCRIPTION` (`middleware/filesystem.py`, the variant without `[video]`).
pub const READ_FILE_DESCRIPTION: &str = "Reads a file from the filesystem. Assume any path the user provides is valid; reading a missing file returns an error.

Usage:
- By default, it reads up to 100 lines starting from the beginning of the file. Use `offset`/`limit` to page through large files instead of reading them whole.
- A status header, `@@ field | field | ... @@`, sits above the file content, and every line after it is verbatim file content. When content is truncated, there may be an explanation before the header. Never include the header when editing.
- Speculatively batch multiple `read_file` calls in one response when several files may be useful.
- An empty file returns a system-reminder warning in place of contents.
- Large tool results may be offloaded to a file; the tool message gives the path. Read that path here, paging with `offset`/`limit`.
- Images (`.png`, `.jpg`, etc.), audio, video, and PDFs return multimodal content blocks (https://docs.langchain.com/oss/python/langchain/messages#multimodal).
- For images and PDFs, pagination via `offset`/`limit` is text-only - supply `file_path` only
- Always read a file before editing it.";

const NO_LINES_REQUESTED_WARNING: [&str; 2] = [
    "System reminder: no lines were read because `limit` was ",
    ". The file was not inspected and may have contents; retry with `limit` >= 1 to read it.",
];

/// `READ_FILE_TRUNCATION_MSG.format(file_path=...).strip()`.
fn truncation_message(file_path: &str) -> String {
    format!(
        "[Output was truncated due to size limits. The file content is very large. Consider reformatting the file to make it easier to navigate. For example, if this is JSON, use execute(command='jq . {file_path}') to pretty-print it with line breaks. For other formats, you can use appropriate formatting tools to split long lines.]"
    )
}

/// The `read_file` tool as LangChain binds it for the model (`ReadFileSchema`, through
/// `convert_to_openai_tool`: pydantic's titles dropped).
pub fn read_file_tool() -> ToolDef {
    ToolDef {
        name: "read_file".into(),
        description: READ_FILE_DESCRIPTION.into(),
        parameters: serde_json::json!({
            "properties": {
                "file_path": {
                    "description": "Absolute path to the file to read. Must be absolute, not relative.",
                    "type": "string"
                },
                "offset": {
                    "default": DEFAULT_OFFSET,
                    "description": "Line number to start reading from (0-indexed). Use for pagination of large files.",
                    "type": "integer"
                },
                "limit": {
                    "default": DEFAULT_LIMIT,
                    "description": "Maximum number of lines to read. Use for pagination of large files.",
                    "type": "integer"
                }
            },
            "required": ["file_path"],
            "type": "object"
        }),
    }
}

/// What `FilesystemBackend.read` finds at the (validated) path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileRead<'a> {
    /// A regular file and its bytes.
    File(&'a [u8]),
    /// Nothing there (`not resolved_path.exists()`).
    Missing,
    /// A folder, or anything else that is not a regular file (`not resolved_path.is_file()`):
    /// reported exactly like [`FileRead::Missing`].
    Directory,
    /// `os.open` refused the file (`PermissionError`); `host_path` is the resolved path on the
    /// host, which Python puts in the message.
    PermissionDenied { host_path: &'a str },
    /// Another `OSError`/`RuntimeError` while resolving or opening, as `str(exception)` (say
    /// `Symlink loop from '/root/skills/a'`).
    OsError(&'a str),
}

/// The ToolMessage the model gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadResult {
    /// The ToolMessage content. For media files it is `json.dumps` of the content-block list
    /// (the model receives the block itself). When the tool raises instead (a path containing
    /// `..`, see the module docs), there is no ToolMessage and this is the exception as
    /// `Type: message`.
    pub content: String,
    /// The ToolMessage status is "error" (or the tool raised).
    pub is_error: bool,
}

fn ok(content: String) -> ReadResult {
    ReadResult { content, is_error: false }
}

fn err(content: String) -> ReadResult {
    ReadResult { content, is_error: true }
}

/// `read_file(file_path=..., offset=..., limit=...)` as the model calls it, `file` being what the
/// backend finds at the validated path.
pub fn read_file_result(file_path: &str, file: FileRead<'_>, offset: usize, limit: usize) -> ReadResult {
    read_file_call(file_path, file, offset as i64, limit as i64)
}

/// [`read_file_result`] with the signed arguments a model may also send (a negative `offset` is
/// read from line 1 with a notice; a `limit` of 0 or less reads nothing).
pub fn read_file_call(file_path: &str, file: FileRead<'_>, offset: i64, limit: i64) -> ReadResult {
    let path = match validate_path(file_path) {
        Ok(p) => p,
        Err(e) => return err(format!("Error: {e}")),
    };
    // FilesystemBackend._resolve_path (virtual mode): a ValueError nobody catches.
    if path.contains("..") {
        return err("ValueError: Path traversal not allowed".into());
    }
    let backend = match backend_read(&path, file, offset, limit) {
        Ok(b) => b,
        Err(e) => return err(format!("Error: {e}")),
    };
    handle_read_result(&path, backend, offset, limit)
}

/// `FilesystemBackend.read`'s `ReadResult` when it carries data.
struct Backend {
    content: String,
    base64: bool,
    window: Option<Window>,
    no_lines_requested: bool,
}

#[derive(Clone, Copy)]
struct Window {
    start: usize,
    end: usize,
    total: Option<usize>,
    next: Option<usize>,
}

/// `_get_file_type` (`backends/utils.py`): the block type of a media extension.
fn file_type(path: &str) -> Option<&'static str> {
    Some(match suffix(path).to_lowercase().as_str() {
        ".png" | ".jpeg" | ".jpg" | ".webp" | ".gif" | ".heic" | ".heif" => "image",
        ".mp4" | ".mpeg" | ".mov" | ".avi" | ".flv" | ".mpg" | ".webm" | ".wmv" | ".3gpp" => "video",
        ".wav" | ".mp3" | ".aiff" | ".aac" | ".ogg" | ".flac" => "audio",
        ".pdf" | ".ppt" | ".pptx" => "file",
        _ => return None,
    })
}

/// `mimetypes.guess_type("file" + suffix)[0]` for the media extensions (case-insensitive), as on
/// the capture machine.
fn mime_type(path: &str) -> &'static str {
    match suffix(path).to_lowercase().as_str() {
        ".png" => "image/png",
        ".jpeg" | ".jpg" => "image/jpeg",
        ".webp" => "image/webp",
        ".gif" => "image/gif",
        ".heic" => "image/heic",
        ".heif" => "image/heif",
        ".mp4" => "video/mp4",
        ".mpeg" | ".mpg" => "video/mpeg",
        ".mov" => "video/quicktime",
        ".avi" => "video/x-msvideo",
        ".flv" => "video/x-flv",
        ".webm" => "video/webm",
        ".wmv" => "video/x-ms-wmv",
        ".3gpp" => "audio/3gpp",
        ".wav" => "audio/x-wav",
        ".mp3" => "audio/mpeg",
        ".aiff" => "audio/x-aiff",
        ".aac" => "audio/aac",
        ".ogg" => "audio/ogg",
        ".flac" => "audio/flac",
        ".pdf" => "application/pdf",
        ".ppt" => "application/vnd.ms-powerpoint",
        ".pptx" => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        ".mkv" => "video/x-matroska",
        _ => "application/octet-stream",
    }
}

/// `PurePosixPath(path).suffix`.
fn suffix(path: &str) -> &str {
    let name = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    match name.rfind('.') {
        Some(i) if i > 0 && i < name.len() - 1 => &name[i..],
        _ => "",
    }
}

/// `FilesystemBackend.read(validated_path, offset, limit)`; `Err` is `ReadResult.error`.
fn backend_read(path: &str, file: FileRead<'_>, offset: i64, limit: i64) -> Result<Backend, String> {
    let bytes = match file {
        FileRead::File(b) => b,
        FileRead::Missing | FileRead::Directory => return Err(format!("File '{path}' not found")),
        FileRead::PermissionDenied { host_path } => {
            return Err(format!("Error reading file '{path}': [Errno 13] Permission denied: {}", str_repr(host_path)))
        }
        FileRead::OsError(e) => return Err(format!("Error reading file '{path}': {e}")),
    };
    // _get_backend_read_file_type: `.mkv` is read as (video) bytes too.
    let media = file_type(path).or(if suffix(path).to_lowercase() == ".mkv" { Some("video") } else { None });
    if let Some(kind) = media {
        if kind == "video" && bytes.len() > MAX_VIDEO_INPUT_BYTES {
            return Err(format!("Video file exceeds maximum input size of {MAX_VIDEO_INPUT_BYTES} bytes"));
        }
        return Ok(Backend {
            content: crate::syntax::text::base64(bytes),
            base64: true,
            window: None,
            no_lines_requested: false,
        });
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => universal_newlines(t),
        Err(e) => return Err(format!("Error reading file '{path}': {}", decode_error(bytes, e))),
    };
    if is_blank(&text) {
        let content = EMPTY_CONTENT_WARNING.to_string();
        return Ok(Backend { content, base64: false, window: None, no_lines_requested: false });
    }
    slice_read_response(&text, offset, limit)
}

/// `slice_read_response` (`backends/utils.py`) for non-blank text.
fn slice_read_response(content: &str, offset: i64, limit: i64) -> Result<Backend, String> {
    let (offset, limit) = (offset.max(0) as usize, limit.max(0) as usize);
    if limit == 0 {
        return Ok(Backend { content: String::new(), base64: false, window: None, no_lines_requested: true });
    }
    let lines = splitlines_keepends(content);
    let total = lines.len();
    if offset >= total {
        return Err(format!("Line offset {offset} exceeds file length ({total} lines)"));
    }
    let end = offset.saturating_add(limit).min(total);
    let sliced = lines[offset..end].concat().replace("\r\n", "\n").replace('\r', "\n");
    let window = Window { start: offset + 1, end, total: Some(total), next: (end < total).then_some(end) };
    Ok(Backend { content: sliced, base64: false, window: Some(window), no_lines_requested: false })
}

/// `_handle_read_result` (`middleware/filesystem.py`) for a result with data.
fn handle_read_result(path: &str, b: Backend, offset: i64, limit: i64) -> ReadResult {
    let whole_file = match b.window {
        None => true,
        Some(w) => w.start == 1 && w.total == Some(w.end),
    };
    if is_blank(&b.content) && whole_file {
        if b.content.is_empty() && b.no_lines_requested {
            return ok(format!("{}{limit}{}", NO_LINES_REQUESTED_WARNING[0], NO_LINES_REQUESTED_WARNING[1]));
        }
        return ok(EMPTY_CONTENT_WARNING.into());
    }
    if b.base64 || file_type(path).is_some() {
        let block = file_type(path).unwrap_or("file");
        return ok(format!(
            r#"[{{"type": "{block}", "base64": "{}", "mime_type": "{}"}}]"#,
            b.content,
            mime_type(path)
        ));
    }
    // _prepare_read_window: _pad_blank_rows + _format_source_block.
    let mut rows: Vec<&str> = b.content.split('\n').collect();
    if rows.last() == Some(&"") {
        rows.pop();
    }
    let window = match b.window {
        Some(w) => {
            let wanted = w.end + 1 - w.start;
            if wanted > rows.len() {
                rows.resize(wanted, "");
            }
            w
        }
        None => {
            let start = offset.max(0) as usize + 1;
            let newlines = rows.len().saturating_sub(1);
            Window { start, end: start + newlines, total: None, next: None }
        }
    };
    let body = rows.join("\n");
    let mut notices = Vec::new();
    if offset < 0 {
        notices.push(format!("[Requested offset {offset} is before the start of the file; read from line 1 instead.]"));
    }
    ok(truncate_paginated_read(&body, path, window, &notices))
}

/// `_window_fields`.
fn window_fields(w: Window) -> Vec<String> {
    let mut span = format!("lines {}-{}", w.start, w.end);
    if let Some(t) = w.total {
        span += &format!(" of {t}");
    }
    let mut fields = vec![span];
    if let Some(n) = w.next {
        if w.total.is_none_or(|t| w.end < t) {
            fields.push(format!("next offset {n}"));
        }
    }
    fields
}

/// `_assemble_read`: notices, the `@@ … @@` header, the body, joined by newlines.
fn assemble(body: &str, fields: &[String], notices: &[String]) -> String {
    let mut parts: Vec<String> = notices.to_vec();
    parts.push(format!("@@ {} @@", fields.join(" | ")));
    parts.push(body.to_string());
    parts.join("\n")
}

/// `py_len(&assemble(body, fields, notices))` without building it.
fn assembled_len(body_len: usize, fields: &[String], notices: &[String]) -> usize {
    let header = 6 + fields.iter().map(|f| py_len(f)).sum::<usize>() + 3 * fields.len().saturating_sub(1);
    notices.iter().map(|n| py_len(n) + 1).sum::<usize>() + header + 1 + body_len
}

/// `_truncate_paginated_read` with `token_limit` = [`TOOL_TOKEN_LIMIT`].
fn truncate_paginated_read(body: &str, path: &str, w: Window, notices: &[String]) -> String {
    let threshold = NUM_CHARS_PER_TOKEN * TOOL_TOKEN_LIMIT;
    let fields = window_fields(w);
    let body_len = py_len(body);
    if assembled_len(body_len, &fields, notices) < threshold {
        return assemble(body, &fields, notices);
    }
    let mut notices = notices.to_vec();
    notices.push(truncation_message(path));
    // One boundary per source line: (code points, bytes, source line) at the end of each row.
    let mut boundaries = Vec::new();
    let (mut chars, mut bytes) = (0usize, 0usize);
    for (i, row) in body.split('\n').enumerate() {
        let line = w.start + i;
        if line > w.end {
            break;
        }
        chars += py_len(row);
        bytes += row.len();
        boundaries.push((chars, bytes, line));
        chars += 1;
        bytes += 1;
    }
    for &(chars, bytes, end) in boundaries.iter().rev() {
        let adjusted = Window { start: w.start, end, total: w.total, next: Some(end) };
        let mut fields = window_fields(adjusted);
        fields.push("truncated due to size".into());
        if assembled_len(chars, &fields, &notices) <= threshold {
            return assemble(&body[..bytes], &fields, &notices);
        }
    }
    // _midline_truncated_read: not even the first line fits.
    let oversized = py_len(body.split('\n').next().unwrap_or(""));
    let clipped = Window { start: w.start, end: w.start, total: w.total, next: None };
    let fields = |shown: usize| {
        let mut f = window_fields(clipped);
        f.push("truncated mid-line".into());
        f.push(format!("{shown} of {oversized} chars"));
        f
    };
    let reserved = assembled_len(0, &fields(oversized), &notices);
    let shown = threshold.saturating_sub(reserved).min(oversized);
    assemble(py_prefix(body, shown), &fields(shown), &notices)
}

/// `check_empty_content`: empty, or `content.strip() == ""`.
fn is_blank(s: &str) -> bool {
    s.chars().all(is_py_space)
}

/// Text-mode reading (`newline=None`): `\r\n` and lone `\r` become `\n`.
fn universal_newlines(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\r', "\n")
}

/// `str.splitlines(keepends=True)`.
fn splitlines_keepends(s: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut it = s.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let end = match c {
            '\r' => match it.peek() {
                Some(&(j, '\n')) => {
                    it.next();
                    j + 1
                }
                _ => i + 1,
            },
            '\n' | '\x0b' | '\x0c' | '\x1c' | '\x1d' | '\x1e' | '\u{85}' | '\u{2028}' | '\u{2029}' => i + c.len_utf8(),
            _ => continue,
        };
        lines.push(&s[start..end]);
        start = end;
    }
    if start < s.len() {
        lines.push(&s[start..]);
    }
    lines
}

/// `str(UnicodeDecodeError)` of CPython's strict UTF-8 decoder for the first bad sequence (which
/// Rust's `Utf8Error` locates the same way: maximal subparts).
pub fn decode_error(bytes: &[u8], e: std::str::Utf8Error) -> String {
    let start = e.valid_up_to();
    let (end, reason) = match e.error_len() {
        None => (bytes.len(), "unexpected end of data"),
        Some(1) if matches!(bytes[start], 0x80..=0xc1 | 0xf5..=0xff) => (start + 1, "invalid start byte"),
        Some(n) => (start + n, "invalid continuation byte"),
    };
    if end - start == 1 {
        format!("'utf-8' codec can't decode byte 0x{:02x} in position {start}: {reason}", bytes[start])
    } else {
        format!("'utf-8' codec can't decode bytes in position {start}-{}: {reason}", end - 1)
    }
}

/// `str(UnicodeDecodeError)` for a file's bytes read from disk, when they are not UTF-8.
pub fn file_decode_error(path: &std::path::Path) -> Option<String> {
    let bytes = crate::files::read(path, crate::skill::MAX_FILE_BYTES).ok()?;
    std::str::from_utf8(&bytes).err().map(|e| decode_error(&bytes, e))
}

/// `validate_path` (`backends/utils.py`), its error text on refusal.
fn validate_path(path: &str) -> Result<String, String> {
    if path.replace('\\', "/").split('/').any(|c| c == "..") || path.starts_with('~') {
        return Err(format!("Path traversal not allowed: {path}"));
    }
    let b = path.as_bytes();
    if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' {
        return Err(format!(
            "Windows absolute paths are not supported: {path}. Please use virtual paths starting with / (e.g., /workspace/file.txt)"
        ));
    }
    let mut normalized = normpath(path).replace('\\', "/");
    if !normalized.starts_with('/') {
        normalized.insert(0, '/');
    }
    if normalized.split('/').any(|c| c == "..") {
        return Err(format!("Path traversal detected after normalization: {path} -> {normalized}"));
    }
    Ok(normalized)
}

/// `posixpath.normpath`.
fn normpath(path: &str) -> String {
    if path.is_empty() {
        return ".".into();
    }
    let slashes =
        if path.starts_with("//") && !path.starts_with("///") { 2 } else { usize::from(path.starts_with('/')) };
    let mut comps: Vec<&str> = Vec::new();
    for comp in path.split('/') {
        if comp.is_empty() || comp == "." {
            continue;
        }
        if comp != ".." || (slashes == 0 && comps.is_empty()) || comps.last() == Some(&"..") {
            comps.push(comp);
        } else {
            comps.pop();
        }
    }
    let out = "/".repeat(slashes) + &comps.join("/");
    if out.is_empty() {
        ".".into()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKILL: &str = "---\nname: demo\ndescription: Does things.\n---\n\n# Demo\n\nStep one.\n";

    fn read(path: &str, bytes: &[u8], offset: i64, limit: i64) -> ReadResult {
        read_file_call(path, FileRead::File(bytes), offset, limit)
    }

    #[test]
    fn reads_a_skill_verbatim_under_a_status_header() {
        let r = read_file_result("/skills/demo/SKILL.md", FileRead::File(SKILL.as_bytes()), 0, 1000);
        assert!(!r.is_error);
        assert_eq!(
            r.content,
            "@@ lines 1-8 of 8 @@\n---\nname: demo\ndescription: Does things.\n---\n\n# Demo\n\nStep one."
        );
    }

    #[test]
    fn windows_report_the_next_offset() {
        let r = read("/s/SKILL.md", SKILL.as_bytes(), 2, 3);
        assert_eq!(r.content, "@@ lines 3-5 of 8 | next offset 5 @@\ndescription: Does things.\n---\n");
        let r = read("/s/SKILL.md", SKILL.as_bytes(), 8, 3);
        assert_eq!(r, err("Error: Line offset 8 exceeds file length (8 lines)".into()));
    }

    #[test]
    fn crlf_and_no_trailing_newline() {
        let r = read("/s/SKILL.md", b"a\r\nb\rc", 0, 100);
        assert_eq!(r.content, "@@ lines 1-3 of 3 @@\na\nb\nc");
    }

    #[test]
    fn blank_file_gets_the_reminder_under_a_header() {
        let r = read("/s/SKILL.md", b"", 0, 1000);
        assert_eq!(r.content, format!("@@ lines 1-1 @@\n{EMPTY_CONTENT_WARNING}"));
        let r = read("/s/SKILL.md", b" \n\t\n", 5, 1000);
        assert_eq!(r.content, format!("@@ lines 6-6 @@\n{EMPTY_CONTENT_WARNING}"));
    }

    #[test]
    fn zero_limit_and_negative_offset() {
        let r = read("/s/SKILL.md", SKILL.as_bytes(), 0, 0);
        assert!(r.content.starts_with("System reminder: no lines were read because `limit` was 0."));
        let r = read("/s/SKILL.md", SKILL.as_bytes(), -1, 1);
        assert_eq!(
            r.content,
            "[Requested offset -1 is before the start of the file; read from line 1 instead.]\n@@ lines 1-1 of 8 | next offset 1 @@\n---"
        );
    }

    #[test]
    fn long_lines_are_not_split() {
        let line = "x".repeat(12_000);
        let r = read("/s/SKILL.md", line.as_bytes(), 0, 1000);
        assert_eq!(r.content, format!("@@ lines 1-1 of 1 @@\n{line}"));
    }

    #[test]
    fn budget_cuts_at_a_whole_line() {
        let file = "y".repeat(99).to_string() + "\n";
        let r = read("/s/SKILL.md", file.repeat(1000).as_bytes(), 0, 1000);
        assert_eq!(py_len(&r.content), 79_992);
        assert!(r.content.starts_with("[Output was truncated due to size limits."));
        assert!(r.content.contains("\n@@ lines 1-796 of 1000 | next offset 796 | truncated due to size @@\n"));
        assert!(r.content.ends_with(&"y".repeat(99)));
    }

    #[test]
    fn budget_cuts_mid_line_when_one_line_is_too_long() {
        let r = read("/s/SKILL.md", "q".repeat(90_000).as_bytes(), 0, 1000);
        assert_eq!(py_len(&r.content), 80_000);
        assert!(r.content.contains("@@ lines 1-1 of 1 | truncated mid-line | "));
    }

    #[test]
    fn errors() {
        assert_eq!(
            read_file_result("/s/SKILL.md", FileRead::Missing, 0, 100),
            err("Error: File '/s/SKILL.md' not found".into())
        );
        assert_eq!(read_file_result("/s/", FileRead::Directory, 0, 100), err("Error: File '/s' not found".into()));
        assert_eq!(
            read_file_result("/s/SKILL.md", FileRead::PermissionDenied { host_path: "/r/s/SKILL.md" }, 0, 100),
            err("Error: Error reading file '/s/SKILL.md': [Errno 13] Permission denied: '/r/s/SKILL.md'".into())
        );
        assert_eq!(
            read("/s/SKILL.md", b"caf\xe9", 0, 100),
            err("Error: Error reading file '/s/SKILL.md': 'utf-8' codec can't decode byte 0xe9 in position 3: unexpected end of data".into())
        );
        assert_eq!(read("/s/../x", b"", 0, 100), err("Error: Path traversal not allowed: /s/../x".into()));
        assert!(read("/a..b/SKILL.md", b"x", 0, 100).content.starts_with("ValueError"));
    }

    #[test]
    fn helpers_match_python() {
        assert_eq!(splitlines_keepends("a\x0cb\r\nc\rd\n"), ["a\x0c", "b\r\n", "c\r", "d\n"]);
        assert_eq!(splitlines_keepends("a"), ["a"]);
        assert_eq!(normpath("//a/./b/../c/"), "//a/c");
        assert_eq!(normpath("///a"), "/a");
        assert_eq!(normpath("a/../.."), "..");
        assert_eq!(crate::syntax::text::base64(b""), "");
        assert_eq!(crate::syntax::text::base64(b"ab"), "YWI=");
        assert_eq!(crate::syntax::text::base64(b"\x89PNG\r\n\x1a\nfake"), "iVBORw0KGgpmYWtl");
        assert_eq!(suffix("/x/.png"), "");
        assert_eq!(suffix("/x/a.b.PNG"), ".PNG");
        assert_eq!(suffix("/x/a."), "");
    }

    #[test]
    fn tool_schema() {
        let t = read_file_tool();
        assert_eq!(t.name, "read_file");
        assert_eq!(t.parameters["properties"]["limit"]["default"], 100);
        assert_eq!(t.parameters["required"], serde_json::json!(["file_path"]));
    }
}
