//! Each profile backed by a real program names, in its `source`, the release its goldens were
//! captured from (`tests/fixtures/prompt-goldens/<agent>-<version>/`): the release that
//! `tests/oracles/drift.sh` reads from the folder name and reviews newer ones against. Moving the
//! goldens to a new release without updating the profile (or the other way round) fails here.

use skillkit::agents::find_agent;

#[test]
fn every_profile_names_the_release_of_its_goldens() {
    let root = e2e::goldens::fixtures().join("prompt-goldens");
    let mut checked = vec![];
    for e in std::fs::read_dir(&root).unwrap() {
        let e = e.unwrap();
        if !e.path().is_dir() {
            continue;
        }
        let dir = e.file_name().to_string_lossy().into_owned();
        let (agent, version) =
            dir.rsplit_once('-').unwrap_or_else(|| panic!("goldens folder {dir}: not <agent>-<version>"));
        assert!(version.starts_with(|c: char| c.is_ascii_digit()), "goldens folder {dir}: not <agent>-<version>");
        // skills-ref's profile is `agentskills` (the program's command name).
        let id = if agent == "skills-ref" { "agentskills" } else { agent };
        let profile = find_agent(id).unwrap_or_else(|| panic!("goldens {dir}: no profile `{id}`"));
        assert!(
            names_release(profile.source, version),
            "profile `{id}` names {:?}, its goldens are {dir}",
            profile.source
        );
        checked.push(dir);
    }
    assert!(checked.len() >= 7, "{checked:?}");
}

/// `source` holds `version` as a whole release number (`2.1.33` is not in `2.1.332`).
fn names_release(source: &str, version: &str) -> bool {
    let release_char = |c: char| c.is_ascii_digit() || c == '.';
    source.match_indices(version).any(|(i, _)| {
        let before = source[..i].chars().next_back();
        let after = source[i + version.len()..].chars().next();
        !before.is_some_and(release_char)
            && !after.is_some_and(|c| {
                c.is_ascii_digit()
                    || (c == '.' && source[i + version.len() + 1..].starts_with(|d: char| d.is_ascii_digit()))
            })
    })
}

#[test]
fn a_release_is_matched_whole() {
    assert!(names_release("Claude Code CLI 2.1.332 (real program)", "2.1.332"));
    assert!(names_release("PyPI deepagents 0.7.32, skills.py", "0.7.32"));
    assert!(!names_release("Claude Code CLI 2.1.332 (real program)", "2.1.33"));
    assert!(!names_release("Codex 10.171.0", "0.171.0"));
}
