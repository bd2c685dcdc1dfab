//! The window's remembered layout, theme and open file (`ui-state.json` in the config folder,
//! beside the remembered library). A missing or broken file reads as the defaults.

use crate::error::{AppError, ErrorCode};
use crate::state::Studio;
use crate::views::UiState;
use std::path::PathBuf;

/// The file's name in the config folder.
pub const UI_STATE_FILE: &str = "ui-state.json";

/// At most this much is kept: the state is a few hundred bytes; anything larger is not ours.
const MAX_BYTES: usize = 64 * 1024;

impl Studio {
    fn ui_state_file(&self) -> Option<PathBuf> {
        self.config_file(UI_STATE_FILE)
    }

    /// The remembered state, or the defaults.
    pub fn ui_state(&self) -> Result<UiState, AppError> {
        let Some(file) = self.ui_state_file() else { return Ok(UiState::default()) };
        let Ok(text) = skillkit::files::read_text(&file, 1 << 20) else { return Ok(UiState::default()) };
        if text.len() > MAX_BYTES {
            return Ok(UiState::default());
        }
        Ok(serde_json::from_str(&text).unwrap_or_else(|e| {
            eprintln!("skill-studio: ignoring {}: {e}", file.display());
            UiState::default()
        }))
    }

    /// Remembers `state` (atomically, creating the folder).
    pub fn remember_ui_state(&self, state: UiState) -> Result<(), AppError> {
        let Some(file) = self.ui_state_file() else { return Ok(()) };
        let text =
            serde_json::to_string_pretty(&state).map_err(|e| AppError::new(ErrorCode::Internal, e.to_string()))?;
        if text.len() > MAX_BYTES {
            return Err(AppError::new(ErrorCode::Internal, "the window state is too large to keep"));
        }
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| AppError::io("cannot create", dir, &e))?;
        }
        crate::file_access::write_own(&file, &text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::MemoryHost;
    use crate::state::Startup;
    use std::sync::Arc;

    fn state_in(dir: &std::path::Path) -> Studio {
        Studio::new(
            Startup { sources: vec![], agent: "spec".into(), examples: None },
            Arc::new(MemoryHost::in_dir(dir)),
        )
    }

    #[test]
    fn a_remembered_state_is_read_back_by_a_new_app() {
        let tmp = tempfile::tempdir().unwrap();
        let mut ui = UiState { theme: "dark".into(), last_file: Some("/lib/a/SKILL.md".into()), ..Default::default() };
        ui.sizes.insert("library".into(), 240.0);
        ui.collapsed.push("bottom".into());
        state_in(tmp.path()).remember_ui_state(ui.clone()).unwrap();
        assert_eq!(state_in(tmp.path()).ui_state().unwrap(), ui);
    }

    #[test]
    fn a_missing_broken_or_partial_file_reads_as_defaults() {
        let tmp = tempfile::tempdir().unwrap();
        let s = state_in(tmp.path());
        assert_eq!(s.ui_state().unwrap(), UiState::default());
        std::fs::create_dir_all(tmp.path().join("config")).unwrap();
        let file = tmp.path().join("config").join(UI_STATE_FILE);
        std::fs::write(&file, "{ not json").unwrap();
        assert_eq!(s.ui_state().unwrap(), UiState::default());
        std::fs::write(&file, r#"{"theme": "light", "unknown": 1}"#).unwrap();
        assert_eq!(s.ui_state().unwrap().theme, "light");
        std::fs::write(&file, format!(r#"{{"theme": "{}"}}"#, "x".repeat(MAX_BYTES))).unwrap();
        assert_eq!(s.ui_state().unwrap(), UiState::default());
    }

    #[test]
    fn without_a_config_folder_nothing_is_kept() {
        let s = Studio::new(
            Startup { sources: vec![], agent: "spec".into(), examples: None },
            Arc::new(MemoryHost::default()),
        );
        s.remember_ui_state(UiState { theme: "dark".into(), ..Default::default() }).unwrap();
        assert_eq!(s.ui_state().unwrap(), UiState::default());
    }
}
