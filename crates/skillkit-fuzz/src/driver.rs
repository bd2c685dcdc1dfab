//! The stable-Rust fuzzing loop shared by the brief test and the long-run command: run a target on
//! its seeds, then on mutations of its corpus; catch panics (`catch_unwind`, with the panic's
//! message and place captured instead of printed); time each input against
//! [`crate::time_budget`]; keep an input that shows a feature not seen before, so the corpus grows;
//! record findings (the smallest input per kind of panic, the worst slow input per size class),
//! optionally as files in an artifacts folder.

use crate::mutate::mutate;
use crate::rng::Rng;
use crate::{time_budget, Fuzzer, Target};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;
use std::time::{Duration, Instant};

/// When to stop mutating.
#[derive(Clone, Copy, Debug)]
pub enum Stop {
    /// After this many mutated inputs (deterministic: the brief test).
    Inputs(u64),
    /// After this much time.
    Time(Duration),
}

/// How a run goes.
#[derive(Clone, Debug)]
pub struct Config {
    pub seed: u64,
    pub stop: Stop,
    /// Mutations are cut to this many bytes.
    pub max_len: usize,
    /// The time budget is multiplied by this (10 for debug builds: the budget is for release).
    pub time_factor: f64,
    /// Where findings are written (`<dir>/<target>/...`); `None` keeps them in memory only.
    pub artifacts: Option<PathBuf>,
    /// Where the corpus grows (`<dir>/<target>/<hash>`), read back at the start; `None` for none.
    pub corpus: Option<PathBuf>,
    /// Print progress to stderr every this often.
    pub progress: Option<Duration>,
    /// Each input is written here before it runs, so that an input that kills the process (a
    /// stack overflow, an abort) or hangs it is on disk.
    pub in_flight: Option<PathBuf>,
}

/// What was found.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A panic: the engine's own, or a broken invariant.
    Panic { message: String, place: String },
    /// Over the time budget, twice in a row.
    Slow { time: Duration, budget: Duration },
}

#[derive(Clone, Debug)]
pub struct Finding {
    pub target: Target,
    pub kind: Kind,
    pub input: Vec<u8>,
    /// Findings of the same signature seen in this run.
    pub hits: u64,
    /// The file the input was written to, when there is an artifacts folder.
    pub artifact: Option<PathBuf>,
}

impl Finding {
    /// What groups findings: the invariant's class (or the panic's first line, numbers
    /// removed) and place; for slow inputs, the power of two of the size.
    pub fn signature(&self) -> String {
        match &self.kind {
            Kind::Panic { message, place } => {
                let head = message.split(": ").next().unwrap_or("").lines().next().unwrap_or("");
                let head: String = head.chars().take(120).map(|c| if c.is_ascii_digit() { '#' } else { c }).collect();
                format!("panic {head} at {place}")
            }
            Kind::Slow { .. } => format!("slow {} bytes", size_class(self.input.len())),
        }
    }

    /// One line for a report.
    pub fn summary(&self) -> String {
        let file = self.artifact.as_ref().map(|p| format!(" -> {}", p.display())).unwrap_or_default();
        match &self.kind {
            Kind::Panic { message, place } => {
                let first: String = message.lines().next().unwrap_or("").chars().take(300).collect();
                format!(
                    "[{}] PANIC at {place} ({} hits, smallest input {} bytes): {first}{file}",
                    self.target.name(),
                    self.hits,
                    self.input.len()
                )
            }
            Kind::Slow { time, budget } => format!(
                "[{}] SLOW {} bytes took {:.1} ms, budget {:.1} ms ({} slow inputs in this size class){file}",
                self.target.name(),
                self.input.len(),
                time.as_secs_f64() * 1e3,
                budget.as_secs_f64() * 1e3,
                self.hits
            ),
        }
    }
}

/// `"8 KiB-16 KiB"` style size classes.
fn size_class(len: usize) -> String {
    let low = if len == 0 { 0 } else { 1usize << (usize::BITS - 1 - len.leading_zeros()) };
    let show = |n: usize| if n >= 1024 { format!("{} KiB", n / 1024) } else { format!("{n} B") };
    format!("{}-{}", show(low), show(low.max(1) * 2))
}

