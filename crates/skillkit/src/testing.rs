//! Helpers for the engine's own tests.

use crate::agents::SPEC;
use crate::lint::lint;
use crate::skill::{FileProblem, Skill};

/// Rule codes reported for `text` in folder `dir_name` under the `spec` profile.
pub fn codes(dir_name: &str, text: &str) -> Vec<&'static str> {
    let skill = Skill::parse(format!("/skills/{dir_name}"), "SKILL.md", text.to_string());
    lint(&skill, &SPEC).into_iter().map(|d| d.code).collect()
}

/// Rule codes reported for a skill whose file could not be read.
pub fn codes_for_problem(problem: FileProblem) -> Vec<&'static str> {
    let skill = Skill::unreadable("/skills/a", "SKILL.md", problem);
    lint(&skill, &SPEC).into_iter().map(|d| d.code).collect()
}

/// Write a skill folder `my-skill` holding `files` (each containing `x`) and a SKILL.md with
/// `body`, read it from disk, and return its text and the diagnostics of rule `code`.
pub fn lint_on_disk(files: &[&str], body: &str, code: &str) -> (String, Vec<crate::lint::diagnostic::Diagnostic>) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("my-skill");
    std::fs::create_dir(&dir).unwrap();
    for f in files {
        let p = dir.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "x").unwrap();
    }
    let text = format!("---\nname: my-skill\ndescription: Formats tables.\n---\n{body}");
    std::fs::write(dir.join("SKILL.md"), &text).unwrap();
    let skill = crate::read::read_skill(&dir);
    let d = lint(&skill, &SPEC).into_iter().filter(|d| d.code == code).collect();
    (text, d)
}
