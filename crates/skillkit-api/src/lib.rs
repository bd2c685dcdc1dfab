//! The use cases Skill Studio's front ends share, over the skillkit engine: what the desktop app's
//! commands, `skillkit`'s commands and its language server would otherwise each write for
//! themselves. A front end translates its input into a request, calls one function or one method
//! of [`Studio`], and renders the reply or the [`AppError`] (a stable [`ErrorCode`] and a
//! sentence). The logic stays in the engine; this crate resolves, checks and keeps state.
//!
//! - [`resolve`]: an agent by its id, a project's configuration and the agent it names.
//! - [`settings`]: a model provider's settings, their ranges and defaults.
//! - [`Studio`] (`state.rs`, the use cases in `studio/`): the current library, kept and watched
//!   (`watching.rs`); the editor's calls; prompts, the matrix, sessions, suites and eval runs,
//!   keys, drafts.
//! - [`host::Host`]: what the use cases need from the outside (keys, folders, sinks).
//! - [`views`], [`events`]: the plain values that cross to a UI (TypeScript under the `ts`
//!   feature).
//!
//! No Tauri, no clap, no terminal: `tests/tests/layers.rs` holds it.

pub mod drafts;
pub mod error;
pub mod events;
pub mod file_access;
pub mod host;
pub mod last_library;
mod lock;
mod prelude;
pub mod resolve;
pub mod settings;
pub mod state;
pub mod studio;
pub mod views;
pub mod watching;

pub use error::{AppError, ErrorCode, ErrorDetail};
pub use host::{Host, MemoryHost};
pub use state::{Startup, Studio};
