//! `skillkit prompt --agent opencode` reproduces the skills block at the end of the real OpenCode
//! 1.18.33 system prompt byte for byte on every captured tree (goldens made by
//! `tests/oracles/capture_opencode.sh`), with its `skill` tool definition, the skills it loads and
//! its activation results.

use e2e::goldens::{assert_same, golden, open_library, substitute, tree, TREES};
use e2e::skillkit;
use skillkit::agents::opencode;
use skillkit::library::Library;

const AGENT: &str = "opencode-1.18.33";
const PROJECT_ROOT: &str = "{WORK}/proj/.opencode/skills";
const USER_ROOT: &str = "{WORK}/home/.config/opencode/skills";
/// Trees captured for OpenCode besides the common ones.
const MORE_TREES: [&str; 4] = ["collation", "name-order", "same-name", "opencode-edge"];

/// A capture: tree name, `--source` folders, and the placeholders to substitute.
type Case = (&'static str, Vec<String>, Vec<(&'static str, String)>);

fn cases() -> Vec<Case> {
    let mut out: Vec<_> =
        TREES.iter().chain(&MORE_TREES).map(|t| (*t, vec![tree(t)], vec![(PROJECT_ROOT, tree(t))])).collect();
    let (base, project) = (tree("override-base"), tree("override-project"));
    out.push(("override", vec![base.clone(), project.clone()], vec![(USER_ROOT, base), (PROJECT_ROOT, project)]));
    // Kept out of prompt-trees (other profiles do not model it): skills nested in folders and in
    // other skills are found, a hidden folder and a lower-case `skill.md` are not.
    let d = e2e::goldens::fixtures().join("opencode-discovery");
    let d = d.canonicalize().unwrap_or(d).to_string_lossy().into_owned();
    out.push(("discovery", vec![d.clone()], vec![(PROJECT_ROOT, d)]));
    out
}

fn library(sources: &[String]) -> Library {
    open_library(sources, &opencode::AGENT)
}

fn render(sources: &[String]) -> String {
    let mut args = vec!["prompt", "--agent", "opencode"];
    for s in sources {
        args.extend(["--source", s.as_str()]);
    }
    let out = skillkit(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

/// The `<skill>` entry of `name` in a listing.
fn entry_of<'a>(listing: &'a str, name: &str) -> Option<&'a str> {
    let start = listing.find(&format!("  <skill>\n    <name>{name}</name>\n"))?;
    let end = start + listing[start..].find("</skill>")? + "</skill>".len();
    Some(&listing[start..end])
}

/// The trees with one name in several files: OpenCode's winner is a race there.
const RACES: [(&str, &str); 2] = [("override", "lint-helper"), ("same-name", "shared")];

#[test]
fn every_listing_is_byte_exact() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        if RACES.iter().any(|(r, _)| *r == t) {
            continue;
        }
        let text = render(&sources);
        let want = golden(AGENT, t, "listing.txt").unwrap_or_else(|| panic!("no golden for {t}"));
        assert_same(&text, &substitute(&want, &map), t);
        checked += 1;
    }
    assert_eq!(checked, TREES.len() + MORE_TREES.len() + 2 - RACES.len());
}

/// Duplicate names are a race in OpenCode (all files parsed in parallel, the last parse to finish
/// wins): on `same-name` (three `shared` in one folder) three runs picked `dup-x`, `dup`, `dup`.
/// Everything but the duplicate's entry is byte-exact in every captured run; across sources
/// (`override`) every run picked the higher-priority (project) copy, as skillkit does, so there
/// the whole listing is exact too.
#[test]
fn duplicates_everything_but_the_winner_is_exact() {
    for (t, name) in RACES {
        let (_, sources, map) = cases().into_iter().find(|c| c.0 == t).unwrap();
        let text = render(&sources);
        let ours = entry_of(&text, name).unwrap_or_else(|| panic!("{t}: no {name}"));
        let mut runs = 0;
        for f in ["listing.txt", "listing-run1.txt", "listing-run2.txt", "listing-run3.txt"] {
            let Some(want) = golden(AGENT, t, f).map(|w| substitute(&w, &map)) else { continue };
            let theirs = entry_of(&want, name).unwrap_or_else(|| panic!("{t}/{f}: no {name}"));
            assert_same(&text.replace(ours, ""), &want.replace(theirs, ""), &format!("{t}/{f}"));
            if t == "override" {
                assert_same(ours, theirs, &format!("{t}/{f}: the project copy wins"));
            }
            runs += 1;
        }
        assert!(runs >= 3, "{t}: {runs} runs");
    }
    let (base, project) = (tree("override-base"), tree("override-project"));
    let lib = library(&[base.clone(), project.clone()]);
    let prompt = opencode::AGENT.render(&lib, &Default::default()).unwrap();
    let want =
        substitute(&golden(AGENT, "override", "warnings.txt").unwrap(), &[(USER_ROOT, base), (PROJECT_ROOT, project)]);
    let ours: String = prompt.warnings.iter().map(|w| format!("{w}\n")).collect();
    assert_same(&ours, &want, "override warnings");
    let shadowed: Vec<_> =
        prompt.skills.iter().filter(|s| s.decision == skillkit::prompt::Decision::Shadowed).map(|s| &s.name).collect();
    assert_eq!(shadowed, ["lint-helper"]);
}

