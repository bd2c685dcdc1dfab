//! Record and replay: a run's replies kept on disk, so the same run can be repeated (in CI, in a
//! review) without a provider, a key or a network.
//!
//! The store is a folder of `<key>.json` files. The key is the SHA-256 (hex) of the provider kind,
//! the path and the request's exact JSON body in canonical form (object keys sorted), never of the
//! headers or the base URL: the same request to another port, or with another key, replays the
//! same reply. Each file holds the request (as JSON, to read in a review) and the replies'
//! statuses and raw bodies, exactly as received, in the order they came: a suite asks the same
//! request several times (`--runs`), and the model may answer differently each time. Replay
//! hands the n-th identical request the n-th reply, through the same decoder, so a replayed
//! [`super::ChatResponse`] is the recorded one; a request asked more often than recorded is a
//! miss. Only 2xx replies are recorded: a 429 or a 500 says nothing about the model.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::api::ProviderKind;
use super::wire_format::{WireFormat, WireReply, WireRequest};
use super::{Cancel, Provider, ProviderError};

/// A provider that forwards to another and stores each exchange.
pub struct Recording {
    dir: PathBuf,
    inner: Box<dyn Provider>,
    /// The replies recorded so far by this run, per key (a run starts each file afresh).
    recorded: Mutex<HashMap<String, Vec<RecordedReply>>>,
}

/// A provider that answers only from a record store.
pub struct Replay {
    dir: PathBuf,
    wire: WireFormat,
    /// How many times each key was answered.
    served: Mutex<HashMap<String, usize>>,
}

/// One record file.
#[derive(Serialize, Deserialize)]
struct Record {
    provider: String,
    path: String,
    request: Value,
    /// In the order they came.
    responses: Vec<RecordedReply>,
}

/// A reply in a record file.
#[derive(Clone, Serialize, Deserialize)]
struct RecordedReply {
    status: u16,
    body: String,
}

impl Recording {
    /// Records `inner`'s replies in `dir` (created on the first reply).
    pub fn new(dir: impl Into<PathBuf>, inner: Box<dyn Provider>) -> Recording {
        Recording { dir: dir.into(), inner, recorded: Mutex::default() }
    }
}

impl Provider for Recording {
    fn wire(&self) -> WireFormat {
        self.inner.wire()
    }

    fn exchange(&self, request: &WireRequest, cancel: &Cancel) -> Result<WireReply, ProviderError> {
        let reply = self.inner.exchange(request, cancel)?;
        if (200..300).contains(&reply.status) {
            let kind = self.wire().kind();
            let key = record_key(kind, request);
            // One writer per file at a time, with every reply so far.
            let mut recorded = self.recorded.lock().unwrap_or_else(|e| e.into_inner());
            let replies = recorded.entry(key.clone()).or_default();
            replies.push(RecordedReply { status: reply.status, body: reply.body.clone() });
            store(&self.dir, kind, &key, request, replies)?;
        }
        Ok(reply)
    }

    fn describe(&self) -> String {
        format!("{}, recording to {}", self.inner.describe(), self.dir.display())
    }
}

impl Replay {
    /// Answers from the records in `dir` as the wire format `wire` (a [`ProviderKind`], or a
    /// [`WireFormat`] with the options the run was recorded with, since they change the body).
    pub fn new(dir: impl Into<PathBuf>, wire: impl Into<WireFormat>) -> Replay {
        Replay { dir: dir.into(), wire: wire.into(), served: Mutex::default() }
    }
}

impl Provider for Replay {
    fn wire(&self) -> WireFormat {
        self.wire
    }

    fn exchange(&self, request: &WireRequest, cancel: &Cancel) -> Result<WireReply, ProviderError> {
        if cancel.is_cancelled() {
            return Err(ProviderError::Cancelled);
        }
        let key = record_key(self.wire.kind(), request);
        let path = self.dir.join(format!("{key}.json"));
        // A record store may come with a cloned library: its files are read only inside the
        // store (a symlink out is refused), only when regular files, and only up to a bound.
        let read =
            crate::scope::Scope::new(std::slice::from_ref(&self.dir)).read(&path, MAX_RECORD_BYTES).and_then(|bytes| {
                String::from_utf8(bytes).map_err(|e| crate::scope::ScopeError::NotUtf8 {
                    path: path.clone(),
                    valid_up_to: e.utf8_error().valid_up_to(),
                })
            });
        let text = match read {
            Ok(text) => text,
            Err(crate::scope::ScopeError::Missing { .. }) => {
                return Err(ProviderError::Replay(format!(
                    "no recorded reply for this request (key {key}) in {}: re-run with --record",
                    self.dir.display()
                )))
            }
            Err(e) => return Err(ProviderError::Replay(format!("cannot read the record: {e}"))),
        };
        let record: Record = serde_json::from_str(&text)
            .map_err(|e| ProviderError::Replay(format!("the record {} is not a record file: {e}", path.display())))?;
        let n = {
            let mut served = self.served.lock().unwrap_or_else(|e| e.into_inner());
            let n = served.entry(key.clone()).or_default();
            *n += 1;
            *n - 1
        };
        let Some(reply) = record.responses.into_iter().nth(n) else {
            return Err(ProviderError::Replay(format!(
                "this request was asked more often than recorded (key {key}, {} in {}): re-run with --record",
                n,
                self.dir.display()
            )));
        };
        Ok(WireReply { status: reply.status, body: reply.body, retries: 0 })
    }

