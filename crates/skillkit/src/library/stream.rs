//! One source read as a stream, for one-shot checks: the search hands each skill folder over in
//! path order, workers on every core read and lint it, and each skill comes out in path order as
//! soon as it and every skill before it are done, to be reported and dropped. Memory follows the
//! few skills in flight, not the library: what is kept of every skill is what the library-level
//! rules need, its name (two skills of one name), its folder (a folder reached twice) and the
//! words of its description (two descriptions that compete, [`super::overlap`]).
//!
//! The skills come out as [`super::Library::load`] lists them in one source: each folder once
//! (the first in path order), a skill with the name of an earlier one marked on this later one
//! (as [`super::Library::resolve_clashes`] marks it for a report), as is a description that
//! competes with an earlier one's, and with each skill the folder
//! of the skill it is nested in, listed before it in path order.

use super::discover::{discover_each, DiscoveryPolicy, Found};
use super::installs::Installs;
use super::{add_duplicate, is_named, read_and_lint_one, Entry, Keep, NameKey, Source, SourceIssue};
use crate::lint::profile::LintProfile;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::TryRecvError;
use std::sync::{Condvar, Mutex};

/// How many skill folders the search may hand over beyond the last one reported: the bound on
/// what waits in memory while a slow skill holds up the order.
const AHEAD: usize = 256;

/// Where [`read_in_order`] hands each skill: with what its `prepare` made of it, and the folder of
/// the skill it is nested in.
pub type Each<'a, T> = dyn FnMut(Entry, T, Option<&Path>) -> std::io::Result<()> + 'a;