/// What a run of one target did.
#[derive(Clone, Debug)]
pub struct Report {
    pub target: Target,
    pub seeds: usize,
    pub execs: u64,
    pub corpus: usize,
    pub elapsed: Duration,
    pub findings: Vec<Finding>,
    /// The input with the highest time/budget ratio: (size, engine time).
    pub slowest: Option<(usize, Duration)>,
    pub largest: usize,
}

impl Report {
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{}: {} execs in {:.1} s ({:.0}/s), {} seeds, corpus {}, largest input {} bytes",
            self.target.name(),
            self.execs,
            self.elapsed.as_secs_f64(),
            self.execs as f64 / self.elapsed.as_secs_f64().max(1e-9),
            self.seeds,
            self.corpus,
            self.largest
        );
        if let Some((len, t)) = self.slowest {
            s.push_str(&format!(
                ", slowest vs budget: {len} bytes in {:.1} ms (budget {:.0} ms)",
                t.as_secs_f64() * 1e3,
                time_budget(len).as_secs_f64() * 1e3
            ));
        }
        s.push_str(&format!(", {} findings", self.findings.len()));
        s
    }
}

thread_local! {
    /// Set while a target runs on this thread: its panics are captured, not printed.
    static CAPTURING: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
    static ACTIVE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Installs (once) a panic hook that captures the message and place of panics inside
/// [`exec`] and leaves every other panic to the hook that was there before.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if ACTIVE.with(|a| a.get()) {
                let message = if let Some(s) = info.payload().downcast_ref::<&str>() {
                    s.to_string()
                } else if let Some(s) = info.payload().downcast_ref::<String>() {
                    s.clone()
                } else {
                    "(a panic without a message)".to_string()
                };
                let place = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
                CAPTURING.with(|c| *c.borrow_mut() = Some((message, place)));
            } else {
                previous(info);
            }
        }));
    });
}

/// Milliseconds since [`exec_started`]'s epoch at which the current input started (0 when none
/// is running): the long-run command's watchdog reads it to catch inputs that hang.
pub static EXEC_STARTED_MS: AtomicU64 = AtomicU64::new(0);

/// The epoch of [`EXEC_STARTED_MS`].
pub fn epoch() -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// Runs `target` on `data`: its outcome, or the panic's message and place.
pub fn exec(fuzzer: &Fuzzer, target: Target, data: &[u8]) -> Result<crate::Outcome, (String, String)> {
    install_hook();
    EXEC_STARTED_MS.store(epoch().elapsed().as_millis() as u64 + 1, Ordering::Relaxed);
    ACTIVE.with(|a| a.set(true));
    let result = catch_unwind(AssertUnwindSafe(|| fuzzer.run(target, data)));
    ACTIVE.with(|a| a.set(false));
    EXEC_STARTED_MS.store(0, Ordering::Relaxed);
    result.map_err(|_| CAPTURING.with(|c| c.borrow_mut().take()).unwrap_or_default())
}

fn hash(data: &[u8]) -> String {
    let mut h = std::hash::DefaultHasher::new();
    data.hash(&mut h);
    format!("{:016x}", h.finish())
}

/// Collects findings: one per signature, the smallest input for a panic, the worst ratio for a
/// slow input; written to the artifacts folder as `panic-<hash>` / `slow-<hash>` with a `.txt`.
struct Findings {
    by_signature: HashMap<String, Finding>,
    order: Vec<String>,
    dir: Option<PathBuf>,
}

impl Findings {
    fn add(&mut self, mut f: Finding) {
        let sig = f.signature();
        let better = match self.by_signature.get(&sig) {
            None => true,
            Some(old) => match (&old.kind, &f.kind) {
                (Kind::Slow { time: a, budget: ab }, Kind::Slow { time: b, budget: bb }) => {
                    b.as_secs_f64() / bb.as_secs_f64() > a.as_secs_f64() / ab.as_secs_f64()
                }
                _ => f.input.len() < old.input.len(),
            },
        };
        let hits = self.by_signature.get(&sig).map_or(0, |o| o.hits) + 1;
        if !better {
            self.by_signature.get_mut(&sig).expect("present").hits = hits;
            return;
        }
        f.hits = hits;
        if let Some(dir) = &self.dir {
            if let Some(old) = self.by_signature.get(&sig).and_then(|o| o.artifact.clone()) {
                let _ = std::fs::remove_file(&old);
                let _ = std::fs::remove_file(old.with_extension("txt"));
            }
            f.artifact = write_artifact(dir, &f).ok();
        }
        if !self.by_signature.contains_key(&sig) {
            self.order.push(sig.clone());
        }
        self.by_signature.insert(sig, f);
    }
}

