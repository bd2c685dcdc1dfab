//! `check --watch`: check, then keep the library current ([`WatchedLibrary`]) and check again
//! after every change.

use super::context::Checking;
use skillkit::check::CheckRun;
use skillkit::library::watch::WatchConfig;
use skillkit::library::watched::WatchedLibrary;
use skillkit::library::{Library, LoadOptions};
use std::io::Write;

pub(crate) fn watch(c: &Checking<'_>, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<i32> {
    let (agent, sources) = (c.agent, &c.sources);
    let mut lib = Library::load(sources, LoadOptions::CHECK, agent);
    lib.competing = c.competing();
    let mut run = CheckRun::from_library(&lib, agent);
    c.adjust(&mut run, err)?;
    let mut code = c.print(&run, out, err)?;
    // The project is applied to the library as it is kept; each run adjusts it again, with the
    // baseline (the same either way: adjusting twice changes nothing).
    let project = c.setup.project.clone().map(std::sync::Arc::new);
    let mut watched = WatchedLibrary::new(sources.clone(), lib, agent, project);
    if let Err(e) = watched.watch(WatchConfig::default()) {
        writeln!(err, "error: cannot watch: {e}")?;
        return Ok(2);
    }
    writeln!(
        err,
        "watching {} for changes (Ctrl-C to stop)",
        sources.iter().map(|p| c.display(p)).collect::<Vec<_>>().join(", ")
    )?;
    let mut changes = 0;
    while let Some(changed) = watched.next_change() {
        let events = changed.events;
        for e in changed.errors {
            writeln!(err, "warning: watcher: {e}")?;
        }
        if events.is_empty() {
            continue;
        }
        writeln!(err, "\n{} change{}: re-checked", events.len(), if events.len() == 1 { "" } else { "s" })?;
        let mut run = CheckRun::from_library(watched.library(), agent);
        c.adjust(&mut run, err)?;
        code = c.print(&run, out, err)?;
        changes += 1;
        if c.opts.watch_changes.is_some_and(|n| changes >= n) {
            break;
        }
    }
    Ok(code)
}
