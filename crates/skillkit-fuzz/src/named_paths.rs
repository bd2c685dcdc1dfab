//! The named-paths target: the paths a library's own files name (issue #33). The input is read
//! three ways — as a session script, as an eval suite (their `sources`) and as a `skillkit.toml`
//! (its `sources` and `baseline`) — placed in a fresh project (a repository: it has `.git`) that
//! holds, besides the file's folder, symlinks that lead out of it (`out -> ../outside`), around in
//! a loop (`loop -> loop`), to the root (`root -> /`) and back in (`in -> sub`), with a folder
//! outside the project beside it.
//!
//! Invariants: no panic; every source and baseline the engine accepts lies, once every symlink on
//! it is resolved, inside the project (the configuration's folder for `skillkit.toml`); every
//! refusal of a script's or a suite's source is located inside the text and names `sources`.

use crate::{violation, Outcome};
use skillkit::scope::resolve_lenient;
use std::path::Path;

/// Runs the target on `data`, with `dir` (which must not exist yet) as the scratch folder; the
/// folder is removed afterwards.
pub fn run(data: &[u8], dir: &Path) -> Outcome {
    let text = String::from_utf8_lossy(data);
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let Some(project) = lay_out(dir) else { return Outcome::default() };
        check(&text, &project)
    }));
    let _ = std::fs::remove_dir_all(dir);
    match outcome {
        Ok(o) => o,
        Err(e) => std::panic::resume_unwind(e),
    }
}

/// The project under `dir`, with its links; `None` when the scratch folder cannot be made.
fn lay_out(dir: &Path) -> Option<std::path::PathBuf> {
    let project = dir.join("project");
    for d in [".git", "sub", "conf"] {
        std::fs::create_dir_all(project.join(d)).ok()?;
    }
    std::fs::create_dir_all(dir.join("outside")).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink("../outside", project.join("out")).ok()?;
        symlink("loop", project.join("loop")).ok()?;
        symlink("/", project.join("root")).ok()?;
        symlink("sub", project.join("in")).ok()?;
        symlink("../../outside", project.join("sub/up")).ok()?;
    }
    std::fs::canonicalize(project).ok()
}

fn check(text: &str, project: &Path) -> Outcome {
    let mut outcome = Outcome::default();
    let file = project.join("sub/file.yaml");
    let last_line = text.split('\n').count();
    let judge = |outcome: &mut Outcome, what: &str, sources: &[String]| match outcome
        .timed(|| skillkit::session::script::confine_sources(text, &file, sources))
    {
        Ok(paths) => {
            for p in paths {
                inside(project, &p, what);
            }
            outcome.feature((what, "accepted", sources.len().min(4)));
        }
        Err(errors) => {
            for e in &errors {
                if e.line == 0 || e.column == 0 || e.line > last_line || !e.message.contains("`sources`") {
                    violation("refusal-not-located", format!("{what}: {e:?} in a text of {last_line} lines"));
                }
            }
            outcome.feature((what, "refused", errors.len().min(4)));
        }
    };
    if let Ok(script) = outcome.timed(|| skillkit::simulate::parse_script(text)) {
        judge(&mut outcome, "script", &script.sources);
    }
    if let Ok(suite) = outcome.timed(|| skillkit::eval::suite::parse_yaml(text)) {
        judge(&mut outcome, "suite", &suite.sources);
    }
    let config = project.join("conf/skillkit.toml");
    if std::fs::write(&config, text).is_ok() {
        match outcome.timed(|| skillkit::config::load(&config)) {
            Ok(p) => {
                let dir = project.join("conf");
                for s in p.sources() {
                    inside(&dir, &s, "config sources");
                }
                if let Some(b) = p.baseline() {
                    inside(&dir, &b, "config baseline");
                }
                outcome.feature(("config", "accepted", p.config.sources.len().min(4)));
            }
            Err(e) => outcome.feature(("config", "refused", e.message.split(' ').take(2).collect::<Vec<_>>())),
        }
    }
    outcome
}

/// Panics unless `path`, resolved through every symlink on it that exists, lies inside `root`.
fn inside(root: &Path, path: &Path, what: &str) {
    let real = resolve_lenient(path);
    if !real.starts_with(root) {
        violation("named-path-outside", format!("{what}: {} resolves to {}", path.display(), real.display()));
    }
}

/// Inputs written for this target: scripts, suites and configurations naming every way out.
pub const SEEDS: [&str; 8] = [
    "agent: claude-code\nsources: [../out, /etc, ../../outside, ../in, ../loop, ../root/etc]\nsteps: []\n",
    "agent: deepagents\nsources: [up, up/x, ./../sub/../../outside, ../in/../../..]\nsteps:\n  - user: hi\n",
    "sources: [\"..\", \"/\", \"../../outside\"]\ncases:\n  - query: q\n    expect: none\n",
    "agent: codex\nsources: ../out\nsteps: []\n",
    "sources = [\"../out\", \"/proc/self\"]\nbaseline = \"../../outside/b.json\"\n",
    "sources = [\"../sub\", \"../in\"]\nbaseline = \"../root/tmp/x.json\"\n",
    "sources = [\".\", \"skills\"]\nbaseline = \"accepted.json\"\n",
    "agent: claude-code\nsources: [., ../sub, new/../../in]\nsteps: []\n",
];