    fn describe(&self) -> String {
        format!("{} replayed from {}", self.wire.kind(), self.dir.display())
    }
}

/// The largest record file replay reads (a record holds one request and its replies).
pub const MAX_RECORD_BYTES: u64 = 64 << 20;

/// The store key of `request`: SHA-256 hex of `kind`, the path and the canonical body, each
/// followed by a newline.
pub fn record_key(kind: ProviderKind, request: &WireRequest) -> String {
    let mut hasher = Sha256::new();
    hasher.update(kind.name().as_bytes());
    hasher.update(b"\n");
    hasher.update(request.path.as_bytes());
    hasher.update(b"\n");
    match serde_json::from_slice::<Value>(&request.body) {
        Ok(body) => {
            let mut canonical = String::new();
            write_canonical(&body, &mut canonical);
            hasher.update(canonical.as_bytes());
        }
        Err(_) => hasher.update(&request.body),
    }
    hasher.update(b"\n");
    hasher.finalize().iter().fold(String::with_capacity(64), |mut hex, byte| {
        let _ = write!(hex, "{byte:02x}");
        hex
    })
}

/// `value` as compact JSON with every object's keys sorted, whatever order the map keeps.
fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, value)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(value, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// Writes the record of one exchange, atomically (a temporary file renamed into place).
fn store(
    dir: &Path,
    kind: ProviderKind,
    key: &str,
    request: &WireRequest,
    replies: &[RecordedReply],
) -> Result<(), ProviderError> {
    let failed = |what: &str, e: std::io::Error| {
        ProviderError::Replay(format!("cannot {what} the record store {}: {e}", dir.display()))
    };
    let record = Record {
        provider: kind.name().to_string(),
        path: request.path.to_string(),
        request: serde_json::from_slice(&request.body)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&request.body).into_owned())),
        responses: replies.to_vec(),
    };
    let mut text = serde_json::to_string_pretty(&record)
        .map_err(|e| ProviderError::Replay(format!("cannot encode a record: {e}")))?;
    text.push('\n');
    fs::create_dir_all(dir).map_err(|e| failed("create", e))?;
    // The engine's atomic save inside the store: an exclusive temporary file, renamed into place;
    // a symlink the store holds is never followed out of it.
    crate::files::save(&dir.join(format!("{key}.json")), text.as_bytes(), dir)
        .map_err(|e| ProviderError::Replay(format!("cannot write to the record store: {e}")))
}

#[cfg(test)]
mod tests {
    use super::super::testing::conversation;
    use super::*;
    use std::sync::atomic::Ordering;

    /// A provider that answers every request with the same raw reply.
    struct Canned(WireReply);

    impl Provider for Canned {
        fn wire(&self) -> WireFormat {
            WireFormat::Anthropic
        }
        fn exchange(&self, _: &WireRequest, _: &Cancel) -> Result<WireReply, ProviderError> {
            Ok(self.0.clone())
        }
        fn describe(&self) -> String {
            "canned".into()
        }
    }

    const BODY: &str = r#"{"content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2}}"#;

