//! Helpers for the end-to-end tests: build skill trees in temporary folders and run the
//! `skillkit` CLI on them in-process, capturing output and exit code.

use std::path::Path;

pub mod hostile_input;

/// What one CLI run printed and returned.
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run `skillkit` with `args` (without the program name) in the current process.
pub fn skillkit(args: &[&str]) -> Output {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut all = vec!["skillkit"];
    all.extend_from_slice(args);
    let code = skillkit_cli::run(all, &mut out, &mut err);
    Output { code, stdout: String::from_utf8(out).unwrap(), stderr: String::from_utf8(err).unwrap() }
}

/// Write `files` (relative path → bytes) under `root`.
pub fn write_tree(root: &Path, files: &[(&str, &[u8])]) {
    for (rel, bytes) in files {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

/// A temporary folder inside the repository (`tests/.tmpXXXX`, ignored by git, removed on drop):
/// for a session script or suite that names the repository's fixtures, since the paths such a file
/// names must stay inside its project (issue #33), wherever `CARGO_TARGET_DIR` is.
pub fn repo_tempdir() -> tempfile::TempDir {
    tempfile::Builder::new().prefix(".tmp").tempdir_in(repo_root().join("tests")).unwrap()
}

/// The repository root (for README, docs and the bundled skills).
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// The prompt goldens captured from the real agent programs (`tests/fixtures/prompt-goldens`,
/// made by `tests/oracles/capture_prompts.sh`) and the trees they were captured on.
pub mod goldens {
    use std::path::PathBuf;

    /// Every tree captured with one source (`override` is the two-source pair).
    pub const TREES: [&str; 14] = [
        "all-fields",
        "minimal",
        "override-base",
        "override-project",
        "empty",
        "invalid",
        "chars",
        "long-desc",
        "blocks",
        "crlf",
        "unicode",
        "claude-fields",
        "budget-60",
        "tolerated",
    ];

    pub fn fixtures() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
    }

    /// The real path of a test tree (placeholder `{TREE}`).
    pub fn tree(name: &str) -> String {
        let p = fixtures().join("prompt-trees").join(name);
        p.canonicalize().unwrap_or(p).to_string_lossy().into_owned()
    }

    /// A golden file's bytes as text, `None` when the capture has no such file.
    pub fn golden(agent_dir: &str, tree: &str, file: &str) -> Option<String> {
        let p = fixtures().join("prompt-goldens").join(agent_dir).join(tree).join(file);
        std::fs::read(p).ok().map(|b| String::from_utf8(b).expect("goldens are UTF-8"))
    }

    /// The JSON goldens of one tree whose file names are `{prefix}{stem}.json`, sorted by name:
    /// `(stem, file name, parsed JSON)`.
    pub fn golden_jsons(agent_dir: &str, tree: &str, prefix: &str) -> Vec<(String, String, serde_json::Value)> {
        let dir = fixtures().join("prompt-goldens").join(agent_dir).join(tree);
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        files.retain(|n| n.starts_with(prefix) && n.ends_with(".json"));
        files.sort();
        files
            .into_iter()
            .map(|f| {
                let stem = f[prefix.len()..f.len() - ".json".len()].to_string();
                let v = serde_json::from_str(&golden(agent_dir, tree, &f).expect("listed")).expect("golden JSON");
                (stem, f, v)
            })
            .collect()
    }

    /// Replace placeholders (longest first, so `{TREES}` is not read as `{TREE}` + `S}`).
    pub fn substitute<V: AsRef<str>>(text: &str, map: &[(&str, V)]) -> String {
        let mut map: Vec<(&str, &str)> = map.iter().map(|(k, v)| (*k, v.as_ref())).collect();
        map.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
        let mut out = text.to_string();
        for (k, v) in map {
            out = out.replace(k, v);
        }
        out
    }

    /// The library of `sources` (lowest priority first) as `agent` discovers and reads it.
    pub fn open_library(sources: &[String], agent: &skillkit::Agent) -> skillkit::library::Library {
        let sources: Vec<PathBuf> = sources.iter().map(PathBuf::from).collect();
        skillkit::library::Library::for_agent(&sources, agent)
    }

    /// Panics with the first differing byte offset and the text around it.
    pub fn assert_same(ours: &str, golden: &str, what: &str) {
        if ours == golden {
            return;
        }
        let at = ours.bytes().zip(golden.bytes()).position(|(a, b)| a != b).unwrap_or(ours.len().min(golden.len()));
        let around = |s: &str| {
            let mut lo = at.saturating_sub(80).min(s.len());
            while !s.is_char_boundary(lo) {
                lo -= 1;
            }
            let mut hi = (at + 80).min(s.len());
            while !s.is_char_boundary(hi) {
                hi += 1;
            }
            format!("{:?}", &s[lo..hi])
        };
        panic!(
            "{what}: differs at byte {at} (ours {} bytes, golden {} bytes)\n  ours:   {}\n  golden: {}",
            ours.len(),
            golden.len(),
            around(ours),
            around(golden)
        );
    }
}

/// `tests/oracles/capture_plugin_validate.sh`'s case table (the script's text): (case, path
/// validated inside it), in the order it captures them.
pub fn plugin_validate_cases(script: &str) -> Vec<(String, String)> {
    let start = script.find("\nCASES='\n").expect("the script has a CASES='…' table") + "\nCASES='\n".len();
    let end = start + script[start..].find("\n'\n").expect("the CASES table is closed");
    script[start..end]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut w = l.split_whitespace();
            let case = w.next().unwrap().to_string();
            let target = w.next().unwrap_or_else(|| panic!("case {case}: no target in the table")).to_string();
            assert!(w.next().is_none(), "case {case}: more than two columns");
            (case, target)
        })
        .collect()
}