/// Reads and lints every skill of `source` (searched with `policy`, skills nested in others
/// included when it says so), passes each through `prepare` on the worker that read it, and hands
/// each with what `prepare` made of it to `each` in path order, with the folder of the skill it
/// is nested in; with `competing`, each skill's description is scored against the earlier ones'
/// ([`super::overlap`]). Stops at the first error `each` returns. Returns what the search could
/// not look into.
#[allow(clippy::too_many_arguments)]
pub fn read_in_order<T: Send>(
    source: &Path,
    policy: DiscoveryPolicy,
    key: NameKey,
    profile: &LintProfile,
    keep: Keep,
    competing: bool,
    prepare: &(dyn Fn(Entry) -> (Entry, T) + Sync),
    each: &mut Each<'_, T>,
) -> std::io::Result<Vec<SourceIssue>> {
    let src = Source::new(source);
    if !src.exists {
        return Ok(vec![SourceIssue { source: 0, path: src.path, message: "source folder does not exist".into() }]);
    }
    let within = vec![src.root.clone()];
    // Nested skills come from each skill's resource scan, which lists every level below it:
    // neither the search nor a nested skill's own reading looks for more.
    let flat = DiscoveryPolicy { nested: false, ..policy };
    let window = Window::new();
    let (jobs, job_rx) = std::sync::mpsc::channel::<(usize, Found)>();
    let job_rx = Mutex::new(job_rx);
    let (done, done_rx) = std::sync::mpsc::channel::<(usize, Vec<(Entry, T)>)>();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut order = InOrder { installs: Installs::of(&src.path), competing, ..InOrder::default() };
    let mut result = Ok(());
    let issues = std::thread::scope(|scope| {
        let (window, within, job_rx) = (&window, &within, &job_rx);
        let search = scope.spawn(move || {
            let _stop = StopOnPanic(window);
            let mut handed = 0usize;
            let issues = discover_each(&src.path, flat, &mut |f| {
                if window.wait_for(handed) {
                    // The workers stop only when this sender is dropped, after the search.
                    let _ = jobs.send((handed, f));
                    handed += 1;
                }
            });
            (issues, handed)
        });
        let work = |f: &Found| {
            let (entry, mut nested) = read_and_lint_one(0, f, within, key, profile, keep, policy);
            nested.sort_by(|a, b| a.listed_as.cmp(&b.listed_as));
            let mut batch = Vec::with_capacity(1 + nested.len());
            batch.push(prepare(entry));
            batch.extend(nested.iter().map(|f| prepare(read_and_lint_one(0, f, within, key, profile, keep, flat).0)));
            batch
        };
        // This thread is a worker too, and reports between skills: the others hand it their
        // skills without waking it while it has work (a wake-up per skill cost a tenth of a
        // check).
        let helpers = workers.saturating_sub(1);
        for _ in 0..helpers {
            let done = done.clone();
            scope.spawn(move || {
                let _stop = StopOnPanic(window);
                loop {
                    // The lock is held while waiting: the other workers wait for it instead.
                    let next = job_rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok((n, f)) = next else { break };
                    if window.stopped.load(Ordering::Relaxed) {
                        continue;
                    }
                    if done.send((n, work(&f))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done);
        let _stop = StopOnPanic(window);
        let mut waiting: BTreeMap<usize, Vec<(Entry, T)>> = BTreeMap::new();
        let mut next = 0usize;
        // Whether the search may still hand skills over, and whether every helper is done.
        let (mut searching, mut closed) = (true, false);
        loop {
            while let Some(batch) = waiting.remove(&next) {
                next += 1;
                if result.is_ok() {
                    result = batch.into_iter().try_for_each(|(e, t)| order.hand(e, t, &mut *each));
                    if result.is_err() {
                        window.stop();
                    }
                }
                window.reported(next);
            }
            if closed {
                break;
            }
            let stopped = window.stopped.load(Ordering::Relaxed);
            // A skill of its own, when one is waiting (idle helpers hold the lock while they
            // wait); alone, it waits for the next.
            if searching && !stopped {
                let job = match job_rx.try_lock() {
                    Ok(rx) if helpers == 0 => rx.recv().map_err(|_| TryRecvError::Disconnected),
                    Ok(rx) => rx.try_recv(),
                    Err(_) => Err(TryRecvError::Empty),
                };
                match job {
                    Ok((n, f)) => {
                        waiting.insert(n, work(&f));
                        while let Ok((n, batch)) = done_rx.try_recv() {
                            waiting.insert(n, batch);
                        }
                        continue;
                    }
                    Err(TryRecvError::Disconnected) => searching = false,
                    Err(TryRecvError::Empty) => {}
                }
            }
            if helpers == 0 {
                closed = !searching || stopped;
                continue;
            }
            match done_rx.recv() {
                Ok((n, batch)) => {
                    waiting.insert(n, batch);
                }
                // Every helper is done: so is the search, and every skill it handed over.
                Err(_) => closed = true,
            }
        }
        let (issues, handed) = search.join().expect("the skill search panicked");
        // A worker that panicked stopped the search and is reported when the scope ends; any
        // other gap would lose skills silently.
        assert!(
            window.stopped.load(Ordering::Relaxed) || (next == handed && waiting.is_empty()),
            "skills read out of order"
        );
        issues
    });
    result?;
    Ok(issues.into_iter().map(|i| SourceIssue { source: 0, path: i.path, message: i.message }).collect())
}

/// What the library-level rules keep of the skills already handed over.
#[derive(Default)]
struct InOrder {
    /// Skill folders handed over: a folder reached again is skipped.
    folders: HashSet<PathBuf, foldhash::fast::RandomState>,
    /// Each name's last skill: its file, and whether it has a `name` of its own.
    names: HashMap<String, (PathBuf, bool), foldhash::fast::RandomState>,
    /// The skills listed above the last one handed over (listed path, folder), outermost first.
    outer: Vec<(PathBuf, PathBuf)>,
    /// The source's link installs.
    installs: Installs,
    /// The descriptions handed over, for `competing-descriptions` (SK705), and each one's skill
    /// file and name.
    overlaps: super::overlap::Overlaps,
    described: Vec<(PathBuf, String)>,
    /// Whether the profile asks for that rule ([`super::overlap::enabled`]).
    competing: bool,
}

impl InOrder {
    fn hand<T>(&mut self, mut e: Entry, t: T, each: &mut Each<'_, T>) -> std::io::Result<()> {
        // In path order, the skills listed above this one are the ones before it that it is
        // listed under.
        while self.outer.last().is_some_and(|(listed, _)| !e.listed_as.starts_with(listed) || e.listed_as == *listed) {
            self.outer.pop();
        }
        // A folder linked at the top of the source and also nested in another skill (a symlink
        // install): the installed occurrence, later in path order, is the one kept.
        if self.installs.gives_way(&e.listed_as, &e.skill.dir, !self.outer.is_empty()) {
            return Ok(());
        }
        if !self.folders.insert(e.skill.dir.clone()) {
            return Ok(());
        }
        let named = is_named(&e.skill);
        if let Some((other, other_named)) = self.names.insert(e.key.clone(), (e.skill.path(), named)) {
            if named && other_named {
                add_duplicate(&e.skill, &e.key, &other, true, &mut e.diagnostics);
            }
        }
        if self.competing {
            let found = self.overlaps.add(super::overlap::description(&e.skill));
            let (found, more) = super::overlap::strongest(found, |earlier| self.described[earlier].1 != e.key);
            for (i, (earlier, score, shared)) in found.iter().enumerate() {
                let more = if i + 1 == found.len() { more } else { 0 };
                let other = &self.described[*earlier].0;
                super::overlap::add_competing(&e.skill, other, *score, shared, more, &mut e.diagnostics);
            }
            self.described.push((e.skill.path(), e.key.clone()));
        }
        let outer = self.outer.last().map(|(_, dir)| dir.clone());
        self.outer.push((e.listed_as.clone(), e.skill.dir.clone()));
        each(e, t, outer.as_deref())
    }
}

/// How far the report has come, which bounds how far the search may run ahead of it.
struct Window {
    /// Skills reported, and the count a waiting search waits for.
    reported: Mutex<(usize, Option<usize>)>,
    moved: Condvar,
    /// The report failed, or a thread panicked: hand nothing more over.
    stopped: AtomicBool,
}

impl Window {
    fn new() -> Self {
        Window { reported: Mutex::new((0, None)), moved: Condvar::new(), stopped: AtomicBool::new(false) }
    }

    /// Waits until skill `n` may be handed over; `false` once stopped. A search that has to wait
    /// waits until half the window is free, not for each skill (each wake-up is a context switch).
    fn wait_for(&self, n: usize) -> bool {
        let mut reported = self.reported.lock().unwrap_or_else(|e| e.into_inner());
        if n >= reported.0 + AHEAD {
            reported.1 = Some(n + 1 - AHEAD / 2);
            while reported.0 + AHEAD / 2 <= n && !self.stopped.load(Ordering::Relaxed) {
                reported = self.moved.wait(reported).unwrap_or_else(|e| e.into_inner());
            }
            reported.1 = None;
        }
        !self.stopped.load(Ordering::Relaxed)
    }

    fn reported(&self, n: usize) {
        let mut reported = self.reported.lock().unwrap_or_else(|e| e.into_inner());
        reported.0 = n;
        if reported.1.is_some_and(|wanted| n >= wanted) {
            self.moved.notify_all();
        }
    }

    fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        let _guard = self.reported.lock().unwrap_or_else(|e| e.into_inner());
        self.moved.notify_all();
    }
}

/// Stops the window when its thread panics, so that no other thread waits for it forever.
struct StopOnPanic<'a>(&'a Window);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}
