//! Watching skill libraries for changes: [`Watcher`] watches one or more root folders recursively
//! (through `notify`'s recommended backend, inotify on Linux) and a background thread debounces the
//! raw events into batches of [`FsChange`]s, sent on a channel. [`Watcher::flush`] makes every change
//! made so far arrive now, for tests and for the app's "save, then re-lint" path.
//!
//! # Paths
//!
//! Each root is canonicalised once, at [`Watcher::new`]; every reported path is absolute and lies
//! under a canonical root (a root given as a symlink reports paths under its target). Paths with a
//! `.git` or `node_modules` component below their root are never reported.
//!
//! # Batches
//!
//! A batch is emitted once no relevant event has arrived for [`WatchConfig::quiet`], and at most
//! [`WatchConfig::max_delay`] after its first event even if events keep coming. Empty batches are
//! not sent. Within a batch, changes keep the order in which their path first appeared, and applying
//! them in order to what was on disk before the batch gives what is on disk after it. Changes to one
//! path are coalesced: repeated `Modified` give one `Modified`; `Created` then `Modified` gives
//! `Created`; `Created` then `Removed` gives nothing; `Removed` then `Created` gives `Modified`;
//! `Modified` then `Removed` gives `Removed`. Coalescing never crosses a rename of the path or of a
//! folder above it, since moving a change across the rename would change its meaning.
//!
//! `Created` means "exists now and was not known to exist": a file renamed over an existing one
//! (an editor's atomic save: write `x.tmp`, rename it to `x`) is reported as `Created(x)`, because
//! the temporary file never existed as far as the batch is concerned and inotify does not report
//! the file it replaced. Consumers should treat `Created` of a path they know as `Modified`.
//!
//! When a folder is created (or moved in from outside the roots), everything already inside it when
//! the batch is emitted is reported as `Created` too, after the folder: inotify only starts watching
//! a new folder once it has seen it, so files written into it right away produce no events.
//!
//! # Renames
//!
//! inotify reports a rename as a `MOVED_FROM`/`MOVED_TO` pair sharing a cookie, which `notify`
//! passes on as `From` and `To` events with the cookie as tracker. A matched pair becomes
//! [`FsChange::Renamed`] (also across roots, which share one inotify instance). A `From` that finds
//! no `To` (moved out of the roots, or into an ignored folder) becomes `Removed`; a `To` without a
//! `From` (moved in) becomes `Created`. A `From` waits for its `To` for at least `quiet` before it is
//! given up, so the pair is not split across batches by an emission in between. On backends that
//! only report a rename with both paths (`RenameMode::Both`), that event is used.
//!
//! # Flushing
//!
//! [`Watcher::flush`] returns after every change made before the call has reached the debouncer,
//! and after the debouncer has emitted its pending batch (without waiting for the quiet period), so
//! `change → flush() → rx.try_recv()` sees the change with no sleeping. The mechanism: the flush
//! creates a uniquely named sentinel file (`.skillkit-flush-<pid>-<watcher>-<n>`) in each live root
//! and waits (at most 5 s, then fails with `TimedOut`) until the background thread has seen the
//! sentinel's `Create` event from every root. inotify delivers the events of one instance in order
//! (and `notify` keeps that order), so every earlier event has been seen by then; the thread then
//! emits the batch and acknowledges. The flush deletes the sentinels and finally does a round trip
//! through `notify`'s event loop (a no-op `configure`), which on inotify runs only after the loop
//! has added watches for folders created before the sentinel: changes made after `flush` returns
//! are seen even inside a folder created just before it. Sentinel files are never reported, nor any
//! of their events, whichever watcher made them. A flush needs write access to at least one root;
//! roots where the sentinel cannot be created (read-only, just deleted) are skipped, and if none
//! accepts one, the batch is still emitted but `flush` returns the error.
//!
//! # Errors
//!
//! Errors never stop the watcher and never appear in batches. `notify` errors (such as reaching the
//! inotify watch limit), an overflowed event queue (changes lost: rescan the roots), and a root that
//! was deleted or moved away (it is no longer watched; its `Removed` is still reported) are kept as
//! messages that [`Watcher::errors`] returns and clears.
//!
//! # Stopping
//!
//! [`Watcher::stop`] (and dropping the watcher) stops `notify` and the thread and waits for it.
//! Changes still pending are dropped; batches sent earlier stay in the channel, after which the
//! receiver reports disconnection.
//!
//! Over 600 lines for one job: the debouncer (renames paired into moves, flush sentinels, folders
//! listed after they appear, errors kept for the next batch) is one state machine, tested as one.

