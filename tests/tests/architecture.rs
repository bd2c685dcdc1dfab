//! The engine's import graph (issue #16): every `crate::…` and `super::…` path in
//! `crates/skillkit/src` (comments and `#[cfg(test)] mod tests` aside) is an edge from its file's
//! top-level module to the top-level module it names (`agents::codex` is part of `agents`, the
//! reference scan of `markdown`: a folder and its files count as one). The strongly connected
//! components with more than one module are the import cycles. The app's shell
//! (`src-tauri/src`) is held to the same. Run it with `cargo test -p e2e --test architecture`.
//!
//! There is none: the agents sit above the session state and the lint profile, and below the
//! simulator, the verdict and `check`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `agents/claude_code.rs` → `agents::claude_code`; `agents/mod.rs` → `agents`; `lib.rs` → ``.
fn module_of(root: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(root).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts.join("::")
}

/// The longest prefix of `path` that is a module.
fn resolve<'a>(modules: &'a BTreeSet<String>, path: &str) -> Option<&'a String> {
    let parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
    (1..=parts.len()).rev().find_map(|n| modules.get(&parts[..n].join("::")))
}

/// The top-level module a module belongs to: `agents::codex` → `agents`.
fn top(module: &str) -> &str {
    module.split("::").next().unwrap_or(module)
}

/// Paths after `prefix` in `code`: `crate::agents::codex::AGENT` gives `agents::codex::AGENT`.
fn paths_after<'a>(code: &'a str, prefix: &str) -> Vec<&'a str> {
    code.match_indices(prefix)
        .filter(|(at, _)| !code[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        .map(|(at, _)| {
            let rest = &code[at + prefix.len()..];
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
            rest[..end].trim_end_matches(':')
        })
        .collect()
}

fn graph(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = vec![];
    rust_files(root, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(root, f)).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let me = module_of(root, f);
        let text = std::fs::read_to_string(f).unwrap();
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
        let code: String = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        let is_mod_file = matches!(f.file_stem().and_then(|s| s.to_str()), Some("mod" | "lib"));
        let parent =
            if is_mod_file { me.clone() } else { me.rsplit_once("::").map_or(String::new(), |(p, _)| p.into()) };
        let mut targets: Vec<String> = paths_after(&code, "crate::").into_iter().map(String::from).collect();
        targets.extend(paths_after(&code, "super::").into_iter().map(|p| {
            if parent.is_empty() {
                p.to_string()
            } else {
                format!("{parent}::{p}")
            }
        }));
        let deps = edges.entry(top(&me).to_string()).or_default();
        for t in targets {
            if let Some(m) = resolve(&modules, &t) {
                if top(m) != top(&me) && !top(m).is_empty() {
                    deps.insert(top(m).to_string());
                }
            }
        }
    }
    edges
}

/// Tarjan's strongly connected components with more than one module, each sorted.
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: BTreeSet<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on.insert(v);
        for w in s.edges.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut c = vec![];
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                c.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if c.len() > 1 {
                c.sort();
                s.out.insert(c);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: vec![],
        on: BTreeSet::new(),
        out: BTreeSet::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn the_engine_has_no_import_cycle() {
    let root = e2e::repo_root().join("crates/skillkit/src");
    let g = graph(&root);
    assert!(g.len() > 10, "the engine's modules are read: {:?}", g.keys().collect::<Vec<_>>());
    let found = cycles(&g);
    assert!(found.is_empty(), "import cycles in crates/skillkit/src (each list is one cycle): {found:?}");
}

#[test]
fn the_shell_has_no_import_cycle() {
    let root = e2e::repo_root().join("src-tauri/src");
    let g = graph(&root);
    assert!(g.contains_key("commands"), "the shell's modules are read: {:?}", g.keys().collect::<Vec<_>>());
    let found = cycles(&g);
    assert!(found.is_empty(), "import cycles in src-tauri/src (each list is one cycle): {found:?}");
}

#[test]
fn the_graph_sees_a_cycle_when_there_is_one() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path();
    std::fs::create_dir_all(src.join("agents")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod a;\npub mod b;\npub mod agents;\n").unwrap();
    std::fs::write(src.join("a.rs"), "use crate::b::B;\n// crate::c is a comment\n").unwrap();
    std::fs::write(
        src.join("b.rs"),
        "pub fn f() { crate::a::g() }\n#[cfg(test)]\nmod tests { use crate::agents::x; }\n",
    )
    .unwrap();
    std::fs::write(src.join("agents/mod.rs"), "pub mod x;\nuse crate::agents::x::X;\n").unwrap();
    std::fs::write(src.join("agents/x.rs"), "use super::Y;\nuse crate::a;\n").unwrap();
    let g = graph(src);
    assert_eq!(g["agents"], BTreeSet::from(["a".to_string()]), "a folder's files are one module, which may use itself");
    assert_eq!(cycles(&g), BTreeSet::from([vec!["a".to_string(), "b".to_string()]]));
}

/// Non-blank lines of the Rust files under `dir`, `#[cfg(test)] mod tests` blocks left out.
fn code_lines(dir: &Path) -> usize {
    let mut files = vec![];
    rust_files(dir, &mut files);
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
            code.lines().filter(|l| !l.trim().is_empty()).count()
        })
        .sum()
}

/// The shell only translates (issue #16: at most a tenth of the product's Rust, tests aside): the
/// engine and the CLI against `src-tauri`. The test tools (the fuzzer, the mock provider, the
/// test crates) are not product code and are left out.
#[test]
fn the_shell_is_at_most_a_tenth_of_the_rust() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let shell = code_lines(&root.join("src-tauri/src"));
    let engine = code_lines(&root.join("crates/skillkit/src"));
    let cli = code_lines(&root.join("crates/skillkit-cli/src"));
    let share = shell as f64 / (shell + engine + cli) as f64;
    println!("shell {shell}, engine {engine}, CLI {cli} lines: the shell is {:.1}%", share * 100.0);
    assert!(share <= 0.10, "the shell is {:.1}% of the Rust (goal: at most 10%)", share * 100.0);
}
