//! Starts Skill Studio on a library: the folders given as arguments (lowest priority first), or
//! else `SKILL_STUDIO_LIBRARY`, or else the library opened last, or else (the first time) the
//! bundled examples: the `skills/` a package installs beside the app (its resources), or, in a
//! build from a checkout, the repository's `skills/`.

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::path::PathBuf;

fn main() {
    let mut sources: Vec<String> = std::env::args().skip(1).collect();
    let explicit = !sources.is_empty() || std::env::var_os("SKILL_STUDIO_LIBRARY").is_some();
    let context = tauri::generate_context!("../tauri.conf.json");
    // A build run from its checkout opens the repository's examples (never a copy a build may
    // leave in target/); an installed app, far from any checkout, has them among its resources
    // (/usr/lib/Skill Studio/skills from the .deb). The welcome screen offers them in any case.
    let checkout = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../skills");
    let bundled = if checkout.is_dir() {
        checkout
    } else {
        tauri::utils::platform::resource_dir(context.package_info(), &tauri::Env::default())
            .map(|d| d.join("skills"))
            .unwrap_or(checkout)
    };
    let canonical = |dir: PathBuf| std::fs::canonicalize(&dir).unwrap_or(dir).to_string_lossy().into_owned();
    let examples = bundled.is_dir().then(|| canonical(bundled.clone()));
    if sources.is_empty() {
        let dir = std::env::var("SKILL_STUDIO_LIBRARY").map(PathBuf::from).unwrap_or(bundled);
        sources.push(canonical(dir));
    }
    let startup = skillkit_api::Startup { sources, agent: "spec".into(), examples };
    skill_studio::builder(startup, explicit).run(context).expect("error while running Skill Studio");
}