use notify::event::{MetadataKind, ModifyKind, RenameMode};
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher as _};
use std::collections::{HashMap, HashSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Debouncing settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchConfig {
    /// A batch is emitted once no event has arrived for this long (default 50 ms).
    pub quiet: Duration,
    /// A batch is emitted at most this long after its first event, even if events keep coming
    /// (default 500 ms).
    pub max_delay: Duration,
}

impl Default for WatchConfig {
    fn default() -> Self {
        WatchConfig { quiet: Duration::from_millis(50), max_delay: Duration::from_millis(500) }
    }
}

/// One change in a batch. Paths are absolute, under a canonical root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FsChange {
    Created(PathBuf),
    Modified(PathBuf),
    Removed(PathBuf),
    Renamed { from: PathBuf, to: PathBuf },
}

/// Files with this name prefix are flush sentinels and never reported.
const SENTINEL_PREFIX: &str = ".skillkit-flush-";
/// Components that hide everything below them.
const IGNORED: [&str; 2] = [".git", "node_modules"];
/// How long [`Watcher::flush`] waits for its sentinels.
const FLUSH_TIMEOUT: Duration = Duration::from_secs(5);

/// Makes sentinel names unique between watchers of one process.
static NEXT_WATCHER: AtomicU64 = AtomicU64::new(0);

/// Watches root folders; see the module documentation.
pub struct Watcher {
    roots: Vec<PathBuf>,
    shared: Arc<Shared>,
    /// `Option` so that stopping can drop it (which stops `notify`) before joining the thread.
    /// In a mutex because its round trip (`configure`) needs `&mut` and `flush` takes `&self`.
    notify: Option<Mutex<RecommendedWatcher>>,
    control: Sender<Message>,
    thread: Option<JoinHandle<()>>,
    sentinel_stem: String,
    next_flush: AtomicU64,
}

/// State the background thread shares with the [`Watcher`].
struct Shared {
    errors: Mutex<Vec<String>>,
    /// Per root: deleted or moved away, so no longer watched and skipped by flushes.
    dead: Mutex<Vec<bool>>,
    stop: AtomicBool,
}

