//! Just enough HTTP/1.1: one request read from a connection, one response written, then the
//! connection is closed (`Connection: close`).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;

/// The largest request head and body accepted.
const HEAD_LIMIT: usize = 64 * 1024;
const BODY_LIMIT: usize = 64 * 1024 * 1024;

/// A request as read.
pub(crate) struct Request {
    pub method: String,
    pub path: String,
    /// Header names lowercased, values trimmed.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Reads one request.
pub(crate) fn read_request(stream: &TcpStream) -> io::Result<Request> {
    let mut reader = BufReader::new(stream);
    let mut head_size = 0;
    let mut line = String::new();
    let mut next_line = |reader: &mut BufReader<&TcpStream>, line: &mut String| -> io::Result<()> {
        line.clear();
        let n = reader.by_ref().take((HEAD_LIMIT + 1 - head_size.min(HEAD_LIMIT)) as u64).read_line(line)?;
        head_size += n;
        if n == 0 || head_size > HEAD_LIMIT {
            return Err(bad("the request head is cut short or too long"));
        }
        Ok(())
    };
    next_line(&mut reader, &mut line)?;
    let mut parts = line.split_whitespace();
    let (Some(method), Some(path)) = (parts.next(), parts.next()) else {
        return Err(bad("no request line"));
    };
    let (method, path) = (method.to_string(), path.to_string());
    let mut headers = Vec::new();
    loop {
        next_line(&mut reader, &mut line)?;
        let trimmed = line.trim_end_matches(['\r', '\n']);
        if trimmed.is_empty() {
            break;
        }
        let Some((name, value)) = trimmed.split_once(':') else { return Err(bad("a header without a colon")) };
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let mut request = Request { method, path, headers, body: Vec::new() };
    if request.header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        request.body = read_chunked(&mut reader)?;
    } else if let Some(length) = request.header("content-length") {
        let length: usize = length.parse().map_err(|_| bad("a bad Content-Length"))?;
        if length > BODY_LIMIT {
            return Err(bad("the body is too large"));
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body)?;
        request.body = body;
    }
    Ok(request)
}

/// A chunked body.
fn read_chunked(reader: &mut BufReader<&TcpStream>) -> io::Result<Vec<u8>> {
    let mut body = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        reader.by_ref().take(1024).read_line(&mut line)?;
        let size = line.trim().split(';').next().unwrap_or_default();
        let size = usize::from_str_radix(size, 16).map_err(|_| bad("a bad chunk size"))?;
        if size == 0 {
            // Trailers, up to the blank line.
            loop {
                line.clear();
                if reader.by_ref().take(1024).read_line(&mut line)? == 0 || line.trim().is_empty() {
                    return Ok(body);
                }
            }
        }
        if body.len() + size > BODY_LIMIT {
            return Err(bad("the body is too large"));
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader.read_exact(&mut body[start..])?;
        let mut crlf = [0; 2];
        reader.read_exact(&mut crlf)?;
    }
}

/// A response to write.
pub(crate) struct Response {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// A JSON response.
    pub fn json(status: u16, body: Vec<u8>) -> Response {
        Response { status, headers: vec![("content-type", "application/json".into())], body }
    }
}

/// Writes `response` and flushes.
pub(crate) fn write_response(mut stream: &TcpStream, response: &Response) -> io::Result<()> {
    let mut head = format!("HTTP/1.1 {} {}\r\n", response.status, reason(response.status));
    for (name, value) in &response.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("content-length: {}\r\nconnection: close\r\n\r\n", response.body.len()));
    stream.write_all(head.as_bytes())?;
    stream.write_all(&response.body)?;
    stream.flush()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        529 => "Overloaded",
        _ => "Status",
    }
}

fn bad(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}
