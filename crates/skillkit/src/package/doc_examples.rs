//! Every package rule's documented examples run: each ```` ```package ```` block under
//! `## Example` triggers its rule, each under `## Use instead` does not and has no error at all.
//! Rules whose examples cannot be written out (200 files, 30 MB) say so in prose and are tested
//! in `upload`.

use crate::lint::diagnostic::Severity;
use crate::lint::rules::{Group, RULES};
use std::io::Write;
use std::path::{Path, PathBuf};

const PROSE: &[&str] = &["upload-too-many-files", "upload-too-large"];

struct Example {
    /// `None`: a folder; `Some(false)`: the files zipped; `Some(true)`: the first file's bytes
    /// as the archive.
    zip: Option<bool>,
    files: Vec<(String, String)>,
}

fn examples(docs: &str, section: &str) -> Vec<Example> {
    let mut out = vec![];
    let mut in_section = false;
    let mut cur: Option<Example> = None;
    for line in docs.lines() {
        if let Some(e) = cur.as_mut() {
            if line == "```" {
                out.push(cur.take().unwrap());
            } else if let Some(p) = line.strip_prefix("-- ") {
                e.files.push((p.to_string(), String::new()));
            } else if let Some((_, text)) = e.files.last_mut() {
                text.push_str(line);
                text.push('\n');
            }
            continue;
        }
        if let Some(h) = line.strip_prefix("## ") {
            in_section = h == section;
        } else if in_section && line.starts_with("```package") {
            let info = &line["```package".len()..];
            let zip = info.split_whitespace().find(|w| w.starts_with("zip")).map(|w| w == "zip=raw");
            cur = Some(Example { zip, files: vec![] });
        }
    }
    out
}

fn materialize(e: &Example, dir: &Path) -> PathBuf {
    match e.zip {
        None => {
            let root = dir.join("pkg");
            std::fs::create_dir_all(&root).unwrap();
            for (p, text) in &e.files {
                let path = root.join(p);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
            root
        }
        Some(raw) => {
            let path = dir.join("upload.zip");
            if raw {
                std::fs::write(&path, &e.files[0].1).unwrap();
                return path;
            }
            let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
            for (p, text) in &e.files {
                w.start_file(p.as_str(), zip::write::SimpleFileOptions::default()).unwrap();
                w.write_all(text.as_bytes()).unwrap();
            }
            std::fs::write(&path, w.finish().unwrap().into_inner()).unwrap();
            path
        }
    }
}

fn run(e: &Example) -> Vec<crate::Diagnostic> {
    let t = tempfile::tempdir().unwrap();
    let path = materialize(e, t.path());
    let run = crate::package::check::check_package(&path, &crate::agents::SPEC, true).expect("a package");
    run.skills.into_iter().flat_map(|c| c.diagnostics).collect()
}

#[test]
fn package_rule_examples_trigger_their_rule_and_fixed_versions_do_not() {
    let mut tried = 0;
    for r in RULES.iter().filter(|r| r.meta().group == Group::Package) {
        let m = r.meta();
        let docs = m.docs_text();
        let (bad, good) = (examples(&docs, "Example"), examples(&docs, "Use instead"));
        if PROSE.contains(&m.name) {
            assert!(bad.is_empty(), "{} is prose-only but has examples", m.name);
            continue;
        }
        assert!(!bad.is_empty() && !good.is_empty(), "{} needs ```package examples", m.name);
        for e in &bad {
            let d = run(e);
            assert!(d.iter().any(|d| d.code == m.code), "{}: its example does not trigger it: {d:#?}", m.name);
        }
        for e in &good {
            let d = run(e);
            assert!(d.iter().all(|d| d.code != m.code), "{}: the fixed example triggers it: {d:#?}", m.name);
            let errors: Vec<_> = d.iter().filter(|d| d.severity == Severity::Error).collect();
            assert!(errors.is_empty(), "{}: the fixed example has errors: {errors:#?}", m.name);
        }
        tried += 1;
    }
    assert!(tried >= 15, "{tried}");
}

/// A manifest's finding is located at its JSON node: the line and column of the value.
#[test]
fn manifest_findings_point_at_the_node() {
    let e = Example {
        zip: None,
        files: vec![(
            ".claude-plugin/plugin.json".into(),
            "{\n  \"name\": \"notes\",\n  \"author\": \"Ann\"\n}\n".into(),
        )],
    };
    let d = run(&e);
    let f = d.iter().find(|d| d.code == "SK812").unwrap();
    assert_eq!((f.start.line, f.start.column), (3, 13));
    assert_eq!(f.message, "author: Invalid input: expected object, received string");
}

/// A manifest that is a FIFO, or a symlink leading out of the package, is reported, not read.
#[cfg(unix)]
#[test]
fn manifests_are_read_safely() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("p");
    std::fs::create_dir_all(root.join(".claude-plugin")).unwrap();
    std::fs::write(t.path().join("outside.json"), "{\"name\": \"x\"}").unwrap();
    std::os::unix::fs::symlink(t.path().join("outside.json"), root.join(".claude-plugin/plugin.json")).unwrap();
    let run = crate::package::check::check_package(&root, &crate::agents::SPEC, false).unwrap();
    let d: Vec<_> = run.skills.iter().flat_map(|c| &c.diagnostics).collect();
    assert!(d.iter().any(|d| d.code == "SK810" && d.message.contains("symlink leading outside")), "{d:#?}");
    std::fs::remove_file(root.join(".claude-plugin/plugin.json")).unwrap();
    rustix::fs::mknodat(
        rustix::fs::CWD,
        root.join(".claude-plugin/plugin.json"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
        0,
    )
    .unwrap();
    let run = crate::package::check::check_package(&root, &crate::agents::SPEC, false).unwrap();
    let d: Vec<_> = run.skills.iter().flat_map(|c| &c.diagnostics).collect();
    assert!(d.iter().any(|d| d.code == "SK810" && d.message.contains("FIFO")), "{d:#?}");
}

/// An Agent Plugins package's `mcp.json` is read with its manifest: a server's `cwd` is `./`-relative
/// and a path `command` stays inside the plugin (§4.1); a bare command (`uvx`) is no path.
#[test]
fn agent_plugin_mcp_servers_stay_inside() {
    let plugin = "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"tools\"}\n";
    let bad = "{\"mcpServers\": {\"db\": {\"command\": \"../shared/db-server\", \"cwd\": \"state\"}}}\n";
    let good = "{\"mcpServers\": {\"db\": {\"command\": \"./bin/db-server\", \"cwd\": \"./state\"}, \"web\": {\"command\": \"uvx\"}}}\n";
    let e = |mcp: &str| Example {
        zip: None,
        files: vec![("plugin.json".into(), plugin.into()), ("mcp.json".into(), mcp.into())],
    };
    let mut codes: Vec<&str> = run(&e(bad)).iter().map(|d| d.code).collect();
    codes.sort_unstable();
    assert_eq!(codes, ["SK815", "SK816"]);
    assert!(run(&e(good)).is_empty());
}
