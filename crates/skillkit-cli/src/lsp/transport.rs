//! The server's stdio transport: our own reader and writer threads in front of `lsp-server`'s
//! [`Connection`], so that a client's bad framing is refused with a message instead of ending
//! the process (`lsp-server`'s own reader allocates whatever `Content-Length` says, and ends on
//! any body that is not a message).
//!
//! Framing (the base protocol's `Header: value\r\n` lines, a blank line, then the body):
//!
//! - a header line is at most [`MAX_HEADER_LINE`] bytes, a frame has at most [`MAX_HEADERS`]
//!   header lines, and `Content-Length` must be a decimal number of at most [`MAX_BODY`] bytes
//!   (64 MiB: the largest skill file a check reads is 10 MiB, and a document sent whole as JSON
//!   can be some times its size); a line ending in `\n` alone is accepted;
//! - a frame whose headers break these rules (a missing, negative, non-numeric or too large
//!   `Content-Length`, a line too long, too many lines, text that is not a header) cannot be
//!   skipped safely, since where its body ends is not known: the reader says what is wrong, the
//!   connection ends and the server exits with code 1;
//! - a body that ends before its `Content-Length` (end of input): the same, with a message;
//! - a body that is not JSON (or not UTF-8) is answered with a JSON-RPC parse error (`-32700`,
//!   id `null`, as JSON-RPC 2.0 says when the id cannot be known), and one that is JSON but not a
//!   message with an invalid-request error (`-32600`, with its id when it has one); the server
//!   goes on serving.

use lsp_server::{Connection, Message};
use serde_json::{json, Value};
use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};

/// The longest header line read, in bytes (line ending included).
pub const MAX_HEADER_LINE: usize = 4096;
/// The most header lines in one frame.
pub const MAX_HEADERS: usize = 32;
/// The largest body accepted, in bytes: 64 MiB.
pub const MAX_BODY: usize = 64 * 1024 * 1024;

/// JSON-RPC's "Parse error" and "Invalid Request" codes.
const PARSE_ERROR: i32 = -32700;
const INVALID_REQUEST: i32 = -32600;

/// The transport's threads, and why its input ended when it was not the client's doing.
pub struct Transport {
    failure: Arc<Mutex<Option<String>>>,
    writer: std::thread::JoinHandle<()>,
}

impl Transport {
    /// What ended the input, when it was bad framing (not an end of input between frames, nor
    /// the client's `exit`).
    pub fn failure(&self) -> Option<String> {
        self.failure.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Waits for the writer to send what is queued (call after dropping the [`Connection`]). The
    /// reader is not waited for: it may be blocked on input that never comes, and ends with the
    /// process.
    pub fn join(self) {
        let _ = self.writer.join();
    }
}

/// A connection over stdin and stdout through our own reader and writer.
pub fn stdio() -> (Connection, Transport) {
    connect(io::stdin(), io::stdout)
}

/// A connection reading frames from `input` and writing messages to what `output` opens
/// (opened for each message, so that the reader can answer a bad body in between).
fn connect<R, W>(input: R, output: fn() -> W) -> (Connection, Transport)
where
    R: Read + Send + 'static,
    W: Write + 'static,
{
    let (to_server, from_client) = crossbeam_channel::unbounded::<Message>();
    let (to_client, from_server) = crossbeam_channel::unbounded::<Message>();
    let out = Arc::new(Mutex::new(()));
    let failure = Arc::new(Mutex::new(None));
    let writing = Arc::clone(&out);
    let writer = std::thread::Builder::new()
        .name("skillkit-lsp-writer".into())
        .spawn(move || {
            for message in from_server {
                let _turn = writing.lock().unwrap_or_else(|e| e.into_inner());
                if message.write(&mut output()).is_err() {
                    return;
                }
            }
        })
        .expect("a thread for the LSP writer");
    let failed = Arc::clone(&failure);
    std::thread::Builder::new()
        .name("skillkit-lsp-reader".into())
        .spawn(move || {
            let mut input = io::BufReader::new(input);
            let answer = |response: Value| {
                let _turn = out.lock().unwrap_or_else(|e| e.into_inner());
                let _ = write_frame(&mut output(), &response);
            };
            if let Err(why) = read_all(&mut input, &to_server, answer) {
                *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(why);
            }
            // Dropping `to_server` ends the server's receiver: it stops there.
        })
        .expect("a thread for the LSP reader");
    (Connection { sender: to_client, receiver: from_client }, Transport { failure, writer })
}

/// Reads frames until the end of input or the client's `exit`, handing each message to the
/// server and answering bodies that are not messages with `answer`. `Err` says why the input
/// cannot be read on.
fn read_all(
    input: &mut impl BufRead,
    server: &crossbeam_channel::Sender<Message>,
    answer: impl Fn(Value),
) -> Result<(), String> {
    let mut frame = 0usize;
    loop {
        frame += 1;
        let Some(length) = read_headers(input).map_err(|e| format!("frame {frame}: {e}"))? else {
            return Ok(());
        };
        let mut body = Vec::new();
        let read = input.by_ref().take(length as u64).read_to_end(&mut body);
        match read {
            Ok(n) if n < length => {
                return Err(format!("frame {frame}: the input ended {n} bytes into a body of Content-Length {length}"))
            }
            Ok(_) => {}
            Err(e) => return Err(format!("frame {frame}: cannot read the body: {e}")),
        }
        match message(&body) {
            Ok(message) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if server.send(message).is_err() || exit {
                    return Ok(());
                }
            }
            Err(response) => answer(response),
        }
    }
}

