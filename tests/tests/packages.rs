//! Packages end to end (issue #35): `skillkit check` on plugins, marketplaces, folders of plugins
//! and upload archives; `skillkit pack` and `skillkit verify`.
//!
//! Every package rule has a failing and a passing fixture under `tests/fixtures/packages/<rule>/`:
//! `fail/` and `pass/` are checked as folders; `fail-zip/` and `pass-zip/` are zipped first (a
//! `%2F` in a file name is a `/` of the entry name, so an entry can climb out with `../`);
//! `fail-raw.zip` is checked as it is. The two size rules (200 files, 30 MB) are built here.

use e2e::{skillkit, write_tree};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};

const FIXTURES: &str = "fixtures/packages";

/// The files under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = vec![];
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((d, prefix)) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let rel = format!("{prefix}{name}");
            if e.file_type().unwrap().is_dir() {
                stack.push((e.path(), format!("{rel}/")));
            } else {
                out.push((rel, e.path()));
            }
        }
    }
    out.sort();
    out
}

/// The fixture folder `dir` zipped as an upload archive into `to`.
fn zip_folder(dir: &Path, to: &Path) {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (rel, path) in files_under(dir) {
        w.start_file(rel.replace("%2F", "/"), zip::write::SimpleFileOptions::default()).unwrap();
        w.write_all(&std::fs::read(path).unwrap()).unwrap();
    }
    std::fs::write(to, w.finish().unwrap().into_inner()).unwrap();
}

/// The codes `check --package --format json` reports on `path`, and its exit code.
fn codes(path: &Path) -> (Vec<String>, i32) {
    let out = skillkit(&["check", path.to_str().unwrap(), "--package", "--format", "json"]);
    let json: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", out.stdout, out.stderr));
    let codes = json["skills"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap().to_string()))
        .collect();
    (codes, out.code)
}

/// `variant` of a rule's fixtures, made checkable (zipped where it is a `-zip` folder).
fn checkable(rule: &str, variant: &str, tmp: &Path) -> Option<PathBuf> {
    let base = Path::new(FIXTURES).join(rule);
    let folder = base.join(variant);
    if folder.is_dir() {
        return Some(folder);
    }
    let zipped = base.join(format!("{variant}-zip"));
    if zipped.is_dir() {
        let to = tmp.join(format!("{rule}-{variant}.zip"));
        zip_folder(&zipped, &to);
        return Some(to);
    }
    let raw = base.join(format!("{variant}-raw.zip"));
    raw.is_file().then_some(raw)
}

fn package_rules() -> Vec<&'static skillkit::lint::rules::RuleMeta> {
    skillkit::lint::rules::RULES
        .iter()
        .map(|r| r.meta())
        .filter(|m| m.group == skillkit::lint::rules::Group::Package)
        .collect()
}

#[test]
fn every_package_rule_has_a_failing_and_a_passing_fixture() {
    let tmp = tempfile::tempdir().unwrap();
    let built = ["upload-too-many-files", "upload-too-large"];
    let mut tried = 0;
    for m in package_rules() {
        if built.contains(&m.name) {
            continue;
        }
        let fail = checkable(m.name, "fail", tmp.path()).unwrap_or_else(|| panic!("{}: no failing fixture", m.name));
        let pass = checkable(m.name, "pass", tmp.path()).unwrap_or_else(|| panic!("{}: no passing fixture", m.name));
        let (got, _) = codes(&fail);
        assert!(got.iter().any(|c| c == m.code), "{}: {} does not report it: {got:?}", m.name, fail.display());
        let (got, code) = codes(&pass);
        assert!(!got.iter().any(|c| c == m.code), "{}: {} reports it: {got:?}", m.name, pass.display());
        assert_eq!(code, 0, "{}: {} has errors: {got:?}", m.name, pass.display());
        tried += 1;
    }
    assert_eq!(tried + built.len(), package_rules().len());
}

fn zip_of(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let o = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (n, b) in files {
        w.start_file(n.as_str(), o).unwrap();
        w.write_all(b).unwrap();
    }
    w.finish().unwrap().into_inner()
}

const SKILL: &[u8] = b"---\nname: big\ndescription: A skill of many files.\n---\nBody.\n";

