//! The use cases, as methods of [`Studio`](crate::Studio), one file per feature with its request
//! and reply types: each checks its input, calls the engine and converts the result.

pub mod assist;
pub mod editor;
pub mod eval;
pub mod library;
pub mod matrix;
pub mod new_skill;
pub mod optimize;
pub mod package;
pub mod prompt;
pub mod provider;
pub mod session;
pub mod session_script;
pub mod source_files;
pub mod ui_state;

pub use assist::*;
pub use editor::*;
pub use eval::*;
pub use library::*;
pub use matrix::*;
pub use new_skill::*;
pub use optimize::*;
pub use package::*;
pub use prompt::*;
pub use provider::*;
pub use session::*;
pub use session_script::*;
pub use source_files::*;
pub use ui_state::*;

#[cfg(test)]
mod tests;
