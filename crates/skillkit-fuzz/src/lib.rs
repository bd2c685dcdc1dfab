//! skillkit-fuzz: fuzz targets for the skillkit engine, one per surface that opens untrusted text
//! (issue #19, "Safe to open any library"), each taking arbitrary bytes and checking the engine's
//! invariants by panicking with a clear message when one is broken:
//!
//! - [`Target::Lint`] ([`lint`]): parse and lint under every agent profile; spans on character
//!   boundaries, line/column (characters and UTF-16) as computed independently from the text,
//!   fixes well formed, and the text after the safe fixes lints again.
//! - [`Target::Preview`] ([`preview`]): the sanitized HTML, parsed with a real HTML parser, has no
//!   active content and loads nothing from outside the skill folder.
//! - [`Target::FormEdit`] ([`form_edit`]): setting a frontmatter field reads back as the value and
//!   leaves the other fields alone.
//! - [`Target::SessionScript`] ([`session_script`]): a session script parses (with located errors)
//!   or runs in a temporary library built from the input, and writes back to the same script.
//! - [`Target::NamedPaths`] ([`named_paths`]): the sources and baselines a script, a suite or a
//!   `skillkit.toml` names stay inside their project, whatever symlinks lie on the way.
//!
//! Every target also reports how long the engine's own work took ([`Outcome::engine_time`]), which
//! the driver ([`driver`]) holds to [`time_budget`]. The seed corpus comes from the repository's
//! fixtures ([`corpus`]); [`mutate`] makes new inputs from it; `src/bin/fuzz.rs` is the long-run
//! command and `fuzz/` the cargo-fuzz (libFuzzer) equivalent.

pub mod corpus;
pub mod driver;
pub mod form_edit;
pub mod html_check;
pub mod lint;
pub mod mutate;
pub mod named_paths;
pub mod preview;
pub mod rng;
pub mod session_script;

use std::cell::Cell;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A surface of the engine under fuzzing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    Lint,
    Preview,
    FormEdit,
    SessionScript,
    NamedPaths,
}

impl Target {
    pub const ALL: [Target; 5] =
        [Target::Lint, Target::Preview, Target::FormEdit, Target::SessionScript, Target::NamedPaths];

    pub fn name(self) -> &'static str {
        match self {
            Target::Lint => "lint",
            Target::Preview => "preview",
            Target::FormEdit => "form_edit",
            Target::SessionScript => "session_script",
            Target::NamedPaths => "named_paths",
        }
    }

    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name || t.name().replace('_', "-") == name)
    }
}

/// What one run of a target observed.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Hashes of what the input made the engine do (rule codes, HTML tags, outcomes...). The
    /// stable driver keeps an input in its corpus when it shows a feature not seen before: a
    /// coarse stand-in for code coverage.
    pub features: Vec<u64>,
    /// The longest single engine operation of the run (parse and lint under one profile, one
    /// render, one field edit, one session): what a person waits for, and what [`time_budget`]
    /// bounds. The checks' own work is not counted.
    pub engine_time: Duration,
}

impl Outcome {
    fn feature(&mut self, parts: impl Hash) {
        let mut h = std::hash::DefaultHasher::new();
        parts.hash(&mut h);
        self.features.push(h.finish());
    }

    fn time(&mut self, t: Duration) {
        self.engine_time = self.engine_time.max(t);
    }

    /// Runs `f`, counting its time as one engine operation.
    fn timed<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let start = std::time::Instant::now();
        let out = f();
        self.time(start.elapsed());
        out
    }
}

/// The most an input of `len` bytes may take: 100 ms per 10 KB, and at least 100 ms (issue #19).
pub fn time_budget(len: usize) -> Duration {
    Duration::from_millis(100).max(Duration::from_micros((len as u64) * 100_000 / 10_240))
}

/// Switches for the checks.
#[derive(Clone, Debug)]
pub struct Options {
    /// The agent profiles the lint target lints under.
    pub agents: Vec<&'static skillkit::Agent>,
}

impl Default for Options {
    fn default() -> Options {
        Options { agents: skillkit::AGENTS.to_vec() }
    }
}

/// The targets with what they need on disk: a scratch folder holding the preview's skill folder
/// (with an image inside, and a secret image outside reached through a symlink) and the session
/// libraries built from inputs. The folder is removed when the fuzzer is dropped.
pub struct Fuzzer {
    pub options: Options,
    scratch: tempfile::TempDir,
    preview: preview::Folder,
    sessions: Cell<u64>,
}