#[test]
fn the_size_rules_fail_over_the_limit_and_pass_at_it() {
    let tmp = tempfile::tempdir().unwrap();
    let check = |files: Vec<(String, Vec<u8>)>, name: &str| {
        let p = tmp.path().join(name);
        std::fs::write(&p, zip_of(&files)).unwrap();
        codes(&p)
    };
    let mut files = vec![("big/SKILL.md".to_string(), SKILL.to_vec())];
    files.extend((1..200).map(|i| (format!("big/f{i}.txt"), b"x".to_vec())));
    assert_eq!(check(files.clone(), "200.zip"), (vec![], 0));
    files.push(("big/f200.txt".into(), b"x".to_vec()));
    let (got, code) = check(files, "201.zip");
    assert_eq!((got, code), (vec!["SK802".to_string()], 1));

    let limit = 30 * 1024 * 1024;
    let at = vec![("big/SKILL.md".to_string(), SKILL.to_vec()), ("big/zeros.bin".into(), vec![0; limit - SKILL.len()])];
    assert_eq!(check(at, "30.zip"), (vec![], 0));
    let over = vec![("big/SKILL.md".to_string(), SKILL.to_vec()), ("big/zeros.bin".into(), vec![0; limit])];
    assert_eq!(check(over, "31.zip"), (vec!["SK803".to_string()], 1));
}

#[test]
fn an_upload_is_judged_with_the_uploads_own_messages_in_text() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("two.zip");
    zip_folder(&Path::new(FIXTURES).join("upload-skill-count/fail-zip"), &p);
    let out = skillkit(&["check", p.to_str().unwrap(), "--color", "never"]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("Zip must contain exactly one SKILL.md file. Currently there are 2."),
        "{}",
        out.stdout
    );
    // Without --package too: a .zip is an upload.
    let raw = Path::new(FIXTURES).join("upload-invalid-zip/fail-raw.zip");
    let out = skillkit(&["check", raw.to_str().unwrap(), "--color", "never"]);
    assert_eq!(out.code, 1);
    assert!(out.stdout.contains("Invalid zip file"), "{}", out.stdout);
}