fn write_artifact(dir: &Path, f: &Finding) -> std::io::Result<PathBuf> {
    let dir = dir.join(f.target.name());
    std::fs::create_dir_all(&dir)?;
    let kind = match f.kind {
        Kind::Panic { .. } => "panic",
        Kind::Slow { .. } => "slow",
    };
    let path = dir.join(format!("{kind}-{}.bin", hash(&f.input)));
    std::fs::write(&path, &f.input)?;
    let details = match &f.kind {
        Kind::Panic { message, place } => format!("panic at {place}\n\n{message}\n"),
        Kind::Slow { time, budget } => format!(
            "slow: {} bytes took {:.1} ms (budget {:.1} ms, release build)\n",
            f.input.len(),
            time.as_secs_f64() * 1e3,
            budget.as_secs_f64() * 1e3
        ),
    };
    std::fs::write(
        path.with_extension("txt"),
        format!(
            "target: {}\nsignature: {}\nreplay: cargo run --release -p skillkit-fuzz --bin fuzz -- --target {} --replay {}\n{details}",
            f.target.name(),
            f.signature(),
            f.target.name(),
            path.display()
        ),
    )?;
    Ok(path)
}

/// One target's fuzzing: its corpus, the features seen, its findings. [`Campaign::run`] can be
/// called again to go on where it stopped (the long-run command takes turns between targets).
pub struct Campaign {
    target: Target,
    config: Config,
    rng: Rng,
    pending: std::vec::IntoIter<Vec<u8>>,
    corpus: Vec<Vec<u8>>,
    seen: HashSet<u64>,
    findings: Findings,
    report: Report,
    worst_ratio: f64,
    mutated: u64,
    corpus_dir: Option<PathBuf>,
}