#[test]
fn the_skill_tool_is_opencodes() {
    let want: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(e2e::goldens::fixtures().join("prompt-goldens").join(AGENT).join("tool-skill.json"))
            .unwrap(),
    )
    .unwrap();
    let t = opencode::skill_tool();
    assert_eq!(want["name"], t.name.as_str());
    assert_eq!(want["description"], t.description.as_str());
    assert_eq!(want["parameters"], t.parameters);
}

/// Every skill OpenCode loaded (`opencode debug skill`) is one skillkit loads, with the same name,
/// description and location: listed when it has a description, invalid ("never listed") when not.
#[test]
fn loaded_skills_match_debug_skill() {
    for (t, sources, map) in cases() {
        let want: serde_json::Value = serde_json::from_str(&golden(AGENT, t, "loaded.json").unwrap()).unwrap();
        let loading = opencode::load(&library(&sources));
        let mut ours: Vec<(String, Option<String>, String)> =
            loading.skills.iter().map(|s| (s.name.clone(), s.description.clone(), s.location.clone())).collect();
        let mut theirs: Vec<(String, Option<String>, String)> = want
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["name"] != opencode::BUILTIN_NAME)
            .map(|s| {
                (
                    s["name"].as_str().unwrap().to_string(),
                    s["description"].as_str().map(str::to_string),
                    substitute(s["location"].as_str().unwrap(), &map),
                )
            })
            .collect();
        if t == "same-name" {
            // the winner is a race: compare the names only
            for v in [&mut ours, &mut theirs] {
                for x in v.iter_mut() {
                    x.1 = None;
                    x.2 = String::new();
                }
            }
        }
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{t}");
    }
}

/// The `skill` tool's results: a skill's body, folder and files (ripgrep's file order is not
/// reproduced: the `<file>` lines are compared as a set), and the unknown-name error.
#[test]
fn activation_results_match() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        let lib = library(&sources);
        let dir = e2e::goldens::fixtures().join("prompt-goldens").join(AGENT).join(t);
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        let mut files: Vec<String> = rd.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        files.sort();
        for f in files.iter().filter(|f| f.starts_with("tool-") && f.ends_with(".txt")) {
            let name = &f["tool-".len()..f.len() - ".txt".len()];
            if name == opencode::BUILTIN_NAME {
                continue; // its body is OpenCode's own document, not reproduced
            }
            let want = substitute(&golden(AGENT, t, f).unwrap(), &map);
            let ours = match opencode::activate(&lib, name) {
                Ok(s) | Err(s) => s,
            };
            let norm = |s: &str| {
                let mut lines: Vec<&str> = s.lines().collect();
                let files: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("<file>")).collect();
                if let (Some(&a), Some(&b)) = (files.first(), files.last()) {
                    lines[a..=b].sort();
                }
                lines.join("\n")
            };
            assert_same(&norm(&ours), &norm(&want), &format!("{t}/{f}"));
            checked += 1;
        }
    }
    assert!(checked >= 5, "only {checked} tool goldens");
}

/// The listing's order is `localeCompare`'s, not byte order: captured on `opencode-edge`.
#[test]
fn order_is_locale_compare() {
    let text = render(&[tree("opencode-edge")]);
    let names: Vec<&str> =
        text.lines().filter_map(|l| l.trim().strip_prefix("<name>")?.strip_suffix("</name>")).collect();
    assert_eq!(
        names,
        [
            "10-steps",
            "9-lives",
            "a.b",
            "ångström",
            "beta",
            "Beta",
            "crlf-skill",
            "customize-opencode",
            "folded-last",
            "tags",
            "Team Notes"
        ]
    );
    assert!(entry_of(&text, "tags").unwrap().contains("<pre> & <code>"), "no escaping");
}

/// OpenCode reads all nine folders (captured with `minimal` in each): the listing is the same but
/// for the location, which is wherever the skill was found.
#[test]
fn every_folder_gives_the_same_listing() {
    let scopes = [
        ("project", "{WORK}/proj/.opencode/skills"),
        ("project-skill", "{WORK}/proj/.opencode/skill"),
        ("project-claude", "{WORK}/proj/.claude/skills"),
        ("project-agents", "{WORK}/proj/.agents/skills"),
        ("user", "{WORK}/home/.config/opencode/skills"),
        ("user-skill", "{WORK}/home/.config/opencode/skill"),
        ("user-claude", "{WORK}/home/.claude/skills"),
        ("user-agents", "{WORK}/home/.agents/skills"),
        ("user-dot-opencode", "{WORK}/home/.opencode/skills"),
    ];
    let t = tree("minimal");
    let text = render(std::slice::from_ref(&t));
    for (scope, root) in scopes {
        let want = golden(AGENT, "scopes", &format!("listing-{scope}.txt")).unwrap_or_else(|| panic!("{scope}"));
        assert!(want.contains(&format!("<location>{root}/hello-note/SKILL.md</location>")), "{scope}");
        assert_same(&text, &substitute(&want, &[(root, t.as_str())]), scope);
    }
}