    #[test]
    fn keys_ignore_key_order_but_not_content() {
        let a = WireRequest { path: "/messages", body: br#"{"a":1,"b":[{"x":1,"y":2}]}"#.to_vec() };
        let b = WireRequest { path: "/messages", body: br#"{"b":[{"y":2,"x":1}],"a":1}"#.to_vec() };
        let c = WireRequest { path: "/messages", body: br#"{"a":2,"b":[{"x":1,"y":2}]}"#.to_vec() };
        assert_eq!(record_key(ProviderKind::Anthropic, &a), record_key(ProviderKind::Anthropic, &b));
        assert_ne!(record_key(ProviderKind::Anthropic, &a), record_key(ProviderKind::Anthropic, &c));
        assert_ne!(record_key(ProviderKind::Anthropic, &a), record_key(ProviderKind::OpenAi, &a));
        assert_eq!(record_key(ProviderKind::Anthropic, &a).len(), 64);
    }

    #[test]
    fn record_then_replay_gives_the_same_response() {
        let dir = tempfile::tempdir().ok();
        let Some(dir) = dir else { panic!("no temp dir") };
        let canned = Canned(WireReply { status: 200, body: BODY.into(), retries: 0 });
        let recording = Recording::new(dir.path().join("store"), Box::new(canned));
        let req = conversation();
        let recorded = recording.complete(&req);
        assert!(recorded.is_ok(), "{recorded:?}");
        let replayed = Replay::new(dir.path().join("store"), ProviderKind::Anthropic).complete(&req);
        assert_eq!(recorded, replayed);

        let files: Vec<_> = fs::read_dir(dir.path().join("store")).into_iter().flatten().flatten().collect();
        assert_eq!(files.len(), 1, "one record, no temporary file left");
        let text = fs::read_to_string(files[0].path()).unwrap_or_default();
        let record: Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(record["responses"][0]["body"], BODY);
        assert_eq!(record["request"]["model"], "gpt-test");
        assert!(text.contains("\n  \"request\": {"), "pretty: {text}");
    }

    /// A store shipped with a cloned library: its record files may be links to `/dev/zero`, to a
    /// FIFO or to a file outside the store. Replay refuses each at once (no unbounded read, no
    /// hang), and recording does not write through a link out.
    #[cfg(unix)]
    #[test]
    fn a_hostile_store_is_refused_not_read_or_written_through() {
        let Ok(dir) = tempfile::tempdir() else { panic!("no temp dir") };
        let store = dir.path().join("store");
        let canned = || Box::new(Canned(WireReply { status: 200, body: BODY.into(), retries: 0 }));
        let req = conversation();
        assert!(Recording::new(&store, canned()).complete(&req).is_ok());
        let file = fs::read_dir(&store).into_iter().flatten().flatten().next().map(|e| e.path());
        let Some(file) = file else { panic!("no record written") };
        let replay = |what: &str| {
            let got = Replay::new(&store, ProviderKind::Anthropic).complete(&req);
            match got {
                Err(ProviderError::Replay(m)) => m,
                other => panic!("{what}: replayed {other:?}"),
            }
        };
        fs::remove_file(&file).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &file).unwrap();
        assert!(replay("/dev/zero").contains("outside"));
        fs::remove_file(&file).unwrap();
        let fifo = std::ffi::CString::new(file.as_os_str().as_encoded_bytes()).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            fifo.as_c_str(),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            0,
        )
        .unwrap();
        assert!(replay("a FIFO").contains("FIFO"));
        fs::remove_file(&file).unwrap();
        let outside = dir.path().join("victim.json");
        fs::write(&outside, "precious").unwrap();
        std::os::unix::fs::symlink(&outside, &file).unwrap();
        assert!(replay("a link out").contains("outside"));
        assert!(Recording::new(&store, canned()).complete(&req).is_err(), "no write through a link out");
        assert_eq!(fs::read_to_string(&outside).unwrap(), "precious");
    }

    /// A provider whose n-th reply says n.
    struct Counting(std::sync::atomic::AtomicUsize);

    impl Provider for Counting {
        fn wire(&self) -> WireFormat {
            WireFormat::Anthropic
        }
        fn exchange(&self, _: &WireRequest, _: &Cancel) -> Result<WireReply, ProviderError> {
            let n = self.0.fetch_add(1, Ordering::SeqCst);
            Ok(WireReply { status: 200, body: BODY.replace("\"hi\"", &format!("\"Reply {n}\"")), retries: 0 })
        }
        fn describe(&self) -> String {
            "counting".into()
        }
    }

    #[test]
    fn the_same_request_asked_again_replays_its_replies_in_order() {
        let Ok(dir) = tempfile::tempdir() else { panic!("no temp dir") };
        let recording = Recording::new(dir.path(), Box::new(Counting(Default::default())));
        let req = conversation();
        let recorded: Vec<_> = (0..3).map(|_| recording.complete(&req).map(|r| r.text)).collect();
        assert_eq!(recorded[2], Ok("Reply 2".to_string()), "{recorded:?}");
        let replay = Replay::new(dir.path(), ProviderKind::Anthropic);
        let replayed: Vec<_> = (0..3).map(|_| replay.complete(&req).map(|r| r.text)).collect();
        assert_eq!(replayed, recorded);
        let Err(ProviderError::Replay(more)) = replay.complete(&req) else { panic!("a fourth ask is a miss") };
        assert!(more.contains("asked more often than recorded"), "{more}");
        // A new recording run starts the file afresh.
        let again = Recording::new(dir.path(), Box::new(Counting(Default::default())));
        assert!(again.complete(&req).is_ok());
        let fresh = Replay::new(dir.path(), ProviderKind::Anthropic);
        assert!(fresh.complete(&req).is_ok() && fresh.complete(&req).is_err());
    }

    #[test]
    fn a_miss_names_the_key_and_the_fix() {
        let dir = tempfile::tempdir().ok();
        let Some(dir) = dir else { panic!("no temp dir") };
        let miss = Replay::new(dir.path(), ProviderKind::OpenAi).complete(&conversation());
        let Err(ProviderError::Replay(message)) = miss else { panic!("{miss:?}") };
        assert!(message.starts_with("no recorded reply for this request (key "), "{message}");
        assert!(message.ends_with(": re-run with --record"), "{message}");
    }

    #[test]
    fn error_replies_are_not_recorded() {
        let dir = tempfile::tempdir().ok();
        let Some(dir) = dir else { panic!("no temp dir") };
        let canned = Canned(WireReply { status: 500, body: "{}".into(), retries: 0 });
        let result = Recording::new(dir.path(), Box::new(canned)).complete(&conversation());
        assert!(matches!(result, Err(ProviderError::Server { status: 500, .. })), "{result:?}");
        assert_eq!(fs::read_dir(dir.path()).map(|d| d.count()).ok(), Some(0));
    }
}
