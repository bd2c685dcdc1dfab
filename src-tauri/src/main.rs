//! Starts Skill Studio on a library: the folders given as arguments (lowest priority first), or
//! else `SKILL_STUDIO_LIBRARY`, or else the library opened last, or else (the first time) the
//! bundled `skills/` of this repository.

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::path::PathBuf;

fn main() {
    let mut sources: Vec<String> = std::env::args().skip(1).collect();
    let explicit = !sources.is_empty() || std::env::var_os("SKILL_STUDIO_LIBRARY").is_some();
    if sources.is_empty() {
        let bundled = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../skills");
        let dir = std::env::var("SKILL_STUDIO_LIBRARY").map(PathBuf::from).unwrap_or(bundled);
        sources.push(std::fs::canonicalize(&dir).unwrap_or(dir).to_string_lossy().into_owned());
    }
    let startup = skill_studio::commands::Startup { sources, agent: "spec".into() };
    skill_studio::builder(startup, explicit)
        .run(tauri::generate_context!("../tauri.conf.json"))
        .expect("error while running Skill Studio");
}
