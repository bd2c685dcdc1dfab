//! `--write`: the chosen description saved into the skill file, only its value changed.

use std::path::Path;

/// Why `--write` did not write.
#[derive(Debug)]
pub enum WriteError {
    Scope(crate::scope::ScopeError),
    Edit(crate::frontmatter_edit::EditError),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Scope(e) => write!(f, "{e}"),
            WriteError::Edit(e) => write!(f, "the description cannot be replaced: {e}"),
        }
    }
}

impl std::error::Error for WriteError {}

/// The skill file at `path` with its `description` value set to `description` and every other
/// byte kept ([`crate::frontmatter_edit::set_field`], the form's edit), saved with the engine's
/// atomic save inside the skill's folder, only when the file is still the version read. Returns
/// the new text.
pub fn write_description(path: &Path, description: &str) -> Result<String, WriteError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let scope = crate::scope::Scope::new(&[dir.to_path_buf()]);
    let (text, version) = scope.read_text(path).map_err(WriteError::Scope)?;
    let edited = crate::frontmatter_edit::set_field(&text, "description", description).map_err(WriteError::Edit)?;
    scope.save(path, edited.as_bytes(), Some(Some(&version))).map_err(WriteError::Scope)?;
    Ok(edited)
}
