//! What every use case file of `studio/` uses: the state, the error, the views (`views.rs`), serde and
//! the engine's library (nothing from `studio/` itself, so that no file uses one that uses it).

pub(crate) use crate::error::{AppError, ErrorCode};
pub(crate) use crate::resolve::agent;
pub(crate) use crate::state::Studio;
pub(crate) use crate::views::*;
pub(crate) use serde::{Deserialize, Serialize};
pub(crate) use skillkit::library::Library;
pub(crate) use skillkit::read::is_skill_file;
pub(crate) use std::path::{Path, PathBuf};
