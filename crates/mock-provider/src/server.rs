//! The server: a listener thread, a thread per connection, the script's state (reply cycles,
//! fault counts) and every request received.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};

use crate::bodies::{escaped, fill_paths, Api};
use crate::http::{read_request, write_response, Request, Response};
use crate::script::{Compiled, Fault, Reply, Script, ScriptError};

/// How long a connection may take to send its request.
const READ_TIMEOUT: Duration = Duration::from_secs(30);

/// Headers whose values are never recorded.
const SECRET_HEADERS: [&str; 3] = ["authorization", "x-api-key", "api-key"];

/// A request the mock received.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Received {
    /// `POST`.
    pub method: String,
    /// The path, `/v1/messages`.
    pub path: String,
    /// The headers, names lowercased; the values of `authorization`, `x-api-key` and `api-key`
    /// are `***`.
    pub headers: Vec<(String, String)>,
    /// The body as JSON (a JSON string of the text when it is not JSON).
    pub body: Value,
}

impl Received {
    /// The value of header `name` (lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Where and how to serve.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The port on 127.0.0.1; 0 (the default) for any free one.
    pub port: u16,
    /// A file each request is appended to, as one JSON line.
    pub log: Option<PathBuf>,
}

/// A running mock provider; it stops when dropped.
pub struct MockServer {
    addr: SocketAddr,
    state: Arc<State>,
    accept: Option<JoinHandle<()>>,
}

/// What the connection threads share.
struct State {
    script: Compiled,
    /// Per (rule, user text): how many replies the rule has given to that text.
    cycles: Mutex<HashMap<(usize, String), u64>>,
    /// Per fault (`None` the script's, `Some(i)` rule i's): how many requests it applied to.
    fault_hits: Mutex<HashMap<Option<usize>, u32>>,
    received: Mutex<Vec<Received>>,
    log: Option<Mutex<File>>,
    next_id: AtomicU64,
    stopping: AtomicBool,
}

/// What a fault does to a request.
enum Effect {
    /// Nothing (more): answer as the script says.
    Pass,
    /// Answer this instead.
    Respond(Response),
    /// Answer with the reply cut in half.
    Malformed,
}

/// A failure to start.
#[derive(Debug)]
pub enum StartError {
    /// The script is unusable.
    Script(ScriptError),
    /// The port or the log file could not be opened.
    Io(io::Error),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Script(e) => write!(f, "{e}"),
            StartError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StartError {}

impl MockServer {
    /// Serves `script` on a free port of 127.0.0.1.
    ///
    /// # Panics
    ///
    /// When the script is unusable or no port can be bound: this is the tests' entry point; use
    /// [`MockServer::try_start`] to handle those.
    pub fn start(script: Script) -> MockServer {
        match MockServer::try_start(script, Options::default()) {
            Ok(server) => server,
            Err(e) => panic!("mock-provider: cannot start: {e}"),
        }
    }

    /// Serves `script` as `options` say.
    pub fn try_start(script: Script, options: Options) -> Result<MockServer, StartError> {
        let script = script.compile().map_err(StartError::Script)?;
        let log = match &options.log {
            Some(path) => {
                Some(Mutex::new(OpenOptions::new().create(true).append(true).open(path).map_err(StartError::Io)?))
            }
            None => None,
        };
        let listener = TcpListener::bind(("127.0.0.1", options.port)).map_err(StartError::Io)?;
        let addr = listener.local_addr().map_err(StartError::Io)?;
        let state = Arc::new(State {
            script,
            cycles: Mutex::default(),
            fault_hits: Mutex::default(),
            received: Mutex::default(),
            log,
            next_id: AtomicU64::new(1),
            stopping: AtomicBool::new(false),
        });
        let shared = Arc::clone(&state);
        let accept = std::thread::Builder::new()
            .name("mock-provider".into())
            .spawn(move || serve(&listener, &shared))
            .map_err(StartError::Io)?;
        Ok(MockServer { addr, state, accept: Some(accept) })
    }

    /// `http://127.0.0.1:PORT/v1`, the base URL for either API.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// The port served.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<Received> {
        lock(&self.state.received).clone()
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        self.state.stopping.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }
}

/// A lock that survives a panicked holder (the data is counters and a list).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn serve(listener: &TcpListener, state: &Arc<State>) {
    for stream in listener.incoming() {
        if state.stopping.load(Ordering::SeqCst) {
            return;
        }
        let Ok(stream) = stream else { continue };
        let state = Arc::clone(state);
        let _ =
            std::thread::Builder::new().name("mock-provider-conn".into()).spawn(move || connection(&stream, &state));
    }
}

fn connection(stream: &TcpStream, state: &State) {
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    let Ok(request) = read_request(stream) else { return };
    let response = state.answer(&request);
    let _ = write_response(stream, &response);
}