#[test]
fn a_plugin_folder_is_detected_and_its_manifest_findings_are_located_in_sarif() {
    let fixture = Path::new(FIXTURES).join("manifest-field-type/fail");
    let out = skillkit(&["check", fixture.to_str().unwrap(), "--format", "sarif"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let sarif: Value = serde_json::from_str(&out.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let r = results.iter().find(|r| r["ruleId"] == "SK812").expect("SK812 in the SARIF");
    let loc = &r["locations"][0]["physicalLocation"];
    assert!(loc["artifactLocation"]["uri"].as_str().unwrap().ends_with(".claude-plugin/plugin.json"), "{loc}");
    assert_eq!(loc["region"]["startLine"], 3);
    assert_eq!(loc["region"]["startColumn"], 13);
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(rules.iter().any(|r| r["id"] == "SK812"));
}

#[test]
fn a_folder_that_is_no_package_is_checked_as_skills() {
    let (_, code) = codes(Path::new("fixtures/check/good-skill"));
    assert_eq!(code, 0);
    let out = skillkit(&["check", "fixtures/check/good-skill", "--format", "json"]);
    assert_eq!(out.code, 0);
}

fn write_skill(root: &Path, name: &str, extra: usize) -> PathBuf {
    let dir = root.join(name);
    let skill = format!("---\nname: {name}\ndescription: Packs {name} for the tests.\n---\nRun `scripts/run.sh`.\n");
    write_tree(&dir, &[("SKILL.md", skill.as_bytes()), ("scripts/run.sh", b"echo hi\n"), (".env", b"SECRET=1\n")]);
    for i in 0..extra {
        std::fs::write(dir.join(format!("f{i}.txt")), "x").unwrap();
    }
    dir
}

#[test]
fn pack_claude_ai_is_reproducible_and_reads_back_as_a_valid_upload() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(tmp.path(), "alpha", 0);
    let (a, b) = (tmp.path().join("a.zip"), tmp.path().join("b.zip"));
    let out = skillkit(&["pack", dir.to_str().unwrap(), "--target", "claude-ai", "-o", a.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("wrote "), "{}", out.stdout);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    std::fs::write(dir.join("scripts/run.sh"), "echo hi\n").unwrap();
    let out = skillkit(&["pack", dir.to_str().unwrap(), "--target", "claude-ai", "-o", b.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes, std::fs::read(&b).unwrap(), "the same skill packs to the same bytes");
    // Read back with the zip crate: one folder, the skill file in it, no dotfile.
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let names: Vec<String> = (0..z.len()).map(|i| z.by_index(i).unwrap().name().to_string()).collect();
    assert_eq!(names, ["alpha/SKILL.md", "alpha/scripts/run.sh"]);
    assert_eq!(z.by_index(0).unwrap().unix_mode().map(|m| m & 0o777), Some(0o644));
    // And with the system's unzip, when there is one.
    if let Ok(o) = std::process::Command::new("unzip").arg("-t").arg(&a).output() {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
        assert!(String::from_utf8_lossy(&o.stdout).contains("No errors detected"));
    }
    // And by the upload's rules.
    assert_eq!(codes(&a), (vec![], 0));
}

#[test]
fn pack_refuses_what_the_upload_would_with_its_message() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(tmp.path(), "many", 199);
    let to = tmp.path().join("many.zip");
    let out = skillkit(&["pack", dir.to_str().unwrap(), "--target", "claude-ai", "-o", to.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("error[SK802]: Zip contains too many files (maximum 200)"), "{}", out.stderr);
    assert!(!to.exists());
    // A skill with errors is not packed either.
    let bad = tmp.path().join("bad");
    write_tree(&bad, &[("SKILL.md", b"---\nname: Bad Name\n---\n")]);
    let out = skillkit(&["pack", bad.to_str().unwrap(), "--target", "claude-ai", "-o", to.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("have errors"), "{}", out.stderr);
}

#[test]
fn pack_writes_plugins_that_check_clean() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("lib");
    write_skill(&lib, "alpha", 0);
    write_skill(&lib, "beta", 0);
    for (target, manifest) in [
        ("claude-plugin", ".claude-plugin/marketplace.json"),
        ("agent-plugin", "plugin.json"),
        ("codex-plugin", ".agents/plugins/marketplace.json"),
    ] {
        let out_dir = tmp.path().join(target);
        let out = skillkit(&["pack", lib.to_str().unwrap(), "--target", target, "-o", out_dir.to_str().unwrap()]);
        assert_eq!(out.code, 0, "{target}: {}", out.stderr);
        assert!(out_dir.join(manifest).is_file(), "{target}");
        let check = skillkit(&["check", out_dir.to_str().unwrap(), "--format", "json"]);
        assert_eq!(check.code, 0, "{target}: {}", check.stdout);
    }
    let plugin = tmp.path().join("claude-plugin/plugins/lib/skills/alpha/SKILL.md");
    assert!(plugin.is_file());
    assert!(tmp.path().join("codex-plugin/plugins/lib/.codex-plugin/plugin.json").is_file());
    assert!(tmp.path().join("codex-plugin/plugins/lib/skills/beta/SKILL.md").is_file());
    assert!(!tmp.path().join("claude-plugin/plugins/lib/skills/alpha/.env").exists());
}

#[test]
fn pack_digest_then_verify_names_each_change() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("lib");
    let alpha = write_skill(&lib, "alpha", 0);
    write_skill(&lib, "beta", 0);
    let lock = tmp.path().join("skills-lock.json");
    let out = skillkit(&["pack", lib.to_str().unwrap(), "--target", "digest", "-o", lock.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&lock).unwrap()).unwrap();
    assert_eq!(json["version"], 1);
    assert_eq!(json["skills"]["alpha"]["sourceType"], "local");
    assert_eq!(json["skills"]["alpha"]["computedHash"].as_str().unwrap().len(), 64);
    assert!(json["skills"]["alpha"]["files"][0]["digest"].as_str().unwrap().starts_with("sha256:"));
    let verify = |p: &Path| skillkit(&["verify", p.to_str().unwrap(), "--lock", lock.to_str().unwrap()]);
    let out = verify(&lib);
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert!(out.stdout.ends_with("2 of 2 skills as locked\n"), "{}", out.stdout);
    std::fs::write(alpha.join("SKILL.md"), "---\nname: alpha\ndescription: Changed.\n---\n").unwrap();
    std::fs::remove_file(alpha.join("scripts/run.sh")).unwrap();
    std::fs::write(alpha.join("new.md"), "x").unwrap();
    let out = verify(&lib);
    assert_eq!(out.code, 1);
    for line in
        ["changed  alpha", "  changed: SKILL.md", "  missing: scripts/run.sh", "  extra: new.md", "ok       beta"]
    {
        assert!(out.stdout.contains(line), "{line}: {}", out.stdout);
    }
}

/// Every skill of the corpus (`../shared/corpus`, not in the repository) packed for the upload:
/// each that fits the limits reads back with no upload finding; each refused is refused with an
/// upload message. Run with `cargo test -p e2e --test packages -- --ignored --nocapture`.
#[test]
#[ignore = "needs /work/shared/corpus"]
fn every_corpus_skill_that_fits_packs_to_a_valid_upload() {
    let corpus = std::env::var("SKILLKIT_CORPUS").unwrap_or_else(|_| "/work/shared/corpus".into());
    let mut skills = vec![];
    let mut stack = vec![PathBuf::from(&corpus)];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) && !e.file_name().to_string_lossy().starts_with(".git") {
                if p.join("SKILL.md").is_file() {
                    skills.push(p.clone());
                }
                stack.push(p);
            }
        }
    }
    skills.sort();
    assert!(!skills.is_empty(), "no skill under {corpus}");
    let (mut packed, mut refused, mut invalid) = (0, vec![], 0);
    for dir in &skills {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        match skillkit::package::pack::zip_skill(dir, &name) {
            Ok(bytes) => {
                let a = skillkit::package::archive::read_bytes(&bytes).unwrap();
                let entries: Vec<_> = a
                    .entries
                    .iter()
                    .map(|e| skillkit::package::upload::UploadEntry { name: &e.name, is_dir: e.is_dir, size: e.size })
                    .collect();
                let findings = skillkit::package::upload::check(&entries);
                assert!(
                    findings.is_empty(),
                    "{}: {:?}",
                    dir.display(),
                    findings.iter().map(|f| &f.message).collect::<Vec<_>>()
                );
                let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
                for i in 0..z.len() {
                    std::io::copy(&mut z.by_index(i).unwrap(), &mut std::io::sink()).unwrap();
                }
                packed += 1;
            }
            Err(skillkit::package::pack::PackError::Refused { findings, .. }) => {
                assert!(findings.iter().all(|f| f.rule.code.starts_with("SK80")), "{}", dir.display());
                refused.push(format!("{}: {}", dir.display(), findings[0].message));
            }
            Err(e) => {
                invalid += 1;
                eprintln!("not packed: {}: {e}", dir.display());
            }
        }
    }
    eprintln!(
        "{} skills: {packed} packed and read back clean, {} refused, {invalid} unreadable",
        skills.len(),
        refused.len()
    );
    for r in &refused {
        eprintln!("refused: {r}");
    }
    assert!(packed > 0);
}