impl Fuzzer {
    pub fn new(options: Options) -> std::io::Result<Fuzzer> {
        let scratch = tempfile::Builder::new().prefix("skillkit-fuzz-").tempdir()?;
        let preview = preview::Folder::create(scratch.path())?;
        Ok(Fuzzer { options, scratch, preview, sessions: Cell::new(0) })
    }

    /// Runs `target` on `data`; panics when an invariant is broken (or the engine panics).
    pub fn run(&self, target: Target, data: &[u8]) -> Outcome {
        match target {
            Target::Lint => lint::run(data, &self.options),
            Target::Preview => preview::run(data, &self.preview),
            Target::FormEdit => form_edit::run(data),
            Target::SessionScript => {
                let n = self.sessions.get();
                self.sessions.set(n + 1);
                session_script::run(data, &self.scratch.path().join(format!("session-{n}")))
            }
            Target::NamedPaths => {
                let n = self.sessions.get();
                self.sessions.set(n + 1);
                named_paths::run(data, &self.scratch.path().join(format!("paths-{n}")))
            }
        }
    }

    pub fn scratch(&self) -> &Path {
        self.scratch.path()
    }
}

/// One input at a time, for fuzzers that call a function per input (cargo fuzz / libFuzzer in
/// `fuzz/`): runs `target` on `data` with a per-thread [`Fuzzer`] and panics on a broken invariant,
/// or when the engine took longer than [`time_budget`] twice in a row, so that the fuzzer saves the
/// input as a crash. `SKILLKIT_FUZZ_TIME_FACTOR` scales the budget (`0` turns the time check off).
pub fn check_one(target: Target, data: &[u8]) {
    thread_local! {
        static FUZZER: (Fuzzer, f64) = {
            let factor = std::env::var("SKILLKIT_FUZZ_TIME_FACTOR").ok().and_then(|v| v.parse().ok()).unwrap_or(1.0);
            let fuzzer = Fuzzer::new(Options::default())
                .expect("a scratch folder for the fuzzer");
            // One-time set-up (token tables, the preview folder) is paid here, not by an input.
            for t in Target::ALL {
                fuzzer.run(t, WARM_UP.as_bytes());
            }
            (fuzzer, factor)
        };
    }
    FUZZER.with(|(fuzzer, factor)| {
        let outcome = fuzzer.run(target, data);
        let budget = time_budget(data.len()).mul_f64(*factor);
        if *factor > 0.0 && outcome.engine_time > budget {
            let again = fuzzer.run(target, data).engine_time.min(outcome.engine_time);
            if again > budget {
                panic!(
                    "slow input: {} bytes took {:.1} ms, over the budget of {:.1} ms",
                    data.len(),
                    again.as_secs_f64() * 1e3,
                    budget.as_secs_f64() * 1e3
                );
            }
        }
    });
}

/// A small input every target accepts: a session script over a one-skill library.
const WARM_UP: &str = "agent: claude-code\nsources: [lib]\nsteps:\n  - invoke: a\n#== lib/a/SKILL.md\n---\nname: a\ndescription: d\n---\nBody\n";

/// The repository this crate sits in (two folders up), where the seed corpus is read from.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Panics with a message naming the broken invariant; the driver groups findings by the text
/// before the first `": "`, so `class` should not hold numbers or input text.
#[track_caller]
fn violation(class: &str, details: impl std::fmt::Display) -> ! {
    panic!("invariant {class}: {details}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_100_ms_per_10_kb_and_at_least_100_ms() {
        assert_eq!(time_budget(0), Duration::from_millis(100));
        assert_eq!(time_budget(10_240), Duration::from_millis(100));
        assert_eq!(time_budget(102_400), Duration::from_millis(1000));
    }

    #[test]
    fn one_input_at_a_time_runs_every_target() {
        for t in Target::ALL {
            check_one(t, WARM_UP.as_bytes());
        }
    }

    #[test]
    fn target_names_read_back() {
        for t in Target::ALL {
            assert_eq!(Target::from_name(t.name()), Some(t));
        }
        assert_eq!(Target::from_name("form-edit"), Some(Target::FormEdit));
        assert_eq!(Target::from_name("nope"), None);
    }
}
