//! Paths the agents print are what they print (issue #12): a session script's relative source
//! (`sources: [./skills]`) is never shown as `././skills`; Claude Code names the skill's base
//! directory as an absolute, normalised path, as it resolves a project's `.claude/skills`.

use e2e::{skillkit, write_tree};

#[test]
fn claude_codes_base_directory_is_absolute_and_normalised() {
    let tmp = tempfile::tempdir().unwrap();
    let skill = b"---\nname: alpha-skill\ndescription: Does alpha. Use when asked for alpha.\n---\nDo alpha.\n";
    write_tree(
        tmp.path(),
        &[
            ("alpha-skill/SKILL.md", &skill[..]),
            (
                "sessions/claude-code.yaml",
                b"agent: claude-code\nsources: [./../skills/./]\nsteps:\n  - slash: /alpha-skill now\n",
            ),
            // The project root a script's sources stay inside (issue #33).
            ("skillkit.toml", b""),
        ],
    );
    std::fs::rename(tmp.path().join("alpha-skill"), tmp.path().join("skills-real")).unwrap();
    std::fs::create_dir(tmp.path().join("skills")).unwrap();
    std::fs::rename(tmp.path().join("skills-real"), tmp.path().join("skills/alpha-skill")).unwrap();
    let script = tmp.path().join("sessions/claude-code.yaml");
    let out = skillkit(&["simulate", script.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    // The test folder's real path: the product prints what the agent prints, the test compares.
    let root = tmp.path().canonicalize().unwrap();
    let want = format!("Base directory for this skill: {}/skills/alpha-skill", root.display());
    assert!(out.stdout.contains(&want), "want {want:?} in:\n{}", out.stdout);
    for line in out.stdout.lines().filter(|l| l.contains("Base directory")) {
        assert!(!line.contains("/./") && !line.contains("/../"), "{line}");
    }
}