/// The body as a message, or the JSON-RPC error response it gets.
fn message(body: &[u8]) -> Result<Message, Value> {
    let error = |id: Value, code: i32, message: String| json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => return Err(error(Value::Null, PARSE_ERROR, format!("the body is not JSON: {e}"))),
    };
    let id = value.get("id").filter(|id| id.is_number() || id.is_string()).cloned().unwrap_or(Value::Null);
    let is_response = value.get("method").is_none() && (value.get("result").is_some() || value.get("error").is_some());
    serde_json::from_value::<Message>(value).map_err(|e| {
        // A malformed response to one of our requests needs no answer, but nothing else reads
        // it: it is answered like a request (the client logs it).
        let what = if is_response { "response" } else { "request or notification" };
        error(id, INVALID_REQUEST, format!("not a JSON-RPC {what}: {e}"))
    })
}

/// Reads one frame's headers: its `Content-Length`, or `None` at the end of input before a
/// frame starts.
fn read_headers(input: &mut impl BufRead) -> Result<Option<usize>, String> {
    let mut length: Option<usize> = None;
    let mut lines = 0usize;
    loop {
        let Some(line) = read_line(input)? else {
            return match lines {
                0 => Ok(None),
                _ => Err("the input ended inside the headers".into()),
            };
        };
        lines += 1;
        if line.is_empty() {
            if lines == 1 {
                // A blank line between frames: tolerated.
                lines = 0;
                continue;
            }
            return length.map(Some).ok_or_else(|| "no Content-Length header".to_string());
        }
        if lines > MAX_HEADERS {
            return Err(format!("more than {MAX_HEADERS} header lines"));
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!("not a header line: {}", shown(&line)));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let value = value.trim();
            if !value.bytes().all(|b| b.is_ascii_digit()) || value.is_empty() {
                return Err(format!("Content-Length is not a number of bytes: {}", shown(value)));
            }
            let n = value.parse::<usize>().ok().filter(|n| *n <= MAX_BODY).ok_or_else(|| {
                format!("Content-Length {} is over the limit of {MAX_BODY} bytes (64 MiB)", shown(value))
            })?;
            if length.is_some_and(|l| l != n) {
                return Err("two different Content-Length headers".into());
            }
            length = Some(n);
        }
    }
}

/// One header line without its line ending, read at most [`MAX_HEADER_LINE`] bytes; `None` at
/// the end of input before any byte.
fn read_line(input: &mut impl BufRead) -> Result<Option<String>, String> {
    let mut line = Vec::new();
    loop {
        let buffer = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("cannot read: {e}")),
        };
        if buffer.is_empty() {
            return match line.is_empty() {
                true => Ok(None),
                false => {
                    Err(format!("the input ended inside a header line: {}", shown(&String::from_utf8_lossy(&line))))
                }
            };
        }
        let (take, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buffer.len(), false),
        };
        if line.len() + take > MAX_HEADER_LINE {
            return Err(format!("a header line longer than {MAX_HEADER_LINE} bytes"));
        }
        line.extend_from_slice(&buffer[..take]);
        input.consume(take);
        if done {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return String::from_utf8(line).map(Some).map_err(|_| "a header line that is not UTF-8".to_string());
        }
    }
}

/// A header's text for a message: quoted, cut at 80 characters.
fn shown(text: &str) -> String {
    let cut: String = text.chars().take(80).collect();
    if cut.len() < text.len() {
        format!("{cut:?}…")
    } else {
        format!("{cut:?}")
    }
}

fn write_frame(out: &mut impl Write, message: &Value) -> io::Result<()> {
    let body = message.to_string();
    write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(text: &str) -> Result<Option<usize>, String> {
        read_headers(&mut io::Cursor::new(text.as_bytes().to_vec()))
    }

    #[test]
    fn headers_are_bounded_and_checked() {
        assert_eq!(headers("Content-Length: 12\r\n\r\n"), Ok(Some(12)));
        assert_eq!(headers("content-length:3\nContent-Type: x\n\n"), Ok(Some(3)));
        assert_eq!(headers(""), Ok(None));
        let err = |text: &str| headers(text).err().unwrap_or_default();
        assert!(err("Content-Length: -5\r\n\r\n").contains("not a number"));
        assert!(err("Content-Length: twelve\r\n\r\n").contains("not a number"));
        assert!(err("Content-Length: 100000000000\r\n\r\n").contains("over the limit"));
        assert!(err("Content-Length: 99999999999999999999999999\r\n\r\n").contains("over the limit"));
        assert!(err("Content-Type: x\r\n\r\n").contains("no Content-Length"));
        assert!(err(&format!("X: {}\r\n\r\n", "y".repeat(MAX_HEADER_LINE))).contains("longer than"));
        assert!(err(&"X: y\r\n".repeat(MAX_HEADERS + 1)).contains("header lines"));
        assert!(err("Content-Length: 3").contains("ended inside"));
        assert!(err("garbage\r\n\r\n").contains("not a header"));
    }

    #[test]
    fn bodies_that_are_not_messages_get_errors() {
        assert_eq!(message(b"{oops").err().map(|e| e["error"]["code"].clone()), Some(json!(PARSE_ERROR)));
        assert_eq!(message(b"{oops").err().map(|e| e["id"].clone()), Some(Value::Null));
        let invalid = message(br#"{"jsonrpc":"2.0","id":7,"params":3}"#).err();
        assert_eq!(invalid.as_ref().map(|e| e["error"]["code"].clone()), Some(json!(INVALID_REQUEST)));
        assert_eq!(invalid.map(|e| e["id"].clone()), Some(json!(7)));
        assert!(message(br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#).is_ok());
    }
}
