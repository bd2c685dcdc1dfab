//! What each crate of the product may depend on (CONTRIBUTING.md, "The architecture's rules"): the
//! engine on no front end, the use cases (`skillkit-api`) on nothing but the engine and plain data
//! crates, the CLI on no window toolkit, the app's shell on no argument parser.
//! Read from each crate's `[dependencies]` (dev- and build-dependencies are the tests' and the
//! build's business). Run it with `cargo test -p e2e --test layers`.

use std::path::Path;

/// The names of a manifest's `[dependencies]` (and `[target.….dependencies]`), as written: the key
/// before `=` or `.` (`foo.workspace = true`), and the `package =` a key renames.
fn dependencies(manifest: &str) -> Vec<String> {
    let mut out = vec![];
    let mut in_deps = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            let table = line.trim_matches(|c| c == '[' || c == ']');
            in_deps = table == "dependencies" || (table.starts_with("target.") && table.ends_with(".dependencies"));
            continue;
        }
        if !in_deps || line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(key) = line.split(['=', '.']).next() {
            out.push(key.trim().trim_matches('"').to_string());
        }
        if let Some(at) = line.find("package") {
            let rest = &line[at + "package".len()..];
            if let Some(name) = rest.trim_start().strip_prefix('=').and_then(|r| r.trim_start().strip_prefix('"')) {
                out.push(name.split('"').next().unwrap_or("").to_string());
            }
        }
    }
    out
}

fn dependencies_of(krate: &str) -> Vec<String> {
    let path = e2e::repo_root().join(krate).join("Cargo.toml");
    let manifest = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let deps = dependencies(&manifest);
    assert!(deps.len() >= 3, "{krate}'s dependencies are read: {deps:?}");
    deps
}

/// The dependencies of `krate` that match one of `forbidden` (a name, or a prefix ending in `*`).
fn forbidden_in(krate: &str, forbidden: &[&str]) -> Vec<String> {
    dependencies_of(krate)
        .into_iter()
        .filter(|d| {
            forbidden.iter().any(|f| match f.strip_suffix('*') {
                Some(prefix) => d.starts_with(prefix),
                None => d == f,
            })
        })
        .collect()
}

#[test]
fn the_engine_depends_on_no_front_end() {
    let found = forbidden_in(
        "crates/skillkit",
        &[
            "tauri*",
            "clap*",
            "codespan-reporting",
            "indicatif",
            "ctrlc",
            "lsp-*",
            "tokio*",
            "async-std",
            "skillkit-cli",
            "skill-studio",
        ],
    );
    assert!(found.is_empty(), "the engine must not depend on a front end's crates: {found:?}");
}

/// The use cases every front end calls know none of them: no window toolkit, no keyring, no
/// argument parser, no terminal or language-server crate, no async runtime.
#[test]
fn the_use_cases_depend_on_no_front_end() {
    let found = forbidden_in(
        "crates/skillkit-api",
        &[
            "tauri*",
            "keyring",
            "clap*",
            "codespan-reporting",
            "indicatif",
            "ctrlc",
            "lsp-*",
            "tokio*",
            "async-std",
            "skillkit-cli",
            "skill-studio",
        ],
    );
    assert!(found.is_empty(), "skillkit-api must not depend on a front end's crates: {found:?}");
    assert!(dependencies_of("crates/skillkit-api").iter().any(|d| d == "skillkit"), "it stands on the engine");
}

#[test]
fn the_front_ends_stay_in_their_lane() {
    let cli = forbidden_in("crates/skillkit-cli", &["tauri*", "skill-studio", "keyring"]);
    assert!(cli.is_empty(), "the CLI must not depend on the app's window toolkit: {cli:?}");
    let shell = forbidden_in("src-tauri", &["clap*", "skillkit-cli", "lsp-*", "codespan-reporting"]);
    assert!(shell.is_empty(), "the app's shell must not depend on the CLI's crates: {shell:?}");
    for krate in ["crates/skillkit-cli", "src-tauri"] {
        assert!(dependencies_of(krate).iter().any(|d| d == "skillkit"), "{krate} reaches the engine through its crate");
        let deps = dependencies_of(krate);
        assert!(deps.iter().any(|d| d == "skillkit-api"), "{krate} calls the shared use cases: {deps:?}");
    }
}

/// The reading itself: keys, dotted keys, renamed packages and target tables are seen, other
/// tables are not.
#[test]
fn dependencies_are_read_as_cargo_reads_them() {
    let manifest = r#"
[package]
name = "x"

[dependencies]
# a comment
serde.workspace = true
tauri = { version = "2" }
"clap" = "4"
engine = { package = "skillkit-engine", path = "../e" }

[dev-dependencies]
tokio = "1"

[target.'cfg(unix)'.dependencies]
libc = "0.2"
"#;
    assert_eq!(dependencies(manifest), ["serde", "tauri", "clap", "engine", "skillkit-engine", "libc"]);
    assert!(Path::new(e2e::repo_root()).join("crates/skillkit/Cargo.toml").is_file());
}