impl Campaign {
    /// A campaign that starts with `seeds` and the inputs saved in the corpus folder.
    pub fn new(target: Target, seeds: Vec<Vec<u8>>, config: &Config) -> Campaign {
        let corpus_dir = config.corpus.as_ref().map(|d| d.join(target.name()));
        let report = Report {
            target,
            seeds: seeds.len(),
            execs: 0,
            corpus: 0,
            elapsed: Duration::ZERO,
            findings: vec![],
            slowest: None,
            largest: 0,
        };
        let mut inputs = seeds;
        if let Some(dir) = &corpus_dir {
            let mut grown: Vec<PathBuf> =
                std::fs::read_dir(dir).into_iter().flatten().filter_map(|e| e.ok().map(|e| e.path())).collect();
            grown.sort();
            inputs.extend(grown.iter().filter_map(|p| std::fs::read(p).ok()));
        }
        Campaign {
            target,
            config: config.clone(),
            rng: Rng::new(config.seed ^ (target as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            pending: inputs.into_iter(),
            corpus: vec![],
            seen: HashSet::new(),
            findings: Findings { by_signature: HashMap::new(), order: vec![], dir: config.artifacts.clone() },
            report,
            worst_ratio: 0.0,
            mutated: 0,
            corpus_dir,
        }
    }

    /// Runs the pending seeds, then mutations until `stop` (counted from this call).
    pub fn run(&mut self, fuzzer: &Fuzzer, stop: Stop) {
        let start = Instant::now();
        let mut last_progress = Instant::now();
        let mutated_before = self.mutated;
        loop {
            let (data, is_seed) = match self.pending.next() {
                Some(d) => (d, true),
                None => {
                    let done = match stop {
                        Stop::Inputs(n) => self.mutated - mutated_before >= n,
                        Stop::Time(t) => start.elapsed() >= t,
                    };
                    if done || self.corpus.is_empty() {
                        break;
                    }
                    self.mutated += 1;
                    let parent = &self.corpus[self.rng.below(self.corpus.len())];
                    (mutate(&mut self.rng, parent, &self.corpus, self.config.max_len), false)
                }
            };
            self.one(fuzzer, data, is_seed);
            if let Some(every) = self.config.progress {
                if last_progress.elapsed() >= every {
                    last_progress = Instant::now();
                    eprintln!(
                        "  {}: {} execs, {:.0} s, corpus {}, features {}, findings {}",
                        self.target.name(),
                        self.report.execs,
                        (self.report.elapsed + start.elapsed()).as_secs_f64(),
                        self.corpus.len(),
                        self.seen.len(),
                        self.findings.order.len()
                    );
                }
            }
        }
        self.report.elapsed += start.elapsed();
    }

    fn one(&mut self, fuzzer: &Fuzzer, data: Vec<u8>, is_seed: bool) {
        let target = self.target;
        self.report.execs += 1;
        self.report.largest = self.report.largest.max(data.len());
        if let Some(path) = &self.config.in_flight {
            let _ = std::fs::write(path, &data);
        }
        match exec(fuzzer, target, &data) {
            Err((message, place)) => {
                let kind = Kind::Panic { message, place };
                self.findings.add(Finding { target, kind, input: data, hits: 0, artifact: None });
            }
            Ok(outcome) => {
                let budget = time_budget(data.len()).mul_f64(self.config.time_factor);
                let mut time = outcome.engine_time;
                if time > budget && time < budget * 4 {
                    // Once more, so that a moment of load on the machine is not a finding (an
                    // input far over its budget is not worth the second wait).
                    if let Ok(again) = exec(fuzzer, target, &data) {
                        time = time.min(again.engine_time);
                    }
                }
                let ratio = time.as_secs_f64() / time_budget(data.len()).as_secs_f64();
                if ratio > self.worst_ratio {
                    self.worst_ratio = ratio;
                    self.report.slowest = Some((data.len(), time));
                }
                let new = outcome.features.iter().fold(false, |new, f| self.seen.insert(*f) | new);
                if time > budget {
                    let kind = Kind::Slow { time, budget };
                    self.findings.add(Finding { target, kind, input: data.clone(), hits: 0, artifact: None });
                }
                // A slow input is a finding, not a parent: its mutations would be slow too and
                // take the run's time.
                if (new && time <= budget) || is_seed {
                    if let (true, Some(dir)) = (new && !is_seed, &self.corpus_dir) {
                        let _ = std::fs::create_dir_all(dir);
                        let _ = std::fs::write(dir.join(hash(&data)), &data);
                    }
                    self.corpus.push(data);
                }
            }
        }
    }

    /// What the campaign did so far.
    pub fn report(&self) -> Report {
        let mut r = self.report.clone();
        r.corpus = self.corpus.len();
        r.findings = self.findings.order.iter().filter_map(|s| self.findings.by_signature.get(s).cloned()).collect();
        r
    }
}

/// Runs `target` on `seeds`, then on mutations until `config.stop`.
pub fn run(fuzzer: &Fuzzer, target: Target, seeds: Vec<Vec<u8>>, config: &Config) -> Report {
    let mut c = Campaign::new(target, seeds, config);
    c.run(fuzzer, config.stop);
    c.report()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_classes_are_powers_of_two() {
        assert_eq!(size_class(0), "0 B-2 B");
        assert_eq!(size_class(1500), "1 KiB-2 KiB");
        assert_eq!(size_class(20_000), "16 KiB-32 KiB");
    }

    #[test]
    fn panic_signatures_ignore_numbers_and_details() {
        let f = |m: &str| Finding {
            target: Target::Lint,
            kind: Kind::Panic { message: m.into(), place: "a.rs:1".into() },
            input: vec![],
            hits: 0,
            artifact: None,
        };
        assert_eq!(f("invariant x: 12 bytes").signature(), f("invariant x: 99 other").signature());
        assert_ne!(f("invariant x: 1").signature(), f("invariant y: 1").signature());
    }
}
