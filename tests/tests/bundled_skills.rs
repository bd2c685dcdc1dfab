//! The bundled library `skills/` (the app's default library and the README's demo) is clean
//! under every agent profile and shows every spec field and resource folder.

use e2e::skillkit;
use serde_json::Value;
use skillkit::read::read_skill;
use skillkit::AGENTS;

fn skill_dirs() -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<_> = std::fs::read_dir(e2e::repo_root().join("skills"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("SKILL.md").is_file())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn bundled_skills_have_no_findings_under_any_agent() {
    let root = e2e::repo_root().join("skills");
    for agent in AGENTS {
        let out = skillkit(&["check", &root.to_string_lossy(), "--agent", agent.id, "--format", "json"]);
        let json: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(out.code, 0, "{}", out.stdout);
        assert_eq!(json["summary"]["skills"].as_u64(), Some(skill_dirs().len() as u64));
        let total = json["summary"]["errors"].as_u64().unwrap()
            + json["summary"]["warnings"].as_u64().unwrap()
            + json["summary"]["infos"].as_u64().unwrap();
        assert_eq!(total, 0, "`{}` finds issues in skills/:\n{}", agent.id, out.stdout);
    }
}

#[test]
fn bundled_skills_use_every_spec_field_and_resource_folder() {
    let dirs = skill_dirs();
    assert!(dirs.len() >= 6, "at least 6 bundled skills");
    for field in skillkit::syntax::fields::SPEC_FIELDS {
        let users = dirs.iter().filter(|d| read_skill(d).frontmatter.get(field).is_some()).count();
        assert!(users >= 2, "`{field}` is used by {users} bundled skills");
    }
    for folder in ["scripts", "references", "assets"] {
        let users = dirs.iter().filter(|d| d.join(folder).is_dir()).count();
        assert!(users >= 2, "`{folder}/` is used by {users} bundled skills");
    }
}

#[test]
fn every_bundled_resource_is_referenced_from_its_skill() {
    for dir in skill_dirs() {
        let body = read_skill(&dir).body().to_string();
        for folder in ["scripts", "references", "assets"] {
            let Ok(entries) = std::fs::read_dir(dir.join(folder)) else { continue };
            for e in entries.flatten() {
                let rel = format!("{folder}/{}", e.file_name().to_string_lossy());
                assert!(body.contains(&rel), "{} does not mention {rel}", dir.display());
            }
        }
    }
}