/// What the background thread receives: `notify`'s events and the watcher's requests, on one
/// channel so that a flush request is ordered before the sentinel events it waits for.
enum Message {
    Notify(notify::Result<notify::Event>),
    Flush {
        id: u64,
        sentinels: Vec<PathBuf>,
        ack: Sender<()>,
    },
    /// A sentinel of flush `id` could not be created: stop waiting for it.
    Unexpect {
        id: u64,
        sentinel: PathBuf,
    },
    Cancel {
        id: u64,
    },
    Stop,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere leaves these plain lists consistent, so keep going.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn notify_error(err: notify::Error, path: &Path) -> io::Error {
    let kind = match &err.kind {
        notify::ErrorKind::Io(e) => e.kind(),
        notify::ErrorKind::PathNotFound => io::ErrorKind::NotFound,
        _ => io::ErrorKind::Other,
    };
    io::Error::new(kind, format!("cannot watch {}: {err}", path.display()))
}

impl Watcher {
    /// Starts watching `roots` (folders; canonicalised, duplicates dropped) recursively. Batches
    /// arrive on the returned receiver.
    pub fn new(roots: &[PathBuf], config: WatchConfig) -> io::Result<(Watcher, Receiver<Vec<FsChange>>)> {
        if roots.is_empty() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "no folder to watch"));
        }
        let mut canonical: Vec<PathBuf> = Vec::new();
        for root in roots {
            let real = fs::canonicalize(root)
                .map_err(|e| io::Error::new(e.kind(), format!("cannot watch {}: {e}", root.display())))?;
            if !real.is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("cannot watch {}: not a folder", root.display()),
                ));
            }
            if !canonical.contains(&real) {
                canonical.push(real);
            }
        }

        let (control, inbox) = mpsc::channel();
        let (batches, receiver) = mpsc::channel();
        let to_thread = control.clone();
        // Symlinked folders are not walked into: `usr -> /usr` in a cloned library would
        // otherwise register a watch on every folder below it (and `everything -> /` reach /proc).
        let mut notify = RecommendedWatcher::new(
            move |event| {
                let _ = to_thread.send(Message::Notify(event));
            },
            notify::Config::default().with_follow_symlinks(false),
        )
        .map_err(|e| notify_error(e, &canonical[0]))?;
        for root in &canonical {
            notify.watch(root, RecursiveMode::Recursive).map_err(|e| notify_error(e, root))?;
        }

        let shared = Arc::new(Shared {
            errors: Mutex::new(Vec::new()),
            dead: Mutex::new(vec![false; canonical.len()]),
            stop: AtomicBool::new(false),
        });
        let watcher_id = NEXT_WATCHER.fetch_add(1, Ordering::Relaxed);
        let sentinel_stem = format!("{SENTINEL_PREFIX}{}-{watcher_id}-", std::process::id());
        let debouncer = Debouncer {
            roots: canonical.clone(),
            dead: vec![false; canonical.len()],
            shared: Arc::clone(&shared),
            config,
            batch: Batch::default(),
            first: None,
            last: None,
            moves: Vec::new(),
            last_to: None,
            flushes: Vec::new(),
            out: batches,
        };
        let thread = std::thread::Builder::new().name("skillkit-watch".into()).spawn(move || debouncer.run(inbox))?;

        let watcher = Watcher {
            roots: canonical,
            shared,
            notify: Some(Mutex::new(notify)),
            control,
            thread: Some(thread),
            sentinel_stem,
            next_flush: AtomicU64::new(0),
        };
        Ok((watcher, receiver))
    }

    /// The canonical roots, in the order given (duplicates dropped).
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Delivers every change made before this call and emits the pending batch now; see the module
    /// documentation for the mechanism and its limits.
    pub fn flush(&self) -> io::Result<()> {
        let id = self.next_flush.fetch_add(1, Ordering::Relaxed);
        let name = format!("{}{id}", self.sentinel_stem);
        let dead = lock(&self.shared.dead).clone();
        let sentinels: Vec<PathBuf> =
            self.roots.iter().zip(dead).filter(|(_, dead)| !dead).map(|(root, _)| root.join(&name)).collect();

        let (ack, acked) = mpsc::channel();
        self.send(Message::Flush { id, sentinels: sentinels.clone(), ack })?;
        let mut created = Vec::new();
        let mut last_error = None;
        for sentinel in sentinels {
            match fs::OpenOptions::new().write(true).create_new(true).open(&sentinel) {
                Ok(_) => created.push(sentinel),
                Err(e) => {
                    last_error = Some(io::Error::new(e.kind(), format!("cannot flush {}: {e}", sentinel.display())));
                    self.send(Message::Unexpect { id, sentinel })?;
                }
            }
        }

        let waited = acked.recv_timeout(FLUSH_TIMEOUT);
        for sentinel in &created {
            let _ = fs::remove_file(sentinel);
        }
        match waited {
            Ok(()) => {}
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.control.send(Message::Cancel { id });
                return Err(io::Error::new(io::ErrorKind::TimedOut, "the watcher did not see its flush sentinels"));
            }
            Err(RecvTimeoutError::Disconnected) => return Err(stopped()),
        }
        if created.is_empty() {
            // Nothing orders this flush after earlier events: the guarantee does not hold.
            if let Some(error) = last_error {
                return Err(error);
            }
        }
        if let Some(notify) = &self.notify {
            lock(notify)
                .configure(notify::Config::default())
                .map_err(|e| io::Error::other(format!("cannot flush the watcher: {e}")))?;
        }
        Ok(())
    }

    /// Returns and clears the errors seen since the last call.
    pub fn errors(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.shared.errors))
    }

    /// Stops watching and waits for the background thread to end.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn send(&self, message: Message) -> io::Result<()> {
        self.control.send(message).map_err(|_| stopped())
    }

    fn shutdown(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Dropping notify's watcher ends its event loop, so no more events are sent.
        drop(self.notify.take());
        let _ = self.control.send(Message::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn stopped() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the watcher's thread has stopped")
}

impl FsChange {
    fn kind(&self) -> Kind {
        match self {
            FsChange::Created(_) => Kind::Created,
            FsChange::Modified(_) => Kind::Modified,
            FsChange::Removed(_) => Kind::Removed,
            FsChange::Renamed { .. } => Kind::Renamed,
        }
    }

    /// Whether the change names `path` or something below it.
    fn touches_below(&self, path: &Path) -> bool {
        match self {
            FsChange::Created(p) | FsChange::Modified(p) | FsChange::Removed(p) => p.starts_with(path),
            FsChange::Renamed { from, to } => from.starts_with(path) || to.starts_with(path),
        }
    }

    fn is_exactly(&self, path: &Path) -> bool {
        matches!(self, FsChange::Created(p) | FsChange::Modified(p) | FsChange::Removed(p) if p == path)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Created,
    Modified,
    Removed,
    Renamed,
}

/// The changes of the batch being collected, coalesced as they come.
#[derive(Default)]
struct Batch {
    /// In order of first appearance; `None` where a change coalesced into nothing.
    changes: Vec<Option<FsChange>>,
    /// Where each path's latest change is, while later changes may still merge into it.
    open: HashMap<PathBuf, usize>,
}

impl Batch {
    fn record(&mut self, change: FsChange) {
        match change {
            FsChange::Renamed { from, to } => self.rename(from, to),
            FsChange::Created(path) => self.merge(path, Kind::Created),
            FsChange::Modified(path) => self.merge(path, Kind::Modified),
            FsChange::Removed(path) => self.merge(path, Kind::Removed),
        }
    }

    fn merge(&mut self, path: PathBuf, kind: Kind) {
        let Some(&index) = self.open.get(&path) else {
            self.open.insert(path.clone(), self.changes.len());
            self.changes.push(Some(make(kind, path)));
            return;
        };
        let before = self.changes[index].as_ref().map_or(Kind::Modified, FsChange::kind);
        let after = match (before, kind) {
            (Kind::Created, Kind::Removed) => None,
            (Kind::Created, _) => Some(Kind::Created),
            (Kind::Removed, Kind::Removed) | (Kind::Modified, Kind::Removed) => Some(Kind::Removed),
            _ => Some(Kind::Modified),
        };
        match after {
            Some(kind) => self.changes[index] = Some(make(kind, path)),
            None => {
                self.changes[index] = None;
                self.open.remove(&path);
            }
        }
    }

    fn rename(&mut self, from: PathBuf, to: PathBuf) {
        if from == to {
            return;
        }
        let created_here = self.open.get(&from).is_some_and(|&i| matches!(self.changes[i], Some(FsChange::Created(_))));
        let has_children = || self.changes.iter().flatten().any(|c| c.touches_below(&from) && !c.is_exactly(&from));
        if created_here && !has_children() {
            // The source never existed outside this batch (a temporary file saved into place).
            if let Some(index) = self.open.remove(&from) {
                self.changes[index] = None;
            }
            self.merge(to, Kind::Created);
            return;
        }
        self.open.retain(|path, _| !path.starts_with(&from) && !path.starts_with(&to));
        self.changes.push(Some(FsChange::Renamed { from, to }));
    }

    /// Paths the batch already says something about, so a folder scan does not repeat them.
    fn mentioned(&self) -> HashSet<PathBuf> {
        let mut paths = HashSet::new();
        for change in self.changes.iter().flatten() {
            match change {
                FsChange::Created(p) | FsChange::Modified(p) | FsChange::Removed(p) => paths.insert(p.clone()),
                FsChange::Renamed { from, to } => paths.insert(from.clone()) | paths.insert(to.clone()),
            };
        }
        paths
    }

    /// `path` lies in a folder created in this batch, so it did not exist before: a change first
    /// seen as a modification (the folder was watched only after the file appeared in it, and the
    /// file was written after that) is its creation.
    fn created_in_new_folder(&mut self, path: &Path) {
        if let Some(&i) = self.open.get(path) {
            if matches!(self.changes[i], Some(FsChange::Modified(_))) {
                self.changes[i] = Some(FsChange::Created(path.to_path_buf()));
            }
        }
    }

    fn take(&mut self) -> Vec<FsChange> {
        self.open.clear();
        std::mem::take(&mut self.changes).into_iter().flatten().collect()
    }
}

fn make(kind: Kind, path: PathBuf) -> FsChange {
    match kind {
        Kind::Created => FsChange::Created(path),
        Kind::Removed => FsChange::Removed(path),
        _ => FsChange::Modified(path),
    }
}

/// A `From` half of a rename waiting for its `To`.
struct Move {
    tracker: usize,
    from: PathBuf,
    at: Instant,
}

struct PendingFlush {
    id: u64,
    waiting: Vec<PathBuf>,
    ack: Sender<()>,
}

/// The background thread's state.
struct Debouncer {
    roots: Vec<PathBuf>,
    dead: Vec<bool>,
    shared: Arc<Shared>,
    config: WatchConfig,
    batch: Batch,
    /// When the batch's first and latest relevant events arrived.
    first: Option<Instant>,
    last: Option<Instant>,
    moves: Vec<Move>,
    /// The tracker of the latest `To`, whose `Both` (sent right after it) is then redundant.
    last_to: Option<usize>,
    flushes: Vec<PendingFlush>,
    out: Sender<Vec<FsChange>>,
}

impl Debouncer {
    fn run(mut self, inbox: Receiver<Message>) {
        loop {
            if self.shared.stop.load(Ordering::SeqCst) {
                return;
            }
            let message = match self.deadline() {
                // Checked before receiving: under a stream of events `recv_timeout` would never
                // time out and the hard cap would not hold.
                Some(deadline) if Instant::now() >= deadline => {
                    self.emit(false);
                    continue;
                }
                Some(deadline) => match inbox.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                    Ok(message) => message,
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => return,
                },
                None => match inbox.recv() {
                    Ok(message) => message,
                    Err(_) => return,
                },
            };
            match message {
                Message::Notify(Ok(event)) => self.on_event(event),
                Message::Notify(Err(err)) => self.error(err.to_string()),
                Message::Flush { id, sentinels, ack } => {
                    self.flushes.push(PendingFlush { id, waiting: sentinels, ack });
                    self.complete_flushes();
                }
                Message::Unexpect { id, sentinel } => {
                    for flush in self.flushes.iter_mut().filter(|f| f.id == id) {
                        flush.waiting.retain(|s| *s != sentinel);
                    }
                    self.complete_flushes();
                }
                Message::Cancel { id } => self.flushes.retain(|f| f.id != id),
                Message::Stop => return,
            }
        }
    }

    fn deadline(&self) -> Option<Instant> {
        let first = self.first? + self.config.max_delay;
        let last = self.last? + self.config.quiet;
        Some(first.min(last))
    }

    fn note(&mut self, at: Instant) {
        self.first.get_or_insert(at);
        self.last = Some(at);
    }

    fn error(&self, message: String) {
        lock(&self.shared.errors).push(message);
    }

    /// The live root `path` lies under (the deepest, if roots nest).
    fn root_of(&self, path: &Path) -> Option<&Path> {
        self.roots
            .iter()
            .zip(&self.dead)
            .filter(|(root, dead)| !**dead && path.starts_with(root))
            .map(|(root, _)| root.as_path())
            .max_by_key(|root| root.components().count())
    }

    /// Whether changes to `path` are reported.
    fn keep(&self, path: &Path) -> bool {
        let Some(root) = self.root_of(path) else { return false };
        let below = path.strip_prefix(root).unwrap_or(path);
        !below.components().any(|c| IGNORED.iter().any(|name| c.as_os_str() == *name)) && !is_sentinel(path)
    }

    fn change(&mut self, change: FsChange) {
        let keep = match &change {
            FsChange::Created(p) | FsChange::Modified(p) | FsChange::Removed(p) => self.keep(p),
            FsChange::Renamed { .. } => true,
        };
        if keep {
            self.batch.record(change);
            self.note(Instant::now());
        }
    }

    fn on_event(&mut self, event: notify::Event) {
        if event.need_rescan() {
            self.error("the event queue overflowed: some changes were lost; rescan the roots".into());
        }
        let tracker = event.tracker();
        let mut paths = event.paths;
        match event.kind {
            EventKind::Create(_) => {
                for path in paths {
                    if is_sentinel(&path) {
                        self.sentinel_seen(&path);
                    } else {
                        self.change(FsChange::Created(path));
                    }
                }
            }
            EventKind::Remove(_) => {
                for path in paths {
                    self.change(FsChange::Removed(path.clone()));
                    self.root_gone(&path, "deleted");
                }
            }
            EventKind::Modify(ModifyKind::Name(mode)) => match (mode, tracker) {
                (RenameMode::From, Some(tracker)) => {
                    let now = Instant::now();
                    // A `From` whose `To` has not come by now never will: give it up.
                    self.settle_moves(now, false);
                    for from in paths {
                        if self.keep(&from) {
                            self.note(now);
                        }
                        self.moves.push(Move { tracker, from, at: now });
                    }
                }
                (RenameMode::From, None) => {
                    // inotify's MOVE_SELF: only roots watch themselves.
                    for path in paths {
                        self.change(FsChange::Removed(path.clone()));
                        self.root_gone(&path, "moved away");
                    }
                }
                (RenameMode::To, tracker) => {
                    self.last_to = tracker;
                    let Some(to) = paths.pop() else { return };
                    match self.moves.iter().position(|m| Some(m.tracker) == tracker) {
                        Some(index) => {
                            let from = self.moves.remove(index).from;
                            self.renamed(from, to);
                        }
                        None => self.change(FsChange::Created(to)),
                    }
                }
                (RenameMode::Both, tracker) => {
                    if tracker.is_some() && tracker == self.last_to {
                        return;
                    }
                    if let [from, to] = &paths[..] {
                        self.renamed(from.clone(), to.clone());
                    }
                }
                (RenameMode::Any | RenameMode::Other, _) => {
                    // Backends that cannot tell which side of a rename a path is on.
                    for path in paths {
                        let change = if path.exists() { FsChange::Created(path) } else { FsChange::Removed(path) };
                        self.change(change);
                    }
                }
            },
            // Reading files (as the linter does after every batch) must not look like a change.
            EventKind::Access(_) | EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)) => {}
            EventKind::Modify(_) => {
                for path in paths {
                    self.change(FsChange::Modified(path));
                }
            }
            EventKind::Any | EventKind::Other => {}
        }
    }

    fn renamed(&mut self, from: PathBuf, to: PathBuf) {
        match (self.keep(&from), self.keep(&to)) {
            (true, true) => self.change(FsChange::Renamed { from, to }),
            (true, false) => self.change(FsChange::Removed(from)),
            (false, true) => self.change(FsChange::Created(to)),
            (false, false) => {}
        }
    }

    /// Turns rename halves that waited long enough (or all, when `all`) into removals.
    fn settle_moves(&mut self, now: Instant, all: bool) {
        let quiet = self.config.quiet;
        let (settled, waiting): (Vec<Move>, Vec<Move>) =
            std::mem::take(&mut self.moves).into_iter().partition(|m| all || now.duration_since(m.at) >= quiet);
        self.moves = waiting;
        for m in settled {
            if self.keep(&m.from) {
                self.batch.record(FsChange::Removed(m.from));
            }
        }
    }

    fn root_gone(&mut self, path: &Path, how: &str) {
        let Some(index) = self.roots.iter().position(|root| root == path) else { return };
        if self.dead[index] {
            return;
        }
        self.dead[index] = true;
        lock(&self.shared.dead)[index] = true;
        self.error(format!("{} was {how}: it is no longer watched", path.display()));
        // Its sentinels will never be seen.
        for flush in &mut self.flushes {
            flush.waiting.retain(|s| !s.starts_with(path));
        }
        self.complete_flushes();
    }

    fn sentinel_seen(&mut self, path: &Path) {
        for flush in &mut self.flushes {
            flush.waiting.retain(|s| s != path);
        }
        self.complete_flushes();
    }

    fn complete_flushes(&mut self) {
        if !self.flushes.iter().any(|f| f.waiting.is_empty()) {
            return;
        }
        self.emit(true);
        let (done, waiting): (Vec<PendingFlush>, Vec<PendingFlush>) =
            std::mem::take(&mut self.flushes).into_iter().partition(|f| f.waiting.is_empty());
        self.flushes = waiting;
        for flush in done {
            let _ = flush.ack.send(());
        }
    }

    /// Sends the batch, if not empty. `forced` (a flush) also gives up every rename half.
    fn emit(&mut self, forced: bool) {
        let now = Instant::now();
        self.settle_moves(now, forced);
        self.scan_new_folders();
        let changes = self.batch.take();
        if !changes.is_empty() {
            // Nobody listening is not an error: flushes and errors still work.
            let _ = self.out.send(changes);
        }
        // Rename halves still waiting belong to the next batch.
        let kept: Vec<Instant> = self.moves.iter().filter(|m| self.keep(&m.from)).map(|m| m.at).collect();
        self.first = kept.iter().min().copied();
        self.last = kept.iter().max().copied();
    }

    /// Adds what new folders already hold; see the module documentation.
    fn scan_new_folders(&mut self) {
        let folders: Vec<PathBuf> = self
            .batch
            .changes
            .iter()
            .flatten()
            .filter_map(|c| match c {
                FsChange::Created(p) if fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()) => Some(p.clone()),
                _ => None,
            })
            .collect();
        if folders.is_empty() {
            return;
        }
        let mut mentioned = self.batch.mentioned();
        for folder in folders {
            let mut found = Vec::new();
            list_below(&folder, &mut found);
            for path in found {
                if !self.keep(&path) {
                    continue;
                }
                if mentioned.insert(path.clone()) {
                    self.batch.record(FsChange::Created(path));
                } else {
                    self.batch.created_in_new_folder(&path);
                }
            }
        }
    }
}

