//! The events the host emits to the UI (the app's window events), declared once: each event's
//! name and payload type. The TypeScript `Events` map in `ui/src/lib/bindings.ts` is generated
//! from `event_types` (under the `ts` feature).

use crate::views::{path_string, LibraryView};
use serde::Serialize;

/// Emitted after the watcher saw changes in the opened library's sources.
pub const LIBRARY_CHANGED: &str = "library-changed";

/// Emitted after each completed request of the eval in flight (`run_eval`).
pub const EVAL_PROGRESS: &str = "eval-progress";

/// Emitted after each package written by `build_packages`.
pub const PACKAGE_PROGRESS: &str = "package-progress";

/// The payload of [`PACKAGE_PROGRESS`]: packages written of the total, and the last one's path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PackageProgress {
    pub done: u32,
    pub total: u32,
    pub path: String,
}

/// The payload of [`EVAL_PROGRESS`]: requests done of the total, on which side of an A/B run
/// (`saved` when there is no comparison).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EvalProgress {
    pub done: u32,
    pub total: u32,
    pub variant: skillkit::eval::Variant,
}

/// What a batch of file changes did to the library (the engine's `LibraryEvent`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum LibraryEvent {
    SkillAdded {
        dir: String,
        name: String,
    },
    /// The skill file changed on disk.
    SkillChanged {
        dir: String,
        name: String,
    },
    SkillRemoved {
        dir: String,
        name: String,
    },
    /// The skill's folder was renamed or moved inside the library.
    SkillRenamed {
        from: String,
        to: String,
        name: String,
    },
    /// A file inside the skill's folder changed; `path` is relative to the folder.
    ResourceChanged {
        dir: String,
        name: String,
        path: String,
    },
}

impl From<&skillkit::library::LibraryEvent> for LibraryEvent {
    fn from(e: &skillkit::library::LibraryEvent) -> LibraryEvent {
        use skillkit::library::LibraryEvent as E;
        match e {
            E::SkillAdded { dir, name } => LibraryEvent::SkillAdded { dir: path_string(dir), name: name.clone() },
            E::SkillChanged { dir, name } => LibraryEvent::SkillChanged { dir: path_string(dir), name: name.clone() },
            E::SkillRemoved { dir, name } => LibraryEvent::SkillRemoved { dir: path_string(dir), name: name.clone() },
            E::SkillRenamed { from, to, name } => {
                LibraryEvent::SkillRenamed { from: path_string(from), to: path_string(to), name: name.clone() }
            }
            E::ResourceChanged { dir, name, path } => {
                LibraryEvent::ResourceChanged { dir: path_string(dir), name: name.clone(), path: path.clone() }
            }
        }
    }
}

/// The payload of [`LIBRARY_CHANGED`]: what happened, and the library as it is now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LibraryChanged {
    pub events: Vec<LibraryEvent>,
    pub library: LibraryView,
    /// The watcher's own troubles since the last batch (an overflowed queue, a source deleted).
    pub errors: Vec<String>,
}

/// Each event's name with the TypeScript name of its payload type.
#[cfg(feature = "ts")]
pub fn event_types(cfg: &ts_rs::Config) -> Vec<(&'static str, String)> {
    vec![
        (LIBRARY_CHANGED, <LibraryChanged as ts_rs::TS>::name(cfg)),
        (EVAL_PROGRESS, <EvalProgress as ts_rs::TS>::name(cfg)),
        (PACKAGE_PROGRESS, <PackageProgress as ts_rs::TS>::name(cfg)),
    ]
}