#[test]
fn check_names_a_skill_an_agent_bundles_and_pack_lists_skill_resources() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("lib");
    write_tree(
        &lib,
        &[(
            "simplify/SKILL.md",
            b"---\nname: simplify\ndescription: Tidies a diff. Use when asked to simplify a change.\n---\nBody.\n",
        )],
    );
    let dir = lib.join("simplify");
    let check = skillkit(&["check", dir.to_str().unwrap()]);
    assert_eq!(check.code, 0, "an info only: {}", check.stdout);
    assert!(
        check.stdout.contains("`simplify` is the name of a skill Claude Code 2.1.332 and Qwen Code 0.24.4 bundle"),
        "{}",
        check.stdout
    );
    let codex = skillkit(&["check", dir.to_str().unwrap(), "--agent", "codex"]);
    assert!(!codex.stdout.contains("SK706"), "{}", codex.stdout);

    let list = tmp.path().join("skills-list.json");
    let out = skillkit(&["pack", lib.to_str().unwrap(), "--target", "mcp-resources", "-o", list.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&list).unwrap()).unwrap();
    assert_eq!(v["skills"][0]["uri"], "skill://simplify/SKILL.md");
    assert!(v["skills"][0]["resources"][0]["digest"].as_str().unwrap().starts_with("sha256:"));
    assert_eq!(v["resources"][0]["mimeType"], "text/markdown");
}