fn is_sentinel(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(SENTINEL_PREFIX))
}

/// Everything below `folder`, parents before children, without following symlinks or entering
/// ignored folders.
fn list_below(folder: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(folder) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    // Deterministic order for consumers and tests.
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let ignored = IGNORED.iter().any(|name| entry.file_name() == *name);
        if ignored || is_sentinel(&path) {
            continue;
        }
        out.push(path.clone());
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            list_below(&path, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The race the integration test `a_new_skill_folder_reports_its_contents_and_is_watched_at_once`
    /// can hit: the new folder is watched after its file appeared but before the file was written.
    #[test]
    fn a_file_first_seen_modified_in_a_new_folder_is_created() {
        let mut batch = Batch::default();
        batch.record(FsChange::Created("/r/csv".into()));
        batch.record(FsChange::Modified("/r/csv/SKILL.md".into()));
        batch.record(FsChange::Removed("/r/old".into()));
        batch.created_in_new_folder(Path::new("/r/csv/SKILL.md"));
        batch.created_in_new_folder(Path::new("/r/old"));
        assert_eq!(
            batch.take(),
            vec![
                FsChange::Created("/r/csv".into()),
                FsChange::Created("/r/csv/SKILL.md".into()),
                FsChange::Removed("/r/old".into())
            ]
        );
    }
}