impl State {
    /// The response to one request.
    fn answer(&self, request: &Request) -> Response {
        let body: Value = serde_json::from_slice(&request.body)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&request.body).into_owned()));
        self.receive(request, &body);
        let Some(api) = Api::for_path(&request.path).filter(|_| request.method == "POST") else {
            let message = format!("mock-provider: no route for {} {}", request.method, request.path);
            return Response::json(404, json!({"error": message}).to_string().into_bytes());
        };
        let error = |status: u16, message: Option<&str>, model: &str| {
            Response::json(status, api.error(status, message, model).to_string().into_bytes())
        };
        if let Some(key) = &self.script.script.api_key {
            if !api.has_key(&request.headers, key) {
                return error(401, None, "");
            }
        }
        if !body.is_object() {
            return error(400, Some("mock-provider: the body is not a JSON object"), "");
        }
        let asked = api.asked(&body);
        let mut malformed = false;
        match self.fault(None, self.script.script.fault.as_ref(), api, &asked.model) {
            Effect::Respond(response) => return response,
            Effect::Malformed => malformed = true,
            Effect::Pass => {}
        }
        let rule = self.script.rule_for(&asked.user_text, &asked.context);
        if let Some(i) = rule {
            match self.fault(Some(i), self.script.script.rules[i].fault.as_ref(), api, &asked.model) {
                Effect::Respond(response) => return response,
                Effect::Malformed => malformed = true,
                Effect::Pass => {}
            }
        }
        let Some(reply) = self.pick(rule, &asked.user_text) else {
            let message = format!("mock-provider: no rule matches the last user text {:?}", asked.user_text);
            return error(400, Some(&message), &asked.model);
        };
        let n = self.next_id.fetch_add(1, Ordering::SeqCst);
        let input_tokens = request.body.len() as u64 / 4;
        let (text, call) = match &reply.tool {
            Some(tool) if !asked.tools.iter().any(|t| t == tool) => (Some("no such tool".to_string()), None),
            Some(tool) => {
                let arguments = fill_paths(reply.arguments.as_ref().unwrap_or(&json!({})), &asked.context);
                (reply.text.clone(), Some((tool.clone(), arguments)))
            }
            None => (reply.text.clone(), None),
        };
        let times = reply.repeat.unwrap_or(1) as usize;
        let call = call.as_ref().map(|(name, args)| (name.as_str(), args, times));
        let body = api.reply(n, &asked.model, text.as_deref(), call, input_tokens);
        let mut bytes = if reply.escaped { escaped(&body) } else { body.to_string() }.into_bytes();
        if malformed {
            bytes.truncate(bytes.len() / 2);
        }
        Response::json(200, bytes)
    }

    /// Records the request (and logs it).
    fn receive(&self, request: &Request, body: &Value) {
        let headers = request
            .headers
            .iter()
            .map(|(n, v)| (n.clone(), if SECRET_HEADERS.contains(&n.as_str()) { "***".to_string() } else { v.clone() }))
            .collect();
        let received =
            Received { method: request.method.clone(), path: request.path.clone(), headers, body: body.clone() };
        if let Some(log) = &self.log {
            if let Ok(line) = serde_json::to_string(&received) {
                let mut file = lock(log);
                let _ = writeln!(file, "{line}");
                let _ = file.flush();
            }
        }
        lock(&self.received).push(received);
    }

    /// Applies `fault` (of rule `slot`, or the script's) to this request: counts it, waits the
    /// delay, and says what else the fault does, if it still applies.
    fn fault(&self, slot: Option<usize>, fault: Option<&Fault>, api: Api, model: &str) -> Effect {
        let Some(fault) = fault else { return Effect::Pass };
        let active = {
            let mut hits = lock(&self.fault_hits);
            let count = hits.entry(slot).or_insert(0);
            let active = fault.times.is_none_or(|times| *count < times);
            *count = count.saturating_add(1);
            active
        };
        if !active {
            return Effect::Pass;
        }
        if let Some(ms) = fault.delay_ms {
            self.sleep(Duration::from_millis(ms));
        }
        match fault.status {
            Some(status) => {
                let body = api.error(status, fault.message.as_deref(), model).to_string().into_bytes();
                let mut response = Response::json(status, body);
                if let Some(seconds) = fault.retry_after {
                    response.headers.push(("retry-after", seconds.to_string()));
                }
                Effect::Respond(response)
            }
            None if fault.malformed => Effect::Malformed,
            None => Effect::Pass,
        }
    }

    /// The reply for `text`: the next in rule `rule`'s cycle, or the default.
    fn pick(&self, rule: Option<usize>, text: &str) -> Option<Reply> {
        let replies = rule.map(|i| &self.script.script.rules[i].replies).filter(|r| !r.is_empty());
        let Some(replies) = replies else { return self.script.script.default.clone() };
        let i = rule.unwrap_or_default();
        let mut cycles = lock(&self.cycles);
        let n = cycles.entry((i, text.to_string())).or_insert(0);
        let reply = replies[(*n % replies.len() as u64) as usize].clone();
        *n += 1;
        Some(reply)
    }

    /// Sleeps in slices, cut short when the server stops.
    fn sleep(&self, total: Duration) {
        let end = Instant::now() + total;
        while !self.stopping.load(Ordering::SeqCst) {
            let now = Instant::now();
            if now >= end {
                return;
            }
            std::thread::sleep((end - now).min(Duration::from_millis(20)));
        }
    }
}
